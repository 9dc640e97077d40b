//! Bodies resting on triangle meshes for 2000 steps (mesh body on a box
//! floor, mesh on mesh, primitives on a terrain mesh; both steppers),
//! required bit-identical to Debian's ODE: see
//! `ctests/diff_trimesh_rest_on_meshes.c`. Trimesh contact order sets the
//! solver's row order, so this fails as soon as any trimesh collider
//! returns ODE's contacts in another order.
mod common;

#[test]
fn bodies_resting_on_meshes_follow_ode_exactly() {
    common::differential("diff_trimesh_rest_on_meshes");
}
