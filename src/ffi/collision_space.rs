//! The functions of ODE's collision_space.h: creating the four kinds of
//! spaces and managing their contents and settings. Changes to a space
//! that is locked (the call comes from inside its collide callback) are
//! refused, as are cycles (a space added into itself or its own member).
#![allow(non_snake_case)]

use super::collision::{chain_locked, geom_arg, new_geom_space, space_arg};
use super::types::*;
use super::{call, Cx};
use crate::collision::geom::{class, g, GeomRef};
use crate::collision::space::{self, hash::Hash, quadtree::QuadTree, sap::Sap, Kind};
use std::ffi::c_int;

fn kind_space(cx: &Cx, s: dSpaceID, cls: i32, what: &str) -> Option<GeomRef> {
    let h = space_arg(cx, s, "space")?;
    cx.require(g(h).class == cls, format_args!("argument 'space' is not a {what} (class {})", g(h).class))?;
    Some(h)
}

fn not_locked(cx: &Cx, s: GeomRef) -> Option<()> {
    cx.require(
        !chain_locked(Some(s)),
        format_args!("argument 'space' is locked (called from inside its collide callback)"),
    )
}

#[no_mangle]
pub unsafe extern "C" fn dSimpleSpaceCreate(space: dSpaceID) -> dSpaceID {
    call("dSimpleSpaceCreate", std::ptr::null_mut(), |cx| {
        let p = new_geom_space(cx, space)?;
        Some(space::create(p, Kind::Simple).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dHashSpaceCreate(space: dSpaceID) -> dSpaceID {
    call("dHashSpaceCreate", std::ptr::null_mut(), |cx| {
        let p = new_geom_space(cx, space)?;
        Some(space::create(p, Kind::Hash(Hash::new())).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dQuadTreeSpaceCreate(
    space: dSpaceID,
    Center: *const dReal,
    Extents: *const dReal,
    Depth: c_int,
) -> dSpaceID {
    call("dQuadTreeSpaceCreate", std::ptr::null_mut(), |cx| {
        let p = new_geom_space(cx, space)?;
        let c = cx.read_finite::<3>("Center", Center)?;
        let e = cx.read_finite::<3>("Extents", Extents)?;
        // ODE asserts that the root block's x and y ranges, [c - e,
        // nextafter(c + e)], are not empty (a tiny negative extent passes).
        for k in 0..2 {
            cx.require(
                c[k] - e[k] <= next_up(c[k] + e[k]),
                format_args!("argument 'Extents'[{k}] = {:?} makes an empty range (ODE asserts)", e[k]),
            )?;
        }
        cx.require(
            (0..=space::quadtree::MAX_DEPTH).contains(&Depth),
            format_args!("argument 'Depth' = {Depth} is out of range (0 ..= {})", space::quadtree::MAX_DEPTH),
        )?;
        let Some(q) = QuadTree::new(c, e, Depth) else {
            return cx.fail(format_args!("cannot allocate a tree of depth {Depth}"));
        };
        Some(space::create(p, Kind::QuadTree(q)).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dSweepAndPruneSpaceCreate(space: dSpaceID, axisorder: c_int) -> dSpaceID {
    call("dSweepAndPruneSpaceCreate", std::ptr::null_mut(), |cx| {
        let p = new_geom_space(cx, space)?;
        use super::decl::collision_space::*;
        let valid = [dSAP_AXES_XYZ, dSAP_AXES_XZY, dSAP_AXES_YXZ, dSAP_AXES_YZX, dSAP_AXES_ZXY, dSAP_AXES_ZYX];
        cx.require(
            valid.contains(&axisorder),
            format_args!("argument 'axisorder' = {axisorder} is not one of the dSAP_AXES_* codes"),
        )?;
        Some(space::create(p, Kind::Sap(Sap::new(axisorder))).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dSpaceDestroy(space: dSpaceID) {
    call("dSpaceDestroy", (), |cx| {
        let s = space_arg(cx, space, "space")?;
        cx.require(!space::subtree_locked(s), format_args!("argument 'space' (or a space in it) is locked"))?;
        cx.require(!chain_locked(g(s).parent), format_args!("the space containing argument 'space' is locked"))?;
        crate::collision::geom::destroy(s);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dHashSpaceSetLevels(space: dSpaceID, minlevel: c_int, maxlevel: c_int) {
    call("dHashSpaceSetLevels", (), |cx| {
        let s = kind_space(cx, space, class::HASH_SPACE, "hash space")?;
        cx.require(minlevel <= maxlevel, format_args!("minlevel = {minlevel} is above maxlevel = {maxlevel}"))?;
        if let Kind::Hash(h) = &mut space::sp(s).kind {
            h.min_level = minlevel;
            h.max_level = maxlevel;
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dHashSpaceGetLevels(space: dSpaceID, minlevel: *mut c_int, maxlevel: *mut c_int) {
    call("dHashSpaceGetLevels", (), |cx| {
        let s = kind_space(cx, space, class::HASH_SPACE, "hash space")?;
        if let Kind::Hash(h) = &space::sp(s).kind {
            if !minlevel.is_null() {
                *minlevel = h.min_level;
            }
            if !maxlevel.is_null() {
                *maxlevel = h.max_level;
            }
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dSpaceSetCleanup(space: dSpaceID, mode: c_int) {
    call("dSpaceSetCleanup", (), |cx| {
        space::sp(space_arg(cx, space, "space")?).cleanup = mode != 0;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dSpaceGetCleanup(space: dSpaceID) -> c_int {
    call("dSpaceGetCleanup", 0, |cx| Some(space::sp(space_arg(cx, space, "space")?).cleanup as c_int))
}

#[no_mangle]
pub unsafe extern "C" fn dSpaceSetSublevel(space: dSpaceID, sublevel: c_int) {
    call("dSpaceSetSublevel", (), |cx| {
        space::sp(space_arg(cx, space, "space")?).sublevel = sublevel;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dSpaceGetSublevel(space: dSpaceID) -> c_int {
    call("dSpaceGetSublevel", 0, |cx| Some(space::sp(space_arg(cx, space, "space")?).sublevel))
}

#[no_mangle]
pub unsafe extern "C" fn dSpaceSetManualCleanup(space: dSpaceID, mode: c_int) {
    call("dSpaceSetManualCleanup", (), |cx| {
        space::sp(space_arg(cx, space, "space")?).manual_cleanup = mode != 0;
        Some(())
    })
}

/// Debian's build answers 1 whatever was set (its automatic and manual
/// thread-cleanup kinds coincide); so does this library.
#[no_mangle]
pub unsafe extern "C" fn dSpaceGetManualCleanup(space: dSpaceID) -> c_int {
    call("dSpaceGetManualCleanup", 0, |cx| {
        space_arg(cx, space, "space")?;
        Some(1)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dSpaceAdd(space: dSpaceID, geom: dGeomID) {
    call("dSpaceAdd", (), |cx| {
        let s = space_arg(cx, space, "space")?;
        let h = geom_arg(cx, geom, "geom")?;
        cx.require(g(h).parent.is_none(), format_args!("argument 'geom' is already in a space"))?;
        // A transform's carried geom must stay out of spaces (ODE asserts on
        // it when colliding; a carried ancestor would make AABBs recurse).
        cx.require(g(h).held == 0, format_args!("argument 'geom' is carried by a geom transform"))?;
        let mut anc = Some(s);
        while let Some(a) = anc {
            cx.require(a != h, format_args!("argument 'geom' is the space or contains it (a cycle)"))?;
            anc = g(a).parent;
        }
        not_locked(cx, s)?;
        space::add(s, h);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dSpaceRemove(space: dSpaceID, geom: dGeomID) {
    call("dSpaceRemove", (), |cx| {
        let s = space_arg(cx, space, "space")?;
        let h = geom_arg(cx, geom, "geom")?;
        cx.require(g(h).parent == Some(s), format_args!("argument 'geom' is not in this space"))?;
        not_locked(cx, s)?;
        space::remove(s, h);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dSpaceQuery(space: dSpaceID, geom: dGeomID) -> c_int {
    call("dSpaceQuery", 0, |cx| {
        let s = space_arg(cx, space, "space")?;
        let h = geom_arg(cx, geom, "geom")?;
        Some((g(h).parent == Some(s)) as c_int)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dSpaceClean(space: dSpaceID) {
    call("dSpaceClean", (), |cx| {
        let s = space_arg(cx, space, "space")?;
        cx.require(
            !space::is_locked(s),
            format_args!("argument 'space' is locked (called from inside its collide callback)"),
        )?;
        space::clean(s);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dSpaceGetNumGeoms(space: dSpaceID) -> c_int {
    call("dSpaceGetNumGeoms", 0, |cx| Some(space::sp(space_arg(cx, space, "space")?).count))
}

#[no_mangle]
pub unsafe extern "C" fn dSpaceGetGeom(space: dSpaceID, i: c_int) -> dGeomID {
    call("dSpaceGetGeom", std::ptr::null_mut(), |cx| {
        let s = space_arg(cx, space, "space")?;
        let n = space::sp(s).count;
        cx.require(i >= 0 && i < n, format_args!("argument 'i' = {i} is out of range (the space has {n} geoms)"))?;
        match space::get_geom(s, i) {
            Some(h) => Some(h.as_raw()),
            None => cx.fail(format_args!("quadtree spaces cannot be indexed (not implemented in ODE either)")),
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn dSpaceGetClass(space: dSpaceID) -> c_int {
    call("dSpaceGetClass", -1, |cx| Some(g(space_arg(cx, space, "space")?).class))
}

/// The next double above `x` (C's nextafter(x, +inf)).
fn next_up(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f64::from_bits(1);
    }
    let b = x.to_bits();
    f64::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}
