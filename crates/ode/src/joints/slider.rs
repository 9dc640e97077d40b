//! The slider (prismatic) joint (`dJointCreateSlider`): three rows keeping
//! the orientations equal, two keeping body 1's centre on the line through
//! body 2's offset point along the axis, and an optional limit/motor row
//! along the axis. Position 0 is the configuration when the axis was set.

use super::fixed::{relative_rotation, set_orientation_rows};
use super::hinge::{get_axis1, set_axes};
use super::limit_motor::{BodyPush, Limit, LimitMotor};
use super::{flags, Bodies, Info1, JointHead, JointModel, Row, RowCtx};
use crate::dynamics::world::World;
use crate::math::mat3::{mul0_331, mul1_331};
use crate::math::vec::{cross3, dot3, plane_space};

#[derive(Clone, Debug, PartialEq)]
pub struct Slider {
    /// Axis in body 1's frame.
    pub axis1: [f64; 3],
    pub qrel: [f64; 4],
    /// Body 1's centre relative to body 2 in body 2's frame, or body 1's
    /// world position without body 2, when the axis was set.
    pub offset: [f64; 3],
    pub limot: LimitMotor,
    /// Motor force at a stop, recorded by `info2` (see `limit_motor`).
    pub push: BodyPush,
}

impl Slider {
    pub fn new(world: &World) -> Slider {
        Slider {
            axis1: [1.0, 0.0, 0.0],
            qrel: [0.0; 4],
            offset: [0.0; 3],
            limot: LimitMotor::new(world),
            push: BodyPush::default(),
        }
    }

    fn compute_offset(&mut self, b: Bodies<'_>) {
        match (b.b1, b.b2) {
            (Some(b0), Some(b1)) => {
                let c = [b0.pos[0] - b1.pos[0], b0.pos[1] - b1.pos[1], b0.pos[2] - b1.pos[2]];
                self.offset = mul1_331(&b1.r, &c);
            }
            (Some(b0), None) => self.offset = [b0.pos[0], b0.pos[1], b0.pos[2]],
            _ => {}
        }
    }

    fn reset_qrel(&mut self, b: Bodies<'_>) {
        if let Some(q) = relative_rotation(b) {
            self.qrel = q;
        }
    }

    /// `a` must pass `hinge::axis_ok` when the joint has a body.
    pub fn set_axis(&mut self, b: Bodies<'_>, a: [f64; 3]) {
        if let Some((a1, _)) = set_axes(b, a) {
            self.axis1 = a1;
        }
        self.compute_offset(b);
        self.reset_qrel(b);
    }

    /// `dJointSetSliderAxisDelta`: without body 2 the reference point is
    /// moved by `d`.
    pub fn set_axis_delta(&mut self, b: Bodies<'_>, a: [f64; 3], d: [f64; 3]) {
        if let Some((a1, _)) = set_axes(b, a) {
            self.axis1 = a1;
        }
        self.compute_offset(b);
        if b.b2.is_none() {
            for i in 0..3 {
                self.offset[i] += d[i];
            }
        }
        self.reset_qrel(b);
    }

    pub fn axis(&self, b: Bodies<'_>) -> Option<[f64; 3]> {
        get_axis1(b, &self.axis1)
    }

    /// Position along the axis; `None` without body (ODE would crash).
    pub fn position(&self, head: &JointHead, b: Bodies<'_>) -> Option<f64> {
        let b0 = b.b1?;
        let mut ax1 = mul0_331(&b0.r, &self.axis1);
        let q = match b.b2 {
            Some(b1) => {
                let q = mul0_331(&b1.r, &self.offset);
                [b0.pos[0] - q[0] - b1.pos[0], b0.pos[1] - q[1] - b1.pos[1], b0.pos[2] - q[2] - b1.pos[2]]
            }
            None => {
                if head.flags & flags::REVERSE != 0 {
                    ax1 = [-ax1[0], -ax1[1], -ax1[2]];
                }
                [b0.pos[0] - self.offset[0], b0.pos[1] - self.offset[1], b0.pos[2] - self.offset[2]]
            }
        };
        Some(dot3(&ax1, &q))
    }

