//! Trimesh against plane with Preprocess's use flags, against Debian's
//! libode.so.8 (`ctests/diff_trimesh_plane_use_flags.c`, exact): ODE's
//! plane collider reports each vertex below the plane once, for the first
//! triangle using it, and ignores the use flags. Ours used to let the
//! flags pick the reporting triangle and drop unowned vertices, so a
//! preprocessed concave mesh gave no contact at all. The heightfield's
//! trimesh collider goes through the same plane collider.
mod common;
use common::*;

#[test]
fn trimesh_plane_ignores_use_flags_like_ode() {
    let reference = differential("diff_trimesh_plane_use_flags");
    assert!(reference.ends_with("done\n"));
    let touching = reference.lines().filter(|l| l.starts_with("mesh ") && !l.ends_with(" n 0")).count();
    assert!(touching > 400, "only {touching} touching cases");
}
