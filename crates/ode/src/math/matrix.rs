//! Dense matrix routines of ODE's matrix.h, on slices with explicit row
//! strides.
//!
//! Storage follows ODE: row-major; matrices handed over without an explicit
//! stride have `pad(ncols)` elements per row (`dPAD`: rounded up to a
//! multiple of 4 when more than one column). The LDLT routines take the stride
//! (`nskip`) explicitly and keep the *reciprocals* of D in `d`.
//!
//! Round-off matters here: the solver's traces must match ODE's, so every
//! routine accumulates in the same order as ODE 0.16's blocked kernels
//! (sequential partial sums starting from zero, in-block terms subtracted one
//! by one, and the occasional split into even/odd accumulators). The comments
//! at each routine say which order is used.

/// Grows `v` (new elements `fill`) to hold `n` doubles starting on a
/// 64-byte boundary, and returns where they are. With rows of a multiple
/// of 4 doubles (`pad`), the AVX kernels' 4-wide loads at column multiples
/// of 4 then never straddle two cache lines: a large `Vec` comes from
/// `mmap` 16 bytes past a page boundary, where every other such load did,
/// and split loads are slow on some processors (about 4 % of a ragdoll
/// step on the Intel Xeon VM).
pub fn cache_aligned(v: &mut Vec<f64>, n: usize, fill: f64) -> std::ops::Range<usize> {
    // Up to 7 doubles of lead-in.
    if v.len() < n + 7 {
        v.resize(n + 7, fill);
    }
    let lead = v.as_ptr().align_offset(64).min(7);
    lead..lead + n
}

/// ODE's `dPAD`: the row stride of a matrix with `n` columns.
#[inline]
pub const fn pad(n: usize) -> usize {
    if n > 1 {
        (n + 3) & !3
    } else {
        n
    }
}

/// Number of elements spanned by `rows` rows of `cols` columns at `stride`.
#[inline]
pub const fn span(rows: usize, cols: usize, stride: usize) -> usize {
    if rows == 0 || cols == 0 {
        0
    } else {
        (rows - 1) * stride + cols
    }
}

pub fn set_zero(a: &mut [f64]) {
    a.fill(0.0);
}

pub fn set_value(a: &mut [f64], v: f64) {
    a.fill(v);
}

/// Dot product of `a` and `b[..a.len()]`: groups of four products are summed
/// among themselves first, then added to the running sum; the tail is added
/// one product at a time (ODE's order).
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len();
    let b = &b[..n];
    let mut sum = 0.0;
    let n4 = n & !3;
    for (x, y) in a[..n4].chunks_exact(4).zip(b[..n4].chunks_exact(4)) {
        let m0 = x[0] * y[0];
        let m1 = x[1] * y[1];
        let m2 = x[2] * y[2];
        let m3 = x[3] * y[3];
        sum += m0 + m1 + m2 + m3;
    }
    for k in n4..n {
        sum += a[k] * b[k];
    }
    sum
}

/// `(dot(a1, b), dot(a2, b))`, each in exactly `dot`'s order; the two
/// sums run side by side (SSE2 lanes on x86-64), which halves the latency
/// the single running sum of `dot` is bound by.
pub fn dot2(a1: &[f64], a2: &[f64], b: &[f64]) -> (f64, f64) {
    let n = a1.len();
    let (a2, b) = (&a2[..n], &b[..n]);
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        let n4 = n & !3;
        let mut out = [0.0f64; 2];
        // SAFETY: SSE2 is in the x86-64 baseline; reads stay below n4 <= n
        // in slices of length n.
        unsafe {
            let (p1, p2, q) = (a1.as_ptr(), a2.as_ptr(), b.as_ptr());
            let mut sum = _mm_setzero_pd();
            let mut j = 0;
            while j < n4 {
                let (x0, y0) = (_mm_loadu_pd(p1.add(j)), _mm_loadu_pd(p2.add(j)));
                let (x1, y1) = (_mm_loadu_pd(p1.add(j + 2)), _mm_loadu_pd(p2.add(j + 2)));
                let (q0, q1) = (_mm_loadu_pd(q.add(j)), _mm_loadu_pd(q.add(j + 2)));
                let m0 = _mm_mul_pd(_mm_unpacklo_pd(x0, y0), _mm_unpacklo_pd(q0, q0));
                let m1 = _mm_mul_pd(_mm_unpackhi_pd(x0, y0), _mm_unpackhi_pd(q0, q0));
                let m2 = _mm_mul_pd(_mm_unpacklo_pd(x1, y1), _mm_unpacklo_pd(q1, q1));
                let m3 = _mm_mul_pd(_mm_unpackhi_pd(x1, y1), _mm_unpackhi_pd(q1, q1));
                sum = _mm_add_pd(sum, _mm_add_pd(_mm_add_pd(_mm_add_pd(m0, m1), m2), m3));
                j += 4;
            }
            _mm_storeu_pd(out.as_mut_ptr(), sum);
        }
        let (mut s1, mut s2) = (out[0], out[1]);
        for k in n4..n {
            s1 += a1[k] * b[k];
            s2 += a2[k] * b[k];
        }
        (s1, s2)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        (dot(a1, b), dot(a2, b))
    }
}

/// `[dot(a[0], b), …, dot(a[3], b)]` for four rows of one length, each in
/// exactly `dot`'s order, with AVX: a group of four columns is multiplied
/// row by row (four products in the lanes of one register), the four
/// product vectors are transposed so that lane r holds row r's products in
/// column order, and their sum ((p0 + p1) + p2) + p3 is added to the
/// running sums, lane by lane as `dot` adds it. Returns `None` without AVX.
#[inline]
pub fn dot4(a: [&[f64]; 4], b: &[f64]) -> Option<[f64; 4]> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        let n = a[0].len();
        assert!(a.iter().all(|r| r.len() == n) && b.len() >= n);
        // SAFETY: AVX is present; the slices hold n elements.
        return Some(unsafe { dot4_avx(a, &b[..n]) });
    }
    let _ = (a, b);
    None
}

/// # Safety
/// The processor has AVX; every row and `b` have the same length.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn dot4_avx(a: [&[f64]; 4], b: &[f64]) -> [f64; 4] {
    use std::arch::x86_64::*;
    let n = b.len();
    let n4 = n & !3;
    let mut out = [0.0f64; 4];
    // SAFETY: reads below n4 <= n in slices of length n.
    unsafe {
        let q = b.as_ptr();
        let mut sum = _mm256_setzero_pd();
        let mut j = 0;
        while j < n4 {
            let qv = _mm256_loadu_pd(q.add(j));
            let p0 = _mm256_mul_pd(_mm256_loadu_pd(a[0].as_ptr().add(j)), qv);
            let p1 = _mm256_mul_pd(_mm256_loadu_pd(a[1].as_ptr().add(j)), qv);
            let p2 = _mm256_mul_pd(_mm256_loadu_pd(a[2].as_ptr().add(j)), qv);
            let p3 = _mm256_mul_pd(_mm256_loadu_pd(a[3].as_ptr().add(j)), qv);
            // (r0c0 r1c0 r0c2 r1c2), (r0c1 r1c1 r0c3 r1c3), same for r2, r3.
            let (u0, u1) = (_mm256_unpacklo_pd(p0, p1), _mm256_unpackhi_pd(p0, p1));
            let (u2, u3) = (_mm256_unpacklo_pd(p2, p3), _mm256_unpackhi_pd(p2, p3));
            let c0 = _mm256_permute2f128_pd::<0x20>(u0, u2);
            let c1 = _mm256_permute2f128_pd::<0x20>(u1, u3);
            let c2 = _mm256_permute2f128_pd::<0x31>(u0, u2);
            let c3 = _mm256_permute2f128_pd::<0x31>(u1, u3);
            sum = _mm256_add_pd(sum, _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(c0, c1), c2), c3));
            j += 4;
        }
        _mm256_storeu_pd(out.as_mut_ptr(), sum);
    }
    for (r, o) in out.iter_mut().enumerate() {
        for k in n4..n {
            *o += a[r][k] * b[k];
        }
    }
    out
}

/// A = B*C with B p×q and C q×r (all padded).
pub fn multiply0(a: &mut [f64], b: &[f64], c: &[f64], p: usize, q: usize, r: usize) {
    let (qs, rs) = (pad(q), pad(r));
    for i in 0..p {
        for j in 0..r {
            let mut sum = 0.0;
            for k in 0..q {
                sum += b[i * qs + k] * c[k * rs + j];
            }
            a[i * rs + j] = sum;
        }
    }
}

/// A = B'*C with B q×p and C q×r (all padded).
pub fn multiply1(a: &mut [f64], b: &[f64], c: &[f64], p: usize, q: usize, r: usize) {
    let (ps, rs) = (pad(p), pad(r));
    for i in 0..p {
        for j in 0..r {
            let mut sum = 0.0;
            for k in 0..q {
                sum += b[k * ps + i] * c[k * rs + j];
            }
            a[i * rs + j] = sum;
        }
    }
}

/// A = B*C' with B p×q and C r×q (all padded).
pub fn multiply2(a: &mut [f64], b: &[f64], c: &[f64], p: usize, q: usize, r: usize) {
    let (qs, rs) = (pad(q), pad(r));
    for i in 0..p {
        for j in 0..r {
            let mut sum = 0.0;
            for k in 0..q {
                sum += b[i * qs + k] * c[j * qs + k];
            }
            a[i * rs + j] = sum;
        }
    }
}

/// In-place Cholesky factorisation L*L' of the lower triangle of the padded
/// n×n matrix `a`. Returns false (leaving `a` partly overwritten, as ODE
/// does) if a pivot is not positive.
pub fn factor_cholesky(a: &mut [f64], n: usize) -> bool {
    let s = pad(n);
    let mut recip = vec![0.0; n];
    for i in 0..n {
        for j in 0..i {
            let mut sum = a[i * s + j];
            for k in 0..j {
                sum -= a[i * s + k] * a[j * s + k];
            }
            a[i * s + j] = sum * recip[j];
        }
        let mut sum = a[i * s + i];
        for k in 0..i {
            let v = a[i * s + k];
            sum -= v * v;
        }
        if sum <= 0.0 {
            return false;
        }
        let root = sum.sqrt();
        a[i * s + i] = root;
        recip[i] = 1.0 / root;
    }
    true
}

/// Solves L*L'*x = b for the padded Cholesky factor `l`; x replaces b.
pub fn solve_cholesky(l: &[f64], b: &mut [f64], n: usize) {
    let s = pad(n);
    let mut y = vec![0.0; n];
    for i in 0..n {
        let mut sum = 0.0;
        for k in 0..i {
            sum += l[i * s + k] * y[k];
        }
        y[i] = (b[i] - sum) / l[i * s + i];
    }
    for i in (0..n).rev() {
        let mut sum = 0.0;
        for k in i + 1..n {
            sum += l[k * s + i] * b[k];
        }
        b[i] = (y[i] - sum) / l[i * s + i];
    }
}

/// Inverse of the padded positive definite n×n matrix `a` (all `pad(n)*n`
/// elements are read). Returns false, leaving `ainv` untouched, if `a` is not
/// positive definite. Padding elements of `ainv` are set to zero.
pub fn invert_pd(a: &[f64], ainv: &mut [f64], n: usize) -> bool {
    let s = pad(n);
    let mut l = a[..s * n].to_vec();
    if !factor_cholesky(&mut l, n) {
        return false;
    }
    ainv[..s * n].fill(0.0);
    let mut x = vec![0.0; n];
    for i in 0..n {
        x.fill(0.0);
        x[i] = 1.0;
        solve_cholesky(&l, &mut x, n);
        for (k, &v) in x.iter().enumerate() {
            ainv[k * s + i] = v;
        }
    }
    true
}

/// Whether the padded n×n matrix `a` is positive definite (by Cholesky).
pub fn is_positive_definite(a: &[f64], n: usize) -> bool {
    let s = pad(n);
    let mut copy = a[..s * n].to_vec();
    factor_cholesky(&mut copy, n)
}

