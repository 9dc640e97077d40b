//! The ball-and-socket joint functions of objects.h.

use super::objects_joint::try_anchor_set;
use super::objects_null::{create, joint, known_param, wrong_type};
use super::types::*;
use super::{call, write_reals, Cx};
use crate::joints::ball::{bodies_of, Ball};
use crate::joints::limit_motor::Param;
use crate::joints::{JointHead, JointKind};
use std::ffi::c_int;

fn ball<'a>(cx: &Cx, j: dJointID) -> Option<(&'a JointHead, &'a mut Ball)> {
    let jt = joint(cx, j)?;
    match &mut jt.kind {
        JointKind::Ball(b) => Some((&jt.head, b)),
        k => wrong_type(cx, k, "ball joint"),
    }
}

#[no_mangle]
pub unsafe extern "C" fn dJointCreateBall(w: dWorldID, g: dJointGroupID) -> dJointID {
    call("dJointCreateBall", std::ptr::null_mut(), |cx| create(cx, w, g, |w| JointKind::Ball(Ball::new(w))))
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetBallAnchor(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetBallAnchor", (), |cx| {
        let (head, b) = ball(cx, j)?;
        let p = cx.vec3(&["x", "y", "z"], x, y, z)?;
        try_anchor_set(cx, b, |m| [m.anchor1, m.anchor2], |m| m.set_anchor(bodies_of(head), p))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetBallAnchor2(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetBallAnchor2", (), |cx| {
        let (_, b) = ball(cx, j)?;
        let p = cx.vec3(&["x", "y", "z"], x, y, z)?;
        b.set_anchor2_raw(p);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetBallAnchor(j: dJointID, result: *mut dReal) {
    call("dJointGetBallAnchor", (), |cx| {
        let (head, b) = ball(cx, j)?;
        let out = cx.ptr_mut("result", result)?;
        if let Some(p) = b.anchor(head, bodies_of(head)) {
            write_reals(out, &p);
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetBallAnchor2(j: dJointID, result: *mut dReal) {
    call("dJointGetBallAnchor2", (), |cx| {
        let (head, b) = ball(cx, j)?;
        let out = cx.ptr_mut("result", result)?;
        if let Some(p) = b.anchor2(head, bodies_of(head)) {
            write_reals(out, &p);
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetBallParam(j: dJointID, parameter: c_int, value: dReal) {
    call("dJointSetBallParam", (), |cx| {
        let (_, b) = ball(cx, j)?;
        cx.not_nan("value", value)?;
        known_param(cx, parameter, false)?;
        // Numbers that are not a ball parameter are ignored, as in ODE.
        if let Some(p) = Param::from_code(parameter) {
            b.set_param(p, value);
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetBallParam(j: dJointID, parameter: c_int) -> dReal {
    call("dJointGetBallParam", 0.0, |cx| {
        let (_, b) = ball(cx, j)?;
        known_param(cx, parameter, false)?;
        Some(Param::from_code(parameter).map_or(0.0, |p| b.param(p)))
    })
}
