//! threading.h: the records and scalar types of the threading
//! implementation interface (an external scheduler plugged into ODE).
//!
//! The C header also has typedefs of function types and opaque handles;
//! cbindgen cannot write those, so they are spelled in the template and
//! the records below give their fields as plain function pointers.
#![allow(non_camel_case_types, non_upper_case_globals)]

use super::odeconfig::{ddiffint, dsizeint};
use std::ffi::{c_char, c_int, c_uint, c_ulong, c_void};

pub type dMutexGroupID = *mut c_void;
pub type dCallReleaseeID = *mut c_void;
pub type dCallWaitID = *mut c_void;
use crate::abi::types::dThreadingImplementationID;

pub type dmutexindex_t = c_uint;
pub type ddependencycount_t = dsizeint;
pub type ddependencychange_t = ddiffint;
pub type dcallindex_t = dsizeint;

/// Thread count meaning "no limit".
pub const dTHREADING_THREAD_COUNT_UNLIMITED: u32 = 0u32;

/// A wait timeout. C names the struct tag `dxThreadedWaitTime`; the typedef
/// `dThreadedWaitTime` is added by the template.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct dxThreadedWaitTime {
    pub wait_sec: libc::time_t,
    pub wait_nsec: c_ulong,
}
pub type dThreadedWaitTime = dxThreadedWaitTime;

/// Entry points of a threading implementation (tag `dxThreadingFunctionsInfo`,
/// typedef `dThreadingFunctionsInfo` added by the template).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dxThreadingFunctionsInfo {
    pub struct_size: c_uint,
    pub alloc_mutex_group: Option<
        unsafe extern "C" fn(
            implementation: dThreadingImplementationID,
            mutex_count: dmutexindex_t,
            mutex_names_ptr: *const *const c_char,
        ) -> dMutexGroupID,
    >,
    pub free_mutex_group:
        Option<unsafe extern "C" fn(implementation: dThreadingImplementationID, mutex_group: dMutexGroupID)>,
    pub lock_group_mutex: Option<
        unsafe extern "C" fn(
            implementation: dThreadingImplementationID,
            mutex_group: dMutexGroupID,
            mutex_index: dmutexindex_t,
        ),
    >,
    pub unlock_group_mutex: Option<
        unsafe extern "C" fn(
            implementation: dThreadingImplementationID,
            mutex_group: dMutexGroupID,
            mutex_index: dmutexindex_t,
        ),
    >,
    pub alloc_call_wait: Option<unsafe extern "C" fn(implementation: dThreadingImplementationID) -> dCallWaitID>,
    pub reset_call_wait:
        Option<unsafe extern "C" fn(implementation: dThreadingImplementationID, call_wait: dCallWaitID)>,
    pub free_call_wait:
        Option<unsafe extern "C" fn(implementation: dThreadingImplementationID, call_wait: dCallWaitID)>,
    pub post_call: Option<
        unsafe extern "C" fn(
            implementation: dThreadingImplementationID,
            out_summary_fault: *mut c_int,
            out_post_releasee: *mut dCallReleaseeID,
            dependencies_count: ddependencycount_t,
            dependent_releasee: dCallReleaseeID,
            call_wait: dCallWaitID,
            call_func: Option<
                unsafe extern "C" fn(
                    call_context: *mut c_void,
                    instance_index: dcallindex_t,
                    this_releasee: dCallReleaseeID,
                ) -> c_int,
            >,
            call_context: *mut c_void,
            instance_index: dcallindex_t,
            call_name: *const c_char,
        ),
    >,
    pub alter_call_dependencies_count: Option<
        unsafe extern "C" fn(
            implementation: dThreadingImplementationID,
            target_releasee: dCallReleaseeID,
            dependencies_count_change: ddependencychange_t,
        ),
    >,
    pub wait_call: Option<
        unsafe extern "C" fn(
            implementation: dThreadingImplementationID,
            out_wait_status: *mut c_int,
            call_wait: dCallWaitID,
            timeout_time_ptr: *const dThreadedWaitTime,
            wait_name: *const c_char,
        ),
    >,
    pub retrieve_thread_count: Option<unsafe extern "C" fn(implementation: dThreadingImplementationID) -> c_uint>,
    pub preallocate_resources_for_calls: Option<
        unsafe extern "C" fn(
            implementation: dThreadingImplementationID,
            max_simultaneous_calls_estimate: ddependencycount_t,
        ) -> c_int,
    >,
}
pub type dThreadingFunctionsInfo = dxThreadingFunctionsInfo;
