//! Bad input to the angular/linear motor, plane-2D, double ball, double
//! hinge and transmission functions through the C ABI: reported with the
//! function's name, no effect, process continues (see the C source).
mod common;
use common::*;

#[test]
fn bad_calls_are_reported_and_ignored() {
    let bin = build_c("t_joint_motor_double_badinput", &["t_joint_motor_double_badinput.c"], Headers::Ours, &[]);
    let out = run_ok(&bin, Lib::Ours, &[]);
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("PASS "), "{out}");
    let n: usize = last[5..].trim().parse().unwrap();
    assert!(n > 120, "too few checks ran: {n}");
}
