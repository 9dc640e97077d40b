//! The hinge-2 joint functions of objects.h.
//!
//! The joint needs two bodies (attaching one is refused by dJointAttach).
//! Setting axes needs the joint attached (ODE asserts or crashes) and axes
//! that are not exactly parallel: ODE asserts only when an axis projected
//! on the other's normal plane is the zero vector, so axes parallel up to
//! rounding are accepted as in ODE. Reading an axis needs its body.

use super::objects_joint::try_anchor_set;
use super::objects_null::{create, joint, known_param, wrong_type};
use super::objects_universal::{vec3, write_opt};
use super::types::*;
use super::{call, Cx};
use crate::joints::ball::bodies_of;
use crate::joints::hinge::axis_ok;
use crate::joints::hinge2::Hinge2;
use crate::joints::universal::two_axis_param;
use crate::joints::{flags, JointHead, JointKind, JOINTS};
use std::ffi::c_int;

fn hinge2<'a>(cx: &Cx, j: dJointID) -> Option<(&'a JointHead, &'a mut Hinge2)> {
    let jt = joint(cx, j)?;
    match &mut jt.kind {
        JointKind::Hinge2(h) => Some((&jt.head, h)),
        k => wrong_type(cx, k, "hinge2 joint"),
    }
}

/// Validates and sets axes given in world coordinates (either may be
/// absent, not both).
fn set_axes(cx: &Cx, head: &JointHead, h: &mut Hinge2, a1: Option<[dReal; 3]>, a2: Option<[dReal; 3]>) -> Option<()> {
    cx.require(a1.is_some() || a2.is_some(), format_args!("both axes are NULL"))?;
    cx.require(
        head.body[0].is_some() && head.body[1].is_some(),
        format_args!("argument 'j' is not attached to two bodies"),
    )?;
    for (name, a) in [("axis1", a1), ("axis2", a2)] {
        if let Some(a) = a {
            cx.require(axis_ok(a), format_args!("'{name}' ({}, {}, {}) cannot be normalised", a[0], a[1], a[2]))?;
        }
    }
    let b = bodies_of(head);
    cx.require(
        h.axes_independent(b, a1, a2),
        format_args!("the hinge2 axes would be exactly parallel, or so nearly that ODE's angle references become NaN (ODE: axes must be linearly independent)"),
    )?;
    h.set_axes(b, a1, a2);
    Some(())
}

