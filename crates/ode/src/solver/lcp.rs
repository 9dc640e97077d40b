//! A Dantzig-style solver for the boxed LCP of `dWorldStep`:
//!
//! find x, w with A·x = b + w and, for every i, one of
//! - lo(i) < x(i) < hi(i) and w(i) = 0,
//! - x(i) = lo(i) and w(i) ≥ 0,
//! - x(i) = hi(i) and w(i) ≤ 0,
//!
//! where lo ≤ 0 ≤ hi, A is symmetric positive (semi)definite and only its
//! lower triangle is read. A row with `findex[i] = k ≥ 0` is a friction row:
//! its bounds are ±|hi(i)·x(k)| once x(k) is known.
//!
//! The method (Cottle–Dantzig, as ODE uses it): the unbounded rows are
//! gathered first and solved directly; friction rows are moved last; then
//! each remaining index is driven in turn towards its valid segment while
//! the already-processed indices are kept valid, switching indices between
//! the clamped set C (w = 0, x free) and the set N (x at a bound) whenever
//! one reaches the end of its segment. An L·D·Lᵀ factorisation of A(C,C)
//! is kept up to date incrementally (rows appended as indices enter C,
//! removed with a rank-two update as they leave).
//!
//! The problem is permuted in place so that C, then N, then the unvisited
//! indices are contiguous (`p` records the permutation). Rows of A are
//! reached through an offset table, so a row swap is an exchange of
//! offsets; only columns are moved. The factorisation is of a permutation
//! of A(C,C), recorded in `c_order`. Pivoting decisions and arithmetic
//! follow ODE 0.16 (same tie-breaking, same accumulation order through
//! `math::matrix`), so the same active set is found and the results agree
//! with ODE's to the last bit in ordinary cases.
//!
//! All buffers live in `LcpScratch` and are reused: a warm solve does not
//! allocate.

use crate::math::matrix::{
    cache_aligned, dot, dot2, dot4, factor_ldlt, ldlt_add_tl_with, pad, remove_row_col_lower, solve_l1t, solve_ldlt, L1Panels,
};

/// Reusable working memory of the solver.
#[derive(Default)]
pub struct LcpScratch {
    l: Vec<f64>,
    /// The solver's eight zero-started vectors of n values (d, w, Δw, Δx,
    /// dell, ell, tmp, fwd) in one buffer: one clearing call a solve
    /// instead of eight (a tenth of a small island's solve).
    vecs: Vec<f64>,
    rows: Vec<usize>,
    p: Vec<usize>,
    c_order: Vec<usize>,
    state: Vec<bool>,
    /// For the rank-two update when an index leaves C.
    upd: Vec<f64>,
    /// Column-ordered copy of L for the forward solves.
    panels: L1Panels,
}

/// Room for the L factor (n rows of `skip`). Only the rows of indices in C
/// are ever read, each up to its diagonal, and each is written when its
/// index enters C; so the buffer is not cleared (clearing it was half
/// of the memset work of a ragdoll step). Debug builds fill it with NaN
/// instead, so that a read of a stale entry would show in every test.
///
/// Returns where in `v` the factor starts: on a 64-byte boundary
/// (`cache_aligned`).
fn factor_space(v: &mut Vec<f64>, n: usize) -> std::ops::Range<usize> {
    if cfg!(debug_assertions) {
        v.clear();
        cache_aligned(v, n, f64::NAN)
    } else {
        cache_aligned(v, n, 0.0)
    }
}

fn sized(v: &mut Vec<f64>, n: usize) -> &mut [f64] {
    v.clear();
    v.resize(n, 0.0);
    &mut v[..]
}

/// `count` zeroed vectors of `n` values, from one buffer.
fn zeroed_vecs<const COUNT: usize>(v: &mut Vec<f64>, n: usize) -> [&mut [f64]; COUNT] {
    let all = sized(v, COUNT * n);
    let mut parts = all.chunks_exact_mut(n.max(1));
    std::array::from_fn(|_| match parts.next() {
        Some(part) => &mut part[..n],
        None => &mut [][..],
    })
}

/// The problem being solved, permuted in place.
struct Problem<'a> {
    n: usize,
    skip: usize,
    a: &'a mut [f64],
    /// Offset in `a` of (permuted) row i.
    rows: &'a mut [usize],
    x: &'a mut [f64],
    b: &'a mut [f64],
    w: &'a mut [f64],
    lo: &'a mut [f64],
    hi: &'a mut [f64],
    p: &'a mut [usize],
    state: &'a mut [bool],
    findex: Option<&'a mut [i32]>,
}

impl Problem<'_> {
    #[inline]
    fn at(&self, i: usize, j: usize) -> f64 {
        self.a[self.rows[i] + j]
    }

    /// Element (i, j) of the symmetric matrix from its lower triangle.
    #[inline]
    fn sym(&self, i: usize, j: usize) -> f64 {
        if i > j {
            self.at(i, j)
        } else {
            self.at(j, i)
        }
    }

    /// Row i, columns `from..to`.
    #[inline]
    fn row(&self, i: usize, from: usize, to: usize) -> &[f64] {
        let r = self.rows[i];
        &self.a[r + from..r + to]
    }

    /// Exchanges indices i1 < i2 of the whole problem. With `fast`, rows
    /// trade offsets; otherwise their contents are exchanged (needed while
    /// the top rows are about to be copied as one block).
    fn swap(&mut self, i1: usize, i2: usize, fast: bool) {
        if i1 == i2 {
            return;
        }
        debug_assert!(i1 < i2);
        let (r1, r2) = (self.rows[i1], self.rows[i2]);
        // Lower-triangle elements between the two indices change sides of
        // the diagonal; row i1's storage right of its diagonal is free and
        // holds the values row i2 needs once the rows trade places.
        for i in i1 + 1..i2 {
            let ri = self.rows[i];
            self.a[r1 + i] = self.a[ri + i1];
            self.a[ri + i1] = self.a[r2 + i];
        }
        self.a[r1 + i2] = self.a[r1 + i1];
        self.a[r1 + i1] = self.a[r2 + i1];
        self.a[r2 + i1] = self.a[r2 + i2];
        if fast {
            self.rows.swap(i1, i2);
        } else {
            for k in 0..=i2 {
                self.a.swap(r1 + k, r2 + k);
            }
        }
        for j in i2 + 1..self.n {
            let rj = self.rows[j];
            self.a.swap(rj + i1, rj + i2);
        }
        self.x.swap(i1, i2);
        self.b.swap(i1, i2);
        self.w.swap(i1, i2);
        self.lo.swap(i1, i2);
        self.hi.swap(i1, i2);
        self.p.swap(i1, i2);
        self.state.swap(i1, i2);
        if let Some(f) = self.findex.as_deref_mut() {
            f.swap(i1, i2);
        }
    }

    fn friction(&self, i: usize) -> bool {
        self.findex.as_deref().is_some_and(|f| f[i] >= 0)
    }
}