/// In-place L*D*L' factorisation of the n×n matrix `a` with row stride `s`:
/// L (unit diagonal) goes to the strict lower triangle, 1/D to `d`.
///
/// ODE factors two rows at a time (a trailing odd row alone): the rows are
/// first solved against the L already computed, again in 2-row blocks, then
/// scaled by 1/D while the diagonal correction is accumulated.
pub fn factor_ldlt(a: &mut [f64], d: &mut [f64], n: usize, s: usize) {
    if n == 0 {
        return;
    }
    PANELS.with(|p| {
        let mut panels = p.borrow_mut();
        // Panel q holds the 4q columns before row 4q of the four rows
        // 4q..4q+3, column by column: at most (n/4 + 1)·4·n elements.
        let need = (n / 4 + 1) * 4 * n;
        let at = cache_aligned(&mut panels, need, 0.0);
        let panels = &mut panels[at];
        let lanes = Lanes::detect();
        let mut i = 0;
        while i + 1 < n {
            if i > 0 && i % 4 == 0 && i + 3 < n {
                // Four (or two) pairs share the pass over the panels
                // before row i; then each pair in turn finishes over
                // columns i.. (the earlier pairs final by then) and is
                // scaled.
                let rows = if i + 7 < n {
                    ldlt_solve_pairs::<8>(a, panels, n, lanes, i, s);
                    8
                } else {
                    ldlt_solve_pairs::<4>(a, panels, n, lanes, i, s);
                    4
                };
                for r in (i..i + rows).step_by(2) {
                    ldlt_solve_pair(a, panels, n, lanes, r, s, i);
                    ldlt_scale_pair(a, d, panels, n, r, s);
                }
                i += rows;
                continue;
            }
            if i > 0 {
                ldlt_solve_pair(a, panels, n, lanes, i, s, 0);
                ldlt_scale_pair(a, d, panels, n, i, s);
            } else {
                let (y11, y21, y22) = (a[0], a[s], a[s + 1]);
                let dd = 1.0 / y11;
                d[0] = dd;
                let q2 = y21 * dd;
                a[s] = q2;
                d[1] = 1.0 / (y22 - y21 * q2);
            }
            i += 2;
        }
        if i < n {
            if i > 0 {
                ldlt_solve_single(a, i, s);
                ldlt_scale_single(a, d, i, s);
            } else {
                d[0] = 1.0 / a[0];
            }
        }
    });
}

