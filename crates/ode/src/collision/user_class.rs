//! Geom classes defined by the host (`dCreateGeomClass`): up to four
//! classes, numbered from `class::FIRST_USER`, each with an AABB function,
//! an optional AABB test, an optional destructor and a function that
//! returns the collider for another class. Colliders are looked up on the
//! first collision of a class pair and then remembered in the dispatch
//! table (see `dispatch`), as ODE does. This module sits above the pair
//! dispatch: registering a class hands `dispatch` its collider look-up and
//! the geom layer the class's AABB, AABB test and destructor calls
//! (`geom::UserClassHooks`).

use super::geom::{self, class, g, GeomRef, Shape};
use crate::abi::collision::dGeomClass;
use std::sync::Mutex;

pub const MAX_CLASSES: usize = 4;

static CLASSES: Mutex<Vec<dGeomClass>> = Mutex::new(Vec::new());

fn classes() -> std::sync::MutexGuard<'static, Vec<dGeomClass>> {
    CLASSES.lock().unwrap_or_else(|e| e.into_inner())
}

/// Registers a class; `None` when all slots are taken.
pub fn create_class(c: dGeomClass) -> Option<i32> {
    let mut cl = classes();
    if cl.len() >= MAX_CLASSES {
        return None;
    }
    cl.push(c);
    let num = class::FIRST_USER + cl.len() as i32 - 1;
    drop(cl);
    geom::register_user_class_hooks(geom::UserClassHooks { compute_aabb, aabb_test, call_dtor });
    super::dispatch::set_user_class(num, c.collider);
    Some(num)
}

/// The collider table of a fresh initialisation, for the last
/// `dCloseODE`: overrides dropped, built-in entries back (ODE rebuilds its
/// table at the next initialisation). ODE also forgets its user classes
/// there; ours stay registered, since the Rust API keeps their numbers,
/// and collide as they did after their registration.
pub fn reset_collider_table() {
    let n = classes().len() as i32;
    let nums: Vec<i32> = (class::FIRST_USER..class::FIRST_USER + n).collect();
    super::dispatch::reset(&nums);
}

/// The record of a registered class number.
pub fn get(num: i32) -> Option<dGeomClass> {
    let i = num.checked_sub(class::FIRST_USER)?;
    classes().get(usize::try_from(i).ok()?).copied()
}

/// Zeroed storage of the class's size.
pub fn new_storage(bytes: i32) -> Vec<u64> {
    vec![0u64; (bytes.max(0) as usize).div_ceil(8)]
}

/// Pointer to a user geom's class data.
pub fn data_ptr(h: GeomRef) -> *mut std::ffi::c_void {
    match &mut g(h).shape {
        Shape::User(u) => u.storage.as_mut_ptr() as *mut std::ffi::c_void,
        _ => std::ptr::null_mut(),
    }
}

pub fn compute_aabb(h: GeomRef) {
    if let Some(f) = get(g(h).class).and_then(|c| c.aabb) {
        let p = g(h).aabb.as_mut_ptr();
        // SAFETY: a host function registered for this class; it fills six reals.
        unsafe { f(h.as_raw(), p) };
        // A NaN side would become a garbage cell index in the spaces (a hash
        // space then walks millions of cells): report it and give the geom
        // an unbounded box, which every space handles.
        let aabb = &mut g(h).aabb;
        if aabb.iter().any(|v| v.is_nan()) {
            crate::error::report(
                crate::error::Channel::Debug,
                crate::error::D_ERR_UASSERT,
                "dGeomClass aabb callback returned NaN; the geom gets an unbounded box",
            );
            *aabb =
                [f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY];
        }
    }
}

/// The class's AABB test of `a` against `b`'s box (true without a test or
/// for built-in classes).
#[inline]
pub fn aabb_test(a: GeomRef, b: GeomRef) -> bool {
    if g(a).class < class::FIRST_USER {
        return true;
    }
    match get(g(a).class).and_then(|c| c.aabb_test) {
        // SAFETY: a host function registered for this class.
        Some(f) => unsafe { f(a.as_raw(), b.as_raw(), g(b).aabb.as_mut_ptr()) != 0 },
        None => true,
    }
}

pub fn call_dtor(h: GeomRef) {
    if let Some(f) = get(g(h).class).and_then(|c| c.dtor) {
        // SAFETY: a host function registered for this class.
        unsafe { f(h.as_raw()) };
    }
}
