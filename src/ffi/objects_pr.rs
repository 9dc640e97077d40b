//! The prismatic-rotoide (PR) joint functions of objects.h.
//!
//! A zero axis is refused when the joint is attached (ODE aborts on it).
//! Position and its rate of an unattached joint are refused (ODE crashes).

use super::objects_joint::try_anchor_set;
use super::objects_null::{create, joint, known_param, wrong_type};
use super::objects_universal::{attached, axis, vec3, write_opt};
use super::types::*;
use super::{call, Cx};
use crate::joints::ball::bodies_of;
use crate::joints::pr::Pr;
use crate::joints::universal::two_axis_param;
use crate::joints::{JointHead, JointKind};
use std::ffi::c_int;

fn pr<'a>(cx: &Cx, j: dJointID) -> Option<(&'a JointHead, &'a mut Pr)> {
    let jt = joint(cx, j)?;
    match &mut jt.kind {
        JointKind::Pr(p) => Some((&jt.head, p)),
        k => wrong_type(cx, k, "PR joint"),
    }
}

#[no_mangle]
pub unsafe extern "C" fn dJointCreatePR(w: dWorldID, g: dJointGroupID) -> dJointID {
    call("dJointCreatePR", std::ptr::null_mut(), |cx| create(cx, w, g, |w| JointKind::Pr(Box::new(Pr::new(w)))))
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetPRAnchor(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetPRAnchor", (), |cx| {
        let (head, p) = pr(cx, j)?;
        let a = vec3(cx, &["x", "y", "z"], x, y, z)?;
        try_anchor_set(cx, p, |m| [m.offset, m.anchor2], |m| m.set_anchor(bodies_of(head), a))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetPRAxis1(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetPRAxis1", (), |cx| {
        let (head, p) = pr(cx, j)?;
        let a = axis(cx, head, x, y, z)?;
        p.set_axis1(bodies_of(head), a);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetPRAxis2(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetPRAxis2", (), |cx| {
        let (head, p) = pr(cx, j)?;
        let a = axis(cx, head, x, y, z)?;
        p.set_axis2(bodies_of(head), a);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetPRParam(j: dJointID, parameter: c_int, value: dReal) {
    call("dJointSetPRParam", (), |cx| {
        let (_, p) = pr(cx, j)?;
        cx.not_nan("value", value)?;
        known_param(cx, parameter, two_axis_param(parameter).1.is_some())?;
        p.set_param(parameter, value);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPRParam(j: dJointID, parameter: c_int) -> dReal {
    call("dJointGetPRParam", 0.0, |cx| {
        let (_, p) = pr(cx, j)?;
        known_param(cx, parameter, two_axis_param(parameter).1.is_some())?;
        Some(p.param(parameter))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPRAnchor(j: dJointID, result: *mut dReal) {
    call("dJointGetPRAnchor", (), |cx| {
        let (head, p) = pr(cx, j)?;
        write_opt(cx, result, Some(p.anchor(bodies_of(head))))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPRAxis1(j: dJointID, result: *mut dReal) {
    call("dJointGetPRAxis1", (), |cx| {
        let (head, p) = pr(cx, j)?;
        write_opt(cx, result, p.axis1(bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPRAxis2(j: dJointID, result: *mut dReal) {
    call("dJointGetPRAxis2", (), |cx| {
        let (head, p) = pr(cx, j)?;
        write_opt(cx, result, p.axis2(bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPRPosition(j: dJointID) -> dReal {
    call("dJointGetPRPosition", 0.0, |cx| {
        let (head, p) = pr(cx, j)?;
        attached(cx, head)?;
        p.position(head, bodies_of(head))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPRPositionRate(j: dJointID) -> dReal {
    call("dJointGetPRPositionRate", 0.0, |cx| {
        let (head, p) = pr(cx, j)?;
        attached(cx, head)?;
        p.position_rate(head, bodies_of(head))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPRAngle(j: dJointID) -> dReal {
    call("dJointGetPRAngle", 0.0, |cx| {
        let (head, p) = pr(cx, j)?;
        Some(p.angle(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPRAngleRate(j: dJointID) -> dReal {
    call("dJointGetPRAngleRate", 0.0, |cx| {
        let (head, p) = pr(cx, j)?;
        Some(p.angle_rate(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointAddPRTorque(j: dJointID, torque: dReal) {
    call("dJointAddPRTorque", (), |cx| {
        let (head, p) = pr(cx, j)?;
        cx.finite("torque", torque)?;
        super::objects_joint::push_bodies(cx, head, p.torque_push(head, bodies_of(head), torque))
    })
}
