//! The piston joint (`dJointCreatePiston`): like a slider that may also
//! turn about its axis. Four rows (two keep the axes aligned, two keep
//! the anchors on the axis line), then a limit/motor row for the position
//! and one for the angle about the axis.
//!
//! Also home of the "anchor set as if body 1 were shifted" helper the PU
//! joint shares (ODE moves body 1 for the call and back, which can change
//! its position by rounding; callers reproduce that with `shifted_back`).

use super::ball::{user_anchor, user_anchor2};
use super::fixed::relative_rotation;
use super::hinge::{axis_ok, get_axis1, hinge_angle, set_axes};
use super::limit_motor::{BodyPush, Limit, LimitMotor};
use super::universal::two_axis_param;
use super::{flags, Bodies, Info1, JointHead, JointModel, Row, RowCtx};
use crate::dynamics::world::World;
use crate::math::mat3::{mul0_331, mul1_331};
use crate::math::vec::{cross3, dot3, plane_space};

/// Body-relative anchors of world point `p` as if body 1 were at `pos0`;
/// `None` without body.
pub fn set_anchors_at(b: Bodies<'_>, p: [f64; 3], pos0: [f64; 3]) -> Option<([f64; 3], [f64; 3])> {
    let b0 = b.b1?;
    let a1 = mul1_331(&b0.r, &[p[0] - pos0[0], p[1] - pos0[1], p[2] - pos0[2]]);
    let a2 = match b.b2 {
        Some(b1) => mul1_331(&b1.r, &[p[0] - b1.pos[0], p[1] - b1.pos[1], p[2] - b1.pos[2]]),
        None => p,
    };
    Some((a1, a2))
}

/// Body 1's position moved by `s` (component-wise `pos + s`).
pub fn shifted(pos: &[f64; 4], s: [f64; 3]) -> [f64; 3] {
    [pos[0] + s[0], pos[1] + s[1], pos[2] + s[2]]
}

/// The position ODE leaves body 1 at after moving it by `s` and back.
pub fn shifted_back(pos: &[f64; 4], s: [f64; 3]) -> [f64; 3] {
    let t = shifted(pos, s);
    [t[0] - s[0], t[1] - s[1], t[2] - s[2]]
}

#[derive(Clone, Debug, PartialEq)]
pub struct Piston {
    pub anchor1: [f64; 3],
    pub anchor2: [f64; 3],
    /// Axis in body 1's and in body 2's frame (world without body 2).
    pub axis1: [f64; 3],
    pub axis2: [f64; 3],
    pub qrel: [f64; 4],
    pub limot_p: LimitMotor,
    pub limot_r: LimitMotor,
    /// Motor forces at stops recorded by `info2`, applied in order.
    pub push: [BodyPush; 2],
}

