//! `dJointCreateNull` (objects.h), and the helpers the per-type joint files
//! (`objects_ball.rs`, `objects_hinge.rs`, …) share: creation in a world
//! and optional group, typed joint lookup and body pushes.
//!
//! Where ODE asserts on a joint of the wrong type, we report and ignore.

use super::types::*;
use super::{call, Cx};
use crate::dynamics::world::{World, WORLDS};
use crate::joints::null::Null;
use crate::joints::object::create_joint_with;
use crate::joints::{Joint, JointKind, JOINTS, JOINT_GROUPS};

/// Validates world and (optional) group and creates a joint of the kind
/// `make` builds from the world's current defaults.
pub(crate) fn create(
    cx: &Cx,
    w: dWorldID,
    g: dJointGroupID,
    make: impl FnOnce(&World) -> JointKind,
) -> Option<dJointID> {
    let w = cx.handle(&WORLDS, w, "w", "world")?;
    let g = cx.opt_handle(&JOINT_GROUPS, g, "g", "joint group")?;
    Some(create_joint_with(w, g, || make(w.get())).as_raw())
}

/// Name of a joint type for messages.
pub(crate) fn kind_name(k: &JointKind) -> &'static str {
    match k {
        JointKind::Null(_) => "null joint",
        JointKind::Ball(_) => "ball joint",
        JointKind::Hinge(_) => "hinge joint",
        JointKind::Slider(_) => "slider joint",
        JointKind::Fixed(_) => "fixed joint",
        JointKind::Contact(_) => "contact joint",
        JointKind::Universal(_) => "universal joint",
        JointKind::Hinge2(_) => "hinge2 joint",
        JointKind::Pr(_) => "PR joint",
        JointKind::Pu(_) => "PU joint",
        JointKind::Piston(_) => "piston joint",
        JointKind::AMotor(_) => "angular motor joint",
        JointKind::LMotor(_) => "linear motor joint",
        JointKind::Plane2D(_) => "plane-2D joint",
        JointKind::DBall(_) => "double ball joint",
        JointKind::DHinge(_) => "double hinge joint",
        JointKind::Transmission(_) => "transmission joint",
        JointKind::Custom(_) => "custom joint",
    }
}

/// Validates the joint handle argument `j`.
pub(crate) fn joint<'a>(cx: &Cx, j: dJointID) -> Option<&'a mut Joint> {
    Some(cx.handle(&JOINTS, j, "j", "joint")?.get_mut())
}

/// Parameter numbers: ODE sets nothing for a number its joint does not use
/// and reads 0 for it. A number that is none of ODE's `dParam*` names
/// (`Param::decode`) and that the joint's own decoding does not use either
/// (`used`; some joints mask the group bits) is certainly a mistake, such
/// as 14, 0xff, -1 or 0x300: it is reported, and the call then does what
/// ODE does, nothing (a getter returns 0). Names of parameters the joint
/// lacks (dParamLoStop2 of a hinge) stay silent, as in ODE.
pub(crate) fn known_param(cx: &Cx, parameter: std::ffi::c_int, used: bool) -> Option<()> {
    if used || crate::joints::limit_motor::Param::decode(parameter).is_some() {
        return Some(());
    }
    cx.fail(format_args!(
        "argument 'parameter' = {parameter} ({parameter:#x}) is not a joint parameter (dParam*): nothing set or read"
    ))
}

/// Reports a joint of the wrong type.
pub(crate) fn wrong_type<T>(cx: &Cx, k: &JointKind, want: &str) -> Option<T> {
    cx.fail(format_args!("argument 'j' is a {}, not a {want}", kind_name(k)))
}

#[no_mangle]
pub unsafe extern "C" fn dJointCreateNull(w: dWorldID, g: dJointGroupID) -> dJointID {
    call("dJointCreateNull", std::ptr::null_mut(), |cx| create(cx, w, g, |_| JointKind::Null(Null)))
}
