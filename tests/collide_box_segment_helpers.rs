//! The exported geometry helpers of collision.h that need no geoms
//! (dBoxBox, dBoxTouchesBox, dClosestLineSegmentPoints): the same C program
//! run with Debian's library and with ours must print identical traces,
//! including which output fields each call writes; bad arguments are
//! reported and change nothing.
mod common;
use common::*;

#[test]
fn helpers_match_ode_bit_for_bit() {
    differential("diff_collide_box_segment_helpers");
}

/// Bad arguments (NULL pointers, non-finite numbers, a negative stride)
/// are reported and leave every output untouched; Debian's ODE would crash
/// on them. (Negative sides and strides below sizeof(dContactGeom) are not
/// bad: ODE computes with them, see diff_checks_boundaries_geoms.c.)
#[test]
fn bad_helper_arguments_are_rejected_without_writing() {
    use ode::ffi::collision_prim::*;
    use ode::ffi::decl::contact::dContactGeom;
    use std::ptr::{null, null_mut};
    let id = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    let p1 = [0.0; 4];
    let p2 = [0.5, 0.0, 0.0, 0.0];
    let s = [1.0, 1.0, 1.0, 0.0];
    let nan = [f64::NAN, 0.0, 0.0, 0.0];
    let stride = std::mem::size_of::<dContactGeom>() as i32;
    unsafe {
        let mut c: [dContactGeom; 4] = std::mem::zeroed();
        let (mut n, mut d, mut code) = ([7.0; 4], 7.0, 7);
        let call = |a: *const f64,
                    side: *const f64,
                    c: *mut dContactGeom,
                    skip: i32,
                    n: &mut [f64; 4],
                    d: &mut f64,
                    code: &mut i32| {
            dBoxBox(a, id.as_ptr(), side, p2.as_ptr(), id.as_ptr(), s.as_ptr(), n.as_mut_ptr(), d, code, 4, c, skip)
        };
        assert_eq!(call(null(), s.as_ptr(), c.as_mut_ptr(), stride, &mut n, &mut d, &mut code), 0);
        assert_eq!(call(nan.as_ptr(), s.as_ptr(), c.as_mut_ptr(), stride, &mut n, &mut d, &mut code), 0);
        assert_eq!(call(p1.as_ptr(), s.as_ptr(), null_mut(), stride, &mut n, &mut d, &mut code), 0);
        assert_eq!(call(p1.as_ptr(), s.as_ptr(), c.as_mut_ptr(), -8, &mut n, &mut d, &mut code), 0);
        assert_eq!((n, d, code), ([7.0; 4], 7.0, 7), "rejected calls wrote outputs");
        assert!(c.iter().all(|g| g.depth == 0.0 && g.pos == [0.0; 4]));
        // The same call with valid arguments does collide (face contact).
        assert_eq!(call(p1.as_ptr(), s.as_ptr(), c.as_mut_ptr(), stride, &mut n, &mut d, &mut code), 4);
        assert_eq!((n[0], d, code), (1.0, 0.5, 1));

        assert_eq!(dBoxTouchesBox(p1.as_ptr(), null(), s.as_ptr(), p2.as_ptr(), id.as_ptr(), s.as_ptr()), 0);
        assert_eq!(dBoxTouchesBox(p1.as_ptr(), id.as_ptr(), s.as_ptr(), p2.as_ptr(), id.as_ptr(), s.as_ptr()), 1);

        let mut cp = [9.0; 4];
        let mut cq = [9.0; 4];
        dClosestLineSegmentPoints(
            p1.as_ptr(),
            nan.as_ptr(),
            p2.as_ptr(),
            p2.as_ptr(),
            cp.as_mut_ptr(),
            cq.as_mut_ptr(),
        );
        dClosestLineSegmentPoints(p1.as_ptr(), p2.as_ptr(), p1.as_ptr(), p2.as_ptr(), null_mut(), cq.as_mut_ptr());
        assert_eq!((cp, cq), ([9.0; 4], [9.0; 4]));
    }
}
