//! Our debug-draw hook (ode/ode_ext.h): `odexSpaceDraw` and `odexGeomDraw`
//! hand every geom of a space tree to a host's callback table with its
//! world placement, so any host (a drawstuff program, a robot simulator,
//! PyODE through ctypes) can draw a world without knowing ODE's classes.
//! The walk itself is the core's (`collision::draw`); this file converts
//! each item to a callback call.
#![allow(non_snake_case, non_camel_case_types)]

use super::collision::{geom_arg, space_arg};
use super::types::*;
use super::{call, Cx};
use crate::collision::draw::{self, DrawError, DrawItem, DrawScratch, DrawShape};
use crate::collision::geom::GeomRef;
use std::cell::RefCell;
use std::ffi::{c_int, c_uint, c_void};

/// The host's drawing callbacks; NULL entries are skipped (and not counted).
/// `pos` is the geom's world position (3 reals), `R` its world rotation
/// (ODE's 3x4 row-major dMatrix3, 12 reals), both as dGeomGetPosition and
/// dGeomGetRotation give them. Pointers are valid during the call only.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct odexDrawCallbacks {
    /// Box with full side lengths (dGeomBoxGetLengths).
    pub r#box: Option<
        unsafe extern "C" fn(user: *mut c_void, g: dGeomID, pos: *const dReal, R: *const dReal, sides: *const dReal),
    >,
    pub sphere:
        Option<unsafe extern "C" fn(user: *mut c_void, g: dGeomID, pos: *const dReal, R: *const dReal, radius: dReal)>,
    /// Capsule along the geom's z axis; `length` excludes the caps.
    pub capsule: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            g: dGeomID,
            pos: *const dReal,
            R: *const dReal,
            length: dReal,
            radius: dReal,
        ),
    >,
    /// Flat-ended cylinder along the geom's z axis.
    pub cylinder: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            g: dGeomID,
            pos: *const dReal,
            R: *const dReal,
            length: dReal,
            radius: dReal,
        ),
    >,
    /// Plane a*x + b*y + c*z = d, (a, b, c) unit (dGeomPlaneGetParams).
    pub plane: Option<unsafe extern "C" fn(user: *mut c_void, g: dGeomID, params: *const dReal)>,
    /// Ray from `start` along unit `dir` for `length` (dGeomRayGet).
    pub ray: Option<
        unsafe extern "C" fn(user: *mut c_void, g: dGeomID, start: *const dReal, dir: *const dReal, length: dReal),
    >,
    /// The host's arrays given to dCreateConvex, as dsDrawConvex takes them.
    pub convex: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            g: dGeomID,
            pos: *const dReal,
            R: *const dReal,
            planes: *const dReal,
            plane_count: c_uint,
            points: *const dReal,
            point_count: c_uint,
            polygons: *const c_uint,
        ),
    >,
    /// `n` triangles, 9 reals each (3 vertices), in the geom's frame.
    pub trimesh: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            g: dGeomID,
            pos: *const dReal,
            R: *const dReal,
            v: *const dReal,
            n: c_int,
        ),
    >,
    /// As trimesh: the grid as 2 triangles per cell in the geom's frame
    /// (y up, centred; a non-placeable heightfield is at the origin).
    pub heightfield: Option<
        unsafe extern "C" fn(
            user: *mut c_void,
            g: dGeomID,
            pos: *const dReal,
            R: *const dReal,
            v: *const dReal,
            n: c_int,
        ),
    >,
}

thread_local! {
    /// Reused buffers: a warm walk does not allocate. A callback that
    /// starts another walk finds it taken and uses a fresh one.
    static SCRATCH: RefCell<Option<DrawScratch>> = const { RefCell::new(None) };
}

