//! The prismatic-universal (PU) joint functions of objects.h.
//!
//! A zero axis is refused when the joint is attached (ODE aborts on it).
//! The position of an unattached joint is refused (ODE crashes).
//! `dJointAddPUTorque` is declared by ODE's header but not defined by ODE
//! 0.16.2; ours applies the torque about the joint's axis 1.

use super::objects_joint::try_anchor_set;
use super::objects_null::{create, joint, known_param, wrong_type};
use super::objects_universal::{attached, axis, vec3, write_opt};
use super::types::*;
use super::{call, Cx};
use crate::joints::ball::bodies_of;
use crate::joints::piston::{shifted, shifted_back};
use crate::joints::pu::Pu;
use crate::joints::{flags, JointHead, JointKind};
use std::ffi::c_int;

fn pu<'a>(cx: &Cx, j: dJointID) -> Option<(&'a JointHead, &'a mut Pu)> {
    let jt = joint(cx, j)?;
    match &mut jt.kind {
        JointKind::Pu(p) => Some((&jt.head, p)),
        k => wrong_type(cx, k, "PU joint"),
    }
}

/// Sets the anchor as if body 1 were moved by `s`, then leaves body 1
/// where ODE does after moving it there and back.
fn set_anchor_shifted(cx: &Cx, head: &JointHead, p: &mut Pu, a: [dReal; 3], s: [dReal; 3]) -> Option<()> {
    let b = bodies_of(head);
    let pos0 = b.b1.map(|b0| shifted(&b0.pos, s));
    try_anchor_set(cx, p, |m| [m.anchor1, m.anchor2], |m| m.set_anchor_at(b, a, pos0))?;
    if let Some(b0) = head.body[0] {
        let back = shifted_back(&b0.get().pos, s);
        b0.get_mut().pos[..3].copy_from_slice(&back);
    }
    Some(())
}

#[no_mangle]
pub unsafe extern "C" fn dJointCreatePU(w: dWorldID, g: dJointGroupID) -> dJointID {
    call("dJointCreatePU", std::ptr::null_mut(), |cx| create(cx, w, g, |w| JointKind::Pu(Box::new(Pu::new(w)))))
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetPUAnchor(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetPUAnchor", (), |cx| {
        let (head, p) = pu(cx, j)?;
        let a = vec3(cx, &["x", "y", "z"], x, y, z)?;
        try_anchor_set(cx, p, |m| [m.anchor1, m.anchor2], |m| m.set_anchor_at(bodies_of(head), a, None))
    })
}

/// The anchor is set as if body 1 were at its position + (dx, dy, dz).
#[no_mangle]
pub unsafe extern "C" fn dJointSetPUAnchorDelta(
    j: dJointID,
    x: dReal,
    y: dReal,
    z: dReal,
    dx: dReal,
    dy: dReal,
    dz: dReal,
) {
    call("dJointSetPUAnchorDelta", (), |cx| {
        let (head, p) = pu(cx, j)?;
        let a = vec3(cx, &["x", "y", "z"], x, y, z)?;
        let d = vec3(cx, &["dx", "dy", "dz"], dx, dy, dz)?;
        set_anchor_shifted(cx, head, p, a, d)
    })
}

