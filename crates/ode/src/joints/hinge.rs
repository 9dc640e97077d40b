//! The hinge joint (`dJointCreateHinge`): a ball joint plus two rows
//! keeping the axis aligned, with an optional limit/motor row about the
//! axis. Anchors and axes are stored in the bodies' frames; `qrel`, the
//! relative rotation when the axis or anchor was set, defines angle 0.
//!
//! Also home of the axis helpers other joints share (ODE's `setAxes`,
//! `getAxis`, `getAxis2` and the hinge angle of a relative rotation).

use super::ball::{set_anchors, set_ball_rows, user_anchor, user_anchor2};
use super::fixed::relative_rotation;
use super::limit_motor::{BodyPush, LimitMotor};
use super::{flags, Bodies, Info1, JointHead, JointModel, Row, RowCtx};
use crate::dynamics::world::World;
use crate::math::mat3::{mul0_331, mul1_331};
use crate::math::rotation::{q_from_axis_and_angle, q_mult1, q_mult2, q_mult3};
use crate::math::vec::{cross3, dot3, plane_space, safe_normalize3};
use std::f64::consts::PI;

/// Is (x, y, z) usable as an axis? ODE's normalisation asserts on the
/// zero vector only; a vector whose largest component is so small that
/// its reciprocal overflows (below about 5.6e-309) normalises to NaN in
/// ODE, which we refuse too. Anything else is accepted, however small.
pub fn axis_ok(a: [f64; 3]) -> bool {
    crate::math::vec::normalizable3(&a)
}

/// Body-relative axes of the world direction `a` (normalised first): axis
/// 1 in body 1's frame, axis 2 in body 2's frame or, without body 2, `a`
/// as given. `None` (axes kept) when the joint has no body. `a` must pass
/// `axis_ok`.
pub fn set_axes(b: Bodies<'_>, a: [f64; 3]) -> Option<([f64; 3], [f64; 3])> {
    let b0 = b.b1?;
    let mut q = a;
    safe_normalize3(&mut q);
    let axis1 = mul1_331(&b0.r, &q);
    let axis2 = match b.b2 {
        Some(b1) => mul1_331(&b1.r, &q),
        None => a,
    };
    Some((axis1, axis2))
}

/// Axis 1 in world coordinates; `None` without body.
pub fn get_axis1(b: Bodies<'_>, axis1: &[f64; 3]) -> Option<[f64; 3]> {
    Some(mul0_331(&b.b1?.r, axis1))
}

/// Axis 2 in world coordinates (stored in world coordinates without body 2).
pub fn get_axis2(b: Bodies<'_>, axis2: &[f64; 3]) -> [f64; 3] {
    match b.b2 {
        Some(b1) => mul0_331(&b1.r, axis2),
        None => *axis2,
    }
}

/// Angle about `axis` (body 1's frame) of a relative rotation, in (−π, π],
/// with ODE's sign convention: choosing the quaternion whose vector part
/// points along the axis keeps the angle continuous over full turns.
pub fn angle_from_relative_quat(qrel: &[f64; 4], axis: &[f64; 3]) -> f64 {
    let cost2 = qrel[0];
    let sint2 = (qrel[1] * qrel[1] + qrel[2] * qrel[2] + qrel[3] * qrel[3]).sqrt();
    let mut theta = if dot3(&qrel[1..4], axis) >= 0.0 { 2.0 * sint2.atan2(cost2) } else { 2.0 * sint2.atan2(-cost2) };
    if theta > PI {
        theta -= 2.0 * PI;
    }
    -theta
}

/// Rotation angle of body 1 relative to body 2 (or the world) about
/// `axis`, zero at the relative orientation `q_initial`.
pub fn hinge_angle(b: Bodies<'_>, axis: &[f64; 3], q_initial: &[f64; 4]) -> f64 {
    let Some(b0) = b.b1 else { return 0.0 };
    let qrel = match b.b2 {
        Some(b1) => q_mult2(&q_mult1(&b0.q, &b1.q), q_initial),
        None => q_mult3(&b0.q, q_initial),
    };
    angle_from_relative_quat(&qrel, axis)
}