thread_local! {
    /// `factor_ldlt`'s copy of L in 4-row panels: element (column k, row
    /// 4q + j) at `[q·4n + 4k + j]`, so one column's four values are
    /// adjacent; only the columns before a panel's first row are kept, the
    /// only ones `ldlt_solve_pair` reads from it. Written by
    /// `ldlt_scale_pair` as rows become final; grown, never shrunk, so a
    /// warm factorisation does not allocate; one per thread, as islands may
    /// be stepped on several.
    static PANELS: std::cell::RefCell<Vec<f64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The vector width `quad_dots` may use (AVX is chosen at run time where
/// the processor has it; both do the same IEEE operations in the same
/// order, without fused multiply-add).
#[derive(Clone, Copy)]
enum Lanes {
    Sse2,
    #[cfg(target_arch = "x86_64")]
    Avx,
}

impl Lanes {
    fn detect() -> Lanes {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx") {
            return Lanes::Avx;
        }
        Lanes::Sse2
    }
}

/// Solves L*x = row for rows `i` and `i+1` of `a` (first `i` columns), where
/// L is the unit lower triangle of the top-left i×i block; 2-row blocks,
/// from block `r0` on (the blocks before it already done, see
/// `ldlt_solve_pairs`; r0 is 0 or a multiple of 4).
///
/// The rows are split into separate slices so the inner loop runs without
/// bounds checks; the sums still run over k in increasing order, as ODE's.
/// Two consecutive 2-row blocks (r, r+2) share the pass over k < r, then
/// the second carries on over k = r, r+1 once the first is final: every
/// sum keeps its order, the two blocks' sums only overlap in time. The
/// shared pass reads the four rows' columns from their panel (`PANELS`),
/// one contiguous load per column instead of four scalar ones.
fn ldlt_solve_pair(a: &mut [f64], panels: &[f64], n: usize, lanes: Lanes, i: usize, s: usize, r0: usize) {
    let (head, tail) = a.split_at_mut(i * s);
    let (rb1, rest) = tail.split_at_mut(s);
    let rb1 = &mut rb1[..i + 2];
    let rb2 = &mut rest[..i + 2];
    let mut r = r0;
    while r + 4 <= i {
        let panel = &panels[r * n..r * n + 4 * r];
        let (z, w) = quad_dots(lanes, panel, &rb1[..r], &rb2[..r]);
        finish_quad_block(head, s, r, rb1, rb2, z, w);
        r += 4;
    }
    while r < i {
        let l1 = &head[r * s..r * s + r];
        let l2 = &head[(r + 1) * s..(r + 1) * s + r + 1];
        let (z11, z12, z21, z22) = pair_dots(&l1[..r], &l2[..r], &rb1[..r], &rb2[..r]);
        pair_block_values(rb1, rb2, r, l2[r], [z11, z12, z21, z22]);
        r += 2;
    }
}

/// The values of a 2-row block r, r+1 of L for the two rows being solved,
/// from their sums `z` = [p1·q1, p1·q2, p2·q1, p2·q2] over the columns
/// before r and L[r+1][r] = `p2` (ODE's order: the first value, then the
/// second less the first's share).
#[inline(always)]
fn pair_block_values(rb1: &mut [f64], rb2: &mut [f64], r: usize, p2: f64, z: [f64; 4]) {
    let [z11, z12, z21, z22] = z;
    let y11 = rb1[r] - z11;
    let y12 = rb2[r] - z12;
    rb1[r] = y11;
    rb2[r] = y12;
    rb1[r + 1] = rb1[r + 1] - z21 - p2 * y11;
    rb2[r + 1] = rb2[r + 1] - z22 - p2 * y12;
}

/// Rows i..i+R (R/2 pairs, i a multiple of 4, R 4 or 8) solved as
/// `ldlt_solve_pair` solves each pair, over the 4-row blocks before row i:
/// the R rows' sums share each panel column's load and run in R
/// independent accumulators (two before), which hides the additions'
/// latency on a long factorisation (the 200-link hinge chain's 1000 rows).
/// Each sum keeps its order. The pairs still need the blocks from i on
/// (`ldlt_solve_pair(.., r0 = i)`), each once the pairs before it are
/// scaled.
fn ldlt_solve_pairs<const R: usize>(a: &mut [f64], panels: &[f64], n: usize, lanes: Lanes, i: usize, s: usize) {
    let (head, tail) = a.split_at_mut(i * s);
    // Row k of the R starts at k·s and is read up to column i + R; the
    // last row may end there (the matrix spans (n-1)·s + n elements).
    let mut rest = tail;
    let mut rows: [&mut [f64]; R] = std::array::from_fn(|k| {
        let (row, next) = std::mem::take(&mut rest).split_at_mut(if k + 1 < R { s } else { i + R });
        rest = next;
        &mut row[..i + R]
    });
    let mut r = 0;
    while r + 4 <= i {
        let panel = &panels[r * n..r * n + 4 * r];
        let dots = panel_dots::<R>(lanes, panel, std::array::from_fn(|k| &rows[k][..r]));
        for p in 0..R / 2 {
            let (x, y) = (dots[2 * p], dots[2 * p + 1]);
            let (first, second) = rows.split_at_mut(2 * p + 1);
            let z = [x[0], y[0], x[1], y[1]];
            let w = [x[2], y[2], x[3], y[3]];
            finish_quad_block(head, s, r, first[2 * p], second[0], z, w);
        }
        r += 4;
    }
}

/// The rest of a 4-row block r..r+4 for two rows rb1, rb2 being solved,
/// given their sums over k < r with the block's four rows p1..p4 of L
/// (`z` = [p1·q1, p1·q2, p2·q1, p2·q2], `w` the same for p3, p4): the
/// first 2-row block's values, then the second's sums carried on over
/// k = r, r+1 (same accumulators, increasing k) and its values.
#[inline(always)]
fn finish_quad_block(head: &[f64], s: usize, r: usize, rb1: &mut [f64], rb2: &mut [f64], z: [f64; 4], w: [f64; 4]) {
    let l2 = &head[(r + 1) * s..(r + 1) * s + r + 1];
    let l3 = &head[(r + 2) * s..(r + 2) * s + r + 2];
    let l4 = &head[(r + 3) * s..(r + 3) * s + r + 3];
    let [mut w11, mut w12, mut w21, mut w22] = w;
    pair_block_values(rb1, rb2, r, l2[r], z);
    for k in r..r + 2 {
        let (q1, q2) = (rb1[k], rb2[k]);
        w11 += l3[k] * q1;
        w12 += l3[k] * q2;
        w21 += l4[k] * q1;
        w22 += l4[k] * q2;
    }
    pair_block_values(rb1, rb2, r + 2, l4[r + 2], [w11, w12, w21, w22]);
}

/// The dot products of the four rows p1..p4 of L in a panel (`PANELS`)
/// against Q vectors q: `[p1·q, p2·q, p3·q, p4·q]` per q, each summed from
/// zero in index order (same bits as scalar sums); the 4·Q sums run side
/// by side in vector lanes.
#[inline]
fn panel_dots<const Q: usize>(lanes: Lanes, panel: &[f64], q: [&[f64]; Q]) -> [[f64; 4]; Q] {
    let n = q[0].len();
    let panel = &panel[..4 * n];
    let q = q.map(|v| &v[..n]);
    #[cfg(target_arch = "x86_64")]
    {
        if let Lanes::Avx = lanes {
            // SAFETY: AVX was detected at run time; lengths checked above.
            return unsafe { panel_dots_avx::<Q>(panel, q) };
        }
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is in the x86-64 baseline; every load reads two
        // elements inside `panel` (4n long) or one of a q (n long).
        unsafe {
            let mut acc = [[_mm_setzero_pd(); 2]; Q];
            let p = panel.as_ptr();
            for k in 0..n {
                let p12 = _mm_loadu_pd(p.add(4 * k));
                let p34 = _mm_loadu_pd(p.add(4 * k + 2));
                for (a, v) in acc.iter_mut().zip(&q) {
                    let x = _mm_set1_pd(*v.get_unchecked(k));
                    a[0] = _mm_add_pd(a[0], _mm_mul_pd(p12, x));
                    a[1] = _mm_add_pd(a[1], _mm_mul_pd(p34, x));
                }
            }
            let mut o = [[0.0f64; 4]; Q];
            for (out, a) in o.iter_mut().zip(&acc) {
                _mm_storeu_pd(out.as_mut_ptr(), a[0]);
                _mm_storeu_pd(out.as_mut_ptr().add(2), a[1]);
            }
            o
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = lanes;
        let mut o = [[0.0f64; 4]; Q];
        for k in 0..n {
            for (out, v) in o.iter_mut().zip(&q) {
                for j in 0..4 {
                    out[j] += panel[4 * k + j] * v[k];
                }
            }
        }
        o
    }
}

/// `panel_dots` on 256-bit lanes: one load per column of the panel, Q
/// accumulators.
///
/// # Safety
/// The processor must have AVX; `panel` holds at least `4·n` and each q
/// at least `n = q[0].len()` elements.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn panel_dots_avx<const Q: usize>(panel: &[f64], q: [&[f64]; Q]) -> [[f64; 4]; Q] {
    use std::arch::x86_64::*;
    let n = q[0].len();
    let p = panel.as_ptr();
    let qp = q.map(|v| v.as_ptr());
    let mut acc = [_mm256_setzero_pd(); Q];
    for k in 0..n {
        let row = _mm256_loadu_pd(p.add(4 * k));
        for (a, v) in acc.iter_mut().zip(&qp) {
            *a = _mm256_add_pd(*a, _mm256_mul_pd(row, _mm256_set1_pd(*v.add(k))));
        }
    }
    let mut o = [[0.0f64; 4]; Q];
    for (out, v) in o.iter_mut().zip(acc) {
        _mm256_storeu_pd(out.as_mut_ptr(), v);
    }
    o
}

/// The dot products of four rows p1..p4 of L, given as a panel (`PANELS`:
/// p1[k], p2[k], p3[k], p4[k] adjacent), against q1 and q2: returns
/// ([p1·q1, p1·q2, p2·q1, p2·q2], [p3·q1, p3·q2, p4·q1, p4·q2]), each summed
/// from zero in index order (same bits as scalar sums); the eight sums run
/// side by side in vector lanes.
#[inline]
fn quad_dots(lanes: Lanes, panel: &[f64], q1: &[f64], q2: &[f64]) -> ([f64; 4], [f64; 4]) {
    let n = q1.len();
    let (panel, q2) = (&panel[..4 * n], &q2[..n]);
    #[cfg(target_arch = "x86_64")]
    {
        if let Lanes::Avx = lanes {
            // SAFETY: AVX was detected at run time.
            return unsafe { quad_dots_avx(panel, q1, q2) };
        }
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is in the x86-64 baseline; every load reads two
        // elements inside `panel` (4n long) or one of q1/q2 (n long).
        unsafe {
            let (mut a, mut b, mut c, mut d) = (_mm_setzero_pd(), _mm_setzero_pd(), _mm_setzero_pd(), _mm_setzero_pd());
            let p = panel.as_ptr();
            for k in 0..n {
                let (x1, x2) = (_mm_set1_pd(*q1.get_unchecked(k)), _mm_set1_pd(*q2.get_unchecked(k)));
                let p12 = _mm_loadu_pd(p.add(4 * k));
                let p34 = _mm_loadu_pd(p.add(4 * k + 2));
                a = _mm_add_pd(a, _mm_mul_pd(p12, x1));
                b = _mm_add_pd(b, _mm_mul_pd(p12, x2));
                c = _mm_add_pd(c, _mm_mul_pd(p34, x1));
                d = _mm_add_pd(d, _mm_mul_pd(p34, x2));
            }
            let mut o = [0.0f64; 8];
            _mm_storeu_pd(o.as_mut_ptr(), a); // p1·q1, p2·q1
            _mm_storeu_pd(o.as_mut_ptr().add(2), b); // p1·q2, p2·q2
            _mm_storeu_pd(o.as_mut_ptr().add(4), c); // p3·q1, p4·q1
            _mm_storeu_pd(o.as_mut_ptr().add(6), d); // p3·q2, p4·q2
            ([o[0], o[2], o[1], o[3]], [o[4], o[6], o[5], o[7]])
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = lanes;
        let mut z = [0.0f64; 8];
        for k in 0..n {
            for j in 0..4 {
                z[2 * j] += panel[4 * k + j] * q1[k];
                z[2 * j + 1] += panel[4 * k + j] * q2[k];
            }
        }
        ([z[0], z[1], z[2], z[3]], [z[4], z[5], z[6], z[7]])
    }
}

/// `quad_dots` on 256-bit lanes: one load per column of the panel.
///
/// # Safety
/// The processor must have AVX; `panel` holds at least `4·q1.len()` and
/// `q2` at least `q1.len()` elements.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn quad_dots_avx(panel: &[f64], q1: &[f64], q2: &[f64]) -> ([f64; 4], [f64; 4]) {
    use std::arch::x86_64::*;
    let n = q1.len();
    let p = panel.as_ptr();
    let (mut a, mut b) = (_mm256_setzero_pd(), _mm256_setzero_pd());
    for k in 0..n {
        let row = _mm256_loadu_pd(p.add(4 * k));
        a = _mm256_add_pd(a, _mm256_mul_pd(row, _mm256_set1_pd(*q1.get_unchecked(k))));
        b = _mm256_add_pd(b, _mm256_mul_pd(row, _mm256_set1_pd(*q2.get_unchecked(k))));
    }
    let mut o = [0.0f64; 8];
    _mm256_storeu_pd(o.as_mut_ptr(), a); // p1..p4 · q1
    _mm256_storeu_pd(o.as_mut_ptr().add(4), b); // p1..p4 · q2
    ([o[0], o[4], o[1], o[5]], [o[2], o[6], o[3], o[7]])
}

/// The four dot products p1·q1, p1·q2, p2·q1, p2·q2 of equal-length rows,
/// each summed in index order (as ODE's factorisation does, so results are
/// bit-identical). On x86-64 the (·q1, ·q2) pairs run as SSE2 lanes, which
/// keeps every lane's order of additions.
#[inline]
fn pair_dots(p1: &[f64], p2: &[f64], q1: &[f64], q2: &[f64]) -> (f64, f64, f64, f64) {
    let n = p1.len();
    let (p2, q1, q2) = (&p2[..n], &q1[..n], &q2[..n]);
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of the x86-64 baseline every x86-64 CPU has;
        // the stores write two lanes into two-element arrays.
        unsafe {
            let mut z1 = _mm_setzero_pd();
            let mut z2 = _mm_setzero_pd();
            for k in 0..n {
                let q = _mm_set_pd(q2[k], q1[k]);
                z1 = _mm_add_pd(z1, _mm_mul_pd(_mm_set1_pd(p1[k]), q));
                z2 = _mm_add_pd(z2, _mm_mul_pd(_mm_set1_pd(p2[k]), q));
            }
            let (mut a, mut b) = ([0.0f64; 2], [0.0f64; 2]);
            _mm_storeu_pd(a.as_mut_ptr(), z1);
            _mm_storeu_pd(b.as_mut_ptr(), z2);
            (a[0], a[1], b[0], b[1])
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let (mut z11, mut z12, mut z21, mut z22) = (0.0, 0.0, 0.0, 0.0);
        for k in 0..n {
            z11 += p1[k] * q1[k];
            z12 += p1[k] * q2[k];
            z21 += p2[k] * q1[k];
            z22 += p2[k] * q2[k];
        }
        (z11, z12, z21, z22)
    }
}

/// Scales rows `i`, `i+1` by 1/D and factors their 2×2 diagonal block;
/// the scaled columns before the rows' panel start also go to the panel
/// (`PANELS`' layout; the two rows sit side by side there). The three
/// sums run as ODE's, each in index order: (p1·q1, p2·q1) in the lanes of
/// one SSE2 accumulator, p2·q2 in the high lane of another.
fn ldlt_scale_pair(a: &mut [f64], d: &mut [f64], panels: &mut [f64], n: usize, i: usize, s: usize) {
    let (row1, rest) = a[i * s..].split_at_mut(s);
    let row1 = &mut row1[..i + 1];
    let row2 = &mut rest[..i + 2];
    let (q, j) = (i / 4, i % 4);
    let cols = 4 * q;
    let panel = &mut panels[q * 4 * n..q * 4 * n + 4 * cols];
    let (z11, z21, z22);
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is in the x86-64 baseline; k < i ≤ the rows' and
        // d's lengths, and 4k + j + 1 < 4·cols = panel.len() for k < cols
        // (j is 0 or 2).
        unsafe {
            let (mut za, mut zb) = (_mm_setzero_pd(), _mm_setzero_pd());
            for k in 0..i {
                let p = _mm_set_pd(*row2.get_unchecked(k), *row1.get_unchecked(k));
                let qq = _mm_mul_pd(p, _mm_set1_pd(*d.get_unchecked(k)));
                _mm_storel_pd(row1.as_mut_ptr().add(k), qq);
                _mm_storeh_pd(row2.as_mut_ptr().add(k), qq);
                if k < cols {
                    _mm_storeu_pd(panel.as_mut_ptr().add(4 * k + j), qq);
                }
                za = _mm_add_pd(za, _mm_mul_pd(p, _mm_unpacklo_pd(qq, qq)));
                zb = _mm_add_pd(zb, _mm_mul_pd(p, _mm_unpackhi_pd(qq, qq)));
            }
            let mut o = [0.0f64; 4];
            _mm_storeu_pd(o.as_mut_ptr(), za);
            _mm_storeu_pd(o.as_mut_ptr().add(2), zb);
            (z11, z21, z22) = (o[0], o[1], o[3]);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let (mut s11, mut s21, mut s22) = (0.0, 0.0, 0.0);
        for k in 0..i {
            let (p1, p2) = (row1[k], row2[k]);
            let (q1, q2) = (p1 * d[k], p2 * d[k]);
            row1[k] = q1;
            row2[k] = q2;
            if k < cols {
                panel[4 * k + j] = q1;
                panel[4 * k + j + 1] = q2;
            }
            s11 += p1 * q1;
            s21 += p2 * q1;
            s22 += p2 * q2;
        }
        (z11, z21, z22) = (s11, s21, s22);
    }
    let y11 = row1[i] - z11;
    let y21 = row2[i] - z21;
    let y22 = row2[i + 1] - z22;
    let dd = 1.0 / y11;
    d[i] = dd;
    let q2 = y21 * dd;
    row2[i] = q2;
    d[i + 1] = 1.0 / (y22 - y21 * q2);
}

/// Like `ldlt_solve_pair` for the single trailing row `i` (i even).
fn ldlt_solve_single(a: &mut [f64], i: usize, s: usize) {
    let (head, tail) = a.split_at_mut(i * s);
    let rb = &mut tail[..i + 1];
    for r in (0..i).step_by(2) {
        let l1 = &head[r * s..r * s + r];
        let l2 = &head[(r + 1) * s..(r + 1) * s + r + 1];
        let (mut z11, mut z21) = (0.0, 0.0);
        for ((&p1, &p2), &q1) in l1.iter().zip(&l2[..r]).zip(&rb[..r]) {
            z11 += p1 * q1;
            z21 += p2 * q1;
        }
        let p2 = l2[r];
        let y11 = rb[r] - z11;
        rb[r] = y11;
        rb[r + 1] = rb[r + 1] - z21 - p2 * y11;
    }
}

/// Scales the trailing row `i` (i even) by 1/D; the diagonal correction is
/// accumulated in two partial sums, over even and odd columns.
fn ldlt_scale_single(a: &mut [f64], d: &mut [f64], i: usize, s: usize) {
    let row = &mut a[i * s..i * s + i + 1];
    let (mut z_even, mut z_odd) = (0.0, 0.0);
    for (x, dd) in row[..i].chunks_exact_mut(2).zip(d[..i].chunks_exact(2)) {
        let (p1, p2) = (x[0], x[1]);
        let (q1, q2) = (p1 * dd[0], p2 * dd[1]);
        x[0] = q1;
        x[1] = q2;
        z_even += p1 * q1;
        z_odd += p2 * q2;
    }
    d[i] = 1.0 / (row[i] - (z_even + z_odd));
}

/// Solves L*x = b in place (L unit lower triangular, stride `s`).
///
/// ODE's order, which fixes the bits: rows go in blocks of four; a row's sum
/// over the rows above its block runs over k in increasing order from zero,
/// then the block's own terms are subtracted one by one. Rows left over at
/// the bottom are done singly, with the sum split into even and odd columns.
///
/// For speed two such blocks are done together (8 rows): the sums of all
/// eight rows share one pass over k < i, then the second block's rows carry
/// on over the first block's four columns (still increasing k, same
/// accumulator) before their own in-block terms. Every value sees the same
/// operations in the same order as with 4-row blocks; only independent rows
/// are interleaved, which hides the latency of the additions.
pub fn solve_l1(l: &[f64], b: &mut [f64], n: usize, s: usize) {
    solve_l1_lanes(Lanes::detect(), l, b, n, s);
}

/// `solve_l1` with the given vector width (tests run both).
fn solve_l1_lanes(lanes: Lanes, l: &[f64], b: &mut [f64], n: usize, s: usize) {
    solve_l1_from(lanes, l, b, 0, n, s);
}

/// `solve_l1` from row `i` on (a multiple of 4), rows before `i` done.
fn solve_l1_from(lanes: Lanes, l: &[f64], b: &mut [f64], mut i: usize, n: usize, s: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Lanes::Avx = lanes {
        while i + 16 <= n {
            // SAFETY: AVX was detected at run time.
            unsafe { solve_l1_block16_avx(l, b, i, s) };
            i += 16;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = lanes;
    #[cfg(target_arch = "x86_64")]
    while i + 8 <= n {
        solve_l1_block8(l, b, i, s);
        i += 8;
    }
    while i + 4 <= n {
        let (r1, r2, r3, r4) = (i * s, (i + 1) * s, (i + 2) * s, (i + 3) * s);
        let (mut z1, mut z2, mut z3, mut z4) = (0.0, 0.0, 0.0, 0.0);
        // Slices of exactly `i` elements let the compiler drop the bounds
        // checks; each z still sums over k in order (same bits).
        let (l1, l2, l3, l4) = (&l[r1..r1 + i], &l[r2..r2 + i], &l[r3..r3 + i], &l[r4..r4 + i]);
        for (k, &q) in b[..i].iter().enumerate() {
            z1 += l1[k] * q;
            z2 += l2[k] * q;
            z3 += l3[k] * q;
            z4 += l4[k] * q;
        }
        solve_l1_in_block(l, b, i, s, [z1, z2, z3, z4]);
        i += 4;
    }
    for row in i..n {
        if row == 0 {
            continue; // x0 = b0
        }
        finish_single_row(l, b, row, 0, s, [0.0, 0.0]);
    }
}

/// The in-block part of a 4-row block of `solve_l1` starting at row `i`,
/// given the rows' sums `z` over the columns before `i`.
#[inline(always)]
fn solve_l1_in_block(l: &[f64], b: &mut [f64], i: usize, s: usize, z: [f64; 4]) {
    let (r2, r3, r4) = ((i + 1) * s, (i + 2) * s, (i + 3) * s);
    let y1 = b[i] - z[0];
    b[i] = y1;
    let y2 = b[i + 1] - z[1] - l[r2 + i] * y1;
    b[i + 1] = y2;
    let y3 = b[i + 2] - z[2] - l[r3 + i] * y1 - l[r3 + i + 1] * y2;
    b[i + 2] = y3;
    let y4 = b[i + 3] - z[3] - l[r4 + i] * y1 - l[r4 + i + 1] * y2 - l[r4 + i + 2] * y3;
    b[i + 3] = y4;
}

/// Eight rows `i..i+8` of `solve_l1` (two of ODE's 4-row blocks). The shared
/// pass keeps rows (0,1), (2,3), (4,5), (6,7) in the two lanes of SSE2
/// registers (baseline x86-64); each lane adds its products one at a time,
/// k increasing, exactly as the scalar loop would. No fused multiply-add.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn solve_l1_block8(l: &[f64], b: &mut [f64], i: usize, s: usize) {
    use std::arch::x86_64::*;
    // The shared pass reads rows i..i+8 up to column i - 1.
    assert!(b.len() >= i + 8 && l.len() >= (i + 7) * s + i);
    let mut z = [0.0f64; 8];
    // SAFETY: SSE2 is in the x86-64 baseline. Reads are at row (i+t)*s,
    // column < i (+1 for the pairs: k + 1 < i), inside the bounds asserted
    // above; b is read below index i.
    unsafe {
        let lp = l.as_ptr();
        let bp = b.as_ptr();
        let rows: [*const f64; 8] = std::array::from_fn(|t| lp.add((i + t) * s));
        let mut acc = [_mm_setzero_pd(); 4];
        let mut k = 0;
        while k + 2 <= i {
            let q0 = _mm_set1_pd(*bp.add(k));
            let q1 = _mm_set1_pd(*bp.add(k + 1));
            for (p, a) in acc.iter_mut().enumerate() {
                let x = _mm_loadu_pd(rows[2 * p].add(k));
                let y = _mm_loadu_pd(rows[2 * p + 1].add(k));
                *a = _mm_add_pd(*a, _mm_mul_pd(_mm_unpacklo_pd(x, y), q0));
                *a = _mm_add_pd(*a, _mm_mul_pd(_mm_unpackhi_pd(x, y), q1));
            }
            k += 2;
        }
        if k < i {
            let q0 = _mm_set1_pd(*bp.add(k));
            for (p, a) in acc.iter_mut().enumerate() {
                let x = _mm_set_pd(*rows[2 * p + 1].add(k), *rows[2 * p].add(k));
                *a = _mm_add_pd(*a, _mm_mul_pd(x, q0));
            }
        }
        for (p, a) in acc.iter().enumerate() {
            _mm_storeu_pd(z.as_mut_ptr().add(2 * p), *a);
        }
    }
    solve_l1_in_block(l, b, i, s, [z[0], z[1], z[2], z[3]]);
    // Second block: continue its sums over the first block's columns.
    let mut z2 = [z[4], z[5], z[6], z[7]];
    for k in i..i + 4 {
        let q = b[k];
        for (t, zt) in z2.iter_mut().enumerate() {
            *zt += l[(i + 4 + t) * s + k] * q;
        }
    }
    solve_l1_in_block(l, b, i + 4, s, z2);
}

/// A copy of the rows of a unit lower triangle L that `solve_l1` reads in
/// its shared passes, in 4-row panels stored column by column (as
/// `factor_ldlt`'s): element (column k, row 4q + j) at `[q·4·cap + 4k + j]`,
/// only the 4q columns before the panel's first row. With it the 16-row
/// pass loads one column of four rows at once, without the transposes and
/// the sixteen row pointers (spilled) of `solve_l1_block16_avx`.
///
/// For the Dantzig LCP, whose L grows by rows and loses rows in the middle:
/// the copy is brought up to date lazily, from the first row changed since
/// (`invalidate_from`) up to the rows read. Used only where AVX is present.
///
/// The LCP's right-hand sides (a column of A) often start with a run of
/// +0: the rows coupled to none of the driving row's bodies. Their
/// solution is +0 too, and every product with them adds a ±0 to a sum that
/// is still +0, which leaves it +0, as long as the factor's entries are
/// finite (∞·0 is NaN). So the shared pass skips those columns of each
/// panel it knows to be finite (`finite`): the same bits, with less work.
#[derive(Default)]
pub struct L1Panels {
    buf: Vec<f64>,
    /// Where in `buf` the panels start (a 64-byte boundary).
    lead: usize,
    cap: usize,
    /// Rows `0..valid` of the copy equal L's.
    valid: usize,
    /// Per panel: its copy holds no infinity or NaN (meaningful for the
    /// panels of rows below `valid`).
    finite: Vec<bool>,
    avx: bool,
}

impl L1Panels {
    /// Starts over for triangles of at most `n` rows (no copy valid). Grown,
    /// never shrunk, so a warm solve does not allocate.
    pub fn reset(&mut self, n: usize) {
        self.avx = matches!(Lanes::detect(), Lanes::Avx);
        self.cap = n;
        self.valid = 0;
        let need = if self.avx { (n / 4 + 1) * 4 * n } else { 0 };
        self.lead = cache_aligned(&mut self.buf, need, 0.0).start;
        if self.finite.len() < n / 4 + 1 {
            self.finite.resize(n / 4 + 1, false);
        }
        // Panel 0 has no columns (rows 0..4 have none before them).
        self.finite[0] = true;
    }

    /// Rows `row..` of L are about to change (or have changed).
    #[inline]
    pub fn invalidate_from(&mut self, row: usize) {
        self.valid = self.valid.min(row);
    }

    /// `solve_l1(l, b, n, s)`, same bits, reading the 4-row blocks' shared
    /// passes from the copy (refreshed first where stale).
    pub fn solve_l1(&mut self, l: &[f64], b: &mut [f64], n: usize, s: usize) {
        self.solve_l1_from(l, b, 0, n, s);
    }

    /// `solve_l1` from row `start` on (a multiple of 4), rows before it
    /// already solved in `b`.
    pub fn solve_l1_from(&mut self, l: &[f64], b: &mut [f64], start: usize, n: usize, s: usize) {
        assert!(start.is_multiple_of(4));
        if start >= n {
            return;
        }
        // Rows start..end go in 4-row blocks through the panels (16 rows
        // at a time, then what is left), rows end..n one by one.
        let end = n & !3;
        if !self.avx {
            return solve_l1_from(Lanes::detect(), l, b, start, n, s);
        }
        #[cfg(target_arch = "x86_64")]
        if end == start {
            // Only the bottom rows: side by side rather than one by one.
            return solve_l1_bottom_rows(l, b, start, n, s);
        }
        assert!(n <= self.cap);
        let cap = self.cap;
        // Row r's columns before its panel: rows 0..4 have none. Whole
        // panels are copied four columns at a time (a 4×4 transpose), from
        // the panel of the first stale row: rewriting its valid rows costs
        // less than copying the stale ones one element at a time.
        let mut r = (self.valid & !3).max(4);
        while r < end {
            let (q, j) = (r / 4, r % 4);
            if j == 0 && r + 4 <= end {
                #[cfg(target_arch = "x86_64")]
                {
                    let dst = &mut self.buf[self.lead..][q * 4 * cap..q * 4 * cap + 16 * q];
                    // SAFETY: `avx` is set only where AVX was detected.
                    self.finite[q] = unsafe { transpose_panel_avx(l, r, s, 4 * q, dst) };
                    r += 4;
                    continue;
                }
            }
            let src = &l[r * s..r * s + 4 * q];
            let dst = &mut self.buf[self.lead..][q * 4 * cap..q * 4 * cap + 16 * q];
            for (k, &v) in src.iter().enumerate() {
                dst[4 * k + j] = v;
            }
            // Not known as a whole: never skipped.
            self.finite[q] = false;
            r += 1;
        }
        self.valid = self.valid.max(end);
        if cfg!(debug_assertions) {
            for r in 0..end {
                let (q, j) = (r / 4, r % 4);
                for k in 0..4 * q {
                    assert_eq!(self.buf[self.lead..][q * 4 * cap + 4 * k + j].to_bits(), l[r * s + k].to_bits(), "stale panel");
                }
            }
        }
        let mut i = start;
        // The leading +0 entries of b (rows above `start` are solved, and
        // a row's solution is +0 exactly where its right-hand side is and
        // all above it are).
        let zeros = b[..end].iter().position(|v| v.to_bits() != 0).unwrap_or(end);
        #[cfg(target_arch = "x86_64")]
        {
            // The lower a block, the more columns its pass reads: groups
            // are cut from the bottom, L1_GROUP blocks each, so that the
            // narrow group left over is the top one (its pass is shortest).
            let blocks = (end - start) / 4;
            let mut g = blocks % L1_GROUP;
            if g == 0 {
                g = L1_GROUP;
            }
            while i < end {
                let buf = &self.buf[self.lead..];
                let q0 = i / 4;
                let from = if zeros > 0 && self.finite[q0..q0 + g].iter().all(|&f| f) { zeros.min(i) } else { 0 };
                // SAFETY: `avx` is set only where AVX was detected; the
                // columns before `from` of these panels are finite and b is
                // +0 there.
                unsafe {
                    match g {
                        1 => solve_l1_blocks_panels_avx::<1>(l, buf, cap, b, i, from, s),
                        2 => solve_l1_blocks_panels_avx::<2>(l, buf, cap, b, i, from, s),
                        3 => solve_l1_blocks_panels_avx::<3>(l, buf, cap, b, i, from, s),
                        4 => solve_l1_blocks_panels_avx::<4>(l, buf, cap, b, i, from, s),
                        5 => solve_l1_blocks_panels_avx::<5>(l, buf, cap, b, i, from, s),
                        6 => solve_l1_blocks_panels_avx::<6>(l, buf, cap, b, i, from, s),
                        7 => solve_l1_blocks_panels_avx::<7>(l, buf, cap, b, i, from, s),
                        _ => solve_l1_blocks_panels_avx::<8>(l, buf, cap, b, i, from, s),
                    }
                }
                i += 4 * g;
                g = L1_GROUP;
            }
            solve_l1_bottom_rows(l, b, i, n, s);
        }
        #[cfg(not(target_arch = "x86_64"))]
        solve_l1_from(Lanes::Sse2, l, b, i, n, s);
    }
}

/// The rows `i..n` (fewer than 4, `i` a multiple of 4) that `solve_l1`
/// does one by one, each summing its even and odd columns apart: here the
/// rows share the pass over the columns before `i`, each row's (even, odd)
/// pair of sums in the two lanes of one SSE2 register (the same additions
/// per lane as the scalar loop's two sums; `i` is even, so the pairs
/// line up), and go on alone over the columns from `i`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn solve_l1_bottom_rows(l: &[f64], b: &mut [f64], i: usize, n: usize, s: usize) {
    use std::arch::x86_64::*;
    let rows = n - i;
    debug_assert!(rows < 4 && i.is_multiple_of(2));
    if rows == 0 {
        return;
    }
    assert!(b.len() >= n && l.len() >= (n - 1) * s + n - 1);
    let mut z = [[0.0f64; 2]; 3];
    // SAFETY: SSE2 is in the x86-64 baseline; row i+t (t < rows) is read
    // below column i, b below i, inside the lengths asserted above.
    unsafe {
        let mut acc = [_mm_setzero_pd(); 3];
        let bp = b.as_ptr();
        let mut k = 0;
        while k + 2 <= i {
            let q = _mm_loadu_pd(bp.add(k));
            for (t, a) in acc.iter_mut().enumerate().take(rows) {
                *a = _mm_add_pd(*a, _mm_mul_pd(_mm_loadu_pd(l.as_ptr().add((i + t) * s + k)), q));
            }
            k += 2;
        }
        for (t, a) in acc.iter().enumerate().take(rows) {
            _mm_storeu_pd(z[t].as_mut_ptr(), *a);
        }
    }
    for (t, [z_even, z_odd]) in z.into_iter().enumerate().take(rows) {
        let row = i + t;
        if row == 0 {
            continue; // x0 = b0
        }
        finish_single_row(l, b, row, i, s, [z_even, z_odd]);
    }
}

/// A row `solve_l1` does alone: its (even, odd) column sums `z`, taken
/// over the columns before `from` (even), carried on to the diagonal, then
/// subtracted.
#[inline(always)]
fn finish_single_row(l: &[f64], b: &mut [f64], row: usize, from: usize, s: usize, z: [f64; 2]) {
    let [mut z_even, mut z_odd] = z;
    let r = row * s;
    let mut k = from;
    while k + 1 < row {
        z_even += l[r + k] * b[k];
        z_odd += l[r + k + 1] * b[k + 1];
        k += 2;
    }
    if k < row {
        z_even += l[r + k] * b[k];
    }
    b[row] -= z_even + z_odd;
}

/// Rows `r..r+4` of L, columns `0..cols` (a multiple of 4), into a panel:
/// element (column k, row r + j) at `dst[4k + j]`. Returns whether all of
/// them are finite.
///
/// # Safety
/// The processor must have AVX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn transpose_panel_avx(l: &[f64], r: usize, s: usize, cols: usize, dst: &mut [f64]) -> bool {
    use std::arch::x86_64::*;
    assert!(cols.is_multiple_of(4) && dst.len() >= 4 * cols && l.len() >= (r + 3) * s + cols);
    // SAFETY: rows r..r+4 are read below column `cols`, `dst` written below
    // 4·cols, inside the lengths asserted above.
    unsafe {
        let src: [*const f64; 4] = std::array::from_fn(|t| l.as_ptr().add((r + t) * s));
        let out = dst.as_mut_ptr();
        // x − x is +0 for a finite x and NaN otherwise; the bits of all of
        // them ORed together are zero only if every x is finite.
        let mut odd = _mm256_setzero_pd();
        let mut k = 0;
        while k < cols {
            let (a0, a1) = (_mm256_loadu_pd(src[0].add(k)), _mm256_loadu_pd(src[1].add(k)));
            let (a2, a3) = (_mm256_loadu_pd(src[2].add(k)), _mm256_loadu_pd(src[3].add(k)));
            let (d0, d1) = (_mm256_sub_pd(a0, a0), _mm256_sub_pd(a1, a1));
            let (d2, d3) = (_mm256_sub_pd(a2, a2), _mm256_sub_pd(a3, a3));
            odd = _mm256_or_pd(odd, _mm256_or_pd(_mm256_or_pd(d0, d1), _mm256_or_pd(d2, d3)));
            let (u0, u1) = (_mm256_unpacklo_pd(a0, a1), _mm256_unpackhi_pd(a0, a1));
            let (u2, u3) = (_mm256_unpacklo_pd(a2, a3), _mm256_unpackhi_pd(a2, a3));
            _mm256_storeu_pd(out.add(4 * k), _mm256_permute2f128_pd::<0x20>(u0, u2));
            _mm256_storeu_pd(out.add(4 * k + 4), _mm256_permute2f128_pd::<0x20>(u1, u3));
            _mm256_storeu_pd(out.add(4 * k + 8), _mm256_permute2f128_pd::<0x31>(u0, u2));
            _mm256_storeu_pd(out.add(4 * k + 12), _mm256_permute2f128_pd::<0x31>(u1, u3));
            k += 4;
        }
        let odd = _mm256_castpd_si256(odd);
        _mm256_testz_si256(odd, odd) != 0
    }
}

