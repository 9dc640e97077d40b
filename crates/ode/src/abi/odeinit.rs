//! odeinit.h: flags of dInitODE2 and dAllocateODEDataForThread.
#![allow(non_camel_case_types)]

/// Flags of dInitODE2.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum dInitODEFlags {
    dInitFlagManualThreadCleanup = 0x00000001,
}

/// Data kinds that dAllocateODEDataForThread can prepare.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum dAllocateODEDataFlags {
    dAllocateFlagBasicData = 0,
    dAllocateFlagCollisionData = 0x00000001,
    dAllocateMaskAll = -1,
}
