//! The ball-and-socket joint (`dJointCreateBall`): three rows keeping one
//! anchor point of each body together, with the joint's own ERP and CFM.
//!
//! Also home of the anchor helpers the other joints share (ODE's
//! `setAnchors`, `getAnchor`, `getAnchor2`, `setBall`): anchors are stored
//! in each body's frame; with no second body, anchor 2 is a world point.

use super::{Bodies, Info1, JointHead, JointModel, Row, RowCtx};
use crate::dynamics::world::World;
use crate::math::mat3::{mul0_331, mul1_331};

/// The joint's bodies as `Bodies` (`body[0]` is set whenever any is).
pub fn bodies_of(head: &JointHead) -> Bodies<'_> {
    Bodies { b1: head.body[0].map(|h| h.get()), b2: head.body[1].map(|h| h.get()) }
}

/// Body-relative anchors of the world point `p`; `None` (anchors kept)
/// when the joint has no body.
pub fn set_anchors(b: Bodies<'_>, p: [f64; 3]) -> Option<([f64; 3], [f64; 3])> {
    let b0 = b.b1?;
    let q = [p[0] - b0.pos[0], p[1] - b0.pos[1], p[2] - b0.pos[2]];
    let a1 = mul1_331(&b0.r, &q);
    let a2 = match b.b2 {
        Some(b1) => {
            let q = [p[0] - b1.pos[0], p[1] - b1.pos[1], p[2] - b1.pos[2]];
            mul1_331(&b1.r, &q)
        }
        None => p,
    };
    Some((a1, a2))
}

/// World position of anchor 1; `None` when there is no body (ODE leaves
/// the caller's result untouched then).
pub fn get_anchor1(b: Bodies<'_>, anchor1: &[f64; 3]) -> Option<[f64; 3]> {
    let b0 = b.b1?;
    let r = mul0_331(&b0.r, anchor1);
    Some([r[0] + b0.pos[0], r[1] + b0.pos[1], r[2] + b0.pos[2]])
}

/// World position of anchor 2 (a world point already without body 2).
pub fn get_anchor2(b: Bodies<'_>, anchor2: &[f64; 3]) -> [f64; 3] {
    match b.b2 {
        Some(b1) => {
            let r = mul0_331(&b1.r, anchor2);
            [r[0] + b1.pos[0], r[1] + b1.pos[1], r[2] + b1.pos[2]]
        }
        None => *anchor2,
    }
}

/// The anchor as the user sees it: anchor 1, or anchor 2 when the joint
/// was attached as (0, body) (REVERSE). `None` leaves the result untouched.
pub fn user_anchor(head: &JointHead, b: Bodies<'_>, a1: &[f64; 3], a2: &[f64; 3]) -> Option<[f64; 3]> {
    if head.flags & super::flags::REVERSE != 0 {
        Some(get_anchor2(b, a2))
    } else {
        get_anchor1(b, a1)
    }
}

/// The other anchor (`dJointGet*Anchor2`).
pub fn user_anchor2(head: &JointHead, b: Bodies<'_>, a1: &[f64; 3], a2: &[f64; 3]) -> Option<[f64; 3]> {
    if head.flags & super::flags::REVERSE != 0 {
        get_anchor1(b, a1)
    } else {
        Some(get_anchor2(b, a2))
    }
}

/// Writes [a]ₓ (or −[a]ₓ with `minus`) into the angular Jacobian of body 1
/// or 2 of three consecutive rows: row i then gives component i of a × w
/// (resp. w × a). Only the off-diagonal entries are written, as ODE does.
pub fn set_cross_rows(rows: &mut [Row], a: &[f64; 3], second: bool, minus: bool) {
    let m = if minus {
        [[0.0, a[2], -a[1]], [-a[2], 0.0, a[0]], [a[1], -a[0], 0.0]]
    } else {
        [[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]]
    };
    for (i, (row, v)) in rows.iter_mut().zip(m).enumerate() {
        let dst = if second { &mut row.j2a } else { &mut row.j1a };
        for k in (0..3).filter(|&k| k != i) {
            dst[k] = v[k];
        }
    }
}

