//! The plane-2D joint functions of objects.h: creation and the parameters
//! of its three motors (x, y, angle). Numbers that are not a first-group
//! parameter are ignored, as in ODE.

use super::objects_null::{create, joint, known_param, wrong_type};
use super::types::*;
use super::{call, Cx};
use crate::joints::limit_motor::Param;
use crate::joints::plane2d::Plane2D;
use crate::joints::JointKind;
use std::ffi::c_int;

fn plane2d<'a>(cx: &Cx, j: dJointID) -> Option<&'a mut Plane2D> {
    let jt = joint(cx, j)?;
    match &mut jt.kind {
        JointKind::Plane2D(p) => Some(p),
        k => wrong_type(cx, k, "plane-2D joint"),
    }
}

fn set(cx: &Cx, j: dJointID, motor: usize, parameter: c_int, value: dReal) -> Option<()> {
    let p2 = plane2d(cx, j)?;
    cx.not_nan("value", value)?;
    known_param(cx, parameter, false)?;
    if let Some(p) = Param::from_code(parameter) {
        p2.motor[motor].set(p, value);
    }
    Some(())
}

#[no_mangle]
pub unsafe extern "C" fn dJointCreatePlane2D(w: dWorldID, g: dJointGroupID) -> dJointID {
    call("dJointCreatePlane2D", std::ptr::null_mut(), |cx| {
        create(cx, w, g, |w| JointKind::Plane2D(Box::new(Plane2D::new(w))))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetPlane2DXParam(j: dJointID, parameter: c_int, value: dReal) {
    call("dJointSetPlane2DXParam", (), |cx| set(cx, j, 0, parameter, value))
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetPlane2DYParam(j: dJointID, parameter: c_int, value: dReal) {
    call("dJointSetPlane2DYParam", (), |cx| set(cx, j, 1, parameter, value))
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetPlane2DAngleParam(j: dJointID, parameter: c_int, value: dReal) {
    call("dJointSetPlane2DAngleParam", (), |cx| set(cx, j, 2, parameter, value))
}
