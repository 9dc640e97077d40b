//! (to be written by the issue-5 joint work; placeholder type so the
//! joint enum compiles. Not reachable from the C API until implemented.)

use super::{Bodies, Info1, JointHead, JointModel, Row, RowCtx};

#[derive(Clone, Debug, Default)]
pub struct Pr;

impl JointModel for Pr {
    const TYPE: std::ffi::c_int = crate::ffi::decl::common::dJointType::dJointTypePR as std::ffi::c_int;
    fn info1(&mut self, _: &JointHead, _: Bodies<'_>) -> Info1 {
        unreachable!("joint type not implemented yet")
    }
    fn info2(&mut self, _: &JointHead, _: Bodies<'_>, _: &RowCtx<'_>, _: &mut [Row]) {
        unreachable!("joint type not implemented yet")
    }
    fn max_rows(&self) -> usize {
        0
    }
}
