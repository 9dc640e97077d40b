//! collision.h: geom class numbers, collider control codes and the record
//! describing a user-defined geom class.
#![allow(non_camel_case_types, non_upper_case_globals)]

use super::contact::dContactGeom;
use crate::abi::types::{dGeomID, dReal};
use std::ffi::c_int;

/// Handle of heightfield sample data (the pooled cell address).
pub type dHeightfieldDataID = *mut std::ffi::c_void;

// Control classes and codes of dGeomLowLevelControl.
pub const dGeomCommonControlClass: c_int = 0;
pub const dGeomColliderControlClass: c_int = 1;
pub const dGeomCommonAnyControlCode: c_int = 0;
pub const dGeomColliderSetMergeSphereContactsControlCode: c_int = 1;
pub const dGeomColliderGetMergeSphereContactsControlCode: c_int = 2;
pub const dGeomColliderMergeContactsValue__Default: c_int = 0;
pub const dGeomColliderMergeContactsValue_None: c_int = 1;
pub const dGeomColliderMergeContactsValue_Normals: c_int = 2;
pub const dGeomColliderMergeContactsValue_Full: c_int = 3;

/// Flag OR-ed into dCollide's `flags`: the caller does not need the
/// deepest contacts, any will do. Unsigned, as the C literal 0x80000000.
pub const CONTACTS_UNIMPORTANT: u32 = 0x80000000u32;

/// Number of slots for classes created with dCreateGeomClass.
pub const dMaxUserClasses: c_int = 4;

// Geom class numbers (dGeomGetClass).
pub const dSphereClass: c_int = 0;
pub const dBoxClass: c_int = 1;
pub const dCapsuleClass: c_int = 2;
pub const dCylinderClass: c_int = 3;
pub const dPlaneClass: c_int = 4;
pub const dRayClass: c_int = 5;
pub const dConvexClass: c_int = 6;
pub const dGeomTransformClass: c_int = 7;
pub const dTriMeshClass: c_int = 8;
pub const dHeightfieldClass: c_int = 9;
pub const dFirstSpaceClass: c_int = 10;
pub const dSimpleSpaceClass: c_int = 10;
pub const dHashSpaceClass: c_int = 11;
pub const dSweepAndPruneSpaceClass: c_int = 12;
pub const dQuadTreeSpaceClass: c_int = 13;
pub const dLastSpaceClass: c_int = 13;
pub const dFirstUserClass: c_int = 14;
pub const dLastUserClass: c_int = 17;
pub const dGeomNumClasses: c_int = 18;

/// Collider between a user class and another class (dColliderFn in C).
pub type dColliderFn =
    unsafe extern "C" fn(o1: dGeomID, o2: dGeomID, flags: c_int, contact: *mut dContactGeom, skip: c_int) -> c_int;

/// Description of a user geom class, passed to dCreateGeomClass. The
/// function fields are written out (not through the C typedef names) so
/// cbindgen can emit them; the C types are the same.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dGeomClass {
    pub bytes: c_int,
    pub collider: Option<
        unsafe extern "C" fn(
            num: c_int,
        ) -> Option<
            unsafe extern "C" fn(
                o1: dGeomID,
                o2: dGeomID,
                flags: c_int,
                contact: *mut dContactGeom,
                skip: c_int,
            ) -> c_int,
        >,
    >,
    pub aabb: Option<unsafe extern "C" fn(g: dGeomID, aabb: *mut dReal)>,
    pub aabb_test: Option<unsafe extern "C" fn(o1: dGeomID, o2: dGeomID, aabb: *mut dReal) -> c_int>,
    pub dtor: Option<unsafe extern "C" fn(o: dGeomID)>,
}