/// The factorisation of A(C,C) and the index sets.
struct Sets<'a> {
    nub: usize,
    nc: usize,
    nn: usize,
    l: &'a mut [f64],
    d: &'a mut [f64],
    dell: &'a mut [f64],
    ell: &'a mut [f64],
    tmp: &'a mut [f64],
    c_order: &'a mut [usize],
    upd: &'a mut Vec<f64>,
    panels: &'a mut L1Panels,
    /// `solve1`'s forward solve L⁻¹·A(C,i) for the index `fwd_of` being
    /// driven, of which rows `0..fwd_rows` are still what a new solve would
    /// give. While one index is driven each pivot either appends a row to
    /// the factor (`n_to_c`), which leaves the rows above it and their
    /// right-hand sides alone, or removes one (`c_to_n`), which changes the
    /// rows from it on; so most of the next solve is already known.
    /// `solve_l1` gives a row in one of its 4-row blocks the same bits
    /// whatever the length, so the solve restarts at the last block
    /// boundary at or before `fwd_rows` (rows left over at the bottom are
    /// summed in another order).
    fwd: &'a mut [f64],
    fwd_of: Option<usize>,
    fwd_rows: usize,
}

/// 1/(a_ii - dot), nudging a_ii up by one ulp when the difference would be
/// exactly zero (ODE's guard against a zero pivot).
#[inline]
fn pivot(aii: f64, dot: f64) -> f64 {
    let aii = if aii != dot { aii } else { aii.next_up() };
    1.0 / (aii - dot)
}

impl Sets<'_> {
    /// Loads A(i, C) in factor order into `dell` (the first `nub` columns are
    /// never permuted).
    fn load_row(&mut self, pr: &Problem<'_>, i: usize) {
        Self::load_row_from(self.nub, self.nc, self.c_order, self.dell, pr, i, 0);
    }

    /// `load_row` of entries `from..nc` only, into `dst`.
    fn load_row_from(nub: usize, nc: usize, c_order: &[usize], dst: &mut [f64], pr: &Problem<'_>, i: usize, from: usize) {
        let nub = nub.clamp(from, nc.max(from));
        if from < nub {
            dst[from..nub].copy_from_slice(pr.row(i, from, nub));
        }
        let row = pr.row(i, 0, pr.n);
        for j in nub.max(from)..nc {
            dst[j] = row[c_order[j]];
        }
    }

    /// Solves for the change of x(C) when x(i) moves by +1 (`dir_positive`)
    /// or -1, keeping w(C) = 0: delta_x(C) = ∓A(C,C)⁻¹A(C,i). Leaves `ell`
    /// and, in `fwd`, the forward solve for a following `to_c`. With
    /// `only_factor` the solve itself is skipped.
    fn solve1(&mut self, pr: &Problem<'_>, delta_x: &mut [f64], i: usize, dir_positive: bool, only_factor: bool) {
        let nc = self.nc;
        if nc == 0 {
            return;
        }
        let skip = pr.skip;
        let start = if self.fwd_of == Some(i) && !test_hooks::reuse_off() { self.fwd_rows.min(nc) & !3 } else { 0 };
        test_hooks::count_reused(start);
        // Solved in place in `fwd`, whose rows before `start` are kept.
        Self::load_row_from(self.nub, nc, self.c_order, self.fwd, pr, i, start);
        self.panels.solve_l1_from(self.l, self.fwd, start, nc, skip);
        if cfg!(debug_assertions) && start > 0 {
            self.load_row(pr, i);
            self.panels.solve_l1(self.l, self.dell, nc, skip);
            for (a, b) in self.fwd[..nc].iter().zip(&self.dell[..nc]) {
                assert_eq!(a.to_bits(), b.to_bits(), "reused forward solve differs");
            }
        }
        (self.fwd_of, self.fwd_rows) = (Some(i), nc);
        for j in 0..nc {
            let e = self.fwd[j] * self.d[j];
            self.ell[j] = e;
            self.tmp[j] = e;
        }
        if only_factor {
            return;
        }
        solve_l1t(self.l, self.tmp, nc, skip);
        // The first nub entries of C keep their places (c_order[j] = j).
        let nub = self.nub.min(nc);
        debug_assert!((0..nub).all(|j| self.c_order[j] == j));
        if dir_positive {
            for (x, &v) in delta_x[..nub].iter_mut().zip(&self.tmp[..nub]) {
                *x = -v;
            }
            for j in nub..nc {
                delta_x[self.c_order[j]] = -self.tmp[j];
            }
        } else {
            delta_x[..nub].copy_from_slice(&self.tmp[..nub]);
            for j in nub..nc {
                delta_x[self.c_order[j]] = self.tmp[j];
            }
        }
    }

    /// Moves the driving index i into C using `ell`/`dell` from `solve1`.
    #[allow(clippy::wrong_self_convention)] // ODE's name (transfer_i_to_C); it mutates the sets
    fn to_c(&mut self, pr: &mut Problem<'_>, i: usize) {
        self.fwd_of = None;
        let nc = self.nc;
        if nc > 0 {
            let skip = pr.skip;
            self.l[nc * skip..nc * skip + nc].copy_from_slice(&self.ell[..nc]);
            let dd = dot(&self.ell[..nc], &self.fwd[..nc]);
            self.d[nc] = pivot(pr.at(i, i), dd);
        } else {
            self.d[0] = 1.0 / pr.at(i, i);
        }
        pr.swap(nc, i, true);
        self.c_order[nc] = nc;
        self.nc = nc + 1;
    }

    /// Moves index i from N into C, extending the factorisation by a row.
    fn n_to_c(&mut self, pr: &mut Problem<'_>, i: usize) {
        let nc = self.nc;
        if nc > 0 {
            let skip = pr.skip;
            self.load_row(pr, i);
            self.panels.solve_l1(self.l, self.dell, nc, skip);
            let mut dd = 0.0;
            for j in 0..nc {
                let dl = self.dell[j];
                let e = dl * self.d[j];
                self.ell[j] = e;
                self.l[nc * skip + j] = e;
                dd += e * dl;
            }
            self.d[nc] = pivot(pr.at(i, i), dd);
        } else {
            self.d[0] = 1.0 / pr.at(i, i);
        }
        pr.swap(nc, i, true);
        self.c_order[nc] = nc;
        self.nn -= 1;
        self.nc = nc + 1;
    }

    /// Moves index i from C into N, removing its row and column from the
    /// factorisation.
    fn c_to_n(&mut self, pr: &mut Problem<'_>, i: usize) {
        let nc = self.nc;
        let mut last = None;
        let mut j = 0;
        while j < nc {
            if self.c_order[j] == nc - 1 {
                last = Some(j);
            }
            if self.c_order[j] == i {
                ldlt_remove(pr, self.c_order, self.l, self.d, nc, j, pr.skip, self.upd);
                // Rows j.. of L were updated and moved up.
                self.panels.invalidate_from(j);
                self.fwd_rows = self.fwd_rows.min(j);
                let k = match last {
                    Some(k) => k,
                    None => (j + 1..nc).find(|&k| self.c_order[k] == nc - 1).unwrap_or(j),
                };
                self.c_order[k] = self.c_order[j];
                self.c_order.copy_within(j + 1..nc, j);
                break;
            }
            j += 1;
        }
        debug_assert!(j < nc, "index leaving C is not in C");
        pr.swap(i, nc - 1, true);
        self.nn += 1;
        self.nc = nc - 1;
    }
}

