//! contact.h: surface parameter mode bits and the contact records passed
//! between collision detection and contact joints.
#![allow(non_upper_case_globals, non_snake_case)]

use crate::abi::types::{dGeomID, dReal, dVector3};
use std::ffi::c_int;

// Bits of dSurfaceParameters::mode: which optional fields are in use.
pub const dContactMu2: c_int = 0x001;
pub const dContactAxisDep: c_int = 0x001;
pub const dContactFDir1: c_int = 0x002;
pub const dContactBounce: c_int = 0x004;
pub const dContactSoftERP: c_int = 0x008;
pub const dContactSoftCFM: c_int = 0x010;
pub const dContactMotion1: c_int = 0x020;
pub const dContactMotion2: c_int = 0x040;
pub const dContactMotionN: c_int = 0x080;
pub const dContactSlip1: c_int = 0x100;
pub const dContactSlip2: c_int = 0x200;
pub const dContactRolling: c_int = 0x400;
// Friction pyramid approximation selectors.
pub const dContactApprox0: c_int = 0x0000;
pub const dContactApprox1_1: c_int = 0x1000;
pub const dContactApprox1_2: c_int = 0x2000;
pub const dContactApprox1_N: c_int = 0x4000;
pub const dContactApprox1: c_int = 0x7000;

/// Friction, restitution and softness of one contact.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct dSurfaceParameters {
    pub mode: c_int,
    pub mu: dReal,
    pub mu2: dReal,
    pub rho: dReal,
    pub rho2: dReal,
    pub rhoN: dReal,
    pub bounce: dReal,
    pub bounce_vel: dReal,
    pub soft_erp: dReal,
    pub soft_cfm: dReal,
    pub motion1: dReal,
    pub motion2: dReal,
    pub motionN: dReal,
    pub slip1: dReal,
    pub slip2: dReal,
}

/// One contact point found by collision detection.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct dContactGeom {
    pub pos: dVector3,
    pub normal: dVector3,
    pub depth: dReal,
    pub g1: dGeomID,
    pub g2: dGeomID,
    pub side1: c_int,
    pub side2: c_int,
}

/// Everything a contact joint needs: surface, geometry and friction direction.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct dContact {
    pub surface: dSurfaceParameters,
    pub geom: dContactGeom,
    pub fdir1: dVector3,
}
