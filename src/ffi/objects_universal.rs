//! The universal joint functions of objects.h, and the argument helpers
//! the other two-axis joint files (`objects_hinge2.rs`, `objects_pr.rs`,
//! `objects_pu.rs`, `objects_piston.rs`) share.
//!
//! A zero axis is refused when the joint is attached (ODE aborts on it).
//! The axis-offset setters need an attached joint (ODE crashes otherwise).

use super::objects_joint::try_anchor_set;
use super::objects_null::{create, joint, known_param, wrong_type};
use super::types::*;
use super::{call, write_reals, Cx};
use crate::joints::ball::bodies_of;
use crate::joints::hinge::axis_ok;
use crate::joints::universal::{two_axis_param, Universal};
use crate::joints::{JointHead, JointKind};
use std::ffi::c_int;

fn universal<'a>(cx: &Cx, j: dJointID) -> Option<(&'a JointHead, &'a mut Universal)> {
    let jt = joint(cx, j)?;
    match &mut jt.kind {
        JointKind::Universal(u) => Some((&jt.head, u)),
        k => wrong_type(cx, k, "universal joint"),
    }
}

/// Three finite reals.
pub(crate) fn vec3(cx: &Cx, names: &'static [&'static str; 3], x: dReal, y: dReal, z: dReal) -> Option<[dReal; 3]> {
    cx.vec3(names, x, y, z)
}

/// A finite axis, non-zero if the joint has a body.
pub(crate) fn axis(cx: &Cx, head: &JointHead, x: dReal, y: dReal, z: dReal) -> Option<[dReal; 3]> {
    let a = cx.vec3(&["x", "y", "z"], x, y, z)?;
    cx.require(head.body[0].is_none() || axis_ok(a), format_args!("axis ({x:?}, {y:?}, {z:?}) cannot be normalised"))?;
    Some(a)
}

/// Refuses a joint attached to no body (for calls ODE crashes on then).
pub(crate) fn attached(cx: &Cx, head: &JointHead) -> Option<()> {
    cx.require(head.body[0].is_some(), format_args!("argument 'j' is not attached to any body"))
}

/// Writes a vector if there is one (ODE leaves the result untouched
/// otherwise).
pub(crate) unsafe fn write_opt(cx: &Cx, result: *mut dReal, v: Option<[dReal; 3]>) -> Option<()> {
    let out = cx.ptr_mut("result", result)?;
    if let Some(v) = v {
        write_reals(out, &v);
    }
    Some(())
}

