//! The fixed joint (`dJointCreateFixed`, `dJointSetFixed`): six rows
//! keeping the bodies' relative position and orientation as they were when
//! `dJointSetFixed` was called. The position rows use the joint's ERP and
//! CFM, the orientation rows the world's (as in ODE 0.16).
//!
//! Also home of the orientation helpers shared with the slider (ODE's
//! `computeInitialRelativeRotation` and `setFixedOrientation`).

use super::ball::set_cross_rows;
use super::limit_motor::Param;
use super::{Bodies, Info1, JointHead, JointModel, Row, RowCtx};
use crate::dynamics::world::World;
use crate::math::mat3::{mul0_331, mul1_331};
use crate::math::rotation::{q_mult1, q_mult2, q_mult3};

/// Relative rotation body 1 → body 2, or world → body 1 without body 2;
/// `None` (value kept) when the joint has no body.
pub fn relative_rotation(b: Bodies<'_>) -> Option<[f64; 4]> {
    let b0 = b.b1?;
    Some(match b.b2 {
        Some(b1) => q_mult1(&b0.q, &b1.q),
        None => [b0.q[0], -b0.q[1], -b0.q[2], -b0.q[3]],
    })
}

/// ODE's `setFixedOrientation`: three rows making the angular velocities
/// equal, with a right-hand side turning the bodies back to `qrel`.
pub fn set_orientation_rows(b: Bodies<'_>, fps: f64, erp: f64, rows: &mut [Row], qrel: &[f64; 4]) {
    let Some(b0) = b.b1 else { return };
    let rows = &mut rows[..3];
    for (i, row) in rows.iter_mut().enumerate() {
        row.j1a[i] = 1.0;
        if b.b2.is_some() {
            row.j2a[i] = -1.0;
        }
    }
    let mut qerr = match b.b2 {
        Some(b1) => q_mult2(&q_mult1(&b0.q, &b1.q), qrel),
        None => q_mult3(&b0.q, qrel),
    };
    if qerr[0] < 0.0 {
        // The other representation of the same rotation has the small angle.
        qerr[1] = -qerr[1];
        qerr[2] = -qerr[2];
        qerr[3] = -qerr[3];
    }
    let e = mul0_331(&b0.r, &qerr[1..4]);
    let k2 = fps * erp * 2.0;
    for (row, ei) in rows.iter_mut().zip(e) {
        row.c = k2 * ei;
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Fixed {
    /// Body 1's centre relative to body 2 in body 1's frame, or body 1's
    /// world position without body 2.
    pub offset: [f64; 3],
    pub qrel: [f64; 4],
    pub erp: f64,
    pub cfm: f64,
}

impl Fixed {
    pub fn new(world: &World) -> Fixed {
        Fixed { offset: [0.0; 3], qrel: [0.0; 4], erp: world.erp, cfm: world.cfm }
    }

    /// `dJointSetFixed`: fixes the current relative pose.
    pub fn set_fixed(&mut self, b: Bodies<'_>) {
        if let Some(b0) = b.b1 {
            self.offset = match b.b2 {
                Some(b1) => {
                    let d = [b0.pos[0] - b1.pos[0], b0.pos[1] - b1.pos[1], b0.pos[2] - b1.pos[2]];
                    mul1_331(&b0.r, &d)
                }
                None => [b0.pos[0], b0.pos[1], b0.pos[2]],
            };
        }
        if let Some(q) = relative_rotation(b) {
            self.qrel = q;
        }
    }

    pub fn set_param(&mut self, p: Param, v: f64) {
        match p {
            Param::Cfm => self.cfm = v,
            Param::Erp => self.erp = v,
            _ => {}
        }
    }

    pub fn param(&self, p: Param) -> f64 {
        match p {
            Param::Cfm => self.cfm,
            Param::Erp => self.erp,
            _ => 0.0,
        }
    }
}

impl JointModel for Fixed {
    const TYPE: std::ffi::c_int = crate::abi::common::dJointType::dJointTypeFixed as std::ffi::c_int;

    fn info1(&mut self, _: &JointHead, _: Bodies<'_>) -> Info1 {
        Info1 { m: 6, nub: 6 }
    }

    fn info2(&mut self, _: &JointHead, b: Bodies<'_>, ctx: &RowCtx<'_>, rows: &mut [Row]) {
        let Some(b0) = b.b1 else { return };
        set_orientation_rows(b, ctx.fps, ctx.erp, &mut rows[3..6], &self.qrel);
        let rows = &mut rows[..3];
        for (i, row) in rows.iter_mut().enumerate() {
            row.j1l[i] = 1.0;
        }
        let k = ctx.fps * self.erp;
        let ofs = mul0_331(&b0.r, &self.offset);
        if b.b2.is_some() {
            set_cross_rows(rows, &ofs, false, false);
            for (i, row) in rows.iter_mut().enumerate() {
                row.j2l[i] = -1.0;
            }
        }
        for (j, row) in rows.iter_mut().enumerate() {
            row.c = match b.b2 {
                Some(b1) => k * (b1.pos[j] - b0.pos[j] + ofs[j]),
                None => k * (self.offset[j] - b0.pos[j]),
            };
            row.cfm = self.cfm;
        }
    }

    fn max_rows(&self) -> usize {
        6
    }
}
