//! The prismatic-universal joint (`dJointCreatePU`): body 1 slides along
//! the prismatic axis (fixed in body 1) and a universal joint connects the
//! slider to body 2. Three rows (axes of the universal kept perpendicular,
//! anchors kept on the prismatic line), then limit/motor rows for angle 1,
//! angle 2 and the position (in that order).
//!
//! The position row is applied at the anchors rather than at the centres
//! (ODE's "two-point" limit/motor), written here as its only user.

use super::ball::{get_anchor1, get_anchor2, set_anchors};
use super::hinge::{axis_ok, get_axis1, get_axis2, set_axes};
use super::limit_motor::{BodyPush, Limit, LimitMotor, Param};
use super::piston::set_anchors_at;
use super::universal::{test_uni_limits, UniAxes};
use super::{flags, Bodies, Info1, JointHead, JointModel, Row, RowCtx};
use crate::dynamics::world::World;
use crate::math::mat3::mul0_331;
use crate::math::vec::{cross3, dot3, normalize3, plane_space};

/// A linear limit/motor row along `ax` (world, unit) acting at the points
/// `pt1`, `pt2` (body-relative positions in world directions) instead of
/// at the centres. Mirrors `LimitMotor::fill_row` otherwise.
fn fill_two_point_row(
    l: &LimitMotor,
    b: Bodies<'_>,
    fps: f64,
    row: &mut Row,
    ax: &[f64; 3],
    pt1: &[f64; 3],
    pt2: &[f64; 3],
) -> BodyPush {
    let mut push = BodyPush::default();
    let mut powered = l.fmax > 0.0;
    if !(powered || l.limit != Limit::Free) {
        return push;
    }
    let Some(b0) = b.b1 else { return push };
    row.j1l = *ax;
    row.j1a = cross3(pt1, ax);
    if b.b2.is_some() {
        row.j2l = [-ax[0], -ax[1], -ax[2]];
        row.j2a = cross3(pt2, &row.j2l);
    }
    if l.limit != Limit::Free && l.lostop == l.histop {
        powered = false;
    }
    if powered {
        row.cfm = l.normal_cfm;
        if l.limit == Limit::Free {
            row.c = l.vel;
            row.lo = -l.fmax;
            row.hi = l.fmax;
        } else {
            let mut fm = l.fmax;
            if l.vel > 0.0 || (l.vel == 0.0 && l.limit == Limit::High) {
                fm = -fm;
            }
            if (l.limit == Limit::Low && l.vel > 0.0) || (l.limit == Limit::High && l.vel < 0.0) {
                fm *= l.fudge_factor;
            }
            let scaled = |v: &[f64; 3], s: f64| [s * v[0], s * v[1], s * v[2]];
            push.force[0] = Some(scaled(ax, -fm));
            push.torque[0] = Some(scaled(&row.j1a, -fm));
            if b.b2.is_some() {
                push.force[1] = Some(scaled(ax, fm));
                push.torque[1] = Some(scaled(&row.j2a, -fm));
            }
        }
    }
    if l.limit != Limit::Free {
        row.c = -(fps * l.stop_erp) * l.limit_err;
        row.cfm = l.stop_cfm;
        if l.lostop == l.histop {
            row.lo = f64::NEG_INFINITY;
            row.hi = f64::INFINITY;
        } else {
            if l.limit == Limit::Low {
                row.lo = 0.0;
                row.hi = f64::INFINITY;
            } else {
                row.lo = f64::NEG_INFINITY;
                row.hi = 0.0;
            }
            if l.bounce > 0.0 {
                // Relative velocity of the two application points.
                let mut vel = dot3(&b0.lvel, &row.j1l) + dot3(&b0.avel, &row.j1a);
                if let Some(b1) = b.b2 {
                    vel += dot3(&b1.lvel, &row.j2l) + dot3(&b1.avel, &row.j2a);
                }
                if l.limit == Limit::Low {
                    if vel < 0.0 {
                        let newc = -l.bounce * vel;
                        if newc > row.c {
                            row.c = newc;
                        }
                    }
                } else if vel > 0.0 {
                    let newc = -l.bounce * vel;
                    if newc < row.c {
                        row.c = newc;
                    }
                }
            }
        }
    }
    push
}

