//! extern "C" functions of ODE's matrix.h: validate sizes and pointers, build
//! slices of exactly the extent ODE touches, delegate to `math::matrix`.
//!
//! Matrices without an explicit stride are padded (`dPAD`). Where ODE's
//! routines read an input that may legitimately share memory with an output
//! (e.g. `dInvertPDMatrix(A, A, n)`), the input is copied first so that the
//! Rust slices never alias; outputs that overlap each other are rejected.

// Parameter names follow ODE's header (A, L, ...), so the generated header reads the same.
#![allow(non_snake_case)]

use super::*;
use crate::math::matrix as m;
use std::ffi::c_int;

/// Do the element ranges `[a, a+alen)` and `[b, b+blen)` overlap?
fn overlaps(a: *const dReal, alen: usize, b: *const dReal, blen: usize) -> bool {
    if alen == 0 || blen == 0 {
        return false;
    }
    let (a0, b0) = (a as usize, b as usize);
    let sz = std::mem::size_of::<dReal>();
    a0 < b0 + blen * sz && b0 < a0 + alen * sz
}

/// A read-only input of `len` reals, copied when it overlaps `out`.
///
/// # Safety
/// `p` must point to `len` readable reals.
unsafe fn input<'a>(p: *const dReal, len: usize, out: *const dReal, out_len: usize) -> std::borrow::Cow<'a, [dReal]> {
    if len == 0 {
        return std::borrow::Cow::Borrowed(&[]);
    }
    let s = std::slice::from_raw_parts(p, len);
    if overlaps(p, len, out, out_len) {
        std::borrow::Cow::Owned(s.to_vec())
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// # Safety
/// `p` must point to `len` writable reals (or `len == 0`).
unsafe fn out_slice<'a>(p: *mut dReal, len: usize) -> &'a mut [dReal] {
    if len == 0 {
        &mut []
    } else {
        std::slice::from_raw_parts_mut(p, len)
    }
}

// Argument checks of this header (free functions: `Cx` is shared by all headers).

/// A size argument that must be >= `min`.
fn size(cx: &Cx, arg: &str, v: c_int, min: c_int) -> Option<usize> {
    if v >= min {
        Some(v as usize)
    } else {
        cx.fail(format_args!("argument '{arg}' = {v} must be >= {min}"))
    }
}

/// A pointer that must be non-null when it spans elements.
fn data<T>(cx: &Cx, arg: &str, p: *const T, len: usize) -> Option<()> {
    if len > 0 && p.is_null() {
        cx.fail(format_args!("argument '{arg}' is NULL"))
    } else {
        Some(())
    }
}

/// The leading dimension of a matrix with `n` columns.
fn skip(cx: &Cx, nskip: c_int, n: usize) -> Option<usize> {
    if nskip >= 0 && nskip as usize >= n {
        Some(nskip as usize)
    } else {
        cx.fail(format_args!("argument 'nskip' = {nskip} must be >= n = {n}"))
    }
}

fn disjoint(cx: &Cx, a: &str, pa: *const dReal, la: usize, b: &str, pb: *const dReal, lb: usize) -> Option<()> {
    cx.require(!overlaps(pa, la, pb, lb), format_args!("outputs '{a}' and '{b}' overlap"))
}

#[no_mangle]
pub unsafe extern "C" fn dSetZero(a: *mut dReal, n: c_int) {
    call("dSetZero", (), |cx| {
        let n = size(cx, "n", n, 0)?;
        data(cx, "a", a, n)?;
        m::set_zero(out_slice(a, n));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dSetValue(a: *mut dReal, n: c_int, value: dReal) {
    call("dSetValue", (), |cx| {
        let n = size(cx, "n", n, 0)?;
        data(cx, "a", a, n)?;
        m::set_value(out_slice(a, n), value);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dDot(a: *const dReal, b: *const dReal, n: c_int) -> dReal {
    call("dDot", 0.0, |cx| {
        let n = size(cx, "n", n, 0)?;
        data(cx, "a", a, n)?;
        data(cx, "b", b, n)?;
        if n == 0 {
            return Some(0.0);
        }
        Some(m::dot(std::slice::from_raw_parts(a, n), std::slice::from_raw_parts(b, n)))
    })
}

/// Shared body of dMultiply0/1/2: `shape(p,q,r)` gives the extents of B and C.
unsafe fn multiply(
    cx: &Cx,
    a: *mut dReal,
    b: *const dReal,
    c: *const dReal,
    dims: (c_int, c_int, c_int),
    shapes: impl Fn(usize, usize, usize) -> (usize, usize),
    f: fn(&mut [f64], &[f64], &[f64], usize, usize, usize),
) -> Option<()> {
    let p = size(cx, "p", dims.0, 1)?;
    let q = size(cx, "q", dims.1, 1)?;
    let r = size(cx, "r", dims.2, 1)?;
    let la = m::span(p, r, m::pad(r));
    let (lb, lc) = shapes(p, q, r);
    cx.ptr_mut("A", a)?;
    cx.ptr("B", b)?;
    cx.ptr("C", c)?;
    let bs = input(b, lb, a, la);
    let cs = input(c, lc, a, la);
    f(out_slice(a, la), &bs, &cs, p, q, r);
    Some(())
}

#[no_mangle]
pub unsafe extern "C" fn dMultiply0(A: *mut dReal, B: *const dReal, C: *const dReal, p: c_int, q: c_int, r: c_int) {
    call("dMultiply0", (), |cx| {
        multiply(cx, A, B, C, (p, q, r), |p, q, r| (m::span(p, q, m::pad(q)), m::span(q, r, m::pad(r))), m::multiply0)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dMultiply1(A: *mut dReal, B: *const dReal, C: *const dReal, p: c_int, q: c_int, r: c_int) {
    call("dMultiply1", (), |cx| {
        multiply(cx, A, B, C, (p, q, r), |p, q, r| (m::span(q, p, m::pad(p)), m::span(q, r, m::pad(r))), m::multiply1)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dMultiply2(A: *mut dReal, B: *const dReal, C: *const dReal, p: c_int, q: c_int, r: c_int) {
    call("dMultiply2", (), |cx| {
        multiply(cx, A, B, C, (p, q, r), |p, q, r| (m::span(p, q, m::pad(q)), m::span(r, q, m::pad(q))), m::multiply2)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dFactorCholesky(A: *mut dReal, n: c_int) -> c_int {
    call("dFactorCholesky", 0, |cx| {
        let n = size(cx, "n", n, 1)?;
        cx.ptr_mut("A", A)?;
        let a = out_slice(A, m::span(n, n, m::pad(n)));
        Some(m::factor_cholesky(a, n) as c_int)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dSolveCholesky(L: *const dReal, b: *mut dReal, n: c_int) {
    call("dSolveCholesky", (), |cx| {
        let n = size(cx, "n", n, 1)?;
        cx.ptr("L", L)?;
        cx.ptr_mut("b", b)?;
        let l = input(L, m::span(n, n, m::pad(n)), b, n);
        m::solve_cholesky(&l, out_slice(b, n), n);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dInvertPDMatrix(A: *const dReal, Ainv: *mut dReal, n: c_int) -> c_int {
    call("dInvertPDMatrix", 0, |cx| {
        let n = size(cx, "n", n, 1)?;
        cx.ptr("A", A)?;
        cx.ptr_mut("Ainv", Ainv)?;
        let len = m::pad(n) * n;
        let a = input(A, len, Ainv, len);
        Some(m::invert_pd(&a, out_slice(Ainv, len), n) as c_int)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dIsPositiveDefinite(A: *const dReal, n: c_int) -> c_int {
    call("dIsPositiveDefinite", 0, |cx| {
        let n = size(cx, "n", n, 1)?;
        cx.ptr("A", A)?;
        let a = std::slice::from_raw_parts(A, m::pad(n) * n);
        Some(m::is_positive_definite(a, n) as c_int)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dFactorLDLT(A: *mut dReal, d: *mut dReal, n: c_int, nskip: c_int) {
    call("dFactorLDLT", (), |cx| {
        let n = size(cx, "n", n, 0)?;
        let s = skip(cx, nskip, n)?;
        let la = m::span(n, n, s);
        data(cx, "A", A, la)?;
        data(cx, "d", d, n)?;
        disjoint(cx, "A", A, la, "d", d, n)?;
        m::factor_ldlt(out_slice(A, la), out_slice(d, n), n, s);
        Some(())
    })
}

/// Shared body of dSolveL1/dSolveL1T.
unsafe fn solve_l(
    cx: &Cx,
    l: *const dReal,
    b: *mut dReal,
    n: c_int,
    nskip: c_int,
    f: fn(&[f64], &mut [f64], usize, usize),
) -> Option<()> {
    let n = size(cx, "n", n, 1)?;
    let s = skip(cx, nskip, n)?;
    cx.ptr("L", l)?;
    cx.ptr_mut("b", b)?;
    let ls = input(l, m::span(n, n, s), b, n);
    f(&ls, out_slice(b, n), n, s);
    Some(())
}

#[no_mangle]
pub unsafe extern "C" fn dSolveL1(L: *const dReal, b: *mut dReal, n: c_int, nskip: c_int) {
    call("dSolveL1", (), |cx| solve_l(cx, L, b, n, nskip, m::solve_l1))
}

#[no_mangle]
pub unsafe extern "C" fn dSolveL1T(L: *const dReal, b: *mut dReal, n: c_int, nskip: c_int) {
    call("dSolveL1T", (), |cx| solve_l(cx, L, b, n, nskip, m::solve_l1t))
}

unsafe fn scale(cx: &Cx, a: *mut dReal, d: *const dReal, n: c_int) -> Option<()> {
    let n = size(cx, "n", n, 0)?;
    data(cx, "a", a, n)?;
    data(cx, "d", d, n)?;
    let ds = input(d, n, a, n);
    m::scale_vector(out_slice(a, n), &ds);
    Some(())
}

#[no_mangle]
pub unsafe extern "C" fn dScaleVector(a: *mut dReal, d: *const dReal, n: c_int) {
    call("dScaleVector", (), |cx| scale(cx, a, d, n))
}

/// Deprecated alias of dScaleVector.
#[no_mangle]
pub unsafe extern "C" fn dVectorScale(a: *mut dReal, d: *const dReal, n: c_int) {
    call("dVectorScale", (), |cx| scale(cx, a, d, n))
}

#[no_mangle]
pub unsafe extern "C" fn dSolveLDLT(L: *const dReal, d: *const dReal, b: *mut dReal, n: c_int, nskip: c_int) {
    call("dSolveLDLT", (), |cx| {
        let n = size(cx, "n", n, 1)?;
        let s = skip(cx, nskip, n)?;
        cx.ptr("L", L)?;
        cx.ptr("d", d)?;
        cx.ptr_mut("b", b)?;
        let ls = input(L, m::span(n, n, s), b, n);
        let ds = input(d, n, b, n);
        m::solve_ldlt(&ls, &ds, out_slice(b, n), n, s);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dLDLTAddTL(L: *mut dReal, d: *mut dReal, a: *const dReal, n: c_int, nskip: c_int) {
    call("dLDLTAddTL", (), |cx| {
        let n = size(cx, "n", n, 1)?;
        let s = skip(cx, nskip, n)?;
        cx.ptr_mut("L", L)?;
        cx.ptr_mut("d", d)?;
        cx.ptr("a", a)?;
        let ll = m::span(n, n, s);
        disjoint(cx, "L", L, ll, "d", d, n)?;
        // `a` is small: copy it so it may share memory with L or d.
        let av = std::slice::from_raw_parts(a, n).to_vec();
        m::ldlt_add_tl(out_slice(L, ll), out_slice(d, n), &av, n, s);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dLDLTRemove(
    A: *mut *mut dReal,
    p: *const c_int,
    L: *mut dReal,
    d: *mut dReal,
    n1: c_int,
    n2: c_int,
    r: c_int,
    nskip: c_int,
) {
    call("dLDLTRemove", (), |cx| {
        let n1 = size(cx, "n1", n1, 1)?;
        let n2 = size(cx, "n2", n2, 1)?;
        cx.require(n1 >= n2, format_args!("n1 = {n1} must be >= n2 = {n2}"))?;
        cx.require(r >= 0 && (r as usize) < n2, format_args!("argument 'r' = {r} must be in 0..n2 = {n2}"))?;
        let r = r as usize;
        let s = skip(cx, nskip, n1)?;
        cx.ptr("A", A as *const *mut dReal)?;
        cx.ptr("p", p)?;
        cx.ptr_mut("L", L)?;
        cx.ptr_mut("d", d)?;
        let perm = std::slice::from_raw_parts(p, n2);
        if let Some((i, &v)) = perm.iter().enumerate().find(|(_, &v)| v < 0 || v as usize >= n1) {
            return cx.fail(format_args!("p[{i}] = {v} is out of 0..n1 = {n1}"));
        }
        let ll = m::span(n2, n2, s);
        disjoint(cx, "L", L, ll, "d", d, n2)?;
        if r + 1 == n2 {
            return Some(()); // removing the last row changes nothing
        }
        // Gather the needed column of A (lower triangle) before touching L, d.
        let pr = perm[r] as usize;
        let mut acol = Vec::with_capacity(n2 - r);
        for &pi in &perm[r..n2] {
            let pi = pi as usize;
            let (i, j) = if pi > pr { (pi, pr) } else { (pr, pi) };
            let row = *A.add(i);
            if row.is_null() {
                return cx.fail(format_args!("row pointer A[{i}] is NULL"));
            }
            acol.push(*row.add(j));
        }
        m::ldlt_remove(&acol, out_slice(L, ll), out_slice(d, n2), n2, r, s);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dRemoveRowCol(A: *mut dReal, n: c_int, nskip: c_int, r: c_int) {
    call("dRemoveRowCol", (), |cx| {
        let n = size(cx, "n", n, 1)?;
        let s = skip(cx, nskip, n)?;
        cx.require(r >= 0 && (r as usize) < n, format_args!("argument 'r' = {r} must be in 0..n = {n}"))?;
        cx.ptr_mut("A", A)?;
        m::remove_row_col(out_slice(A, m::span(n, n, s)), n, s, r as usize);
        Some(())
    })
}
