//! Self-checking C programs of the universal, hinge2, PR, PU and piston
//! joints: the static cases of ODE's documentation (run against Debian's
//! library too, which confirms the expected values) and bad input
//! (against ours only: ODE aborts or crashes on it).
mod common;
use common::*;

fn passes(out: &str, min: usize) {
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("PASS "), "{out}");
    let n: usize = last[5..].trim().parse().unwrap();
    assert!(n >= min, "too few checks ran: {n}");
}

#[test]
fn documented_angles_and_positions_read_as_in_ode() {
    require_reference();
    let bin = build_c("t_joint_two_axis_static", &["t_joint_two_axis_static.c"], Headers::Debian, &[]);
    passes(&run_ok(&bin, Lib::Debian, &[]), 40);
    passes(&run_ok(&bin, Lib::Ours, &[]), 40);
    let bin = build_c("t_joint_two_axis_static", &["t_joint_two_axis_static.c"], Headers::Ours, &[]);
    passes(&run_ok(&bin, Lib::Ours, &[]), 40);
}

#[test]
fn bad_calls_are_reported_and_ignored() {
    let bin = build_c("t_joint_two_axis_badinput", &["t_joint_two_axis_badinput.c"], Headers::Ours, &[]);
    passes(&run_ok(&bin, Lib::Ours, &[]), 170);
}
