//! The `extern "C"` layer: one file per ODE header, named after it.
//!
//! Every exported function only converts, validates and delegates to the
//! safe core. The pattern is:
//!
//! ```text
//! #[no_mangle]
//! pub unsafe extern "C" fn dBodySetPosition(b: dBodyID, x: dReal, y: dReal, z: dReal) {
//!     call("dBodySetPosition", (), |cx| {
//!         let b = cx.body(b, "b")?;
//!         cx.finite("x", x)?; cx.finite("y", y)?; cx.finite("z", z)?;
//!         b.get_mut().set_position([x, y, z]);
//!         Some(())
//!     })
//! }
//! ```
//!
//! `call` catches panics (none may unwind into C) and turns `None` into the
//! given neutral return value. All checks happen before any mutation, so a
//! rejected call changes nothing. Each failed check reports through
//! `crate::error::bad_input`, naming the function and the argument.
//!
//! # Safety contract of every function in this layer
//!
//! The functions are `unsafe extern "C"` because C calls them with raw
//! pointers; the contract is ODE's own, stated once here instead of on each
//! of the 640 functions:
//! - **Handles** (`dWorldID`, `dBodyID`, `dGeomID`, …) may be anything: NULL,
//!   destroyed, of the wrong kind or foreign pointers are detected (see
//!   `crate::handle`) and reported, never followed.
//! - **Pointers to caller memory** (vectors, matrices, `dMass`, contact
//!   arrays, strings, callbacks' data) must be NULL or valid for the size
//!   ODE documents for that argument (e.g. 4 `dReal` for a `dVector3`, 12 for
//!   a `dMatrix3`, `skip`-strided arrays of the given count), and must stay
//!   valid as long as ODE says (trimesh vertex and index buffers for the life
//!   of the data object). NULL is checked and reported where ODE's API
//!   does not allow it. Memory that is non-NULL but invalid cannot be
//!   detected by any C library; that is the caller's side of the contract.
//! - **Callbacks** are called as ODE calls them; a callback may unwind only
//!   as C code can (it cannot): Rust panics inside the library are caught
//!   here, at the boundary.
//! - **Threads**: one world and its objects are used from one thread at a
//!   time, as ODE requires; independent worlds may be used concurrently.
#![allow(clippy::missing_safety_doc)] // the contract above covers every function

// The C types live in the bottom layer (`crate::abi`); these names keep the
// paths the C layer and the tests use.
pub use crate::abi as decl;
pub use crate::abi::types;

use crate::error as core_error;
use crate::handle::{Handle, Pool};
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

pub use types::*;

/// Validation context of one API call.
pub struct Cx {
    pub func: &'static str,
    /// A warning about a huge argument (`warn_huge`), given only if the
    /// call is carried out: a refused call reports its refusal alone.
    huge: std::cell::Cell<Option<String>>,
}

/// Runs one API call body: catches panics, maps `None` to `default`.
///
/// A panic inside is a library bug; it is reported on ODE's debug channel
/// (with where it happened) and the call returns `default`. Rust's own
/// "thread panicked" text is kept off stderr by `quiet_panics`.
#[inline]
pub fn call<R>(func: &'static str, default: R, f: impl FnOnce(&Cx) -> Option<R>) -> R {
    let cx = Cx { func, huge: std::cell::Cell::new(None) };
    quiet_panics();
    // One TLS lookup per call: the counter is raised around the body and
    // lowered after it (an unwinding panic stops at catch_unwind).
    let depth = depth::counter();
    // SAFETY: the thread's own counter, alive as long as the thread; the
    // panic hook reads it, hence volatile accesses.
    unsafe { depth.write_volatile(depth.read_volatile().wrapping_add(1)) };
    let r = catch_unwind(AssertUnwindSafe(|| f(&cx)));
    unsafe { depth.write_volatile(depth.read_volatile().wrapping_sub(1)) };
    match r {
        Ok(Some(r)) => {
            if let Some(text) = cx.huge.take() {
                cx.warn(format_args!("{text}"));
            }
            r
        }
        Ok(None) => default,
        Err(p) => {
            report_panic(func, &*p);
            default
        }
    }
}

#[cold]
#[inline(never)]
fn report_panic(func: &str, p: &(dyn std::any::Any + Send)) {
    let what = p
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into());
    let at = PANIC_AT.try_with(|a| a.take()).ok().flatten().map(|a| format!(" (at {a})")).unwrap_or_default();
    core_error::report(
        core_error::Channel::Debug,
        core_error::D_ERR_IASSERT,
        &format!("{func}: internal error, call abandoned: {what}{at}"),
    );
}

