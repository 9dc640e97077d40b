//! Our C extensions (header `ode/ode_ext.h`, prefix `odex`): custom joints
//! defined by host callbacks, and their one-sided limit rows.
//!
//! The callbacks get C views of the core's `Info1Cx`/`Info2Cx`
//! (`joints::custom`); rows travel as `odexJointRow` copies of the core
//! rows. The limit helpers are only valid inside a callback: the context
//! pointer they receive is checked against the one being served.
#![allow(non_snake_case, non_upper_case_globals)]

use super::objects_null::{create, joint};
use super::types::*;
use super::{call, Cx};
use crate::joints::custom::{self, Custom, CustomModel, Info1Cx, Info2Cx, Limit, Side};
use crate::joints::{Info1, JointKind, Row};
use std::cell::Cell;
use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::Arc;

/// `dJointGetType` of a custom joint (not a `dJointType` value of ODE).
pub const odexJointTypeCustom: c_int = 1000;
/// Most rows a custom joint may have.
pub const odexMaxCustomRows: c_int = 6;
// Literals above so cbindgen can write them; they must match the core.
const _: () = assert!(odexJointTypeCustom == custom::TYPE_CUSTOM && odexMaxCustomRows as usize == custom::MAX_ROWS);

/// One constraint row: J1l·v1 + J1a·w1 + J2l·v2 + J2a·w2 = c + cfm·λ,
/// lo ≤ λ ≤ hi; findex ≥ 0 makes it a friction row bounded by
/// ±lo/hi·|λ of row findex| (index within the joint's rows).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct odexJointRow {
    pub J1l: [dReal; 3],
    pub J1a: [dReal; 3],
    pub J2l: [dReal; 3],
    pub J2a: [dReal; 3],
    pub c: dReal,
    pub cfm: dReal,
    pub lo: dReal,
    pub hi: dReal,
    pub findex: c_int,
}

/// What the info1 callback sees and fills (`m`, `nub`).
#[repr(C)]
pub struct odexJointInfo1 {
    pub joint: dJointID,
    /// The joint's bodies as its rows see them: body1 is set whenever any
    /// body is (a joint attached as (0, b) sees (b, 0) and `reversed` = 1).
    pub body1: dBodyID,
    pub body2: dBodyID,
    pub reversed: c_int,
    pub user_data: *mut c_void,
    /// Out: number of rows (0 ..= max rows).
    pub m: c_int,
    /// Out: the first `nub` rows are unbounded.
    pub nub: c_int,
    /// Ours: identifies the call for the limit helpers.
    pub internal: *mut c_void,
}

/// What the info2 callback sees; it fills `rows[0 .. m-1]`.
#[repr(C)]
pub struct odexJointInfo2 {
    pub joint: dJointID,
    pub body1: dBodyID,
    pub body2: dBodyID,
    pub reversed: c_int,
    pub user_data: *mut c_void,
    /// 1 / step size.
    pub fps: dReal,
    /// World ERP and CFM.
    pub erp: dReal,
    pub cfm: dReal,
    /// Rows and unbounded rows announced by info1.
    pub m: c_int,
    pub nub: c_int,
    /// Pre-set rows: zero Jacobian and c, cfm = world CFM, unbounded,
    /// findex -1.
    pub rows: *mut odexJointRow,
    pub internal: *mut c_void,
}

/// The callbacks of a custom joint.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct odexCustomJointCallbacks {
    /// Required: report m and nub for the current state.
    pub info1: Option<unsafe extern "C" fn(info: *mut odexJointInfo1)>,
    /// Required: fill the rows.
    pub info2: Option<unsafe extern "C" fn(info: *mut odexJointInfo2)>,
    /// Optional: called with the user data when the joint is destroyed.
    pub destroy: Option<unsafe extern "C" fn(user_data: *mut c_void)>,
    /// Most rows info1 will report (1..=odexMaxCustomRows; 0 means the
    /// maximum).
    pub max_rows: c_int,
}

/// Settings of a one-sided limit row (see `odexJointLimitTest`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct odexLimit {
    /// Admissible range of the coordinate (dInfinity allowed).
    pub lo: dReal,
    pub hi: dReal,
    /// Error reduction and constraint force mixing of the row.
    pub erp: dReal,
    pub cfm: dReal,
    /// Deadband: correct to `tolerance` beyond the boundary (0: off).
    pub tolerance: dReal,
    /// Minimum number of steps a row stays engaged (0 or 1: off; 2 is the
    /// anti-chatter setting).
    pub hold_steps: c_int,
}

