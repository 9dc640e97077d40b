//! The linear motor functions of objects.h.
//!
//! ODE asserts on a number of axes outside 0..=3, an axis number or
//! relativity outside 0..=2, a zero axis and a body-relative axis without
//! that body: reported and ignored here. Parameter groups outside 1..=3 are
//! clamped silently, as ODE does for this joint.

use super::objects_amotor::{axis_index, relativity};
use super::objects_null::{create, joint, known_param, wrong_type};
use super::types::*;
use super::{call, write_reals, Cx};
use crate::joints::ball::bodies_of;
use crate::joints::limit_motor::Param;
use crate::joints::lmotor::LMotor;
use crate::joints::{JointHead, JointKind};
use std::ffi::c_int;

fn lmotor<'a>(cx: &Cx, j: dJointID) -> Option<(&'a JointHead, &'a mut LMotor)> {
    let jt = joint(cx, j)?;
    match &mut jt.kind {
        JointKind::LMotor(m) => Some((&jt.head, m)),
        k => wrong_type(cx, k, "linear motor joint"),
    }
}

/// Group (clamped to 0..=2) and parameter of a parameter number.
fn clamped_group(parameter: c_int) -> (usize, Option<Param>) {
    ((parameter >> 8).clamp(0, 2) as usize, Param::from_code(parameter & 0xff))
}

/// ODE clamps the axis group of a parameter (`parameter >> 8`) into 0..2;
/// so do we, with a report when it had to.
fn warn_clamped_group(cx: &Cx, parameter: c_int) {
    let group = parameter >> 8;
    if !(0..=2).contains(&group) {
        cx.warn(format_args!(
            "argument 'parameter' = {parameter:#x} names axis group {group}, not 0..2 (clamped, as ODE does)"
        ));
    }
}

#[no_mangle]
pub unsafe extern "C" fn dJointCreateLMotor(w: dWorldID, g: dJointGroupID) -> dJointID {
    call("dJointCreateLMotor", std::ptr::null_mut(), |cx| {
        create(cx, w, g, |w| JointKind::LMotor(Box::new(LMotor::new(w))))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetLMotorNumAxes(j: dJointID, num: c_int) {
    call("dJointSetLMotorNumAxes", (), |cx| {
        let (_, m) = lmotor(cx, j)?;
        cx.require((0..=3).contains(&num), format_args!("argument 'num' = {num} is not 0..3"))?;
        m.num = num as usize;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetLMotorAxis(j: dJointID, anum: c_int, rel: c_int, x: dReal, y: dReal, z: dReal) {
    call("dJointSetLMotorAxis", (), |cx| {
        let (head, m) = lmotor(cx, j)?;
        let i = axis_index(cx, anum)?;
        let rel = relativity(cx, rel)?;
        let v = cx.vec3(&["x", "y", "z"], x, y, z)?;
        if let Some(why) = LMotor::axis_problem(head, bodies_of(head), rel, v) {
            return cx.fail(format_args!("axis {anum} (rel {rel}, ({x:?}, {y:?}, {z:?})): {why}"));
        }
        m.set_axis(head, bodies_of(head), i, rel, v);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetLMotorParam(j: dJointID, parameter: c_int, value: dReal) {
    call("dJointSetLMotorParam", (), |cx| {
        let (_, m) = lmotor(cx, j)?;
        cx.not_nan("value", value)?;
        known_param(cx, parameter, clamped_group(parameter).1.is_some())?;
        warn_clamped_group(cx, parameter);
        if let (g, Some(p)) = clamped_group(parameter) {
            m.limot[g].set(p, value);
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetLMotorNumAxes(j: dJointID) -> c_int {
    call("dJointGetLMotorNumAxes", 0, |cx| {
        let (_, m) = lmotor(cx, j)?;
        Some(m.num as c_int)
    })
}

/// The axis as stored: in the frame of the body it is relative to (ODE
/// returns it so; it is not converted to world coordinates).
#[no_mangle]
pub unsafe extern "C" fn dJointGetLMotorAxis(j: dJointID, anum: c_int, result: *mut dReal) {
    call("dJointGetLMotorAxis", (), |cx| {
        let (_, m) = lmotor(cx, j)?;
        let i = axis_index(cx, anum)?;
        let out = cx.ptr_mut("result", result)?;
        write_reals(out, &m.axis[i]);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetLMotorParam(j: dJointID, parameter: c_int) -> dReal {
    call("dJointGetLMotorParam", 0.0, |cx| {
        let (_, m) = lmotor(cx, j)?;
        let (g, p) = clamped_group(parameter);
        known_param(cx, parameter, p.is_some())?;
        warn_clamped_group(cx, parameter);
        Some(p.map_or(0.0, |p| m.limot[g].get(p)))
    })
}
