//! The double ball joint functions of objects.h. As in ODE, where the
//! double hinge is a kind of double ball, they also accept a double hinge
//! (the double hinge functions for anchors, distance and parameters are
//! the same operations). ODE asserts on a negative distance: reported and
//! ignored here.

use super::objects_amotor::vec3;
use super::objects_null::{create, joint, known_param, wrong_type};
use super::types::*;
use super::{call, write_reals, Cx};
use crate::joints::ball::bodies_of;
use crate::joints::dball::DBall;
use crate::joints::limit_motor::Param;
use crate::joints::{JointHead, JointKind};
use std::ffi::c_int;

/// The double-ball part of a double ball or double hinge joint.
pub(crate) fn dball<'a>(cx: &Cx, j: dJointID) -> Option<(&'a JointHead, &'a mut DBall)> {
    let jt = joint(cx, j)?;
    match &mut jt.kind {
        JointKind::DBall(d) => Some((&jt.head, d)),
        JointKind::DHinge(h) => Some((&jt.head, &mut h.ball)),
        k => wrong_type(cx, k, "double ball or double hinge joint"),
    }
}

pub(crate) fn set_anchor(cx: &Cx, j: dJointID, which: usize, x: dReal, y: dReal, z: dReal) -> Option<()> {
    let (head, d) = dball(cx, j)?;
    let p = vec3(cx, &["x", "y", "z"], x, y, z)?;
    // Tried on a copy: finite but huge anchors overflow the body-frame
    // anchor or the distance between the anchors, which ODE stores as inf
    // and its next step turns into NaN.
    let mut trial = d.clone();
    trial.set_anchor(head, bodies_of(head), which, p);
    let finite = trial.anchor1.iter().chain(&trial.anchor2).all(|v| v.is_finite()) && trial.target.is_finite();
    cx.require(finite, format_args!("anchor ({x}, {y}, {z}) overflows the joint's anchors or distance"))?;
    *d = trial;
    Some(())
}

pub(crate) unsafe fn get_anchor(cx: &Cx, j: dJointID, which: usize, result: *mut dReal) -> Option<()> {
    let (head, d) = dball(cx, j)?;
    let out = cx.ptr_mut("result", result)?;
    write_reals(out, &d.anchor(head, bodies_of(head), which));
    Some(())
}

pub(crate) fn set_param(cx: &Cx, j: dJointID, parameter: c_int, value: dReal) -> Option<()> {
    let (_, d) = dball(cx, j)?;
    cx.not_nan("value", value)?;
    known_param(cx, parameter, false)?;
    d.set_param(Param::from_code(parameter), value);
    Some(())
}

pub(crate) fn get_param(cx: &Cx, j: dJointID, parameter: c_int) -> Option<dReal> {
    let (_, d) = dball(cx, j)?;
    known_param(cx, parameter, false)?;
    Some(d.param(Param::from_code(parameter)))
}

#[no_mangle]
pub unsafe extern "C" fn dJointCreateDBall(w: dWorldID, g: dJointGroupID) -> dJointID {
    call("dJointCreateDBall", std::ptr::null_mut(), |cx| create(cx, w, g, |w| JointKind::DBall(DBall::new(w))))
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetDBallAnchor1(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetDBallAnchor1", (), |cx| set_anchor(cx, j, 0, x, y, z))
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetDBallAnchor2(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetDBallAnchor2", (), |cx| set_anchor(cx, j, 1, x, y, z))
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetDBallAnchor1(j: dJointID, result: *mut dReal) {
    call("dJointGetDBallAnchor1", (), |cx| get_anchor(cx, j, 0, result))
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetDBallAnchor2(j: dJointID, result: *mut dReal) {
    call("dJointGetDBallAnchor2", (), |cx| get_anchor(cx, j, 1, result))
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetDBallDistance(j: dJointID) -> dReal {
    call("dJointGetDBallDistance", 0.0, |cx| Some(dball(cx, j)?.1.target))
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetDBallDistance(j: dJointID, dist: dReal) {
    call("dJointSetDBallDistance", (), |cx| {
        let (_, d) = dball(cx, j)?;
        cx.check_real("dist", dist, dist >= 0.0, "must be non-negative")?;
        d.target = dist;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetDBallParam(j: dJointID, parameter: c_int, value: dReal) {
    call("dJointSetDBallParam", (), |cx| set_param(cx, j, parameter, value))
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetDBallParam(j: dJointID, parameter: c_int) -> dReal {
    call("dJointGetDBallParam", 0.0, |cx| get_param(cx, j, parameter))
}
