//! The angular motor (`dJointCreateAMotor`): up to three rotational
//! limit/motor rows (`limit_motor`) about axes fixed in the world or in
//! either body. In user mode the host supplies the angles the stops are
//! tested against (`dJointSetAMotorAngle`); in Euler mode the joint measures
//! three Euler angles between the bodies itself, from axis 0 fixed in body 1,
//! axis 2 fixed in body 2 and two reference vectors taken when the mode or
//! an axis was set.
//!
//! Axis relativity is stored in the internal body order: for a joint
//! attached as (0, b) (REVERSE) "body 1" and "body 2" are swapped on the way
//! in and out, and in Euler mode the roles of axes 0 and 2 follow the
//! swapped bodies, as in ODE 0.16.

use super::limit_motor::{BodyPush, LimitMotor};
use super::{flags, Bodies, Info1, JointHead, JointModel, Row, RowCtx};
use crate::dynamics::world::World;
use crate::math::mat3::{mul0_331, mul1_331};
use crate::math::vec::{cross3, dot3, safe_normalize3};

/// `dAMotorUser`.
pub const MODE_USER: i32 = 0;
/// `dAMotorEuler`.
pub const MODE_EULER: i32 = 1;

/// Axis relativity (ODE's 0 = global, 1 = body 1, 2 = body 2).
pub const REL_GLOBAL: i32 = 0;
pub const REL_BODY1: i32 = 1;
pub const REL_BODY2: i32 = 2;

/// The relativity Euler mode allows for each axis (before any swap).
pub const EULER_REL: [i32; 3] = [REL_BODY1, REL_GLOBAL, REL_BODY2];

fn is_reverse(head: &JointHead) -> bool {
    head.flags & flags::REVERSE != 0
}

/// Body 1 ↔ body 2 for body-relative values; global stays global.
pub fn swap_rel(rel: i32) -> i32 {
    match rel {
        REL_BODY1 => REL_BODY2,
        REL_BODY2 => REL_BODY1,
        r => r,
    }
}

fn neg(v: &[f64; 3]) -> [f64; 3] {
    [-v[0], -v[1], -v[2]]
}

#[derive(Clone, Debug, PartialEq)]
pub struct AMotor {
    pub mode: i32,
    /// Number of axes in use (0..=3).
    pub num: usize,
    /// Relativity of each axis in internal body order.
    pub rel: [i32; 3],
    /// Unit axes, in the frame `rel` names.
    pub axis: [[f64; 3]; 3],
    /// Euler mode references: [0] in body 1's frame, [1] in body 2's frame
    /// (world frame without body 2).
    pub refs: [[f64; 3]; 2],
    /// User-set angles (user mode) or the last measured Euler angles.
    pub angle: [f64; 3],
    pub limot: [LimitMotor; 3],
    /// Motor forces at a stop recorded by `info2`, one per axis.
    pub pushes: [BodyPush; 3],
}

impl AMotor {
    /// User mode, no axes, motors off, no stops.
    pub fn new(world: &World) -> AMotor {
        AMotor {
            mode: MODE_USER,
            num: 0,
            rel: [REL_GLOBAL; 3],
            axis: [[0.0; 3]; 3],
            refs: [[0.0; 3]; 2],
            angle: [0.0; 3],
            limot: [LimitMotor::new(world); 3],
            pushes: [BodyPush::default(); 3],
        }
    }

    pub fn euler(&self) -> bool {
        self.mode == MODE_EULER
    }

    /// `dJointSetAMotorNumAxes` (`n` ≤ 3); Euler mode always uses three.
    pub fn set_num_axes(&mut self, n: usize) {
        self.num = if self.euler() { 3 } else { n };
    }

    /// `dJointSetAMotorMode` (`mode` is user or Euler).
    pub fn set_mode(&mut self, head: &JointHead, b: Bodies<'_>, mode: i32) {
        self.mode = mode;
        if self.euler() {
            self.num = 3;
            self.set_euler_refs(head, b);
        }
    }

    /// Internal relativity of a user relativity on this joint.
    pub fn internal_rel(head: &JointHead, rel: i32) -> i32 {
        if is_reverse(head) {
            swap_rel(rel)
        } else {
            rel
        }
    }