thread_local! {
    /// The info record handed to the callback being served on this thread,
    /// and its context. The record's address is compared before it is read:
    /// a host may keep the pointer past the callback, when it points to a
    /// dead stack frame.
    static ACTIVE: Cell<(*mut c_void, *mut c_void)> = const { Cell::new((std::ptr::null_mut(), std::ptr::null_mut())) };
}

/// Sets ACTIVE for the duration of a callback (restoring it even if the
/// callback's Rust side unwinds).
struct Serving((*mut c_void, *mut c_void));

impl Serving {
    fn new(info: *mut c_void, internal: *mut c_void) -> Serving {
        Serving(ACTIVE.with(|a| a.replace((info, internal))))
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        ACTIVE.with(|a| a.set(self.0));
    }
}

fn raw_body(b: Option<crate::dynamics::body::BodyRef>) -> dBodyID {
    b.map_or(std::ptr::null_mut(), |b| b.as_raw())
}

fn to_c(r: &Row) -> odexJointRow {
    odexJointRow {
        J1l: r.j1l,
        J1a: r.j1a,
        J2l: r.j2l,
        J2a: r.j2a,
        c: r.c,
        cfm: r.cfm,
        lo: r.lo,
        hi: r.hi,
        findex: r.findex,
    }
}

fn from_c(r: &odexJointRow) -> Row {
    Row { j1l: r.J1l, j1a: r.J1a, j2l: r.J2l, j2a: r.J2a, c: r.c, cfm: r.cfm, lo: r.lo, hi: r.hi, findex: r.findex }
}

/// The host's callbacks as a `CustomModel`.
struct CModel {
    cb: odexCustomJointCallbacks,
    user: *mut c_void,
    /// The joint's own handle, known once created.
    joint: Arc<AtomicPtr<c_void>>,
}

// The user data belongs to the host, which serialises access as with ODE.
unsafe impl Send for CModel {}

impl CustomModel for CModel {
    fn as_any_mut(&mut self) -> Option<&mut dyn std::any::Any> {
        Some(self)
    }

    fn info1(&mut self, cx: &mut Info1Cx<'_>) -> Info1 {
        let Some(f) = self.cb.info1 else { return Info1::default() };
        let mut info = odexJointInfo1 {
            joint: self.joint.load(Ordering::Relaxed),
            body1: raw_body(cx.body_refs[0]),
            body2: raw_body(cx.body_refs[1]),
            reversed: cx.reversed as c_int,
            user_data: self.user,
            m: 0,
            nub: 0,
            internal: std::ptr::null_mut(),
        };
        let internal = cx as *mut Info1Cx<'_> as *mut c_void;
        info.internal = internal;
        {
            let _g = Serving::new(&mut info as *mut odexJointInfo1 as *mut c_void, internal);
            // SAFETY: the host registered `f` for this joint; `info` lives
            // for the call.
            unsafe { f(&mut info) };
        }
        if info.m < 0 || info.nub < 0 {
            // Reported here with the values as given; no rows this step
            // (the joint sits it out, as for the counts the joint checks).
            crate::error::report(crate::error::Channel::Debug, crate::error::D_ERR_UASSERT, &format!(
                "custom joint: info1 reported m = {}, nub = {} (need 0 <= nub <= m <= max rows): joint skipped this step",
                info.m, info.nub
            ));
            return Info1::default();
        }
        Info1 { m: info.m as usize, nub: info.nub as usize }
    }