/// Removes row/column `r` (in factor order) from the L·D·Lᵀ factors of
/// A(C,C), n2 = |C|, reading A through the order `c`. Same arithmetic as
/// `math::matrix::ldlt_remove` (rank-two update of the trailing block, then
/// the row and column are cut out), with caller-provided scratch.
fn ldlt_remove(
    pr: &Problem<'_>,
    c: &[usize],
    l: &mut [f64],
    d: &mut [f64],
    n2: usize,
    r: usize,
    s: usize,
    upd: &mut Vec<f64>,
) {
    if r + 1 >= n2 {
        return;
    }
    let m = n2 - r;
    // upd = [a (m) | t (r) | w1 (m) | w2 (m)]
    upd.clear();
    upd.resize(3 * m + r, 0.0);
    let (a, rest) = upd.split_at_mut(m);
    let (t, rest) = rest.split_at_mut(r);
    let (w1, w2) = rest.split_at_mut(m);
    let cr = c[r];
    if r == 0 {
        for i in 0..m {
            a[i] = -pr.sym(c[i], cr);
        }
    } else {
        for i in 0..r {
            t[i] = l[r * s + i] / d[i];
        }
        for i in 0..m {
            let row = (r + i) * s;
            a[i] = dot(&l[row..row + r], t) - pr.sym(c[r + i], cr);
        }
    }
    a[0] += 1.0;
    let off = r * s + r;
    ldlt_add_tl_with(&mut l[off..], &mut d[r..], a, m, s, w1, w2);
    // Only L's lower triangle is read.
    remove_row_col_lower(l, n2, s, r);
    d.copy_within(r + 1..n2, r);
}

/// Outcome of a solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LcpStatus {
    Solved,
    /// The pivoting stalled (step length s ≤ 0, from round-off on a nearly
    /// singular problem): the unprocessed x and w were set to zero and the
    /// partial solution returned, as ODE does. `s` is the offending step.
    Stalled {
        s: f64,
    },
    /// The matrix was singular enough that the solution came out
    /// non-finite (ODE asserts and aborts there). x and w were set to zero:
    /// the constraints apply no force for this step.
    Singular,
}

/// Solves the boxed LCP described in the module documentation.
///
/// - `a`: n×n with row stride `pad(n)`, lower triangle read; destroyed.
/// - `x`: out, the solution. `b`: right-hand side (permuted and restored
///   only in `x`'s order; its contents are unspecified afterwards).
/// - `w`: if given, receives w = A·x − b.
/// - `nub`: the first `nub` indices are known to be unbounded; other
///   unbounded non-friction indices are found and moved forward.
/// - `lo`, `hi`: bounds (lo ≤ 0 ≤ hi). On return they hold the bounds
///   used: a friction row's are ±|hi·x(normal)| with x(normal) as it was
///   when the friction rows were reached (the normal force may still change
///   afterwards; as in ODE, the bounds are not revisited).
/// - `findex`: friction indices (−1: none), or None.
///
/// Reports a stall or a singular problem on ODE's message channel
/// (`d_ERR_LCP`) and returns it; the solution is always finite.
pub fn solve_lcp(
    n: usize,
    a: &mut [f64],
    x: &mut [f64],
    b: &mut [f64],
    mut w_out: Option<&mut [f64]>,
    nub: usize,
    lo: &mut [f64],
    hi: &mut [f64],
    findex: Option<&mut [i32]>,
    sc: &mut LcpScratch,
) -> LcpStatus {
    let status = solve_lcp_core(n, a, x, b, w_out.as_deref_mut(), nub, lo, hi, findex, sc);
    if x[..n].iter().all(|v| v.is_finite()) {
        return status;
    }
    // A zero pivot (e.g. contacts joining bodies far apart into a
    // degenerate system) gives infinities: drop the forces rather than
    // poison the bodies' state.
    x[..n].fill(0.0);
    if let Some(w) = w_out {
        w[..n].fill(0.0);
    }
    crate::error::report(
        crate::error::Channel::Message,
        crate::error::D_ERR_LCP,
        "LCP internal error, singular matrix: constraint forces of this island dropped for this step",
    );
    LcpStatus::Singular
}