    /// Whether `dJointSetAMotorAxis(anum, rel, v)` is acceptable here:
    /// `None` if so, else why not. `anum` and `rel` must be in 0..=2.
    pub fn axis_problem(
        &self,
        head: &JointHead,
        b: Bodies<'_>,
        anum: usize,
        rel: i32,
        v: [f64; 3],
    ) -> Option<&'static str> {
        if self.euler() && rel != REL_GLOBAL && rel != EULER_REL[anum] {
            return Some(
                "in Euler mode axis 0 may only be relative to body 1, axis 1 global, axis 2 relative to body 2",
            );
        }
        if Self::internal_rel(head, rel) == REL_BODY1 && head.body[0].is_none() {
            return Some("the axis is relative to a body the joint is not attached to");
        }
        // ODE normalises the axis after taking it into the body's frame.
        if !super::hinge::axis_ok(Self::body_axis(Self::internal_rel(head, rel), b, v)) {
            return Some("the axis cannot be normalised");
        }
        None
    }

    /// World direction `v` in the frame relativity `rel` (internal order)
    /// names, before normalisation.
    fn body_axis(rel: i32, b: Bodies<'_>, v: [f64; 3]) -> [f64; 3] {
        match (rel, b.b1, b.b2) {
            (REL_BODY1, Some(b0), _) => mul1_331(&b0.r, &v),
            (REL_BODY2, _, Some(b1)) => mul1_331(&b1.r, &v),
            _ => v,
        }
    }

    /// `dJointSetAMotorAxis`: `v` is a world direction, stored in the frame
    /// `rel` names (after `axis_problem` accepted it).
    pub fn set_axis(&mut self, head: &JointHead, b: Bodies<'_>, anum: usize, rel: i32, v: [f64; 3]) {
        let rel = Self::internal_rel(head, rel);
        self.rel[anum] = rel;
        let mut a = Self::body_axis(rel, b, v);
        safe_normalize3(&mut a);
        self.axis[anum] = a;
        if self.euler() {
            self.set_euler_refs(head, b);
        }
    }

    /// `dJointSetAMotorAngle` (user mode only).
    pub fn set_angle(&mut self, anum: usize, angle: f64) {
        if !self.euler() {
            self.angle[anum] = angle;
        }
    }

    /// `dJointGetAMotorAxisRel`, in the caller's body order.
    pub fn axis_rel(&self, head: &JointHead, anum: usize) -> i32 {
        Self::internal_rel(head, self.rel[anum])
    }

    /// Index of the Euler axis fixed in the first attached body (axis 0, or
    /// axis 2 when the bodies are swapped) and of the body that carries
    /// Euler axis 0 in internal order.
    fn euler_first(head: &JointHead) -> (usize, usize) {
        if is_reverse(head) {
            (2, 1)
        } else {
            (0, 0)
        }
    }

    /// Reference vectors for the Euler angles: each body's Euler axis as
    /// seen from the other body (ODE's `setEulerReferenceVectors`).
    fn set_euler_refs(&mut self, head: &JointHead, b: Bodies<'_>) {
        let (first, _) = Self::euler_first(head);
        let second = 2 - first;
        match (b.b1, b.b2) {
            (Some(b0), Some(b1)) => {
                let r = mul0_331(&b0.r, &self.axis[first]);
                self.refs[1] = mul1_331(&b1.r, &r);
                let r = mul0_331(&b1.r, &self.axis[second]);
                self.refs[0] = mul1_331(&b0.r, &r);
            }
            (Some(b0), None) => {
                self.refs[1] = mul0_331(&b0.r, &self.axis[first]);
                self.refs[0] = mul1_331(&b0.r, &self.axis[second]);
            }
            _ => {}
        }
    }

    /// One axis in world coordinates as user mode sees it; `None` if it is
    /// relative to body 1 and the joint has none.
    fn user_axis(&self, b: Bodies<'_>, i: usize) -> Option<[f64; 3]> {
        Some(match self.rel[i] {
            REL_BODY1 => mul0_331(&b.b1?.r, &self.axis[i]),
            REL_BODY2 if b.b2.is_some() => mul0_331(&b.b2.unwrap().r, &self.axis[i]),
            _ => self.axis[i],
        })
    }

    /// The axes in world coordinates (ODE's `computeGlobalAxes`): user mode
    /// fills the first `num`; Euler mode all three, axis 1 being the unit
    /// normal of axes 2 and 0. `None` when a needed body is missing.
    pub fn global_axes(&self, head: &JointHead, b: Bodies<'_>) -> Option<[[f64; 3]; 3]> {
        let mut ax = [[0.0; 3]; 3];
        if self.euler() {
            let b0 = b.b1?;
            let (first, _) = Self::euler_first(head);
            let second = 2 - first;
            ax[first] = mul0_331(&b0.r, &self.axis[first]);
            ax[second] = match b.b2 {
                Some(b1) => mul0_331(&b1.r, &self.axis[second]),
                None => self.axis[second],
            };
            let mut y = cross3(&ax[2], &ax[0]);
            safe_normalize3(&mut y);
            ax[1] = y;
        } else {
            for i in 0..self.num {
                ax[i] = self.user_axis(b, i)?;
            }
        }
        Some(ax)
    }

    /// Measures the Euler angles from the world axes `ax` (Euler mode).
    fn compute_euler_angles(&mut self, head: &JointHead, b: Bodies<'_>, ax: &[[f64; 3]; 3]) {
        let Some(b0) = b.b1 else { return };
        let r0 = mul0_331(&b0.r, &self.refs[0]);
        let r1 = match b.b2 {
            Some(b1) => mul0_331(&b1.r, &self.refs[1]),
            None => self.refs[1],
        };
        let (_, first_body) = Self::euler_first(head);
        let (rf, rs) = if first_body == 0 { (r0, r1) } else { (r1, r0) };
        let q = cross3(&ax[0], &rf);
        self.angle[0] = -dot3(&ax[2], &q).atan2(dot3(&ax[2], &rf));
        let q = cross3(&ax[0], &ax[1]);
        self.angle[1] = -dot3(&ax[2], &ax[0]).atan2(dot3(&ax[2], &q));
        let q = cross3(&ax[1], &ax[2]);
        self.angle[2] = -dot3(&rs, &ax[1]).atan2(dot3(&rs, &q));
    }

    /// `dJointGetAMotorAxis`: the world axis; in Euler mode the effective
    /// axes the rows use (axes 0 and 2 are then not unit length in
    /// general). `None` when a needed body is missing.
    pub fn axis_value(&self, head: &JointHead, b: Bodies<'_>, anum: usize) -> Option<[f64; 3]> {
        if self.euler() {
            let ax = self.global_axes(head, b)?;
            Some(match anum {
                0 => cross3(&ax[1], &ax[2]),
                1 => ax[1],
                _ => cross3(&ax[0], &ax[1]),
            })
        } else {
            self.user_axis(b, anum)
        }
    }

    /// `dJointGetAMotorAngleRate`; `None` without body.
    pub fn angle_rate(&self, head: &JointHead, b: Bodies<'_>, anum: usize) -> Option<f64> {
        let b0 = b.b1?;
        let a = self.axis_value(head, b, anum)?;
        let mut rate = dot3(&a, &b0.avel);
        if let Some(b1) = b.b2 {
            rate -= dot3(&a, &b1.avel);
        }
        Some(if is_reverse(head) { -rate } else { rate })
    }

    /// `dJointAddAMotorTorques`: torque tᵢ about axis i on body 1 and the
    /// opposite on body 2. Nothing without axes; `None` when axes are
    /// needed but the joint has no body.
    pub fn torque_push(&self, head: &JointHead, b: Bodies<'_>, t: [f64; 3]) -> Option<BodyPush> {
        let mut push = BodyPush::default();
        if self.num == 0 {
            return Some(push);
        }
        b.b1?;
        let ax = self.global_axes(head, b)?;
        let t = if is_reverse(head) { neg(&t) } else { t };
        let sum: [f64; 3] = std::array::from_fn(|k| match self.num {
            3 => t[2] * ax[2][k] + t[1] * ax[1][k] + t[0] * ax[0][k],
            2 => t[1] * ax[1][k] + t[0] * ax[0][k],
            _ => t[0] * ax[0][k],
        });
        push.torque[0] = Some(sum);
        if b.b2.is_some() {
            push.torque[1] = Some(neg(&sum));
        }
        Some(push)
    }

    /// Applies and clears the stop pushes the last `info2` recorded, axis
    /// by axis (the order ODE adds them in).
    pub fn apply_pushes(&mut self, head: &JointHead) {
        for p in std::mem::take(&mut self.pushes) {
            if !p.is_empty() {
                p.apply(head);
            }
        }
    }
}

