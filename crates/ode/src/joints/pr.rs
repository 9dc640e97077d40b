//! The prismatic-rotoide joint (`dJointCreatePR`): body 1 slides along
//! the prismatic axis (fixed in body 1) and body 2 turns about the rotoide
//! axis, which should be perpendicular to it. Four rows (two keep the
//! rotoide axes aligned, two keep body 2's anchor on the line through
//! body 1 along the prismatic axis), then a limit/motor row for the
//! position and one for the angle.
//!
//! `offset` is the anchor in body 1's frame (position 0), `anchor2` the
//! anchor in body 2's frame (world without body 2).

use super::ball::{get_anchor2, set_anchors};
use super::fixed::relative_rotation;
use super::hinge::{axis_ok, get_axis1, hinge_angle, set_axes};
use super::limit_motor::{BodyPush, Limit, LimitMotor};
use super::universal::two_axis_param;
use super::{flags, Bodies, Info1, JointHead, JointModel, Row, RowCtx};
use crate::dynamics::world::World;
use crate::math::mat3::mul0_331;
use crate::math::vec::{cross3, dot3};
use std::f64::consts::PI;

#[derive(Clone, Debug, PartialEq)]
pub struct Pr {
    pub anchor2: [f64; 3],
    /// Anchor in body 1's frame.
    pub offset: [f64; 3],
    /// Rotoide axis in body 1's and in body 2's frame (world without body 2).
    pub axis_r1: [f64; 3],
    pub axis_r2: [f64; 3],
    /// Prismatic axis in body 1's frame.
    pub axis_p1: [f64; 3],
    pub qrel: [f64; 4],
    pub limot_p: LimitMotor,
    pub limot_r: LimitMotor,
    /// Motor forces at stops recorded by `info2`, applied in order.
    pub push: [BodyPush; 2],
}

impl Pr {
    /// Prismatic axis y, rotoide axis x, anchors at the origin.
    pub fn new(world: &World) -> Pr {
        Pr {
            anchor2: [0.0; 3],
            offset: [0.0; 3],
            axis_r1: [1.0, 0.0, 0.0],
            axis_r2: [1.0, 0.0, 0.0],
            axis_p1: [0.0, 1.0, 0.0],
            qrel: [0.0; 4],
            limot_p: LimitMotor::new(world),
            limot_r: LimitMotor::new(world),
            push: Default::default(),
        }
    }

    /// Axis 0 is the prismatic part (group 1), 1 the rotoide part.
    pub fn limot(&mut self, axis: usize) -> &mut LimitMotor {
        if axis == 0 {
            &mut self.limot_p
        } else {
            &mut self.limot_r
        }
    }

    pub fn set_param(&mut self, code: std::ffi::c_int, v: f64) {
        if let (axis, Some(p)) = two_axis_param(code) {
            self.limot(axis).set(p, v);
        }
    }

    pub fn param(&mut self, code: std::ffi::c_int) -> f64 {
        match two_axis_param(code) {
            (axis, Some(p)) => self.limot(axis).get(p),
            _ => 0.0,
        }
    }

    fn reset_qrel(&mut self, b: Bodies<'_>) {
        if let Some(q) = relative_rotation(b) {
            self.qrel = q;
        }
    }

    /// `dJointSetPRAnchor` (the angle reference is kept).
    pub fn set_anchor(&mut self, b: Bodies<'_>, p: [f64; 3]) {
        if let Some((a1, a2)) = set_anchors(b, p) {
            self.offset = a1;
            self.anchor2 = a2;
        }
    }

    /// `dJointSetPRAxis1` (prismatic axis).
    pub fn set_axis1(&mut self, b: Bodies<'_>, a: [f64; 3]) {
        if let Some((a1, _)) = set_axes(b, a) {
            self.axis_p1 = a1;
        }
        self.reset_qrel(b);
    }

    /// `dJointSetPRAxis2` (rotoide axis).
    pub fn set_axis2(&mut self, b: Bodies<'_>, a: [f64; 3]) {
        if let Some((a1, a2)) = set_axes(b, a) {
            self.axis_r1 = a1;
            self.axis_r2 = a2;
        }
        self.reset_qrel(b);
    }

