//! The functions of ODE's collision.h (except trimesh and the box/segment
//! helpers of the primitive colliders): geoms of every class, their pose,
//! body, offset, AABB and bits, `dCollide`, `dSpaceCollide(2)`, geom
//! transforms, heightfield data and user-defined classes.
//!
//! Beyond ODE's own assertions, calls are refused (reported, no effect)
//! for: non-finite reals, geoms of the wrong class, pose queries on
//! non-placeable geoms, offsets on geoms without body, and any change to a
//! geom whose space (or an enclosing space) is locked because the call
//! comes from inside that space's collide callback.
#![allow(non_snake_case)]

use super::decl::collision::{dGeomClass, dHeightfieldDataID};
use super::decl::contact::dContactGeom;
use super::types::*;
use super::{call, write_reals, Cx};
use crate::collision::dispatch;
use crate::collision::geom::{self, class, g, gflags, GeomRef, Shape, Transform, GEOMS};
use crate::collision::heightfield_data::{Buf, HeightfieldData, Samples, HEIGHTFIELDS};
use crate::collision::shapes::*;
use crate::collision::space;
use crate::collision::user_class;
use crate::dynamics::body::BODIES;
use std::ffi::{c_double, c_float, c_int, c_short, c_uchar, c_uint, c_ulong, c_void};

// ---- argument helpers ------------------------------------------------------------------

/// A live geom (or space).
pub(crate) fn geom_arg(cx: &Cx, h: dGeomID, arg: &str) -> Option<GeomRef> {
    cx.handle(&GEOMS, h, arg, "geom")
}

/// A live geom of class `cls` (`what` names it in messages).
fn class_arg(cx: &Cx, h: dGeomID, arg: &str, cls: i32, what: &str) -> Option<GeomRef> {
    let gr = geom_arg(cx, h, arg)?;
    let c = g(gr).class;
    cx.require(c == cls, format_args!("argument '{arg}' is not a {what} (its class is {c})"))?;
    Some(gr)
}

/// A live space.
pub(crate) fn space_arg(cx: &Cx, h: dSpaceID, arg: &str) -> Option<GeomRef> {
    let s = cx.handle(&GEOMS, h, arg, "space")?;
    cx.require(g(s).is_space(), format_args!("argument '{arg}' is a geom, not a space (class {})", g(s).class))?;
    Some(s)
}

/// Is `s` or a space containing it locked?
pub(crate) fn chain_locked(mut s: Option<GeomRef>) -> bool {
    while let Some(x) = s {
        if space::is_locked(x) {
            return true;
        }
        s = g(x).parent;
    }
    false
}

/// The space a geom is being created in: NULL, or a space not locked.
pub(crate) fn new_geom_space(cx: &Cx, h: dSpaceID) -> Option<Option<GeomRef>> {
    if h.is_null() {
        return Some(None);
    }
    let s = space_arg(cx, h, "space")?;
    cx.require(
        !chain_locked(Some(s)),
        format_args!("argument 'space' is locked (called from inside its collide callback)"),
    )?;
    Some(Some(s))
}

/// The geom's space (and the spaces around it) must not be locked.
pub(crate) fn unlocked(cx: &Cx, h: GeomRef, arg: &str) -> Option<()> {
    cx.require(
        !chain_locked(g(h).parent),
        format_args!("the space of argument '{arg}' is locked (called from inside its collide callback)"),
    )
}

fn placeable(cx: &Cx, h: GeomRef, arg: &str) -> Option<()> {
    cx.require(g(h).is_placeable(), format_args!("argument '{arg}' is not a placeable geom (class {})", g(h).class))
}

fn on_body(cx: &Cx, h: GeomRef, arg: &str) -> Option<()> {
    placeable(cx, h, arg)?;
    cx.require(g(h).body.is_some(), format_args!("argument '{arg}' is not attached to a body"))
}

fn vec3(cx: &Cx, names: &'static [&'static str; 3], x: dReal, y: dReal, z: dReal) -> Option<[dReal; 3]> {
    cx.vec3(names, x, y, z)
}

fn size(cx: &Cx, arg: &str, v: dReal) -> Option<dReal> {
    cx.check_real(arg, v, v >= 0.0, ">= 0")?;
    cx.warn_huge(&[arg], &[v]);
    Some(v)
}

/// A rotation matrix argument: 12 reals copied as given (pads included),
/// the nine entries finite.
unsafe fn matrix(cx: &Cx, arg: &str, p: *const dReal) -> Option<[dReal; 12]> {
    let p = cx.ptr(arg, p)?;
    let mut m = [0.0; 12];
    std::ptr::copy_nonoverlapping(p, m.as_mut_ptr(), 12);
    for (i, v) in m.iter().enumerate() {
        if i % 4 != 3 && !v.is_finite() {
            return cx.fail(format_args!("argument '{arg}'[{i}] is {v} (must be finite)"));
        }
    }
    cx.warn_huge_matrix(arg, &m);
    Some(m)
}

fn refused<T>(cx: &Cx, arg: &str, r: Result<T, String>) -> Option<T> {
    match r {
        Ok(v) => Some(v),
        Err(e) => cx.fail(format_args!("argument '{arg}' {e}")),
    }
}

unsafe fn out3(p: *mut dReal, v: [dReal; 3]) {
    write_reals(p, &v);
}