    fn info2(&mut self, cx: &mut Info2Cx<'_>, rows: &mut [Row]) {
        let Some(f) = self.cb.info2 else { return };
        let mut buf = [odexJointRow {
            J1l: [0.0; 3],
            J1a: [0.0; 3],
            J2l: [0.0; 3],
            J2a: [0.0; 3],
            c: 0.0,
            cfm: 0.0,
            lo: 0.0,
            hi: 0.0,
            findex: -1,
        }; custom::MAX_ROWS];
        let m = rows.len().min(custom::MAX_ROWS);
        for (b, r) in buf.iter_mut().zip(rows.iter()) {
            *b = to_c(r);
        }
        let mut info = odexJointInfo2 {
            joint: self.joint.load(Ordering::Relaxed),
            body1: raw_body(cx.body_refs[0]),
            body2: raw_body(cx.body_refs[1]),
            reversed: cx.reversed as c_int,
            user_data: self.user,
            fps: cx.fps,
            erp: cx.erp,
            cfm: cx.cfm,
            m: m as c_int,
            nub: 0,
            rows: buf.as_mut_ptr(),
            internal: std::ptr::null_mut(),
        };
        let internal = cx as *mut Info2Cx<'_> as *mut c_void;
        info.internal = internal;
        {
            let _g = Serving::new(&mut info as *mut odexJointInfo2 as *mut c_void, internal);
            // SAFETY: as in info1; `rows` points to `m` rows of `buf`.
            unsafe { f(&mut info) };
        }
        for (r, b) in rows.iter_mut().zip(buf.iter()) {
            *r = from_c(b);
        }
    }
}

impl Drop for CModel {
    fn drop(&mut self) {
        if let Some(d) = self.cb.destroy {
            // SAFETY: registered by the host for this user data.
            unsafe { d(self.user) };
        }
    }
}

/// Validates a limit settings pointer.
fn limit_arg(cx: &Cx, limit: *const odexLimit) -> Option<Limit> {
    let l = unsafe { &*cx.ptr("limit", limit)? };
    let lim = Limit {
        lo: l.lo,
        hi: l.hi,
        erp: l.erp,
        cfm: l.cfm,
        tolerance: l.tolerance,
        hold_steps: l.hold_steps.max(0) as u32,
    };
    cx.require(l.hold_steps >= 0, format_args!("argument 'limit': hold_steps = {} (must be >= 0)", l.hold_steps))?;
    if let Err(e) = lim.check() {
        return cx.fail(format_args!("argument 'limit': {e}"));
    }
    Some(lim)
}

/// Validates a callback's info record before anything reads it: non-null
/// and the record handed to the callback being served now. Returns its
/// context.
fn active(cx: &Cx, info: *mut c_void) -> Option<*mut c_void> {
    let (now_info, now_internal) = ACTIVE.with(|a| a.get());
    cx.require(
        !info.is_null() && info == now_info,
        format_args!("argument 'info' is not the record of the running custom-joint callback"),
    )?;
    Some(now_internal)
}

#[no_mangle]
pub unsafe extern "C" fn odexJointCreateCustom(
    w: dWorldID,
    g: dJointGroupID,
    callbacks: *const odexCustomJointCallbacks,
    user_data: *mut c_void,
) -> dJointID {
    call("odexJointCreateCustom", std::ptr::null_mut(), |cx| {
        let cb = unsafe { *cx.ptr("callbacks", callbacks)? };
        cx.require(cb.info1.is_some(), format_args!("argument 'callbacks': info1 is NULL"))?;
        cx.require(cb.info2.is_some(), format_args!("argument 'callbacks': info2 is NULL"))?;
        cx.require(
            (0..=odexMaxCustomRows).contains(&cb.max_rows),
            format_args!("argument 'callbacks': max_rows = {} (must be 0..={odexMaxCustomRows})", cb.max_rows),
        )?;
        let me = Arc::new(AtomicPtr::new(std::ptr::null_mut()));
        // Validation of w and g happens in `create` before the model exists,
        // so a refused call never runs the destroy callback.
        let model = CModel { cb, user: user_data, joint: me.clone() };
        let mut model = Some(model);
        let j = create(cx, w, g, |_| {
            let m = model.take().expect("built once");
            JointKind::Custom(Custom::new(Box::new(m), cb.max_rows as usize).expect("max_rows checked"))
        });
        if let Some(m) = model {
            // Not created: the host keeps its user data.
            std::mem::forget(m);
        }
        let j = j?;
        me.store(j, Ordering::Relaxed);
        Some(j)
    })
}