#[derive(Clone, Debug, PartialEq)]
pub struct Pu {
    pub anchor1: [f64; 3],
    pub anchor2: [f64; 3],
    pub ax: UniAxes,
    /// Prismatic axis in body 1's frame.
    pub axis_p1: [f64; 3],
    pub limot1: LimitMotor,
    pub limot2: LimitMotor,
    pub limot_p: LimitMotor,
    /// Motor forces at stops recorded by `info2`, applied in order.
    pub push: [BodyPush; 3],
}

impl Pu {
    /// Axis 1 along y, axis 2 along z, prismatic axis along x.
    pub fn new(world: &World) -> Pu {
        Pu {
            anchor1: [0.0; 3],
            anchor2: [0.0; 3],
            ax: UniAxes { axis1: [0.0, 1.0, 0.0], axis2: [0.0, 0.0, 1.0], qrel1: [0.0; 4], qrel2: [0.0; 4] },
            axis_p1: [1.0, 0.0, 0.0],
            limot1: LimitMotor::new(world),
            limot2: LimitMotor::new(world),
            limot_p: LimitMotor::new(world),
            push: Default::default(),
        }
    }

    /// Group 1 is angle 1, group 2 angle 2, group 3 the position; other
    /// numbers are ignored.
    pub fn decode(code: std::ffi::c_int) -> Option<(usize, Param)> {
        match code & 0xff00 {
            0 => Some((0, Param::from_code(code)?)),
            0x100 => Some((1, Param::from_code(code & 0xff)?)),
            0x200 => Some((2, Param::from_code(code & 0xff)?)),
            _ => None,
        }
    }

    pub fn limot(&mut self, axis: usize) -> &mut LimitMotor {
        match axis {
            0 => &mut self.limot1,
            1 => &mut self.limot2,
            _ => &mut self.limot_p,
        }
    }

    pub fn set_param(&mut self, code: std::ffi::c_int, v: f64) {
        if let Some((axis, p)) = Pu::decode(code) {
            self.limot(axis).set(p, v);
        }
    }

    pub fn param(&mut self, code: std::ffi::c_int) -> f64 {
        Pu::decode(code).map_or(0.0, |(axis, p)| self.limot(axis).get(p))
    }

    /// `dJointSetPUAnchor` and its shifted variants: anchors computed with
    /// body 1 at `pos0` (its real position for the plain call).
    pub fn set_anchor_at(&mut self, b: Bodies<'_>, p: [f64; 3], pos0: Option<[f64; 3]>) {
        let pos0 = pos0.or(b.b1.map(|b0| [b0.pos[0], b0.pos[1], b0.pos[2]]));
        if let Some((a1, a2)) = pos0.and_then(|q| set_anchors_at(b, p, q)) {
            self.anchor1 = a1;
            self.anchor2 = a2;
        }
        self.ax.reset_qrel(b);
    }

    /// `dJointSetPUAxis1/2`.
    pub fn set_axis(&mut self, head: &JointHead, b: Bodies<'_>, user_first: bool, a: [f64; 3]) {
        self.ax.set_user_axis(head, b, user_first, a);
        self.ax.reset_qrel(b);
    }

    /// `dJointSetPUAxis3` / `dJointSetPUAxisP` (prismatic axis).
    pub fn set_axis_p(&mut self, b: Bodies<'_>, a: [f64; 3]) {
        if let Some((a1, _)) = set_axes(b, a) {
            self.axis_p1 = a1;
        }
        self.ax.reset_qrel(b);
    }

    /// `dJointGetPUAnchor`: the anchor as attached to body 2 (or the world).
    pub fn anchor(&self, b: Bodies<'_>) -> [f64; 3] {
        get_anchor2(b, &self.anchor2)
    }

    pub fn axis_p(&self, b: Bodies<'_>) -> Option<[f64; 3]> {
        get_axis1(b, &self.axis_p1)
    }

