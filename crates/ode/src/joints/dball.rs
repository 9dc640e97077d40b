//! The double ball joint (`dJointCreateDBall`): one row keeping the
//! distance between two anchor points (one per body, or a world point
//! without body 2) at a target, with the joint's own ERP and CFM. Setting
//! an anchor or attaching re-measures the target distance.
//!
//! As in ODE, attaching does not re-express the anchors: they keep their
//! values in whatever frame they were set (a point set before attaching
//! is then read in the body's frame). `dJointSetDBallDistance` overrides
//! the target.

use super::limit_motor::Param;
use super::{flags, Bodies, Info1, JointHead, JointModel, Row, RowCtx};
use crate::dynamics::world::World;
use crate::math::mat3::{cross_matrix, mul1_331};
use crate::math::vec::safe_normalize3;

fn dist(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    let d = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}

fn len(v: &[f64; 3]) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

#[derive(Clone, Debug, PartialEq)]
pub struct DBall {
    /// Body 1's anchor in its frame (a world point without body).
    pub anchor1: [f64; 3],
    /// Body 2's anchor in its frame (a world point without body 2).
    pub anchor2: [f64; 3],
    pub target: f64,
    pub erp: f64,
    pub cfm: f64,
}

impl DBall {
    pub fn new(world: &World) -> DBall {
        DBall { anchor1: [0.0; 3], anchor2: [0.0; 3], target: 0.0, erp: world.erp, cfm: world.cfm }
    }

    /// World positions of the two anchors.
    pub fn world_anchors(&self, b: Bodies<'_>) -> ([f64; 3], [f64; 3]) {
        let p1 = match b.b1 {
            Some(b0) => b0.rel_point_pos(self.anchor1),
            None => self.anchor1,
        };
        let p2 = match b.b2 {
            Some(b1) => b1.rel_point_pos(self.anchor2),
            None => self.anchor2,
        };
        (p1, p2)
    }

    /// The distance between the anchors once attached to bodies `b` (what
    /// attaching would store as the target).
    pub fn target_for(&self, b: Bodies<'_>) -> f64 {
        let (p1, p2) = self.world_anchors(b);
        dist(&p1, &p2)
    }

    fn update_target(&mut self, b: Bodies<'_>) {
        let (p1, p2) = self.world_anchors(b);
        self.target = dist(&p1, &p2);
    }

    /// Sets the internal anchor `i` (0 or 1) from a world point.
    fn set_internal(&mut self, b: Bodies<'_>, i: usize, p: [f64; 3]) {
        let body = if i == 0 { b.b1 } else { b.b2 };
        let a = match body {
            Some(bd) => bd.pos_rel_point(p),
            None => p,
        };
        if i == 0 {
            self.anchor1 = a;
        } else {
            self.anchor2 = a;
        }
        self.update_target(b);
    }

    /// `dJointSetDBallAnchor1` (`which` = 0) or `…Anchor2` (1), in the
    /// caller's body order.
    pub fn set_anchor(&mut self, head: &JointHead, b: Bodies<'_>, which: usize, p: [f64; 3]) {
        let i = if head.flags & flags::REVERSE != 0 { 1 - which } else { which };
        self.set_internal(b, i, p);
    }

    /// `dJointGetDBallAnchor1`/`2` in world coordinates.
    pub fn anchor(&self, head: &JointHead, b: Bodies<'_>, which: usize) -> [f64; 3] {
        let i = if head.flags & flags::REVERSE != 0 { 1 - which } else { which };
        let (p1, p2) = self.world_anchors(b);
        if i == 0 {
            p1
        } else {
            p2
        }
    }

    pub fn set_param(&mut self, p: Option<Param>, v: f64) {
        match p {
            Some(Param::Cfm) => self.cfm = v,
            Some(Param::Erp) => self.erp = v,
            _ => {}
        }
    }

    pub fn param(&self, p: Option<Param>) -> f64 {
        match p {
            Some(Param::Cfm) => self.cfm,
            Some(Param::Erp) => self.erp,
            _ => 0.0,
        }
    }

    /// Fills the distance row (row 0) and returns the world anchors.
    pub fn fill_row(&self, b: Bodies<'_>, fps: f64, row: &mut Row) -> Option<([f64; 3], [f64; 3])> {
        let b0 = b.b1?;
        let (g1, g2) = self.world_anchors(b);
        let mut q = [g1[0] - g2[0], g1[1] - g2[1], g1[2] - g2[2]];
        const MIN_LENGTH: f64 = 1e-12;
        if len(&q) < MIN_LENGTH {
            // Anchors coincide: push along their relative velocity, or x.
            let v1 = b0.point_vel(g1);
            let v2 = match b.b2 {
                Some(b1) => b1.point_vel(g2),
                None => [0.0; 3],
            };
            q = [v1[0] - v2[0], v1[1] - v2[1], v1[2] - v2[2]];
            if len(&q) < MIN_LENGTH {
                q = [1.0, 0.0, 0.0];
            }
        }
        safe_normalize3(&mut q);
        row.j1l = q;
        // (r × q) through the transposed cross matrix, as ODE evaluates it.
        let r1 = b0.vector_to_world(self.anchor1);
        let m1 = cross_matrix(&[-r1[0], -r1[1], -r1[2]]);
        row.j1a = mul1_331(&m1, &q);
        if let Some(b1) = b.b2 {
            row.j2l = [-q[0], -q[1], -q[2]];
            let r2 = b1.vector_to_world(self.anchor2);
            row.j2a = mul1_331(&cross_matrix(&r2), &q);
        }
        let k = fps * self.erp;
        row.c = k * (self.target - dist(&g1, &g2));
        row.cfm = self.cfm;
        Some((g1, g2))
    }
}

impl JointModel for DBall {
    const TYPE: std::ffi::c_int = crate::abi::common::dJointType::dJointTypeDBall as std::ffi::c_int;

    fn info1(&mut self, _: &JointHead, _: Bodies<'_>) -> Info1 {
        Info1 { m: 1, nub: 1 }
    }

    fn info2(&mut self, _: &JointHead, b: Bodies<'_>, ctx: &RowCtx<'_>, rows: &mut [Row]) {
        self.fill_row(b, ctx.fps, &mut rows[0]);
    }

    fn max_rows(&self) -> usize {
        1
    }

    fn relative_values_sane(&self) -> bool {
        super::points_sane(&[&self.anchor1, &self.anchor2]) && self.target.abs() <= crate::error::HUGE_INPUT
    }

    fn set_relative_values(&mut self, _: &JointHead, b: Bodies<'_>) {
        self.update_target(b);
    }
}
