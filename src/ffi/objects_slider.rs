//! The slider joint functions of objects.h.
//!
//! A zero axis is refused when the joint is attached (ODE aborts on it).
//! Position and rate of an unattached slider are refused (ODE crashes).

use super::objects_null::{create, joint, known_param, wrong_type};
use super::types::*;
use super::{call, write_reals, Cx};
use crate::joints::ball::bodies_of;
use crate::joints::hinge::axis_ok;
use crate::joints::limit_motor::Param;
use crate::joints::slider::Slider;
use crate::joints::{JointHead, JointKind};
use std::ffi::c_int;

fn slider<'a>(cx: &Cx, j: dJointID) -> Option<(&'a JointHead, &'a mut Slider)> {
    let jt = joint(cx, j)?;
    match &mut jt.kind {
        JointKind::Slider(s) => Some((&jt.head, s)),
        k => wrong_type(cx, k, "slider joint"),
    }
}

fn vec3(cx: &Cx, names: &'static [&'static str; 3], x: dReal, y: dReal, z: dReal) -> Option<[dReal; 3]> {
    cx.vec3(names, x, y, z)
}

fn axis(cx: &Cx, head: &JointHead, x: dReal, y: dReal, z: dReal) -> Option<[dReal; 3]> {
    let a = cx.vec3(&["x", "y", "z"], x, y, z)?;
    cx.require(head.body[0].is_none() || axis_ok(a), format_args!("axis ({x:?}, {y:?}, {z:?}) cannot be normalised"))?;
    Some(a)
}

fn attached(cx: &Cx, v: Option<dReal>) -> Option<dReal> {
    match v {
        Some(v) => Some(v),
        None => cx.fail(format_args!("argument 'j' is not attached to any body")),
    }
}

#[no_mangle]
pub unsafe extern "C" fn dJointCreateSlider(w: dWorldID, g: dJointGroupID) -> dJointID {
    call("dJointCreateSlider", std::ptr::null_mut(), |cx| {
        create(cx, w, g, |w| JointKind::Slider(Box::new(Slider::new(w))))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetSliderAxis(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetSliderAxis", (), |cx| {
        let (head, s) = slider(cx, j)?;
        let a = axis(cx, head, x, y, z)?;
        s.set_axis(bodies_of(head), a);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetSliderAxisDelta(
    j: dJointID,
    x: dReal,
    y: dReal,
    z: dReal,
    ax: dReal,
    ay: dReal,
    az: dReal,
) {
    call("dJointSetSliderAxisDelta", (), |cx| {
        let (head, s) = slider(cx, j)?;
        let a = axis(cx, head, x, y, z)?;
        let d = vec3(cx, &["ax", "ay", "az"], ax, ay, az)?;
        s.set_axis_delta(bodies_of(head), a, d);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetSliderAxis(j: dJointID, result: *mut dReal) {
    call("dJointGetSliderAxis", (), |cx| {
        let (head, s) = slider(cx, j)?;
        let out = cx.ptr_mut("result", result)?;
        if let Some(a) = s.axis(bodies_of(head)) {
            write_reals(out, &a);
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetSliderParam(j: dJointID, parameter: c_int, value: dReal) {
    call("dJointSetSliderParam", (), |cx| {
        let (_, s) = slider(cx, j)?;
        cx.not_nan("value", value)?;
        known_param(cx, parameter, false)?;
        // Numbers outside the first group are ignored, as in ODE.
        if let Some(p) = Param::from_code(parameter) {
            s.limot.set(p, value);
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetSliderParam(j: dJointID, parameter: c_int) -> dReal {
    call("dJointGetSliderParam", 0.0, |cx| {
        let (_, s) = slider(cx, j)?;
        known_param(cx, parameter, false)?;
        Some(Param::from_code(parameter).map_or(0.0, |p| s.limot.get(p)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetSliderPosition(j: dJointID) -> dReal {
    call("dJointGetSliderPosition", 0.0, |cx| {
        let (head, s) = slider(cx, j)?;
        attached(cx, s.position(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetSliderPositionRate(j: dJointID) -> dReal {
    call("dJointGetSliderPositionRate", 0.0, |cx| {
        let (head, s) = slider(cx, j)?;
        attached(cx, s.position_rate(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointAddSliderForce(j: dJointID, force: dReal) {
    call("dJointAddSliderForce", (), |cx| {
        let (head, s) = slider(cx, j)?;
        cx.finite("force", force)?;
        let push = s.force_push(head, bodies_of(head), force);
        super::objects_joint::push_bodies(cx, head, push)
    })
}