fn solve_lcp_core(
    n: usize,
    a: &mut [f64],
    x: &mut [f64],
    b: &mut [f64],
    w_out: Option<&mut [f64]>,
    nub: usize,
    lo: &mut [f64],
    hi: &mut [f64],
    findex: Option<&mut [i32]>,
    sc: &mut LcpScratch,
) -> LcpStatus {
    if n == 0 {
        return LcpStatus::Solved;
    }
    let skip = pad(n);
    if nub >= n {
        // Everything unbounded: factor and solve in place.
        x[..n].copy_from_slice(&b[..n]);
        let [d] = zeroed_vecs::<1>(&mut sc.vecs, n);
        factor_ldlt(a, d, n, skip);
        solve_ldlt(a, d, x, n, skip);
        if let Some(w) = w_out {
            w[..n].fill(0.0);
        }
        return LcpStatus::Solved;
    }

    let status = {
        let l_at = factor_space(&mut sc.l, n * skip);
        sc.panels.reset(n);
        let [d, w, delta_w, delta_x, dell, ell, tmp, fwd] = zeroed_vecs::<8>(&mut sc.vecs, n);
        sc.rows.clear();
        sc.rows.extend((0..n).map(|k| k * skip));
        sc.p.clear();
        sc.p.extend(0..n);
        sc.c_order.clear();
        sc.c_order.resize(n, 0);
        sc.state.clear();
        sc.state.resize(n, false);
        x[..n].fill(0.0);

        let mut pr = Problem {
            n,
            skip,
            a,
            rows: &mut sc.rows,
            x,
            b,
            w,
            lo,
            hi,
            p: &mut sc.p,
            state: &mut sc.state,
            findex,
        };
        let mut st = Sets {
            nub,
            nc: 0,
            nn: 0,
            l: &mut sc.l[l_at],
            d,
            dell,
            ell,
            tmp,
            c_order: &mut sc.c_order,
            upd: &mut sc.upd,
            panels: &mut sc.panels,
            fwd,
            fwd_of: None,
            fwd_rows: 0,
        };
        let status = drive(&mut pr, &mut st, delta_x, delta_w);

        // Back to the caller's order (bounds too, so that the caller sees
        // the friction bounds that were used); nothing to do when the
        // order did not change, as in a small island of unbounded rows.
        if pr.p.iter().enumerate().any(|(j, &pj)| pj != j) {
            for v in [&mut *pr.x, &mut *pr.lo, &mut *pr.hi] {
                for j in 0..n {
                    st.tmp[pr.p[j]] = v[j];
                }
                v[..n].copy_from_slice(&st.tmp[..n]);
            }
        }
        if let Some(w) = w_out {
            for j in 0..n {
                w[pr.p[j]] = pr.w[j];
            }
        }
        status
    };
    if let LcpStatus::Stalled { s } = status {
        // ODE's wording; built on the stack (this runs inside a step).
        use std::fmt::Write;
        let mut text = crate::error::StackText::<64>::new();
        let _ = text.write_str("LCP internal error, s <= 0 (s=");
        let _ = crate::error::write_c_exp4(&mut text, s);
        let _ = text.write_str(")");
        crate::error::report(crate::error::Channel::Message, crate::error::D_ERR_LCP, text.as_str());
    }
    status
}

/// The ratio test over the clamped indices (ODE's order): for each k in
/// turn, x_k moving down to lo_k (Δx_k < 0, lo_k finite) or up to hi_k
/// (Δx_k > 0, hi_k finite) limits the step to (bound − x_k)/Δx_k, which
/// replaces `s` when strictly smaller. Returns the final step and, if some
/// index replaced it, the last one that did (index into the slices; true
/// for its upper bound).
///
/// A strict `<` running in index order selects the first index holding
/// the minimum (±0 compare equal; NaN never wins), so the AVX path keeps a
/// running minimum per lane and then takes, among the lanes' minima, the
/// smallest value and the lowest index among equals: the same step, index
/// and bound, and the same bits (each candidate is the same subtraction
/// and division). This loop ran once per pivot with unpredictable
/// branches on Δx's sign.
#[inline]
fn clamped_ratio_test(lo: &[f64], hi: &[f64], x: &[f64], dx: &[f64], s: f64) -> (f64, Option<(usize, bool)>) {
    let n = dx.len();
    assert!(lo.len() == n && hi.len() == n && x.len() == n);
    #[cfg(target_arch = "x86_64")]
    if n >= 8 && std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: AVX is present; the four slices hold n elements.
        let (s4, hit4) = unsafe { clamped_ratio_test_avx(lo, hi, x, dx, s) };
        let n4 = n & !3;
        let (s_t, hit_t) = clamped_ratio_test_scalar(&lo[n4..], &hi[n4..], &x[n4..], &dx[n4..], s4);
        return match hit_t {
            Some((k, up)) => (s_t, Some((n4 + k, up))),
            None => (s4, hit4),
        };
    }
    clamped_ratio_test_scalar(lo, hi, x, dx, s)
}

fn clamped_ratio_test_scalar(lo: &[f64], hi: &[f64], x: &[f64], dx: &[f64], mut s: f64) -> (f64, Option<(usize, bool)>) {
    let mut hit = None;
    for k in 0..dx.len() {
        if dx[k] < 0.0 && lo[k] > f64::NEG_INFINITY {
            let s2 = (lo[k] - x[k]) / dx[k];
            if s2 < s {
                s = s2;
                hit = Some((k, false));
            }
        }
        if dx[k] > 0.0 && hi[k] < f64::INFINITY {
            let s2 = (hi[k] - x[k]) / dx[k];
            if s2 < s {
                s = s2;
                hit = Some((k, true));
            }
        }
    }
    (s, hit)
}

/// The ratio test over N (ODE's order): an index at its lower bound
/// (`state` false) whose w would go negative (Δw < 0), or at its upper
/// bound whose w would go positive, limits the step to −w/Δw, which
/// replaces `s` when strictly smaller; indices with lo = hi = 0 never
/// leave N. Returns the final step and the last index that replaced it.
/// As `clamped_ratio_test`, the AVX path keeps per-lane running minima and
/// takes the lowest index among equal values: the same step and index.
#[inline]
fn n_ratio_test(state: &[bool], lo: &[f64], hi: &[f64], w: &[f64], dw: &[f64], s: f64) -> (f64, Option<usize>) {
    let n = dw.len();
    assert!(state.len() == n && lo.len() == n && hi.len() == n && w.len() == n);
    #[cfg(target_arch = "x86_64")]
    if n >= 8 && std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: AVX is present; the slices hold n elements.
        let (s4, hit4) = unsafe { n_ratio_test_avx(state, lo, hi, w, dw, s) };
        let n4 = n & !3;
        let (s_t, hit_t) = n_ratio_test_scalar(&state[n4..], &lo[n4..], &hi[n4..], &w[n4..], &dw[n4..], s4);
        return match hit_t {
            Some(k) => (s_t, Some(n4 + k)),
            None => (s4, hit4),
        };
    }
    n_ratio_test_scalar(state, lo, hi, w, dw, s)
}

