//! The plane-2D joint (`dJointCreatePlane2D`): keeps body 1 in the world's
//! z = 0 plane and stops it rotating about the x and y axes (three rows on
//! body 1 only; only the z drift is corrected), plus optional motors along
//! world x, world y and about world z (`dJointSetPlane2D{X,Y,Angle}Param`).
//! As in ODE, only the motors act: stops are stored but never tested.

use super::limit_motor::{BodyPush, LimitMotor};
use super::{Bodies, Info1, JointHead, JointModel, Row, RowCtx};
use crate::dynamics::world::World;

const UNIT: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

#[derive(Clone, Debug, PartialEq)]
pub struct Plane2D {
    /// Motors along x, along y and about z.
    pub motor: [LimitMotor; 3],
    pub pushes: [BodyPush; 3],
}

impl Plane2D {
    pub fn new(world: &World) -> Plane2D {
        Plane2D { motor: [LimitMotor::new(world); 3], pushes: [BodyPush::default(); 3] }
    }

    pub fn apply_pushes(&mut self, head: &JointHead) {
        for p in std::mem::take(&mut self.pushes) {
            if !p.is_empty() {
                p.apply(head);
            }
        }
    }
}

impl JointModel for Plane2D {
    const TYPE: std::ffi::c_int = crate::abi::common::dJointType::dJointTypePlane2D as std::ffi::c_int;

    fn info1(&mut self, _: &JointHead, _: Bodies<'_>) -> Info1 {
        let m = 3 + self.motor.iter().filter(|l| l.fmax > 0.0).count();
        Info1 { m, nub: 3 }
    }

    fn info2(&mut self, _: &JointHead, b: Bodies<'_>, ctx: &RowCtx<'_>, rows: &mut [Row]) {
        self.pushes = Default::default();
        let Some(b0) = b.b1 else { return };
        rows[0].j1l[2] = 1.0;
        rows[1].j1a[0] = 1.0;
        rows[2].j1a[1] = 1.0;
        rows[0].c = ctx.fps * ctx.erp * -b0.pos[2];
        let mut k = 3;
        for i in 0..3 {
            if self.motor[i].fmax > 0.0 {
                let Some(row) = rows.get_mut(k) else { return };
                self.pushes[i] = self.motor[i].fill_row(b, ctx.fps, row, &UNIT[i], i == 2);
                k += 1;
            }
        }
    }

    fn max_rows(&self) -> usize {
        6
    }
}