/// How many API calls are running on this thread (callbacks re-enter): the
/// panic hook stays quiet while it is not zero.
///
/// Every API call raises and lowers it, a few per contact point, so where
/// we can the counter is initial-exec TLS, declared in assembly (stable
/// Rust has no TLS model attribute): its address is the thread pointer plus
/// a link-time offset, two instructions, where `thread_local!` in a shared
/// library calls `__tls_get_addr` (about 13 instructions, and a call that
/// makes even a getter save registers). The cost is 4 bytes of the static
/// TLS block glibc reserves for libraries loaded with `dlopen`.
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
mod depth {
    // Hidden: one counter per linked copy of this layer, not exported.
    std::arch::global_asm!(
        ".pushsection .tbss,\"awT\",@nobits",
        ".p2align 2",
        ".globl ode_ffi_call_depth",
        ".hidden ode_ffi_call_depth",
        ".type ode_ffi_call_depth,@object",
        ".size ode_ffi_call_depth,4",
        "ode_ffi_call_depth:",
        ".zero 4",
        ".popsection",
    );

    /// This thread's counter.
    #[inline(always)]
    pub fn counter() -> *mut u32 {
        let p: *mut u32;
        // SAFETY: reads the thread pointer and the GOT entry of the offset.
        unsafe {
            std::arch::asm!(
                "mov {p}, qword ptr fs:0",
                "add {p}, qword ptr [rip + ode_ffi_call_depth@GOTTPOFF]",
                p = out(reg) p,
                options(pure, readonly, nostack),
            );
        }
        p
    }
}

#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
mod depth {
    thread_local! {
        static DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    }

    /// This thread's counter.
    #[inline(always)]
    pub fn counter() -> *mut u32 {
        DEPTH.with(|d| d.as_ptr())
    }
}

thread_local! {
    /// Where the panic being unwound to `call` happened.
    static PANIC_AT: std::cell::Cell<Option<String>> = const { std::cell::Cell::new(None) };
}

/// Installs (once) a panic hook that stays silent for panics inside an API
/// call, which `call` catches and reports through ODE's channel; any other
/// panic (e.g. in a Rust host using the rlib) goes to the previous hook.
#[inline]
fn quiet_panics() {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            // SAFETY: this thread's counter (see `call`).
            if unsafe { depth::counter().read_volatile() } > 0 {
                let at = info.location().map(|l| format!("{}:{}", l.file(), l.line()));
                let _ = PANIC_AT.try_with(|a| a.set(at));
            } else {
                prev(info)
            }
        }));
    });
}

impl Cx {
    /// Reports a bad argument and yields `None` for `?`.
    pub fn fail<T>(&self, what: std::fmt::Arguments<'_>) -> Option<T> {
        core_error::bad_input(self.func, what);
        None
    }

    /// Reports input the call still carries out as ODE does (message
    /// channel; see `error::suspicious_input`). The call goes on.
    pub fn warn(&self, what: std::fmt::Arguments<'_>) {
        core_error::suspicious_input(self.func, what);
    }

    /// Validates a handle of the given pool; `kind` names the object kind in
    /// messages ("world", "body", …).
    ///
    /// Inlined (every API call checks one to three handles, the contact
    /// callback's calls several per contact): the valid case is a null test,
    /// an alignment test and a tag compare; the messages are built out of
    /// line.
    #[inline(always)]
    pub fn handle<T>(&self, pool: &Pool<T>, raw: *mut c_void, arg: &str, kind: &str) -> Option<Handle<T>> {
        match pool.check(raw) {
            Some(h) => Some(h),
            None => self.bad_handle::<T>(raw, arg, kind),
        }
    }

    #[cold]
    #[inline(never)]
    fn bad_handle<T>(&self, raw: *mut c_void, arg: &str, kind: &str) -> Option<Handle<T>> {
        if raw.is_null() {
            return self.fail(format_args!("argument '{arg}' is NULL (expected a {kind})"));
        }
        match Pool::<T>::raw_tag(raw) {
            Some(t) if crate::handle::is_dead_tag(t) => {
                self.fail(format_args!("argument '{arg}' is a destroyed {kind} ({raw:p})"))
            }
            _ => self.fail(format_args!("argument '{arg}' ({raw:p}) is not a {kind}")),
        }
    }

    /// A handle that may be NULL (e.g. body 0 = the static environment).
    pub fn opt_handle<T>(&self, pool: &Pool<T>, raw: *mut c_void, arg: &str, kind: &str) -> Option<Option<Handle<T>>> {
        if raw.is_null() {
            Some(None)
        } else {
            self.handle(pool, raw, arg, kind).map(Some)
        }
    }

