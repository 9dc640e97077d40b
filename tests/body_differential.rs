//! Differential tests of the dBody* functions: the same C program runs
//! against Debian's libode.so.8 and ours; traces must agree within the
//! tolerance declared on the program's first line.
mod common;
use common::*;

fn differential_done(name: &str) {
    let reference = differential(name);
    assert!(reference.ends_with("done\n"), "reference run incomplete");
}

#[test]
fn body_state_matches_ode() {
    differential_done("diff_body_state");
}

#[test]
fn body_world_defaults_match_ode() {
    differential_done("diff_body_world_defaults");
}

#[test]
fn body_settings_drive_steps_like_ode() {
    differential_done("diff_body_dynamics");
}
