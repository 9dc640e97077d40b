//! The double hinge joint (`dJointCreateDHinge`): a double ball (row 0,
//! anchor distance) plus two rows keeping the hinge axes of the two bodies
//! parallel and one keeping both anchors in the same plane normal to the
//! axis. The axis and plane rows use the joint's ERP; their CFM is the
//! world's. In ODE the double hinge is a double ball, so the double ball
//! functions work on it too.
//!
//! Until its axis is set (ODE starts it at zero) the joint keeps only its
//! double-ball row: ODE builds the other three rows from the zero axis,
//! which turns the bodies NaN (Debian aborts on the normalisation).

use super::dball::DBall;
use super::{Bodies, Info1, JointHead, JointModel, Row, RowCtx};
use crate::dynamics::world::World;
use crate::math::vec::{cross3, dot3, plane_space, safe_normalize3};

#[derive(Clone, Debug, PartialEq)]
pub struct DHinge {
    pub ball: DBall,
    /// Axis in body 1's frame.
    pub axis1: [f64; 3],
    /// Axis in body 2's frame (world frame without body 2).
    pub axis2: [f64; 3],
}

impl DHinge {
    pub fn new(world: &World) -> DHinge {
        DHinge { ball: DBall::new(world), axis1: [0.0; 3], axis2: [0.0; 3] }
    }

    /// The axis in each body's frame (world for a missing body 2), before
    /// normalisation; `None` without body 1.
    fn body_axes(b: Bodies<'_>, v: [f64; 3]) -> Option<([f64; 3], [f64; 3])> {
        let a1 = b.b1?.vector_from_world(v);
        let a2 = match b.b2 {
            Some(b1) => b1.vector_from_world(v),
            None => v,
        };
        Some((a1, a2))
    }

    /// Can `dJointSetDHingeAxis` take `v`? ODE normalises the axis in each
    /// body's frame and asserts where that fails (see `hinge::axis_ok`).
    pub fn axis_acceptable(b: Bodies<'_>, v: [f64; 3]) -> bool {
        Self::body_axes(b, v).is_some_and(|(a1, a2)| super::hinge::axis_ok(a1) && super::hinge::axis_ok(a2))
    }

    /// `dJointSetDHingeAxis`: needs body 1 and an axis `axis_acceptable`
    /// accepts (checked by the caller).
    pub fn set_axis(&mut self, b: Bodies<'_>, v: [f64; 3]) {
        let Some((a1, a2)) = Self::body_axes(b, v) else { return };
        self.axis1 = a1;
        self.axis2 = a2;
        safe_normalize3(&mut self.axis1);
        safe_normalize3(&mut self.axis2);
    }

    /// The axis was never set (a set axis is normalised, never zero).
    fn axis_unset(&self) -> bool {
        self.axis1 == [0.0; 3] || self.axis2 == [0.0; 3]
    }

    /// `dJointGetDHingeAxis`; `None` without body.
    pub fn axis(&self, b: Bodies<'_>) -> Option<[f64; 3]> {
        Some(b.b1?.vector_to_world(self.axis1))
    }
}

impl JointModel for DHinge {
    const TYPE: std::ffi::c_int = crate::abi::common::dJointType::dJointTypeDHinge as std::ffi::c_int;

    fn info1(&mut self, _: &JointHead, _: Bodies<'_>) -> Info1 {
        if self.axis_unset() {
            Info1 { m: 1, nub: 1 }
        } else {
            Info1 { m: 4, nub: 4 }
        }
    }

    fn info2(&mut self, _: &JointHead, b: Bodies<'_>, ctx: &RowCtx<'_>, rows: &mut [Row]) {
        let Some((g1, g2)) = self.ball.fill_row(b, ctx.fps, &mut rows[0]) else { return };
        if self.axis_unset() {
            return;
        }
        let Some(b0) = b.b1 else { return };
        let ax1 = b0.vector_to_world(self.axis1);
        let (p, q) = plane_space(&ax1);
        rows[1].j1a = p;
        rows[2].j1a = q;
        if b.b2.is_some() {
            rows[1].j2a = [-p[0], -p[1], -p[2]];
            rows[2].j2a = [-q[0], -q[1], -q[2]];
        }
        let ax2 = match b.b2 {
            Some(b1) => b1.vector_to_world(self.axis2),
            None => self.axis2,
        };
        let u = cross3(&ax1, &ax2);
        let k = ctx.fps * self.ball.erp;
        rows[1].c = k * dot3(&u, &p);
        rows[2].c = k * dot3(&u, &q);

        // Row 3: no relative motion along the axis; with two bodies the
        // angular part is taken about their midpoint, symmetrically.
        rows[3].j1l = ax1;
        if let Some(b1) = b.b2 {
            let h: [f64; 3] = std::array::from_fn(|i| -0.5 * b0.pos[i] + 0.5 * b1.pos[i]);
            let t = cross3(&h, &ax1);
            rows[3].j1a = t;
            rows[3].j2l = [-ax1[0], -ax1[1], -ax1[2]];
            rows[3].j2a = t;
        }
        let d = [g1[0] - g2[0], g1[1] - g2[1], g1[2] - g2[2]];
        rows[3].c = -k * dot3(&ax1, &d);
    }

    fn max_rows(&self) -> usize {
        4
    }

    fn relative_values_sane(&self) -> bool {
        self.ball.relative_values_sane() && super::points_sane(&[&self.axis1, &self.axis2])
    }

    fn set_relative_values(&mut self, head: &JointHead, b: Bodies<'_>) {
        self.ball.set_relative_values(head, b);
    }
}
