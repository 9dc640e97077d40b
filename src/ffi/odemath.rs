//! extern "C" functions of odemath.h (the inline helpers of that header
//! are written in C in the header itself).

use super::{call, dReal, write_reals};
use crate::math::vec;
use std::ffi::c_int;

#[no_mangle]
pub unsafe extern "C" fn dSafeNormalize3(a: *mut dReal) -> c_int {
    call("dSafeNormalize3", 0, |cx| {
        let v = cx.read_finite::<3>("a", a)?;
        let mut v = v;
        let ok = vec::safe_normalize3(&mut v);
        write_reals(a, &v);
        Some(ok as c_int)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dSafeNormalize4(a: *mut dReal) -> c_int {
    call("dSafeNormalize4", 0, |cx| {
        let mut v = cx.read_finite::<4>("a", a)?;
        let ok = vec::safe_normalize4(&mut v);
        write_reals(a, &v);
        Some(ok as c_int)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dNormalize3(a: *mut dReal) {
    call("dNormalize3", (), |cx| {
        let mut v = cx.read_finite::<3>("a", a)?;
        // ODE asserts on the zero vector and turns a vector whose largest
        // component is below about 5.6e-309 into NaN; we report both and
        // leave `a` as is.
        cx.require(
            vec::normalizable3(&v),
            format_args!("argument 'a' cannot be normalised (zero, or too small: ODE gives NaN)"),
        )?;
        vec::normalize3(&mut v);
        write_reals(a, &v);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dNormalize4(a: *mut dReal) {
    call("dNormalize4", (), |cx| {
        let mut v = cx.read_finite::<4>("a", a)?;
        // ODE asserts when the squared length is not positive: the zero
        // vector, and also vectors so small that it underflows to 0.
        cx.require(
            vec::safe_normalize4(&mut v),
            format_args!("argument 'a' cannot be normalised (zero, or its squared length underflows)"),
        )?;
        write_reals(a, &v);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dPlaneSpace(n: *const dReal, p: *mut dReal, q: *mut dReal) {
    call("dPlaneSpace", (), |cx| {
        let nv = cx.read_finite::<3>("n", n)?;
        let p = cx.ptr_mut("p", p)?;
        let q = cx.ptr_mut("q", q)?;
        let (pv, qv) = vec::plane_space(&nv);
        write_reals(p, &pv);
        write_reals(q, &qv);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dOrthogonalizeR(m: *mut dReal) -> c_int {
    call("dOrthogonalizeR", 0, |cx| {
        let mut r = cx.read_finite::<12>("m", m)?;
        let ok = vec::orthogonalize_r(&mut r);
        if ok {
            write_reals(m, &r);
        }
        Some(ok as c_int)
    })
}
