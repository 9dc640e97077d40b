//! objects.h: step memory reservation policy and the allocator hooks of
//! dWorldSetStepMemoryManager.
#![allow(non_upper_case_globals)]

use super::odeconfig::dsizeint;
use std::ffi::{c_float, c_uint, c_void};

/// Thread count meaning "as many as the threading implementation has".
pub const dWORLDSTEP_THREADCOUNT_UNLIMITED: u32 = 0u32;
/// Default minimum size of the step memory arena, in bytes.
pub const dWORLDSTEP_RESERVESIZE_DEFAULT: u32 = 65536u32;
// dWORLDSTEP_RESERVEFACTOR_DEFAULT (1.2f) is written in the header
// template: cbindgen cannot give a constant the `f` suffix.

/// How much step memory to reserve (dWorldSetStepMemoryReservationPolicy).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct dWorldStepReserveInfo {
    pub struct_size: c_uint,
    pub reserve_factor: c_float,
    pub reserve_minimum: c_uint,
}

/// Allocator used for step memory (dWorldSetStepMemoryManager).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dWorldStepMemoryFunctionsInfo {
    pub struct_size: c_uint,
    pub alloc_block: Option<unsafe extern "C" fn(block_size: dsizeint) -> *mut c_void>,
    pub shrink_block: Option<
        unsafe extern "C" fn(
            block_pointer: *mut c_void,
            block_current_size: dsizeint,
            block_smaller_size: dsizeint,
        ) -> *mut c_void,
    >,
    pub free_block: Option<unsafe extern "C" fn(block_pointer: *mut c_void, block_current_size: dsizeint)>,
}
