//! extern "C" functions of cooperative.h: cooperatives, resource
//! requirements and resource containers (`crate::threading::coop`).
//!
//! A cooperative created without a threading uses a built-in self-threaded
//! implementation shared by all such cooperatives, as ODE's default
//! threading. Containers request their resources through the threading's
//! functions table (call preallocation, a stock call wait) and give the
//! call wait back when destroyed.
#![allow(non_snake_case, non_camel_case_types)]

use super::decl::threading::dThreadingFunctionsInfo;
use super::threading_impl::BUILTIN_FUNCTIONS;
use super::{call, dThreadingImplementationID, Cx};
use crate::handle::Handle;
use crate::threading::coop::{Container, Cooperative, Requirements, Threading, CONTAINERS, COOPERATIVES, REQUIREMENTS};
use crate::threading::engine::{Implementation, IMPLEMENTATIONS};
use std::ffi::c_void;
use std::sync::OnceLock;

pub type dCooperativeID = *mut c_void;
pub type dResourceRequirementsID = *mut c_void;
pub type dResourceContainerID = *mut c_void;

/// sizeof(dThreadingFunctionsInfo): a table must have every entry ODE uses.
const FUNCTIONS_INFO_SIZE: usize = std::mem::size_of::<dThreadingFunctionsInfo>();

/// The self-threaded implementation used by cooperatives created without one.
fn default_threading() -> Threading {
    static DEFAULT: OnceLock<usize> = OnceLock::new();
    let imp = *DEFAULT.get_or_init(|| IMPLEMENTATIONS.alloc(Implementation::new(false)).as_raw() as usize);
    Threading { functions: &BUILTIN_FUNCTIONS as *const _ as usize, imp }
}

fn table(t: Threading) -> &'static dThreadingFunctionsInfo {
    unsafe { &*(t.functions as *const dThreadingFunctionsInfo) }
}

/// The threading's current thread count (through its table).
pub(crate) fn threading_thread_count(t: Threading) -> u32 {
    match table(t).retrieve_thread_count {
        Some(f) => unsafe { f(t.imp as dThreadingImplementationID) },
        None => 0,
    }
}

pub(crate) fn coop_arg(cx: &Cx, c: dCooperativeID, arg: &str) -> Option<Handle<Cooperative>> {
    cx.handle(&COOPERATIVES, c, arg, "cooperative")
}

pub(crate) fn reqs_arg(cx: &Cx, r: dResourceRequirementsID, arg: &str) -> Option<Handle<Requirements>> {
    cx.handle(&REQUIREMENTS, r, arg, "resource requirements object")
}

pub(crate) fn container_arg(cx: &Cx, r: dResourceContainerID, arg: &str) -> Option<Handle<Container>> {
    cx.handle(&CONTAINERS, r, arg, "resource container")
}

