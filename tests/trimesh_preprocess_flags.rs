//! Use flags of trimesh preprocessing, byte for byte against Debian's ODE
//! 0.16.2 (`ctests/diff_trimesh_preprocess_flags.c`, exact comparison).
mod common;

#[test]
fn use_flags_equal_ode() {
    let out = common::differential("diff_trimesh_preprocess_flags");
    assert!(out.ends_with("done\n"));
}
