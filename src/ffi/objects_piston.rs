//! The piston joint functions of objects.h.
//!
//! A zero axis is refused when the joint is attached (ODE aborts on it).
//! The position rate and `dJointSetPistonAxisDelta` need an attached joint
//! (ODE crashes otherwise).

use super::objects_joint::try_anchor_set;
use super::objects_null::{create, joint, known_param, wrong_type};
use super::objects_universal::{attached, axis, vec3, write_opt};
use super::types::*;
use super::{call, Cx};
use crate::error;
use crate::joints::ball::bodies_of;
use crate::joints::piston::{shifted, shifted_back, Piston};
use crate::joints::universal::two_axis_param;
use crate::joints::{flags, JointHead, JointKind};
use std::ffi::c_int;

fn piston<'a>(cx: &Cx, j: dJointID) -> Option<(&'a JointHead, &'a mut Piston)> {
    let jt = joint(cx, j)?;
    match &mut jt.kind {
        JointKind::Piston(p) => Some((&jt.head, p)),
        k => wrong_type(cx, k, "piston joint"),
    }
}

#[no_mangle]
pub unsafe extern "C" fn dJointCreatePiston(w: dWorldID, g: dJointGroupID) -> dJointID {
    call("dJointCreatePiston", std::ptr::null_mut(), |cx| {
        create(cx, w, g, |w| JointKind::Piston(Box::new(Piston::new(w))))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetPistonAnchor(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetPistonAnchor", (), |cx| {
        let (head, p) = piston(cx, j)?;
        let a = vec3(cx, &["x", "y", "z"], x, y, z)?;
        try_anchor_set(cx, p, |m| [m.anchor1, m.anchor2], |m| m.set_anchor_at(bodies_of(head), a, None))
    })
}

/// The anchor is set as if body 1 were displaced by −(dx, dy, dz) (the
/// opposite with REVERSE), so that the position reads the displacement
/// along the axis. Body 1 ends where ODE leaves it after moving it there
/// and back (the same place up to rounding).
#[no_mangle]
pub unsafe extern "C" fn dJointSetPistonAnchorOffset(
    j: dJointID,
    x: dReal,
    y: dReal,
    z: dReal,
    dx: dReal,
    dy: dReal,
    dz: dReal,
) {
    call("dJointSetPistonAnchorOffset", (), |cx| {
        let (head, p) = piston(cx, j)?;
        let a = vec3(cx, &["x", "y", "z"], x, y, z)?;
        let mut d = vec3(cx, &["dx", "dy", "dz"], dx, dy, dz)?;
        if head.flags & flags::REVERSE == 0 {
            d = [-d[0], -d[1], -d[2]];
        }
        let b = bodies_of(head);
        let pos0 = b.b1.map(|b0| shifted(&b0.pos, d));
        try_anchor_set(cx, p, |m| [m.anchor1, m.anchor2], |m| m.set_anchor_at(b, a, pos0))?;
        if let Some(b0) = head.body[0] {
            let back = shifted_back(&b0.get().pos, d);
            b0.get_mut().pos[..3].copy_from_slice(&back);
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetPistonAxis(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetPistonAxis", (), |cx| {
        let (head, p) = piston(cx, j)?;
        let a = axis(cx, head, x, y, z)?;
        p.set_axis(bodies_of(head), a);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetPistonAxisDelta(
    j: dJointID,
    x: dReal,
    y: dReal,
    z: dReal,
    dx: dReal,
    dy: dReal,
    dz: dReal,
) {
    call("dJointSetPistonAxisDelta", (), |cx| {
        let (head, p) = piston(cx, j)?;
        attached(cx, head)?;
        let a = axis(cx, head, x, y, z)?;
        let d = vec3(cx, &["dx", "dy", "dz"], dx, dy, dz)?;
        p.set_axis_delta(bodies_of(head), a, d);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetPistonParam(j: dJointID, parameter: c_int, value: dReal) {
    call("dJointSetPistonParam", (), |cx| {
        let (_, p) = piston(cx, j)?;
        cx.not_nan("value", value)?;
        known_param(cx, parameter, two_axis_param(parameter).1.is_some())?;
        p.set_param(parameter, value);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPistonParam(j: dJointID, parameter: c_int) -> dReal {
    call("dJointGetPistonParam", 0.0, |cx| {
        let (_, p) = piston(cx, j)?;
        known_param(cx, parameter, two_axis_param(parameter).1.is_some())?;
        Some(p.param(parameter))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPistonAnchor(j: dJointID, result: *mut dReal) {
    call("dJointGetPistonAnchor", (), |cx| {
        let (head, p) = piston(cx, j)?;
        write_opt(cx, result, p.anchor(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPistonAnchor2(j: dJointID, result: *mut dReal) {
    call("dJointGetPistonAnchor2", (), |cx| {
        let (head, p) = piston(cx, j)?;
        write_opt(cx, result, p.anchor2(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPistonAxis(j: dJointID, result: *mut dReal) {
    call("dJointGetPistonAxis", (), |cx| {
        let (head, p) = piston(cx, j)?;
        write_opt(cx, result, p.axis(bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPistonPosition(j: dJointID) -> dReal {
    call("dJointGetPistonPosition", 0.0, |cx| {
        let (head, p) = piston(cx, j)?;
        if head.body[0].is_none() {
            // ODE's debug build says so on the message channel and reads 0.
            error::message(
                error::D_ERR_UASSERT,
                "dJointGetPistonPosition: the joint is not attached to any body; the position is 0",
            );
        }
        Some(p.position(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPistonPositionRate(j: dJointID) -> dReal {
    call("dJointGetPistonPositionRate", 0.0, |cx| {
        let (head, p) = piston(cx, j)?;
        attached(cx, head)?;
        p.position_rate(head, bodies_of(head))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPistonAngle(j: dJointID) -> dReal {
    call("dJointGetPistonAngle", 0.0, |cx| {
        let (head, p) = piston(cx, j)?;
        Some(p.angle(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPistonAngleRate(j: dJointID) -> dReal {
    call("dJointGetPistonAngleRate", 0.0, |cx| {
        let (head, p) = piston(cx, j)?;
        Some(p.angle_rate(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointAddPistonForce(j: dJointID, force: dReal) {
    call("dJointAddPistonForce", (), |cx| {
        let (head, p) = piston(cx, j)?;
        cx.finite("force", force)?;
        super::objects_joint::push_bodies(cx, head, p.force_push(head, bodies_of(head), force))
    })
}
