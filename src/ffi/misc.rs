//! extern "C" functions of ODE's misc.h: the global random generator
//! (`math::random`) and small matrix utilities on padded matrices.
#![allow(non_snake_case)]

use super::*;
use crate::math::matrix::{pad, span};
use crate::math::random;
use std::ffi::{c_char, c_int, c_ulong};

#[no_mangle]
pub unsafe extern "C" fn dTestRand() -> c_int {
    call("dTestRand", 0, |_| Some(random::self_test() as c_int))
}

#[no_mangle]
pub unsafe extern "C" fn dRand() -> c_ulong {
    call("dRand", 0, |_| Some(random::rand() as c_ulong))
}

#[no_mangle]
pub unsafe extern "C" fn dRandGetSeed() -> c_ulong {
    call("dRandGetSeed", 0, |_| Some(random::seed() as c_ulong))
}

#[no_mangle]
pub unsafe extern "C" fn dRandSetSeed(s: c_ulong) {
    call("dRandSetSeed", (), |_| {
        random::set_seed(s);
        Some(())
    })
}

/// Like ODE, `n` is used as an unsigned number: n = 0 gives 0, and a
/// negative `n` gives ODE's (defined but meaningless) values.
#[no_mangle]
pub unsafe extern "C" fn dRandInt(n: c_int) -> c_int {
    call("dRandInt", 0, |cx| {
        if n <= 0 {
            // ODE draws anyway (the seed advances) and returns 0 for n = 0,
            // a number in 0..2^32 read as int otherwise; so do we.
            cx.warn(format_args!("argument 'n' = {n} leaves no range 0..n-1 to draw from"));
        }
        Some(random::rand_int(n))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dRandReal() -> dReal {
    call("dRandReal", 0.0, |_| Some(random::rand_real()))
}

// Argument checks of this header (free functions: `Cx` is shared by all headers).

/// Row count, column count and the padded extent of a matrix argument.
fn padded(cx: &Cx, n: c_int, m: c_int, arg: &str, p: *const dReal) -> Option<(usize, usize, usize)> {
    cx.require(n >= 0 && m >= 0, format_args!("matrix size {n}x{m} is negative"))?;
    let (n, m) = (n as usize, m as usize);
    let len = span(n, m, pad(m));
    if len > 0 {
        cx.ptr(arg, p)?;
    }
    Some((n, m, len))
}

#[no_mangle]
pub unsafe extern "C" fn dPrintMatrix(A: *const dReal, n: c_int, m: c_int, fmt: *const c_char, f: *mut libc::FILE) {
    call("dPrintMatrix", (), |cx| {
        let (n, m, _) = padded(cx, n, m, "A", A)?;
        cx.ptr("fmt", fmt)?;
        cx.ptr_mut("f", f)?;
        let s = pad(m);
        for i in 0..n {
            for j in 0..m {
                libc::fprintf(f, fmt, *A.add(i * s + j));
            }
            libc::fputc(b'\n' as c_int, f);
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dMakeRandomVector(A: *mut dReal, n: c_int, range: dReal) {
    call("dMakeRandomVector", (), |cx| {
        let (_, n, _) = padded(cx, 1, n, "A", A)?;
        for i in 0..n {
            *A.add(i) = random::rand_symmetric(range);
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dMakeRandomMatrix(A: *mut dReal, n: c_int, m: c_int, range: dReal) {
    call("dMakeRandomMatrix", (), |cx| {
        let (n, m, _) = padded(cx, n, m, "A", A)?;
        let s = pad(m);
        for i in 0..n {
            for j in 0..m {
                *A.add(i * s + j) = random::rand_symmetric(range);
            }
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dClearUpperTriangle(A: *mut dReal, n: c_int) {
    call("dClearUpperTriangle", (), |cx| {
        let (n, _, _) = padded(cx, n, n, "A", A)?;
        let s = pad(n);
        for i in 0..n {
            for j in i + 1..n {
                *A.add(i * s + j) = 0.0;
            }
        }
        Some(())
    })
}

/// Largest |A - B| over the first `cols(i)` entries of each row (NaN
/// differences are skipped, as ODE's `>` comparison does).
unsafe fn max_diff(a: *const dReal, b: *const dReal, n: usize, stride: usize, cols: impl Fn(usize) -> usize) -> dReal {
    let mut max = 0.0;
    for i in 0..n {
        for j in 0..cols(i) {
            let diff = (*a.add(i * stride + j) - *b.add(i * stride + j)).abs();
            if diff > max {
                max = diff;
            }
        }
    }
    max
}

#[no_mangle]
pub unsafe extern "C" fn dMaxDifference(A: *const dReal, B: *const dReal, n: c_int, m: c_int) -> dReal {
    call("dMaxDifference", 0.0, |cx| {
        let (n, m, len) = padded(cx, n, m, "A", A)?;
        if len > 0 {
            cx.ptr("B", B)?;
        }
        Some(max_diff(A, B, n, pad(m), |_| m))
    })
}

#[no_mangle]
pub unsafe extern "C" fn dMaxDifferenceLowerTriangle(A: *const dReal, B: *const dReal, n: c_int) -> dReal {
    call("dMaxDifferenceLowerTriangle", 0.0, |cx| {
        let (n, _, len) = padded(cx, n, n, "A", A)?;
        if len > 0 {
            cx.ptr("B", B)?;
        }
        Some(max_diff(A, B, n, pad(n), |i| i + 1))
    })
}
