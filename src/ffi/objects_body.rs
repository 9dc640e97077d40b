//! The `dBody*` functions of ODE's objects.h: rigid body creation, state,
//! mass, forces, frame conversions and per-body settings.
//!
//! Every handle and value is checked before anything changes; a refused
//! call is reported (naming function and argument) and returns the neutral
//! value (0, NULL, nothing). Beyond ODE's own assertions this rejects NaN
//! (and infinite reals where a finite value is needed). Values ODE stores
//! and steps with are accepted even outside their documented range, as in
//! ODE: damping scales outside [0, 1], negative thresholds (stored
//! squared), negative idle times and steps, a negative maximum angular
//! speed (which reverses a spin above its magnitude).
//!
//! `dBodyGetFirstGeom`/`dBodyGetNextGeom` walk the body's geom list (most
//! recently attached first, as in ODE), kept by the collision module.
#![allow(non_snake_case)]

use super::types::*;
use super::{call, write_reals, Cx};
use crate::dynamics::body::{Body, BodyRef, Invalid, BODIES};
use crate::dynamics::world::WORLDS;
use crate::ffi::mass::dMass;
use std::ffi::{c_int, c_uint, c_void};

/// Validates the body handle argument.
#[inline]
fn body(cx: &Cx, b: dBodyID) -> Option<BodyRef> {
    cx.handle(&BODIES, b, "b", "body")
}

/// Turns a domain check into a report naming the argument.
#[inline]
fn accept<T>(cx: &Cx, arg: &str, r: Result<T, Invalid>) -> Option<T> {
    match r {
        Ok(v) => Some(v),
        Err(e) => cx.fail(format_args!("argument '{arg}' {e}")),
    }
}

/// Three finite reals named `names`.
#[inline]
fn vec3(cx: &Cx, names: &'static [&'static str; 3], x: dReal, y: dReal, z: dReal) -> Option<[dReal; 3]> {
    cx.vec3(names, x, y, z)
}

/// Writes 3 reals to a checked out-pointer.
#[inline]
unsafe fn out3(p: *mut dReal, v: [dReal; 3]) {
    write_reals(p, &v);
}