    /// `dJointGetPRAnchor`: the anchor as attached to body 2 (or the world).
    pub fn anchor(&self, b: Bodies<'_>) -> [f64; 3] {
        get_anchor2(b, &self.anchor2)
    }

    pub fn axis1(&self, b: Bodies<'_>) -> Option<[f64; 3]> {
        get_axis1(b, &self.axis_p1)
    }

    pub fn axis2(&self, b: Bodies<'_>) -> Option<[f64; 3]> {
        get_axis1(b, &self.axis_r1)
    }

    /// Position along the prismatic axis; `None` without body (ODE crashes).
    pub fn position(&self, head: &JointHead, b: Bodies<'_>) -> Option<f64> {
        let b0 = b.b1?;
        let o = mul0_331(&b0.r, &self.offset);
        let q = match b.b2 {
            Some(b1) => {
                let a2 = mul0_331(&b1.r, &self.anchor2);
                [
                    (b0.pos[0] + o[0]) - (b1.pos[0] + a2[0]),
                    (b0.pos[1] + o[1]) - (b1.pos[1] + a2[1]),
                    (b0.pos[2] + o[2]) - (b1.pos[2] + a2[2]),
                ]
            }
            None => {
                let q = [
                    (b0.pos[0] + o[0]) - self.anchor2[0],
                    (b0.pos[1] + o[1]) - self.anchor2[1],
                    (b0.pos[2] + o[2]) - self.anchor2[2],
                ];
                if head.flags & flags::REVERSE != 0 {
                    [-q[0], -q[1], -q[2]]
                } else {
                    q
                }
            }
        };
        Some(dot3(&mul0_331(&b0.r, &self.axis_p1), &q))
    }

    /// Rate of the position; `None` without body (ODE crashes).
    pub fn position_rate(&self, head: &JointHead, b: Bodies<'_>) -> Option<f64> {
        let b0 = b.b1?;
        let ax1 = mul0_331(&b0.r, &self.axis_p1);
        Some(match b.b2 {
            Some(b1) => {
                let lv2 = b1.rel_point_vel(self.anchor2);
                dot3(&ax1, &b0.lvel) - dot3(&ax1, &lv2)
            }
            None => {
                let rate = dot3(&ax1, &b0.lvel);
                if head.flags & flags::REVERSE != 0 {
                    -rate
                } else {
                    rate
                }
            }
        })
    }

    pub fn angle(&self, head: &JointHead, b: Bodies<'_>) -> f64 {
        super::hinge::signed_hinge_angle(head, b, &self.axis_r1, &self.qrel)
    }

    pub fn angle_rate(&self, head: &JointHead, b: Bodies<'_>) -> f64 {
        super::hinge::signed_hinge_rate(head, b, &self.axis_r1)
    }

    /// `dJointAddPRTorque`: torque about the rotoide axis.
    pub fn torque_push(&self, head: &JointHead, b: Bodies<'_>, torque: f64) -> BodyPush {
        let torque = if head.flags & flags::REVERSE != 0 { -torque } else { torque };
        let mut push = BodyPush::default();
        if let Some(a) = get_axis1(b, &self.axis_r1) {
            let t = [a[0] * torque, a[1] * torque, a[2] * torque];
            push.torque[0] = Some(t);
            if b.b2.is_some() {
                push.torque[1] = Some([-t[0], -t[1], -t[2]]);
            }
        }
        push
    }
}

impl JointModel for Pr {
    const TYPE: std::ffi::c_int = crate::abi::common::dJointType::dJointTypePR as std::ffi::c_int;

    fn info1(&mut self, head: &JointHead, b: Bodies<'_>) -> Info1 {
        self.limot_p.limit = Limit::Free;
        let l = &self.limot_p;
        if (l.lostop > f64::NEG_INFINITY || l.histop < f64::INFINITY) && l.lostop <= l.histop {
            if let Some(pos) = self.position(head, b) {
                self.limot_p.test_limit(pos);
            }
        }
        self.limot_r.limit = Limit::Free;
        let l = &self.limot_r;
        if (l.lostop >= -PI || l.histop <= PI) && l.lostop <= l.histop {
            let a = hinge_angle(b, &self.axis_r1, &self.qrel);
            self.limot_r.test_limit(a);
        }
        let m = 4 + self.limot_p.needs_row() as usize + self.limot_r.needs_row() as usize;
        Info1 { m, nub: 4 }
    }

