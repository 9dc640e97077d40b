//! Differential tests of dWorldQuickStep against Debian's libode: each
//! `ctests/diff_quick_*.c` is built against Debian's headers and run with
//! both libraries; traces (body states, joint feedback, and the `dRand`
//! seed after every step) must agree to the tolerance on the program's
//! first line.
//!
//! Ignored until the joint API (dJointCreateBall/Hinge/Contact, attach,
//! anchors, axes, params, feedback, groups) is exported by our library:
//! run with `cargo test --test solver_quickstep_differential -- --include-ignored`. The solver
//! itself is checked against the same reference traces now, by
//! `tests/solver_quickstep_oracle.rs`.
mod common;
use common::*;

fn diff(name: &str) {
    let reference = differential(name);
    assert!(reference.lines().count() >= 100, "{name}: short reference trace");
}

#[test]
fn ball_pendulum() {
    diff("diff_quickstep_ball_pendulum");
}

#[test]
fn box_on_contacts_with_friction() {
    diff("diff_quickstep_box_contacts");
}

#[test]
fn hinge_pendulums_with_limit_and_feedback() {
    diff("diff_quickstep_hinge_pendulum");
}

#[test]
fn ball_chain() {
    diff("diff_quickstep_ball_chain");
}