    /// A finite real.
    #[inline]
    pub fn finite(&self, arg: &str, v: dReal) -> Option<dReal> {
        if v.is_finite() {
            Some(v)
        } else {
            self.fail(format_args!("argument '{arg}' is {v} (must be finite)"))
        }
    }

    /// Three finite reals named `names` (a point, vector, velocity, force,
    /// offset or axis). A component beyond `HUGE_INPUT` is accepted, as ODE
    /// accepts it, with a warning: ODE's arithmetic on it (squares,
    /// products, sums with other such values) overflows to inf or NaN in
    /// AABBs, joint getters and contacts (README, "Huge finite values").
    ///
    /// The usual case is one test: every component within `HUGE_INPUT`
    /// (which NaN and infinities fail); the rest is out of line.
    #[inline(always)]
    pub fn vec3(&self, names: &'static [&'static str; 3], x: dReal, y: dReal, z: dReal) -> Option<[dReal; 3]> {
        let h = core_error::HUGE_INPUT;
        if !((x.abs() <= h) & (y.abs() <= h) & (z.abs() <= h)) {
            self.vec3_cold(names, x, y, z)?;
        }
        // One path builds the result, from registers: joining a returned
        // array here made the caller read it back from the stack with
        // wider loads than it was stored with (a store-forwarding stall,
        // a third of a cheap call such as dBodyAddRelTorque).
        Some([x, y, z])
    }

    #[cold]
    #[inline(never)]
    fn vec3_cold(&self, names: &[&str; 3], x: dReal, y: dReal, z: dReal) -> Option<()> {
        let v = [self.finite(names[0], x)?, self.finite(names[1], y)?, self.finite(names[2], z)?];
        self.warn_huge(names, &v);
        Some(())
    }

    /// Three finite reals for a direction the call always normalises with
    /// ODE's overflow-safe scaling (a plane normal, a ray direction): any
    /// size is harmless, no warning. Joint axes are not among them: ODE
    /// stores some as given (a PU joint's axis 2 with one body).
    #[inline]
    pub fn vec3_unit(&self, names: [&str; 3], x: dReal, y: dReal, z: dReal) -> Option<[dReal; 3]> {
        Some([self.finite(names[0], x)?, self.finite(names[1], y)?, self.finite(names[2], z)?])
    }

    /// Warns about the first of `v` beyond `HUGE_INPUT` (see `vec3`).
    #[inline]
    pub fn warn_huge(&self, names: &[&str], v: &[dReal]) {
        if v.iter().any(|x| x.abs() > core_error::HUGE_INPUT) {
            self.warn_huge_cold(names, v);
        }
    }

    /// `warn_huge` for an array argument (a quaternion, a matrix, whose pad
    /// entries the caller leaves out by passing zeros).
    #[inline]
    pub fn warn_huge_array(&self, arg: &str, v: &[dReal]) {
        if let Some(k) = v.iter().position(|x| x.abs() > core_error::HUGE_INPUT) {
            self.huge_pending(format_args!("'{arg}'[{k}]"), v[k]);
        }
    }

    /// `warn_huge_array` for a 3x4 padded matrix: its nine entries (the
    /// pads are never read).
    #[inline]
    pub fn warn_huge_matrix(&self, arg: &str, m: &[dReal; 12]) {
        let mut entries = *m;
        for k in [3, 7, 11] {
            entries[k] = 0.0;
        }
        self.warn_huge_array(arg, &entries);
    }

    /// A quaternion that ODE turns into a matrix without normalising it
    /// (the geom setters): the entries are products of two components, so
    /// components beyond the square root of `HUGE_INPUT` already give a
    /// matrix beyond it.
    #[inline]
    pub fn warn_huge_quaternion(&self, arg: &str, q: &[dReal; 4]) {
        let limit = core_error::HUGE_INPUT.sqrt();
        if let Some(k) = q.iter().position(|x| x.abs() > limit) {
            self.huge_quaternion_cold(arg, k, q[k], limit);
        }
    }

    #[cold]
    #[inline(never)]
    fn huge_quaternion_cold(&self, arg: &str, k: usize, v: dReal, limit: dReal) {
        let old = self.huge.take();
        self.huge.set(old.or_else(|| {
            Some(format!(
                "argument '{arg}'[{k}] = {v:e} is beyond ±{limit:e}; the rotation made from this unnormalised quaternion (as ODE makes it) has entries beyond ±{:e}, so arithmetic on it may overflow to inf or NaN",
                core_error::HUGE_INPUT
            ))
        }));
    }

    #[cold]
    #[inline(never)]
    fn warn_huge_cold(&self, names: &[&str], v: &[dReal]) {
        if let Some(k) = v.iter().position(|x| x.abs() > core_error::HUGE_INPUT) {
            self.huge_pending(format_args!("'{}'", names[k]), v[k]);
        }
    }

    /// Keeps the first huge-argument warning of the call for `call` to give
    /// once the call is carried out.
    #[cold]
    fn huge_pending(&self, name: std::fmt::Arguments<'_>, v: dReal) {
        let old = self.huge.take();
        self.huge.set(old.or_else(|| {
            Some(format!(
                "argument {name} = {v:e} is beyond ±{:e}; accepted as ODE accepts it, but arithmetic on it may overflow to inf or NaN",
                core_error::HUGE_INPUT
            ))
        }));
    }

    /// A real that must not be NaN (infinity allowed, e.g. dInfinity stops).
    #[inline]
    pub fn not_nan(&self, arg: &str, v: dReal) -> Option<dReal> {
        if v.is_nan() {
            self.fail(format_args!("argument '{arg}' is NaN"))
        } else {
            Some(v)
        }
    }

    /// A finite real satisfying `ok`, described by `rule` in the message.
    #[inline]
    pub fn check_real(&self, arg: &str, v: dReal, ok: bool, rule: &str) -> Option<dReal> {
        self.finite(arg, v)?;
        if ok {
            Some(v)
        } else {
            self.fail(format_args!("argument '{arg}' = {v:?} is out of range ({rule})"))
        }
    }

    /// A condition on arguments, with its message.
    #[inline]
    pub fn require(&self, ok: bool, what: std::fmt::Arguments<'_>) -> Option<()> {
        if ok {
            Some(())
        } else {
            self.fail(what)
        }
    }

    /// A non-null pointer argument.
    #[inline]
    pub fn ptr<T>(&self, arg: &str, p: *const T) -> Option<*const T> {
        if p.is_null() {
            self.fail(format_args!("argument '{arg}' is NULL"))
        } else {
            Some(p)
        }
    }

    /// A non-null mutable pointer argument.
    #[inline]
    pub fn ptr_mut<T>(&self, arg: &str, p: *mut T) -> Option<*mut T> {
        if p.is_null() {
            self.fail(format_args!("argument '{arg}' is NULL"))
        } else {
            Some(p)
        }
    }

    /// Reads `N` reals from a C array, all finite.
    ///
    /// # Safety
    /// `p` must be null or point to at least `N` readable reals.
    pub unsafe fn read_finite<const N: usize>(&self, arg: &str, p: *const dReal) -> Option<[dReal; N]> {
        let p = self.ptr(arg, p)?;
        let mut out = [0.0; N];
        for (i, o) in out.iter_mut().enumerate() {
            let v = *p.add(i);
            if !v.is_finite() {
                return self.fail(format_args!("argument '{arg}'[{i}] is {v} (must be finite)"));
            }
            *o = v;
        }
        Some(out)
    }
}

