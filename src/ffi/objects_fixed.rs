//! The fixed joint functions of objects.h.

use super::objects_null::{create, joint, wrong_type};
use super::types::*;
use super::{call, Cx};
use crate::joints::ball::bodies_of;
use crate::joints::fixed::Fixed;
use crate::joints::limit_motor::Param;
use crate::joints::{JointHead, JointKind};
use std::ffi::c_int;

fn fixed<'a>(cx: &Cx, j: dJointID) -> Option<(&'a JointHead, &'a mut Fixed)> {
    let jt = joint(cx, j)?;
    match &mut jt.kind {
        JointKind::Fixed(f) => Some((&jt.head, f)),
        k => wrong_type(cx, k, "fixed joint"),
    }
}

#[no_mangle]
pub unsafe extern "C" fn dJointCreateFixed(w: dWorldID, g: dJointGroupID) -> dJointID {
    call("dJointCreateFixed", std::ptr::null_mut(), |cx| create(cx, w, g, |w| JointKind::Fixed(Fixed::new(w))))
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetFixed(j: dJointID) {
    call("dJointSetFixed", (), |cx| {
        let (head, f) = fixed(cx, j)?;
        f.set_fixed(bodies_of(head));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetFixedParam(j: dJointID, parameter: c_int, value: dReal) {
    call("dJointSetFixedParam", (), |cx| {
        let (_, f) = fixed(cx, j)?;
        cx.not_nan("value", value)?;
        if let Some(p) = Param::from_code(parameter) {
            f.set_param(p, value);
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetFixedParam(j: dJointID, parameter: c_int) -> dReal {
    call("dJointGetFixedParam", 0.0, |cx| {
        let (_, f) = fixed(cx, j)?;
        Some(Param::from_code(parameter).map_or(0.0, |p| f.param(p)))
    })
}