impl Piston {
    /// Axis x, anchors at the centres.
    pub fn new(world: &World) -> Piston {
        Piston {
            anchor1: [0.0; 3],
            anchor2: [0.0; 3],
            axis1: [1.0, 0.0, 0.0],
            axis2: [1.0, 0.0, 0.0],
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

    /// `dJointSetPistonAnchor` / `…AnchorOffset`: anchors computed with body
    /// 1 at `pos0` (its real position for the plain call).
    pub fn set_anchor_at(&mut self, b: Bodies<'_>, p: [f64; 3], pos0: Option<[f64; 3]>) {
        let pos0 = pos0.or(b.b1.map(|b0| [b0.pos[0], b0.pos[1], b0.pos[2]]));
        if let Some((a1, a2)) = pos0.and_then(|q| set_anchors_at(b, p, q)) {
            self.anchor1 = a1;
            self.anchor2 = a2;
        }
        self.reset_qrel(b);
    }

    /// `a` must pass `axis_ok` when the joint has a body.
    pub fn set_axis(&mut self, b: Bodies<'_>, a: [f64; 3]) {
        if let Some((a1, a2)) = set_axes(b, a) {
            self.axis1 = a1;
            self.axis2 = a2;
        }
        self.reset_qrel(b);
    }

    /// `dJointSetPistonAxisDelta`: anchor 1 becomes body 1's centre minus
    /// `d` relative to body 2 (or the world), in body 1's frame. Needs body 1.
    pub fn set_axis_delta(&mut self, b: Bodies<'_>, a: [f64; 3], d: [f64; 3]) {
        self.set_axis(b, a);
        let Some(b0) = b.b1 else { return };
        let c = match b.b2 {
            Some(b1) => [b0.pos[0] - b1.pos[0] - d[0], b0.pos[1] - b1.pos[1] - d[1], b0.pos[2] - b1.pos[2] - d[2]],
            None => [b0.pos[0] - d[0], b0.pos[1] - d[1], b0.pos[2] - d[2]],
        };
        self.anchor1 = mul1_331(&b0.r, &c);
    }

    pub fn anchor(&self, head: &JointHead, b: Bodies<'_>) -> Option<[f64; 3]> {
        user_anchor(head, b, &self.anchor1, &self.anchor2)
    }

    pub fn anchor2(&self, head: &JointHead, b: Bodies<'_>) -> Option<[f64; 3]> {
        user_anchor2(head, b, &self.anchor1, &self.anchor2)
    }

    pub fn axis(&self, b: Bodies<'_>) -> Option<[f64; 3]> {
        get_axis1(b, &self.axis1)
    }

    /// Position along the axis; 0 without body (as ODE).
    pub fn position(&self, head: &JointHead, b: Bodies<'_>) -> f64 {
        let Some(b0) = b.b1 else { return 0.0 };
        let a1 = mul0_331(&b0.r, &self.anchor1);
        let q = match b.b2 {
            Some(b1) => {
                let a2 = mul0_331(&b1.r, &self.anchor2);
                [
                    (b0.pos[0] + a1[0]) - (b1.pos[0] + a2[0]),
                    (b0.pos[1] + a1[1]) - (b1.pos[1] + a2[1]),
                    (b0.pos[2] + a1[2]) - (b1.pos[2] + a2[2]),
                ]
            }
            None => {
                let q = [
                    (b0.pos[0] + a1[0]) - self.anchor2[0],
                    (b0.pos[1] + a1[1]) - self.anchor2[1],
                    (b0.pos[2] + a1[2]) - self.anchor2[2],
                ];
                if head.flags & flags::REVERSE != 0 {
                    [-q[0], -q[1], -q[2]]
                } else {
                    q
                }
            }
        };
        dot3(&mul0_331(&b0.r, &self.axis1), &q)
    }

    /// Rate of the position; `None` without body (ODE crashes).
    pub fn position_rate(&self, head: &JointHead, b: Bodies<'_>) -> Option<f64> {
        let b0 = b.b1?;
        let ax = mul0_331(&b0.r, &self.axis1);
        Some(match b.b2 {
            Some(b1) => dot3(&ax, &b0.lvel) - dot3(&ax, &b1.lvel),
            None => {
                let rate = dot3(&ax, &b0.lvel);
                if head.flags & flags::REVERSE != 0 {
                    -rate
                } else {
                    rate
                }
            }
        })
    }

    pub fn angle(&self, head: &JointHead, b: Bodies<'_>) -> f64 {
        super::hinge::signed_hinge_angle(head, b, &self.axis1, &self.qrel)
    }

    pub fn angle_rate(&self, head: &JointHead, b: Bodies<'_>) -> f64 {
        super::hinge::signed_hinge_rate(head, b, &self.axis1)
    }

    /// `dJointAddPistonForce`: force along the axis on body 1, the opposite
    /// on body 2, with the torques of forces applied at the anchors. ODE
    /// 0.16.2 zeroes the force of a joint attached as (0, body) (it
    /// subtracts the force from itself); kept as is.
    pub fn force_push(&self, head: &JointHead, b: Bodies<'_>, force: f64) -> BodyPush {
        // ODE 0.16.2's quirk, reproduced on purpose (see above).
        #[allow(clippy::eq_op)]
        let force = if head.flags & flags::REVERSE != 0 { force - force } else { force };
        let mut push = BodyPush::default();
        let Some(a) = self.axis(b) else { return push };
        let f = [a[0] * force, a[1] * force, a[2] * force];
        push.force[0] = Some(f);
        if let (Some(b0), Some(b1)) = (b.b1, b.b2) {
            push.force[1] = Some([-f[0], -f[1], -f[2]]);
            push.torque[0] = Some(cross3(&mul0_331(&b0.r, &self.anchor1), &f));
            push.torque[1] = Some(cross3(&mul0_331(&b1.r, &self.anchor2), &f));
        }
        push
    }
}

impl JointModel for Piston {
    const TYPE: std::ffi::c_int = crate::abi::common::dJointType::dJointTypePiston as std::ffi::c_int;

    fn info1(&mut self, head: &JointHead, b: Bodies<'_>) -> Info1 {
        // Both parts test their stops when any is finite (the angle too:
        // not only stops within ±π as for hinges).
        let limiting =
            |l: &LimitMotor| (l.lostop > f64::NEG_INFINITY || l.histop < f64::INFINITY) && l.lostop <= l.histop;
        self.limot_p.limit = Limit::Free;
        if limiting(&self.limot_p) {
            let pos = self.position(head, b);
            self.limot_p.test_limit(pos);
        }
        self.limot_r.limit = Limit::Free;
        if limiting(&self.limot_r) {
            let a = hinge_angle(b, &self.axis1, &self.qrel);
            self.limot_r.test_limit(a);
        }
        let m = 4 + self.limot_p.needs_row() as usize + self.limot_r.needs_row() as usize;
        Info1 { m, nub: 4 }
    }

    fn info2(&mut self, head: &JointHead, b: Bodies<'_>, ctx: &RowCtx<'_>, rows: &mut [Row]) {
        self.push = Default::default();
        let Some(b0) = b.b1 else { return };
        let k = ctx.fps * ctx.erp;
        let p1 = &b0.pos;
        let mut lanchor2 = [0.0; 3];
        let dist = match b.b2 {
            Some(b1) => {
                lanchor2 = mul0_331(&b1.r, &self.anchor2);
                [lanchor2[0] + b1.pos[0] - p1[0], lanchor2[1] + b1.pos[1] - p1[1], lanchor2[2] + b1.pos[2] - p1[2]]
            }
            None if head.flags & flags::REVERSE != 0 => {
                [p1[0] - self.anchor2[0], p1[1] - self.anchor2[1], p1[2] - self.anchor2[2]]
            }
            None => [self.anchor2[0] - p1[0], self.anchor2[1] - p1[1], self.anchor2[2] - p1[2]],
        };

        // Rows 0, 1: no relative rotation about the normals p, q of the axis.
        let ax1 = mul0_331(&b0.r, &self.axis1);
        let (p, q) = plane_space(&ax1);
        rows[0].j1a = p;
        rows[1].j1a = q;
        let bv = match b.b2 {
            Some(b1) => {
                rows[0].j2a = [-p[0], -p[1], -p[2]];
                rows[1].j2a = [-q[0], -q[1], -q[2]];
                cross3(&ax1, &mul0_331(&b1.r, &self.axis2))
            }
            None => cross3(&ax1, &self.axis2),
        };
        rows[0].c = k * dot3(&p, &bv);
        rows[1].c = k * dot3(&q, &bv);

        // Rows 2, 3: the anchors stay on the axis line.
        for (row, u) in rows[2..4].iter_mut().zip([p, q]) {
            row.j1l = u;
            row.j1a = cross3(&dist, &u);
            if b.b2.is_some() {
                row.j2l = [-u[0], -u[1], -u[2]];
                row.j2a = cross3(&u, &lanchor2);
            }
        }
        let a1 = mul0_331(&b0.r, &self.anchor1);
        let err = [dist[0] - a1[0], dist[1] - a1[1], dist[2] - a1[2]];
        rows[2].c = k * dot3(&p, &err);
        rows[3].c = k * dot3(&q, &err);

        let mut r = 4;
        if self.limot_p.needs_row() {
            let axis =
                if b.b2.is_none() && head.flags & flags::REVERSE != 0 { [-ax1[0], -ax1[1], -ax1[2]] } else { ax1 };
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
        super::points_sane(&[&self.anchor1, &self.anchor2, &self.axis1, &self.axis2])
    }

    fn set_relative_values(&mut self, head: &JointHead, b: Bodies<'_>) {
        if let Some(p) = self.anchor(head, b) {
            if let Some(b0) = b.b1 {
                if let Some((a1, a2)) = set_anchors_at(b, p, [b0.pos[0], b0.pos[1], b0.pos[2]]) {
                    self.anchor1 = a1;
                    self.anchor2 = a2;
                }
            }
        }
        if let Some(a) = self.axis(b).filter(|a| axis_ok(*a)) {
            if let Some((a1, a2)) = set_axes(b, a) {
                self.axis1 = a1;
                self.axis2 = a2;
            }
        }
        self.reset_qrel(b);
    }
}
