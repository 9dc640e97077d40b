//! Pair colliders, one file per family. Each is a pure function
//! `collide_a_b(a, pose_a, b, pose_b, sink) -> usize` that writes up to
//! `sink.max()` contacts whose normal and depth follow ODE's rule: moving
//! shape `a` by `depth` along `normal` separates the pair. `g1/g2` are
//! filled by the dispatcher, `side1/side2` by the collider where ODE sets
//! them (-1 otherwise, which the sink does by default).

pub mod box_box;
pub mod box_shape;
pub mod capsule;
pub mod ccd;
pub mod convex;
pub mod cylinder;
pub mod plane;
pub mod ray;
pub mod sphere;

/// Reports a pair the library declines to collide because of absurd sizes
/// (where ODE would exhaust memory or never return): the caller then
/// produces no contact. Debug channel, as ODE's own assertions.
#[cold]
pub fn give_up(text: &str) {
    crate::error::report(crate::error::Channel::Debug, crate::error::D_ERR_UASSERT, text);
}
