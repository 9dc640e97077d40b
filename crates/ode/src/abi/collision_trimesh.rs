//! collision_trimesh.h: triangle mesh data flags and preprocessing options.
#![allow(non_camel_case_types, non_upper_case_globals)]

use std::ffi::c_int;

/// Handle of triangle mesh data (the pooled cell address).
pub type dTriMeshDataID = *mut std::ffi::c_void;

/// Vertex positions within a triangle.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum dMeshTriangleVertex {
    dMTV_FIRST = 0,
    dMTV_SECOND = 1,
    dMTV_THIRD = 2,
    dMTV__MAX = 3,
}
pub const dMTV__MIN: dMeshTriangleVertex = dMeshTriangleVertex::dMTV_FIRST;

// Data ids of dGeomTriMeshDataSet/Get.
pub const dTRIMESHDATA__MIN: c_int = 0;
pub const dTRIMESHDATA_FACE_NORMALS: c_int = 0;
pub const dTRIMESHDATA_USE_FLAGS: c_int = 1;
pub const dTRIMESHDATA__MAX: c_int = 2;

// Per-triangle flags: which edges and vertices the triangle owns.
pub const dMESHDATAUSE_EDGE1: c_int = 0x01;
pub const dMESHDATAUSE_EDGE2: c_int = 0x02;
pub const dMESHDATAUSE_EDGE3: c_int = 0x04;
pub const dMESHDATAUSE_VERTEX1: c_int = 0x08;
pub const dMESHDATAUSE_VERTEX2: c_int = 0x10;
pub const dMESHDATAUSE_VERTEX3: c_int = 0x20;

// Preprocessing steps of dGeomTriMeshDataPreprocess2.
pub const dTRIDATAPREPROCESS_BUILD__MIN: c_int = 0;
pub const dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES: c_int = 0;
pub const dTRIDATAPREPROCESS_BUILD_FACE_ANGLES: c_int = 1;
pub const dTRIDATAPREPROCESS_BUILD__MAX: c_int = 2;

// Storage formats of the face angles step.
pub const dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA__MIN: c_int = 0;
pub const dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA_BYTE_POSITIVE: c_int = 0;
pub const dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA_BYTE_ALL: c_int = 1;
pub const dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA_WORD_ALL: c_int = 2;
pub const dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA__MAX: c_int = 3;
pub const dTRIDATAPREPROCESS_FACE_ANGLES_EXTRA__DEFAULT: c_int = 0;
