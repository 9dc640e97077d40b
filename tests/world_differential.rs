//! Differential tests of worlds and free-body stepping against Debian's
//! libode: each `ctests/diff_world_*.c` is built once against Debian's
//! headers and run with both libraries; traces must agree to the tolerance
//! on the program's first line.
//!
//! A missing symbol in our library is reported by name (see
//! `missing_symbols`) instead of as a loader error.
mod common;
use common::*;

fn diff(name: &str) {
    let reference = differential(name);
    assert!(reference.lines().count() > 20, "{name}: short reference trace");
}

#[test]
fn world_defaults_and_settings() {
    diff("diff_world_defaults");
}

#[test]
fn free_fall_forces_and_damping() {
    diff("diff_world_freefall");
}

#[test]
fn spinning_bodies_gyroscopic_finite_rotation_max_speed() {
    diff("diff_world_spin");
}

#[test]
fn auto_disable_of_free_bodies() {
    diff("diff_world_autodisable");
}

#[test]
fn kinematic_bodies_and_moved_callbacks() {
    diff("diff_world_kinematic");
}
