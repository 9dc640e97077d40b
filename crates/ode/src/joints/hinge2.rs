//! The hinge-2 joint (`dJointCreateHinge2`), e.g. a steered, suspended
//! wheel: axis 1 (steering) is fixed in body 1, axis 2 (wheel) in body 2.
//! Four rows: the ball rows expressed along axis 1 and its normals (the
//! one along axis 1 is the suspension, with its own ERP and CFM) and one
//! keeping the angle between the axes; a limit/motor row on axis 1 and a
//! motor row on axis 2 (axis 2 has no stops). Needs two bodies.
//!
//! Angle 1 is read from axis 2 projected on two vectors `v1`, `v2` fixed
//! in body 1; angle 2 from axis 1 projected on `w1`, `w2` fixed in body 2.
//! They are recomputed whenever the anchor or an axis is set.

use super::ball::{set_anchors, user_anchor, user_anchor2};
use super::hinge::{axis_ok, set_axes};
use super::limit_motor::{BodyPush, Limit, LimitMotor, Param};
use super::{Bodies, Info1, JointHead, JointModel, Row, RowCtx};
use crate::dynamics::world::World;
use crate::math::mat3::{mul0_331, mul1_331};
use crate::math::vec::{cross3, dot3, normalize3, plane_space, safe_normalize3};
use std::f64::consts::PI;

/// ODE's `setBall2`: the three anchor rows along `axis` (unit, world) and
/// two normals of it, the one along `axis` corrected with `erp1`.
pub fn set_ball2_rows(
    b: Bodies<'_>,
    fps: f64,
    erp: f64,
    rows: &mut [Row],
    anchor1: &[f64; 3],
    anchor2: &[f64; 3],
    axis: &[f64; 3],
    erp1: f64,
) {
    let Some(b0) = b.b1 else { return };
    let (q1, q2) = plane_space(axis);
    let dirs = [*axis, q1, q2];
    let a1 = mul0_331(&b0.r, anchor1);
    for (row, d) in rows.iter_mut().zip(dirs) {
        row.j1l = d;
        row.j1a = cross3(&a1, &d);
    }
    let a1 = [a1[0] + b0.pos[0], a1[1] + b0.pos[1], a1[2] + b0.pos[2]];
    let (k1, k) = (fps * erp1, fps * erp);
    let d = match b.b2 {
        Some(b1) => {
            let a2 = mul0_331(&b1.r, anchor2);
            for (row, d) in rows.iter_mut().zip(dirs) {
                row.j2l = [-d[0], -d[1], -d[2]];
                row.j2a = cross3(&d, &a2);
            }
            let a2 = [a2[0] + b1.pos[0], a2[1] + b1.pos[1], a2[2] + b1.pos[2]];
            [a2[0] - a1[0], a2[1] - a1[1], a2[2] - a1[2]]
        }
        None => [anchor2[0] - a1[0], anchor2[1] - a1[1], anchor2[2] - a1[2]],
    };
    rows[0].c = k1 * dot3(axis, &d);
    rows[1].c = k * dot3(&q1, &d);
    rows[2].c = k * dot3(&q2, &d);
}

#[derive(Clone, Debug, PartialEq)]
pub struct Hinge2 {
    pub anchor1: [f64; 3],
    pub anchor2: [f64; 3],
    /// Axis 1 in body 1's frame.
    pub axis1: [f64; 3],
    /// Axis 2 in body 2's frame.
    pub axis2: [f64; 3],
    /// Cosine and sine of the angle between the axes when last set.
    pub c0: f64,
    pub s0: f64,
    /// Angle-1 reference vectors in body 1's frame.
    pub v1: [f64; 3],
    pub v2: [f64; 3],
    /// Angle-2 reference vectors in body 2's frame.
    pub w1: [f64; 3],
    pub w2: [f64; 3],
    pub limot1: LimitMotor,
    pub limot2: LimitMotor,
    pub susp_erp: f64,
    pub susp_cfm: f64,
    /// Motor forces at stops recorded by `info2`, applied in order.
    pub push: [BodyPush; 2],
}