// ---- creation ---------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn dBodyCreate(w: dWorldID) -> dBodyID {
    call("dBodyCreate", std::ptr::null_mut(), |cx| {
        let w = cx.handle(&WORLDS, w, "w", "world")?;
        Some(crate::dynamics::body::create_body(w).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyDestroy(b: dBodyID) {
    call("dBodyDestroy", (), |cx| {
        let b = body(cx, b)?;
        crate::joints::object::destroy_body(b);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetWorld(b: dBodyID) -> dWorldID {
    call("dBodyGetWorld", std::ptr::null_mut(), |cx| Some(body(cx, b)?.get().world.as_raw()))
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetData(b: dBodyID, data: *mut c_void) {
    call("dBodySetData", (), |cx| {
        body(cx, b)?.get_mut().data = data;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetData(b: dBodyID) -> *mut c_void {
    call("dBodyGetData", std::ptr::null_mut(), |cx| Some(body(cx, b)?.get().data))
}

// ---- position, orientation, velocities ------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn dBodySetPosition(b: dBodyID, x: dReal, y: dReal, z: dReal) {
    call("dBodySetPosition", (), |cx| {
        let b = body(cx, b)?;
        let p = vec3(cx, &["x", "y", "z"], x, y, z)?;
        b.get_mut().set_position(p);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetRotation(b: dBodyID, R: *const dReal) {
    call("dBodySetRotation", (), |cx| {
        let b = body(cx, b)?;
        let r = cx.ptr("R", R)?;
        let mut m = [0.0; 12];
        std::ptr::copy_nonoverlapping(r, m.as_mut_ptr(), 12);
        let rq = accept(cx, "R", Body::prepare_rotation(&m))?;
        // ODE keeps row 1 as given when it needed the Gram–Schmidt
        // correction (see `orthogonalize_r`), so a huge entry there is
        // stored and used: warned about as dGeomSetRotation does.
        cx.warn_huge_matrix("R", &m);
        b.get_mut().set_rotation_prepared(rq);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetQuaternion(b: dBodyID, q: *const dReal) {
    call("dBodySetQuaternion", (), |cx| {
        let b = body(cx, b)?;
        let q = cx.ptr("q", q)?;
        let mut v = [0.0; 4];
        std::ptr::copy_nonoverlapping(q, v.as_mut_ptr(), 4);
        let rq = accept(cx, "q", Body::prepare_quaternion(&v))?;
        b.get_mut().set_rotation_prepared(rq);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetLinearVel(b: dBodyID, x: dReal, y: dReal, z: dReal) {
    call("dBodySetLinearVel", (), |cx| {
        let b = body(cx, b)?;
        let v = vec3(cx, &["x", "y", "z"], x, y, z)?;
        b.get_mut().set_linear_vel(v);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetAngularVel(b: dBodyID, x: dReal, y: dReal, z: dReal) {
    call("dBodySetAngularVel", (), |cx| {
        let b = body(cx, b)?;
        let v = vec3(cx, &["x", "y", "z"], x, y, z)?;
        b.get_mut().set_angular_vel(v);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetPosition(b: dBodyID) -> *const dReal {
    call("dBodyGetPosition", std::ptr::null(), |cx| Some(body(cx, b)?.get().pos.as_ptr()))
}

#[no_mangle]
pub unsafe extern "C" fn dBodyCopyPosition(body_: dBodyID, pos: *mut dReal) {
    call("dBodyCopyPosition", (), |cx| {
        let b = cx.handle(&BODIES, body_, "body", "body")?;
        let out = cx.ptr_mut("pos", pos)?;
        let p = &b.get().pos;
        out3(out, [p[0], p[1], p[2]]);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetRotation(b: dBodyID) -> *const dReal {
    call("dBodyGetRotation", std::ptr::null(), |cx| Some(body(cx, b)?.get().r.as_ptr()))
}

#[no_mangle]
pub unsafe extern "C" fn dBodyCopyRotation(b: dBodyID, R: *mut dReal) {
    call("dBodyCopyRotation", (), |cx| {
        let b = body(cx, b)?;
        let out = cx.ptr_mut("R", R)?;
        write_reals(out, &b.get().r);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetQuaternion(b: dBodyID) -> *const dReal {
    call("dBodyGetQuaternion", std::ptr::null(), |cx| Some(body(cx, b)?.get().q.as_ptr()))
}

#[no_mangle]
pub unsafe extern "C" fn dBodyCopyQuaternion(body_: dBodyID, quat: *mut dReal) {
    call("dBodyCopyQuaternion", (), |cx| {
        let b = cx.handle(&BODIES, body_, "body", "body")?;
        let out = cx.ptr_mut("quat", quat)?;
        write_reals(out, &b.get().q);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetLinearVel(b: dBodyID) -> *const dReal {
    call("dBodyGetLinearVel", std::ptr::null(), |cx| Some(body(cx, b)?.get().lvel.as_ptr()))
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetAngularVel(b: dBodyID) -> *const dReal {
    call("dBodyGetAngularVel", std::ptr::null(), |cx| Some(body(cx, b)?.get().avel.as_ptr()))
}

// ---- mass ---------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn dBodySetMass(b: dBodyID, mass: *const dMass) {
    call("dBodySetMass", (), |cx| {
        let b = body(cx, b)?;
        let m = *cx.ptr("mass", mass)?;
        accept(cx, "mass", Body::check_mass(&m))?;
        b.get_mut().set_mass(&m);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetMass(b: dBodyID, mass: *mut dMass) {
    call("dBodyGetMass", (), |cx| {
        let b = body(cx, b)?;
        let out = cx.ptr_mut("mass", mass)?;
        *out = b.get().mass;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetDynamic(b: dBodyID) {
    call("dBodySetDynamic", (), |cx| {
        body(cx, b)?.get_mut().set_dynamic();
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetKinematic(b: dBodyID) {
    call("dBodySetKinematic", (), |cx| {
        body(cx, b)?.get_mut().set_kinematic();
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyIsKinematic(b: dBodyID) -> c_int {
    call("dBodyIsKinematic", 0, |cx| Some(body(cx, b)?.get().is_kinematic() as c_int))
}

// ---- forces and torques ---------------------------------------------------------

/// Adds to a body's force and torque accumulators through `add`, refusing
/// (and undoing) an addition whose finite inputs would leave them
/// infinite: ODE stores the overflow, and the next step turns the body NaN.
/// Accumulators that were already non-finite are left to the step's guard.
fn accumulate(cx: &Cx, b: BodyRef, add: impl FnOnce(&mut Body)) -> Option<()> {
    let body = b.get_mut();
    let (f0, t0) = (body.facc, body.tacc);
    add(body);
    // One branch in the usual case: every sum within the double range
    // (NaN fails the comparison too).
    let finite = |f: &[f64; 4], t: &[f64; 4]| {
        let ok = |v: f64| v.abs() <= f64::MAX;
        ok(f[0]) & ok(f[1]) & ok(f[2]) & ok(t[0]) & ok(t[1]) & ok(t[2])
    };
    if finite(&body.facc, &body.tacc) || !finite(&f0, &t0) {
        return Some(());
    }
    body.facc = f0;
    body.tacc = t0;
    cx.fail(format_args!("the force or its moment overflows the body's accumulators (beyond the double range)"))
}

#[no_mangle]
pub unsafe extern "C" fn dBodyAddForce(b: dBodyID, fx: dReal, fy: dReal, fz: dReal) {
    call("dBodyAddForce", (), |cx| {
        let b = body(cx, b)?;
        let f = vec3(cx, &["fx", "fy", "fz"], fx, fy, fz)?;
        accumulate(cx, b, |body| body.add_force(f))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyAddTorque(b: dBodyID, fx: dReal, fy: dReal, fz: dReal) {
    call("dBodyAddTorque", (), |cx| {
        let b = body(cx, b)?;
        let t = vec3(cx, &["fx", "fy", "fz"], fx, fy, fz)?;
        accumulate(cx, b, |body| body.add_torque(t))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyAddRelForce(b: dBodyID, fx: dReal, fy: dReal, fz: dReal) {
    call("dBodyAddRelForce", (), |cx| {
        let b = body(cx, b)?;
        let f = vec3(cx, &["fx", "fy", "fz"], fx, fy, fz)?;
        accumulate(cx, b, |body| body.add_rel_force(f))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyAddRelTorque(b: dBodyID, fx: dReal, fy: dReal, fz: dReal) {
    call("dBodyAddRelTorque", (), |cx| {
        let b = body(cx, b)?;
        let t = vec3(cx, &["fx", "fy", "fz"], fx, fy, fz)?;
        accumulate(cx, b, |body| body.add_rel_torque(t))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyAddForceAtPos(
    b: dBodyID,
    fx: dReal,
    fy: dReal,
    fz: dReal,
    px: dReal,
    py: dReal,
    pz: dReal,
) {
    call("dBodyAddForceAtPos", (), |cx| {
        let b = body(cx, b)?;
        let f = vec3(cx, &["fx", "fy", "fz"], fx, fy, fz)?;
        let p = vec3(cx, &["px", "py", "pz"], px, py, pz)?;
        accumulate(cx, b, |body| body.add_force_at_pos(f, p))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyAddForceAtRelPos(
    b: dBodyID,
    fx: dReal,
    fy: dReal,
    fz: dReal,
    px: dReal,
    py: dReal,
    pz: dReal,
) {
    call("dBodyAddForceAtRelPos", (), |cx| {
        let b = body(cx, b)?;
        let f = vec3(cx, &["fx", "fy", "fz"], fx, fy, fz)?;
        let p = vec3(cx, &["px", "py", "pz"], px, py, pz)?;
        accumulate(cx, b, |body| body.add_force_at_rel_pos(f, p))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyAddRelForceAtPos(
    b: dBodyID,
    fx: dReal,
    fy: dReal,
    fz: dReal,
    px: dReal,
    py: dReal,
    pz: dReal,
) {
    call("dBodyAddRelForceAtPos", (), |cx| {
        let b = body(cx, b)?;
        let f = vec3(cx, &["fx", "fy", "fz"], fx, fy, fz)?;
        let p = vec3(cx, &["px", "py", "pz"], px, py, pz)?;
        accumulate(cx, b, |body| body.add_rel_force_at_pos(f, p))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyAddRelForceAtRelPos(
    b: dBodyID,
    fx: dReal,
    fy: dReal,
    fz: dReal,
    px: dReal,
    py: dReal,
    pz: dReal,
) {
    call("dBodyAddRelForceAtRelPos", (), |cx| {
        let b = body(cx, b)?;
        let f = vec3(cx, &["fx", "fy", "fz"], fx, fy, fz)?;
        let p = vec3(cx, &["px", "py", "pz"], px, py, pz)?;
        accumulate(cx, b, |body| body.add_rel_force_at_rel_pos(f, p))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetForce(b: dBodyID) -> *const dReal {
    call("dBodyGetForce", std::ptr::null(), |cx| Some(body(cx, b)?.get().facc.as_ptr()))
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetTorque(b: dBodyID) -> *const dReal {
    call("dBodyGetTorque", std::ptr::null(), |cx| Some(body(cx, b)?.get().tacc.as_ptr()))
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetForce(b: dBodyID, x: dReal, y: dReal, z: dReal) {
    call("dBodySetForce", (), |cx| {
        let b = body(cx, b)?;
        let f = vec3(cx, &["x", "y", "z"], x, y, z)?;
        b.get_mut().set_force(f);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetTorque(b: dBodyID, x: dReal, y: dReal, z: dReal) {
    call("dBodySetTorque", (), |cx| {
        let b = body(cx, b)?;
        let t = vec3(cx, &["x", "y", "z"], x, y, z)?;
        b.get_mut().set_torque(t);
        Some(())
    })
}

// ---- frame conversions ------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn dBodyGetRelPointPos(b: dBodyID, px: dReal, py: dReal, pz: dReal, result: *mut dReal) {
    call("dBodyGetRelPointPos", (), |cx| {
        let b = body(cx, b)?;
        let p = vec3(cx, &["px", "py", "pz"], px, py, pz)?;
        let out = cx.ptr_mut("result", result)?;
        out3(out, b.get().rel_point_pos(p));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetRelPointVel(b: dBodyID, px: dReal, py: dReal, pz: dReal, result: *mut dReal) {
    call("dBodyGetRelPointVel", (), |cx| {
        let b = body(cx, b)?;
        let p = vec3(cx, &["px", "py", "pz"], px, py, pz)?;
        let out = cx.ptr_mut("result", result)?;
        out3(out, b.get().rel_point_vel(p));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetPointVel(b: dBodyID, px: dReal, py: dReal, pz: dReal, result: *mut dReal) {
    call("dBodyGetPointVel", (), |cx| {
        let b = body(cx, b)?;
        let p = vec3(cx, &["px", "py", "pz"], px, py, pz)?;
        let out = cx.ptr_mut("result", result)?;
        out3(out, b.get().point_vel(p));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetPosRelPoint(b: dBodyID, px: dReal, py: dReal, pz: dReal, result: *mut dReal) {
    call("dBodyGetPosRelPoint", (), |cx| {
        let b = body(cx, b)?;
        let p = vec3(cx, &["px", "py", "pz"], px, py, pz)?;
        let out = cx.ptr_mut("result", result)?;
        out3(out, b.get().pos_rel_point(p));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyVectorToWorld(b: dBodyID, px: dReal, py: dReal, pz: dReal, result: *mut dReal) {
    call("dBodyVectorToWorld", (), |cx| {
        let b = body(cx, b)?;
        let p = vec3(cx, &["px", "py", "pz"], px, py, pz)?;
        let out = cx.ptr_mut("result", result)?;
        out3(out, b.get().vector_to_world(p));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyVectorFromWorld(b: dBodyID, px: dReal, py: dReal, pz: dReal, result: *mut dReal) {
    call("dBodyVectorFromWorld", (), |cx| {
        let b = body(cx, b)?;
        let p = vec3(cx, &["px", "py", "pz"], px, py, pz)?;
        let out = cx.ptr_mut("result", result)?;
        out3(out, b.get().vector_from_world(p));
        Some(())
    })
}

// ---- rotation mode ------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn dBodySetFiniteRotationMode(b: dBodyID, mode: c_int) {
    call("dBodySetFiniteRotationMode", (), |cx| {
        body(cx, b)?.get_mut().set_finite_rotation_mode(mode != 0);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetFiniteRotationMode(b: dBodyID) -> c_int {
    call("dBodyGetFiniteRotationMode", 0, |cx| Some(body(cx, b)?.get().finite_rotation_mode() as c_int))
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetFiniteRotationAxis(b: dBodyID, x: dReal, y: dReal, z: dReal) {
    call("dBodySetFiniteRotationAxis", (), |cx| {
        let b = body(cx, b)?;
        let a = cx.vec3(&["x", "y", "z"], x, y, z)?;
        // Zero clears the axis; any other axis ODE normalises, giving NaN
        // for one too small to normalise (see vec::normalizable3).
        cx.require(
            a == [0.0; 3] || crate::math::vec::normalizable3(&a),
            format_args!("the axis ({x:?}, {y:?}, {z:?}) is too small to normalise (ODE gives NaN)"),
        )?;
        b.get_mut().set_finite_rotation_axis(a);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetFiniteRotationAxis(b: dBodyID, result: *mut dReal) {
    call("dBodyGetFiniteRotationAxis", (), |cx| {
        let b = body(cx, b)?;
        let out = cx.ptr_mut("result", result)?;
        let a = &b.get().finite_rot_axis;
        out3(out, [a[0], a[1], a[2]]);
        Some(())
    })
}

// ---- joints and geoms ------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn dBodyGetNumJoints(b: dBodyID) -> c_int {
    call("dBodyGetNumJoints", 0, |cx| Some(body(cx, b)?.get().num_joints() as c_int))
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetJoint(b: dBodyID, index: c_int) -> dJointID {
    call("dBodyGetJoint", std::ptr::null_mut(), |cx| {
        let b = body(cx, b)?;
        let n = b.get().num_joints();
        cx.require(
            index >= 0 && (index as usize) < n,
            format_args!("argument 'index' = {index} is out of range (the body has {n} joints)"),
        )?;
        b.get().joint(index as usize)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetFirstGeom(b: dBodyID) -> dGeomID {
    call("dBodyGetFirstGeom", std::ptr::null_mut(), |cx| Some(body(cx, b)?.get().first_geom()))
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetNextGeom(g: dGeomID) -> dGeomID {
    call("dBodyGetNextGeom", std::ptr::null_mut(), |cx| {
        let h = super::collision::geom_arg(cx, g, "g")?;
        Some(crate::collision::geom::body_next(h).map_or(std::ptr::null_mut(), |n| n.as_raw()))
    })
}

// ---- enabling, gravity, gyroscopic term ------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn dBodyEnable(b: dBodyID) {
    call("dBodyEnable", (), |cx| {
        body(cx, b)?.get_mut().enable();
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyDisable(b: dBodyID) {
    call("dBodyDisable", (), |cx| {
        body(cx, b)?.get_mut().disable();
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyIsEnabled(b: dBodyID) -> c_int {
    call("dBodyIsEnabled", 0, |cx| Some(body(cx, b)?.get().is_enabled() as c_int))
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetGravityMode(b: dBodyID, mode: c_int) {
    call("dBodySetGravityMode", (), |cx| {
        body(cx, b)?.get_mut().set_gravity_mode(mode != 0);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetGravityMode(b: dBodyID) -> c_int {
    call("dBodyGetGravityMode", 0, |cx| Some(body(cx, b)?.get().gravity_mode() as c_int))
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetGyroscopicMode(b: dBodyID, enabled: c_int) {
    call("dBodySetGyroscopicMode", (), |cx| {
        body(cx, b)?.get_mut().set_gyroscopic_mode(enabled != 0);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetGyroscopicMode(b: dBodyID) -> c_int {
    call("dBodyGetGyroscopicMode", 0, |cx| Some(body(cx, b)?.get().gyroscopic_bits() as c_int))
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetMovedCallback(b: dBodyID, callback: Option<unsafe extern "C" fn(dBodyID)>) {
    call("dBodySetMovedCallback", (), |cx| {
        body(cx, b)?.get_mut().moved_callback = callback;
        Some(())
    })
}

// ---- auto-disable -------------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn dBodyGetAutoDisableLinearThreshold(b: dBodyID) -> dReal {
    call("dBodyGetAutoDisableLinearThreshold", 0.0, |cx| Some(body(cx, b)?.get().adis.linear_average_threshold.sqrt()))
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetAutoDisableLinearThreshold(b: dBodyID, linear_average_threshold: dReal) {
    call("dBodySetAutoDisableLinearThreshold", (), |cx| {
        let b = body(cx, b)?;
        let t = linear_average_threshold;
        cx.not_nan("linear_average_threshold", t)?;
        b.get_mut().adis.linear_average_threshold = t * t;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetAutoDisableAngularThreshold(b: dBodyID) -> dReal {
    call("dBodyGetAutoDisableAngularThreshold", 0.0, |cx| {
        Some(body(cx, b)?.get().adis.angular_average_threshold.sqrt())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetAutoDisableAngularThreshold(b: dBodyID, angular_average_threshold: dReal) {
    call("dBodySetAutoDisableAngularThreshold", (), |cx| {
        let b = body(cx, b)?;
        let t = angular_average_threshold;
        cx.not_nan("angular_average_threshold", t)?;
        b.get_mut().adis.angular_average_threshold = t * t;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetAutoDisableAverageSamplesCount(b: dBodyID) -> c_int {
    call("dBodyGetAutoDisableAverageSamplesCount", 0, |cx| Some(body(cx, b)?.get().adis.average_samples as c_int))
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetAutoDisableAverageSamplesCount(b: dBodyID, average_samples_count: c_uint) {
    call("dBodySetAutoDisableAverageSamplesCount", (), |cx| {
        let b = body(cx, b)?;
        let n = average_samples_count;
        accept(cx, "average_samples_count", Body::check_average_samples(n))?;
        b.get_mut().set_average_samples(n);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetAutoDisableSteps(b: dBodyID) -> c_int {
    call("dBodyGetAutoDisableSteps", 0, |cx| Some(body(cx, b)?.get().adis.idle_steps))
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetAutoDisableSteps(b: dBodyID, steps: c_int) {
    call("dBodySetAutoDisableSteps", (), |cx| {
        let b = body(cx, b)?;
        b.get_mut().adis.idle_steps = steps;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetAutoDisableTime(b: dBodyID) -> dReal {
    call("dBodyGetAutoDisableTime", 0.0, |cx| Some(body(cx, b)?.get().adis.idle_time))
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetAutoDisableTime(b: dBodyID, time: dReal) {
    call("dBodySetAutoDisableTime", (), |cx| {
        let b = body(cx, b)?;
        cx.not_nan("time", time)?;
        b.get_mut().adis.idle_time = time;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetAutoDisableFlag(b: dBodyID) -> c_int {
    call("dBodyGetAutoDisableFlag", 0, |cx| Some(body(cx, b)?.get().auto_disable_flag() as c_int))
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetAutoDisableFlag(b: dBodyID, do_auto_disable: c_int) {
    call("dBodySetAutoDisableFlag", (), |cx| {
        let b = body(cx, b)?;
        let w = b.get().world;
        b.get_mut().set_auto_disable_flag(do_auto_disable != 0, w.get());
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetAutoDisableDefaults(b: dBodyID) {
    call("dBodySetAutoDisableDefaults", (), |cx| {
        let b = body(cx, b)?;
        let w = b.get().world;
        b.get_mut().set_auto_disable_defaults(w.get());
        Some(())
    })
}

// ---- damping ----------------------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn dBodySetDampingDefaults(b: dBodyID) {
    call("dBodySetDampingDefaults", (), |cx| {
        let b = body(cx, b)?;
        let w = b.get().world;
        b.get_mut().set_damping_defaults(w.get());
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetLinearDamping(b: dBodyID) -> dReal {
    call("dBodyGetLinearDamping", 0.0, |cx| Some(body(cx, b)?.get().dampingp.linear_scale))
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetLinearDamping(b: dBodyID, scale: dReal) {
    call("dBodySetLinearDamping", (), |cx| {
        let b = body(cx, b)?;
        cx.finite("scale", scale)?;
        b.get_mut().set_linear_damping(scale);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetAngularDamping(b: dBodyID) -> dReal {
    call("dBodyGetAngularDamping", 0.0, |cx| Some(body(cx, b)?.get().dampingp.angular_scale))
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetAngularDamping(b: dBodyID, scale: dReal) {
    call("dBodySetAngularDamping", (), |cx| {
        let b = body(cx, b)?;
        cx.finite("scale", scale)?;
        b.get_mut().set_angular_damping(scale);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetDamping(b: dBodyID, linear_scale: dReal, angular_scale: dReal) {
    call("dBodySetDamping", (), |cx| {
        let b = body(cx, b)?;
        cx.finite("linear_scale", linear_scale)?;
        cx.finite("angular_scale", angular_scale)?;
        let bm = b.get_mut();
        bm.set_linear_damping(linear_scale);
        bm.set_angular_damping(angular_scale);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetLinearDampingThreshold(b: dBodyID) -> dReal {
    call("dBodyGetLinearDampingThreshold", 0.0, |cx| Some(body(cx, b)?.get().dampingp.linear_threshold.sqrt()))
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetLinearDampingThreshold(b: dBodyID, threshold: dReal) {
    call("dBodySetLinearDampingThreshold", (), |cx| {
        let b = body(cx, b)?;
        cx.not_nan("threshold", threshold)?;
        b.get_mut().dampingp.linear_threshold = threshold * threshold;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetAngularDampingThreshold(b: dBodyID) -> dReal {
    call("dBodyGetAngularDampingThreshold", 0.0, |cx| Some(body(cx, b)?.get().dampingp.angular_threshold.sqrt()))
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetAngularDampingThreshold(b: dBodyID, threshold: dReal) {
    call("dBodySetAngularDampingThreshold", (), |cx| {
        let b = body(cx, b)?;
        cx.not_nan("threshold", threshold)?;
        b.get_mut().dampingp.angular_threshold = threshold * threshold;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBodyGetMaxAngularSpeed(b: dBodyID) -> dReal {
    call("dBodyGetMaxAngularSpeed", 0.0, |cx| Some(body(cx, b)?.get().max_angular_speed))
}

#[no_mangle]
pub unsafe extern "C" fn dBodySetMaxAngularSpeed(b: dBodyID, max_speed: dReal) {
    call("dBodySetMaxAngularSpeed", (), |cx| {
        let b = body(cx, b)?;
        cx.not_nan("max_speed", max_speed)?;
        b.get_mut().set_max_angular_speed(max_speed);
        Some(())
    })
}
