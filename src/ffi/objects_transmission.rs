//! The transmission joint functions of objects.h.
//!
//! ODE asserts on: a mode other than the three, per-wheel axes outside
//! intersecting mode (and the common axis in it), an explicit ratio outside
//! parallel mode or not positive, radii outside chain mode, and a zero
//! axis. We report and ignore these. The joint needs two bodies (or none).

use super::objects_amotor::vec3;
use super::objects_joint::try_anchor_set;
use super::objects_null::{create, joint, known_param, wrong_type};
use super::types::*;
use super::{call, write_reals, Cx};
use crate::joints::ball::bodies_of;
use crate::joints::limit_motor::Param;
use crate::joints::transmission::{Transmission, MODE_CHAIN, MODE_INTERSECTING, MODE_PARALLEL};
use crate::joints::{flags, JointHead, JointKind, JOINTS};
use std::ffi::c_int;

fn transmission<'a>(cx: &Cx, j: dJointID) -> Option<(&'a JointHead, &'a mut Transmission)> {
    let jt = joint(cx, j)?;
    match &mut jt.kind {
        JointKind::Transmission(t) => Some((&jt.head, t)),
        k => wrong_type(cx, k, "transmission joint"),
    }
}

fn mode_name(mode: c_int) -> &'static str {
    match mode {
        MODE_PARALLEL => "dTransmissionParallelAxes",
        MODE_INTERSECTING => "dTransmissionIntersectingAxes",
        _ => "dTransmissionChainDrive",
    }
}

/// The joint must be in one of `modes` for this call.
fn in_mode(cx: &Cx, t: &Transmission, modes: &[c_int], what: &str) -> Option<()> {
    cx.require(modes.contains(&t.mode), format_args!("{what} cannot be used in mode {}", mode_name(t.mode)))
}

/// A finite axis ODE can normalise in the frame of each attached wheel
/// body among `wheels`.
fn axis(cx: &Cx, head: &JointHead, wheels: &[usize], x: dReal, y: dReal, z: dReal) -> Option<[dReal; 3]> {
    let v = cx.vec3(&["x", "y", "z"], x, y, z)?;
    let b = bodies_of(head);
    cx.require(
        wheels.iter().all(|&i| Transmission::axis_acceptable(b, i, v)),
        format_args!("axis ({x:?}, {y:?}, {z:?}) cannot be normalised"),
    )?;
    Some(v)
}

unsafe fn get_vec(cx: &Cx, result: *mut dReal, v: Option<[dReal; 3]>) -> Option<()> {
    let out = cx.ptr_mut("result", result)?;
    if let Some(v) = v {
        write_reals(out, &v);
    }
    Some(())
}

