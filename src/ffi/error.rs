//! extern "C" handler registration of ODE's error.h. The variadic
//! `dError`/`dDebug`/`dMessage` are in `csrc/variadic.c`; the registry is
//! `crate::error`.
//!
//! ODE declares `typedef void dMessageFunction(int, const char *, va_list)`
//! and passes `dMessageFunction *`. On x86-64 a `va_list` parameter is passed
//! as a pointer, so here the handler is a nullable function pointer whose
//! third parameter is `*mut c_void`: the same ABI. (The generated header
//! must keep ODE's function typedef; see the report of the math helper.)
#![allow(non_camel_case_types)]

use super::*;
use crate::error::{self as core_error, Channel};
use std::ffi::{c_char, c_int};

/// Pointer to an ODE message handler (`dMessageFunction *` in C).
pub type dMessageFunction = unsafe extern "C" fn(errnum: c_int, msg: *const c_char, ap: *mut c_void);

fn set(ch: Channel, f: Option<dMessageFunction>) {
    core_error::set_invoker(super::variadic::invoke);
    core_error::set_handler(ch, f.map_or(std::ptr::null_mut(), |f| f as *mut c_void));
}

fn get(ch: Channel) -> Option<dMessageFunction> {
    let p = core_error::handler(ch);
    if p.is_null() {
        None
    } else {
        // SAFETY: only `set` stores non-null values, and they are handlers.
        Some(unsafe { std::mem::transmute::<*mut c_void, dMessageFunction>(p) })
    }
}

#[no_mangle]
pub unsafe extern "C" fn dSetErrorHandler(fn_: Option<dMessageFunction>) {
    call("dSetErrorHandler", (), |_| {
        set(Channel::Error, fn_);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dSetDebugHandler(fn_: Option<dMessageFunction>) {
    call("dSetDebugHandler", (), |_| {
        set(Channel::Debug, fn_);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dSetMessageHandler(fn_: Option<dMessageFunction>) {
    call("dSetMessageHandler", (), |_| {
        set(Channel::Message, fn_);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGetErrorHandler() -> Option<dMessageFunction> {
    call("dGetErrorHandler", None, |_| Some(get(Channel::Error)))
}

#[no_mangle]
pub unsafe extern "C" fn dGetDebugHandler() -> Option<dMessageFunction> {
    call("dGetDebugHandler", None, |_| Some(get(Channel::Debug)))
}

#[no_mangle]
pub unsafe extern "C" fn dGetMessageHandler() -> Option<dMessageFunction> {
    call("dGetMessageHandler", None, |_| Some(get(Channel::Message)))
}
