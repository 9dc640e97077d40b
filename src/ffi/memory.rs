//! extern "C" functions of ODE's memory.h: `dAlloc`/`dRealloc`/`dFree` use
//! the host's handlers when installed, else the C allocator, exactly as ODE
//! does. (The library's own objects live in Rust pools, not in this memory.)
#![allow(non_camel_case_types)]

use super::decl::odeconfig::dsizeint;
use super::*;
use std::sync::atomic::{AtomicPtr, Ordering};

pub type dAllocFunction = unsafe extern "C" fn(size: dsizeint) -> *mut c_void;
pub type dReallocFunction = unsafe extern "C" fn(ptr: *mut c_void, oldsize: dsizeint, newsize: dsizeint) -> *mut c_void;
pub type dFreeFunction = unsafe extern "C" fn(ptr: *mut c_void, size: dsizeint);

static ALLOC: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());
static REALLOC: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());
static FREE: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());

fn store(slot: &AtomicPtr<c_void>, p: *mut c_void) {
    slot.store(p, Ordering::Release);
}

fn load(slot: &AtomicPtr<c_void>) -> *mut c_void {
    slot.load(Ordering::Acquire)
}

#[no_mangle]
pub unsafe extern "C" fn dSetAllocHandler(fn_: Option<dAllocFunction>) {
    call("dSetAllocHandler", (), |_| {
        store(&ALLOC, fn_.map_or(std::ptr::null_mut(), |f| f as *mut c_void));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dSetReallocHandler(fn_: Option<dReallocFunction>) {
    call("dSetReallocHandler", (), |_| {
        store(&REALLOC, fn_.map_or(std::ptr::null_mut(), |f| f as *mut c_void));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dSetFreeHandler(fn_: Option<dFreeFunction>) {
    call("dSetFreeHandler", (), |_| {
        store(&FREE, fn_.map_or(std::ptr::null_mut(), |f| f as *mut c_void));
        Some(())
    })
}

// SAFETY (getters and users below): the slots only ever hold null or a
// function pointer of the slot's type, stored by the matching setter.

#[no_mangle]
pub unsafe extern "C" fn dGetAllocHandler() -> Option<dAllocFunction> {
    call("dGetAllocHandler", None, |_| {
        let p = load(&ALLOC);
        Some((!p.is_null()).then(|| std::mem::transmute::<*mut c_void, dAllocFunction>(p)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGetReallocHandler() -> Option<dReallocFunction> {
    call("dGetReallocHandler", None, |_| {
        let p = load(&REALLOC);
        Some((!p.is_null()).then(|| std::mem::transmute::<*mut c_void, dReallocFunction>(p)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGetFreeHandler() -> Option<dFreeFunction> {
    call("dGetFreeHandler", None, |_| {
        let p = load(&FREE);
        Some((!p.is_null()).then(|| std::mem::transmute::<*mut c_void, dFreeFunction>(p)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dAlloc(size: dsizeint) -> *mut c_void {
    call("dAlloc", std::ptr::null_mut(), |_| {
        let f = dGetAllocHandler();
        Some(match f {
            Some(f) => f(size),
            None => libc::malloc(size as usize),
        })
    })
}

#[no_mangle]
pub unsafe extern "C" fn dRealloc(ptr: *mut c_void, oldsize: dsizeint, newsize: dsizeint) -> *mut c_void {
    call("dRealloc", std::ptr::null_mut(), |_| {
        let f = dGetReallocHandler();
        Some(match f {
            Some(f) => f(ptr, oldsize, newsize),
            None => libc::realloc(ptr, newsize as usize),
        })
    })
}

/// Frees memory from dAlloc/dRealloc; `size` is what was asked for. A NULL
/// pointer is ignored (the free handler is not called).
#[no_mangle]
pub unsafe extern "C" fn dFree(ptr: *mut c_void, size: dsizeint) {
    call("dFree", (), |_| {
        if ptr.is_null() {
            return Some(());
        }
        match dGetFreeHandler() {
            Some(f) => f(ptr, size),
            None => libc::free(ptr),
        }
        Some(())
    })
}
