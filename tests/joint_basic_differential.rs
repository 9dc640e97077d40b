//! Differential tests of the joint types against Debian's libode: each
//! `ctests/diff_joint_{basic,contact,fixed,hinge,slider}_*.c` runs with both libraries and the traces must
//! agree to the tolerance on the program's first line.
//!
//! These programs also need the generic joint functions (dJointAttach,
//! dJointDestroy, joint groups) and joint stepping, which come with the
//! joint object work. Until our library exports those, the test says so and
//! returns; a missing joint-type function is always a failure.
mod common;
use common::*;

/// Functions provided outside the joint types (joint object management).
fn generic(name: &str) -> bool {
    ["dJointAttach", "dJointDestroy", "dJointGroupCreate", "dJointGroupEmpty", "dJointGroupDestroy"].contains(&name)
}

fn diff(name: &str) {
    require_reference();
    let bin = build_c(name, &[&format!("{name}.c")], Headers::Debian, &[]);
    let missing = missing_symbols(&bin);
    assert!(missing.iter().all(|m| generic(m)), "{name} needs joint-type functions our library lacks: {missing:?}");
    if !missing.is_empty() {
        eprintln!("{name}: SKIPPED until the generic joint functions land: {missing:?}");
        return;
    }
    let reference = differential(name);
    assert!(reference.lines().count() > 10, "{name}: short reference trace");
}

#[test]
fn getters_and_setters() {
    diff("diff_joint_basic_getters");
}

#[test]
fn hinge_stops_bounce_motor_and_torque() {
    diff("diff_joint_hinge_stops");
}

#[test]
fn slider_stops_bounce_motor_and_force() {
    diff("diff_joint_slider_stops");
}

#[test]
fn fixed_ball_and_null_joints() {
    diff("diff_joint_fixed_ball");
}

#[test]
fn contact_surface_modes() {
    diff("diff_joint_contact_by_hand");
}

#[test]
fn one_step_of_fully_constrained_systems() {
    diff("diff_joint_basic_one_step");
}