/// Writes `N` reals into a C array.
///
/// # Safety
/// `p` must point to at least `N` writable reals (checked non-null by caller).
#[inline]
pub unsafe fn write_reals<const N: usize>(p: *mut dReal, v: &[dReal; N]) {
    std::ptr::copy_nonoverlapping(v.as_ptr(), p, N);
}

// One module per ODE header area (declarations generated into include/ode/<header>.h).
pub mod collision;
pub mod collision_prim;
pub mod collision_space;
pub mod collision_trimesh;
pub mod common;
pub mod cooperative;
pub mod error;
pub mod export_dif;
pub mod mass;
pub mod mass_trimesh;
pub mod matrix;
pub mod matrix_coop;
pub mod memory;
pub mod misc;
pub mod objects_amotor;
pub mod objects_ball;
pub mod objects_body;
pub mod objects_contact;
pub mod objects_dball;
pub mod objects_dhinge;
pub mod objects_fixed;
pub mod objects_hinge;
pub mod objects_hinge2;
pub mod objects_joint;
pub mod objects_lmotor;
pub mod objects_null;
pub mod objects_piston;
pub mod objects_plane2d;
pub mod objects_pr;
pub mod objects_pu;
pub mod objects_slider;
pub mod objects_transmission;
pub mod objects_universal;
pub mod objects_world;
pub mod ode_ext;
pub mod ode_ext_draw;
pub mod ode_internal;
pub mod odeinit;
pub mod odemath;
pub mod rotation;
pub mod threading_impl;
pub mod timer;
pub mod variadic;
