//! extern "C" functions of ODE's timer.h over `crate::timer`.
#![allow(non_camel_case_types)]

use super::*;
use crate::timer::{self as core_timer, Stopwatch};
use std::ffi::{c_char, c_int, CStr};

/// C name of the stopwatch struct (`double time; unsigned long cc[2];`).
/// `decl::timer::dStopwatch` spells the same layout for the header; the
/// assertions below keep the two identical.
pub type dStopwatch = Stopwatch;
const _: () = {
    use std::mem::{align_of, offset_of, size_of};
    type C = super::decl::timer::dStopwatch;
    assert!(size_of::<Stopwatch>() == size_of::<C>() && align_of::<Stopwatch>() == align_of::<C>());
    assert!(offset_of!(Stopwatch, time) == offset_of!(C, time) && offset_of!(Stopwatch, cc) == offset_of!(C, cc));
};

// Argument checks of this header (free functions: `Cx` is shared by all headers).

fn stopwatch<'a>(cx: &Cx, s: *mut dStopwatch) -> Option<&'a mut Stopwatch> {
    cx.ptr_mut("s", s)?;
    // SAFETY: non-null, the caller hands us a dStopwatch.
    Some(unsafe { &mut *s })
}

fn c_description<'a>(cx: &Cx, d: *const c_char) -> Option<&'a [u8]> {
    cx.ptr("description", d)?;
    // SAFETY: non-null C string.
    Some(unsafe { CStr::from_ptr(d) }.to_bytes())
}

#[no_mangle]
pub unsafe extern "C" fn dStopwatchReset(s: *mut dStopwatch) {
    call("dStopwatchReset", (), |cx| {
        stopwatch(cx, s)?.reset();
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dStopwatchStart(s: *mut dStopwatch) {
    call("dStopwatchStart", (), |cx| {
        stopwatch(cx, s)?.start();
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dStopwatchStop(s: *mut dStopwatch) {
    call("dStopwatchStop", (), |cx| {
        stopwatch(cx, s)?.stop();
        Some(())
    })
}

/// Total time in seconds.
#[no_mangle]
pub unsafe extern "C" fn dStopwatchTime(s: *mut dStopwatch) -> f64 {
    call("dStopwatchTime", 0.0, |cx| Some(stopwatch(cx, s)?.seconds()))
}

#[no_mangle]
pub unsafe extern "C" fn dTimerStart(description: *const c_char) {
    call("dTimerStart", (), |cx| {
        core_timer::timer_start(c_description(cx, description)?);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dTimerNow(description: *const c_char) {
    call("dTimerNow", (), |cx| {
        core_timer::timer_now(c_description(cx, description)?);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dTimerEnd() {
    call("dTimerEnd", (), |_| {
        core_timer::timer_end();
        Some(())
    })
}

/// Prints the report of the current run to `fout`; `average` adds the
/// running averages of each section.
#[no_mangle]
pub unsafe extern "C" fn dTimerReport(fout: *mut libc::FILE, average: c_int) {
    call("dTimerReport", (), |cx| {
        cx.ptr_mut("fout", fout)?;
        let text = core_timer::timer_report(average != 0);
        libc::fwrite(text.as_ptr() as *const c_void, 1, text.len(), fout);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dTimerTicksPerSecond() -> f64 {
    call("dTimerTicksPerSecond", 0.0, |_| Some(core_timer::TICKS_PER_SECOND))
}

#[no_mangle]
pub unsafe extern "C" fn dTimerResolution() -> f64 {
    call("dTimerResolution", 0.0, |_| Some(core_timer::resolution()))
}