/// How many 4-row blocks `L1Panels::solve_l1_from` groups into one pass:
/// each block's four rows are one register, so this many independent
/// chains of additions run side by side.
const L1_GROUP: usize = 8;

/// `G` 4-row blocks of `solve_l1` from row `i` (as `solve_l1_block16_avx`
/// for G = 4), with the shared pass read from `L1Panels`: one 4-wide
/// column load per block and column. Then block by block: the in-block
/// part, and the block's now final values carried into the later blocks'
/// sums (k still increasing). The carry into the very next block is the
/// chain from one block's last value to the next block's first, so it is
/// done on scalars; the blocks after it take theirs in their registers.
///
/// The pass starts at column `from` (≤ i): the caller knows that the
/// columns before it add nothing (see `L1Panels`).
///
/// # Safety
/// The processor must have AVX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
#[allow(clippy::too_many_arguments)] // the solve's operands and where it starts
unsafe fn solve_l1_blocks_panels_avx<const G: usize>(l: &[f64], panels: &[f64], cap: usize, b: &mut [f64], i: usize, from: usize, s: usize) {
    use std::arch::x86_64::*;
    let q0 = i / 4;
    let rows = 4 * G;
    assert!(G >= 1 && from <= i && i.is_multiple_of(4) && b.len() >= i + rows && l.len() > (i + rows - 1) * s + i + rows - 2);
    // Panel q0+g holds the 4·(q0+g) columns before its rows.
    assert!(panels.len() >= (q0 + G - 1) * 4 * cap + 4 * (i + rows - 4));
    // SAFETY: panel q0+g (g < G) is read below column 4·(q0+g), inside the
    // length asserted above; b is read below i + 4G.
    unsafe {
        let p = panels.as_ptr().add(q0 * 4 * cap);
        let pstride = 4 * cap;
        let mut acc = [_mm256_setzero_pd(); G];
        let bp = b.as_ptr();
        for k in from..i {
            let q = _mm256_set1_pd(*bp.add(k));
            for (g, a) in acc.iter_mut().enumerate() {
                *a = _mm256_add_pd(*a, _mm256_mul_pd(_mm256_loadu_pd(p.add(g * pstride + 4 * k)), q));
            }
        }
        // The block above's four values, in row order.
        let mut above = [0.0f64; 4];
        for g in 0..G {
            let r0 = i + 4 * g;
            let mut z = [0.0f64; 4];
            _mm256_storeu_pd(z.as_mut_ptr(), acc[g]);
            if g > 0 {
                for (t, zt) in z.iter_mut().enumerate() {
                    let row = &l[(r0 + t) * s + r0 - 4..(r0 + t) * s + r0];
                    for (c, &y) in row.iter().zip(&above) {
                        *zt += c * y;
                    }
                }
            }
            solve_l1_in_block(l, b, r0, s, z);
            above = [b[r0], b[r0 + 1], b[r0 + 2], b[r0 + 3]];
            for k in r0..r0 + 4 {
                let q = _mm256_set1_pd(*b.as_ptr().add(k));
                for (h, a) in acc.iter_mut().enumerate().skip(g + 2) {
                    *a = _mm256_add_pd(*a, _mm256_mul_pd(_mm256_loadu_pd(p.add(h * pstride + 4 * k)), q));
                }
            }
        }
    }
}