/// Calls the callback of `item`'s class; false if that entry is NULL.
fn emit(cb: &odexDrawCallbacks, user: *mut c_void, item: &DrawItem<'_>) -> bool {
    let g = item.geom.as_raw();
    let pos = item.pose.pos.as_ptr();
    let r = item.pose.r.as_ptr();
    // SAFETY: the host registered these functions for this call; every
    // pointer handed out lives until the callback returns.
    unsafe {
        match item.shape {
            DrawShape::Box { sides } => cb.r#box.map(|f| f(user, g, pos, r, sides.as_ptr())).is_some(),
            DrawShape::Sphere { radius } => cb.sphere.map(|f| f(user, g, pos, r, radius)).is_some(),
            DrawShape::Capsule { radius, length } => cb.capsule.map(|f| f(user, g, pos, r, length, radius)).is_some(),
            DrawShape::Cylinder { radius, length } => cb.cylinder.map(|f| f(user, g, pos, r, length, radius)).is_some(),
            DrawShape::Plane { params } => cb.plane.map(|f| f(user, g, params.as_ptr())).is_some(),
            DrawShape::Ray { start, dir, length } => {
                cb.ray.map(|f| f(user, g, start.as_ptr(), dir.as_ptr(), length)).is_some()
            }
            DrawShape::Convex { planes, plane_count, points, point_count, polygons } => {
                cb.convex.map(|f| f(user, g, pos, r, planes, plane_count, points, point_count, polygons)).is_some()
            }
            DrawShape::TriMesh { triangles } => {
                cb.trimesh.map(|f| f(user, g, pos, r, triangles.as_ptr(), (triangles.len() / 9) as c_int)).is_some()
            }
            DrawShape::Heightfield { triangles } => {
                cb.heightfield.map(|f| f(user, g, pos, r, triangles.as_ptr(), (triangles.len() / 9) as c_int)).is_some()
            }
        }
    }
}

/// Runs a walk with the thread's scratch buffers and reports an early stop.
fn walk(
    cx: &Cx,
    root: GeomRef,
    cb: *const odexDrawCallbacks,
    user: *mut c_void,
    f: fn(GeomRef, &mut DrawScratch, &mut draw::Sink<'_>) -> Result<usize, DrawError>,
) -> Option<c_int> {
    let cb = unsafe { *cx.ptr("cb", cb)? };
    let mut scratch = SCRATCH.with(|s| s.borrow_mut().take()).unwrap_or_default();
    let r = f(root, &mut scratch, &mut |item| emit(&cb, user, item));
    SCRATCH.with(|s| *s.borrow_mut() = Some(scratch));
    match r {
        Ok(n) => Some(n as c_int),
        Err(DrawError::Destroyed { drawn }) => {
            // Reported, and the count so far returned.
            cx.fail::<()>(format_args!("a geom was destroyed by a draw callback during the walk (walk stopped)"));
            Some(drawn as c_int)
        }
    }
}

/// Calls `cb`'s entry for every geom in `space` and the spaces nested in
/// it (disabled geoms included), at its world placement. Returns how many
/// callbacks were made (NULL entries, user-class geoms and empty
/// transforms do not count). The space is locked during the walk, as in
/// dSpaceCollide: callbacks must not add, remove or destroy geoms (such
/// calls are refused and reported).
#[no_mangle]
pub unsafe extern "C" fn odexSpaceDraw(space: dSpaceID, cb: *const odexDrawCallbacks, user: *mut c_void) -> c_int {
    call("odexSpaceDraw", 0, |cx| {
        let s = space_arg(cx, space, "space")?;
        walk(cx, s, cb, user, draw::draw_space)
    })
}

/// As odexSpaceDraw for one geom (a space: its whole tree). The child of
/// a geom transform is drawn at its composed world placement and the
/// callback receives the child's handle.
#[no_mangle]
pub unsafe extern "C" fn odexGeomDraw(geom: dGeomID, cb: *const odexDrawCallbacks, user: *mut c_void) -> c_int {
    call("odexGeomDraw", 0, |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        walk(cx, h, cb, user, draw::draw_geom)
    })
}