    /// Rate of change of the position; `None` without body.
    pub fn position_rate(&self, head: &JointHead, b: Bodies<'_>) -> Option<f64> {
        let b0 = b.b1?;
        let ax1 = mul0_331(&b0.r, &self.axis1);
        Some(match b.b2 {
            Some(b1) => dot3(&ax1, &b0.lvel) - dot3(&ax1, &b1.lvel),
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

    /// `dJointAddSliderForce`: force along the axis on body 1, its opposite
    /// on body 2, applied halfway between the centres (no torque couple).
    pub fn force_push(&self, head: &JointHead, b: Bodies<'_>, force: f64) -> BodyPush {
        let force = if head.flags & flags::REVERSE != 0 { -force } else { force };
        let mut push = BodyPush::default();
        let Some(a) = self.axis(b) else { return push };
        let f = [a[0] * force, a[1] * force, a[2] * force];
        push.force[0] = Some(f);
        if let (Some(b0), Some(b1)) = (b.b1, b.b2) {
            push.force[1] = Some([-f[0], -f[1], -f[2]]);
            let c = [0.5 * (b1.pos[0] - b0.pos[0]), 0.5 * (b1.pos[1] - b0.pos[1]), 0.5 * (b1.pos[2] - b0.pos[2])];
            let ltd = cross3(&c, &f);
            push.torque = [Some(ltd), Some(ltd)];
        }
        push
    }
}

impl JointModel for Slider {
    const TYPE: std::ffi::c_int = crate::abi::common::dJointType::dJointTypeSlider as std::ffi::c_int;

    fn info1(&mut self, head: &JointHead, b: Bodies<'_>) -> Info1 {
        let mut m = if self.limot.fmax > 0.0 { 6 } else { 5 };
        self.limot.limit = Limit::Free;
        let l = &self.limot;
        if (l.lostop > f64::NEG_INFINITY || l.histop < f64::INFINITY) && l.lostop <= l.histop {
            if let Some(pos) = self.position(head, b) {
                if pos <= self.limot.lostop {
                    self.limot.limit = Limit::Low;
                    self.limot.limit_err = pos - self.limot.lostop;
                    m = 6;
                } else if pos >= self.limot.histop {
                    self.limot.limit = Limit::High;
                    self.limot.limit_err = pos - self.limot.histop;
                    m = 6;
                }
            }
        }
        Info1 { m, nub: 5 }
    }

    fn info2(&mut self, head: &JointHead, b: Bodies<'_>, ctx: &RowCtx<'_>, rows: &mut [Row]) {
        self.push = BodyPush::default();
        let Some(b0) = b.b1 else { return };
        set_orientation_rows(b, ctx.fps, ctx.erp, rows, &self.qrel);

        let mut ax1 = mul0_331(&b0.r, &self.axis1);
        let (p, q) = plane_space(&ax1);
        // Rows 3, 4: body 1's centre moves with body 2 across the axis; the
        // angular part uses the mean angular velocity (w1 = w2 is enforced).
        let mut c = [0.0; 3];
        if let Some(b1) = b.b2 {
            c = [b1.pos[0] - b0.pos[0], b1.pos[1] - b0.pos[1], b1.pos[2] - b0.pos[2]];
        }
        for (row, u) in rows[3..5].iter_mut().zip([p, q]) {
            row.j1l = u;
            if b.b2.is_some() {
                row.j2l = [-u[0], -u[1], -u[2]];
                let t = cross3(&c, &u);
                row.j1a = [t[0] * 0.5, t[1] * 0.5, t[2] * 0.5];
                row.j2a = row.j1a;
            }
        }
        let k = ctx.fps * ctx.erp;
        match b.b2 {
            Some(b1) => {
                let ofs = mul0_331(&b1.r, &self.offset);
                let c = [c[0] + ofs[0], c[1] + ofs[1], c[2] + ofs[2]];
                rows[3].c = k * dot3(&p, &c);
                rows[4].c = k * dot3(&q, &c);
            }
            None => {
                let ofs = [self.offset[0] - b0.pos[0], self.offset[1] - b0.pos[1], self.offset[2] - b0.pos[2]];
                rows[3].c = k * dot3(&p, &ofs);
                rows[4].c = k * dot3(&q, &ofs);
                if head.flags & flags::REVERSE != 0 {
                    ax1 = [-ax1[0], -ax1[1], -ax1[2]];
                }
            }
        }
        if let Some(row) = rows.get_mut(5) {
            self.push = self.limot.fill_row(b, ctx.fps, row, &ax1, false);
        }
    }

    fn max_rows(&self) -> usize {
        6
    }

    fn relative_values_sane(&self) -> bool {
        super::points_sane(&[&self.offset, &self.axis1])
    }

    fn set_relative_values(&mut self, _: &JointHead, b: Bodies<'_>) {
        self.compute_offset(b);
        self.reset_qrel(b);
    }
}