impl JointModel for AMotor {
    const TYPE: std::ffi::c_int = crate::abi::common::dJointType::dJointTypeAMotor as std::ffi::c_int;

    fn info1(&mut self, head: &JointHead, b: Bodies<'_>) -> Info1 {
        if self.euler() {
            if let Some(ax) = self.global_axes(head, b) {
                self.compute_euler_angles(head, b, &ax);
            }
        }
        let mut m = 0;
        for i in 0..self.num {
            let at_stop = self.limot[i].test_limit(self.angle[i]);
            if at_stop || self.limot[i].fmax > 0.0 {
                m += 1;
            }
        }
        Info1 { m, nub: 0 }
    }

    fn info2(&mut self, head: &JointHead, b: Bodies<'_>, ctx: &RowCtx<'_>, rows: &mut [Row]) {
        self.pushes = Default::default();
        let Some(mut ax) = self.global_axes(head, b) else { return };
        if self.euler() {
            // The rows constrain w2 - w1 along the directions that keep
            // each Euler angle fixed, not along the axes themselves.
            let a0x1 = cross3(&ax[0], &ax[1]);
            let a1x2 = cross3(&ax[1], &ax[2]);
            ax[2] = a0x1;
            ax[0] = a1x2;
        }
        let mut k = 0;
        for i in 0..self.num {
            if self.limot[i].needs_row() {
                let Some(row) = rows.get_mut(k) else { return };
                self.pushes[i] = self.limot[i].fill_row(b, ctx.fps, row, &ax[i], true);
                k += 1;
            }
        }
    }

    fn max_rows(&self) -> usize {
        self.num
    }
}