/// ODE's `setBall`: rows 0..3 keep the anchors together, right-hand side
/// fps·erp·(anchor2 − anchor1) in world coordinates.
pub fn set_ball_rows(b: Bodies<'_>, fps: f64, erp: f64, rows: &mut [Row], anchor1: &[f64; 3], anchor2: &[f64; 3]) {
    let Some(b0) = b.b1 else { return };
    let rows = &mut rows[..3];
    for (i, row) in rows.iter_mut().enumerate() {
        row.j1l[i] = 1.0;
    }
    let a1 = mul0_331(&b0.r, anchor1);
    set_cross_rows(rows, &a1, false, true);
    let mut a2 = [0.0; 3];
    if let Some(b1) = b.b2 {
        for (i, row) in rows.iter_mut().enumerate() {
            row.j2l[i] = -1.0;
        }
        a2 = mul0_331(&b1.r, anchor2);
        set_cross_rows(rows, &a2, true, false);
    }
    let k = fps * erp;
    for (j, row) in rows.iter_mut().enumerate() {
        row.c = match b.b2 {
            Some(b1) => k * (a2[j] + b1.pos[j] - a1[j] - b0.pos[j]),
            None => k * (anchor2[j] - a1[j] - b0.pos[j]),
        };
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Ball {
    pub anchor1: [f64; 3],
    pub anchor2: [f64; 3],
    pub erp: f64,
    pub cfm: f64,
}

impl Ball {
    /// Anchors at the bodies' centres, ERP and CFM from the world.
    pub fn new(world: &World) -> Ball {
        Ball { anchor1: [0.0; 3], anchor2: [0.0; 3], erp: world.erp, cfm: world.cfm }
    }

    pub fn set_anchor(&mut self, b: Bodies<'_>, p: [f64; 3]) {
        if let Some((a1, a2)) = set_anchors(b, p) {
            self.anchor1 = a1;
            self.anchor2 = a2;
        }
    }

    /// `dJointSetBallAnchor2`: stores the raw values as anchor 2 (body 2's
    /// frame, or world with no body 2), as ODE does.
    pub fn set_anchor2_raw(&mut self, p: [f64; 3]) {
        self.anchor2 = p;
    }

    pub fn anchor(&self, head: &JointHead, b: Bodies<'_>) -> Option<[f64; 3]> {
        user_anchor(head, b, &self.anchor1, &self.anchor2)
    }

    pub fn anchor2(&self, head: &JointHead, b: Bodies<'_>) -> Option<[f64; 3]> {
        user_anchor2(head, b, &self.anchor1, &self.anchor2)
    }

    /// `dParamERP` and `dParamCFM` are the ball's; others are ignored.
    pub fn set_param(&mut self, p: super::limit_motor::Param, v: f64) {
        use super::limit_motor::Param;
        match p {
            Param::Cfm => self.cfm = v,
            Param::Erp => self.erp = v,
            _ => {}
        }
    }

    pub fn param(&self, p: super::limit_motor::Param) -> f64 {
        use super::limit_motor::Param;
        match p {
            Param::Cfm => self.cfm,
            Param::Erp => self.erp,
            _ => 0.0,
        }
    }
}

impl JointModel for Ball {
    const TYPE: std::ffi::c_int = crate::abi::common::dJointType::dJointTypeBall as std::ffi::c_int;

    fn info1(&mut self, _: &JointHead, _: Bodies<'_>) -> Info1 {
        Info1 { m: 3, nub: 3 }
    }

    fn info2(&mut self, _: &JointHead, b: Bodies<'_>, ctx: &RowCtx<'_>, rows: &mut [Row]) {
        for row in rows.iter_mut().take(3) {
            row.cfm = self.cfm;
        }
        set_ball_rows(b, ctx.fps, self.erp, rows, &self.anchor1, &self.anchor2);
    }

    fn max_rows(&self) -> usize {
        3
    }

    /// Re-expresses the current anchor (seen from the new bodies) in their
    /// frames.
    fn relative_values_sane(&self) -> bool {
        super::points_sane(&[&self.anchor1, &self.anchor2])
    }

    fn set_relative_values(&mut self, head: &JointHead, b: Bodies<'_>) {
        let Some(p) = self.anchor(head, b) else { return };
        self.set_anchor(b, p);
    }
}