    fn info2(&mut self, head: &JointHead, b: Bodies<'_>, ctx: &RowCtx<'_>, rows: &mut [Row]) {
        self.push = Default::default();
        let Some(b0) = b.b1 else { return };
        let k = ctx.fps * ctx.erp;
        let axp = mul0_331(&b0.r, &self.axis_p1);
        let p1 = &b0.pos;

        // Body 2's anchor relative to body 1's centre.
        let mut wanchor2 = [0.0; 3];
        let dist = match b.b2 {
            Some(b1) => {
                wanchor2 = mul0_331(&b1.r, &self.anchor2);
                [wanchor2[0] + b1.pos[0] - p1[0], wanchor2[1] + b1.pos[1] - p1[1], wanchor2[2] + b1.pos[2] - p1[2]]
            }
            None if head.flags & flags::REVERSE != 0 => {
                [p1[0] - self.anchor2[0], p1[1] - self.anchor2[1], p1[2] - self.anchor2[2]]
            }
            None => [self.anchor2[0] - p1[0], self.anchor2[1] - p1[1], self.anchor2[2] - p1[2]],
        };

        // Rows 0, 1: no relative rotation about the prismatic axis and
        // about q = rotoide × prismatic.
        let ax1 = mul0_331(&b0.r, &self.axis_r1);
        let q = cross3(&ax1, &axp);
        rows[0].j1a = axp;
        rows[1].j1a = q;
        let ax2 = match b.b2 {
            Some(b1) => {
                rows[0].j2a = [-axp[0], -axp[1], -axp[2]];
                rows[1].j2a = [-q[0], -q[1], -q[2]];
                mul0_331(&b1.r, &self.axis_r2)
            }
            None => self.axis_r2,
        };
        let bv = cross3(&ax1, &ax2);
        rows[0].c = k * dot3(&bv, &axp);
        rows[1].c = k * dot3(&bv, &q);

        // Rows 2, 3: body 2's anchor does not move off the prismatic line
        // (along the rotoide axis and along q).
        for (row, u) in rows[2..4].iter_mut().zip([ax1, q]) {
            row.j1l = u;
            row.j1a = cross3(&dist, &u);
            if b.b2.is_some() {
                row.j2l = [-u[0], -u[1], -u[2]];
            }
        }
        if b.b2.is_some() {
            rows[2].j2a = cross3(&ax2, &wanchor2);
            rows[3].j2a = cross3(&q, &wanchor2);
        }
        let o = mul0_331(&b0.r, &self.offset);
        let err = [dist[0] - o[0], dist[1] - o[1], dist[2] - o[2]];
        rows[2].c = k * dot3(&ax1, &err);
        rows[3].c = k * dot3(&q, &err);

        let mut r = 4;
        if self.limot_p.needs_row() {
            let axis =
                if b.b2.is_none() && head.flags & flags::REVERSE != 0 { [-axp[0], -axp[1], -axp[2]] } else { axp };
            self.push[0] = self.limot_p.fill_row(b, ctx.fps, &mut rows[r], &axis, false);
            r += 1;
        }
        if self.limot_r.needs_row() {
            self.push[1] = self.limot_r.fill_row(b, ctx.fps, &mut rows[r], &ax1, true);
        }
    }

    fn max_rows(&self) -> usize {
        6
    }

    fn relative_values_sane(&self) -> bool {
        super::points_sane(&[&self.offset, &self.anchor2, &self.axis_r1, &self.axis_r2, &self.axis_p1])
    }

    fn set_relative_values(&mut self, _: &JointHead, b: Bodies<'_>) {
        let p = self.anchor(b);
        if let Some((a1, a2)) = set_anchors(b, p) {
            self.offset = a1;
            self.anchor2 = a2;
        }
        if let Some(a) = self.axis1(b).filter(|a| axis_ok(*a)) {
            if let Some((a1, _)) = set_axes(b, a) {
                self.axis_p1 = a1;
            }
        }
        if let Some(a) = self.axis2(b).filter(|a| axis_ok(*a)) {
            if let Some((a1, a2)) = set_axes(b, a) {
                self.axis_r1 = a1;
                self.axis_r2 = a2;
            }
        }
        self.reset_qrel(b);
    }
}
