//! The universal joint (`dJointCreateUniversal`): a ball joint plus one
//! row keeping the two axes perpendicular, with a limit/motor row on each
//! axis. Axis 1 is fixed in body 1, axis 2 in body 2 (or the world).
//!
//! Angles are measured against a "cross" frame built from both axes; the
//! relative rotations `qrel1`/`qrel2` recorded when an axis or the anchor
//! is set define angle 0. The PU joint reuses the angle machinery here
//! (ODE derives it from the universal joint).

use super::ball::{set_anchors, set_ball_rows, user_anchor, user_anchor2};
use super::hinge::{angle_from_relative_quat, axis_ok, get_axis1, get_axis2, set_axes};
use super::limit_motor::{BodyPush, Limit, LimitMotor, Param};
use super::{flags, Bodies, Info1, JointHead, JointModel, Row, RowCtx};
use crate::dynamics::world::World;
use crate::math::rotation::{q_from_axis_and_angle, q_mult0, q_mult1, q_mult2, r_from_2_axes, r_to_q, Quat};
use crate::math::vec::{cross3, dot3, normalize3};
use std::f64::consts::PI;

/// Decodes a parameter number the way the two-axis joints do: group 2
/// (`0x100 + p`) addresses axis 2, anything else is tried as a parameter
/// of axis 1 (so numbers of other groups are ignored).
pub fn two_axis_param(code: std::ffi::c_int) -> (usize, Option<Param>) {
    if code & 0xff00 == 0x100 {
        (1, Param::from_code(code & 0xff))
    } else {
        (0, Param::from_code(code))
    }
}

/// Axes in world coordinates: axis 1 from body 1, axis 2 from body 2 (or
/// as stored without body 2). Needs body 1.
pub fn world_axes(b: Bodies<'_>, axis1: &[f64; 3], axis2: &[f64; 3]) -> Option<([f64; 3], [f64; 3])> {
    Some((get_axis1(b, axis1)?, get_axis2(b, axis2)))
}

/// Quaternion of the frame whose x axis is `a` and whose y axis is `b`
/// (made perpendicular). Parallel axes have no such frame; ODE warns and
/// then reads an uninitialised matrix, we warn and use the identity.
fn cross_quat(a: [f64; 3], b: [f64; 3]) -> Quat {
    match r_from_2_axes(a, b) {
        Some(r) => r_to_q(&r),
        None => {
            crate::error::message(
                crate::error::D_ERR_UASSERT,
                "universal joint: parallel axes (zero length vector in dRFrom2Axes), angle reference undefined",
            );
            [1.0, 0.0, 0.0, 0.0]
        }
    }
}

/// The axis and angle state the universal and PU joints share.
#[derive(Clone, Debug, PartialEq)]
pub struct UniAxes {
    /// Axis 1 in body 1's frame.
    pub axis1: [f64; 3],
    /// Axis 2 in body 2's frame (world without body 2).
    pub axis2: [f64; 3],
    pub qrel1: Quat,
    pub qrel2: Quat,
}

impl UniAxes {
    /// ODE's `computeInitialRelativeRotations`: the current pose reads
    /// angles (0, 0). Nothing happens without body.
    pub fn reset_qrel(&mut self, b: Bodies<'_>) {
        let Some(b0) = b.b1 else { return };
        let (ax1, ax2) = world_axes(b, &self.axis1, &self.axis2).unwrap();
        self.qrel1 = q_mult1(&b0.q, &cross_quat(ax1, ax2));
        let qcross = cross_quat(ax2, ax1);
        self.qrel2 = match b.b2 {
            Some(b1) => q_mult1(&b1.q, &qcross),
            None => qcross,
        };
    }

    /// Both angles at once (ODE's `getAngles`): angle 2 comes from the
    /// cross frame turned half a turn about the bisector of the axes.
    pub fn angles(&self, b: Bodies<'_>) -> (f64, f64) {
        let Some(b0) = b.b1 else { return (0.0, 0.0) };
        let (ax1, ax2) = world_axes(b, &self.axis1, &self.axis2).unwrap();
        let qcross = cross_quat(ax1, ax2);
        let qrel = q_mult2(&q_mult1(&b0.q, &qcross), &self.qrel1);
        let angle1 = angle_from_relative_quat(&qrel, &self.axis1);

        let mut half = [0.0, ax1[0] + ax2[0], ax1[1] + ax2[1], ax1[2] + ax2[2]];
        let l = 1.0 / (half[1] * half[1] + half[2] * half[2] + half[3] * half[3]).sqrt();
        half[1] *= l;
        half[2] *= l;
        half[3] *= l;
        let qcross2 = q_mult0(&half, &qcross);
        let qrel = match b.b2 {
            Some(b1) => q_mult2(&q_mult1(&b1.q, &qcross2), &self.qrel2),
            None => q_mult2(&qcross2, &self.qrel2),
        };
        (angle1, -angle_from_relative_quat(&qrel, &self.axis2))
    }