// ---- geom objects ------------------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn dGeomDestroy(geom: dGeomID) {
    call("dGeomDestroy", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        unlocked(cx, h, "geom")?;
        if g(h).is_space() {
            cx.require(!space::subtree_locked(h), format_args!("argument 'geom' is a locked space"))?;
        }
        geom::destroy(h);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomSetData(geom: dGeomID, data: *mut c_void) {
    call("dGeomSetData", (), |cx| {
        g(geom_arg(cx, geom, "geom")?).data = data;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomGetData(geom: dGeomID) -> *mut c_void {
    call("dGeomGetData", std::ptr::null_mut(), |cx| Some(g(geom_arg(cx, geom, "geom")?).data))
}

#[no_mangle]
pub unsafe extern "C" fn dGeomSetBody(geom: dGeomID, body: dBodyID) {
    call("dGeomSetBody", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        let b = cx.opt_handle(&BODIES, body, "body", "body")?;
        if b.is_some() {
            placeable(cx, h, "geom")?;
        }
        unlocked(cx, h, "geom")?;
        geom::set_body(h, b);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomGetBody(geom: dGeomID) -> dBodyID {
    // A live geom is answered directly: a near callback asks this twice
    // per candidate pair, and nothing here can panic or be refused, so
    // `call`'s set-up (a third of the cost) buys nothing. Anything else
    // takes `call` for its report.
    if let Some(h) = GEOMS.check(geom) {
        return g(h).body.map_or(std::ptr::null_mut(), |b| b.as_raw());
    }
    geom_get_body_refused(geom)
}

/// `dGeomGetBody` of a handle that is no live geom: its report. Out of
/// line, so that the answer above needs no stack frame.
#[cold]
#[inline(never)]
fn geom_get_body_refused(geom: dGeomID) -> dBodyID {
    call("dGeomGetBody", std::ptr::null_mut(), |cx| {
        Some(g(geom_arg(cx, geom, "geom")?).body.map_or(std::ptr::null_mut(), |b| b.as_raw()))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomSetPosition(geom: dGeomID, x: dReal, y: dReal, z: dReal) {
    call("dGeomSetPosition", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        placeable(cx, h, "geom")?;
        let p = vec3(cx, &["x", "y", "z"], x, y, z)?;
        unlocked(cx, h, "geom")?;
        refused(cx, "geom", geom::set_position_checked(h, p))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomSetRotation(geom: dGeomID, R: *const dReal) {
    call("dGeomSetRotation", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        placeable(cx, h, "geom")?;
        let m = matrix(cx, "R", R)?;
        unlocked(cx, h, "geom")?;
        refused(cx, "R", geom::set_rotation(h, &m))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomSetQuaternion(geom: dGeomID, Q: *const dReal) {
    call("dGeomSetQuaternion", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        placeable(cx, h, "geom")?;
        let q = cx.read_finite::<4>("Q", Q)?;
        cx.warn_huge_quaternion("Q", &q); // not normalised: dQtoR squares it
        unlocked(cx, h, "geom")?;
        refused(cx, "Q", geom::set_quaternion(h, &q))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomGetPosition(geom: dGeomID) -> *const dReal {
    call("dGeomGetPosition", std::ptr::null(), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        placeable(cx, h, "geom")?;
        Some(geom::position(h).as_ptr())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomCopyPosition(geom: dGeomID, pos: *mut dReal) {
    call("dGeomCopyPosition", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        placeable(cx, h, "geom")?;
        let out = cx.ptr_mut("pos", pos)?;
        let p = geom::position(h);
        out3(out, [p[0], p[1], p[2]]);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomGetRotation(geom: dGeomID) -> *const dReal {
    call("dGeomGetRotation", std::ptr::null(), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        placeable(cx, h, "geom")?;
        Some(geom::rotation(h).as_ptr())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomCopyRotation(geom: dGeomID, R: *mut dReal) {
    call("dGeomCopyRotation", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        placeable(cx, h, "geom")?;
        let out = cx.ptr_mut("R", R)?;
        let r = geom::rotation(h);
        for i in 0..3 {
            for j in 0..3 {
                *out.add(4 * i + j) = r[4 * i + j];
            }
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomGetQuaternion(geom: dGeomID, result: *mut dReal) {
    call("dGeomGetQuaternion", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        placeable(cx, h, "geom")?;
        let out = cx.ptr_mut("result", result)?;
        write_reals(out, &geom::quaternion(h));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomGetAABB(geom: dGeomID, aabb: *mut dReal) {
    call("dGeomGetAABB", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        let out = cx.ptr_mut("aabb", aabb)?;
        geom::recompute_aabb(h);
        write_reals(out, &g(h).aabb);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomIsSpace(geom: dGeomID) -> c_int {
    call("dGeomIsSpace", 0, |cx| Some(g(geom_arg(cx, geom, "geom")?).is_space() as c_int))
}

#[no_mangle]
pub unsafe extern "C" fn dGeomGetSpace(geom: dGeomID) -> dSpaceID {
    call("dGeomGetSpace", std::ptr::null_mut(), |cx| {
        Some(g(geom_arg(cx, geom, "geom")?).parent.map_or(std::ptr::null_mut(), |s| s.as_raw()))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomGetClass(geom: dGeomID) -> c_int {
    call("dGeomGetClass", -1, |cx| Some(g(geom_arg(cx, geom, "geom")?).class))
}

#[no_mangle]
pub unsafe extern "C" fn dGeomSetCategoryBits(geom: dGeomID, bits: c_ulong) {
    call("dGeomSetCategoryBits", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        unlocked(cx, h, "geom")?;
        g(h).category_bits = bits;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomSetCollideBits(geom: dGeomID, bits: c_ulong) {
    call("dGeomSetCollideBits", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        unlocked(cx, h, "geom")?;
        g(h).collide_bits = bits;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomGetCategoryBits(geom: dGeomID) -> c_ulong {
    call("dGeomGetCategoryBits", 0, |cx| Some(g(geom_arg(cx, geom, "geom")?).category_bits as c_ulong))
}

#[no_mangle]
pub unsafe extern "C" fn dGeomGetCollideBits(geom: dGeomID) -> c_ulong {
    call("dGeomGetCollideBits", 0, |cx| Some(g(geom_arg(cx, geom, "geom")?).collide_bits as c_ulong))
}

#[no_mangle]
pub unsafe extern "C" fn dGeomEnable(geom: dGeomID) {
    call("dGeomEnable", (), |cx| {
        g(geom_arg(cx, geom, "geom")?).gflags |= gflags::ENABLED;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomDisable(geom: dGeomID) {
    call("dGeomDisable", (), |cx| {
        g(geom_arg(cx, geom, "geom")?).gflags &= !gflags::ENABLED;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomIsEnabled(geom: dGeomID) -> c_int {
    call("dGeomIsEnabled", 0, |cx| Some(g(geom_arg(cx, geom, "geom")?).is_enabled() as c_int))
}

/// Only trimeshes answer control codes in ODE (the base implementation
/// asserts): in the collider class, "any" (answers 1 with size 0) and the
/// sphere-contact merge option (set and read). A data size that is not the
/// one a code needs is answered as ODE does: 0, with the needed size
/// written back.
#[no_mangle]
#[allow(non_upper_case_globals)]
pub unsafe extern "C" fn dGeomLowLevelControl(
    geom: dGeomID,
    controlClass: c_int,
    controlCode: c_int,
    dataValue: *mut c_void,
    dataSize: *mut c_int,
) -> c_int {
    use super::decl::collision::*;
    use crate::collision::trimesh::sphere_merge;
    call("dGeomLowLevelControl", 0, |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        let size = cx.ptr_mut("dataSize", dataSize)?;
        let unsupported = || {
            cx.fail(format_args!(
                "control class {controlClass} code {controlCode} is not supported by geoms of class {}",
                g(h).class
            ))
        };
        if g(h).class != class::TRIMESH || controlClass != dGeomColliderControlClass {
            return unsupported();
        }
        // ODE's size check: the exact size and a value pointer, else the
        // needed size is written back and the call answers 0.
        let sized = |need: c_int| -> bool {
            if *size == need && !dataValue.is_null() {
                true
            } else {
                *size = need;
                need == 0
            }
        };
        let int_size = std::mem::size_of::<c_int>() as c_int;
        match controlCode {
            dGeomCommonAnyControlCode => Some(sized(0) as c_int),
            dGeomColliderSetMergeSphereContactsControlCode => {
                if !sized(int_size) {
                    return Some(0);
                }
                let mode = match *(dataValue as *const c_int) {
                    dGeomColliderMergeContactsValue__Default => sphere_merge::NONE,
                    v @ (dGeomColliderMergeContactsValue_None
                    | dGeomColliderMergeContactsValue_Normals
                    | dGeomColliderMergeContactsValue_Full) => v,
                    v => return cx.fail(format_args!("invalid contact merge value {v}")),
                };
                crate::collision::trimesh_geom::of(h).sphere_merge = mode;
                Some(1)
            }
            dGeomColliderGetMergeSphereContactsControlCode => {
                if !sized(int_size) {
                    return Some(0);
                }
                *(dataValue as *mut c_int) = crate::collision::trimesh_geom::of(h).sphere_merge;
                Some(1)
            }
            _ => unsupported(),
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomGetRelPointPos(geom: dGeomID, px: dReal, py: dReal, pz: dReal, result: *mut dReal) {
    call("dGeomGetRelPointPos", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        let p = vec3(cx, &["px", "py", "pz"], px, py, pz)?;
        let out = cx.ptr_mut("result", result)?;
        out3(out, geom::rel_point_pos(h, p));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomGetPosRelPoint(geom: dGeomID, px: dReal, py: dReal, pz: dReal, result: *mut dReal) {
    call("dGeomGetPosRelPoint", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        let p = vec3(cx, &["px", "py", "pz"], px, py, pz)?;
        let out = cx.ptr_mut("result", result)?;
        out3(out, geom::pos_rel_point(h, p));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomVectorToWorld(geom: dGeomID, px: dReal, py: dReal, pz: dReal, result: *mut dReal) {
    call("dGeomVectorToWorld", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        let p = vec3(cx, &["px", "py", "pz"], px, py, pz)?;
        let out = cx.ptr_mut("result", result)?;
        out3(out, geom::vector_to_world(h, p));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomVectorFromWorld(geom: dGeomID, px: dReal, py: dReal, pz: dReal, result: *mut dReal) {
    call("dGeomVectorFromWorld", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        let p = vec3(cx, &["px", "py", "pz"], px, py, pz)?;
        let out = cx.ptr_mut("result", result)?;
        out3(out, geom::vector_from_world(h, p));
        Some(())
    })
}

// ---- offsets ----------------------------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn dGeomSetOffsetPosition(geom: dGeomID, x: dReal, y: dReal, z: dReal) {
    call("dGeomSetOffsetPosition", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        on_body(cx, h, "geom")?;
        let p = vec3(cx, &["x", "y", "z"], x, y, z)?;
        unlocked(cx, h, "geom")?;
        geom::set_offset_position(h, p);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomSetOffsetRotation(geom: dGeomID, R: *const dReal) {
    call("dGeomSetOffsetRotation", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        on_body(cx, h, "geom")?;
        let m = matrix(cx, "R", R)?;
        unlocked(cx, h, "geom")?;
        geom::set_offset_rotation(h, &m);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomSetOffsetQuaternion(geom: dGeomID, Q: *const dReal) {
    call("dGeomSetOffsetQuaternion", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        on_body(cx, h, "geom")?;
        let q = cx.read_finite::<4>("Q", Q)?;
        cx.warn_huge_quaternion("Q", &q); // not normalised: dQtoR squares it
        unlocked(cx, h, "geom")?;
        geom::set_offset_quaternion(h, &q);
        Some(())
    })
}

/// The world-offset setters store the offset in the body's frame,
/// Rᵀ(p − body position) and Rᵀ·R_world, which ODE keeps even where it
/// overflows or grows huge (a body near ±1.8e308, or one whose rotation
/// holds a huge entry: ODE keeps row 1 of a set rotation as given). The
/// geom's position is then inf or NaN: carried out as ODE does, with the
/// call's one huge-value warning (fuzz seed 22359).
fn warn_stored_offset(cx: &Cx, h: GeomRef) {
    let (p, r) = (geom::offset_position(h), geom::offset_rotation(h));
    let stored = [p[0], p[1], p[2], r[0], r[1], r[2], r[4], r[5], r[6], r[8], r[9], r[10]];
    if let Some(&v) = stored.iter().find(|v| !(v.abs() <= crate::error::HUGE_INPUT)) {
        cx.huge_pending(format_args!("'offset in the body's frame' (what ODE stores)"), v);
    }
}

#[no_mangle]
pub unsafe extern "C" fn dGeomSetOffsetWorldPosition(geom: dGeomID, x: dReal, y: dReal, z: dReal) {
    call("dGeomSetOffsetWorldPosition", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        on_body(cx, h, "geom")?;
        let p = vec3(cx, &["x", "y", "z"], x, y, z)?;
        unlocked(cx, h, "geom")?;
        geom::set_offset_world_position(h, p);
        warn_stored_offset(cx, h);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomSetOffsetWorldRotation(geom: dGeomID, R: *const dReal) {
    call("dGeomSetOffsetWorldRotation", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        on_body(cx, h, "geom")?;
        let m = matrix(cx, "R", R)?;
        unlocked(cx, h, "geom")?;
        geom::set_offset_world_rotation(h, &m);
        warn_stored_offset(cx, h);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomSetOffsetWorldQuaternion(geom: dGeomID, Q: *const dReal) {
    call("dGeomSetOffsetWorldQuaternion", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        on_body(cx, h, "geom")?;
        let q = cx.read_finite::<4>("Q", Q)?;
        cx.warn_huge_quaternion("Q", &q); // not normalised: dQtoR squares it
        unlocked(cx, h, "geom")?;
        geom::set_offset_world_quaternion(h, &q);
        warn_stored_offset(cx, h);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomClearOffset(geom: dGeomID) {
    call("dGeomClearOffset", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        placeable(cx, h, "geom")?;
        unlocked(cx, h, "geom")?;
        geom::clear_offset(h);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomIsOffset(geom: dGeomID) -> c_int {
    call("dGeomIsOffset", 0, |cx| Some(g(geom_arg(cx, geom, "geom")?).offset.is_some() as c_int))
}

#[no_mangle]
pub unsafe extern "C" fn dGeomGetOffsetPosition(geom: dGeomID) -> *const dReal {
    call("dGeomGetOffsetPosition", std::ptr::null(), |cx| {
        Some(geom::offset_position(geom_arg(cx, geom, "geom")?).as_ptr())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomCopyOffsetPosition(geom: dGeomID, pos: *mut dReal) {
    call("dGeomCopyOffsetPosition", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        let out = cx.ptr_mut("pos", pos)?;
        let p = geom::offset_position(h);
        out3(out, [p[0], p[1], p[2]]);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomGetOffsetRotation(geom: dGeomID) -> *const dReal {
    call("dGeomGetOffsetRotation", std::ptr::null(), |cx| {
        Some(geom::offset_rotation(geom_arg(cx, geom, "geom")?).as_ptr())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomCopyOffsetRotation(geom: dGeomID, R: *mut dReal) {
    call("dGeomCopyOffsetRotation", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        let out = cx.ptr_mut("R", R)?;
        let r = geom::offset_rotation(h);
        for i in 0..3 {
            for j in 0..3 {
                *out.add(4 * i + j) = r[4 * i + j];
            }
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomGetOffsetQuaternion(geom: dGeomID, result: *mut dReal) {
    call("dGeomGetOffsetQuaternion", (), |cx| {
        let h = geom_arg(cx, geom, "geom")?;
        let out = cx.ptr_mut("result", result)?;
        write_reals(out, &geom::offset_quaternion(h));
        Some(())
    })
}

// ---- collision ---------------------------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn dCollide(
    o1: dGeomID,
    o2: dGeomID,
    flags: c_int,
    contact: *mut dContactGeom,
    skip: c_int,
) -> c_int {
    call("dCollide", 0, |cx| {
        let a = geom_arg(cx, o1, "o1")?;
        let b = geom_arg(cx, o2, "o2")?;
        cx.require(flags & 0xffff != 0, format_args!("argument 'flags' asks for no contacts (flags & 0xffff is 0)"))?;
        let contact = cx.ptr_mut("contact", contact)?;
        let min = std::mem::size_of::<dContactGeom>();
        cx.require(
            skip >= 0 && skip as usize >= min,
            format_args!("argument 'skip' = {skip} is smaller than a dContactGeom ({min} bytes)"),
        )?;
        Some(dispatch::collide_raw(a, b, flags, contact, skip as usize) as c_int)
    })
}

/// Wraps a host near callback for the core.
fn near(
    data: *mut c_void,
    f: unsafe extern "C" fn(data: *mut c_void, o1: dGeomID, o2: dGeomID),
) -> impl FnMut(GeomRef, GeomRef) {
    // SAFETY: the host's callback, called as ODE calls it.
    move |a, b| unsafe { f(data, a.as_raw(), b.as_raw()) }
}

#[no_mangle]
pub unsafe extern "C" fn dSpaceCollide(
    space: dSpaceID,
    data: *mut c_void,
    callback: Option<unsafe extern "C" fn(data: *mut c_void, o1: dGeomID, o2: dGeomID)>,
) {
    call("dSpaceCollide", (), |cx| {
        let s = space_arg(cx, space, "space")?;
        let Some(f) = callback else { return cx.fail(format_args!("argument 'callback' is NULL")) };
        let mut cb = near(data, f);
        space::collide(s, &mut cb);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dSpaceCollide2(
    space1: dGeomID,
    space2: dGeomID,
    data: *mut c_void,
    callback: Option<unsafe extern "C" fn(data: *mut c_void, o1: dGeomID, o2: dGeomID)>,
) {
    call("dSpaceCollide2", (), |cx| {
        let a = geom_arg(cx, space1, "space1")?;
        let b = geom_arg(cx, space2, "space2")?;
        let Some(f) = callback else { return cx.fail(format_args!("argument 'callback' is NULL")) };
        let mut cb = near(data, f);
        space::collide2(a, b, &mut cb);
        Some(())
    })
}

// ---- sphere ---------------------------------------------------------------------------------------------

fn sphere_of(h: GeomRef) -> &'static mut Sphere {
    match &mut g(h).shape {
        Shape::Sphere(s) => s,
        _ => unreachable!(),
    }
}

#[no_mangle]
pub unsafe extern "C" fn dCreateSphere(space: dSpaceID, radius: dReal) -> dGeomID {
    call("dCreateSphere", std::ptr::null_mut(), |cx| {
        let s = new_geom_space(cx, space)?;
        let radius = size(cx, "radius", radius)?;
        Some(geom::create(s, true, class::SPHERE, Shape::Sphere(Sphere { radius })).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomSphereSetRadius(sphere: dGeomID, radius: dReal) {
    call("dGeomSphereSetRadius", (), |cx| {
        let h = class_arg(cx, sphere, "sphere", class::SPHERE, "sphere")?;
        let radius = size(cx, "radius", radius)?;
        unlocked(cx, h, "sphere")?;
        geom::edit_shape(h, |s| {
            if let Shape::Sphere(s) = s {
                s.radius = radius;
            }
        });
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomSphereGetRadius(sphere: dGeomID) -> dReal {
    call("dGeomSphereGetRadius", 0.0, |cx| {
        let h = class_arg(cx, sphere, "sphere", class::SPHERE, "sphere")?;
        Some(sphere_of(h).radius)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomSpherePointDepth(sphere: dGeomID, x: dReal, y: dReal, z: dReal) -> dReal {
    call("dGeomSpherePointDepth", 0.0, |cx| {
        let h = class_arg(cx, sphere, "sphere", class::SPHERE, "sphere")?;
        let p = vec3(cx, &["x", "y", "z"], x, y, z)?;
        Some(geom::sphere_point_depth(sphere_of(h).radius, geom::position(h), p))
    })
}

// ---- convex ------------------------------------------------------------------------------------------------

unsafe fn convex_args(cx: &Cx, planes: *const dReal, points: *const dReal, polygons: *const c_uint) -> Option<()> {
    cx.ptr("_planes", planes)?;
    cx.ptr("_points", points)?;
    cx.ptr("_polygons", polygons)?;
    Some(())
}

/// The hull itself, checked before anything is stored: colliders index the
/// point array with the polygon list, so an index past `pointcount` would
/// read outside the host's array (ODE reads garbage there), and ODE asserts
/// that every polygon has at least three vertices. Empty plane or point
/// sets describe no solid (ODE's AABB then reads point 0 regardless).
/// Non-unit plane normals are accepted, as ODE uses them as given.
unsafe fn convex_check(
    cx: &Cx,
    planes: *const dReal,
    planecount: c_uint,
    points: *const dReal,
    pointcount: c_uint,
    polygons: *const c_uint,
) -> Option<()> {
    cx.require(planecount > 0, format_args!("argument '_planecount' is 0 (a convex needs faces)"))?;
    cx.require(pointcount > 0, format_args!("argument '_pointcount' is 0 (a convex needs points)"))?;
    for k in 0..4 * planecount as usize {
        let v = *planes.add(k);
        if !v.is_finite() {
            return cx.fail(format_args!("argument '_planes'[{k}] (plane {}) is {v} (must be finite)", k / 4));
        }
    }
    for k in 0..3 * pointcount as usize {
        let v = *points.add(k);
        if !v.is_finite() {
            return cx.fail(format_args!("argument '_points'[{k}] (point {}) is {v} (must be finite)", k / 3));
        }
    }
    // Finite but huge coordinates are ODE's to accept; say that the AABB
    // and colliders may overflow on them (README, "Huge finite values").
    cx.warn_huge_array("_planes", std::slice::from_raw_parts(planes, 4 * planecount as usize));
    cx.warn_huge_array("_points", std::slice::from_raw_parts(points, 3 * pointcount as usize));
    let mut poly = polygons;
    for i in 0..planecount {
        let n = *poly;
        cx.require(
            (3..=pointcount).contains(&n),
            format_args!(
                "argument '_polygons': polygon {i} has {n} vertices (must be 3 to _pointcount = {pointcount})"
            ),
        )?;
        for j in 0..n as usize {
            let v = *poly.add(1 + j);
            cx.require(
                v < pointcount,
                format_args!(
                    "argument '_polygons': polygon {i} vertex {j} is point {v}, past _pointcount = {pointcount}"
                ),
            )?;
        }
        poly = poly.add(n as usize + 1);
    }
    Some(())
}

/// ODE's creation-time sanity messages, printed on the C stdout as
/// Debian's build does: a polygon whose first three points turn clockwise
/// (seen from the origin), a plane with negative distance.
unsafe fn convex_warnings(planes: *const dReal, count: c_uint, points: *const dReal, polygons: *const c_uint) {
    let pt = |i: u32, k: usize| *points.add(3 * i as usize + k);
    let mut poly = polygons;
    for i in 0..count {
        let idx = poly.add(1);
        let (a, b, c) = (*idx, *idx.add(1), *idx.add(2));
        let det = pt(a, 0) * pt(b, 1) * pt(c, 2) + pt(a, 1) * pt(b, 2) * pt(c, 0) + pt(a, 2) * pt(b, 0) * pt(c, 1)
            - pt(a, 2) * pt(b, 1) * pt(c, 0)
            - pt(a, 1) * pt(b, 0) * pt(c, 2)
            - pt(a, 0) * pt(b, 2) * pt(c, 1);
        if det < 0.0 {
            libc::printf(c"WARNING: Polygon %d is not defined counterclockwise\n".as_ptr(), i as c_int);
        }
        poly = poly.add(*poly as usize + 1);
        if *planes.add(4 * i as usize + 3) < 0.0 {
            libc::printf(c"WARNING: Plane %d does not contain the origin\n".as_ptr(), i as c_int);
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn dCreateConvex(
    space: dSpaceID,
    _planes: *const dReal,
    _planecount: c_uint,
    _points: *const dReal,
    _pointcount: c_uint,
    _polygons: *const c_uint,
) -> dGeomID {
    call("dCreateConvex", std::ptr::null_mut(), |cx| {
        let s = new_geom_space(cx, space)?;
        convex_args(cx, _planes, _points, _polygons)?;
        convex_check(cx, _planes, _planecount, _points, _pointcount, _polygons)?;
        convex_warnings(_planes, _planecount, _points, _polygons);
        let c = geom::Convex {
            planes: _planes,
            plane_count: _planecount,
            points: _points,
            point_count: _pointcount,
            polygons: _polygons,
            edges: geom::Convex::build_edges(_planecount, _polygons),
        };
        Some(geom::create(s, true, class::CONVEX, Shape::Convex(c)).as_raw())
    })
}

/// Replaces the convex's arrays (referenced; as in ODE, the edge list and
/// the cached AABB are not refreshed).
#[no_mangle]
pub unsafe extern "C" fn dGeomSetConvex(
    g_: dGeomID,
    _planes: *const dReal,
    _count: c_uint,
    _points: *const dReal,
    _pointcount: c_uint,
    _polygons: *const c_uint,
) {
    call("dGeomSetConvex", (), |cx| {
        let h = class_arg(cx, g_, "g", class::CONVEX, "convex")?;
        convex_args(cx, _planes, _points, _polygons)?;
        convex_check(cx, _planes, _count, _points, _pointcount, _polygons)?;
        if let Shape::Convex(c) = &mut g(h).shape {
            c.planes = _planes;
            c.plane_count = _count;
            c.points = _points;
            c.point_count = _pointcount;
            c.polygons = _polygons;
        }
        Some(())
    })
}

// ---- box --------------------------------------------------------------------------------------------------------

fn box_of(h: GeomRef) -> &'static mut BoxShape {
    match &mut g(h).shape {
        Shape::Box(s) => s,
        _ => unreachable!(),
    }
}

#[no_mangle]
pub unsafe extern "C" fn dCreateBox(space: dSpaceID, lx: dReal, ly: dReal, lz: dReal) -> dGeomID {
    call("dCreateBox", std::ptr::null_mut(), |cx| {
        let s = new_geom_space(cx, space)?;
        let sides = [size(cx, "lx", lx)?, size(cx, "ly", ly)?, size(cx, "lz", lz)?];
        Some(geom::create(s, true, class::BOX, Shape::Box(BoxShape { sides })).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomBoxSetLengths(box_: dGeomID, lx: dReal, ly: dReal, lz: dReal) {
    call("dGeomBoxSetLengths", (), |cx| {
        let h = class_arg(cx, box_, "box", class::BOX, "box")?;
        let sides = [size(cx, "lx", lx)?, size(cx, "ly", ly)?, size(cx, "lz", lz)?];
        unlocked(cx, h, "box")?;
        geom::edit_shape(h, |s| {
            if let Shape::Box(b) = s {
                b.sides = sides;
            }
        });
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomBoxGetLengths(box_: dGeomID, result: *mut dReal) {
    call("dGeomBoxGetLengths", (), |cx| {
        let h = class_arg(cx, box_, "box", class::BOX, "box")?;
        let out = cx.ptr_mut("result", result)?;
        out3(out, box_of(h).sides);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomBoxPointDepth(box_: dGeomID, x: dReal, y: dReal, z: dReal) -> dReal {
    call("dGeomBoxPointDepth", 0.0, |cx| {
        let h = class_arg(cx, box_, "box", class::BOX, "box")?;
        let p = vec3(cx, &["x", "y", "z"], x, y, z)?;
        Some(geom::box_point_depth(&box_of(h).sides, &geom::pose(h), p))
    })
}

// ---- plane ------------------------------------------------------------------------------------------------------

fn plane_of(h: GeomRef) -> &'static mut Plane {
    match &mut g(h).shape {
        Shape::Plane(s) => s,
        _ => unreachable!(),
    }
}

/// ODE replaces a normal it cannot normalise by the plane x = 0 (and one
/// whose squared length overflows becomes zero); the call goes on the same
/// way here, with a report.
fn warn_plane_normal(cx: &Cx, n: [dReal; 3]) {
    let l = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
    if !(l > 0.0 && l.is_finite()) {
        cx.warn(format_args!(
            "normal ({}, {}, {}) cannot be normalised; the plane is ODE's fallback",
            n[0], n[1], n[2]
        ));
    }
}

#[no_mangle]
pub unsafe extern "C" fn dCreatePlane(space: dSpaceID, a: dReal, b: dReal, c: dReal, d: dReal) -> dGeomID {
    call("dCreatePlane", std::ptr::null_mut(), |cx| {
        let s = new_geom_space(cx, space)?;
        let n = cx.vec3_unit(["a", "b", "c"], a, b, c)?;
        let d = cx.finite("d", d)?;
        warn_plane_normal(cx, n);
        let p = geom::normalized_plane(n[0], n[1], n[2], d);
        Some(geom::create(s, false, class::PLANE, Shape::Plane(p)).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomPlaneSetParams(plane: dGeomID, a: dReal, b: dReal, c: dReal, d: dReal) {
    call("dGeomPlaneSetParams", (), |cx| {
        let h = class_arg(cx, plane, "plane", class::PLANE, "plane")?;
        let n = cx.vec3_unit(["a", "b", "c"], a, b, c)?;
        let d = cx.finite("d", d)?;
        unlocked(cx, h, "plane")?;
        warn_plane_normal(cx, n);
        let p = geom::normalized_plane(n[0], n[1], n[2], d);
        geom::edit_shape(h, |s| *s = Shape::Plane(p));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomPlaneGetParams(plane: dGeomID, result: *mut dReal) {
    call("dGeomPlaneGetParams", (), |cx| {
        let h = class_arg(cx, plane, "plane", class::PLANE, "plane")?;
        let out = cx.ptr_mut("result", result)?;
        let p = plane_of(h);
        write_reals(out, &[p.n[0], p.n[1], p.n[2], p.d]);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomPlanePointDepth(plane: dGeomID, x: dReal, y: dReal, z: dReal) -> dReal {
    call("dGeomPlanePointDepth", 0.0, |cx| {
        let h = class_arg(cx, plane, "plane", class::PLANE, "plane")?;
        let p = vec3(cx, &["x", "y", "z"], x, y, z)?;
        Some(geom::plane_point_depth(plane_of(h), p))
    })
}

// ---- capsule and cylinder -----------------------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn dCreateCapsule(space: dSpaceID, radius: dReal, length: dReal) -> dGeomID {
    call("dCreateCapsule", std::ptr::null_mut(), |cx| {
        let s = new_geom_space(cx, space)?;
        let c = Capsule { radius: size(cx, "radius", radius)?, length: size(cx, "length", length)? };
        Some(geom::create(s, true, class::CAPSULE, Shape::Capsule(c)).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomCapsuleSetParams(ccylinder: dGeomID, radius: dReal, length: dReal) {
    call("dGeomCapsuleSetParams", (), |cx| {
        let h = class_arg(cx, ccylinder, "ccylinder", class::CAPSULE, "capsule")?;
        let c = Capsule { radius: size(cx, "radius", radius)?, length: size(cx, "length", length)? };
        unlocked(cx, h, "ccylinder")?;
        geom::edit_shape(h, |s| *s = Shape::Capsule(c));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomCapsuleGetParams(ccylinder: dGeomID, radius: *mut dReal, length: *mut dReal) {
    call("dGeomCapsuleGetParams", (), |cx| {
        let h = class_arg(cx, ccylinder, "ccylinder", class::CAPSULE, "capsule")?;
        let r = cx.ptr_mut("radius", radius)?;
        let l = cx.ptr_mut("length", length)?;
        if let Shape::Capsule(c) = &g(h).shape {
            *r = c.radius;
            *l = c.length;
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomCapsulePointDepth(ccylinder: dGeomID, x: dReal, y: dReal, z: dReal) -> dReal {
    call("dGeomCapsulePointDepth", 0.0, |cx| {
        let h = class_arg(cx, ccylinder, "ccylinder", class::CAPSULE, "capsule")?;
        let p = vec3(cx, &["x", "y", "z"], x, y, z)?;
        let pose = geom::pose(h);
        match &g(h).shape {
            Shape::Capsule(c) => Some(geom::capsule_point_depth(c, &pose, p)),
            _ => None,
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn dCreateCylinder(space: dSpaceID, radius: dReal, length: dReal) -> dGeomID {
    call("dCreateCylinder", std::ptr::null_mut(), |cx| {
        let s = new_geom_space(cx, space)?;
        let c = Cylinder { radius: size(cx, "radius", radius)?, length: size(cx, "length", length)? };
        Some(geom::create(s, true, class::CYLINDER, Shape::Cylinder(c)).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomCylinderSetParams(cylinder: dGeomID, radius: dReal, length: dReal) {
    call("dGeomCylinderSetParams", (), |cx| {
        let h = class_arg(cx, cylinder, "cylinder", class::CYLINDER, "cylinder")?;
        let c = Cylinder { radius: size(cx, "radius", radius)?, length: size(cx, "length", length)? };
        unlocked(cx, h, "cylinder")?;
        geom::edit_shape(h, |s| *s = Shape::Cylinder(c));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomCylinderGetParams(cylinder: dGeomID, radius: *mut dReal, length: *mut dReal) {
    call("dGeomCylinderGetParams", (), |cx| {
        let h = class_arg(cx, cylinder, "cylinder", class::CYLINDER, "cylinder")?;
        let r = cx.ptr_mut("radius", radius)?;
        let l = cx.ptr_mut("length", length)?;
        if let Shape::Cylinder(c) = &g(h).shape {
            *r = c.radius;
            *l = c.length;
        }
        Some(())
    })
}

// ---- ray ----------------------------------------------------------------------------------------------------------

fn ray_of(h: GeomRef) -> &'static mut Ray {
    match &mut g(h).shape {
        Shape::Ray(s) => s,
        _ => unreachable!(),
    }
}

fn ray_arg(cx: &Cx, h: dGeomID) -> Option<GeomRef> {
    class_arg(cx, h, "ray", class::RAY, "ray")
}

fn set_ray_flag(h: GeomRef, bit: u32, on: bool) {
    let r = ray_of(h);
    if on {
        r.flags |= bit;
    } else {
        r.flags &= !bit;
    }
}

/// Ray lengths ODE stores but that make no sense, reported: a negative one
/// (the ray then hits nothing) and an infinite one (hit positions are
/// right, but the AABB and the contact depths come out infinite).
fn warn_ray_length(cx: &Cx, length: dReal) {
    if length < 0.0 {
        cx.warn(format_args!("argument 'length' = {length} is negative: the ray hits nothing"));
    } else if length.is_infinite() {
        cx.warn(format_args!("argument 'length' is infinite: AABB and contact depths will be infinite"));
    }
}

#[no_mangle]
pub unsafe extern "C" fn dCreateRay(space: dSpaceID, length: dReal) -> dGeomID {
    call("dCreateRay", std::ptr::null_mut(), |cx| {
        let s = new_geom_space(cx, space)?;
        let length = cx.not_nan("length", length)?;
        warn_ray_length(cx, length);
        Some(geom::create(s, true, class::RAY, Shape::Ray(Ray { length, flags: 0 })).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomRaySetLength(ray: dGeomID, length: dReal) {
    call("dGeomRaySetLength", (), |cx| {
        let h = ray_arg(cx, ray)?;
        let length = cx.not_nan("length", length)?;
        unlocked(cx, h, "ray")?;
        warn_ray_length(cx, length);
        geom::edit_shape(h, |s| {
            if let Shape::Ray(r) = s {
                r.length = length;
            }
        });
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomRayGetLength(ray: dGeomID) -> dReal {
    call("dGeomRayGetLength", 0.0, |cx| Some(ray_of(ray_arg(cx, ray)?).length))
}

#[no_mangle]
pub unsafe extern "C" fn dGeomRaySet(ray: dGeomID, px: dReal, py: dReal, pz: dReal, dx: dReal, dy: dReal, dz: dReal) {
    call("dGeomRaySet", (), |cx| {
        let h = ray_arg(cx, ray)?;
        let p = vec3(cx, &["px", "py", "pz"], px, py, pz)?;
        let d = cx.vec3_unit(["dx", "dy", "dz"], dx, dy, dz)?;
        // ODE normalises the direction: it asserts on zero and gives NaN
        // for one too small to normalise (see vec::normalizable3).
        cx.require(
            crate::math::vec::normalizable3(&d),
            format_args!("the direction ({dx:?}, {dy:?}, {dz:?}) cannot be normalised"),
        )?;
        unlocked(cx, h, "ray")?;
        geom::ray_set(h, p, d);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomRayGet(ray: dGeomID, start: *mut dReal, dir: *mut dReal) {
    call("dGeomRayGet", (), |cx| {
        let h = ray_arg(cx, ray)?;
        let s = cx.ptr_mut("start", start)?;
        let d = cx.ptr_mut("dir", dir)?;
        let (p, r) = (geom::position(h), geom::rotation(h));
        out3(s, [p[0], p[1], p[2]]);
        out3(d, [r[2], r[6], r[10]]);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomRaySetParams(g_: dGeomID, FirstContact: c_int, BackfaceCull: c_int) {
    call("dGeomRaySetParams", (), |cx| {
        let h = class_arg(cx, g_, "g", class::RAY, "ray")?;
        set_ray_flag(h, ray_flags::FIRST_CONTACT, FirstContact != 0);
        set_ray_flag(h, ray_flags::BACKFACE_CULL, BackfaceCull != 0);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomRayGetParams(g_: dGeomID, FirstContact: *mut c_int, BackfaceCull: *mut c_int) {
    call("dGeomRayGetParams", (), |cx| {
        let h = class_arg(cx, g_, "g", class::RAY, "ray")?;
        let f = cx.ptr_mut("FirstContact", FirstContact)?;
        let b = cx.ptr_mut("BackfaceCull", BackfaceCull)?;
        let fl = ray_of(h).flags;
        *f = (fl & ray_flags::FIRST_CONTACT != 0) as c_int;
        *b = (fl & ray_flags::BACKFACE_CULL != 0) as c_int;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomRaySetFirstContact(g_: dGeomID, firstContact: c_int) {
    call("dGeomRaySetFirstContact", (), |cx| {
        set_ray_flag(class_arg(cx, g_, "g", class::RAY, "ray")?, ray_flags::FIRST_CONTACT, firstContact != 0);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomRayGetFirstContact(g_: dGeomID) -> c_int {
    call("dGeomRayGetFirstContact", 0, |cx| {
        Some((ray_of(class_arg(cx, g_, "g", class::RAY, "ray")?).flags & ray_flags::FIRST_CONTACT != 0) as c_int)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomRaySetBackfaceCull(g_: dGeomID, backfaceCull: c_int) {
    call("dGeomRaySetBackfaceCull", (), |cx| {
        set_ray_flag(class_arg(cx, g_, "g", class::RAY, "ray")?, ray_flags::BACKFACE_CULL, backfaceCull != 0);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomRayGetBackfaceCull(g_: dGeomID) -> c_int {
    call("dGeomRayGetBackfaceCull", 0, |cx| {
        Some((ray_of(class_arg(cx, g_, "g", class::RAY, "ray")?).flags & ray_flags::BACKFACE_CULL != 0) as c_int)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomRaySetClosestHit(g_: dGeomID, closestHit: c_int) {
    call("dGeomRaySetClosestHit", (), |cx| {
        set_ray_flag(class_arg(cx, g_, "g", class::RAY, "ray")?, ray_flags::CLOSEST_HIT, closestHit != 0);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomRayGetClosestHit(g_: dGeomID) -> c_int {
    call("dGeomRayGetClosestHit", 0, |cx| {
        Some((ray_of(class_arg(cx, g_, "g", class::RAY, "ray")?).flags & ray_flags::CLOSEST_HIT != 0) as c_int)
    })
}

// ---- geom transform ----------------------------------------------------------------------------------------

fn transform_arg(cx: &Cx, h: dGeomID) -> Option<(GeomRef, &'static mut Transform)> {
    let t = class_arg(cx, h, "g", class::TRANSFORM, "geom transform")?;
    match &mut g(t).shape {
        Shape::Transform(tr) => Some((t, tr)),
        _ => None,
    }
}

#[no_mangle]
pub unsafe extern "C" fn dCreateGeomTransform(space: dSpaceID) -> dGeomID {
    call("dCreateGeomTransform", std::ptr::null_mut(), |cx| {
        let s = new_geom_space(cx, space)?;
        Some(geom::create(s, true, class::TRANSFORM, Shape::Transform(Transform::new())).as_raw())
    })
}

/// Sets the carried geom; an owned previous one is destroyed, as in ODE.
#[no_mangle]
pub unsafe extern "C" fn dGeomTransformSetGeom(g_: dGeomID, obj: dGeomID) {
    call("dGeomTransformSetGeom", (), |cx| {
        let (t, _) = transform_arg(cx, g_)?;
        let o = cx.opt_handle(&GEOMS, obj, "obj", "geom")?;
        cx.require(o != Some(t), format_args!("argument 'obj' is the transform itself"))?;
        if let Some(o) = o {
            // A carried space or a chain of transforms leading back to `t`
            // would make the AABB computation recurse forever; a carried geom
            // in a space is what ODE asserts on when colliding.
            cx.require(
                !g(o).is_space(),
                format_args!("argument 'obj' is a space (a transform carries a single geom)"),
            )?;
            cx.require(
                g(o).parent.is_none(),
                format_args!("argument 'obj' is in a space (a carried geom must be in none)"),
            )?;
            let mut c = Some(o);
            while let Some(x) = c {
                cx.require(x != t, format_args!("argument 'obj' carries the transform (a cycle)"))?;
                c = match &g(x).shape {
                    Shape::Transform(_) => crate::collision::geom::transform_child(x),
                    _ => None,
                };
            }
        }
        let tr = match &mut g(t).shape {
            Shape::Transform(tr) => tr,
            _ => return None,
        };
        let old = tr.obj.filter(|c| c.is_live());
        if old == o {
            return Some(());
        }
        if let Some(old) = old {
            if tr.cleanup != 0 {
                if chain_locked(g(old).parent) || (g(old).is_space() && space::subtree_locked(old)) {
                    return cx.fail(format_args!("the carried geom to be destroyed is in a locked space"));
                }
                g(old).held = g(old).held.saturating_sub(1);
                geom::destroy(old);
            } else {
                g(old).held = g(old).held.saturating_sub(1);
            }
        }
        if let Some(o) = o {
            g(o).held += 1;
        }
        if let Shape::Transform(tr) = &mut g(t).shape {
            tr.obj = o;
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTransformGetGeom(g_: dGeomID) -> dGeomID {
    call("dGeomTransformGetGeom", std::ptr::null_mut(), |cx| {
        let (t, _) = transform_arg(cx, g_)?;
        Some(crate::collision::geom::transform_child(t).map_or(std::ptr::null_mut(), |c| c.as_raw()))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTransformSetCleanup(g_: dGeomID, mode: c_int) {
    call("dGeomTransformSetCleanup", (), |cx| {
        transform_arg(cx, g_)?.1.cleanup = mode;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTransformGetCleanup(g_: dGeomID) -> c_int {
    call("dGeomTransformGetCleanup", 0, |cx| Some(transform_arg(cx, g_)?.1.cleanup))
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTransformSetInfo(g_: dGeomID, mode: c_int) {
    call("dGeomTransformSetInfo", (), |cx| {
        transform_arg(cx, g_)?.1.info = mode;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTransformGetInfo(g_: dGeomID) -> c_int {
    call("dGeomTransformGetInfo", 0, |cx| Some(transform_arg(cx, g_)?.1.info))
}

// ---- heightfield ----------------------------------------------------------------------------------------------

fn hf_arg(cx: &Cx, d: dHeightfieldDataID) -> Option<crate::collision::heightfield_data::HeightfieldRef> {
    cx.handle(&HEIGHTFIELDS, d, "d", "heightfield data")
}

#[no_mangle]
pub unsafe extern "C" fn dCreateHeightfield(space: dSpaceID, data: dHeightfieldDataID, bPlaceable: c_int) -> dGeomID {
    call("dCreateHeightfield", std::ptr::null_mut(), |cx| {
        let s = new_geom_space(cx, space)?;
        cx.handle(&HEIGHTFIELDS, data, "data", "heightfield data")?;
        let shape = Shape::Heightfield(geom::HeightfieldGeom { data });
        Some(geom::create(s, bPlaceable != 0, class::HEIGHTFIELD, shape).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomHeightfieldDataCreate() -> dHeightfieldDataID {
    call("dGeomHeightfieldDataCreate", std::ptr::null_mut(), |_| {
        Some(HEIGHTFIELDS.alloc(HeightfieldData::new()).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomHeightfieldDataDestroy(d: dHeightfieldDataID) {
    call("dGeomHeightfieldDataDestroy", (), |cx| {
        HEIGHTFIELDS.free(hf_arg(cx, d)?);
        Some(())
    })
}

/// Grid arguments shared by the build functions (ODE asserts at least one
/// cell and positive extents).
struct Grid {
    ws: i32,
    ds: i32,
    width: f64,
    depth: f64,
    scale: f64,
    offset: f64,
    thickness: f64,
}

#[allow(clippy::too_many_arguments)]
fn grid_args(
    cx: &Cx,
    width: dReal,
    depth: dReal,
    ws: c_int,
    ds: c_int,
    scale: dReal,
    offset: dReal,
    thickness: dReal,
) -> Option<Grid> {
    let width = cx.check_real("width", width, width > 0.0, "> 0")?;
    let depth = cx.check_real("depth", depth, depth > 0.0, "> 0")?;
    cx.require(ws >= 2, format_args!("argument 'widthSamples' = {ws} is out of range (>= 2)"))?;
    cx.require(ds >= 2, format_args!("argument 'depthSamples' = {ds} is out of range (>= 2)"))?;
    cx.require(
        (ws as i64) * (ds as i64) <= i32::MAX as i64,
        format_args!("widthSamples × depthSamples = {} is too large", ws as i64 * ds as i64),
    )?;
    let grid = Grid {
        ws,
        ds,
        width,
        depth,
        scale: cx.finite("scale", scale)?,
        offset: cx.finite("offset", offset)?,
        thickness: cx.finite("thickness", thickness)?,
    };
    // Accepted as by ODE, but heights scaled by a huge factor overflow the
    // geom's AABB (to inf, or NaN against the bounds) without a word.
    cx.warn_huge(&["width", "depth", "scale", "offset", "thickness"], &[width, depth, scale, offset, thickness]);
    Some(grid)
}

fn build(d: &mut HeightfieldData, gr: &Grid, wrap: c_int, samples: Samples) {
    d.set_grid(gr.ws, gr.ds, gr.width, gr.depth, gr.scale, gr.offset, gr.thickness, wrap != 0);
    d.samples = samples;
    d.compute_height_bounds();
}

#[no_mangle]
pub unsafe extern "C" fn dGeomHeightfieldDataBuildCallback(
    d: dHeightfieldDataID,
    pUserData: *mut c_void,
    pCallback: Option<unsafe extern "C" fn(p_user_data: *mut c_void, x: c_int, z: c_int) -> dReal>,
    width: dReal,
    depth: dReal,
    widthSamples: c_int,
    depthSamples: c_int,
    scale: dReal,
    offset: dReal,
    thickness: dReal,
    bWrap: c_int,
) {
    call("dGeomHeightfieldDataBuildCallback", (), |cx| {
        let h = hf_arg(cx, d)?;
        let f = pCallback;
        cx.require(f.is_some(), format_args!("argument 'pCallback' is NULL"))?;
        let gr = grid_args(cx, width, depth, widthSamples, depthSamples, scale, offset, thickness)?;
        let data = h.get_mut();
        data.set_grid(gr.ws, gr.ds, gr.width, gr.depth, gr.scale, gr.offset, gr.thickness, bWrap != 0);
        data.samples = Samples::Callback { user: pUserData, f };
        data.min_height = -f64::INFINITY;
        data.max_height = f64::INFINITY;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomHeightfieldDataBuildByte(
    d: dHeightfieldDataID,
    pHeightData: *const c_uchar,
    bCopyHeightData: c_int,
    width: dReal,
    depth: dReal,
    widthSamples: c_int,
    depthSamples: c_int,
    scale: dReal,
    offset: dReal,
    thickness: dReal,
    bWrap: c_int,
) {
    call("dGeomHeightfieldDataBuildByte", (), |cx| {
        let h = hf_arg(cx, d)?;
        let p = cx.ptr("pHeightData", pHeightData)?;
        let gr = grid_args(cx, width, depth, widthSamples, depthSamples, scale, offset, thickness)?;
        let n = (gr.ws * gr.ds) as usize;
        build(h.get_mut(), &gr, bWrap, Samples::Byte(Buf::new(p, n, bCopyHeightData != 0)));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomHeightfieldDataBuildShort(
    d: dHeightfieldDataID,
    pHeightData: *const c_short,
    bCopyHeightData: c_int,
    width: dReal,
    depth: dReal,
    widthSamples: c_int,
    depthSamples: c_int,
    scale: dReal,
    offset: dReal,
    thickness: dReal,
    bWrap: c_int,
) {
    call("dGeomHeightfieldDataBuildShort", (), |cx| {
        let h = hf_arg(cx, d)?;
        let p = cx.ptr("pHeightData", pHeightData)?;
        let gr = grid_args(cx, width, depth, widthSamples, depthSamples, scale, offset, thickness)?;
        let n = (gr.ws * gr.ds) as usize;
        build(h.get_mut(), &gr, bWrap, Samples::Short(Buf::new(p, n, bCopyHeightData != 0)));
        Some(())
    })
}

/// Refuses height samples that are not finite: ODE stores them, and every
/// contact with the field near them comes out NaN.
///
/// # Safety
/// `p` points to `n` readable samples (the caller's promise to ODE).
unsafe fn finite_samples<T: Copy + Into<f64>>(cx: &Cx, p: *const T, n: usize) -> Option<()> {
    // SAFETY: see above; `p` is non-null (checked by the caller).
    let samples = unsafe { std::slice::from_raw_parts(p, n) };
    match samples.iter().position(|&v| !v.into().is_finite()) {
        None => Some(()),
        Some(i) => cx.fail(format_args!("argument 'pHeightData'[{i}] = {} is not finite", samples[i].into())),
    }
}

#[no_mangle]
pub unsafe extern "C" fn dGeomHeightfieldDataBuildSingle(
    d: dHeightfieldDataID,
    pHeightData: *const c_float,
    bCopyHeightData: c_int,
    width: dReal,
    depth: dReal,
    widthSamples: c_int,
    depthSamples: c_int,
    scale: dReal,
    offset: dReal,
    thickness: dReal,
    bWrap: c_int,
) {
    call("dGeomHeightfieldDataBuildSingle", (), |cx| {
        let h = hf_arg(cx, d)?;
        let p = cx.ptr("pHeightData", pHeightData)?;
        let gr = grid_args(cx, width, depth, widthSamples, depthSamples, scale, offset, thickness)?;
        let n = (gr.ws * gr.ds) as usize;
        finite_samples(cx, p, n)?;
        build(h.get_mut(), &gr, bWrap, Samples::Single(Buf::new(p, n, bCopyHeightData != 0)));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomHeightfieldDataBuildDouble(
    d: dHeightfieldDataID,
    pHeightData: *const c_double,
    bCopyHeightData: c_int,
    width: dReal,
    depth: dReal,
    widthSamples: c_int,
    depthSamples: c_int,
    scale: dReal,
    offset: dReal,
    thickness: dReal,
    bWrap: c_int,
) {
    call("dGeomHeightfieldDataBuildDouble", (), |cx| {
        let h = hf_arg(cx, d)?;
        let p = cx.ptr("pHeightData", pHeightData)?;
        let gr = grid_args(cx, width, depth, widthSamples, depthSamples, scale, offset, thickness)?;
        let n = (gr.ws * gr.ds) as usize;
        finite_samples(cx, p, n)?;
        build(h.get_mut(), &gr, bWrap, Samples::Double(Buf::new(p, n, bCopyHeightData != 0)));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomHeightfieldDataSetBounds(d: dHeightfieldDataID, minHeight: dReal, maxHeight: dReal) {
    call("dGeomHeightfieldDataSetBounds", (), |cx| {
        let h = hf_arg(cx, d)?;
        let lo = cx.not_nan("minHeight", minHeight)?;
        let hi = cx.not_nan("maxHeight", maxHeight)?;
        let data = h.get_mut();
        // Infinite bounds are ODE's defaults, but times a zero scale (data
        // not built yet) or plus an opposite infinity they make ODE's
        // scaled bounds, and the geom's AABB, NaN.
        let (old_min, old_max) = (data.min_height, data.max_height);
        data.set_bounds(lo, hi);
        if data.min_height.is_nan() || data.max_height.is_nan() {
            (data.min_height, data.max_height) = (old_min, old_max);
            return cx.fail(format_args!(
                "bounds ({lo}, {hi}) with scale {} and offset {} give NaN scaled bounds",
                data.scale, data.offset
            ));
        }
        // ODE's AABB of a placeable heightfield special-cases a minimum of
        // -inf and a maximum of +inf (its defaults) but not the opposite
        // infinities (an infinite bound, turned around by a negative scale,
        // or a finite one overflowing), which it multiplies by the zero
        // entries of the rotation: NaN.
        if data.min_height == f64::INFINITY || data.max_height == -f64::INFINITY {
            let (min, max) = (data.min_height, data.max_height);
            (data.min_height, data.max_height) = (old_min, old_max);
            return cx.fail(format_args!(
                "bounds ({lo}, {hi}) with scale {} and offset {} give the scaled bounds ({min}, {max}), \
                 which make a placeable heightfield's AABB NaN",
                data.scale, data.offset
            ));
        }
        // Stored as in ODE. Compared after scaling, since a negative scale
        // turns correct bounds around.
        if data.min_height > data.max_height {
            cx.warn(format_args!(
                "bounds ({lo}, {hi}) give a scaled minimum {} above the maximum {}",
                data.min_height, data.max_height
            ));
        }
        Some(())
    })
}

/// Replaces the geom's data object. As in ODE, the cached AABB is not
/// refreshed until the geom moves.
#[no_mangle]
pub unsafe extern "C" fn dGeomHeightfieldSetHeightfieldData(g_: dGeomID, d: dHeightfieldDataID) {
    call("dGeomHeightfieldSetHeightfieldData", (), |cx| {
        let h = class_arg(cx, g_, "g", class::HEIGHTFIELD, "heightfield")?;
        hf_arg(cx, d)?;
        if let Shape::Heightfield(hf) = &mut g(h).shape {
            hf.data = d;
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomHeightfieldGetHeightfieldData(g_: dGeomID) -> dHeightfieldDataID {
    call("dGeomHeightfieldGetHeightfieldData", std::ptr::null_mut(), |cx| {
        let h = class_arg(cx, g_, "g", class::HEIGHTFIELD, "heightfield")?;
        match &g(h).shape {
            Shape::Heightfield(hf) => Some(hf.data),
            _ => None,
        }
    })
}

// ---- helpers and user classes ---------------------------------------------------------------------------------

/// An AABB function for user classes without bounds: everything.
#[no_mangle]
pub unsafe extern "C" fn dInfiniteAABB(geom: dGeomID, aabb: *mut dReal) {
    call("dInfiniteAABB", (), |cx| {
        let _ = geom;
        let out = cx.ptr_mut("aabb", aabb)?;
        let i = f64::INFINITY;
        write_reals(out, &[-i, i, -i, i, -i, i]);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dCreateGeomClass(classptr: *const dGeomClass) -> c_int {
    call("dCreateGeomClass", -1, |cx| {
        let c = *cx.ptr("classptr", classptr)?;
        cx.require(c.bytes >= 0, format_args!("classptr->bytes = {} is negative", c.bytes))?;
        cx.require(c.collider.is_some(), format_args!("classptr->collider is NULL"))?;
        cx.require(c.aabb.is_some(), format_args!("classptr->aabb is NULL"))?;
        match user_class::create_class(c) {
            Some(n) => Some(n),
            None => cx.fail(format_args!("too many user classes (ODE allows {})", user_class::MAX_CLASSES)),
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomGetClassData(g_: dGeomID) -> *mut c_void {
    call("dGeomGetClassData", std::ptr::null_mut(), |cx| {
        let h = geom_arg(cx, g_, "g")?;
        cx.require(matches!(g(h).shape, Shape::User(_)), format_args!("argument 'g' is not of a user-defined class"))?;
        Some(user_class::data_ptr(h))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dCreateGeom(classnum: c_int) -> dGeomID {
    call("dCreateGeom", std::ptr::null_mut(), |cx| {
        let Some(c) = user_class::get(classnum) else {
            return cx.fail(format_args!("argument 'classnum' = {classnum} is not a class made by dCreateGeomClass"));
        };
        let shape = Shape::User(geom::UserGeom { storage: user_class::new_storage(c.bytes) });
        Some(geom::create(None, true, classnum, shape).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dSetColliderOverride(
    i: c_int,
    j: c_int,
    fn_: Option<
        unsafe extern "C" fn(o1: dGeomID, o2: dGeomID, flags: c_int, contact: *mut dContactGeom, skip: c_int) -> c_int,
    >,
) {
    call("dSetColliderOverride", (), |cx| {
        let n = class::COUNT as c_int;
        cx.require((0..n).contains(&i), format_args!("argument 'i' = {i} is not a class number (0 ..= {})", n - 1))?;
        cx.require((0..n).contains(&j), format_args!("argument 'j' = {j} is not a class number (0 ..= {})", n - 1))?;
        dispatch::set_override(i, j, fn_);
        Some(())
    })
}
