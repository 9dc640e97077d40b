//! extern "C" functions of matrix_coop.h: resource estimates and the
//! cooperative LDLT factorisation, solves and vector scaling.
//!
//! The operations run the single-threaded kernels of `math::matrix` on the
//! calling thread (see `crate::threading::coop`), so they give exactly the
//! numbers of dFactorLDLT, dSolveLDLT, dSolveL1, dSolveL1T and dScaleVector.
//! A call larger than its container was estimated for, while the threading
//! has threads to cooperate with, is noted on the message channel (ODE
//! would run out of prepared resources there); the result is still
//! computed, as the kernels need no prepared resources.
#![allow(non_snake_case)]

use super::cooperative::{
    container_arg, dResourceContainerID, dResourceRequirementsID, reqs_arg, threading_thread_count,
};
use super::{call, dReal, Cx};
use crate::math::matrix as m;
use crate::threading::coop::Op;
use std::ffi::c_uint;

fn estimate(cx: &Cx, requirements: dResourceRequirementsID, op: Op, threads: c_uint, rows: c_uint) -> Option<()> {
    let r = reqs_arg(cx, requirements, "requirements")?;
    let n = threading_thread_count(r.get().threading);
    r.get_mut().estimate(op, threads, rows, n);
    Some(())
}

/// Validates the container and sizes of a call; notes calls beyond the
/// estimate.
fn prepare(
    cx: &Cx,
    resources: dResourceContainerID,
    op: Op,
    threads: c_uint,
    rows: c_uint,
    skip: Option<c_uint>,
) -> Option<usize> {
    let c = container_arg(cx, resources, "resources")?;
    let count_arg = if skip.is_some() { "rowCount" } else { "elementCount" };
    cx.require(rows != 0, format_args!("argument '{count_arg}' is 0"))?;
    if let Some(s) = skip {
        cx.require(s >= rows, format_args!("argument 'rowSkip' = {s} must be >= rowCount = {rows}"))?;
    }
    let n = threading_thread_count(c.get().threading);
    if !c.get().covers(op, threads, rows, n) {
        crate::error::message(
            crate::error::D_ERR_UASSERT,
            &format!(
                "{}: {rows} rows with {threads} threads exceed the resources estimated for this container; computed on the calling thread",
                op.name()
            ),
        );
    }
    Some(rows as usize)
}

/// # Safety
/// `p` must point to `len` reals when non-null.
unsafe fn slice_mut<'a>(cx: &Cx, arg: &str, p: *mut dReal, len: usize) -> Option<&'a mut [dReal]> {
    cx.ptr_mut(arg, p)?;
    Some(std::slice::from_raw_parts_mut(p, len))
}

/// # Safety
/// `p` must point to `len` reals when non-null.
unsafe fn slice<'a>(cx: &Cx, arg: &str, p: *const dReal, len: usize) -> Option<&'a [dReal]> {
    cx.ptr(arg, p)?;
    Some(std::slice::from_raw_parts(p, len))
}

/// Rejects outputs overlapping an input (the kernels take disjoint slices).
fn disjoint(cx: &Cx, a: &str, pa: *const dReal, la: usize, b: &str, pb: *const dReal, lb: usize) -> Option<()> {
    let (a0, b0, sz) = (pa as usize, pb as usize, std::mem::size_of::<dReal>());
    let overlap = a0 < b0 + lb * sz && b0 < a0 + la * sz;
    cx.require(!overlap, format_args!("arguments '{a}' and '{b}' overlap"))
}

