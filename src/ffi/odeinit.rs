//! extern "C" functions of ODE's odeinit.h.
//!
//! ODE counts nested initialisations: every successful `dInitODE`/
//! `dInitODE2` must be matched by a `dCloseODE`, and the last close tears
//! down global state. This library needs no global set-up, so the counting
//! (and its misuse reports) is kept, and the last close restores what
//! ODE's next initialisation would rebuild: `dCollide`'s class-pair table
//! without `dSetColliderOverride`'s entries. Modules with global state to
//! drop at the last close may also register a hook with `on_last_close`.

#![allow(non_snake_case)]

use super::*;
use std::ffi::{c_int, c_uint};
use std::sync::Mutex;

struct InitState {
    count: u32,
    hooks: Vec<fn()>,
}

static STATE: Mutex<InitState> = Mutex::new(InitState { count: 0, hooks: Vec::new() });

fn state() -> std::sync::MutexGuard<'static, InitState> {
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Registers `hook` to run when the last matching `dCloseODE` happens (ODE
/// clears e.g. its user geom classes there).
pub fn on_last_close(hook: fn()) {
    state().hooks.push(hook);
}

/// Whether the host has initialised the library (and not closed it again).
pub fn is_initialized() -> bool {
    state().count > 0
}

fn init() {
    state().count += 1;
}

#[no_mangle]
pub unsafe extern "C" fn dInitODE() {
    call("dInitODE", (), |_| {
        init();
        Some(())
    })
}

/// Flags (`dInitFlagManualThreadCleanup`) are accepted and have no effect:
/// this library keeps no per-thread data. Always succeeds.
#[no_mangle]
pub unsafe extern "C" fn dInitODE2(uiInitFlags: c_uint) -> c_int {
    let _ = uiInitFlags;
    call("dInitODE2", 0, |_| {
        init();
        Some(1)
    })
}

/// Returns 1 once the library is initialised (there is no per-thread data
/// to allocate); without initialisation the call is reported and returns 0.
#[no_mangle]
pub unsafe extern "C" fn dAllocateODEDataForThread(uiAllocateFlags: c_uint) -> c_int {
    let _ = uiAllocateFlags;
    call("dAllocateODEDataForThread", 0, |cx| {
        cx.require(is_initialized(), format_args!("Call dInitODE2 first"))?;
        Some(1)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dCleanupODEAllDataForThread() {
    call("dCleanupODEAllDataForThread", (), |cx| {
        cx.require(is_initialized(), format_args!("Call dInitODE2 first or delay dCloseODE until all threads exit"))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dCloseODE() {
    call("dCloseODE", (), |cx| {
        let hooks = {
            let mut s = state();
            if s.count == 0 {
                drop(s);
                return cx.fail(format_args!("dCloseODE must not be called without dInitODE2 or if dInitODE2 fails"));
            }
            s.count -= 1;
            if s.count > 0 {
                return Some(());
            }
            s.hooks.clone()
        };
        for h in hooks {
            h();
        }
        crate::collision::user_class::reset_collider_table();
        Some(())
    })
}