impl Hinge2 {
    /// Axis 1 along x, axis 2 along y, suspension ERP/CFM from the world.
    pub fn new(world: &World) -> Hinge2 {
        Hinge2 {
            anchor1: [0.0; 3],
            anchor2: [0.0; 3],
            axis1: [1.0, 0.0, 0.0],
            axis2: [0.0, 1.0, 0.0],
            c0: 0.0,
            s0: 0.0,
            v1: [1.0, 0.0, 0.0],
            v2: [0.0, 1.0, 0.0],
            // Left uninitialised by ODE until the joint is attached.
            w1: [0.0; 3],
            w2: [0.0; 3],
            limot1: LimitMotor::new(world),
            limot2: LimitMotor::new(world),
            susp_erp: world.erp,
            susp_cfm: world.cfm,
            push: Default::default(),
        }
    }

    /// World axis 1 (body 1 needed).
    pub fn axis1_world(&self, b: Bodies<'_>) -> Option<[f64; 3]> {
        Some(mul0_331(&b.b1?.r, &self.axis1))
    }

    /// World axis 2 (body 2 needed).
    pub fn axis2_world(&self, b: Bodies<'_>) -> Option<[f64; 3]> {
        Some(mul0_331(&b.b2?.r, &self.axis2))
    }

    /// World axes, their cross product, and the sine and cosine of the
    /// angle between them (ODE's `getAxisInfo`). Needs both bodies.
    fn axis_info(&self, b: Bodies<'_>) -> Option<([f64; 3], [f64; 3], [f64; 3], f64, f64)> {
        let ax1 = self.axis1_world(b)?;
        let ax2 = self.axis2_world(b)?;
        let c = cross3(&ax1, &ax2);
        let s = (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]).sqrt();
        Some((ax1, ax2, c, s, dot3(&ax1, &ax2)))
    }

    /// Reference vectors of both angles. Returns false (vectors kept) when
    /// the axes are parallel, which ODE rejects with an assertion.
    fn make_refs(&mut self, b: Bodies<'_>) -> bool {
        let (Some(b0), Some(b1)) = (b.b1, b.b2) else { return true };
        let ax1 = mul0_331(&b0.r, &self.axis1);
        let ax2 = mul0_331(&b1.r, &self.axis2);
        let mut ok = true;
        let k = dot3(&ax1, &ax2);
        let mut u = [ax2[0] + ax1[0] * -k, ax2[1] + ax1[1] * -k, ax2[2] + ax1[2] * -k];
        if safe_normalize3(&mut u) {
            self.v1 = mul1_331(&b0.r, &u);
            self.v2 = mul1_331(&b0.r, &cross3(&ax1, &u));
        } else {
            ok = false;
        }
        let k = dot3(&ax2, &ax1);
        let mut u = [ax1[0] + ax2[0] * -k, ax1[1] + ax2[1] * -k, ax1[2] + ax2[2] * -k];
        if safe_normalize3(&mut u) {
            self.w1 = mul1_331(&b1.r, &u);
            self.w2 = mul1_331(&b1.r, &cross3(&ax2, &u));
        } else {
            ok = false;
        }
        ok
    }

    /// Would setting these world axes leave the axes independent? Only
    /// meaningful with both bodies attached. ODE refuses (asserts) only when
    /// one axis projected on the other's normal plane is exactly the zero
    /// vector; axes parallel up to rounding are accepted and their reference
    /// vectors computed from the residue, as ODE does. A residue so small
    /// that normalising it overflows gives NaN vectors in ODE: refused too.
    pub fn axes_independent(&self, b: Bodies<'_>, a1: Option<[f64; 3]>, a2: Option<[f64; 3]>) -> bool {
        let mut t = self.clone();
        t.store_axes(b, a1, a2);
        t.make_refs(b) && [t.v1, t.v2, t.w1, t.w2].iter().flatten().all(|v| v.is_finite())
    }

    /// Would attaching to both bodies `b` leave the axes independent? The
    /// attachment re-expresses the current world axes in the new bodies'
    /// frames (see `set_relative_values`), which can make them exactly
    /// parallel; ODE asserts then.
    pub fn attach_keeps_axes_independent(&self, b: Bodies<'_>) -> bool {
        let a1 = self.axis1_world(b).filter(|a| axis_ok(*a));
        let a2 = self.axis2_world(b).filter(|a| axis_ok(*a));
        self.axes_independent(b, a1, a2)
    }

    fn store_axes(&mut self, b: Bodies<'_>, a1: Option<[f64; 3]>, a2: Option<[f64; 3]>) {
        if let Some(a) = a1 {
            if let Some((x, _)) = set_axes(b, a) {
                self.axis1 = x;
            }
        }
        if let Some(a) = a2 {
            if let Some((_, y)) = set_axes(b, a) {
                self.axis2 = y;
            }
        }
    }

    fn record_axis_angle(&mut self, b: Bodies<'_>) {
        if let Some((_, _, _, s, c)) = self.axis_info(b) {
            self.s0 = s;
            self.c0 = c;
        }
    }

    pub fn set_anchor(&mut self, b: Bodies<'_>, p: [f64; 3]) {
        if let Some((a1, a2)) = set_anchors(b, p) {
            self.anchor1 = a1;
            self.anchor2 = a2;
        }
        self.make_refs(b);
    }

    /// `dJointSetHinge2Axes` (both bodies attached, axes checked).
    pub fn set_axes(&mut self, b: Bodies<'_>, a1: Option<[f64; 3]>, a2: Option<[f64; 3]>) {
        self.store_axes(b, a1, a2);
        self.record_axis_angle(b);
        self.make_refs(b);
    }

    pub fn anchor(&self, head: &JointHead, b: Bodies<'_>) -> Option<[f64; 3]> {
        user_anchor(head, b, &self.anchor1, &self.anchor2)
    }

    pub fn anchor2(&self, head: &JointHead, b: Bodies<'_>) -> Option<[f64; 3]> {
        user_anchor2(head, b, &self.anchor1, &self.anchor2)
    }

    /// Angle about axis 1 (steering); also defined, from the stored
    /// vectors, for an unattached joint, as in ODE.
    pub fn angle1(&self, b: Bodies<'_>) -> f64 {
        let p = match b.b2 {
            Some(b1) => mul0_331(&b1.r, &self.axis2),
            None => self.axis2,
        };
        let q = match b.b1 {
            Some(b0) => mul1_331(&b0.r, &p),
            None => p,
        };
        -dot3(&self.v2, &q).atan2(dot3(&self.v1, &q))
    }

    /// Angle about axis 2 (wheel).
    pub fn angle2(&self, b: Bodies<'_>) -> f64 {
        let p = match b.b1 {
            Some(b0) => mul0_331(&b0.r, &self.axis1),
            None => self.axis1,
        };
        let q = match b.b2 {
            Some(b1) => mul1_331(&b1.r, &p),
            None => p,
        };
        -dot3(&self.w2, &q).atan2(dot3(&self.w1, &q))
    }

    pub fn angle1_rate(&self, b: Bodies<'_>) -> f64 {
        let Some(b0) = b.b1 else { return 0.0 };
        let axis = mul0_331(&b0.r, &self.axis1);
        let mut rate = dot3(&axis, &b0.avel);
        if let Some(b1) = b.b2 {
            rate -= dot3(&axis, &b1.avel);
        }
        rate
    }

    pub fn angle2_rate(&self, b: Bodies<'_>) -> f64 {
        let (Some(b0), Some(b1)) = (b.b1, b.b2) else { return 0.0 };
        let axis = mul0_331(&b1.r, &self.axis2);
        dot3(&axis, &b0.avel) - dot3(&axis, &b1.avel)
    }

    /// `dJointAddHinge2Torques` (both bodies needed).
    pub fn torque_push(&self, b: Bodies<'_>, t1: f64, t2: f64) -> BodyPush {
        let mut push = BodyPush::default();
        let (Some(a1), Some(a2)) = (self.axis1_world(b), self.axis2_world(b)) else { return push };
        let t = [a1[0] * t1 + a2[0] * t2, a1[1] * t1 + a2[1] * t2, a1[2] * t1 + a2[2] * t2];
        push.torque = [Some(t), Some([-t[0], -t[1], -t[2]])];
        push
    }

    /// `dJointSetHinge2Param`: group 2 is axis 2's limit/motor; in group 1
    /// the suspension parameters are the joint's own.
    pub fn set_param(&mut self, code: std::ffi::c_int, v: f64) {
        if code & 0xff00 == 0x100 {
            if let Some(p) = Param::from_code(code & 0xff) {
                self.limot2.set(p, v);
            }
        } else {
            match Param::from_code(code) {
                Some(Param::SuspensionErp) => self.susp_erp = v,
                Some(Param::SuspensionCfm) => self.susp_cfm = v,
                Some(p) => self.limot1.set(p, v),
                None => {}
            }
        }
    }

    pub fn param(&self, code: std::ffi::c_int) -> f64 {
        if code & 0xff00 == 0x100 {
            Param::from_code(code & 0xff).map_or(0.0, |p| self.limot2.get(p))
        } else {
            match Param::from_code(code) {
                Some(Param::SuspensionErp) => self.susp_erp,
                Some(Param::SuspensionCfm) => self.susp_cfm,
                Some(p) => self.limot1.get(p),
                None => 0.0,
            }
        }
    }
}