/// The part of a 16-row block of `solve_l1` after the shared pass (`z`:
/// the rows' sums over the columns before `i`): block by block, the
/// in-block part, then the block's now final values carried into the later
/// blocks' sums (k still increasing).
#[inline(always)]
fn solve_l1_block16_tail(l: &[f64], b: &mut [f64], i: usize, s: usize, z: [f64; 16]) {
    solve_l1_blocks_tail::<4>(l, b, i, s, z);
}

/// `solve_l1_block16_tail` for `G` blocks (`z[..4G]` used).
#[inline(always)]
fn solve_l1_blocks_tail<const G: usize>(l: &[f64], b: &mut [f64], i: usize, s: usize, mut z: [f64; 16]) {
    for g in 0..G {
        let r0 = i + 4 * g;
        solve_l1_in_block(l, b, r0, s, [z[4 * g], z[4 * g + 1], z[4 * g + 2], z[4 * g + 3]]);
        for (t, zt) in z.iter_mut().enumerate().take(4 * G).skip(4 * g + 4) {
            let row = &l[(i + t) * s + r0..(i + t) * s + r0 + 4];
            for (c, &q) in row.iter().zip(&b[r0..r0 + 4]) {
                *zt += c * q;
            }
        }
    }
}

/// Sixteen rows `i..i+16` of `solve_l1` (four of ODE's 4-row blocks) on
/// 256-bit lanes: the shared pass over the columns before `i` keeps the
/// four rows of a block in the four lanes of one register (two columns of
/// four rows loaded, then transposed in-lane), so four independent chains
/// of additions hide the adder's latency that bounds the 8-row pass. Each
/// lane adds its products one at a time, k increasing, as the scalar loop
/// would; no fused multiply-add. Then block by block: the in-block part,
/// and the block's now final values carried into the later blocks' sums
/// (k still increasing).
///
/// # Safety
/// The processor must have AVX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn solve_l1_block16_avx(l: &[f64], b: &mut [f64], i: usize, s: usize) {
    use std::arch::x86_64::*;
    // Row i+15 is read up to column i+14.
    assert!(b.len() >= i + 16 && l.len() > (i + 15) * s + i + 14);
    let mut z = [0.0f64; 16];
    // SAFETY: reads are at row (i+t)*s, t < 16, column < i (k + 1 < i for
    // the pairs), inside the bounds asserted above; b is read below i.
    unsafe {
        let lp = l.as_ptr();
        let bp = b.as_ptr();
        let rows: [*const f64; 16] = std::array::from_fn(|t| lp.add((i + t) * s));
        let mut acc = [_mm256_setzero_pd(); 4];
        let mut k = 0;
        while k + 2 <= i {
            let q0 = _mm256_set1_pd(*bp.add(k));
            let q1 = _mm256_set1_pd(*bp.add(k + 1));
            for (g, a) in acc.iter_mut().enumerate() {
                let r = &rows[4 * g..4 * g + 4];
                // [r0 k, r0 k+1, r2 k, r2 k+1] and [r1 k, r1 k+1, r3 k, r3 k+1]
                let x = _mm256_insertf128_pd::<1>(_mm256_castpd128_pd256(_mm_loadu_pd(r[0].add(k))), _mm_loadu_pd(r[2].add(k)));
                let y = _mm256_insertf128_pd::<1>(_mm256_castpd128_pd256(_mm_loadu_pd(r[1].add(k))), _mm_loadu_pd(r[3].add(k)));
                *a = _mm256_add_pd(*a, _mm256_mul_pd(_mm256_unpacklo_pd(x, y), q0));
                *a = _mm256_add_pd(*a, _mm256_mul_pd(_mm256_unpackhi_pd(x, y), q1));
            }
            k += 2;
        }
        if k < i {
            let q0 = _mm256_set1_pd(*bp.add(k));
            for (g, a) in acc.iter_mut().enumerate() {
                let r = &rows[4 * g..4 * g + 4];
                let x = _mm256_set_pd(*r[3].add(k), *r[2].add(k), *r[1].add(k), *r[0].add(k));
                *a = _mm256_add_pd(*a, _mm256_mul_pd(x, q0));
            }
        }
        for (g, a) in acc.iter().enumerate() {
            _mm256_storeu_pd(z.as_mut_ptr().add(4 * g), *a);
        }
    }
    solve_l1_block16_tail(l, b, i, s, z);
}

