//! Differential tests of the universal, hinge2, PR, PU and piston joints
//! against Debian's libode: each `ctests/diff_joint_two_axis_*.c` runs with both
//! libraries and the traces must agree to the tolerance on its first line.
mod common;
use common::*;

#[test]
fn getters_on_random_configurations() {
    let reference = differential("diff_joint_two_axis_getters");
    assert!(reference.lines().count() > 300, "short reference trace");
}

#[test]
fn one_second_with_motors_and_stops_both_steppers() {
    let reference = differential("diff_joint_two_axis_motors_stops");
    // 5 joint scenes x 20 samples x 2 steppers, several lines each.
    assert!(reference.lines().count() > 1000, "short reference trace");
}
