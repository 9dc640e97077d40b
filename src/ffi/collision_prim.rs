//! extern "C" geometry helpers of collision.h that need no geom objects:
//! `dBoxBox`, `dBoxTouchesBox`, `dClosestLineSegmentPoints`. The work is
//! done in `collision::colliders`.
#![allow(non_snake_case)]

use super::decl::contact::dContactGeom;
use super::{call, dReal, write_reals, Cx};
use crate::collision::colliders::box_box::{box_box, box_touches_box};
use crate::collision::colliders::capsule::closest_segment_points;
use std::ffi::c_int;

/// Reads a rotation matrix (3x4, row-major), requiring its 9 used entries
/// to be finite (the padding column is ignored, as ODE ignores it).
unsafe fn read_rotation(cx: &Cx, arg: &str, p: *const dReal) -> Option<[dReal; 12]> {
    let p = cx.ptr(arg, p)?;
    let mut r = [0.0; 12];
    for row in 0..3 {
        for col in 0..3 {
            let v = *p.add(4 * row + col);
            if !v.is_finite() {
                return cx.fail(format_args!("argument '{arg}'[{}] is {v} (must be finite)", 4 * row + col));
            }
            r[4 * row + col] = v;
        }
    }
    Some(r)
}

/// Reads box side lengths: finite. Unlike dCreateBox, ODE's box-box
/// helpers take any sides (a negative one just makes the separating-axis
/// tests fail), so negative sides are accepted and computed with as ODE
/// does.
unsafe fn read_sides(cx: &Cx, arg: &str, p: *const dReal) -> Option<[dReal; 3]> {
    cx.read_finite::<3>(arg, p)
}

#[no_mangle]
pub unsafe extern "C" fn dClosestLineSegmentPoints(
    a1: *const dReal,
    a2: *const dReal,
    b1: *const dReal,
    b2: *const dReal,
    cp1: *mut dReal,
    cp2: *mut dReal,
) {
    call("dClosestLineSegmentPoints", (), |cx| {
        let a1 = cx.read_finite::<3>("a1", a1)?;
        let a2 = cx.read_finite::<3>("a2", a2)?;
        let b1 = cx.read_finite::<3>("b1", b1)?;
        let b2 = cx.read_finite::<3>("b2", b2)?;
        let cp1 = cx.ptr_mut("cp1", cp1)?;
        let cp2 = cx.ptr_mut("cp2", cp2)?;
        let (p, q) = closest_segment_points(&a1, &a2, &b1, &b2);
        write_reals(cp1, &p);
        write_reals(cp2, &q);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dBoxTouchesBox(
    p1: *const dReal,
    R1: *const dReal,
    side1: *const dReal,
    p2: *const dReal,
    R2: *const dReal,
    side2: *const dReal,
) -> c_int {
    call("dBoxTouchesBox", 0, |cx| {
        let p1 = cx.read_finite::<3>("p1", p1)?;
        let r1 = read_rotation(cx, "R1", R1)?;
        let s1 = read_sides(cx, "side1", side1)?;
        let p2 = cx.read_finite::<3>("p2", p2)?;
        let r2 = read_rotation(cx, "R2", R2)?;
        let s2 = read_sides(cx, "side2", side2)?;
        Some(box_touches_box(&p1, &r1, &s1, &p2, &r2, &s2) as c_int)
    })
}

/// Writes the position and depth of contact `i` (and nothing else, as
/// ODE's dBoxBox does) into a strided C array.
unsafe fn write_pos_depth(base: *mut dContactGeom, skip: usize, i: usize, pos: &[dReal; 3], depth: dReal) {
    let g = (base as *mut u8).add(i * skip) as *mut dContactGeom;
    let p = std::ptr::addr_of_mut!((*g).pos) as *mut dReal;
    for (k, v) in pos.iter().enumerate() {
        p.add(k).write_unaligned(*v);
    }
    std::ptr::addr_of_mut!((*g).depth).write_unaligned(depth);
}

#[no_mangle]
pub unsafe extern "C" fn dBoxBox(
    p1: *const dReal,
    R1: *const dReal,
    side1: *const dReal,
    p2: *const dReal,
    R2: *const dReal,
    side2: *const dReal,
    normal: *mut dReal,
    depth: *mut dReal,
    return_code: *mut c_int,
    flags: c_int,
    contact: *mut dContactGeom,
    skip: c_int,
) -> c_int {
    call("dBoxBox", 0, |cx| {
        let p1 = cx.read_finite::<3>("p1", p1)?;
        let r1 = read_rotation(cx, "R1", R1)?;
        let s1 = read_sides(cx, "side1", side1)?;
        let p2 = cx.read_finite::<3>("p2", p2)?;
        let r2 = read_rotation(cx, "R2", R2)?;
        let s2 = read_sides(cx, "side2", side2)?;
        let normal = cx.ptr_mut("normal", normal)?;
        let depth = cx.ptr_mut("depth", depth)?;
        let return_code = cx.ptr_mut("return_code", return_code)?;
        let contact = cx.ptr_mut("contact", contact)?;
        // ODE writes contact i at byte offset i*skip without checking skip
        // (a skip below sizeof(dContactGeom) overlaps the records, 0 writes
        // them all to the first); only a negative skip, which would write
        // before the array, is refused.
        cx.require(skip >= 0, format_args!("argument 'skip' = {skip} is negative"))?;
        let res = box_box(&p1, &r1, &s1, &p2, &r2, &s2, flags);
        // Out-parameters are written exactly when ODE writes them.
        if let Some((n, d)) = res.normal_depth {
            write_reals(normal, &n);
            *depth = d;
        }
        if let Some(code) = res.code {
            *return_code = code;
        }
        for (i, (pos, d)) in res.points.iter().enumerate() {
            write_pos_depth(contact, skip as usize, i, pos, *d);
        }
        Some(res.points.len() as c_int)
    })
}
