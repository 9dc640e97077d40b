//! The Rust side of `csrc/variadic.c`, the C shim behind ODE's variadic
//! entry points: `dError`/`dDebug`/`dMessage` (C) format their arguments and
//! ask here for the channel's handler or the default report, and the core's
//! reports reach a host handler through `rode_invoke_handler` (C), which
//! builds the `va_list` that only C can build. Internal symbols: no header
//! declares them (this file's stem is no header's, so build.rs skips it).

use crate::error::{self as core_error, Channel};
use std::ffi::{c_char, c_int, c_void};

extern "C" {
    fn rode_invoke_handler(h: *mut c_void, num: c_int, fmt: *const c_char, ...);
}

/// The core's `error::Invoker`: calls a handler through the C shim.
pub unsafe fn invoke(h: *mut c_void, num: c_int, text: &str) {
    // "%.*s" takes the length, so the text needs no NUL terminator and
    // no copy: reporting allocates nothing (it can happen inside a step).
    let len = text.len().min(c_int::MAX as usize) as c_int;
    unsafe { rode_invoke_handler(h, num, c"%.*s".as_ptr(), len, text.as_ptr() as *const c_char) };
}

/// The handler of a channel, for `dError`/`dDebug`/`dMessage` (csrc/variadic.c).
#[no_mangle]
extern "C" fn rode_handler(kind: c_int) -> *mut c_void {
    match kind {
        0 => core_error::handler(Channel::Error),
        1 => core_error::handler(Channel::Debug),
        _ => core_error::handler(Channel::Message),
    }
}

/// Default action for a formatted message: print like ODE; terminate like
/// ODE when the host itself called `dError`/`dDebug` (`from_user != 0`).
#[no_mangle]
extern "C" fn rode_default_report(kind: c_int, num: c_int, text: *const c_char, from_user: c_int) {
    let s = if text.is_null() {
        String::new()
    } else {
        unsafe { std::ffi::CStr::from_ptr(text) }.to_string_lossy().into_owned()
    };
    let ch = match kind {
        0 => Channel::Error,
        1 => Channel::Debug,
        _ => Channel::Message,
    };
    core_error::default_print(ch, num, &s, false);
    if from_user != 0 {
        match ch {
            Channel::Error => std::process::exit(1),
            Channel::Debug => std::process::abort(),
            Channel::Message => {}
        }
    }
}