#[no_mangle]
pub unsafe extern "C" fn odexJointGetCustomUserData(j: dJointID) -> *mut c_void {
    call("odexJointGetCustomUserData", std::ptr::null_mut(), |cx| {
        let jt = joint(cx, j)?;
        let JointKind::Custom(c) = &mut jt.kind else {
            return super::objects_null::wrong_type(cx, &jt.kind, "custom joint");
        };
        // A custom joint made from Rust has no C user data.
        Some(
            c.model_mut()
                .as_any_mut()
                .and_then(|a| a.downcast_mut::<CModel>())
                .map_or(std::ptr::null_mut(), |m| m.user),
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn odexJointLimitTest(
    info: *mut odexJointInfo1,
    slot: c_int,
    value: dReal,
    limit: *const odexLimit,
) -> c_int {
    call("odexJointLimitTest", 0, |cx| {
        let info = cx.ptr_mut("info", info)?;
        let internal = active(cx, info as *mut c_void)?;
        let lim = limit_arg(cx, limit)?;
        cx.require(slot >= 0, format_args!("argument 'slot' = {slot} (must be >= 0)"))?;
        // SAFETY: `internal` is the Info1Cx the running callback was given
        // (checked by `active`); the adapter does not touch it meanwhile.
        let icx = unsafe { &mut *(internal as *mut Info1Cx<'_>) };
        match icx.limit(slot as usize, value, &lim) {
            Ok(on) => Some(on as c_int),
            Err(e) => cx.fail(format_args!("{e}")),
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn odexJointLimitRow(info: *mut odexJointInfo2, slot: c_int, row: *mut odexJointRow) -> c_int {
    call("odexJointLimitRow", 0, |cx| {
        let info = cx.ptr_mut("info", info)?;
        let internal = active(cx, info as *mut c_void)?;
        let row = unsafe { &mut *cx.ptr_mut("row", row)? };
        cx.require(slot >= 0, format_args!("argument 'slot' = {slot} (must be >= 0)"))?;
        // SAFETY: as in odexJointLimitTest.
        let icx = unsafe { &*(internal as *const Info2Cx<'_>) };
        let mut r = from_c(row);
        match icx.limit_row(slot as usize, &mut r) {
            Ok(()) => {
                *row = to_c(&r);
                Some(1)
            }
            Err(e) => cx.fail(format_args!("{e}")),
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn odexJointGetLimitState(j: dJointID, slot: c_int) -> c_int {
    call("odexJointGetLimitState", 0, |cx| {
        let jt = joint(cx, j)?;
        let JointKind::Custom(c) = &jt.kind else {
            return super::objects_null::wrong_type(cx, &jt.kind, "custom joint");
        };
        let n = c.limit_slots().len();
        cx.require(
            slot >= 0 && (slot as usize) < n,
            format_args!("argument 'slot' = {slot} (the joint has {n} slots)"),
        )?;
        Some(match c.limit_slots()[slot as usize].side {
            Side::Free => 0,
            Side::Lower => -1,
            Side::Upper => 1,
        })
    })
}

#[no_mangle]
pub unsafe extern "C" fn odexLimitInit(limit: *mut odexLimit, w: dWorldID) {
    call("odexLimitInit", (), |cx| {
        let l = cx.ptr_mut("limit", limit)?;
        let w = cx.handle(&crate::dynamics::world::WORLDS, w, "w", "world")?;
        let w = w.get();
        unsafe {
            *l = odexLimit {
                lo: f64::NEG_INFINITY,
                hi: f64::INFINITY,
                erp: w.erp,
                cfm: w.cfm,
                tolerance: 0.0,
                hold_steps: 0,
            }
        };
        Some(())
    })
}

/// Sets how many threads step the islands of world `w` in `dWorldStep` and
/// `dWorldQuickStep`: islands (groups of bodies connected by joints) are
/// stepped concurrently, each exactly as in a serial step, so results are
/// bit-identical at any thread count (`dRand` included). 1 steps serially;
/// 0 returns to the default (ODE's threading API if the host set an
/// implementation with `dWorldSetStepThreadingImplementation`, otherwise
/// the `ODE_THREADS` environment variable, otherwise 1). A single island is
/// never split, and worlds with body moved callbacks or custom joints are
/// always stepped serially. At most 64 threads are used.
#[no_mangle]
pub unsafe extern "C" fn odexWorldSetStepThreads(w: dWorldID, threads: c_int) {
    call("odexWorldSetStepThreads", (), |cx| {
        let w = super::objects_world::world(cx, w)?;
        cx.require(threads >= 0, format_args!("argument 'threads' is bad ({threads} < 0)"))?;
        w.get_mut().step_threads = threads as u32;
        Some(())
    })
}

/// The number of threads the next step of `w` may use for its islands
/// (after `odexWorldSetStepThreads`, the threading API and `ODE_THREADS`).
#[no_mangle]
pub unsafe extern "C" fn odexWorldGetStepThreads(w: dWorldID) -> c_int {
    call("odexWorldGetStepThreads", 0, |cx| {
        let w = super::objects_world::world(cx, w)?;
        Some(crate::pipeline::step_threads(w.get()) as c_int)
    })
}

/// `ODEX_SOLVER_EXACT` and `ODEX_SOLVER_FAST` (`ode/ode_ext.h`).
pub const ODEX_SOLVER_EXACT: c_int = 0;
pub const ODEX_SOLVER_FAST: c_int = 1;

/// Chooses the solver algorithms of world `w` from its next step on:
/// `ODEX_SOLVER_EXACT` (ODE's bits, the default) or `ODEX_SOLVER_FAST` (the
/// same model, faster algorithms). Overrides `ODE_SOLVER` for this world.
#[no_mangle]
pub unsafe extern "C" fn odexWorldSetSolverMode(w: dWorldID, mode: c_int) {
    call("odexWorldSetSolverMode", (), |cx| {
        use crate::dynamics::world::SolverMode;
        let w = super::objects_world::world(cx, w)?;
        let mode = match mode {
            ODEX_SOLVER_EXACT => SolverMode::Exact,
            ODEX_SOLVER_FAST => SolverMode::Fast,
            _ => {
                return cx
                    .fail(format_args!("argument 'mode' is bad ({mode}: not ODEX_SOLVER_EXACT or ODEX_SOLVER_FAST)"))
            }
        };
        w.get_mut().solver_mode = mode;
        Some(())
    })
}

/// The solver mode of world `w` (`ODEX_SOLVER_EXACT` or `ODEX_SOLVER_FAST`).
#[no_mangle]
pub unsafe extern "C" fn odexWorldGetSolverMode(w: dWorldID) -> c_int {
    call("odexWorldGetSolverMode", ODEX_SOLVER_EXACT, |cx| {
        let w = super::objects_world::world(cx, w)?;
        Some(match w.get().solver_mode {
            crate::dynamics::world::SolverMode::Exact => ODEX_SOLVER_EXACT,
            crate::dynamics::world::SolverMode::Fast => ODEX_SOLVER_FAST,
        })
    })
}

/// Chooses how `dSpaceCollide` finds the pairs of `space` from its next call
/// on: `ODEX_SOLVER_EXACT` (ODE's traversal and pair order, the default)
/// or `ODEX_SOLVER_FAST` (simple and hash spaces: a persistent sort and
/// sweep reporting the same pairs in another order; other spaces ignore
/// it). New spaces take `ODE_SOLVER`.
#[no_mangle]
pub unsafe extern "C" fn odexSpaceSetCollideMode(space: dSpaceID, mode: c_int) {
    call("odexSpaceSetCollideMode", (), |cx| {
        let s = super::collision::space_arg(cx, space, "space")?;
        let fast = match mode {
            ODEX_SOLVER_EXACT => false,
            ODEX_SOLVER_FAST => true,
            _ => {
                return cx
                    .fail(format_args!("argument 'mode' is bad ({mode}: not ODEX_SOLVER_EXACT or ODEX_SOLVER_FAST)"))
            }
        };
        crate::collision::space::sp(s).fast_collide = fast;
        Some(())
    })
}

/// The collide mode of `space` (`ODEX_SOLVER_EXACT` or `ODEX_SOLVER_FAST`).
#[no_mangle]
pub unsafe extern "C" fn odexSpaceGetCollideMode(space: dSpaceID) -> c_int {
    call("odexSpaceGetCollideMode", ODEX_SOLVER_EXACT, |cx| {
        let s = super::collision::space_arg(cx, space, "space")?;
        Some(if crate::collision::space::sp(s).fast_collide { ODEX_SOLVER_FAST } else { ODEX_SOLVER_EXACT })
    })
}