#[no_mangle]
pub unsafe extern "C" fn dEstimateCooperativelyFactorLDLTResourceRequirements(
    requirements: dResourceRequirementsID,
    maximalAllowedThreadCount: c_uint,
    maximalRowCount: c_uint,
) {
    call("dEstimateCooperativelyFactorLDLTResourceRequirements", (), |cx| {
        estimate(cx, requirements, Op::FactorLdlt, maximalAllowedThreadCount, maximalRowCount)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dCooperativelyFactorLDLT(
    resources: dResourceContainerID,
    allowedThreadCount: c_uint,
    A: *mut dReal,
    d: *mut dReal,
    rowCount: c_uint,
    rowSkip: c_uint,
) {
    call("dCooperativelyFactorLDLT", (), |cx| {
        let n = prepare(cx, resources, Op::FactorLdlt, allowedThreadCount, rowCount, Some(rowSkip))?;
        let s = rowSkip as usize;
        let la = m::span(n, n, s);
        disjoint(cx, "A", A, la, "d", d, n)?;
        let a = slice_mut(cx, "A", A, la)?;
        let dv = slice_mut(cx, "d", d, n)?;
        m::factor_ldlt(a, dv, n, s);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dEstimateCooperativelySolveLDLTResourceRequirements(
    requirements: dResourceRequirementsID,
    maximalAllowedThreadCount: c_uint,
    maximalRowCount: c_uint,
) {
    call("dEstimateCooperativelySolveLDLTResourceRequirements", (), |cx| {
        estimate(cx, requirements, Op::SolveLdlt, maximalAllowedThreadCount, maximalRowCount)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dCooperativelySolveLDLT(
    resources: dResourceContainerID,
    allowedThreadCount: c_uint,
    L: *const dReal,
    d: *const dReal,
    b: *mut dReal,
    rowCount: c_uint,
    rowSkip: c_uint,
) {
    call("dCooperativelySolveLDLT", (), |cx| {
        let n = prepare(cx, resources, Op::SolveLdlt, allowedThreadCount, rowCount, Some(rowSkip))?;
        let s = rowSkip as usize;
        let ll = m::span(n, n, s);
        disjoint(cx, "b", b, n, "L", L, ll)?;
        disjoint(cx, "b", b, n, "d", d, n)?;
        let l = slice(cx, "L", L, ll)?;
        let dv = slice(cx, "d", d, n)?;
        let bv = slice_mut(cx, "b", b, n)?;
        m::solve_ldlt(l, dv, bv, n, s);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dEstimateCooperativelySolveL1StraightResourceRequirements(
    requirements: dResourceRequirementsID,
    maximalAllowedThreadCount: c_uint,
    maximalRowCount: c_uint,
) {
    call("dEstimateCooperativelySolveL1StraightResourceRequirements", (), |cx| {
        estimate(cx, requirements, Op::SolveL1Straight, maximalAllowedThreadCount, maximalRowCount)
    })
}

/// Shared body of the two triangular solves.
unsafe fn solve_l(
    cx: &Cx,
    op: Op,
    resources: dResourceContainerID,
    threads: c_uint,
    L: *const dReal,
    b: *mut dReal,
    rows: c_uint,
    skip: c_uint,
    kernel: fn(&[f64], &mut [f64], usize, usize),
) -> Option<()> {
    let n = prepare(cx, resources, op, threads, rows, Some(skip))?;
    let s = skip as usize;
    let ll = m::span(n, n, s);
    disjoint(cx, "b", b, n, "L", L, ll)?;
    let l = slice(cx, "L", L, ll)?;
    let bv = slice_mut(cx, "b", b, n)?;
    kernel(l, bv, n, s);
    Some(())
}

#[no_mangle]
pub unsafe extern "C" fn dCooperativelySolveL1Straight(
    resources: dResourceContainerID,
    allowedThreadCount: c_uint,
    L: *const dReal,
    b: *mut dReal,
    rowCount: c_uint,
    rowSkip: c_uint,
) {
    call("dCooperativelySolveL1Straight", (), |cx| {
        solve_l(cx, Op::SolveL1Straight, resources, allowedThreadCount, L, b, rowCount, rowSkip, m::solve_l1)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dEstimateCooperativelySolveL1TransposedResourceRequirements(
    requirements: dResourceRequirementsID,
    maximalAllowedThreadCount: c_uint,
    maximalRowCount: c_uint,
) {
    call("dEstimateCooperativelySolveL1TransposedResourceRequirements", (), |cx| {
        estimate(cx, requirements, Op::SolveL1Transposed, maximalAllowedThreadCount, maximalRowCount)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dCooperativelySolveL1Transposed(
    resources: dResourceContainerID,
    allowedThreadCount: c_uint,
    L: *const dReal,
    b: *mut dReal,
    rowCount: c_uint,
    rowSkip: c_uint,
) {
    call("dCooperativelySolveL1Transposed", (), |cx| {
        solve_l(cx, Op::SolveL1Transposed, resources, allowedThreadCount, L, b, rowCount, rowSkip, m::solve_l1t)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dEstimateCooperativelyScaleVectorResourceRequirements(
    requirements: dResourceRequirementsID,
    maximalAllowedThreadCount: c_uint,
    maximalElementCount: c_uint,
) {
    call("dEstimateCooperativelyScaleVectorResourceRequirements", (), |cx| {
        estimate(cx, requirements, Op::ScaleVector, maximalAllowedThreadCount, maximalElementCount)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dCooperativelyScaleVector(
    resources: dResourceContainerID,
    allowedThreadCount: c_uint,
    dataVector: *mut dReal,
    scaleVector: *const dReal,
    elementCount: c_uint,
) {
    call("dCooperativelyScaleVector", (), |cx| {
        let n = prepare(cx, resources, Op::ScaleVector, allowedThreadCount, elementCount, None)?;
        disjoint(cx, "dataVector", dataVector, n, "scaleVector", scaleVector, n)?;
        let sv = slice(cx, "scaleVector", scaleVector, n)?;
        let dv = slice_mut(cx, "dataVector", dataVector, n)?;
        m::scale_vector(dv, sv);
        Some(())
    })
}
