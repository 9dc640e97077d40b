//! The angular motor functions of objects.h.
//!
//! ODE asserts (aborts) on an axis number outside 0..=2, a relativity
//! outside 0..=2 or not allowed in Euler mode, a parameter group outside
//! 1..=3, an unknown mode, a zero axis, an angle set in Euler mode, and it
//! dereferences a missing body for body-relative axes: we report and ignore
//! all of these. Unknown parameter numbers within a group are ignored
//! silently, as in ODE.

use super::objects_null::{create, joint, known_param, wrong_type};
use super::types::*;
use super::{call, write_reals, Cx};
use crate::joints::amotor::{AMotor, MODE_EULER, MODE_USER};
use crate::joints::ball::bodies_of;
use crate::joints::limit_motor::Param;
use crate::joints::{JointHead, JointKind};
use std::ffi::c_int;

fn amotor<'a>(cx: &Cx, j: dJointID) -> Option<(&'a JointHead, &'a mut AMotor)> {
    let jt = joint(cx, j)?;
    match &mut jt.kind {
        JointKind::AMotor(m) => Some((&jt.head, m)),
        k => wrong_type(cx, k, "angular motor joint"),
    }
}

/// An axis number 0..=2.
pub(crate) fn axis_index(cx: &Cx, anum: c_int) -> Option<usize> {
    cx.require((0..3).contains(&anum), format_args!("argument 'anum' = {anum} is not an axis number (0, 1 or 2)"))?;
    Some(anum as usize)
}

/// A relativity 0 (global), 1 (body 1) or 2 (body 2).
pub(crate) fn relativity(cx: &Cx, rel: c_int) -> Option<c_int> {
    cx.require(
        (0..3).contains(&rel),
        format_args!("argument 'rel' = {rel} is not 0 (global), 1 (body 1) or 2 (body 2)"),
    )?;
    Some(rel)
}

pub(crate) fn vec3(cx: &Cx, names: &'static [&'static str; 3], x: dReal, y: dReal, z: dReal) -> Option<[dReal; 3]> {
    cx.vec3(names, x, y, z)
}

/// Axis group (0..=2) and parameter number within it of a parameter of a
/// three-axis joint; the group must exist, the parameter may be unknown.
fn group(cx: &Cx, parameter: c_int) -> Option<(usize, Option<Param>)> {
    let g = parameter >> 8;
    cx.require(
        (0..3).contains(&g),
        format_args!("argument 'parameter' = {parameter:#x} is not in parameter group 1, 2 or 3"),
    )?;
    Some((g as usize, Param::from_code(parameter & 0xff)))
}

