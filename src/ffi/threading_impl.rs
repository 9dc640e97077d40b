//! extern "C" functions of threading_impl.h: ODE's built-in threading
//! implementations, their functions table and thread pools. The scheduler
//! itself is `crate::threading::engine`; this file converts C arguments,
//! validates them and wraps C call functions into the engine's call bodies.
//!
//! The table's entries are reachable only through
//! `dThreadingImplementationGetFunctions`; they validate their handles like
//! any exported function and report misuse on the debug channel.
#![allow(non_camel_case_types)]

use super::decl::odeconfig::dsizeint;
use super::decl::threading::{
    dCallReleaseeID, dCallWaitID, dMutexGroupID, dThreadedWaitTime, dThreadingFunctionsInfo, dcallindex_t,
    ddependencychange_t, ddependencycount_t, dmutexindex_t,
};
use super::{call, dThreadingImplementationID, Cx};
use crate::threading::engine::{
    CallWait, ImplRef, Implementation, MutexGroup, Releasee, ThrError, CALL_WAITS, IMPLEMENTATIONS, MUTEX_GROUPS,
};
use crate::threading::pool::{ThreadPool, THREAD_POOLS};
use std::ffi::{c_char, c_int, c_uint, c_void};
use std::time::Duration;

pub type dThreadingThreadPoolID = *mut c_void;

/// A C call function (`dThreadedCallFunction`).
pub type CallFunction = unsafe extern "C" fn(
    call_context: *mut c_void,
    instance_index: dcallindex_t,
    this_releasee: dCallReleaseeID,
) -> c_int;

/// The functions table shared by every built-in implementation, as ODE has.
pub static BUILTIN_FUNCTIONS: dThreadingFunctionsInfo = dThreadingFunctionsInfo {
    struct_size: std::mem::size_of::<dThreadingFunctionsInfo>() as c_uint,
    alloc_mutex_group: Some(alloc_mutex_group),
    free_mutex_group: Some(free_mutex_group),
    lock_group_mutex: Some(lock_group_mutex),
    unlock_group_mutex: Some(unlock_group_mutex),
    alloc_call_wait: Some(alloc_call_wait),
    reset_call_wait: Some(reset_call_wait),
    free_call_wait: Some(free_call_wait),
    post_call: Some(post_call),
    alter_call_dependencies_count: Some(alter_call_dependencies_count),
    wait_call: Some(wait_call),
    retrieve_thread_count: Some(retrieve_thread_count),
    preallocate_resources_for_calls: Some(preallocate_resources_for_calls),
};

/// The implementation argument, checked.
pub(crate) fn implementation(cx: &Cx, imp: dThreadingImplementationID, arg: &str) -> Option<ImplRef> {
    cx.handle(&IMPLEMENTATIONS, imp, arg, "threading implementation")
}

fn refuse<T>(cx: &Cx, arg: &str, e: ThrError) -> Option<T> {
    cx.fail(format_args!("argument '{arg}' {e}"))
}

/// Raw pointers moved into a call body run on another thread; the C caller
/// guarantees they stay valid until the call completes (ODE's contract).
struct SendPtr(*mut c_void);
unsafe impl Send for SendPtr {}
struct SendInt(*mut c_int);
unsafe impl Send for SendInt {}

