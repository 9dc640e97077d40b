//! odeconfig.h: fixed-width integer names of ODE for x86-64 (LP64).
//! The C header spells these by hand (their definition depends on the
//! platform); cbindgen is told to leave them out. Rust code uses them in
//! signatures so the generated prototypes read `dsizeint`, not `uintptr_t`.
#![allow(non_camel_case_types)]

pub type dint64 = std::ffi::c_long;
pub type duint64 = std::ffi::c_ulong;
pub type dint32 = std::ffi::c_int;
pub type duint32 = std::ffi::c_uint;
pub type dint16 = std::ffi::c_short;
pub type duint16 = std::ffi::c_ushort;
pub type dint8 = std::ffi::c_schar;
pub type duint8 = std::ffi::c_uchar;
pub type dintptr = dint64;
pub type duintptr = duint64;
pub type ddiffint = dint64;
pub type dsizeint = duint64;
