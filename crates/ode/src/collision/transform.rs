//! The geom transform collider (`dCreateGeomTransform`): the child at the
//! pose composed from the transform's (see `geom::Transform`), on the
//! transform's body, against the other geom, through the pair dispatch.

use super::contact::{slot, NUMC_MASK};
use super::geom::{self, g, gflags, GeomRef};
use crate::abi::contact::dContactGeom;

/// `dCollide` on checked geoms (`dispatch::collide_raw`).
pub type CollideFn = unsafe fn(GeomRef, GeomRef, i32, *mut dContactGeom, usize) -> usize;

/// The transform collider: the child at its composed pose (and on the
/// transform's body) against `o2`.
///
/// `collide_child` is `dispatch::collide_raw`, which calls this for the
/// transform's pairs.
///
/// # Safety
/// As `dispatch::collide_raw`.
pub unsafe fn collide(
    h: GeomRef,
    o2: GeomRef,
    flags: i32,
    contact: *mut dContactGeom,
    skip: usize,
    collide_child: CollideFn,
) -> usize {
    let Some(c) = geom::transform_child(h) else { return 0 };
    if g(c).parent.is_some() || g(c).body.is_some() {
        crate::error::report(
            crate::error::Channel::Debug,
            crate::error::D_ERR_UASSERT,
            "dCollide: the geom inside a geom transform must be in no space and on no body",
        );
        return 0;
    }
    if g(h).gflags & gflags::AABB_BAD != 0 {
        geom::compute_final_tx(h);
    }
    let pose = geom::transform_of(h).tx;
    let body = g(h).body;
    let n = geom::with_child_at(c, pose, body, || collide_child(c, o2, flags, contact, skip));
    if geom::transform_of(h).info != 0 {
        let max = (flags & NUMC_MASK) as usize;
        for i in 0..n.min(max) {
            (*slot(contact, skip, i)).g1 = h.as_raw();
        }
    }
    n
}