fn n_ratio_test_scalar(state: &[bool], lo: &[f64], hi: &[f64], w: &[f64], dw: &[f64], mut s: f64) -> (f64, Option<usize>) {
    let mut hit = None;
    for k in 0..dw.len() {
        let leaving = if !state[k] { dw[k] < 0.0 } else { dw[k] > 0.0 };
        if leaving {
            if lo[k] == 0.0 && hi[k] == 0.0 {
                continue;
            }
            let s2 = -w[k] / dw[k];
            if s2 < s {
                s = s2;
                hit = Some(k);
            }
        }
    }
    (s, hit)
}

/// The first n & !3 indices of `n_ratio_test`.
///
/// # Safety
/// The processor has AVX; the slices hold the same number of elements.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn n_ratio_test_avx(state: &[bool], lo: &[f64], hi: &[f64], w: &[f64], dw: &[f64], s: f64) -> (f64, Option<usize>) {
    use std::arch::x86_64::*;
    let n4 = dw.len() & !3;
    let zero = _mm256_setzero_pd();
    let sign = _mm256_set1_pd(-0.0);
    // SAFETY: the processor has AVX.
    let mut lanes = unsafe { LaneMin::new(s) };
    let mut j = 0;
    while j < n4 {
        // SAFETY: j + 4 <= n4 <= every slice's length.
        let (d, l, h, wv) = unsafe {
            (
                _mm256_loadu_pd(dw.as_ptr().add(j)),
                _mm256_loadu_pd(lo.as_ptr().add(j)),
                _mm256_loadu_pd(hi.as_ptr().add(j)),
                _mm256_loadu_pd(w.as_ptr().add(j)),
            )
        };
        let at_hi = _mm256_cmp_pd::<_CMP_GT_OQ>(
            _mm256_set_pd(state[j + 3] as u8 as f64, state[j + 2] as u8 as f64, state[j + 1] as u8 as f64, state[j] as u8 as f64),
            zero,
        );
        let leaving = _mm256_blendv_pd(_mm256_cmp_pd::<_CMP_LT_OQ>(d, zero), _mm256_cmp_pd::<_CMP_GT_OQ>(d, zero), at_hi);
        let fixed = _mm256_and_pd(_mm256_cmp_pd::<_CMP_EQ_OQ>(l, zero), _mm256_cmp_pd::<_CMP_EQ_OQ>(h, zero));
        let valid = _mm256_andnot_pd(fixed, leaving);
        // SAFETY: the processor has AVX.
        unsafe { lanes.offer(valid, _mm256_xor_pd(wv, sign), d) };
        j += 4;
    }
    // SAFETY: the processor has AVX.
    match unsafe { lanes.best() } {
        Some((v, k, _)) => (v, Some(k)),
        None => (s, None),
    }
}

/// The running strict minimum of a ratio test, four indices at a time:
/// per lane the least candidate so far and its index (as a double, −1 for
/// none), and the lanes' next indices.
#[cfg(target_arch = "x86_64")]
struct LaneMin {
    best: std::arch::x86_64::__m256d,
    best_k: std::arch::x86_64::__m256d,
    kv: std::arch::x86_64::__m256d,
}

#[cfg(target_arch = "x86_64")]
impl LaneMin {
    /// No candidate yet; `s` is the step to beat.
    ///
    /// # Safety
    /// The processor has AVX.
    #[target_feature(enable = "avx")]
    #[inline]
    unsafe fn new(s: f64) -> LaneMin {
        use std::arch::x86_64::*;
        LaneMin { best: _mm256_set1_pd(s), best_k: _mm256_set1_pd(-1.0), kv: _mm256_set_pd(3.0, 2.0, 1.0, 0.0) }
    }

    /// The next four indices' candidates `num / d` where `valid`, kept
    /// where strictly less than the lane's best (the scalar loop's strict
    /// `<` in index order). Returns the lanes that took theirs.
    ///
    /// # Safety
    /// The processor has AVX.
    #[target_feature(enable = "avx")]
    #[inline]
    unsafe fn offer(
        &mut self,
        valid: std::arch::x86_64::__m256d,
        num: std::arch::x86_64::__m256d,
        d: std::arch::x86_64::__m256d,
    ) -> std::arch::x86_64::__m256d {
        use std::arch::x86_64::*;
        // Lanes without a candidate divide 0 by 1 (no spurious
        // floating-point exceptions for a host that traps them).
        let num = _mm256_and_pd(valid, num);
        let den = _mm256_blendv_pd(_mm256_set1_pd(1.0), d, valid);
        let c = _mm256_div_pd(num, den);
        let lt = _mm256_and_pd(valid, _mm256_cmp_pd::<_CMP_LT_OQ>(c, self.best));
        self.best = _mm256_blendv_pd(self.best, c, lt);
        self.best_k = _mm256_blendv_pd(self.best_k, self.kv, lt);
        self.kv = _mm256_add_pd(self.kv, _mm256_set1_pd(4.0));
        lt
    }

    /// The lanes combined as the scalar loop picks: the least value, then
    /// the lowest index. Returns (value, index, lane).
    ///
    /// # Safety
    /// The processor has AVX.
    #[target_feature(enable = "avx")]
    #[inline]
    unsafe fn best(&self) -> Option<(f64, usize, usize)> {
        use std::arch::x86_64::*;
        let (mut b, mut bk) = ([0.0f64; 4], [0.0f64; 4]);
        // SAFETY: 4-element arrays.
        unsafe {
            _mm256_storeu_pd(b.as_mut_ptr(), self.best);
            _mm256_storeu_pd(bk.as_mut_ptr(), self.best_k);
        }
        let mut out: Option<(f64, usize, usize)> = None;
        for lane in 0..4 {
            if bk[lane] < 0.0 {
                continue;
            }
            let (v, k) = (b[lane], bk[lane] as usize);
            let take = match out {
                None => true,
                Some((v0, k0, _)) => v < v0 || (v == v0 && k < k0),
            };
            if take {
                out = Some((v, k, lane));
            }
        }
        out
    }
}

