//! The linear motor (`dJointCreateLMotor`): up to three linear motor rows
//! along axes fixed in the world or in either body. As in ODE, only the
//! motors act: the stops of its parameter groups are stored but never
//! tested. Axes are kept in the frame they were given in (and
//! `dJointGetLMotorAxis` returns them in that frame, as ODE does); there is
//! no REVERSE handling (relativity names the internal bodies).

use super::amotor::{REL_BODY1, REL_BODY2};
use super::limit_motor::{BodyPush, LimitMotor};
use super::{Bodies, Info1, JointHead, JointModel, Row, RowCtx};
use crate::dynamics::world::World;
use crate::math::mat3::{mul0_331, mul1_331};
use crate::math::vec::safe_normalize3;

#[derive(Clone, Debug, PartialEq)]
pub struct LMotor {
    pub num: usize,
    pub rel: [i32; 3],
    pub axis: [[f64; 3]; 3],
    pub limot: [LimitMotor; 3],
    pub pushes: [BodyPush; 3],
}

impl LMotor {
    pub fn new(world: &World) -> LMotor {
        LMotor {
            num: 0,
            rel: [0; 3],
            axis: [[0.0; 3]; 3],
            limot: [LimitMotor::new(world); 3],
            pushes: [BodyPush::default(); 3],
        }
    }

    /// The relativity actually stored: body 2 without a second body means
    /// body 1.
    pub fn effective_rel(head: &JointHead, rel: i32) -> i32 {
        if rel == REL_BODY2 && head.body[1].is_none() {
            REL_BODY1
        } else {
            rel
        }
    }

    /// Why `dJointSetLMotorAxis(anum, rel, v)` cannot be done, if so
    /// (`rel` in 0..=2).
    pub fn axis_problem(head: &JointHead, b: Bodies<'_>, rel: i32, v: [f64; 3]) -> Option<&'static str> {
        let rel = Self::effective_rel(head, rel);
        if rel == REL_BODY1 && head.body[0].is_none() {
            return Some("the axis is relative to a body the joint is not attached to");
        }
        // ODE normalises the axis after taking it into the body's frame.
        if !super::hinge::axis_ok(Self::body_axis(rel, b, v)) {
            return Some("the axis cannot be normalised");
        }
        None
    }

    /// World direction `v` in the frame relativity `rel` names, before
    /// normalisation.
    fn body_axis(rel: i32, b: Bodies<'_>, v: [f64; 3]) -> [f64; 3] {
        match (rel, b.b1, b.b2) {
            (REL_BODY1, Some(b0), _) => mul1_331(&b0.r, &v),
            (REL_BODY2, _, Some(b1)) => mul1_331(&b1.r, &v),
            _ => v,
        }
    }

    pub fn set_axis(&mut self, head: &JointHead, b: Bodies<'_>, anum: usize, rel: i32, v: [f64; 3]) {
        let rel = Self::effective_rel(head, rel);
        self.rel[anum] = rel;
        let mut a = Self::body_axis(rel, b, v);
        safe_normalize3(&mut a);
        self.axis[anum] = a;
    }

    /// World axis `i`. A body-2 axis on a joint that lost its second body
    /// is used as stored (ODE leaves it undefined).
    fn global_axis(&self, b: Bodies<'_>, i: usize) -> [f64; 3] {
        match (self.rel[i], b.b1, b.b2) {
            (REL_BODY1, Some(b0), _) => mul0_331(&b0.r, &self.axis[i]),
            (REL_BODY2, _, Some(b1)) => mul0_331(&b1.r, &self.axis[i]),
            _ => self.axis[i],
        }
    }

    pub fn apply_pushes(&mut self, head: &JointHead) {
        for p in std::mem::take(&mut self.pushes) {
            if !p.is_empty() {
                p.apply(head);
            }
        }
    }
}

impl JointModel for LMotor {
    const TYPE: std::ffi::c_int = crate::abi::common::dJointType::dJointTypeLMotor as std::ffi::c_int;

    fn info1(&mut self, _: &JointHead, _: Bodies<'_>) -> Info1 {
        let m = self.limot[..self.num].iter().filter(|l| l.fmax > 0.0).count();
        Info1 { m, nub: 0 }
    }

    fn info2(&mut self, _: &JointHead, b: Bodies<'_>, ctx: &RowCtx<'_>, rows: &mut [Row]) {
        self.pushes = Default::default();
        let mut k = 0;
        for i in 0..self.num {
            if self.limot[i].needs_row() {
                let Some(row) = rows.get_mut(k) else { return };
                let ax = self.global_axis(b, i);
                self.pushes[i] = self.limot[i].fill_row(b, ctx.fps, row, &ax, false);
                k += 1;
            }
        }
    }

    fn max_rows(&self) -> usize {
        self.num
    }
}
