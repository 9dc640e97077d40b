//! Use flags of trimesh preprocessing, byte for byte against Debian's ODE
//! 0.16.2 (`ctests/diff_trimesh_preprocess_flags.c`, exact comparison),
//! the face angles as the convex–trimesh collider uses them, in every
//! storage format and with the host's normals (`ctests/diff_trimesh_face_angles.c`),
//! and the arrays a host hands trimesh data (`ctests/diff_trimesh_host_arrays.c`,
//! and `ctests/t_trimesh_host_arrays.c` for what Debian's ODE aborts on).
mod common;

#[test]
fn use_flags_equal_ode() {
    let out = common::differential("diff_trimesh_preprocess_flags");
    assert!(out.ends_with("done\n"));
}

#[test]
fn face_angles_give_ode_convex_contacts() {
    let out = common::differential("diff_trimesh_face_angles");
    assert!(out.ends_with("done\n"));
}

#[test]
fn host_normals_and_use_flags_equal_ode() {
    let out = common::differential("diff_trimesh_host_arrays");
    assert!(out.ends_with("done\n"));
}

#[test]
fn host_arrays_where_ode_aborts() {
    let bin = common::build_c("t_trimesh_host_arrays", &["t_trimesh_host_arrays.c"], common::Headers::Ours, &[]);
    let out = common::run_ok(&bin, common::Lib::Ours, &[]);
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("PASS "), "{out}");
}