/// Solves L'*x = b in place (L unit lower triangular, stride `s`).
///
/// ODE's order: upwards from the last row, first the `n % 4` bottom rows
/// alone, then blocks of four, each summing the contribution of the rows
/// below it first (row index decreasing) and then subtracting its own terms
/// one by one.
///
/// As in `solve_l1`, two blocks are done together where possible: both share
/// the pass over the rows below the pair, and the upper block then carries
/// on over the lower block's four rows. The four (or eight) columns a row
/// contributes to are contiguous, so SSE2 lanes take them directly. With
/// AVX, up to `L1T_GROUP` blocks share a pass, one register per block.
pub fn solve_l1t(l: &[f64], b: &mut [f64], n: usize, s: usize) {
    solve_l1t_lanes(Lanes::detect(), l, b, n, s);
}

/// `solve_l1t` with the given vector width (tests run both).
fn solve_l1t_lanes(lanes: Lanes, l: &[f64], b: &mut [f64], n: usize, s: usize) {
    if n == 0 {
        return;
    }
    let m = n % 4;
    if m >= 2 {
        let t = n - 1;
        let y1 = b[t];
        let y2 = b[t - 1] - l[t * s + t - 1] * y1;
        b[t - 1] = y2;
        if m > 2 {
            b[t - 2] = b[t - 2] - l[t * s + t - 2] * y1 - l[(t - 1) * s + t - 2] * y2;
        }
    }
    let mut done = m;
    #[cfg(target_arch = "x86_64")]
    if let Lanes::Avx = lanes {
        // The higher a block, the more rows below it its pass reads: the
        // groups are cut from the top, L1T_GROUP blocks each, so that the
        // narrow group left over is the bottom one (its pass is shortest).
        let blocks = (n - m) / 4;
        let mut first = blocks % L1T_GROUP;
        if first == 0 {
            first = L1T_GROUP;
        }
        let mut g = first.min(blocks);
        while g > 0 {
            let i0 = n - 1 - done;
            // SAFETY: AVX was detected at run time.
            unsafe {
                match g {
                    1 => solve_l1t_blocks_avx::<1>(l, b, i0, n, s),
                    2 => solve_l1t_blocks_avx::<2>(l, b, i0, n, s),
                    3 => solve_l1t_blocks_avx::<3>(l, b, i0, n, s),
                    4 => solve_l1t_blocks_avx::<4>(l, b, i0, n, s),
                    5 => solve_l1t_blocks_avx::<5>(l, b, i0, n, s),
                    6 => solve_l1t_blocks_avx::<6>(l, b, i0, n, s),
                    7 => solve_l1t_blocks_avx::<7>(l, b, i0, n, s),
                    _ => solve_l1t_blocks_avx::<8>(l, b, i0, n, s),
                }
            }
            done += 4 * g;
            g = L1T_GROUP.min((n - done) / 4);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = lanes;
    #[cfg(target_arch = "x86_64")]
    while done + 8 <= n {
        let i0 = n - 1 - done;
        let z = solve_l1t_sums::<4>(l, b, i0 - 7, i0 + 1, n, s);
        solve_l1t_in_block(l, b, i0, s, [z[7], z[6], z[5], z[4]]);
        // Upper block: carry on over the lower block's rows, downwards.
        let mut zu = [z[3], z[2], z[1], z[0]];
        for j in (i0 - 3..=i0).rev() {
            let q = b[j];
            let c = &l[j * s + i0 - 7..j * s + i0 - 3];
            zu[3] += c[0] * q;
            zu[2] += c[1] * q;
            zu[1] += c[2] * q;
            zu[0] += c[3] * q;
        }
        solve_l1t_in_block(l, b, i0 - 4, s, zu);
        done += 8;
    }
    while done < n {
        let i0 = n - 1 - done;
        #[cfg(target_arch = "x86_64")]
        let z = {
            let z = solve_l1t_sums::<2>(l, b, i0 - 3, i0 + 1, n, s);
            [z[3], z[2], z[1], z[0]]
        };
        #[cfg(not(target_arch = "x86_64"))]
        let z = {
            let (mut z1, mut z2, mut z3, mut z4) = (0.0, 0.0, 0.0, 0.0);
            for j in (i0 + 1..n).rev() {
                let q = b[j];
                // The four entries of row j in columns i0-3..=i0, checked once.
                let c = &l[j * s + i0 - 3..j * s + i0 + 1];
                z4 += c[0] * q;
                z3 += c[1] * q;
                z2 += c[2] * q;
                z1 += c[3] * q;
            }
            [z1, z2, z3, z4]
        };
        solve_l1t_in_block(l, b, i0, s, z);
        done += 4;
    }
}

/// How many 4-row blocks `solve_l1t` groups into one pass where AVX is
/// present: each block's four columns are one register, so this many
/// independent chains of additions run side by side (enough to cover the
/// adder's latency on both of its ports).
const L1T_GROUP: usize = 8;

/// `4·G` rows `i0+1-4G..=i0` of `solve_l1t` (G of ODE's 4-row blocks) on
/// 256-bit lanes: the pass over the rows below `i0` reads each row's `4·G`
/// columns as G registers, G independent chains of additions. Then block
/// by block from the bottom: the in-block part, and the block's now final
/// rows carried into the upper blocks' sums, row index still decreasing.
/// Each lane adds its products one at a time; no fused multiply-add.
///
/// # Safety
/// The processor must have AVX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn solve_l1t_blocks_avx<const G: usize>(l: &[f64], b: &mut [f64], i0: usize, n: usize, s: usize) {
    use std::arch::x86_64::*;
    assert!(G >= 1 && i0 + 1 >= 4 * G && i0 < n && b.len() >= n && l.len() > (n - 1) * s + i0);
    let c0 = i0 + 1 - 4 * G;
    let mut acc = [_mm256_setzero_pd(); G];
    // SAFETY: rows j < n (or j <= i0 below), columns c0..c0+4G <= j: inside
    // `l` (asserted); b is read below n.
    unsafe {
        let lp = l.as_ptr().add(c0);
        for j in (i0 + 1..n).rev() {
            let q = _mm256_set1_pd(*b.as_ptr().add(j));
            let row = lp.add(j * s);
            for (p, a) in acc.iter_mut().enumerate() {
                *a = _mm256_add_pd(*a, _mm256_mul_pd(_mm256_loadu_pd(row.add(4 * p)), q));
            }
        }
        // Block by block from the bottom. The block just below carries
        // into this one's sums last; that carry is the chain from one
        // block's last value to the next block's first, so it is done on
        // scalars (`below`: the block below's four values, bottom row
        // first) rather than through a register store and reload.
        let mut below = [0.0f64; 4];
        for g in (0..G).rev() {
            // acc[g]: columns c0+4g..c0+4g+4, the block whose bottom row is
            // c0+4g+3.
            let mut z = [0.0f64; 4];
            _mm256_storeu_pd(z.as_mut_ptr(), acc[g]);
            let bottom = c0 + 4 * g + 3;
            let mut z = [z[3], z[2], z[1], z[0]];
            if g + 1 < G {
                for (t, &y) in below.iter().enumerate() {
                    let row = &l[(bottom + 4 - t) * s + bottom - 3..(bottom + 4 - t) * s + bottom + 1];
                    z[0] += row[3] * y;
                    z[1] += row[2] * y;
                    z[2] += row[1] * y;
                    z[3] += row[0] * y;
                }
            }
            solve_l1t_in_block(l, b, bottom, s, z);
            below = [b[bottom], b[bottom - 1], b[bottom - 2], b[bottom - 3]];
            // Into the blocks above the one above (not the last block).
            if g >= 2 {
                for j in (bottom - 3..=bottom).rev() {
                    let q = _mm256_set1_pd(*b.as_ptr().add(j));
                    let row = lp.add(j * s);
                    for (p, a) in acc.iter_mut().enumerate().take(g - 1) {
                        *a = _mm256_add_pd(*a, _mm256_mul_pd(_mm256_loadu_pd(row.add(4 * p)), q));
                    }
                }
            }
        }
    }
}

/// For the columns `c0..c0 + 2*V`, the sums over rows j = n-1 down to `j0`
/// of l[j][c] * b[j], each in that order; lane pairs are SSE2 registers.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn solve_l1t_sums<const V: usize>(l: &[f64], b: &[f64], c0: usize, j0: usize, n: usize, s: usize) -> [f64; 8] {
    use std::arch::x86_64::*;
    assert!(V <= 4 && b.len() >= n && c0 + 2 * V <= j0 && (n == j0 || l.len() >= (n - 1) * s + c0 + 2 * V));
    let mut z = [0.0f64; 8];
    // SAFETY: SSE2 is in the x86-64 baseline; rows j0..n, columns
    // c0..c0+2V lie inside `l` (asserted), b is read below n.
    unsafe {
        let mut acc = [_mm_setzero_pd(); V];
        let lp = l.as_ptr().add(c0);
        for j in (j0..n).rev() {
            let q = _mm_set1_pd(*b.as_ptr().add(j));
            let row = lp.add(j * s);
            for (p, a) in acc.iter_mut().enumerate() {
                *a = _mm_add_pd(*a, _mm_mul_pd(_mm_loadu_pd(row.add(2 * p)), q));
            }
        }
        for (p, a) in acc.iter().enumerate() {
            _mm_storeu_pd(z.as_mut_ptr().add(2 * p), *a);
        }
    }
    z
}

/// The in-block part of a 4-row block of `solve_l1t` whose bottom row is
/// `i0`, given `z[t]` = the sum for row i0 - t over the rows below i0.
#[inline(always)]
fn solve_l1t_in_block(l: &[f64], b: &mut [f64], i0: usize, s: usize, z: [f64; 4]) {
    let (r0, r1, r2) = (i0 * s, (i0 - 1) * s, (i0 - 2) * s);
    let y1 = b[i0] - z[0];
    b[i0] = y1;
    let y2 = b[i0 - 1] - z[1] - l[r0 + i0 - 1] * y1;
    b[i0 - 1] = y2;
    let y3 = b[i0 - 2] - z[2] - l[r0 + i0 - 2] * y1 - l[r1 + i0 - 2] * y2;
    b[i0 - 2] = y3;
    let y4 = b[i0 - 3] - z[3] - l[r0 + i0 - 3] * y1 - l[r1 + i0 - 3] * y2 - l[r2 + i0 - 3] * y3;
    b[i0 - 3] = y4;
}

/// a[i] *= d[i] over `a`.
pub fn scale_vector(a: &mut [f64], d: &[f64]) {
    for (x, &y) in a.iter_mut().zip(d) {
        *x *= y;
    }
}

/// Solves L*D*L'*x = b in place, `d` holding 1/D.
pub fn solve_ldlt(l: &[f64], d: &[f64], b: &mut [f64], n: usize, s: usize) {
    solve_l1(l, b, n, s);
    scale_vector(&mut b[..n], &d[..n]);
    solve_l1t(l, b, n, s);
}

/// Updates the L*D*L' factors of an n×n matrix A (stride `s`) to those of
/// A + a*e0' + e0*a' (a symmetric change of the first row and column), as
/// two rank-one updates done together. As in ODE, `d[0]` is left as it was:
/// callers use this only to remove row 0 afterwards.
pub fn ldlt_add_tl(l: &mut [f64], d: &mut [f64], a: &[f64], n: usize, s: usize) {
    let (mut w1, mut w2) = (vec![0.0; n], vec![0.0; n]);
    ldlt_add_tl_with(l, d, a, n, s, &mut w1, &mut w2);
}

