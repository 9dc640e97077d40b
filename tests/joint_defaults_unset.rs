//! Every joint type stepped on its defaults, before any anchor or axis is
//! set, with both steppers: Debian's trajectory bit for bit where Debian
//! runs (ctests/diff_joint_defaults_unset.c), and finite and silent
//! everywhere, the axis-less double hinge moving as a double ball
//! (ctests/t_joint_defaults_finite.c).
mod common;
use common::*;

#[test]
fn defaults_match_debian() {
    let reference = differential("diff_joint_defaults_unset");
    assert!(reference.lines().count() >= 480, "short trace");
}

#[test]
fn defaults_are_finite_and_silent() {
    let bin = build_c("t_joint_defaults_finite", &["t_joint_defaults_finite.c"], Headers::Ours, &[]);
    let out = run_ok(&bin, Lib::Ours, &[]);
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("PASS "), "{out}");
    let n: usize = last[5..].trim().parse().unwrap();
    assert!(n > 3000, "too few checks ran: {n}");
}
