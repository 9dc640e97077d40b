//! common.h: index enums of the vector/matrix layouts, joint type and
//! parameter numbers, error numbers and the joint feedback record.
//!
//! Enum aliases (several C enumerators sharing one value) are written as
//! typed consts next to their enum; build.rs turns them back into
//! enumerators of the C enum, since a Rust enum cannot repeat a value.
#![allow(non_camel_case_types, non_upper_case_globals)]

use crate::abi::types::dVector3;
use std::ffi::c_int;

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum dSpaceAxis {
    dSA_X = 0,
    dSA_Y = 1,
    dSA_Z = 2,
    dSA__MAX = 3,
}
pub const dSA__MIN: dSpaceAxis = dSpaceAxis::dSA_X;

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum dMotionDynamics {
    dMD_LINEAR = 0,
    dMD_ANGULAR = 1,
    dMD__MAX = 2,
}
pub const dMD__MIN: dMotionDynamics = dMotionDynamics::dMD_LINEAR;

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum dDynamicsAxis {
    dDA_LX = 0,
    dDA_LY = 1,
    dDA_LZ = 2,
    dDA_AX = 3,
    dDA_AY = 4,
    dDA_AZ = 5,
    dDA__A_MAX = 6,
}
pub const dDA__MIN: dDynamicsAxis = dDynamicsAxis::dDA_LX;
pub const dDA__L_MIN: dDynamicsAxis = dDynamicsAxis::dDA_LX;
pub const dDA__L_MAX: dDynamicsAxis = dDynamicsAxis::dDA_AX;
pub const dDA__A_MIN: dDynamicsAxis = dDynamicsAxis::dDA_AX;
pub const dDA__MAX: dDynamicsAxis = dDynamicsAxis::dDA__A_MAX;

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum dVec3Element {
    dV3E_X = 0,
    dV3E_Y = 1,
    dV3E_Z = 2,
    dV3E_PAD = 3,
    dV3E__MAX = 4,
}
pub const dV3E__MIN: dVec3Element = dVec3Element::dV3E_X;
pub const dV3E__AXES_MIN: dVec3Element = dVec3Element::dV3E_X;
pub const dV3E__AXES_MAX: dVec3Element = dVec3Element::dV3E_PAD;
pub const dV3E__AXES_COUNT: dVec3Element = dVec3Element::dV3E_PAD;

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum dVec4Element {
    dV4E_X = 0,
    dV4E_Y = 1,
    dV4E_Z = 2,
    dV4E_O = 3,
    dV4E__MAX = 4,
}
pub const dV4E__MIN: dVec4Element = dVec4Element::dV4E_X;

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum dMat3Element {
    dM3E_XX = 0,
    dM3E_XY = 1,
    dM3E_XZ = 2,
    dM3E_XPAD = 3,
    dM3E_YX = 4,
    dM3E_YY = 5,
    dM3E_YZ = 6,
    dM3E_YPAD = 7,
    dM3E_ZX = 8,
    dM3E_ZY = 9,
    dM3E_ZZ = 10,
    dM3E_ZPAD = 11,
    dM3E__Z_MAX = 12,
}
pub const dM3E__MIN: dMat3Element = dMat3Element::dM3E_XX;
pub const dM3E__X_MIN: dMat3Element = dMat3Element::dM3E_XX;
pub const dM3E__X_AXES_MIN: dMat3Element = dMat3Element::dM3E_XX;
pub const dM3E__X_AXES_MAX: dMat3Element = dMat3Element::dM3E_XPAD;
pub const dM3E__X_MAX: dMat3Element = dMat3Element::dM3E_YX;
pub const dM3E__Y_MIN: dMat3Element = dMat3Element::dM3E_YX;
pub const dM3E__Y_AXES_MIN: dMat3Element = dMat3Element::dM3E_YX;
pub const dM3E__Y_AXES_MAX: dMat3Element = dMat3Element::dM3E_YPAD;
pub const dM3E__Y_MAX: dMat3Element = dMat3Element::dM3E_ZX;
pub const dM3E__Z_MIN: dMat3Element = dMat3Element::dM3E_ZX;
pub const dM3E__Z_AXES_MIN: dMat3Element = dMat3Element::dM3E_ZX;
pub const dM3E__Z_AXES_MAX: dMat3Element = dMat3Element::dM3E_ZPAD;
pub const dM3E__MAX: dMat3Element = dMat3Element::dM3E__Z_MAX;

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum dMat4Element {
    dM4E_XX = 0,
    dM4E_XY = 1,
    dM4E_XZ = 2,
    dM4E_XO = 3,
    dM4E_YX = 4,
    dM4E_YY = 5,
    dM4E_YZ = 6,
    dM4E_YO = 7,
    dM4E_ZX = 8,
    dM4E_ZY = 9,
    dM4E_ZZ = 10,
    dM4E_ZO = 11,
    dM4E_OX = 12,
    dM4E_OY = 13,
    dM4E_OZ = 14,
    dM4E_OO = 15,
    dM4E__O_MAX = 16,
}
pub const dM4E__MIN: dMat4Element = dMat4Element::dM4E_XX;
pub const dM4E__X_MIN: dMat4Element = dMat4Element::dM4E_XX;
pub const dM4E__X_MAX: dMat4Element = dMat4Element::dM4E_YX;
pub const dM4E__Y_MIN: dMat4Element = dMat4Element::dM4E_YX;
pub const dM4E__Y_MAX: dMat4Element = dMat4Element::dM4E_ZX;
pub const dM4E__Z_MIN: dMat4Element = dMat4Element::dM4E_ZX;
pub const dM4E__Z_MAX: dMat4Element = dMat4Element::dM4E_OX;
pub const dM4E__O_MIN: dMat4Element = dMat4Element::dM4E_OX;
pub const dM4E__MAX: dMat4Element = dMat4Element::dM4E__O_MAX;

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum dQuatElement {
    dQUE_R = 0,
    dQUE_I = 1,
    dQUE_J = 2,
    dQUE_K = 3,
    dQUE__AXIS_MAX = 4,
}
pub const dQUE__MIN: dQuatElement = dQuatElement::dQUE_R;
pub const dQUE__AXIS_MIN: dQuatElement = dQuatElement::dQUE_I;
pub const dQUE__MAX: dQuatElement = dQuatElement::dQUE__AXIS_MAX;