/// `ldlt_add_tl` with caller-provided scratch `w1`, `w2` (length ≥ n), for
/// the solver, which must not allocate per step.
pub fn ldlt_add_tl_with(l: &mut [f64], d: &mut [f64], a: &[f64], n: usize, s: usize, w1: &mut [f64], w2: &mut [f64]) {
    if n < 2 {
        return;
    }
    use std::f64::consts::FRAC_1_SQRT_2;
    for j in 1..n {
        let v = a[j] * FRAC_1_SQRT_2;
        w1[j] = v;
        w2[j] = v;
    }
    let w11 = (0.5 * a[0] + 1.0) * FRAC_1_SQRT_2;
    let w21 = (0.5 * a[0] - 1.0) * FRAC_1_SQRT_2;
    let mut alpha1 = 1.0;
    let mut alpha2 = 1.0;
    {
        let mut dee = d[0];
        let mut alphanew = alpha1 + (w11 * w11) * dee;
        dee /= alphanew;
        let gamma1 = w11 * dee;
        dee *= alpha1;
        alpha1 = alphanew;
        alphanew = alpha2 - (w21 * w21) * dee;
        alpha2 = alphanew;
        let k1 = 1.0 - w21 * gamma1;
        let k2 = w21 * gamma1 * w11 - w21;
        for p in 1..n {
            let wp = w1[p];
            let ell = l[p * s];
            w1[p] = wp - w11 * ell;
            w2[p] = k1 * wp + k2 * ell;
        }
    }
    for j in 1..n {
        let k1 = w1[j];
        let k2 = w2[j];
        let mut dee = d[j];
        let mut alphanew = alpha1 + (k1 * k1) * dee;
        dee /= alphanew;
        let gamma1 = k1 * dee;
        dee *= alpha1;
        alpha1 = alphanew;
        alphanew = alpha2 - (k2 * k2) * dee;
        dee /= alphanew;
        let gamma2 = k2 * dee;
        dee *= alpha2;
        d[j] = dee;
        alpha2 = alphanew;
        for p in j + 1..n {
            let idx = p * s + j;
            let mut ell = l[idx];
            let mut wp = w1[p] - k1 * ell;
            ell += gamma1 * wp;
            w1[p] = wp;
            wp = w2[p] - k2 * ell;
            ell -= gamma2 * wp;
            w2[p] = wp;
            l[idx] = ell;
        }
    }
}

/// Removes row and column `r` from the L*D*L' factors (`l` with stride `s`,
/// `d` = 1/D) of the n2×n2 matrix A, leaving the factors of the reduced
/// (n2-1)×(n2-1) matrix in the top-left corner.
///
/// `acol[i]` must hold A(r+i, r) for i in 0..n2-r (for ODE's dLDLTRemove:
/// the lower-triangle element of the original matrix at rows p[r+i], p[r]).
/// Removing the last row changes nothing, as in ODE.
pub fn ldlt_remove(acol: &[f64], l: &mut [f64], d: &mut [f64], n2: usize, r: usize, s: usize) {
    if r + 1 >= n2 {
        return;
    }
    let m = n2 - r;
    let mut a = vec![0.0; m];
    if r == 0 {
        for (x, &v) in a.iter_mut().zip(acol) {
            *x = -v;
        }
        a[0] += 1.0;
        ldlt_add_tl(l, d, &a, n2, s);
    } else {
        let t: Vec<f64> = (0..r).map(|i| l[r * s + i] / d[i]).collect();
        for i in 0..m {
            let row = (r + i) * s;
            a[i] = dot(&l[row..row + r], &t) - acol[i];
        }
        a[0] += 1.0;
        ldlt_add_tl(&mut l[r * s + r..], &mut d[r..], &a, m, s);
    }
    remove_row_col(l, n2, s, r);
    d.copy_within(r + 1..n2, r);
}

/// `ldlt_remove` reading A through a lower-triangle accessor and ODE's
/// permutation `p` (A(i,j) is read as `a(max, min)`).
pub fn ldlt_remove_permuted(
    a: impl Fn(usize, usize) -> f64,
    p: &[usize],
    l: &mut [f64],
    d: &mut [f64],
    n2: usize,
    r: usize,
    s: usize,
) {
    if r + 1 >= n2 {
        return;
    }
    let pr = p[r];
    let acol: Vec<f64> = p[r..n2].iter().map(|&pi| if pi > pr { a(pi, pr) } else { a(pr, pi) }).collect();
    ldlt_remove(&acol, l, d, n2, r, s);
}

/// Removes row and column `r` of the n×n matrix `a` (stride `s`), moving the
/// later rows up and columns left. Removing the last one changes nothing.
pub fn remove_row_col(a: &mut [f64], n: usize, s: usize, r: usize) {
    if r + 1 >= n {
        return;
    }
    if r > 0 {
        for i in 0..r {
            let row = i * s;
            a.copy_within(row + r + 1..row + n, row + r);
        }
        for i in r..n - 1 {
            a.copy_within((i + 1) * s..(i + 1) * s + r, i * s);
        }
    }
    for i in r..n - 1 {
        let src = (i + 1) * s + r + 1;
        a.copy_within(src..src + (n - r - 1), i * s + r);
    }
}