#[no_mangle]
pub unsafe extern "C" fn dThreadingAllocateSelfThreadedImplementation() -> dThreadingImplementationID {
    call("dThreadingAllocateSelfThreadedImplementation", std::ptr::null_mut(), |_cx| {
        Some(IMPLEMENTATIONS.alloc(Implementation::new(false)).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dThreadingAllocateMultiThreadedImplementation() -> dThreadingImplementationID {
    call("dThreadingAllocateMultiThreadedImplementation", std::ptr::null_mut(), |_cx| {
        Some(IMPLEMENTATIONS.alloc(Implementation::new(true)).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dThreadingImplementationGetFunctions(
    r#impl: dThreadingImplementationID,
) -> *const dThreadingFunctionsInfo {
    call("dThreadingImplementationGetFunctions", std::ptr::null(), |cx| {
        implementation(cx, r#impl, "impl")?;
        Some(&BUILTIN_FUNCTIONS as *const dThreadingFunctionsInfo)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dThreadingImplementationShutdownProcessing(r#impl: dThreadingImplementationID) {
    call("dThreadingImplementationShutdownProcessing", (), |cx| {
        implementation(cx, r#impl, "impl")?.get().shutdown();
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dThreadingImplementationCleanupForRestart(r#impl: dThreadingImplementationID) {
    call("dThreadingImplementationCleanupForRestart", (), |cx| {
        implementation(cx, r#impl, "impl")?.get().cleanup_for_restart();
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dThreadingFreeImplementation(r#impl: dThreadingImplementationID) {
    call("dThreadingFreeImplementation", (), |cx| {
        if r#impl.is_null() {
            return Some(()); // ODE accepts NULL
        }
        let h = implementation(cx, r#impl, "impl")?;
        if let Err(e) = h.get().check_idle() {
            return refuse(cx, "impl", e);
        }
        IMPLEMENTATIONS.free(h);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dExternalThreadingServeMultiThreadedImplementation(
    r#impl: dThreadingImplementationID,
    readiness_callback: Option<unsafe extern "C" fn(callback_context: *mut c_void)>,
    callback_context: *mut c_void,
) {
    call("dExternalThreadingServeMultiThreadedImplementation", (), |cx| {
        let h = implementation(cx, r#impl, "impl")?;
        let served = h.get().serve(|| {
            if let Some(f) = readiness_callback {
                f(callback_context);
            }
        });
        if let Err(e) = served {
            return refuse(cx, "impl", e);
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dThreadingAllocateThreadPool(
    thread_count: c_uint,
    stack_size: dsizeint,
    ode_data_allocate_flags: c_uint,
    reserved: *mut c_void,
) -> dThreadingThreadPoolID {
    let _ = (ode_data_allocate_flags, reserved); // no per-thread data to allocate
    call("dThreadingAllocateThreadPool", std::ptr::null_mut(), |cx| {
        cx.require(thread_count != 0, format_args!("argument 'thread_count' is 0 (a pool needs threads)"))?;
        cx.require(
            thread_count <= 0xFFFF,
            format_args!("argument 'thread_count' = {thread_count} exceeds the 65535 threads ODE supports"),
        )?;
        match ThreadPool::new(thread_count, stack_size as usize) {
            Ok(p) => Some(THREAD_POOLS.alloc(p).as_raw()),
            Err(e) => cx.fail(format_args!("cannot start {thread_count} threads: {e}")),
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn dThreadingThreadPoolServeMultiThreadedImplementation(
    pool: dThreadingThreadPoolID,
    r#impl: dThreadingImplementationID,
) {
    call("dThreadingThreadPoolServeMultiThreadedImplementation", (), |cx| {
        let p = cx.handle(&THREAD_POOLS, pool, "pool", "thread pool")?;
        let h = implementation(cx, r#impl, "impl")?;
        if !h.get().is_multi() {
            return refuse(cx, "impl", ThrError::SelfThreaded);
        }
        p.get().serve(h);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dThreadingThreadPoolWaitIdleState(pool: dThreadingThreadPoolID) {
    call("dThreadingThreadPoolWaitIdleState", (), |cx| {
        cx.handle(&THREAD_POOLS, pool, "pool", "thread pool")?.get().wait_idle();
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dThreadingFreeThreadPool(pool: dThreadingThreadPoolID) {
    call("dThreadingFreeThreadPool", (), |cx| {
        if pool.is_null() {
            return Some(());
        }
        let p = cx.handle(&THREAD_POOLS, pool, "pool", "thread pool")?;
        THREAD_POOLS.free(p); // joins the threads (after they stop serving)
        Some(())
    })
}

// ---- the functions table ----

unsafe extern "C" fn alloc_mutex_group(
    r#impl: dThreadingImplementationID,
    mutex_count: dmutexindex_t,
    _mutex_names_ptr: *const *const c_char,
) -> dMutexGroupID {
    call("dThreadingFunctionsInfo::alloc_mutex_group", std::ptr::null_mut(), |cx| {
        let h = implementation(cx, r#impl, "impl")?;
        cx.require(mutex_count != 0, format_args!("argument 'mutex_count' is 0"))?;
        Some(MUTEX_GROUPS.alloc(MutexGroup::new(h, mutex_count)).as_raw())
    })
}

fn group(cx: &Cx, h: ImplRef, g: dMutexGroupID) -> Option<crate::handle::Handle<MutexGroup>> {
    let g = cx.handle(&MUTEX_GROUPS, g, "mutex_group", "mutex group")?;
    if let Err(e) = g.get().check_owner(h) {
        return refuse(cx, "mutex_group", e);
    }
    Some(g)
}

unsafe extern "C" fn free_mutex_group(r#impl: dThreadingImplementationID, mutex_group: dMutexGroupID) {
    call("dThreadingFunctionsInfo::free_mutex_group", (), |cx| {
        let h = implementation(cx, r#impl, "impl")?;
        let g = group(cx, h, mutex_group)?;
        MUTEX_GROUPS.free(g);
        Some(())
    })
}

unsafe extern "C" fn lock_group_mutex(
    r#impl: dThreadingImplementationID,
    mutex_group: dMutexGroupID,
    mutex_index: dmutexindex_t,
) {
    call("dThreadingFunctionsInfo::lock_group_mutex", (), |cx| {
        let h = implementation(cx, r#impl, "impl")?;
        let g = group(cx, h, mutex_group)?;
        if let Err(e) = g.get().lock(mutex_index) {
            return refuse(cx, "mutex_index", e);
        }
        Some(())
    })
}

unsafe extern "C" fn unlock_group_mutex(
    r#impl: dThreadingImplementationID,
    mutex_group: dMutexGroupID,
    mutex_index: dmutexindex_t,
) {
    call("dThreadingFunctionsInfo::unlock_group_mutex", (), |cx| {
        let h = implementation(cx, r#impl, "impl")?;
        let g = group(cx, h, mutex_group)?;
        if let Err(e) = g.get().unlock(mutex_index) {
            return refuse(cx, "mutex_index", e);
        }
        Some(())
    })
}

unsafe extern "C" fn alloc_call_wait(r#impl: dThreadingImplementationID) -> dCallWaitID {
    call("dThreadingFunctionsInfo::alloc_call_wait", std::ptr::null_mut(), |cx| {
        let h = implementation(cx, r#impl, "impl")?;
        Some(CALL_WAITS.alloc(CallWait::new(h)).as_raw())
    })
}

fn call_wait(cx: &Cx, h: ImplRef, w: dCallWaitID) -> Option<crate::handle::Handle<CallWait>> {
    let w = cx.handle(&CALL_WAITS, w, "call_wait", "call wait")?;
    if let Err(e) = w.get().check_owner(h) {
        return refuse(cx, "call_wait", e);
    }
    Some(w)
}

unsafe extern "C" fn reset_call_wait(r#impl: dThreadingImplementationID, call_wait_: dCallWaitID) {
    call("dThreadingFunctionsInfo::reset_call_wait", (), |cx| {
        let h = implementation(cx, r#impl, "impl")?;
        call_wait(cx, h, call_wait_)?.get().reset();
        Some(())
    })
}

unsafe extern "C" fn free_call_wait(r#impl: dThreadingImplementationID, call_wait_: dCallWaitID) {
    call("dThreadingFunctionsInfo::free_call_wait", (), |cx| {
        let h = implementation(cx, r#impl, "impl")?;
        let w = call_wait(cx, h, call_wait_)?;
        CALL_WAITS.free(w); // calls still pending keep their share of the wait
        Some(())
    })
}

unsafe extern "C" fn post_call(
    r#impl: dThreadingImplementationID,
    out_summary_fault: *mut c_int,
    out_post_releasee: *mut dCallReleaseeID,
    dependencies_count: ddependencycount_t,
    dependent_releasee: dCallReleaseeID,
    call_wait_: dCallWaitID,
    call_func: Option<CallFunction>,
    call_context: *mut c_void,
    instance_index: dcallindex_t,
    _call_name: *const c_char,
) {
    call("dThreadingFunctionsInfo::post_call", (), |cx| {
        let h = implementation(cx, r#impl, "impl")?;
        let f = match call_func {
            Some(f) => f,
            None => return cx.fail(format_args!("argument 'call_func' is NULL")),
        };
        let wait = if call_wait_.is_null() { None } else { Some(call_wait(cx, h, call_wait_)?) };
        let dependent = (!dependent_releasee.is_null()).then_some(Releasee(dependent_releasee as usize));
        if let Some(d) = dependent {
            if !h.get().releasee_is_live(d) {
                return refuse(cx, "dependent_releasee", ThrError::StaleReleasee);
            }
        }
        let ctx = SendPtr(call_context);
        let body = Box::new(move |me: Releasee| {
            let ctx = ctx;
            unsafe { f(ctx.0, instance_index, me.0 as dCallReleaseeID) != 0 }
        });
        let sink = (!out_summary_fault.is_null()).then(|| {
            let out = SendInt(out_summary_fault);
            Box::new(move |fault: bool| {
                let out = out;
                unsafe { *out.0 = fault as c_int };
            }) as Box<dyn FnOnce(bool) + Send>
        });
        // The releasee is written before the call can run (a serving thread
        // may start it at once), as ODE does.
        let r = h.get().post_with(dependencies_count as usize, dependent, wait.map(|w| w.get()), body, sink, |r| {
            if !out_post_releasee.is_null() {
                unsafe { *out_post_releasee = r.0 as dCallReleaseeID };
            }
        });
        if let Err(e) = r {
            return refuse(cx, "dependent_releasee", e);
        }
        Some(())
    })
}

unsafe extern "C" fn alter_call_dependencies_count(
    r#impl: dThreadingImplementationID,
    target_releasee: dCallReleaseeID,
    dependencies_count_change: ddependencychange_t,
) {
    call("dThreadingFunctionsInfo::alter_call_dependencies_count", (), |cx| {
        let h = implementation(cx, r#impl, "impl")?;
        cx.ptr("target_releasee", target_releasee)?;
        match h.get().alter_dependencies(Releasee(target_releasee as usize), dependencies_count_change as isize) {
            Ok(()) => Some(()),
            Err(e @ ThrError::StaleReleasee) => refuse(cx, "target_releasee", e),
            Err(e) => refuse(cx, "dependencies_count_change", e),
        }
    })
}

unsafe extern "C" fn wait_call(
    r#impl: dThreadingImplementationID,
    out_wait_status: *mut c_int,
    call_wait_: dCallWaitID,
    timeout_time_ptr: *const dThreadedWaitTime,
    _wait_name: *const c_char,
) {
    call("dThreadingFunctionsInfo::wait_call", (), |cx| {
        let h = implementation(cx, r#impl, "impl")?;
        let w = call_wait(cx, h, call_wait_)?;
        let timeout = if timeout_time_ptr.is_null() {
            None
        } else {
            let t = *timeout_time_ptr;
            cx.require(
                t.wait_sec >= 0 && t.wait_nsec < 1_000_000_000,
                format_args!(
                    "argument 'timeout_time_ptr' = {{{}, {}}} is not a valid duration",
                    t.wait_sec, t.wait_nsec
                ),
            )?;
            Some(Duration::new(t.wait_sec as u64, t.wait_nsec as u32))
        };
        match h.get().wait(w.get(), timeout) {
            Ok(signalled) => {
                if !out_wait_status.is_null() {
                    *out_wait_status = signalled as c_int;
                }
                Some(())
            }
            Err(e) => {
                if !out_wait_status.is_null() {
                    *out_wait_status = 0;
                }
                refuse(cx, "call_wait", e)
            }
        }
    })
}

unsafe extern "C" fn retrieve_thread_count(r#impl: dThreadingImplementationID) -> c_uint {
    call("dThreadingFunctionsInfo::retrieve_thread_count", 0, |cx| {
        Some(implementation(cx, r#impl, "impl")?.get().thread_count())
    })
}

unsafe extern "C" fn preallocate_resources_for_calls(
    r#impl: dThreadingImplementationID,
    max_simultaneous_calls_estimate: ddependencycount_t,
) -> c_int {
    call("dThreadingFunctionsInfo::preallocate_resources_for_calls", 0, |cx| {
        Some(implementation(cx, r#impl, "impl")?.get().preallocate(max_simultaneous_calls_estimate as usize) as c_int)
    })
}
