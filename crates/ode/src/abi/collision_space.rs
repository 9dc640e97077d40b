//! collision_space.h: axis orders of the sweep-and-prune space.
#![allow(non_camel_case_types, non_upper_case_globals, clippy::identity_op)]

use std::ffi::c_int;

// Axis order codes of dSweepAndPruneSpaceCreate: three 2-bit axis numbers,
// the first sorting axis in the lowest bits (spelled as ODE's header does,
// zero terms included, so the codes read against it: hence identity_op).
pub const dSAP_AXES_XYZ: c_int = 0 | (1 << 2) | (2 << 4);
pub const dSAP_AXES_XZY: c_int = 0 | (2 << 2) | (1 << 4);
pub const dSAP_AXES_YXZ: c_int = 1 | (0 << 2) | (2 << 4);
pub const dSAP_AXES_YZX: c_int = 1 | (2 << 2) | (0 << 4);
pub const dSAP_AXES_ZXY: c_int = 2 | (0 << 2) | (1 << 4);
pub const dSAP_AXES_ZYX: c_int = 2 | (1 << 2) | (0 << 4);

/// Callback of dSpaceCollide/dSpaceCollide2 (dNearCallback in C).
pub type dNearCallback =
    unsafe extern "C" fn(data: *mut std::ffi::c_void, o1: crate::abi::types::dGeomID, o2: crate::abi::types::dGeomID);
