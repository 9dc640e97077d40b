//! The joint-generic functions of ODE's objects.h: joint groups,
//! destruction, attachment, enabling, user data, type, bodies, feedback and
//! connectivity queries, plus `dJointCreateNull` (the joint with no rows).
//! Type-specific creation and parameters live in `objects_<type>.rs`.
//!
//! Beyond ODE's own assertions (attaching a body to itself, bodies of
//! another world, one body on a two-body joint, NULL handles), destroyed
//! and wrong-kind handles, NULL out-pointers and out-of-range body indices
//! are reported and the call has no effect.

use super::decl::common::{dJointFeedback, dJointType};
use super::types::*;
use super::{call, Cx};
use crate::dynamics::body::{BodyRef, BODIES};
use crate::joints::object as jo;
use crate::joints::{flags, JointGroupRef, JointRef, JOINTS, JOINT_GROUPS};
use std::ffi::{c_int, c_void};

/// Validates the joint argument `j`.
#[inline]
fn joint(cx: &Cx, j: dJointID) -> Option<JointRef> {
    cx.handle(&JOINTS, j, "j", "joint")
}

#[inline]
fn group(cx: &Cx, g: dJointGroupID, arg: &str) -> Option<JointGroupRef> {
    cx.handle(&JOINT_GROUPS, g, arg, "joint group")
}

#[inline]
fn opt_body(cx: &Cx, b: dBodyID, arg: &str) -> Option<Option<BodyRef>> {
    cx.opt_handle(&BODIES, b, arg, "body")
}