    /// `dJointGetPUAngles`: REVERSE swaps the angles (no sign change,
    /// unlike the universal joint).
    pub fn user_angles(&self, head: &JointHead, b: Bodies<'_>) -> (f64, f64) {
        let (a1, a2) = self.ax.angles(b);
        if head.flags & flags::REVERSE != 0 {
            (a2, a1)
        } else {
            (a1, a2)
        }
    }

    pub fn user_angle(&self, head: &JointHead, b: Bodies<'_>, user_first: bool) -> f64 {
        if user_first != (head.flags & flags::REVERSE != 0) {
            self.ax.angle1(b)
        } else {
            self.ax.angle2(b)
        }
    }

    pub fn angle_rate(&self, head: &JointHead, b: Bodies<'_>, user_first: bool) -> f64 {
        if b.b1.is_none() {
            return 0.0;
        }
        let ax = if user_first { self.ax.user_axis1(head, b) } else { self.ax.user_axis2(head, b) };
        UniAxes::rate_about(b, &ax.unwrap())
    }

    /// Position along the prismatic axis; `None` without body (ODE crashes).
    pub fn position(&self, head: &JointHead, b: Bodies<'_>) -> Option<f64> {
        let b0 = b.b1?;
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
        Some(dot3(&mul0_331(&b0.r, &self.axis_p1), &q))
    }

    /// Rate of the position: body 1's velocity relative to the anchor
    /// point, without the part due to the rotation about it. 0 without body.
    pub fn position_rate(&self, head: &JointHead, b: Bodies<'_>) -> f64 {
        let Some(b0) = b.b1 else { return 0.0 };
        let mut a2 = [0.0; 3];
        let r = match b.b2 {
            Some(b1) => {
                a2 = mul0_331(&b1.r, &self.anchor2);
                [b0.pos[0] - (a2[0] + b1.pos[0]), b0.pos[1] - (a2[1] + b1.pos[1]), b0.pos[2] - (a2[2] + b1.pos[2])]
            }
            None => [b0.pos[0] - self.anchor2[0], b0.pos[1] - self.anchor2[1], b0.pos[2] - self.anchor2[2]],
        };
        let c = cross3(&r, &b0.avel);
        let mut lvel1 = [c[0] + b0.lvel[0], c[1] + b0.lvel[1], c[2] + b0.lvel[2]];
        let axp = mul0_331(&b0.r, &self.axis_p1);
        match b.b2 {
            Some(b1) => {
                let l2 = cross3(&a2, &b1.avel);
                let t = [l2[0] + b1.lvel[0], l2[1] + b1.lvel[1], l2[2] + b1.lvel[2]];
                lvel1 = [lvel1[0] - t[0], lvel1[1] - t[1], lvel1[2] - t[2]];
                dot3(&axp, &lvel1)
            }
            None => {
                let rate = dot3(&axp, &lvel1);
                if head.flags & flags::REVERSE != 0 {
                    -rate
                } else {
                    rate
                }
            }
        }
    }

    /// `dJointAddPUTorque` (declared by ODE's header, not defined by ODE
    /// 0.16.2): torque about the user's axis 1 on body 1, the opposite on
    /// body 2, with the universal joint's sign rule.
    pub fn torque_push(&self, head: &JointHead, b: Bodies<'_>, torque: f64) -> BodyPush {
        let mut push = BodyPush::default();
        if b.b1.is_none() {
            return push;
        }
        let Some(a) = self.ax.user_axis1(head, b) else { return push };
        let torque = if head.flags & flags::REVERSE != 0 { -torque } else { torque };
        let t = [a[0] * torque, a[1] * torque, a[2] * torque];
        push.torque[0] = Some(t);
        if b.b2.is_some() {
            push.torque[1] = Some([-t[0], -t[1], -t[2]]);
        }
        push
    }
}

impl JointModel for Pu {
    const TYPE: std::ffi::c_int = crate::abi::common::dJointType::dJointTypePU as std::ffi::c_int;

