//! Parameter numbers of every joint parameter function: Debian's values
//! for every number (ctests/diff_joint_param_numbers.c), and a report
//! with no effect for numbers that name no parameter and that the joint
//! does not decode (ctests/t_joint_param_numbers.c).
mod common;
use common::*;

#[test]
fn parameter_numbers_match_debian() {
    let reference = differential("diff_joint_param_numbers");
    assert!(reference.lines().count() > 1000, "short trace");
}

#[test]
fn unknown_parameter_numbers_are_reported_and_change_nothing() {
    let bin = build_c("t_joint_param_numbers", &["t_joint_param_numbers.c"], Headers::Ours, &[]);
    let out = run_ok(&bin, Lib::Ours, &[]);
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("PASS "), "{out}");
    let n: usize = last[5..].trim().parse().unwrap();
    assert!(n > 1000, "too few checks ran: {n}");
}
