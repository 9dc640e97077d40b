//! The hinge joint functions of objects.h.
//!
//! A zero axis is refused when the joint is attached (ODE aborts on it;
//! unattached, ODE ignores the axis and so do we).

use super::objects_joint::try_anchor_set;
use super::objects_null::{create, joint, known_param, wrong_type};
use super::types::*;
use super::{call, write_reals, Cx};
use crate::joints::ball::bodies_of;
use crate::joints::hinge::{axis_ok, Hinge};
use crate::joints::limit_motor::Param;
use crate::joints::{JointHead, JointKind};
use std::ffi::c_int;

fn hinge<'a>(cx: &Cx, j: dJointID) -> Option<(&'a JointHead, &'a mut Hinge)> {
    let jt = joint(cx, j)?;
    match &mut jt.kind {
        JointKind::Hinge(h) => Some((&jt.head, h)),
        k => wrong_type(cx, k, "hinge joint"),
    }
}

fn vec3(cx: &Cx, names: &'static [&'static str; 3], x: dReal, y: dReal, z: dReal) -> Option<[dReal; 3]> {
    cx.vec3(names, x, y, z)
}

/// A finite axis, non-zero if the joint has a body.
fn axis(cx: &Cx, head: &JointHead, x: dReal, y: dReal, z: dReal) -> Option<[dReal; 3]> {
    let a = cx.vec3(&["x", "y", "z"], x, y, z)?;
    cx.require(head.body[0].is_none() || axis_ok(a), format_args!("axis ({x:?}, {y:?}, {z:?}) cannot be normalised"))?;
    Some(a)
}

#[no_mangle]
pub unsafe extern "C" fn dJointCreateHinge(w: dWorldID, g: dJointGroupID) -> dJointID {
    call("dJointCreateHinge", std::ptr::null_mut(), |cx| {
        create(cx, w, g, |w| JointKind::Hinge(Box::new(Hinge::new(w))))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetHingeAnchor(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetHingeAnchor", (), |cx| {
        let (head, h) = hinge(cx, j)?;
        let p = vec3(cx, &["x", "y", "z"], x, y, z)?;
        try_anchor_set(cx, h, |m| [m.anchor1, m.anchor2], |m| m.set_anchor(bodies_of(head), p))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetHingeAnchorDelta(
    j: dJointID,
    x: dReal,
    y: dReal,
    z: dReal,
    ax: dReal,
    ay: dReal,
    az: dReal,
) {
    call("dJointSetHingeAnchorDelta", (), |cx| {
        let (head, h) = hinge(cx, j)?;
        let p = vec3(cx, &["x", "y", "z"], x, y, z)?;
        let d = vec3(cx, &["ax", "ay", "az"], ax, ay, az)?;
        try_anchor_set(cx, h, |m| [m.anchor1, m.anchor2], |m| m.set_anchor_delta(bodies_of(head), p, d))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetHingeAxis(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetHingeAxis", (), |cx| {
        let (head, h) = hinge(cx, j)?;
        let a = axis(cx, head, x, y, z)?;
        h.set_axis(bodies_of(head), a);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetHingeAxisOffset(j: dJointID, x: dReal, y: dReal, z: dReal, angle: dReal) {
    call("dJointSetHingeAxisOffset", (), |cx| {
        let (head, h) = hinge(cx, j)?;
        let a = axis(cx, head, x, y, z)?;
        cx.finite("angle", angle)?;
        h.set_axis_offset(head, bodies_of(head), a, angle);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetHingeAnchor(j: dJointID, result: *mut dReal) {
    call("dJointGetHingeAnchor", (), |cx| {
        let (head, h) = hinge(cx, j)?;
        let out = cx.ptr_mut("result", result)?;
        if let Some(p) = h.anchor(head, bodies_of(head)) {
            write_reals(out, &p);
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetHingeAnchor2(j: dJointID, result: *mut dReal) {
    call("dJointGetHingeAnchor2", (), |cx| {
        let (head, h) = hinge(cx, j)?;
        let out = cx.ptr_mut("result", result)?;
        if let Some(p) = h.anchor2(head, bodies_of(head)) {
            write_reals(out, &p);
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetHingeAxis(j: dJointID, result: *mut dReal) {
    call("dJointGetHingeAxis", (), |cx| {
        let (head, h) = hinge(cx, j)?;
        let out = cx.ptr_mut("result", result)?;
        if let Some(a) = h.axis(bodies_of(head)) {
            write_reals(out, &a);
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetHingeParam(j: dJointID, parameter: c_int, value: dReal) {
    call("dJointSetHingeParam", (), |cx| {
        let (_, h) = hinge(cx, j)?;
        cx.not_nan("value", value)?;
        known_param(cx, parameter, false)?;
        // Numbers outside the first group are ignored, as in ODE.
        if let Some(p) = Param::from_code(parameter) {
            h.limot.set(p, value);
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetHingeParam(j: dJointID, parameter: c_int) -> dReal {
    call("dJointGetHingeParam", 0.0, |cx| {
        let (_, h) = hinge(cx, j)?;
        known_param(cx, parameter, false)?;
        Some(Param::from_code(parameter).map_or(0.0, |p| h.limot.get(p)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetHingeAngle(j: dJointID) -> dReal {
    call("dJointGetHingeAngle", 0.0, |cx| {
        let (head, h) = hinge(cx, j)?;
        Some(h.angle(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetHingeAngleRate(j: dJointID) -> dReal {
    call("dJointGetHingeAngleRate", 0.0, |cx| {
        let (head, h) = hinge(cx, j)?;
        Some(h.angle_rate(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointAddHingeTorque(j: dJointID, torque: dReal) {
    call("dJointAddHingeTorque", (), |cx| {
        let (head, h) = hinge(cx, j)?;
        cx.finite("torque", torque)?;
        let push = h.torque_push(head, bodies_of(head), torque);
        super::objects_joint::push_bodies(cx, head, push)
    })
}