    /// Angle about axis 1 alone (ODE's `getAngle1`).
    pub fn angle1(&self, b: Bodies<'_>) -> f64 {
        let Some(b0) = b.b1 else { return 0.0 };
        let (ax1, ax2) = world_axes(b, &self.axis1, &self.axis2).unwrap();
        let qrel = q_mult2(&q_mult1(&b0.q, &cross_quat(ax1, ax2)), &self.qrel1);
        angle_from_relative_quat(&qrel, &self.axis1)
    }

    /// Angle about axis 2 alone (ODE's `getAngle2`, measured from the
    /// frame built with the axes swapped; rounds differently from `angles`).
    pub fn angle2(&self, b: Bodies<'_>) -> f64 {
        let Some(_) = b.b1 else { return 0.0 };
        let (ax1, ax2) = world_axes(b, &self.axis1, &self.axis2).unwrap();
        let qcross = cross_quat(ax2, ax1);
        let qrel = match b.b2 {
            Some(b1) => q_mult2(&q_mult1(&b1.q, &qcross), &self.qrel2),
            None => q_mult2(&qcross, &self.qrel2),
        };
        -angle_from_relative_quat(&qrel, &self.axis2)
    }

    /// Relative angular velocity of the bodies about the world axis `ax`.
    pub fn rate_about(b: Bodies<'_>, ax: &[f64; 3]) -> f64 {
        let Some(b0) = b.b1 else { return 0.0 };
        let mut rate = dot3(ax, &b0.avel);
        if let Some(b1) = b.b2 {
            rate -= dot3(ax, &b1.avel);
        }
        rate
    }

    /// The user's axis 1 (`dJointGet*Axis1`): with REVERSE the stored
    /// axis 2 plays that role.
    pub fn user_axis1(&self, head: &JointHead, b: Bodies<'_>) -> Option<[f64; 3]> {
        if head.flags & flags::REVERSE != 0 {
            Some(get_axis2(b, &self.axis2))
        } else {
            get_axis1(b, &self.axis1)
        }
    }

    pub fn user_axis2(&self, head: &JointHead, b: Bodies<'_>) -> Option<[f64; 3]> {
        if head.flags & flags::REVERSE != 0 {
            get_axis1(b, &self.axis1)
        } else {
            Some(get_axis2(b, &self.axis2))
        }
    }

    /// Stores world direction `a` as the joint's axis 1 (`first`) or axis
    /// 2. Does nothing without body. `a` must pass `axis_ok` then.
    pub fn store_axis(&mut self, b: Bodies<'_>, first: bool, a: [f64; 3]) {
        if let Some((a1, a2)) = set_axes(b, a) {
            if first {
                self.axis1 = a1;
            } else {
                self.axis2 = a2;
            }
        }
    }

    /// Sets the user's axis 1 (`user_first`) or axis 2, honouring REVERSE.
    pub fn set_user_axis(&mut self, head: &JointHead, b: Bodies<'_>, user_first: bool, a: [f64; 3]) {
        let reverse = head.flags & flags::REVERSE != 0;
        self.store_axis(b, user_first != reverse, a);
    }

    /// Re-expresses the axes (as the user sees them) in the frames of
    /// newly attached bodies.
    pub fn rebase_axes(&mut self, head: &JointHead, b: Bodies<'_>) {
        let u1 = self.user_axis1(head, b);
        let u2 = self.user_axis2(head, b);
        for (user_first, a) in [(true, u1), (false, u2)] {
            if let Some(a) = a {
                if axis_ok(a) {
                    self.set_user_axis(head, b, user_first, a);
                }
            }
        }
    }
}

