//! dCollide through geom objects for every primitive pair, Debian's
//! library against ours (`ctests/diff_collide_{sphere,box,capsule,ray}_pairs.c`,
//! exact tolerance), through the geom objects and dCollide's dispatch.
mod common;
use common::*;

#[test]
fn sphere_pairs_through_dcollide() {
    differential("diff_collide_sphere_pairs");
}

#[test]
fn box_pairs_through_dcollide() {
    differential("diff_collide_box_pairs");
}

#[test]
fn capsule_pairs_through_dcollide() {
    differential("diff_collide_capsule_pairs");
}

#[test]
fn ray_pairs_through_dcollide() {
    differential("diff_collide_ray_pairs");
}