// ---- creation and destruction --------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn dJointDestroy(j: dJointID) {
    call("dJointDestroy", (), |cx| {
        jo::destroy_joint(joint(cx, j)?);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGroupCreate(max_size: c_int) -> dJointGroupID {
    // ODE ignores the size: groups grow as needed.
    let _ = max_size;
    call("dJointGroupCreate", std::ptr::null_mut(), |_cx| Some(jo::create_group().as_raw()))
}

#[no_mangle]
pub unsafe extern "C" fn dJointGroupDestroy(g: dJointGroupID) {
    call("dJointGroupDestroy", (), |cx| {
        jo::destroy_group(group(cx, g, "g")?);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGroupEmpty(g: dJointGroupID) {
    call("dJointGroupEmpty", (), |cx| {
        jo::empty_group(group(cx, g, "g")?);
        Some(())
    })
}

// ---- attachment ---------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn dJointGetNumBodies(j: dJointID) -> c_int {
    call("dJointGetNumBodies", 0, |cx| Some(jo::num_bodies(joint(cx, j)?)))
}

#[no_mangle]
pub unsafe extern "C" fn dJointAttach(j: dJointID, body1: dBodyID, body2: dBodyID) {
    call("dJointAttach", (), |cx| {
        let j = joint(cx, j)?;
        let b1 = opt_body(cx, body1, "body1")?;
        let b2 = opt_body(cx, body2, "body2")?;
        if let Err(e) = jo::check_and_attach(j, b1, b2) {
            return cx.fail(format_args!("{e}"));
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetBody(j: dJointID, index: c_int) -> dBodyID {
    call("dJointGetBody", std::ptr::null_mut(), |cx| {
        let j = joint(cx, j)?;
        cx.require(index == 0 || index == 1, format_args!("argument 'index' = {index} is out of range (0 or 1)"))?;
        Some(jo::get_body(j, index).map_or(std::ptr::null_mut(), |b| b.as_raw()))
    })
}

// ---- state ----------------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn dJointEnable(j: dJointID) {
    call("dJointEnable", (), |cx| {
        joint(cx, j)?.get_mut().head.flags &= !flags::DISABLED;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointDisable(j: dJointID) {
    call("dJointDisable", (), |cx| {
        joint(cx, j)?.get_mut().head.flags |= flags::DISABLED;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointIsEnabled(j: dJointID) -> c_int {
    call("dJointIsEnabled", 0, |cx| Some((joint(cx, j)?.get().head.flags & flags::DISABLED == 0) as c_int))
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetData(j: dJointID, data: *mut c_void) {
    call("dJointSetData", (), |cx| {
        joint(cx, j)?.get_mut().head.data = data;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetData(j: dJointID) -> *mut c_void {
    call("dJointGetData", std::ptr::null_mut(), |cx| Some(joint(cx, j)?.get().head.data))
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetType(j: dJointID) -> c_int {
    // ODE's dJointType values, or odexJointTypeCustom (ode_ext.h), which
    // no Rust enum of dJointType may hold: the C prototype returning
    // dJointType is written in include-src/objects.h.in (same ABI).
    call("dJointGetType", dJointType::dJointTypeNone as c_int, |cx| Some(joint(cx, j)?.get().kind.type_code()))
}

#[no_mangle]
pub unsafe extern "C" fn dJointSetFeedback(j: dJointID, f: *mut dJointFeedback) {
    call("dJointSetFeedback", (), |cx| {
        joint(cx, j)?.get_mut().head.feedback = f;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dJointGetFeedback(j: dJointID) -> *mut dJointFeedback {
    call("dJointGetFeedback", std::ptr::null_mut(), |cx| Some(joint(cx, j)?.get().head.feedback))
}

// ---- connectivity ------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn dConnectingJoint(b1: dBodyID, b2: dBodyID) -> dJointID {
    call("dConnectingJoint", std::ptr::null_mut(), |cx| {
        let x = opt_body(cx, b1, "b1")?;
        let y = opt_body(cx, b2, "b2")?;
        cx.require(
            x.is_some() || y.is_some(),
            format_args!("arguments 'b1' and 'b2' are both NULL (at least one body needed)"),
        )?;
        Some(jo::connecting_joint(x, y).map_or(std::ptr::null_mut(), |j| j.as_raw()))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dConnectingJointList(b1: dBodyID, b2: dBodyID, out: *mut dJointID) -> c_int {
    call("dConnectingJointList", 0, |cx| {
        let x = opt_body(cx, b1, "b1")?;
        let y = opt_body(cx, b2, "b2")?;
        cx.require(
            x.is_some() || y.is_some(),
            format_args!("arguments 'b1' and 'b2' are both NULL (at least one body needed)"),
        )?;
        let out = cx.ptr_mut("out", out)?;
        let mut n = 0usize;
        jo::for_each_connecting(x, y, None, |j| {
            // SAFETY: the caller provides room for every connecting joint,
            // as ODE requires.
            unsafe { *out.add(n) = j.as_raw() };
            n += 1;
            true
        });
        Some(n as c_int)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dAreConnected(b1: dBodyID, b2: dBodyID) -> c_int {
    call("dAreConnected", 0, |cx| {
        let x = cx.handle(&BODIES, b1, "b1", "body")?;
        let y = opt_body(cx, b2, "b2")?;
        Some(jo::are_connected(x, y, None) as c_int)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dAreConnectedExcluding(b1: dBodyID, b2: dBodyID, joint_type: c_int) -> c_int {
    call("dAreConnectedExcluding", 0, |cx| {
        let x = cx.handle(&BODIES, b1, "b1", "body")?;
        let y = opt_body(cx, b2, "b2")?;
        Some(jo::are_connected(x, y, Some(joint_type)) as c_int)
    })
}

/// An anchor setter carried out on a copy of the joint model. ODE stores an
/// anchor in its body's frame, Rᵀ(p − body position); with the body far out
/// (near ±1.8e308) that overflows, and ODE keeps the inf, which its getters
/// and next step turn into NaN. Such a call is refused and changes nothing.
/// A stored anchor beyond `HUGE_INPUT`, which the getters do not show while
/// the body stays where it is, is accepted with the usual warning.
pub(crate) fn try_anchor_set<T: Clone>(
    cx: &Cx,
    model: &mut T,
    stored: impl Fn(&T) -> [[dReal; 3]; 2],
    set: impl FnOnce(&mut T),
) -> Option<()> {
    let mut trial = model.clone();
    set(&mut trial);
    let a = stored(&trial);
    let all = [a[0][0], a[0][1], a[0][2], a[1][0], a[1][1], a[1][2]];
    if let Some(v) = all.iter().find(|v| !v.is_finite()) {
        return cx.fail(format_args!(
            "the anchor in its body's frame (what ODE stores) would be {v}: the body is too far out; ODE would keep it and give NaN"
        ));
    }
    cx.warn_huge_array("anchor in its body's frame", &all);
    *model = trial;
    Some(())
}

/// Adds a joint's direct forces and torques (dJointAdd*Force/Torque) to
/// its bodies, or refuses all of them when a finite accumulator would
/// become infinite or NaN, as dBodyAddForce does: ODE stores the overflow,
/// and the next step turns the bodies NaN.
pub(crate) fn push_bodies(
    cx: &Cx,
    head: &crate::joints::JointHead,
    push: crate::joints::limit_motor::BodyPush,
) -> Option<()> {
    if push.apply_checked(head) {
        return Some(());
    }
    cx.fail(format_args!("the force or torque overflows a body's accumulators (beyond the double range)"))
}
