//! The double hinge functions of objects.h. Anchors, distance and
//! parameters are the double ball's (shared with `objects_dball.rs`).
//! ODE asserts on setting or reading the axis of an unattached joint and
//! on a zero axis: reported and ignored here.

use super::objects_dball::{dball, get_anchor, get_param, set_anchor, set_param};
use super::objects_null::{create, joint, wrong_type};
use super::types::*;
use super::{call, write_reals, Cx};
use crate::joints::ball::bodies_of;
use crate::joints::dhinge::DHinge;
use crate::joints::{JointHead, JointKind};
use std::ffi::c_int;

fn dhinge<'a>(cx: &Cx, j: dJointID) -> Option<(&'a JointHead, &'a mut DHinge)> {
    let jt = joint(cx, j)?;
    match &mut jt.kind {
        JointKind::DHinge(h) => Some((&jt.head, h)),
        k => wrong_type(cx, k, "double hinge joint"),
    }
}

#[no_mangle]
pub unsafe extern "C" fn dJointCreateDHinge(w: dWorldID, g: dJointGroupID) -> dJointID {
    call("dJointCreateDHinge", std::ptr::null_mut(), |cx| create(cx, w, g, |w| JointKind::DHinge(DHinge::new(w))))
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetDHingeAxis(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetDHingeAxis", (), |cx| {
        let (head, h) = dhinge(cx, j)?;
        let v = cx.vec3(&["x", "y", "z"], x, y, z)?;
        cx.require(head.body[0].is_some(), format_args!("the joint is not attached to a body"))?;
        cx.require(
            DHinge::axis_acceptable(bodies_of(head), v),
            format_args!("axis ({x:?}, {y:?}, {z:?}) cannot be normalised"),
        )?;
        h.set_axis(bodies_of(head), v);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetDHingeAxis(j: dJointID, result: *mut dReal) {
    call("dJointGetDHingeAxis", (), |cx| {
        let (head, h) = dhinge(cx, j)?;
        let out = cx.ptr_mut("result", result)?;
        let Some(a) = h.axis(bodies_of(head)) else {
            return cx.fail(format_args!("the joint is not attached to a body"));
        };
        write_reals(out, &a);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetDHingeAnchor1(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetDHingeAnchor1", (), |cx| set_anchor(cx, j, 0, x, y, z))
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetDHingeAnchor2(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetDHingeAnchor2", (), |cx| set_anchor(cx, j, 1, x, y, z))
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetDHingeAnchor1(j: dJointID, result: *mut dReal) {
    call("dJointGetDHingeAnchor1", (), |cx| get_anchor(cx, j, 0, result))
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetDHingeAnchor2(j: dJointID, result: *mut dReal) {
    call("dJointGetDHingeAnchor2", (), |cx| get_anchor(cx, j, 1, result))
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetDHingeDistance(j: dJointID) -> dReal {
    call("dJointGetDHingeDistance", 0.0, |cx| Some(dball(cx, j)?.1.target))
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetDHingeParam(j: dJointID, parameter: c_int, value: dReal) {
    call("dJointSetDHingeParam", (), |cx| set_param(cx, j, parameter, value))
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetDHingeParam(j: dJointID, parameter: c_int) -> dReal {
    call("dJointGetDHingeParam", 0.0, |cx| get_param(cx, j, parameter))
}
