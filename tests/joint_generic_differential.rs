//! Differential tests of joints against Debian's libode: each
//! `ctests/diff_joint_*.c` is built once against Debian's headers and run
//! with both libraries; traces must agree to the tolerance on the
//! program's first line.
mod common;
use common::*;

fn diff(name: &str) {
    let reference = differential(name);
    assert!(reference.lines().count() > 20, "{name}: short reference trace");
}

/// Joint-generic API with null joints: lists, order, attachment,
/// connectivity, groups, destruction (identical text).
#[test]
fn joint_api_lists_groups_and_connectivity() {
    diff("diff_joint_generic_api");
}

/// Islands and auto-disable through null joints, both steppers (identical
/// text: no constraint rows, so stepping must stay bit-identical).
#[test]
fn islands_and_autodisable_through_joints() {
    diff("diff_joint_islands");
}
