//! C-visible scalar and handle types shared by all headers.
//! These are declared by hand in `include/ode/common.h` (cbindgen is told
//! to leave them out), so they only need to match its layout.
#![allow(non_camel_case_types)]

use std::ffi::c_void;

/// ODE's real type: this build is double precision, as Debian's libode8.
pub type dReal = f64;
pub type dVector3 = [dReal; 4];
pub type dVector4 = [dReal; 4];
pub type dMatrix3 = [dReal; 12];
pub type dMatrix4 = [dReal; 16];
pub type dMatrix6 = [dReal; 48];
pub type dQuaternion = [dReal; 4];

/// Opaque handles. They are the addresses of pooled cells (see `handle.rs`).
pub type dWorldID = *mut c_void;
pub type dSpaceID = *mut c_void;
pub type dBodyID = *mut c_void;
pub type dGeomID = *mut c_void;
pub type dJointID = *mut c_void;
pub type dJointGroupID = *mut c_void;
pub type dThreadingImplementationID = *mut c_void;
