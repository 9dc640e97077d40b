//! mass.h: the C layout of dMass. The header spells the struct by hand
//! (C++ gives it member functions); this mirror lets Rust code and the ABI
//! test check that the safe core's mass record has the same layout.
#![allow(non_camel_case_types, non_snake_case)]

use crate::ffi::types::{dMatrix3, dReal, dVector3};

/// Total mass, centre of gravity and inertia tensor about it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct dMass {
    pub mass: dReal,
    pub c: dVector3,
    pub I: dMatrix3,
}
