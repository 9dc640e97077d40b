//! The null joint (`dJointCreateNull`): connects bodies for island
//! purposes only and contributes no rows.

use super::{Bodies, Info1, JointHead, JointModel, Row, RowCtx};

#[derive(Clone, Debug, Default)]
pub struct Null;

impl JointModel for Null {
    const TYPE: std::ffi::c_int = crate::abi::common::dJointType::dJointTypeNull as std::ffi::c_int;
    fn info1(&mut self, _: &JointHead, _: Bodies<'_>) -> Info1 {
        Info1::default()
    }
    fn info2(&mut self, _: &JointHead, _: Bodies<'_>, _: &RowCtx<'_>, _: &mut [Row]) {}
    fn max_rows(&self) -> usize {
        0
    }
}