// Error numbers passed to the error/debug/message handlers.
pub const d_ERR_UNKNOWN: c_int = 0;
pub const d_ERR_IASSERT: c_int = 1;
pub const d_ERR_UASSERT: c_int = 2;
pub const d_ERR_LCP: c_int = 3;

/// Joint kinds, as returned by dJointGetType.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum dJointType {
    dJointTypeNone = 0,
    dJointTypeBall = 1,
    dJointTypeHinge = 2,
    dJointTypeSlider = 3,
    dJointTypeContact = 4,
    dJointTypeUniversal = 5,
    dJointTypeHinge2 = 6,
    dJointTypeFixed = 7,
    dJointTypeNull = 8,
    dJointTypeAMotor = 9,
    dJointTypeLMotor = 10,
    dJointTypePlane2D = 11,
    dJointTypePR = 12,
    dJointTypePU = 13,
    dJointTypePiston = 14,
    dJointTypeDBall = 15,
    dJointTypeDHinge = 16,
    dJointTypeTransmission = 17,
}

// Joint parameter numbers: the base names, then the same list for axis
// groups 1, 2 and 3 (each group starts at a multiple of dParamGroup).
pub const dParamLoStop: c_int = 0;
pub const dParamHiStop: c_int = 1;
pub const dParamVel: c_int = 2;
pub const dParamLoVel: c_int = 3;
pub const dParamHiVel: c_int = 4;
pub const dParamFMax: c_int = 5;
pub const dParamFudgeFactor: c_int = 6;
pub const dParamBounce: c_int = 7;
pub const dParamCFM: c_int = 8;
pub const dParamStopERP: c_int = 9;
pub const dParamStopCFM: c_int = 10;
pub const dParamSuspensionERP: c_int = 11;
pub const dParamSuspensionCFM: c_int = 12;
pub const dParamERP: c_int = 13;
pub const dParamsInGroup: c_int = 14;
pub const dParamGroup1: c_int = 0x000;
pub const dParamLoStop1: c_int = 0x000;
pub const dParamHiStop1: c_int = 0x001;
pub const dParamVel1: c_int = 0x002;
pub const dParamLoVel1: c_int = 0x003;
pub const dParamHiVel1: c_int = 0x004;
pub const dParamFMax1: c_int = 0x005;
pub const dParamFudgeFactor1: c_int = 0x006;
pub const dParamBounce1: c_int = 0x007;
pub const dParamCFM1: c_int = 0x008;
pub const dParamStopERP1: c_int = 0x009;
pub const dParamStopCFM1: c_int = 0x00a;
pub const dParamSuspensionERP1: c_int = 0x00b;
pub const dParamSuspensionCFM1: c_int = 0x00c;
pub const dParamERP1: c_int = 0x00d;
pub const dParamGroup2: c_int = 0x100;
pub const dParamLoStop2: c_int = 0x100;
pub const dParamHiStop2: c_int = 0x101;
pub const dParamVel2: c_int = 0x102;
pub const dParamLoVel2: c_int = 0x103;
pub const dParamHiVel2: c_int = 0x104;
pub const dParamFMax2: c_int = 0x105;
pub const dParamFudgeFactor2: c_int = 0x106;
pub const dParamBounce2: c_int = 0x107;
pub const dParamCFM2: c_int = 0x108;
pub const dParamStopERP2: c_int = 0x109;
pub const dParamStopCFM2: c_int = 0x10a;
pub const dParamSuspensionERP2: c_int = 0x10b;
pub const dParamSuspensionCFM2: c_int = 0x10c;
pub const dParamERP2: c_int = 0x10d;
pub const dParamGroup3: c_int = 0x200;
pub const dParamLoStop3: c_int = 0x200;
pub const dParamHiStop3: c_int = 0x201;
pub const dParamVel3: c_int = 0x202;
pub const dParamLoVel3: c_int = 0x203;
pub const dParamHiVel3: c_int = 0x204;
pub const dParamFMax3: c_int = 0x205;
pub const dParamFudgeFactor3: c_int = 0x206;
pub const dParamBounce3: c_int = 0x207;
pub const dParamCFM3: c_int = 0x208;
pub const dParamStopERP3: c_int = 0x209;
pub const dParamStopCFM3: c_int = 0x20a;
pub const dParamSuspensionERP3: c_int = 0x20b;
pub const dParamSuspensionCFM3: c_int = 0x20c;
pub const dParamERP3: c_int = 0x20d;
pub const dParamGroup: c_int = 0x100;

// Angular motor modes.
pub const dAMotorUser: c_int = 0;
pub const dAMotorEuler: c_int = 1;

// Transmission joint modes.
pub const dTransmissionParallelAxes: c_int = 0;
pub const dTransmissionIntersectingAxes: c_int = 1;
pub const dTransmissionChainDrive: c_int = 2;

/// Forces and torques a joint applied to its two bodies during the last step.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct dJointFeedback {
    pub f1: dVector3,
    pub t1: dVector3,
    pub f2: dVector3,
    pub t2: dVector3,
}