/// The anchor is set as if body 1 were at its position − (dx, dy, dz)
/// (+ with REVERSE), so that the position reads the offset along the axis.
#[no_mangle]
pub unsafe extern "C" fn dJointSetPUAnchorOffset(
    j: dJointID,
    x: dReal,
    y: dReal,
    z: dReal,
    dx: dReal,
    dy: dReal,
    dz: dReal,
) {
    call("dJointSetPUAnchorOffset", (), |cx| {
        let (head, p) = pu(cx, j)?;
        let a = vec3(cx, &["x", "y", "z"], x, y, z)?;
        let mut d = vec3(cx, &["dx", "dy", "dz"], dx, dy, dz)?;
        if head.flags & flags::REVERSE == 0 {
            d = [-d[0], -d[1], -d[2]];
        }
        set_anchor_shifted(cx, head, p, a, d)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetPUAxis1(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetPUAxis1", (), |cx| {
        let (head, p) = pu(cx, j)?;
        let a = axis(cx, head, x, y, z)?;
        p.set_axis(head, bodies_of(head), true, a);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetPUAxis2(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetPUAxis2", (), |cx| {
        let (head, p) = pu(cx, j)?;
        let a = axis(cx, head, x, y, z)?;
        p.set_axis(head, bodies_of(head), false, a);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetPUAxis3(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetPUAxis3", (), |cx| {
        let (head, p) = pu(cx, j)?;
        let a = axis(cx, head, x, y, z)?;
        p.set_axis_p(bodies_of(head), a);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetPUAxisP(j: dJointID, x: dReal, y: dReal, z: dReal) {
    call("dJointSetPUAxisP", (), |cx| {
        let (head, p) = pu(cx, j)?;
        let a = axis(cx, head, x, y, z)?;
        p.set_axis_p(bodies_of(head), a);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetPUParam(j: dJointID, parameter: c_int, value: dReal) {
    call("dJointSetPUParam", (), |cx| {
        let (_, p) = pu(cx, j)?;
        cx.not_nan("value", value)?;
        known_param(cx, parameter, Pu::decode(parameter).is_some())?;
        p.set_param(parameter, value);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPUParam(j: dJointID, parameter: c_int) -> dReal {
    call("dJointGetPUParam", 0.0, |cx| {
        let (_, p) = pu(cx, j)?;
        known_param(cx, parameter, Pu::decode(parameter).is_some())?;
        Some(p.param(parameter))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPUAnchor(j: dJointID, result: *mut dReal) {
    call("dJointGetPUAnchor", (), |cx| {
        let (head, p) = pu(cx, j)?;
        write_opt(cx, result, Some(p.anchor(bodies_of(head))))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPUAxis1(j: dJointID, result: *mut dReal) {
    call("dJointGetPUAxis1", (), |cx| {
        let (head, p) = pu(cx, j)?;
        write_opt(cx, result, p.ax.user_axis1(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPUAxis2(j: dJointID, result: *mut dReal) {
    call("dJointGetPUAxis2", (), |cx| {
        let (head, p) = pu(cx, j)?;
        write_opt(cx, result, p.ax.user_axis2(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPUAxis3(j: dJointID, result: *mut dReal) {
    call("dJointGetPUAxis3", (), |cx| {
        let (head, p) = pu(cx, j)?;
        write_opt(cx, result, p.axis_p(bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPUAxisP(j: dJointID, result: *mut dReal) {
    call("dJointGetPUAxisP", (), |cx| {
        let (head, p) = pu(cx, j)?;
        write_opt(cx, result, p.axis_p(bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPUPosition(j: dJointID) -> dReal {
    call("dJointGetPUPosition", 0.0, |cx| {
        let (head, p) = pu(cx, j)?;
        attached(cx, head)?;
        p.position(head, bodies_of(head))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPUPositionRate(j: dJointID) -> dReal {
    call("dJointGetPUPositionRate", 0.0, |cx| {
        let (head, p) = pu(cx, j)?;
        Some(p.position_rate(head, bodies_of(head)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPUAngles(j: dJointID, angle1: *mut dReal, angle2: *mut dReal) {
    call("dJointGetPUAngles", (), |cx| {
        let (head, p) = pu(cx, j)?;
        let o1 = cx.ptr_mut("angle1", angle1)?;
        let o2 = cx.ptr_mut("angle2", angle2)?;
        let (a1, a2) = p.user_angles(head, bodies_of(head));
        *o1 = a1;
        *o2 = a2;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPUAngle1(j: dJointID) -> dReal {
    call("dJointGetPUAngle1", 0.0, |cx| {
        let (head, p) = pu(cx, j)?;
        Some(p.user_angle(head, bodies_of(head), true))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPUAngle2(j: dJointID) -> dReal {
    call("dJointGetPUAngle2", 0.0, |cx| {
        let (head, p) = pu(cx, j)?;
        Some(p.user_angle(head, bodies_of(head), false))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPUAngle1Rate(j: dJointID) -> dReal {
    call("dJointGetPUAngle1Rate", 0.0, |cx| {
        let (head, p) = pu(cx, j)?;
        Some(p.angle_rate(head, bodies_of(head), true))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetPUAngle2Rate(j: dJointID) -> dReal {
    call("dJointGetPUAngle2Rate", 0.0, |cx| {
        let (head, p) = pu(cx, j)?;
        Some(p.angle_rate(head, bodies_of(head), false))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointAddPUTorque(j: dJointID, torque: dReal) {
    call("dJointAddPUTorque", (), |cx| {
        let (head, p) = pu(cx, j)?;
        cx.finite("torque", torque)?;
        super::objects_joint::push_bodies(cx, head, p.torque_push(head, bodies_of(head), torque))
    })
}