#[no_mangle]
pub unsafe extern "C" fn dCooperativeCreate(
    functionInfo: *const dThreadingFunctionsInfo,
    threadingImpl: dThreadingImplementationID,
) -> dCooperativeID {
    call("dCooperativeCreate", std::ptr::null_mut(), |cx| {
        let threading = if functionInfo.is_null() {
            cx.require(
                threadingImpl.is_null(),
                format_args!("argument 'threadingImpl' is set but 'functionInfo' is NULL"),
            )?;
            default_threading()
        } else {
            let size = (*functionInfo).struct_size as usize;
            cx.require(
                size >= FUNCTIONS_INFO_SIZE,
                format_args!("argument 'functionInfo' is bad (struct_size {size} < {FUNCTIONS_INFO_SIZE})"),
            )?;
            let f = &*functionInfo;
            cx.require(
                f.retrieve_thread_count.is_some()
                    && f.preallocate_resources_for_calls.is_some()
                    && f.alloc_call_wait.is_some()
                    && f.free_call_wait.is_some(),
                format_args!("argument 'functionInfo' lacks entries cooperative calls need"),
            )?;
            // Our own table's implementation is one of our handles: a freed
            // or foreign one would fail in every later call through it.
            if std::ptr::eq(functionInfo, &BUILTIN_FUNCTIONS) {
                super::threading_impl::implementation(cx, threadingImpl, "threadingImpl")?;
            }
            Threading { functions: functionInfo as usize, imp: threadingImpl as usize }
        };
        Some(COOPERATIVES.alloc(Cooperative { threading }).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dCooperativeDestroy(cooperative: dCooperativeID) {
    call("dCooperativeDestroy", (), |cx| {
        if cooperative.is_null() {
            return Some(()); // ODE accepts NULL
        }
        COOPERATIVES.free(coop_arg(cx, cooperative, "cooperative")?);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dResourceRequirementsCreate(cooperative: dCooperativeID) -> dResourceRequirementsID {
    call("dResourceRequirementsCreate", std::ptr::null_mut(), |cx| {
        let c = coop_arg(cx, cooperative, "cooperative")?;
        Some(REQUIREMENTS.alloc(Requirements::new(c.as_raw() as usize, c.get().threading)).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dResourceRequirementsDestroy(requirements: dResourceRequirementsID) {
    call("dResourceRequirementsDestroy", (), |cx| {
        if requirements.is_null() {
            return Some(());
        }
        REQUIREMENTS.free(reqs_arg(cx, requirements, "requirements")?);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dResourceRequirementsClone(requirements: dResourceRequirementsID) -> dResourceRequirementsID {
    call("dResourceRequirementsClone", std::ptr::null_mut(), |cx| {
        let r = reqs_arg(cx, requirements, "requirements")?;
        Some(REQUIREMENTS.alloc(r.get().clone()).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dResourceRequirementsMergeIn(
    summaryRequirements: dResourceRequirementsID,
    extraRequirements: dResourceRequirementsID,
) {
    call("dResourceRequirementsMergeIn", (), |cx| {
        let s = reqs_arg(cx, summaryRequirements, "summaryRequirements")?;
        let e = reqs_arg(cx, extraRequirements, "extraRequirements")?;
        cx.require(
            s.get().threading == e.get().threading,
            format_args!("arguments 'summaryRequirements' and 'extraRequirements' were made for different threadings"),
        )?;
        if s != e {
            let extra = e.get().clone();
            s.get_mut().merge(&extra);
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dResourceContainerAcquire(requirements: dResourceRequirementsID) -> dResourceContainerID {
    call("dResourceContainerAcquire", std::ptr::null_mut(), |cx| {
        let r = reqs_arg(cx, requirements, "requirements")?.get().clone();
        let t = r.threading;
        let imp = t.imp as dThreadingImplementationID;
        // Reserved as ODE allocates it (NULL when the system refuses), but
        // not written: the operations run on the calling thread and never
        // use it, and writing an estimate of 2^32 rows would touch 32 GiB.
        let mut memory = Vec::new();
        if memory.try_reserve_exact(r.memory).is_err() {
            return None; // out of memory: NULL, as ODE
        }
        if r.calls != 0 {
            let ok = table(t).preallocate_resources_for_calls.map(|f| f(imp, r.calls as _)).unwrap_or(0);
            if ok == 0 {
                return None;
            }
        }
        let mut stock_wait = 0usize;
        if r.stock_wait {
            let w = table(t).alloc_call_wait.map(|f| f(imp)).unwrap_or(std::ptr::null_mut());
            if w.is_null() {
                return None;
            }
            stock_wait = w as usize;
        }
        Some(CONTAINERS.alloc(Container { threading: t, ops: r.ops, stock_wait, memory }).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dResourceContainerDestroy(resources: dResourceContainerID) {
    call("dResourceContainerDestroy", (), |cx| {
        if resources.is_null() {
            return Some(());
        }
        let c = container_arg(cx, resources, "resources")?;
        let (t, w) = (c.get().threading, c.get().stock_wait);
        if w != 0 {
            if let Some(f) = table(t).free_call_wait {
                f(t.imp as dThreadingImplementationID, w as *mut c_void);
            }
        }
        CONTAINERS.free(c);
        Some(())
    })
}
