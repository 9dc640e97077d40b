//! dCollide through geom objects for every primitive pair, Debian's
//! library against ours (`ctests/diff_prim_*.c`, exact tolerance). These
//! need the geom objects and dCollide's dispatch (issue 4, GCORE); until
//! they are merged our library lacks dCreateSphere & co., hence `ignore`.
mod common;
use common::*;

#[test]
fn sphere_pairs_through_dcollide() {
    differential("diff_prim_sphere");
}

#[test]
fn box_pairs_through_dcollide() {
    differential("diff_prim_box");
}

#[test]
fn capsule_pairs_through_dcollide() {
    differential("diff_prim_capsule");
}

#[test]
fn ray_pairs_through_dcollide() {
    differential("diff_prim_ray");
}