#[no_mangle]
pub unsafe extern "C" fn dJointCreateHinge2(w: dWorldID, g: dJointGroupID) -> dJointID {
    call("dJointCreateHinge2", std::ptr::null_mut(), |cx| {
        let raw = create(cx, w, g, |w| JointKind::Hinge2(Box::new(Hinge2::new(w))))?;
        if let Some(h) = JOINTS.check(raw) {
            h.get_mut().head.flags |= flags::TWO_BODIES;
        }
        Some(raw)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetHinge2Anchor(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetHinge2Anchor", (), |cx| {
        let (head, h) = hinge2(cx, j)?;
        let p = vec3(cx, &["x", "y", "z"], x, y, z)?;
        // ODE recomputes the angle reference vectors here too, asserting
        // when the current axes are exactly parallel.
        cx.require(
            head.body[1].is_none() || h.axes_independent(bodies_of(head), None, None),
            format_args!("the hinge2 axes are exactly parallel (ODE: axes must be linearly independent)"),
        )?;
        try_anchor_set(cx, h, |m| [m.anchor1, m.anchor2], |m| m.set_anchor(bodies_of(head), p))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetHinge2Axes(j: dJointID, axis1: *const dReal, axis2: *const dReal) {
    call("dJointSetHinge2Axes", (), |cx| {
        let (head, h) = hinge2(cx, j)?;
        let a1 = if axis1.is_null() { None } else { Some(cx.read_finite::<3>("axis1", axis1)?) };
        let a2 = if axis2.is_null() { None } else { Some(cx.read_finite::<3>("axis2", axis2)?) };
        set_axes(cx, head, h, a1, a2)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetHinge2Axis1(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetHinge2Axis1", (), |cx| {
        let (head, h) = hinge2(cx, j)?;
        let a = cx.vec3(&["x", "y", "z"], x, y, z)?;
        set_axes(cx, head, h, Some(a), None)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetHinge2Axis2(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetHinge2Axis2", (), |cx| {
        let (head, h) = hinge2(cx, j)?;
        let a = cx.vec3(&["x", "y", "z"], x, y, z)?;
        set_axes(cx, head, h, None, Some(a))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetHinge2Param(j: dJointID, parameter: c_int, value: dReal) {
    call("dJointSetHinge2Param", (), |cx| {
        let (_, h) = hinge2(cx, j)?;
        cx.not_nan("value", value)?;
        known_param(cx, parameter, two_axis_param(parameter).1.is_some())?;
        h.set_param(parameter, value);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetHinge2Param(j: dJointID, parameter: c_int) -> dReal {
    call("dJointGetHinge2Param", 0.0, |cx| {
        let (_, h) = hinge2(cx, j)?;
        known_param(cx, parameter, two_axis_param(parameter).1.is_some())?;
        Some(h.param(parameter))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetHinge2Anchor(j: dJointID, result: *mut dReal) {
    call("dJointGetHinge2Anchor", (), |cx| {
        let (head, h) = hinge2(cx, j)?;
        write_opt(cx, result, h.anchor(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetHinge2Anchor2(j: dJointID, result: *mut dReal) {
    call("dJointGetHinge2Anchor2", (), |cx| {
        let (head, h) = hinge2(cx, j)?;
        write_opt(cx, result, h.anchor2(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetHinge2Axis1(j: dJointID, result: *mut dReal) {
    call("dJointGetHinge2Axis1", (), |cx| {
        let (head, h) = hinge2(cx, j)?;
        cx.ptr_mut("result", result)?;
        cx.require(head.body[0].is_some(), format_args!("argument 'j' has no first body"))?;
        write_opt(cx, result, h.axis1_world(bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetHinge2Axis2(j: dJointID, result: *mut dReal) {
    call("dJointGetHinge2Axis2", (), |cx| {
        let (head, h) = hinge2(cx, j)?;
        cx.ptr_mut("result", result)?;
        cx.require(head.body[1].is_some(), format_args!("argument 'j' has no second body"))?;
        write_opt(cx, result, h.axis2_world(bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetHinge2Angle1(j: dJointID) -> dReal {
    call("dJointGetHinge2Angle1", 0.0, |cx| {
        let (head, h) = hinge2(cx, j)?;
        Some(h.angle1(bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetHinge2Angle2(j: dJointID) -> dReal {
    call("dJointGetHinge2Angle2", 0.0, |cx| {
        let (head, h) = hinge2(cx, j)?;
        Some(h.angle2(bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetHinge2Angle1Rate(j: dJointID) -> dReal {
    call("dJointGetHinge2Angle1Rate", 0.0, |cx| {
        let (head, h) = hinge2(cx, j)?;
        Some(h.angle1_rate(bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetHinge2Angle2Rate(j: dJointID) -> dReal {
    call("dJointGetHinge2Angle2Rate", 0.0, |cx| {
        let (head, h) = hinge2(cx, j)?;
        Some(h.angle2_rate(bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointAddHinge2Torques(j: dJointID, torque1: dReal, torque2: dReal) {
    call("dJointAddHinge2Torques", (), |cx| {
        let (head, h) = hinge2(cx, j)?;
        cx.finite("torque1", torque1)?;
        cx.finite("torque2", torque2)?;
        super::objects_joint::push_bodies(cx, head, h.torque_push(bodies_of(head), torque1, torque2))
    })
}