#[no_mangle]
pub unsafe extern "C" fn dJointCreateUniversal(w: dWorldID, g: dJointGroupID) -> dJointID {
    call("dJointCreateUniversal", std::ptr::null_mut(), |cx| {
        create(cx, w, g, |w| JointKind::Universal(Box::new(Universal::new(w))))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetUniversalAnchor(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetUniversalAnchor", (), |cx| {
        let (head, u) = universal(cx, j)?;
        let p = vec3(cx, &["x", "y", "z"], x, y, z)?;
        try_anchor_set(cx, u, |m| [m.anchor1, m.anchor2], |m| m.set_anchor(bodies_of(head), p))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetUniversalAxis1(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetUniversalAxis1", (), |cx| {
        let (head, u) = universal(cx, j)?;
        let a = axis(cx, head, x, y, z)?;
        u.set_axis(head, bodies_of(head), true, a);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetUniversalAxis2(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetUniversalAxis2", (), |cx| {
        let (head, u) = universal(cx, j)?;
        let a = axis(cx, head, x, y, z)?;
        u.set_axis(head, bodies_of(head), false, a);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetUniversalAxis1Offset(
    j: dJointID,
    x: dReal,
    y: dReal,
    z: dReal,
    offset1: dReal,
    offset2: dReal,
) {
    call("dJointSetUniversalAxis1Offset", (), |cx| {
        let (head, u) = universal(cx, j)?;
        attached(cx, head)?;
        let a = axis(cx, head, x, y, z)?;
        cx.finite("offset1", offset1)?;
        cx.finite("offset2", offset2)?;
        u.set_axis1_offset(head, bodies_of(head), a, offset1, offset2);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetUniversalAxis2Offset(
    j: dJointID,
    x: dReal,
    y: dReal,
    z: dReal,
    offset1: dReal,
    offset2: dReal,
) {
    call("dJointSetUniversalAxis2Offset", (), |cx| {
        let (head, u) = universal(cx, j)?;
        attached(cx, head)?;
        let a = axis(cx, head, x, y, z)?;
        cx.finite("offset1", offset1)?;
        cx.finite("offset2", offset2)?;
        u.set_axis2_offset(head, bodies_of(head), a, offset1, offset2);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetUniversalAnchor(j: dJointID, result: *mut dReal) {
    call("dJointGetUniversalAnchor", (), |cx| {
        let (head, u) = universal(cx, j)?;
        write_opt(cx, result, u.anchor(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetUniversalAnchor2(j: dJointID, result: *mut dReal) {
    call("dJointGetUniversalAnchor2", (), |cx| {
        let (head, u) = universal(cx, j)?;
        write_opt(cx, result, u.anchor2(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetUniversalAxis1(j: dJointID, result: *mut dReal) {
    call("dJointGetUniversalAxis1", (), |cx| {
        let (head, u) = universal(cx, j)?;
        write_opt(cx, result, u.ax.user_axis1(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetUniversalAxis2(j: dJointID, result: *mut dReal) {
    call("dJointGetUniversalAxis2", (), |cx| {
        let (head, u) = universal(cx, j)?;
        write_opt(cx, result, u.ax.user_axis2(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetUniversalParam(j: dJointID, parameter: c_int, value: dReal) {
    call("dJointSetUniversalParam", (), |cx| {
        let (_, u) = universal(cx, j)?;
        cx.not_nan("value", value)?;
        known_param(cx, parameter, two_axis_param(parameter).1.is_some())?;
        if let (axis, Some(p)) = two_axis_param(parameter) {
            u.limot(axis).set(p, value);
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetUniversalParam(j: dJointID, parameter: c_int) -> dReal {
    call("dJointGetUniversalParam", 0.0, |cx| {
        let (_, u) = universal(cx, j)?;
        known_param(cx, parameter, two_axis_param(parameter).1.is_some())?;
        Some(match two_axis_param(parameter) {
            (axis, Some(p)) => u.limot(axis).get(p),
            _ => 0.0,
        })
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetUniversalAngles(j: dJointID, angle1: *mut dReal, angle2: *mut dReal) {
    call("dJointGetUniversalAngles", (), |cx| {
        let (head, u) = universal(cx, j)?;
        let o1 = cx.ptr_mut("angle1", angle1)?;
        let o2 = cx.ptr_mut("angle2", angle2)?;
        let (a1, a2) = u.user_angles(head, bodies_of(head));
        *o1 = a1;
        *o2 = a2;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetUniversalAngle1(j: dJointID) -> dReal {
    call("dJointGetUniversalAngle1", 0.0, |cx| {
        let (head, u) = universal(cx, j)?;
        Some(u.user_angle1(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetUniversalAngle2(j: dJointID) -> dReal {
    call("dJointGetUniversalAngle2", 0.0, |cx| {
        let (head, u) = universal(cx, j)?;
        Some(u.user_angle2(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetUniversalAngle1Rate(j: dJointID) -> dReal {
    call("dJointGetUniversalAngle1Rate", 0.0, |cx| {
        let (head, u) = universal(cx, j)?;
        Some(u.angle_rate(head, bodies_of(head), true))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetUniversalAngle2Rate(j: dJointID) -> dReal {
    call("dJointGetUniversalAngle2Rate", 0.0, |cx| {
        let (head, u) = universal(cx, j)?;
        Some(u.angle_rate(head, bodies_of(head), false))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointAddUniversalTorques(j: dJointID, torque1: dReal, torque2: dReal) {
    call("dJointAddUniversalTorques", (), |cx| {
        let (head, u) = universal(cx, j)?;
        cx.finite("torque1", torque1)?;
        cx.finite("torque2", torque2)?;
        super::objects_joint::push_bodies(cx, head, u.torque_push(head, bodies_of(head), torque1, torque2))
    })
}