#[no_mangle]
pub unsafe extern "C" fn dJointCreateTransmission(w: dWorldID, g: dJointGroupID) -> dJointID {
    call("dJointCreateTransmission", std::ptr::null_mut(), |cx| {
        let j = create(cx, w, g, |w| JointKind::Transmission(Box::new(Transmission::new(w))))?;
        let h = cx.handle(&JOINTS, j, "j", "joint")?;
        h.get_mut().head.flags |= flags::TWO_BODIES;
        Some(j)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetTransmissionAxis(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetTransmissionAxis", (), |cx| {
        let (head, t) = transmission(cx, j)?;
        in_mode(cx, t, &[MODE_PARALLEL, MODE_CHAIN], "a common axis")?;
        let v = axis(cx, head, &[0, 1], x, y, z)?;
        let b = bodies_of(head);
        t.set_axis(b, 0, v);
        t.set_axis(b, 1, v);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetTransmissionAxis1(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetTransmissionAxis1", (), |cx| {
        let (head, t) = transmission(cx, j)?;
        in_mode(cx, t, &[MODE_INTERSECTING], "a per-wheel axis")?;
        let v = axis(cx, head, &[0], x, y, z)?;
        t.set_axis(bodies_of(head), 0, v);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetTransmissionAxis2(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetTransmissionAxis2", (), |cx| {
        let (head, t) = transmission(cx, j)?;
        in_mode(cx, t, &[MODE_INTERSECTING], "a per-wheel axis")?;
        let v = axis(cx, head, &[1], x, y, z)?;
        t.set_axis(bodies_of(head), 1, v);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetTransmissionAnchor1(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetTransmissionAnchor1", (), |cx| {
        let (head, t) = transmission(cx, j)?;
        let p = vec3(cx, &["x", "y", "z"], x, y, z)?;
        try_anchor_set(cx, t, |m| m.anchors, |m| m.set_anchor(bodies_of(head), 0, p))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetTransmissionAnchor2(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetTransmissionAnchor2", (), |cx| {
        let (head, t) = transmission(cx, j)?;
        let p = vec3(cx, &["x", "y", "z"], x, y, z)?;
        try_anchor_set(cx, t, |m| m.anchors, |m| m.set_anchor(bodies_of(head), 1, p))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetTransmissionContactPoint1(j: dJointID, result: *mut dReal) {
    call("dJointGetTransmissionContactPoint1", (), |cx| {
        let (_, t) = transmission(cx, j)?;
        get_vec(cx, result, Some(t.contacts[0]))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetTransmissionContactPoint2(j: dJointID, result: *mut dReal) {
    call("dJointGetTransmissionContactPoint2", (), |cx| {
        let (_, t) = transmission(cx, j)?;
        get_vec(cx, result, Some(t.contacts[1]))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetTransmissionAxis(j: dJointID, result: *mut dReal) {
    call("dJointGetTransmissionAxis", (), |cx| {
        let (head, t) = transmission(cx, j)?;
        in_mode(cx, t, &[MODE_PARALLEL], "the common axis query")?;
        get_vec(cx, result, t.axis(bodies_of(head), 0))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetTransmissionAxis1(j: dJointID, result: *mut dReal) {
    call("dJointGetTransmissionAxis1", (), |cx| {
        let (head, t) = transmission(cx, j)?;
        get_vec(cx, result, t.axis(bodies_of(head), 0))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetTransmissionAxis2(j: dJointID, result: *mut dReal) {
    call("dJointGetTransmissionAxis2", (), |cx| {
        let (head, t) = transmission(cx, j)?;
        get_vec(cx, result, t.axis(bodies_of(head), 1))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetTransmissionAnchor1(j: dJointID, result: *mut dReal) {
    call("dJointGetTransmissionAnchor1", (), |cx| {
        let (head, t) = transmission(cx, j)?;
        get_vec(cx, result, t.anchor(bodies_of(head), 0))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetTransmissionAnchor2(j: dJointID, result: *mut dReal) {
    call("dJointGetTransmissionAnchor2", (), |cx| {
        let (head, t) = transmission(cx, j)?;
        get_vec(cx, result, t.anchor(bodies_of(head), 1))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetTransmissionParam(j: dJointID, parameter: c_int, value: dReal) {
    call("dJointSetTransmissionParam", (), |cx| {
        let (_, t) = transmission(cx, j)?;
        cx.not_nan("value", value)?;
        known_param(cx, parameter, false)?;
        t.set_param(Param::from_code(parameter), value);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetTransmissionParam(j: dJointID, parameter: c_int) -> dReal {
    call("dJointGetTransmissionParam", 0.0, |cx| {
        let (_, t) = transmission(cx, j)?;
        known_param(cx, parameter, false)?;
        Some(t.param(Param::from_code(parameter)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetTransmissionMode(j: dJointID, mode: c_int) {
    call("dJointSetTransmissionMode", (), |cx| {
        let (_, t) = transmission(cx, j)?;
        cx.require(
            [MODE_PARALLEL, MODE_INTERSECTING, MODE_CHAIN].contains(&mode),
            format_args!("argument 'mode' = {mode} is not a transmission mode (0, 1 or 2)"),
        )?;
        t.mode = mode;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetTransmissionMode(j: dJointID) -> c_int {
    call("dJointGetTransmissionMode", 0, |cx| Some(transmission(cx, j)?.1.mode))
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetTransmissionRatio(j: dJointID, ratio: dReal) {
    call("dJointSetTransmissionRatio", (), |cx| {
        let (_, t) = transmission(cx, j)?;
        in_mode(cx, t, &[MODE_PARALLEL], "an explicit ratio")?;
        cx.check_real("ratio", ratio, ratio > 0.0, "must be positive")?;
        cx.warn_huge(&["ratio"], &[ratio]);
        t.ratio = ratio;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetTransmissionRatio(j: dJointID) -> dReal {
    call("dJointGetTransmissionRatio", 0.0, |cx| Some(transmission(cx, j)?.1.ratio))
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetTransmissionAngle1(j: dJointID) -> dReal {
    call("dJointGetTransmissionAngle1", 0.0, |cx| Some(transmission(cx, j)?.1.phase[0]))
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetTransmissionAngle2(j: dJointID) -> dReal {
    call("dJointGetTransmissionAngle2", 0.0, |cx| Some(transmission(cx, j)?.1.phase[1]))
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetTransmissionRadius1(j: dJointID) -> dReal {
    call("dJointGetTransmissionRadius1", 0.0, |cx| Some(transmission(cx, j)?.1.radii[0]))
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetTransmissionRadius2(j: dJointID) -> dReal {
    call("dJointGetTransmissionRadius2", 0.0, |cx| Some(transmission(cx, j)?.1.radii[1]))
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetTransmissionRadius1(j: dJointID, radius: dReal) {
    call("dJointSetTransmissionRadius1", (), |cx| {
        let (_, t) = transmission(cx, j)?;
        in_mode(cx, t, &[MODE_CHAIN], "an explicit radius")?;
        cx.finite("radius", radius)?;
        cx.warn_huge(&["radius"], &[radius]);
        t.radii[0] = radius;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetTransmissionRadius2(j: dJointID, radius: dReal) {
    call("dJointSetTransmissionRadius2", (), |cx| {
        let (_, t) = transmission(cx, j)?;
        in_mode(cx, t, &[MODE_CHAIN], "an explicit radius")?;
        cx.finite("radius", radius)?;
        cx.warn_huge(&["radius"], &[radius]);
        t.radii[1] = radius;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetTransmissionBacklash(j: dJointID) -> dReal {
    call("dJointGetTransmissionBacklash", 0.0, |cx| Some(transmission(cx, j)?.1.backlash))
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetTransmissionBacklash(j: dJointID, backlash: dReal) {
    call("dJointSetTransmissionBacklash", (), |cx| {
        let (_, t) = transmission(cx, j)?;
        cx.not_nan("backlash", backlash)?;
        t.backlash = backlash;
        Some(())
    })
}