#[no_mangle]
pub unsafe extern "C" fn dJointCreateAMotor(w: dWorldID, g: dJointGroupID) -> dJointID {
    call("dJointCreateAMotor", std::ptr::null_mut(), |cx| {
        create(cx, w, g, |w| JointKind::AMotor(Box::new(AMotor::new(w))))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetAMotorNumAxes(j: dJointID, num: c_int) {
    call("dJointSetAMotorNumAxes", (), |cx| {
        let (_, m) = amotor(cx, j)?;
        cx.require((0..=3).contains(&num), format_args!("argument 'num' = {num} is not 0..3"))?;
        m.set_num_axes(num as usize);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetAMotorAxis(j: dJointID, anum: c_int, rel: c_int, x: dReal, y: dReal, z: dReal) {
    call("dJointSetAMotorAxis", (), |cx| {
        let (head, m) = amotor(cx, j)?;
        let i = axis_index(cx, anum)?;
        let rel = relativity(cx, rel)?;
        let v = cx.vec3(&["x", "y", "z"], x, y, z)?;
        if let Some(why) = m.axis_problem(head, bodies_of(head), i, rel, v) {
            return cx.fail(format_args!("axis {anum} (rel {rel}, ({x:?}, {y:?}, {z:?})): {why}"));
        }
        m.set_axis(head, bodies_of(head), i, rel, v);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetAMotorAngle(j: dJointID, anum: c_int, angle: dReal) {
    call("dJointSetAMotorAngle", (), |cx| {
        let (_, m) = amotor(cx, j)?;
        let i = axis_index(cx, anum)?;
        cx.finite("angle", angle)?;
        cx.require(!m.euler(), format_args!("angles can only be set in user mode (dAMotorUser)"))?;
        m.set_angle(i, angle);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetAMotorParam(j: dJointID, parameter: c_int, value: dReal) {
    call("dJointSetAMotorParam", (), |cx| {
        let (_, m) = amotor(cx, j)?;
        let (g, p) = group(cx, parameter)?;
        cx.not_nan("value", value)?;
        known_param(cx, parameter, p.is_some())?;
        if let Some(p) = p {
            m.limot[g].set(p, value);
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetAMotorMode(j: dJointID, mode: c_int) {
    call("dJointSetAMotorMode", (), |cx| {
        let (head, m) = amotor(cx, j)?;
        cx.require(
            mode == MODE_USER || mode == MODE_EULER,
            format_args!("argument 'mode' = {mode} is not dAMotorUser (0) or dAMotorEuler (1)"),
        )?;
        m.set_mode(head, bodies_of(head), mode);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointAddAMotorTorques(j: dJointID, torque1: dReal, torque2: dReal, torque3: dReal) {
    call("dJointAddAMotorTorques", (), |cx| {
        let (head, m) = amotor(cx, j)?;
        let t = vec3(cx, &["torque1", "torque2", "torque3"], torque1, torque2, torque3)?;
        let Some(push) = m.torque_push(head, bodies_of(head), t) else {
            return cx.fail(format_args!("the joint is not attached to a body"));
        };
        super::objects_joint::push_bodies(cx, head, push)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetAMotorNumAxes(j: dJointID) -> c_int {
    call("dJointGetAMotorNumAxes", 0, |cx| {
        let (_, m) = amotor(cx, j)?;
        Some(m.num as c_int)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetAMotorAxis(j: dJointID, anum: c_int, result: *mut dReal) {
    call("dJointGetAMotorAxis", (), |cx| {
        let (head, m) = amotor(cx, j)?;
        let i = axis_index(cx, anum)?;
        let out = cx.ptr_mut("result", result)?;
        let Some(a) = m.axis_value(head, bodies_of(head), i) else {
            return cx.fail(format_args!("axis {anum} needs a body the joint is not attached to"));
        };
        write_reals(out, &a);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetAMotorAxisRel(j: dJointID, anum: c_int) -> c_int {
    call("dJointGetAMotorAxisRel", 0, |cx| {
        let (head, m) = amotor(cx, j)?;
        let i = axis_index(cx, anum)?;
        Some(m.axis_rel(head, i))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetAMotorAngle(j: dJointID, anum: c_int) -> dReal {
    call("dJointGetAMotorAngle", 0.0, |cx| {
        let (_, m) = amotor(cx, j)?;
        let i = axis_index(cx, anum)?;
        Some(m.angle[i])
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetAMotorAngleRate(j: dJointID, anum: c_int) -> dReal {
    call("dJointGetAMotorAngleRate", 0.0, |cx| {
        let (head, m) = amotor(cx, j)?;
        let i = axis_index(cx, anum)?;
        let Some(rate) = m.angle_rate(head, bodies_of(head), i) else {
            return cx.fail(format_args!("the joint is not attached to a body (or axis {anum} needs a missing one)"));
        };
        Some(rate)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetAMotorParam(j: dJointID, parameter: c_int) -> dReal {
    call("dJointGetAMotorParam", 0.0, |cx| {
        let (_, m) = amotor(cx, j)?;
        let (g, p) = group(cx, parameter)?;
        known_param(cx, parameter, p.is_some())?;
        Some(p.map_or(0.0, |p| m.limot[g].get(p)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetAMotorMode(j: dJointID) -> c_int {
    call("dJointGetAMotorMode", 0, |cx| {
        let (_, m) = amotor(cx, j)?;
        Some(m.mode)
    })
}
