//! End-to-end scenes (ctests/scene_drop_on_plane_and_heightfield.h): sphere, box,
//! capsule and cylinder dropped on a plane and on a heightfield, a sphere
//! and a capsule rolling down a tilted box with friction; contacts from
//! dSpaceCollide + dCollide in a near callback, contact joints in a joint
//! group, dWorldStep and dWorldQuickStep.
//! - `diff_scene_drop_on_plane_and_heightfield`: trajectories against Debian's, bit-identical;
//! - `t_scene_drop_comes_to_rest`: bodies come to rest without sinking and the sphere
//!   rolls without slipping (closed form), checked by the program itself,
//!   run against our library and against Debian's (same verdict).
mod common;
use common::*;

#[test]
fn scenes_match_ode_trajectories_exactly() {
    let reference = differential("diff_scene_drop_on_plane_and_heightfield");
    assert!(reference.ends_with("done\n"), "reference run incomplete");
    // The scenes must actually make contacts (ground and ramp).
    let touching = reference
        .lines()
        .filter(|l| l.starts_with("s ") && !l.starts_with("s 0") && l.split_whitespace().nth(3) != Some("0"))
        .count();
    assert!(touching > 100, "only {touching} sampled steps with contacts");
}

#[test]
fn bodies_come_to_rest_and_roll() {
    require_reference();
    let bin = build_c("t_scene_drop_comes_to_rest", &["t_scene_drop_comes_to_rest.c"], Headers::Ours, &[]);
    for lib in [Lib::Ours, Lib::Debian] {
        let out = run_ok(&bin, lib, &[]);
        assert!(out.ends_with("all ok\n"), "t_scene_drop_comes_to_rest against {lib:?}:\n{out}");
    }
}