impl JointModel for Hinge2 {
    const TYPE: std::ffi::c_int = crate::abi::common::dJointType::dJointTypeHinge2 as std::ffi::c_int;

    fn info1(&mut self, _: &JointHead, b: Bodies<'_>) -> Info1 {
        self.limot1.limit = Limit::Free;
        let l = &self.limot1;
        if (l.lostop >= -PI || l.histop <= PI) && l.lostop <= l.histop {
            let a = self.angle1(b);
            self.limot1.test_limit(a);
        }
        // Axis 2 is never limited, only powered.
        self.limot2.limit = Limit::Free;
        let m = 4 + self.limot1.needs_row() as usize + self.limot2.needs_row() as usize;
        Info1 { m, nub: 4 }
    }

    fn info2(&mut self, _: &JointHead, b: Bodies<'_>, ctx: &RowCtx<'_>, rows: &mut [Row]) {
        self.push = Default::default();
        let Some((ax1, ax2, mut q, s, c)) = self.axis_info(b) else { return };
        normalize3(&mut q);
        set_ball2_rows(b, ctx.fps, ctx.erp, rows, &self.anchor1, &self.anchor2, &ax1, self.susp_erp);
        rows[0].cfm = self.susp_cfm;

        // The angle between the axes stays at its initial value θ0:
        // rhs ≈ erp·fps·sin(θ0 − θ).
        rows[3].j1a = q;
        rows[3].j2a = [-q[0], -q[1], -q[2]];
        let k = ctx.fps * ctx.erp;
        rows[3].c = k * (self.c0 * s - self.s0 * c);

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
        super::points_sane(&[&self.anchor1, &self.anchor2, &self.axis1, &self.axis2])
    }

    fn set_relative_values(&mut self, head: &JointHead, b: Bodies<'_>) {
        if let Some(p) = self.anchor(head, b) {
            if let Some((a1, a2)) = set_anchors(b, p) {
                self.anchor1 = a1;
                self.anchor2 = a2;
            }
        }
        let a1 = self.axis1_world(b).filter(|a| axis_ok(*a));
        let a2 = self.axis2_world(b).filter(|a| axis_ok(*a));
        self.store_axes(b, a1, a2);
        self.record_axis_angle(b);
        self.make_refs(b);
    }
}