    fn info1(&mut self, head: &JointHead, b: Bodies<'_>) -> Info1 {
        self.limot_p.limit = Limit::Free;
        let l = &self.limot_p;
        if (l.lostop > f64::NEG_INFINITY || l.histop < f64::INFINITY) && l.lostop <= l.histop {
            if let Some(pos) = self.position(head, b) {
                self.limot_p.test_limit(pos);
            }
        }
        test_uni_limits(&self.ax, b, &mut self.limot1, &mut self.limot2);
        let m =
            3 + self.limot_p.needs_row() as usize + self.limot1.needs_row() as usize + self.limot2.needs_row() as usize;
        Info1 { m, nub: 3 }
    }

    fn info2(&mut self, head: &JointHead, b: Bodies<'_>, ctx: &RowCtx<'_>, rows: &mut [Row]) {
        self.push = Default::default();
        let Some(b0) = b.b1 else { return };
        let k = ctx.fps * ctx.erp;

        // Row 0: the universal's axes stay perpendicular.
        let ax1 = get_axis1(b, &self.ax.axis1).unwrap();
        let ax2 = get_axis2(b, &self.ax.axis2);
        let mut perp = cross3(&ax1, &ax2);
        normalize3(&mut perp);
        rows[0].j1a = perp;
        if b.b2.is_some() {
            rows[0].j2a = [-perp[0], -perp[1], -perp[2]];
        }
        rows[0].c = -k * dot3(&ax1, &ax2);

        // Rows 1, 2: the anchors stay on the prismatic line. With REVERSE
        // ODE reads the body-1 axis as if it were a world axis; kept.
        let mut an1 = get_anchor1(b, &self.anchor1).unwrap();
        let mut an2 = get_anchor2(b, &self.anchor2);
        let mut axp = if head.flags & flags::REVERSE != 0 {
            get_axis2(b, &self.axis_p1)
        } else {
            get_axis1(b, &self.axis_p1).unwrap()
        };
        let sep = [an2[0] - an1[0], an2[1] - an1[1], an2[2] - an1[2]];
        let (p, q) = plane_space(&axp);
        an1 = [an1[0] - b0.pos[0], an1[1] - b0.pos[1], an1[2] - b0.pos[2]];
        for (row, u) in rows[1..3].iter_mut().zip([p, q]) {
            row.j1l = u;
            row.j1a = cross3(&an1, &u);
        }
        if let Some(b1) = b.b2 {
            an2 = [an2[0] - b1.pos[0], an2[1] - b1.pos[1], an2[2] - b1.pos[2]];
            for (row, u) in rows[1..3].iter_mut().zip([p, q]) {
                row.j2l = [-u[0], -u[1], -u[2]];
                row.j2a = cross3(&u, &an2);
            }
        }
        rows[1].c = k * dot3(&p, &sep);
        rows[2].c = k * dot3(&q, &sep);

        let mut r = 3;
        if self.limot1.needs_row() {
            self.push[0] = self.limot1.fill_row(b, ctx.fps, &mut rows[r], &ax1, true);
            r += 1;
        }
        if self.limot2.needs_row() {
            self.push[1] = self.limot2.fill_row(b, ctx.fps, &mut rows[r], &ax2, true);
            r += 1;
        }
        if self.limot_p.needs_row() {
            if b.b2.is_none() && head.flags & flags::REVERSE != 0 {
                axp = [-axp[0], -axp[1], -axp[2]];
            }
            self.push[2] = fill_two_point_row(&self.limot_p, b, ctx.fps, &mut rows[r], &axp, &an1, &an2);
        }
    }

    fn max_rows(&self) -> usize {
        6
    }

    fn relative_values_sane(&self) -> bool {
        super::points_sane(&[&self.anchor1, &self.anchor2, &self.ax.axis1, &self.ax.axis2, &self.axis_p1])
    }

    fn set_relative_values(&mut self, head: &JointHead, b: Bodies<'_>) {
        let p = self.anchor(b);
        if let Some((a1, a2)) = set_anchors(b, p) {
            self.anchor1 = a1;
            self.anchor2 = a2;
        }
        let a3 = self.axis_p(b);
        self.ax.rebase_axes(head, b);
        if let Some(a) = a3.filter(|a| axis_ok(*a)) {
            if let Some((a1, _)) = set_axes(b, a) {
                self.axis_p1 = a1;
            }
        }
        self.ax.reset_qrel(b);
    }
}