/// Which limit rows the two rotational axes need, measuring the angles
/// only when some stop could be reached (ODE's universal `getInfo1`).
pub fn test_uni_limits(ax: &UniAxes, b: Bodies<'_>, l1: &mut LimitMotor, l2: &mut LimitMotor) {
    let limiting = |l: &LimitMotor| (l.lostop >= -PI || l.histop <= PI) && l.lostop <= l.histop;
    let (lim1, lim2) = (limiting(l1), limiting(l2));
    l1.limit = Limit::Free;
    l2.limit = Limit::Free;
    if lim1 || lim2 {
        let (a1, a2) = ax.angles(b);
        if lim1 {
            l1.test_limit(a1);
        }
        if lim2 {
            l2.test_limit(a2);
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Universal {
    pub anchor1: [f64; 3],
    pub anchor2: [f64; 3],
    pub ax: UniAxes,
    pub limot1: LimitMotor,
    pub limot2: LimitMotor,
    /// Motor forces at stops recorded by `info2`, applied in order.
    pub push: [BodyPush; 2],
}

impl Universal {
    /// Anchors at the centres, axis 1 along x, axis 2 along y.
    pub fn new(world: &World) -> Universal {
        Universal {
            anchor1: [0.0; 3],
            anchor2: [0.0; 3],
            ax: UniAxes { axis1: [1.0, 0.0, 0.0], axis2: [0.0, 1.0, 0.0], qrel1: [0.0; 4], qrel2: [0.0; 4] },
            limot1: LimitMotor::new(world),
            limot2: LimitMotor::new(world),
            push: Default::default(),
        }
    }

    pub fn limot(&mut self, axis: usize) -> &mut LimitMotor {
        if axis == 0 {
            &mut self.limot1
        } else {
            &mut self.limot2
        }
    }

    pub fn set_anchor(&mut self, b: Bodies<'_>, p: [f64; 3]) {
        if let Some((a1, a2)) = set_anchors(b, p) {
            self.anchor1 = a1;
            self.anchor2 = a2;
        }
        self.ax.reset_qrel(b);
    }

    pub fn anchor(&self, head: &JointHead, b: Bodies<'_>) -> Option<[f64; 3]> {
        user_anchor(head, b, &self.anchor1, &self.anchor2)
    }

    pub fn anchor2(&self, head: &JointHead, b: Bodies<'_>) -> Option<[f64; 3]> {
        user_anchor2(head, b, &self.anchor1, &self.anchor2)
    }

    /// `dJointSetUniversalAxis1/2`.
    pub fn set_axis(&mut self, head: &JointHead, b: Bodies<'_>, user_first: bool, a: [f64; 3]) {
        self.ax.set_user_axis(head, b, user_first, a);
        self.ax.reset_qrel(b);
    }

    /// `dJointSetUniversalAxis1Offset`: sets axis 1, then makes the current
    /// pose read (offset1, offset2). Needs body 1. On a joint attached as
    /// (0, body) ODE builds its reference from two equal axes (undefined
    /// result, with a warning); so do we, with the identity as reference.
    pub fn set_axis1_offset(&mut self, head: &JointHead, b: Bodies<'_>, a: [f64; 3], off1: f64, off2: f64) {
        let Some(b0) = b.b1 else { return };
        let (mut off1, mut off2) = (off1, off2);
        if head.flags & flags::REVERSE != 0 {
            off1 = -off1;
            off2 = -off2;
        }
        self.set_axis(head, b, true, a);
        let (_, ax2) = world_axes(b, &self.ax.axis1, &self.ax.axis2).unwrap();
        let q_angle = q_from_axis_and_angle(a[0], a[1], a[2], off1);
        let q_off = q_mult0(&q_angle, &cross_quat(a, ax2));
        self.ax.qrel1 = q_mult1(&b0.q, &q_off);
        let q_angle = q_from_axis_and_angle(ax2[0], ax2[1], ax2[2], off2);
        let qcross = cross_quat(ax2, a);
        let q_off = q_mult1(&q_angle, &qcross);
        self.ax.qrel2 = match b.b2 {
            Some(b1) => q_mult1(&b1.q, &q_off),
            None => qcross,
        };
    }

    /// `dJointSetUniversalAxis2Offset`. With REVERSE, ODE swaps the offsets
    /// through an already-overwritten variable: axis 1 gets −offset2 and
    /// axis 2 keeps offset2. Kept as is. Needs body 1.
    pub fn set_axis2_offset(&mut self, head: &JointHead, b: Bodies<'_>, a: [f64; 3], off1: f64, off2: f64) {
        let Some(b0) = b.b1 else { return };
        let (mut off1, mut off2) = (off1, off2);
        if head.flags & flags::REVERSE != 0 {
            off1 = -off2;
            off2 = -off1;
        }
        self.set_axis(head, b, false, a);
        let (ax1, ax2) = world_axes(b, &self.ax.axis1, &self.ax.axis2).unwrap();
        let q_angle = q_from_axis_and_angle(ax1[0], ax1[1], ax1[2], off1);
        let q_off = q_mult0(&q_angle, &cross_quat(ax1, ax2));
        self.ax.qrel1 = q_mult1(&b0.q, &q_off);
        let q_angle = q_from_axis_and_angle(ax2[0], ax2[1], ax2[2], off2);
        let qcross = cross_quat(ax2, ax1);
        let q_off = q_mult1(&q_angle, &qcross);
        self.ax.qrel2 = match b.b2 {
            Some(b1) => q_mult1(&b1.q, &q_off),
            None => qcross,
        };
    }

    /// `dJointGetUniversalAngles` (REVERSE: the roles swap and the new
    /// angle 2 changes sign).
    pub fn user_angles(&self, head: &JointHead, b: Bodies<'_>) -> (f64, f64) {
        let (a1, a2) = self.ax.angles(b);
        if head.flags & flags::REVERSE != 0 {
            (a2, -a1)
        } else {
            (a1, a2)
        }
    }

    pub fn user_angle1(&self, head: &JointHead, b: Bodies<'_>) -> f64 {
        if head.flags & flags::REVERSE != 0 {
            self.ax.angle2(b)
        } else {
            self.ax.angle1(b)
        }
    }

    pub fn user_angle2(&self, head: &JointHead, b: Bodies<'_>) -> f64 {
        if head.flags & flags::REVERSE != 0 {
            -self.ax.angle1(b)
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

    /// `dJointAddUniversalTorques`: torque1 about axis 1 plus torque2 about
    /// axis 2 on body 1, the opposite on body 2.
    pub fn torque_push(&self, head: &JointHead, b: Bodies<'_>, t1: f64, t2: f64) -> BodyPush {
        let (t1, t2) = if head.flags & flags::REVERSE != 0 { (-t2, -t1) } else { (t1, t2) };
        let mut push = BodyPush::default();
        let Some(a1) = get_axis1(b, &self.ax.axis1) else { return push };
        let a2 = get_axis2(b, &self.ax.axis2);
        let t = [a1[0] * t1 + a2[0] * t2, a1[1] * t1 + a2[1] * t2, a1[2] * t1 + a2[2] * t2];
        push.torque[0] = Some(t);
        if b.b2.is_some() {
            push.torque[1] = Some([-t[0], -t[1], -t[2]]);
        }
        push
    }
}

impl JointModel for Universal {
    const TYPE: std::ffi::c_int = crate::abi::common::dJointType::dJointTypeUniversal as std::ffi::c_int;

    fn info1(&mut self, _: &JointHead, b: Bodies<'_>) -> Info1 {
        test_uni_limits(&self.ax, b, &mut self.limot1, &mut self.limot2);
        let m = 4 + self.limot1.needs_row() as usize + self.limot2.needs_row() as usize;
        Info1 { m, nub: 4 }
    }

    fn info2(&mut self, _: &JointHead, b: Bodies<'_>, ctx: &RowCtx<'_>, rows: &mut [Row]) {
        self.push = Default::default();
        let Some((ax1, ax2)) = world_axes(b, &self.ax.axis1, &self.ax.axis2) else { return };
        set_ball_rows(b, ctx.fps, ctx.erp, rows, &self.anchor1, &self.anchor2);

        // No relative rotation about the normal of both axes (axis 2 made
        // perpendicular to axis 1 first); the right-hand side turns the
        // axes back to 90° (cos ≈ angle error near there).
        let k = dot3(&ax1, &ax2);
        let t = [ax2[0] - ax1[0] * k, ax2[1] - ax1[1] * k, ax2[2] - ax1[2] * k];
        let mut p = cross3(&ax1, &t);
        normalize3(&mut p);
        rows[3].j1a = p;
        if b.b2.is_some() {
            rows[3].j2a = [-p[0], -p[1], -p[2]];
        }
        rows[3].c = ctx.fps * ctx.erp * -k;

        let mut r = 4;
        if self.limot1.needs_row() {
            self.push[0] = self.limot1.fill_row(b, ctx.fps, &mut rows[r], &ax1, true);
            r += 1;
        }
        if self.limot2.needs_row() {
            self.push[1] = self.limot2.fill_row(b, ctx.fps, &mut rows[r], &ax2, true);
        }
    }

    fn max_rows(&self) -> usize {
        6
    }

    fn relative_values_sane(&self) -> bool {
        super::points_sane(&[&self.anchor1, &self.anchor2, &self.ax.axis1, &self.ax.axis2])
    }

    fn set_relative_values(&mut self, head: &JointHead, b: Bodies<'_>) {
        if let Some(p) = self.anchor(head, b) {
            if let Some((a1, a2)) = set_anchors(b, p) {
                self.anchor1 = a1;
                self.anchor2 = a2;
            }
        }
        self.ax.rebase_axes(head, b);
        self.ax.reset_qrel(b);
    }
}
