//! timer.h: the stopwatch record.

use std::ffi::{c_double, c_ulong};

/// Accumulated time plus the clock count taken at the last start.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct dStopwatch {
    pub time: c_double,
    pub cc: [c_ulong; 2],
}
