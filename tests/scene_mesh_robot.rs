//! A robot whose links are meshes standing on a mesh floor, and a mesh
//! cube resting on a mesh cube (`ctests/t_scene_mesh_robot.c`, self-checking):
//! the program passes with our library and with Debian's, and both end
//! with the torso and the stacked cube at the same height (1 mm).
mod common;
use common::*;

fn value(out: &str, key: &str, idx: usize) -> f64 {
    let line = out.lines().find(|l| l.starts_with(key)).unwrap_or_else(|| panic!("no {key} in {out}"));
    line.split_whitespace().nth(idx).unwrap().parse().unwrap()
}

#[test]
fn mesh_robot_stands_on_a_mesh_floor_like_in_ode() {
    let bin = build_c("t_scene_mesh_robot", &["t_scene_mesh_robot.c"], Headers::Ours, &[]);
    let ours = run_ok(&bin, Lib::Ours, &[]);
    assert!(ours.ends_with("ok\n"), "{ours}");
    require_reference();
    let dbin = build_c("t_tm2_robot_deb", &["t_scene_mesh_robot.c"], Headers::Debian, &[]);
    let deb = run_ok(&dbin, Lib::Debian, &[]);
    assert!(deb.ends_with("ok\n"), "ODE itself fails the checks: {deb}");
    for (key, idx) in [("robot torso z", 3), ("stacked cube z", 3)] {
        let (a, b) = (value(&ours, key, idx), value(&deb, key, idx));
        assert!((a - b).abs() <= 1e-3, "{key}: ours {a}, ODE {b}");
    }
}