/// The first n & !3 indices of `clamped_ratio_test`.
///
/// # Safety
/// The processor has AVX; the slices hold the same number of elements.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn clamped_ratio_test_avx(lo: &[f64], hi: &[f64], x: &[f64], dx: &[f64], s: f64) -> (f64, Option<(usize, bool)>) {
    use std::arch::x86_64::*;
    let n4 = dx.len() & !3;
    let zero = _mm256_setzero_pd();
    let (ninf, pinf) = (_mm256_set1_pd(f64::NEG_INFINITY), _mm256_set1_pd(f64::INFINITY));
    // SAFETY: the processor has AVX.
    let mut lanes = unsafe { LaneMin::new(s) };
    // Per lane, the bound its best candidate takes (all ones: hi).
    let mut best_hi = zero;
    let mut j = 0;
    while j < n4 {
        // SAFETY: j + 4 <= n4 <= every slice's length.
        let (d, l, h, xv) = unsafe {
            (
                _mm256_loadu_pd(dx.as_ptr().add(j)),
                _mm256_loadu_pd(lo.as_ptr().add(j)),
                _mm256_loadu_pd(hi.as_ptr().add(j)),
                _mm256_loadu_pd(x.as_ptr().add(j)),
            )
        };
        let down = _mm256_and_pd(_mm256_cmp_pd::<_CMP_LT_OQ>(d, zero), _mm256_cmp_pd::<_CMP_GT_OQ>(l, ninf));
        let up = _mm256_and_pd(_mm256_cmp_pd::<_CMP_GT_OQ>(d, zero), _mm256_cmp_pd::<_CMP_LT_OQ>(h, pinf));
        let valid = _mm256_or_pd(down, up);
        // SAFETY: the processor has AVX.
        let lt = unsafe { lanes.offer(valid, _mm256_sub_pd(_mm256_blendv_pd(h, l, down), xv), d) };
        best_hi = _mm256_blendv_pd(best_hi, up, lt);
        j += 4;
    }
    let mut bh = [0.0f64; 4];
    // SAFETY: a 4-element array.
    unsafe { _mm256_storeu_pd(bh.as_mut_ptr(), best_hi) };
    // SAFETY: the processor has AVX.
    match unsafe { lanes.best() } {
        Some((v, k, lane)) => (v, Some((k, bh[lane].to_bits() != 0))),
        None => (s, None),
    }
}

