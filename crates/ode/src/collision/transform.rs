//! Geom transforms (`dCreateGeomTransform`): a placeable geom that carries
//! another geom (its child, which must be in no space and on no body) at
//! a pose relative to itself. The child's world pose is composed when the
//! transform's AABB is computed or when it collides; during that time the
//! child temporarily takes that pose and the transform's body, exactly as
//! ODE swaps them in.

use super::contact::NUMC_MASK;
use super::dispatch;
use super::geom::{self, g, gflags, GeomRef};
use super::shapes::Pose;
use crate::abi::contact::dContactGeom;
use crate::dynamics::body::BodyRef;
use crate::math::mat3::{mul0_331, mul0_333};

pub struct Transform {
    pub obj: Option<GeomRef>,
    /// Destroy the child with the transform (the int given, echoed back).
    pub cleanup: i32,
    /// Report the transform instead of the child as g1 of contacts.
    pub info: i32,
    /// Cached world pose of the child (valid while the AABB is).
    pub tx: Pose,
}

impl Transform {
    pub fn new() -> Transform {
        Transform { obj: None, cleanup: 0, info: 0, tx: Pose::IDENTITY }
    }
}

impl Default for Transform {
    fn default() -> Self {
        Transform::new()
    }
}

fn tr(h: GeomRef) -> &'static mut Transform {
    match &mut g(h).shape {
        geom::Shape::Transform(t) => t,
        _ => unreachable!("not a geom transform"),
    }
}

/// The live child, if any.
pub fn child(h: GeomRef) -> Option<GeomRef> {
    tr(h).obj.filter(|c| c.is_live())
}

/// Composes the child's world pose from the transform's.
fn compute_final_tx(h: GeomRef) {
    let Some(c) = child(h) else { return };
    let (cp, cr) = (*geom::position(c), *geom::rotation(c));
    let (tp, trr) = (*geom::position(h), *geom::rotation(h));
    let p = mul0_331(&trr, &cp);
    let t = tr(h);
    t.tx.pos = [p[0] + tp[0], p[1] + tp[1], p[2] + tp[2], t.tx.pos[3]];
    t.tx.r = mul0_333(&trr, &cr);
}

/// Runs `f` with the child placed at `pose` on `body`.
fn with_child_at<R>(c: GeomRef, pose: Pose, body: Option<BodyRef>, f: impl FnOnce() -> R) -> R {
    let cg = g(c);
    let saved = (cg.own, cg.pose_is_body, cg.body, cg.gflags & gflags::POSR_BAD);
    cg.own = pose;
    cg.pose_is_body = false;
    cg.body = body;
    cg.gflags &= !gflags::POSR_BAD;
    let r = f();
    if c.is_live() {
        let cg = g(c);
        cg.own = saved.0;
        cg.pose_is_body = saved.1;
        cg.body = saved.2;
        cg.gflags |= saved.3;
    }
    r
}

/// The transform's AABB: the child's at its composed pose (zero without
/// child). The child's cached AABB is overwritten too, as in ODE.
pub fn compute_aabb(h: GeomRef) {
    let Some(c) = child(h) else {
        g(h).aabb = [0.0; 6];
        return;
    };
    compute_final_tx(h);
    let pose = tr(h).tx;
    let body = g(c).body;
    with_child_at(c, pose, body, || geom::compute_aabb(c));
    g(h).aabb = g(c).aabb;
}

/// The transform collider: the child at its composed pose (and on the
/// transform's body) against `o2`.
///
/// # Safety
/// As `dispatch::collide_raw`.
pub unsafe fn collide(h: GeomRef, o2: GeomRef, flags: i32, contact: *mut dContactGeom, skip: usize) -> usize {
    let Some(c) = child(h) else { return 0 };
    if g(c).parent.is_some() || g(c).body.is_some() {
        crate::error::report(
            crate::error::Channel::Debug,
            crate::error::D_ERR_UASSERT,
            "dCollide: the geom inside a geom transform must be in no space and on no body",
        );
        return 0;
    }
    if g(h).gflags & gflags::AABB_BAD != 0 {
        compute_final_tx(h);
    }
    let pose = tr(h).tx;
    let body = g(h).body;
    let n = with_child_at(c, pose, body, || dispatch::collide_raw(c, o2, flags, contact, skip));
    if tr(h).info != 0 {
        let max = (flags & NUMC_MASK) as usize;
        for i in 0..n.min(max) {
            (*dispatch::slot(contact, skip, i)).g1 = h.as_raw();
        }
    }
    n
}