/// `remove_row_col` for a matrix of which only the lower triangle (with the
/// diagonal) is ever read, such as the Dantzig solver's L factor: the same
/// lower triangle afterwards, without moving the upper part (most of the
/// copying).
pub fn remove_row_col_lower(a: &mut [f64], n: usize, s: usize, r: usize) {
    if r + 1 >= n {
        return;
    }
    assert!(s >= n && a.len() >= (n - 1) * s + n);
    for i in r..n - 1 {
        // Row i+1 becomes row i: its columns before r stay, r+1..=i+1
        // move left by one.
        let (dst, src) = a.split_at_mut((i + 1) * s);
        let (dst, src) = (&mut dst[i * s..i * s + i + 1], &src[..i + 2]);
        dst[..r].copy_from_slice(&src[..r]);
        dst[r..].copy_from_slice(&src[r + 1..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cache_aligned` gives room for n doubles from a 64-byte boundary,
    /// whatever the vector held and however it grows.
    #[test]
    fn cache_aligned_room_starts_on_a_line() {
        let mut v = Vec::new();
        for n in [0usize, 1, 3, 64, 1000, 40_000, 17, 300_000] {
            let r = cache_aligned(&mut v, n, 0.5);
            assert_eq!(r.len(), n);
            assert!(r.end <= v.len());
            assert_eq!(v[r.clone()].as_ptr() as usize % 64, 0, "n = {n}");
        }
    }

    #[test]
    fn remove_row_col_lower_keeps_the_lower_triangle_of_remove_row_col() {
        for n in 1..=12 {
            for r in 0..n {
                for s in [n, n + 3] {
                    let mut a: Vec<f64> = (0..n * s).map(|x| x as f64 * 0.5 - 7.0).collect();
                    let mut b = a.clone();
                    remove_row_col(&mut a, n, s, r);
                    remove_row_col_lower(&mut b, n, s, r);
                    for i in 0..n {
                        for j in 0..=i {
                            assert_eq!(a[i * s + j].to_bits(), b[i * s + j].to_bits(), "n={n} r={r} s={s} ({i},{j})");
                        }
                    }
                }
            }
        }
    }

    /// The 4-row-block kernels as they were before the 8-row blocks: the
    /// reference the faster kernels must reproduce bit for bit.
    fn solve_l1_ref(l: &[f64], b: &mut [f64], n: usize, s: usize) {
        let mut i = 0;
        while i + 4 <= n {
            let (r1, r2, r3, r4) = (i * s, (i + 1) * s, (i + 2) * s, (i + 3) * s);
            let (mut z1, mut z2, mut z3, mut z4) = (0.0, 0.0, 0.0, 0.0);
            for k in 0..i {
                z1 += l[r1 + k] * b[k];
                z2 += l[r2 + k] * b[k];
                z3 += l[r3 + k] * b[k];
                z4 += l[r4 + k] * b[k];
            }
            let y1 = b[i] - z1;
            b[i] = y1;
            let y2 = b[i + 1] - z2 - l[r2 + i] * y1;
            b[i + 1] = y2;
            let y3 = b[i + 2] - z3 - l[r3 + i] * y1 - l[r3 + i + 1] * y2;
            b[i + 2] = y3;
            let y4 = b[i + 3] - z4 - l[r4 + i] * y1 - l[r4 + i + 1] * y2 - l[r4 + i + 2] * y3;
            b[i + 3] = y4;
            i += 4;
        }
        for row in i..n {
            if row == 0 {
                continue;
            }
            let r = row * s;
            let (mut z_even, mut z_odd) = (0.0, 0.0);
            let mut k = 0;
            while k + 1 < row {
                z_even += l[r + k] * b[k];
                z_odd += l[r + k + 1] * b[k + 1];
                k += 2;
            }
            if k < row {
                z_even += l[r + k] * b[k];
            }
            b[row] -= z_even + z_odd;
        }
    }

    fn solve_l1t_ref(l: &[f64], b: &mut [f64], n: usize, s: usize) {
        if n == 0 {
            return;
        }
        let m = n % 4;
        if m >= 2 {
            let t = n - 1;
            let y1 = b[t];
            let y2 = b[t - 1] - l[t * s + t - 1] * y1;
            b[t - 1] = y2;
            if m > 2 {
                b[t - 2] = b[t - 2] - l[t * s + t - 2] * y1 - l[(t - 1) * s + t - 2] * y2;
            }
        }
        let mut done = m;
        while done < n {
            let i0 = n - 1 - done;
            let (mut z1, mut z2, mut z3, mut z4) = (0.0, 0.0, 0.0, 0.0);
            for j in (i0 + 1..n).rev() {
                let q = b[j];
                z4 += l[j * s + i0 - 3] * q;
                z3 += l[j * s + i0 - 2] * q;
                z2 += l[j * s + i0 - 1] * q;
                z1 += l[j * s + i0] * q;
            }
            let (r0, r1, r2) = (i0 * s, (i0 - 1) * s, (i0 - 2) * s);
            let y1 = b[i0] - z1;
            b[i0] = y1;
            let y2 = b[i0 - 1] - z2 - l[r0 + i0 - 1] * y1;
            b[i0 - 1] = y2;
            let y3 = b[i0 - 2] - z3 - l[r0 + i0 - 2] * y1 - l[r1 + i0 - 2] * y2;
            b[i0 - 2] = y3;
            let y4 = b[i0 - 3] - z4 - l[r0 + i0 - 3] * y1 - l[r1 + i0 - 3] * y2 - l[r2 + i0 - 3] * y3;
            b[i0 - 3] = y4;
            done += 4;
        }
    }

    /// Values with full mantissas and mixed signs and magnitudes, so any
    /// change in the order of operations shows in the last bits.
    fn fill(v: &mut [f64], seed: &mut u64) {
        for x in v {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            let u = (*seed >> 11) as f64 / (1u64 << 53) as f64;
            *x = (u - 0.5) * (1.0 + (*seed % 7) as f64);
        }
    }

    /// ldlt_scale_pair as scalar code, without panels.
    fn ldlt_scale_pair_ref(a: &mut [f64], d: &mut [f64], i: usize, s: usize) {
        let (row1, rest) = a[i * s..].split_at_mut(s);
        let row1 = &mut row1[..i + 1];
        let row2 = &mut rest[..i + 2];
        let (mut z11, mut z21, mut z22) = (0.0, 0.0, 0.0);
        for ((x1, x2), &dd) in row1[..i].iter_mut().zip(row2[..i].iter_mut()).zip(&d[..i]) {
            let (p1, p2) = (*x1, *x2);
            let (q1, q2) = (p1 * dd, p2 * dd);
            *x1 = q1;
            *x2 = q2;
            z11 += p1 * q1;
            z21 += p2 * q1;
            z22 += p2 * q2;
        }
        let y11 = row1[i] - z11;
        let y21 = row2[i] - z21;
        let y22 = row2[i + 1] - z22;
        let dd = 1.0 / y11;
        d[i] = dd;
        let q2 = y21 * dd;
        row2[i] = q2;
        d[i + 1] = 1.0 / (y22 - y21 * q2);
    }

    /// factor_ldlt as it was with one 2-row block at a time (scalar sums).
    fn factor_ldlt_ref(a: &mut [f64], d: &mut [f64], n: usize, s: usize) {
        let mut i = 0;
        while i + 1 < n {
            if i > 0 {
                for r in (0..i).step_by(2) {
                    let (mut z11, mut z12, mut z21, mut z22) = (0.0, 0.0, 0.0, 0.0);
                    for k in 0..r {
                        let (q1, q2) = (a[i * s + k], a[(i + 1) * s + k]);
                        z11 += a[r * s + k] * q1;
                        z12 += a[r * s + k] * q2;
                        z21 += a[(r + 1) * s + k] * q1;
                        z22 += a[(r + 1) * s + k] * q2;
                    }
                    let y11 = a[i * s + r] - z11;
                    let y12 = a[(i + 1) * s + r] - z12;
                    let p2 = a[(r + 1) * s + r];
                    a[i * s + r] = y11;
                    a[(i + 1) * s + r] = y12;
                    a[i * s + r + 1] = a[i * s + r + 1] - z21 - p2 * y11;
                    a[(i + 1) * s + r + 1] = a[(i + 1) * s + r + 1] - z22 - p2 * y12;
                }
                ldlt_scale_pair_ref(a, d, i, s);
            } else {
                let (y11, y21, y22) = (a[0], a[s], a[s + 1]);
                let dd = 1.0 / y11;
                d[0] = dd;
                let q2 = y21 * dd;
                a[s] = q2;
                d[1] = 1.0 / (y22 - y21 * q2);
            }
            i += 2;
        }
        if i < n {
            if i > 0 {
                ldlt_solve_single(a, i, s);
                ldlt_scale_single(a, d, i, s);
            } else {
                d[0] = 1.0 / a[0];
            }
        }
    }

    #[test]
    fn factor_ldlt_matches_the_2_row_kernel_bit_for_bit() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        // Small sizes one by one, then long ones (the two-pair path over
        // many panels, every remainder mod 4).
        for (n, s) in (0..=40).chain([61, 62, 63, 64, 129, 130]).flat_map(|n| [(n, pad(n).max(1)), (n, n + 3)]) {
            // A = M*M' + n*I: symmetric positive definite.
            let mut m = vec![0.0; n * n];
            fill(&mut m, &mut seed);
            // Exactly the span of the matrix (as the C API passes it), so
            // a kernel reading past its last row fails.
            let mut a = vec![0.0; span(n, n, s)];
            for r in 0..n {
                for c in 0..n {
                    let mut v = if r == c { n as f64 } else { 0.0 };
                    for k in 0..n {
                        v += m[r * n + k] * m[c * n + k];
                    }
                    a[r * s + c] = v;
                }
            }
            let (mut x, mut y) = (a.clone(), a.clone());
            let (mut dx, mut dy) = (vec![0.0; n + 1], vec![0.0; n + 1]);
            factor_ldlt(&mut x, &mut dx, n, s);
            factor_ldlt_ref(&mut y, &mut dy, n, s);
            let bits = |v: &[f64]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&x), bits(&y), "L n={n}");
            assert_eq!(bits(&dx), bits(&dy), "d n={n}");
        }
    }

    /// Every vector width this processor can run.
    fn all_lanes() -> Vec<Lanes> {
        let mut lanes = vec![Lanes::Sse2];
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx") {
            lanes.push(Lanes::Avx);
        }
        lanes
    }

    #[test]
    fn quad_dots_lanes_match_scalar_sums_bit_for_bit() {
        let mut seed = 0x0bad_cafe_1234_5678u64;
        let mut lanes = vec![Lanes::Sse2];
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx") {
            lanes.push(Lanes::Avx);
        }
        for n in 0..=37 {
            let mut v = vec![0.0; 6 * n];
            fill(&mut v, &mut seed);
            let (panel, q) = v.split_at(4 * n);
            let (q1, q2) = q.split_at(n);
            let mut z = [0.0f64; 8];
            for k in 0..n {
                for j in 0..4 {
                    z[2 * j] += panel[4 * k + j] * q1[k];
                    z[2 * j + 1] += panel[4 * k + j] * q2[k];
                }
            }
            for &l in &lanes {
                let (a, b) = quad_dots(l, panel, q1, q2);
                let got: Vec<u64> = a.iter().chain(&b).map(|x| x.to_bits()).collect();
                let want: Vec<u64> = z.iter().map(|x| x.to_bits()).collect();
                assert_eq!(got, want, "n={n}");
            }
        }
    }

    #[test]
    fn panel_dots_lanes_match_scalar_sums_bit_for_bit() {
        fn check<const Q: usize>(seed: &mut u64) {
            for n in 0..=37 {
                let mut v = vec![0.0; (4 + Q) * n];
                fill(&mut v, seed);
                let (panel, q) = v.split_at(4 * n);
                let qs: [&[f64]; Q] = std::array::from_fn(|j| &q[j * n..(j + 1) * n]);
                let mut want = [[0.0f64; 4]; Q];
                for (w, qv) in want.iter_mut().zip(&qs) {
                    for k in 0..n {
                        for j in 0..4 {
                            w[j] += panel[4 * k + j] * qv[k];
                        }
                    }
                }
                for l in all_lanes() {
                    let got = panel_dots::<Q>(l, panel, qs);
                    let bits = |x: &[[f64; 4]; Q]| x.iter().flatten().map(|v| v.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(&got), bits(&want), "Q={Q} n={n}");
                }
            }
        }
        let mut seed = 0x5eed_1234_abcd_0042u64;
        check::<4>(&mut seed);
        check::<8>(&mut seed);
    }

    #[test]
    fn dot4_matches_dot_bit_for_bit() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        for n in 0..=41 {
            let mut v = vec![0.0; 5 * n];
            fill(&mut v, &mut seed);
            // Some signed zeros and awkward values among them.
            for (k, x) in v.iter_mut().enumerate() {
                if k % 11 == 3 {
                    *x = -0.0;
                } else if k % 29 == 7 {
                    *x *= 1e300;
                }
            }
            let rows: [&[f64]; 4] = std::array::from_fn(|r| &v[r * n..(r + 1) * n]);
            let b = &v[4 * n..];
            if let Some(d) = dot4(rows, b) {
                for r in 0..4 {
                    assert_eq!(d[r].to_bits(), dot(rows[r], b).to_bits(), "n={n} row {r}");
                }
            }
        }
    }

    #[test]
    fn dot2_matches_dot_bit_for_bit() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for n in 0..=40 {
            let mut v = vec![0.0; 3 * n];
            fill(&mut v, &mut seed);
            let (a1, rest) = v.split_at(n);
            let (a2, b) = rest.split_at(n);
            let (x, y) = dot2(a1, a2, b);
            assert_eq!((x.to_bits(), y.to_bits()), (dot(a1, b).to_bits(), dot(a2, b).to_bits()), "n={n}");
        }
    }

    #[test]
    fn l1_panels_solve_matches_the_4_row_kernel_bit_for_bit_as_l_changes() {
        // As the LCP uses it: L grows by a row (written at the current
        // size, no invalidation), loses rows in the middle (rows r.. change,
        // invalidate_from(r)), and is solved at each size.
        let mut seed = 0x5851_f42d_4c95_7f2du64;
        let cap = 75;
        for s in [cap, pad(cap), cap + 5] {
            let mut l = vec![0.0; cap * s + 8];
            fill(&mut l, &mut seed);
            let mut panels = L1Panels::default();
            panels.reset(cap);
            let mut n = 0;
            for step in 0..200 {
                let mut r = [0.0; 1];
                fill(&mut r, &mut seed);
                let shrink = n > 0 && (r[0] < -1.0 || n == cap);
                if shrink {
                    // Remove a row: rows j.. change.
                    let j = ((r[0].abs() * 1e6) as usize) % n;
                    fill(&mut l[j * s..n * s], &mut seed);
                    panels.invalidate_from(j);
                    n -= 1;
                } else {
                    // Append row n (its columns before the diagonal).
                    fill(&mut l[n * s..n * s + n], &mut seed);
                    n += 1;
                }
                let mut b = vec![0.0; cap + 3];
                fill(&mut b, &mut seed);
                let start = ((step * 4) % (n + 4)).min(n) & !3;
                check_panels(&mut panels, &l, &b, n, s, start, &format!("step {step} n={n} s={s}"));
            }
        }
    }

    /// `L1Panels::solve_l1` of b against `solve_l1_ref`, and resumed at
    /// `start` (a block boundary) with the rows above it solved, as the
    /// LCP reuses a forward solve: the same bits.
    fn check_panels(panels: &mut L1Panels, l: &[f64], b: &[f64], n: usize, s: usize, start: usize, what: &str) {
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        let (mut x, mut y) = (b.to_vec(), b.to_vec());
        panels.solve_l1(l, &mut x, n, s);
        solve_l1_ref(l, &mut y, n, s);
        assert_eq!(bits(&x), bits(&y), "{what}");
        let mut z = b.to_vec();
        z[..start].copy_from_slice(&y[..start]);
        panels.solve_l1_from(l, &mut z, start, n, s);
        assert_eq!(bits(&z), bits(&y), "{what}, from {start}");
    }

    #[test]
    fn l1_panels_skip_of_leading_zeros_keeps_the_bits() {
        // Right-hand sides starting with a run of +0 (the LCP's columns of
        // A), with -0 and tiny values where the run ends, and factors with
        // an infinity or a NaN in the run's columns (where ∞·0 must still
        // give NaN, as ODE's full sums do).
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let cap = 90;
        let s = pad(cap);
        let mut panels = L1Panels::default();
        panels.reset(cap);
        for case in 0..600 {
            let n = 1 + case % cap;
            let mut l = vec![0.0; cap * s + 8];
            fill(&mut l, &mut seed);
            if case % 5 == 1 && n > 5 {
                let (r, c) = (n - 1, (case * 7) % (n - 1));
                l[r * s + c] = if case % 2 == 0 { f64::INFINITY } else { f64::NAN };
            }
            panels.invalidate_from(0);
            let mut b = vec![0.0; cap + 3];
            fill(&mut b, &mut seed);
            let zeros = (case * 13) % (n + 1);
            b[..zeros].fill(0.0);
            if zeros < n {
                b[zeros] = [-0.0, 1e-300, b[zeros], 0.0][case % 4];
            }
            let start = ((case * 4) % (n + 4)).min(n) & !3;
            check_panels(&mut panels, &l, &b, n, s, start, &format!("case {case} n={n} zeros={zeros}"));
        }
    }

    #[test]
    fn blocked_triangular_solves_match_the_4_row_kernels_bit_for_bit() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        // Past several groups of the widest kernels.
        for n in 0..=150 {
            for s in [n.max(1), pad(n).max(1), n + 5] {
                let mut l = vec![0.0; n * s + 8];
                fill(&mut l, &mut seed);
                let mut b = vec![0.0; n + 3];
                fill(&mut b, &mut seed);
                let (mut x, mut y) = (b.clone(), b.clone());
                solve_l1_ref(&l, &mut y, n, s);
                for &lanes in &all_lanes() {
                    let mut x = b.clone();
                    solve_l1_lanes(lanes, &l, &mut x, n, s);
                    assert_eq!(
                        x.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                        y.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                        "solve_l1 n={n} s={s}"
                    );
                }
                solve_l1(&l, &mut x, n, s);
                assert_eq!(x.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), y.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
                let (mut x, mut y) = (b.clone(), b.clone());
                solve_l1t_ref(&l, &mut y, n, s);
                for &lanes in &all_lanes() {
                    let mut x = b.clone();
                    solve_l1t_lanes(lanes, &l, &mut x, n, s);
                    assert_eq!(
                        x.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                        y.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                        "solve_l1t n={n} s={s}"
                    );
                }
                solve_l1t(&l, &mut x, n, s);
                assert_eq!(x.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), y.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
            }
        }
    }
}
