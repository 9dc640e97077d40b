//! Bad input to the joint-generic functions through the C ABI: reported
//! with the function's name, no effect, process continues.
mod common;
use common::*;

#[test]
fn bad_joint_calls_are_reported_and_ignored() {
    require_reference();
    let bin = build_c("t_joint_generic_badinput", &["t_joint_generic_badinput.c"], Headers::Debian, &[]);
    let out = run_ok(&bin, Lib::Ours, &[]);
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("PASS "), "{out}");
    let n: usize = last[5..].trim().parse().unwrap();
    assert!(n > 100, "too few checks ran: {n}");
}