/// The pivoting proper (after the problem buffers are set up).
fn drive(pr: &mut Problem<'_>, st: &mut Sets<'_>, delta_x: &mut [f64], delta_w: &mut [f64]) -> LcpStatus {
    let n = pr.n;
    let skip = pr.skip;

    // Gather every unbounded non-friction index at the front.
    let mut nub = st.nub;
    // As ODE: the range is fixed at entry while nub grows inside.
    #[allow(clippy::mut_range_bound)]
    for k in nub..n {
        if pr.friction(k) {
            continue;
        }
        if pr.lo[k] == f64::NEG_INFINITY && pr.hi[k] == f64::INFINITY {
            pr.swap(nub, k, false);
            nub += 1;
        }
    }
    st.nub = nub;

    // Solve the unbounded block directly; it forms the initial C.
    if nub > 0 {
        for j in 0..nub {
            let src = pr.rows[j];
            st.l[j * skip..j * skip + j + 1].copy_from_slice(&pr.a[src..src + j + 1]);
        }
        pr.x[..nub].copy_from_slice(&pr.b[..nub]);
        factor_ldlt(st.l, st.d, nub, skip);
        solve_ldlt(st.l, st.d, pr.x, nub, skip);
        pr.w[..nub].fill(0.0);
        for k in 0..nub {
            st.c_order[k] = k;
        }
        st.nc = nub;
    }

    // Friction rows go last (their bounds depend on the others).
    if pr.findex.is_some() {
        let mut at_end = 0;
        for k in (nub..n).rev() {
            if pr.friction(k) {
                pr.swap(k, n - 1 - at_end, true);
                at_end += 1;
            }
        }
    }

    let mut friction_bounds_set = false;
    for i in nub..n {
        if !friction_bounds_set && pr.friction(i) {
            // All remaining indices are friction rows: fix their bounds from
            // the (unpermuted) normal forces; zero normal force, no friction.
            for j in 0..n {
                st.tmp[pr.p[j]] = pr.x[j];
            }
            let f = pr.findex.as_deref().expect("friction row without findex");
            for k in i..n {
                let normal = st.tmp[f[k] as usize];
                if normal == 0.0 {
                    pr.hi[k] = 0.0;
                    pr.lo[k] = 0.0;
                } else {
                    pr.hi[k] = (pr.hi[k] * normal).abs();
                    pr.lo[k] = -pr.hi[k];
                }
            }
            friction_bounds_set = true;
        }

        let (nc, nn) = (st.nc, st.nn);
        let wi = dot(pr.row(i, 0, nc), &pr.x[..nc]) + dot(pr.row(i, nc, nc + nn), &pr.x[nc..nc + nn]);
        pr.w[i] = wi - pr.b[i];

        // Indices with lo = hi = 0 never leave N (their C segment is empty).
        if pr.lo[i] == 0.0 && pr.w[i] >= 0.0 {
            st.nn += 1;
            pr.state[i] = false;
        } else if pr.hi[i] == 0.0 && pr.w[i] <= 0.0 {
            st.nn += 1;
            pr.state[i] = true;
        } else if pr.w[i] == 0.0 {
            // Already on the C segment (lo < 0 < hi here).
            st.solve1(pr, delta_x, i, false, true);
            st.to_c(pr, i);
        } else {
            loop {
                let dir_positive = pr.w[i] <= 0.0;
                st.solve1(pr, delta_x, i, dir_positive, false);

                // delta_w for N and for i (x(i) moves by ±1).
                let (nc, nn) = (st.nc, st.nn);
                // C and N are all the indices before i, so row i follows
                // N's rows and its sum A(i,C)·Δx(C) goes with theirs: four
                // or two rows at a time, independent sums, each in dot's
                // order.
                debug_assert_eq!(nc + nn, i);
                let rows_cn = nn + 1;
                let mut k = 0;
                while k + 4 <= rows_cn {
                    let rows = std::array::from_fn(|t| pr.row(nc + k + t, 0, nc));
                    let Some(d) = dot4(rows, &delta_x[..nc]) else { break };
                    delta_w[nc + k..nc + k + 4].copy_from_slice(&d);
                    k += 4;
                }
                while k + 2 <= rows_cn {
                    let (d0, d1) = dot2(pr.row(nc + k, 0, nc), pr.row(nc + k + 1, 0, nc), &delta_x[..nc]);
                    delta_w[nc + k] = d0;
                    delta_w[nc + k + 1] = d1;
                    k += 2;
                }
                if k < rows_cn {
                    delta_w[nc + k] = dot(pr.row(nc + k, 0, nc), &delta_x[..nc]);
                }
                {
                    let r = pr.row(i, nc, nc + nn);
                    for k in 0..nn {
                        if dir_positive {
                            delta_w[nc + k] += r[k];
                        } else {
                            delta_w[nc + k] -= r[k];
                        }
                    }
                }
                let aic = delta_w[i];
                delta_w[i] = if dir_positive { aic + pr.at(i, i) } else { aic - pr.at(i, i) };

                // Largest step keeping everything valid, and what limits it.
                #[derive(PartialEq)]
                enum Cmd {
                    IToC,
                    IToLo,
                    IToHi,
                    NToC,
                    CToLo,
                    CToHi,
                }
                let mut cmd = Cmd::IToC;
                let mut si = 0;
                let mut s = if delta_w[i] != 0.0 {
                    -pr.w[i] / delta_w[i]
                } else if pr.w[i] != 0.0 {
                    f64::INFINITY.copysign(-pr.w[i])
                } else {
                    0.0
                };
                if dir_positive {
                    if pr.hi[i] < f64::INFINITY {
                        let s2 = pr.hi[i] - pr.x[i];
                        if s2 < s {
                            s = s2;
                            cmd = Cmd::IToHi;
                        }
                    }
                } else if pr.lo[i] > f64::NEG_INFINITY {
                    let s2 = pr.x[i] - pr.lo[i];
                    if s2 < s {
                        s = s2;
                        cmd = Cmd::IToLo;
                    }
                }
                let nset = nc..nc + nn;
                let (s_n, hit) = n_ratio_test(&pr.state[nset.clone()], &pr.lo[nset.clone()], &pr.hi[nset.clone()], &pr.w[nset.clone()], &delta_w[nset], s);
                if let Some(k) = hit {
                    s = s_n;
                    cmd = Cmd::NToC;
                    si = nc + k;
                }
                let c = st.nub..nc;
                let (s_c, hit) = clamped_ratio_test(&pr.lo[c.clone()], &pr.hi[c.clone()], &pr.x[c.clone()], &delta_x[c], s);
                if let Some((k, to_hi)) = hit {
                    s = s_c;
                    cmd = if to_hi { Cmd::CToHi } else { Cmd::CToLo };
                    si = st.nub + k;
                }

                if s <= 0.0 {
                    // Would loop forever: keep what we have.
                    pr.x[i..n].fill(0.0);
                    pr.w[i..n].fill(0.0);
                    return LcpStatus::Stalled { s };
                }

                for k in 0..nc {
                    pr.x[k] += s * delta_x[k];
                }
                pr.x[i] = if dir_positive { pr.x[i] + s } else { pr.x[i] - s };
                for k in nc..nc + nn {
                    pr.w[k] += s * delta_w[k];
                }
                pr.w[i] += s * delta_w[i];

                match cmd {
                    Cmd::IToC => {
                        pr.w[i] = 0.0;
                        st.to_c(pr, i);
                    }
                    Cmd::IToLo => {
                        pr.x[i] = pr.lo[i];
                        pr.state[i] = false;
                        st.nn += 1;
                    }
                    Cmd::IToHi => {
                        pr.x[i] = pr.hi[i];
                        pr.state[i] = true;
                        st.nn += 1;
                    }
                    Cmd::NToC => {
                        pr.w[si] = 0.0;
                        st.n_to_c(pr, si);
                    }
                    Cmd::CToLo => {
                        pr.x[si] = pr.lo[si];
                        pr.state[si] = false;
                        st.c_to_n(pr, si);
                    }
                    Cmd::CToHi => {
                        pr.x[si] = pr.hi[si];
                        pr.state[si] = true;
                        st.c_to_n(pr, si);
                    }
                }
                if matches!(cmd, Cmd::IToC | Cmd::IToLo | Cmd::IToHi) {
                    break;
                }
            }
        }
    }
    LcpStatus::Solved
}

/// What the unit test below switches and counts; nothing outside tests.
#[cfg(not(test))]
mod test_hooks {
    #[inline(always)]
    pub fn reuse_off() -> bool {
        false
    }
    #[inline(always)]
    pub fn count_reused(_rows: usize) {}
}

#[cfg(test)]
mod test_hooks {
    use std::cell::Cell;

    thread_local! {
        pub static REUSE_OFF: Cell<bool> = const { Cell::new(false) };
        pub static REUSED: Cell<usize> = const { Cell::new(0) };
    }

    pub fn reuse_off() -> bool {
        REUSE_OFF.with(Cell::get)
    }

    pub fn count_reused(rows: usize) {
        REUSED.with(|c| c.set(c.get() + rows));
    }
}

#[cfg(test)]
mod tests {
    use super::test_hooks::{REUSED, REUSE_OFF};
    use super::*;
    use std::cell::Cell;

