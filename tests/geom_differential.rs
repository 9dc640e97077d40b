//! Differential tests of the geom API against Debian's libode.so.8 (same
//! C program, library switched by LD_LIBRARY_PATH; see ctests/diff_geom_*.c).
mod common;
use common::*;

fn differential_done(name: &str) {
    let reference = differential(name);
    assert!(reference.ends_with("done\n"), "reference run incomplete");
}

#[test]
fn geom_api_matches_ode() {
    differential_done("diff_geom_api");
}

#[test]
fn collide_dispatch_matches_ode() {
    differential_done("diff_geom_dispatch");
}

#[test]
fn collider_overrides_end_at_the_last_close_as_in_ode() {
    differential_done("diff_geom_dispatch_close");
}