/// Rotation angle about `axis` (body-1 frame) relative to the initial
/// relative rotation `q_initial`, with ODE's sign flip for joints attached
/// as (0, body); 0 when no body is attached. Shared by the joints with a
/// hinge-like rotational axis (hinge, piston, PR).
pub(crate) fn signed_hinge_angle(head: &JointHead, b: Bodies<'_>, axis: &[f64; 3], q_initial: &[f64; 4]) -> f64 {
    if b.b1.is_none() {
        return 0.0;
    }
    let a = hinge_angle(b, axis, q_initial);
    if head.flags & flags::REVERSE != 0 {
        -a
    } else {
        a
    }
}

/// Relative angular speed about `axis` (body-1 frame), REVERSE-aware.
pub(crate) fn signed_hinge_rate(head: &JointHead, b: Bodies<'_>, axis: &[f64; 3]) -> f64 {
    let Some(b0) = b.b1 else { return 0.0 };
    let axis = mul0_331(&b0.r, axis);
    let mut rate = dot3(&axis, &b0.avel);
    if let Some(b1) = b.b2 {
        rate -= dot3(&axis, &b1.avel);
    }
    if head.flags & flags::REVERSE != 0 {
        -rate
    } else {
        rate
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Hinge {
    pub anchor1: [f64; 3],
    pub anchor2: [f64; 3],
    pub axis1: [f64; 3],
    pub axis2: [f64; 3],
    pub qrel: [f64; 4],
    pub limot: LimitMotor,
    /// Motor force at a stop, recorded by `info2` (see `limit_motor`).
    pub push: BodyPush,
}

impl Hinge {
    /// Anchors at the centres, axis x, motor off, no stops.
    pub fn new(world: &World) -> Hinge {
        Hinge {
            anchor1: [0.0; 3],
            anchor2: [0.0; 3],
            axis1: [1.0, 0.0, 0.0],
            axis2: [1.0, 0.0, 0.0],
            qrel: [0.0; 4],
            limot: LimitMotor::new(world),
            push: BodyPush::default(),
        }
    }

    fn reset_qrel(&mut self, b: Bodies<'_>) {
        if let Some(q) = relative_rotation(b) {
            self.qrel = q;
        }
    }

    pub fn set_anchor(&mut self, b: Bodies<'_>, p: [f64; 3]) {
        if let Some((a1, a2)) = set_anchors(b, p) {
            self.anchor1 = a1;
            self.anchor2 = a2;
        }
        self.reset_qrel(b);
    }

    /// `dJointSetHingeAnchorDelta`: without body 2, the world anchor 2 is
    /// moved by `d` (the static side's displacement).
    pub fn set_anchor_delta(&mut self, b: Bodies<'_>, p: [f64; 3], d: [f64; 3]) {
        if let Some((a1, a2)) = set_anchors(b, p) {
            self.anchor1 = a1;
            self.anchor2 = if b.b2.is_some() { a2 } else { [p[0] + d[0], p[1] + d[1], p[2] + d[2]] };
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

    /// `dJointSetHingeAxisOffset`: sets the axis, then makes the current
    /// pose read `angle`.
    pub fn set_axis_offset(&mut self, head: &JointHead, b: Bodies<'_>, a: [f64; 3], angle: f64) {
        self.set_axis(b, a);
        let angle = if head.flags & flags::REVERSE != 0 { -angle } else { angle };
        let q_angle = q_from_axis_and_angle(a[0], a[1], a[2], angle);
        self.qrel = q_mult3(&q_angle, &self.qrel);
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

    pub fn angle(&self, head: &JointHead, b: Bodies<'_>) -> f64 {
        signed_hinge_angle(head, b, &self.axis1, &self.qrel)
    }

    pub fn angle_rate(&self, head: &JointHead, b: Bodies<'_>) -> f64 {
        signed_hinge_rate(head, b, &self.axis1)
    }

    /// `dJointAddHingeTorque`: torque about the axis on body 1, its
    /// opposite on body 2.
    pub fn torque_push(&self, head: &JointHead, b: Bodies<'_>, torque: f64) -> BodyPush {
        let torque = if head.flags & flags::REVERSE != 0 { -torque } else { torque };
        let mut push = BodyPush::default();
        if let Some(a) = self.axis(b) {
            let t = [a[0] * torque, a[1] * torque, a[2] * torque];
            push.torque[0] = Some(t);
            if b.b2.is_some() {
                push.torque[1] = Some([-t[0], -t[1], -t[2]]);
            }
        }
        push
    }
}

impl JointModel for Hinge {
    const TYPE: std::ffi::c_int = crate::abi::common::dJointType::dJointTypeHinge as std::ffi::c_int;

    fn info1(&mut self, _: &JointHead, b: Bodies<'_>) -> Info1 {
        let mut m = if self.limot.fmax > 0.0 { 6 } else { 5 };
        // The stop state is only re-measured when some stop can be reached
        // (as in ODE, it is otherwise left as it was).
        let l = &self.limot;
        if (l.lostop >= -PI || l.histop <= PI) && l.lostop <= l.histop {
            let angle = hinge_angle(b, &self.axis1, &self.qrel);
            if self.limot.test_limit(angle) {
                m = 6;
            }
        }
        Info1 { m, nub: 5 }
    }

    fn info2(&mut self, _: &JointHead, b: Bodies<'_>, ctx: &RowCtx<'_>, rows: &mut [Row]) {
        self.push = BodyPush::default();
        let Some(b0) = b.b1 else { return };
        set_ball_rows(b, ctx.fps, ctx.erp, rows, &self.anchor1, &self.anchor2);

        // Two rows: no relative rotation about the axes p, q normal to the
        // hinge axis; the right-hand side turns axis 2 back onto axis 1.
        let ax1 = mul0_331(&b0.r, &self.axis1);
        let (p, q) = plane_space(&ax1);
        rows[3].j1a = p;
        rows[4].j1a = q;
        let bv = match b.b2 {
            Some(b1) => {
                rows[3].j2a = [-p[0], -p[1], -p[2]];
                rows[4].j2a = [-q[0], -q[1], -q[2]];
                cross3(&ax1, &mul0_331(&b1.r, &self.axis2))
            }
            None => cross3(&ax1, &self.axis2),
        };
        let k = ctx.fps * ctx.erp;
        rows[3].c = k * dot3(&bv, &p);
        rows[4].c = k * dot3(&bv, &q);

        if let Some(row) = rows.get_mut(5) {
            self.push = self.limot.fill_row(b, ctx.fps, row, &ax1, true);
        }
    }

    fn max_rows(&self) -> usize {
        6
    }

    /// Keeps the anchor and axis where they are in the world, seen from the
    /// newly attached bodies, and makes the current pose angle 0.
    fn relative_values_sane(&self) -> bool {
        super::points_sane(&[&self.anchor1, &self.anchor2, &self.axis1, &self.axis2])
    }

    fn set_relative_values(&mut self, head: &JointHead, b: Bodies<'_>) {
        if let Some(p) = self.anchor(head, b) {
            if let Some((a1, a2)) = set_anchors(b, p) {
                self.anchor1 = a1;
                self.anchor2 = a2;
            }
        }
        if let Some(a) = self.axis(b) {
            if axis_ok(a) {
                if let Some((a1, a2)) = set_axes(b, a) {
                    self.axis1 = a1;
                    self.axis2 = a2;
                }
            }
        }
        self.reset_qrel(b);
    }
}
