//! Differential tests of the angular/linear motor, plane-2D, double ball,
//! double hinge and transmission joints against Debian's libode: each
//! `ctests/diff_joint_motor_double_*.c` runs with both libraries and the traces must agree
//! to the tolerance on the program's first line.
mod common;
use common::*;

#[test]
fn getters_and_setters() {
    let reference = differential("diff_joint_motor_double_getters");
    assert!(reference.lines().count() > 100, "short reference trace");
}

#[test]
fn one_second_of_motion_with_both_steppers() {
    let reference = differential("diff_joint_motor_double_scenes");
    assert!(reference.lines().count() > 400, "short reference trace");
}