    /// The vectorised ratio test over the clamped set against the scalar
    /// loop: the same step (bits), index and bound on random inputs full of
    /// ties, signed zeros, infinite bounds, NaN and zero Δx.
    #[test]
    fn clamped_ratio_test_matches_the_scalar_loop() {
        let mut rng = crate::test_rng::Rng(0x2545f4914f6cdd1d);
        let pick = |rng: &mut crate::test_rng::Rng, vals: &[f64]| vals[rng.below(vals.len())];
        let specials = [0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 1e-300, f64::INFINITY, f64::NEG_INFINITY, f64::NAN];
        let mut hits = 0;
        for trial in 0..20_000 {
            let n = rng.below(40);
            let gen = |rng: &mut crate::test_rng::Rng| if rng.unit() < 0.3 { pick(rng, &specials) } else { (rng.unit() * 8.0).round() / 4.0 - 1.0 };
            let dx: Vec<f64> = (0..n).map(|_| gen(&mut rng)).collect();
            let x: Vec<f64> = (0..n).map(|_| gen(&mut rng)).collect();
            let lo: Vec<f64> = (0..n).map(|_| gen(&mut rng)).collect();
            let hi: Vec<f64> = (0..n).map(|_| gen(&mut rng)).collect();
            let s = pick(&mut rng, &[f64::INFINITY, 1.0, 0.0, -0.0, 0.25, f64::NAN, 3.0]);
            let want = clamped_ratio_test_scalar(&lo, &hi, &x, &dx, s);
            let got = clamped_ratio_test(&lo, &hi, &x, &dx, s);
            assert_eq!(got.0.to_bits(), want.0.to_bits(), "trial {trial}: step");
            assert_eq!(got.1, want.1, "trial {trial}: index and bound");
            hits += want.1.is_some() as usize;
        }
        assert!(hits > 5_000, "too few replaced steps: {hits}");
    }

    /// The vectorised ratio test over N against the scalar loop: the same
    /// step (bits) and index on random inputs full of ties, signed zeros,
    /// zero bounds, infinities and NaN.
    #[test]
    fn n_ratio_test_matches_the_scalar_loop() {
        let mut rng = crate::test_rng::Rng(0x6a09e667f3bcc909);
        let pick = |rng: &mut crate::test_rng::Rng, vals: &[f64]| vals[rng.below(vals.len())];
        let specials = [0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 1e-300, f64::INFINITY, f64::NEG_INFINITY, f64::NAN];
        let mut hits = 0;
        for trial in 0..20_000 {
            let n = rng.below(40);
            let gen = |rng: &mut crate::test_rng::Rng| if rng.unit() < 0.3 { pick(rng, &specials) } else { (rng.unit() * 8.0).round() / 4.0 - 1.0 };
            let state: Vec<bool> = (0..n).map(|_| rng.unit() < 0.5).collect();
            let dw: Vec<f64> = (0..n).map(|_| gen(&mut rng)).collect();
            let w: Vec<f64> = (0..n).map(|_| gen(&mut rng)).collect();
            let lo: Vec<f64> = (0..n).map(|_| if rng.unit() < 0.3 { 0.0 } else { gen(&mut rng) }).collect();
            let hi: Vec<f64> = (0..n).map(|_| if rng.unit() < 0.3 { 0.0 } else { gen(&mut rng) }).collect();
            let s = pick(&mut rng, &[f64::INFINITY, 1.0, 0.0, -0.0, 0.25, f64::NAN, 3.0]);
            let want = n_ratio_test_scalar(&state, &lo, &hi, &w, &dw, s);
            let got = n_ratio_test(&state, &lo, &hi, &w, &dw, s);
            assert_eq!(got.0.to_bits(), want.0.to_bits(), "trial {trial}: step");
            assert_eq!(got.1, want.1, "trial {trial}: index");
            hits += want.1.is_some() as usize;
        }
        assert!(hits > 5_000, "too few replaced steps: {hits}");
    }

    /// Ragdoll-like boxed problems (bilateral rows, then contacts of a
    /// normal and two friction rows with a friction index, A = J·Jᵀ of fewer
    /// degrees of freedom than rows plus a small CFM, so many pivots), solved
    /// with and without reusing the driving index's forward solve: the same
    /// bits in x and w, and the reuse did happen.
    #[test]
    fn reused_forward_solves_give_the_same_bits() {
        let mut rng = crate::test_rng::Rng(0x9e3779b97f4a7c15);
        let mut next = move || rng.unit();
        REUSED.with(|c| c.set(0));
        let mut sc = [LcpScratch::default(), LcpScratch::default()];
        for trial in 0..60 {
            let nub = 4 + (next() * 40.0) as usize;
            let contacts = 3 + (next() * 14.0) as usize;
            let n = nub + 3 * contacts;
            let dof = (n * 5 / 6).max(1);
            let skip = pad(n);
            let jac: Vec<f64> = (0..n * dof).map(|_| next() * 2.0 - 1.0).collect();
            let mut a = vec![0.0; n * skip];
            for r in 0..n {
                for c in 0..=r {
                    let v: f64 = (0..dof).map(|k| jac[r * dof + k] * jac[c * dof + k]).sum();
                    a[r * skip + c] = v + if r == c { 1e-5 } else { 0.0 };
                }
            }
            let b: Vec<f64> = (0..n).map(|_| next() * 2.0 - 1.0).collect();
            let (mut lo, mut hi, mut findex) = (vec![f64::NEG_INFINITY; n], vec![f64::INFINITY; n], vec![-1i32; n]);
            for k in 0..contacts {
                let r = nub + 3 * k;
                lo[r] = 0.0;
                for f in 1..3 {
                    (lo[r + f], hi[r + f]) = (-0.7, 0.7);
                    findex[r + f] = r as i32;
                }
            }
            let mut out = Vec::new();
            for (off, sc) in [false, true].into_iter().zip(&mut sc) {
                REUSE_OFF.with(|c| c.set(off));
                let (mut a, mut b, mut lo, mut hi, mut fi) = (a.clone(), b.clone(), lo.clone(), hi.clone(), findex.clone());
                let (mut x, mut w) = (vec![0.0; n], vec![0.0; n]);
                solve_lcp(n, &mut a, &mut x, &mut b, Some(&mut w), nub, &mut lo, &mut hi, Some(&mut fi), sc);
                out.push((x, w));
            }
            REUSE_OFF.with(|c| c.set(false));
            for k in 0..n {
                assert_eq!(out[0].0[k].to_bits(), out[1].0[k].to_bits(), "trial {trial}: x[{k}]");
                assert_eq!(out[0].1[k].to_bits(), out[1].1[k].to_bits(), "trial {trial}: w[{k}]");
            }
        }
        let reused = REUSED.with(Cell::get);
        assert!(reused > 1_000, "the forward solves were reused: {reused} rows");
    }
}
