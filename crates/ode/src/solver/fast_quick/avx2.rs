//! `sweep_block` with AVX2 and FMA intrinsics. The lanes' velocities are
//! gathered with 128-bit loads and in-lane unpacks (`gather`) and
//! scattered back the same way, instead of 24 scalar loads and inserts
//! (extracts and stores) per side. The arithmetic is the fused portable
//! sweep's (`sweep_block::<true>`), operation for operation (`clamp` as
//! `maxpd`/`minpd`), so the result equals it bit for bit.

use super::Block;
use core::arch::x86_64::*;
use glam::DVec4;

/// Component c of bodies `b[0..4]` in lanes 0..4 of element c. Each
/// register first takes a pair of components of lanes 0 and 2 (or 1
/// and 3) as two 128-bit loads, which the processor joins without its
/// shuffle unit; one in-lane unpack per component then finishes the
/// transpose (6 shuffles a side instead of 14: the block sweep with
/// fused multiply-adds is bound by its shuffles).
#[inline(always)]
unsafe fn gather(fc: *const [f64; 6], b: &[u32; 4]) -> [__m256d; 6] {
    let p = |l: usize| fc.add(b[l] as usize) as *const f64;
    let pair = |c: usize, l: usize| halves(p(l).add(c), p(l + 2).add(c));
    let mut v = [_mm256_setzero_pd(); 6];
    for c in [0, 2, 4] {
        // Lanes (0, 2) and (1, 3), components c and c + 1.
        let (even, odd) = (pair(c, 0), pair(c, 1));
        v[c] = _mm256_unpacklo_pd(even, odd);
        v[c + 1] = _mm256_unpackhi_pd(even, odd);
    }
    v
}

/// Two 128-bit loads, from `lo` into lanes 0-1 and from `hi` into
/// lanes 2-3 (joined without the shuffle unit).
#[inline(always)]
unsafe fn halves(lo: *const f64, hi: *const f64) -> __m256d {
    _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(lo)), _mm_loadu_pd(hi), 1)
}

#[inline(always)]
fn dvec(v: __m256d) -> DVec4 {
    // SAFETY: both are four f64.
    DVec4::from_array(unsafe { core::mem::transmute::<__m256d, [f64; 4]>(v) })
}

/// `gather` from a read-only array, as `DVec4`s (the fill's `tmp`).
///
/// # Safety
/// AVX2 is enabled; every `b[l]` indexes the array.
#[inline(always)]
pub(super) unsafe fn gather_rows(t: *const [f64; 6], b: [usize; 4]) -> [DVec4; 6] {
    gather(t, &b.map(|x| x as u32)).map(dvec)
}

/// The 3×3 parts of four padded 3×4 matrices (rows of four, the
/// fourth unused): element 3r + c holds entry (r, c) of the four.
///
/// # Safety
/// AVX2 is enabled.
#[inline(always)]
pub(super) unsafe fn gather_inertia(m: [&[f64; 12]; 4]) -> [DVec4; 9] {
    let p = |l: usize| m[l].as_ptr();
    let mut v = [DVec4::ZERO; 9];
    for r in 0..3 {
        let at = |l: usize, c: usize| p(l).add(4 * r + c);
        // Columns 0 and 1, then 2 (and the unused 3).
        let (even, odd) = (halves(at(0, 0), at(2, 0)), halves(at(1, 0), at(3, 0)));
        v[3 * r] = dvec(_mm256_unpacklo_pd(even, odd));
        v[3 * r + 1] = dvec(_mm256_unpackhi_pd(even, odd));
        let (even, odd) = (halves(at(0, 2), at(2, 2)), halves(at(1, 2), at(3, 2)));
        v[3 * r + 2] = dvec(_mm256_unpacklo_pd(even, odd));
    }
    v
}

/// The inverse of `gather` (the lanes' bodies are distinct, see
/// `sweep_block`, so the order of the stores does not matter).
#[inline(always)]
unsafe fn scatter(fc: *mut [f64; 6], b: &[u32; 4], v: &[__m256d; 6]) {
    let p = |l: usize| fc.add(b[l] as usize) as *mut f64;
    for c in [0, 2, 4] {
        let even = _mm256_unpacklo_pd(v[c], v[c + 1]);
        let odd = _mm256_unpackhi_pd(v[c], v[c + 1]);
        _mm_storeu_pd(p(0).add(c), _mm256_castpd256_pd128(even));
        _mm_storeu_pd(p(2).add(c), _mm256_extractf128_pd(even, 1));
        _mm_storeu_pd(p(1).add(c), _mm256_castpd256_pd128(odd));
        _mm_storeu_pd(p(3).add(c), _mm256_extractf128_pd(odd, 1));
    }
}

#[inline(always)]
unsafe fn ld(v: &DVec4) -> __m256d {
    _mm256_loadu_pd(v as *const DVec4 as *const f64)
}

/// `super::block_jv`.
#[inline(always)]
unsafe fn jv(bk: &Block, k: usize, dv: &[__m256d; 3], v1: &[__m256d; 6], v2: &[__m256d; 6]) -> __m256d {
    let d = &bk.d[k];
    let lin = _mm256_fmadd_pd(ld(&d[1]), dv[1], _mm256_mul_pd(ld(&d[0]), dv[0]));
    let mut s = _mm256_mul_pd(ld(&bk.ad[k]), _mm256_fmadd_pd(ld(&d[2]), dv[2], lin));
    for c in 0..3 {
        s = _mm256_fmadd_pd(ld(&bk.j1a[k][c]), v1[3 + c], s);
    }
    for c in 0..3 {
        s = _mm256_fmadd_pd(ld(&bk.j2a[k][c]), v2[3 + c], s);
    }
    s
}

/// `super::add_impulse` on the velocities of the block's bodies in
/// `fc` (the fill's warm start), gathered and scattered as the sweep
/// does: the same values as `gather_block`/`scatter_block`.
///
/// # Safety
/// AVX2 must be available; every body index of the block a valid
/// element of the array at `fc`.
#[target_feature(enable = "avx2,fma")]
#[inline]
pub unsafe fn add_impulse_block(bk: &Block, dl: &[DVec4; 3], fc: *mut [f64; 6]) {
    // SAFETY (transmutes): `__m256d` and `[f64; 4]` are 32 bytes of
    // four f64 lanes in order.
    let to = |v: [__m256d; 6]| v.map(|x| DVec4::from_array(core::mem::transmute::<__m256d, [f64; 4]>(x)));
    let from = |v: &[DVec4; 6]| v.map(|x| core::mem::transmute::<[f64; 4], __m256d>(x.to_array()));
    let mut v1 = to(gather(fc, &bk.b1));
    let mut v2 = to(gather(fc, &bk.b2));
    super::add_impulse::<true>(bk, dl, &mut v1, &mut v2);
    scatter(fc, &bk.b1, &from(&v1));
    scatter(fc, &bk.b2, &from(&v2));
}

/// `super::sweep_block` for the block whose 12 λ start at `lp`.
///
/// # Safety
/// AVX2 must be available; `lp..lp + 12` must be valid, and every body
/// index of the block a valid element of the array at `fc` (lanes'
/// dynamic bodies distinct, as the colouring makes them).
#[target_feature(enable = "avx2,fma")]
#[inline]
pub unsafe fn sweep_block(bk: &Block, lp: *mut f64, fc: *mut [f64; 6]) {
    let (add, sub, mul) = (|a, b| _mm256_add_pd(a, b), |a, b| _mm256_sub_pd(a, b), |a, b| _mm256_mul_pd(a, b));
    let fma = |a, b, c| _mm256_fmadd_pd(a, b, c);
    let mut v1 = gather(fc, &bk.b1);
    let mut v2 = gather(fc, &bk.b2);
    let dv = [sub(v1[0], v2[0]), sub(v1[1], v2[1]), sub(v1[2], v2[2])];
    let mut j = [0, 1, 2].map(|k| jv(bk, k, &dv, &v1, &v2));
    let old = [0, 1, 2].map(|k| _mm256_loadu_pd(lp.add(4 * k)));
    let sign = _mm256_set1_pd(-0.0);
    let normal = _mm256_andnot_pd(sign, old[0]);
    let mut dl = [_mm256_setzero_pd(); 3];
    for k in [1, 2, 0] {
        let (lo, hi) = if k == 0 {
            (ld(&bk.lo0), ld(&bk.hi0))
        } else {
            let f = mul(ld(&bk.fcoef[k - 1]), normal);
            (_mm256_xor_pd(f, sign), f)
        };
        let delta = sub(_mm256_fnmadd_pd(old[k], ld(&bk.cfm[k]), ld(&bk.rhs[k])), j[k]);
        let new = _mm256_min_pd(hi, _mm256_max_pd(lo, add(old[k], delta)));
        dl[k] = sub(new, old[k]);
        _mm256_storeu_pd(lp.add(4 * k), new);
        for (a, &(i, jj)) in bk.a.iter().zip(&super::COUPLED) {
            if jj == k {
                j[i] = fma(ld(a), dl[k], j[i]);
            }
        }
    }
    let (im1, im2) = (ld(&bk.im1), ld(&bk.im2));
    // `super::add_impulse`.
    let comb = |m: &[[DVec4; 3]; 3], c: usize, acc| fma(ld(&m[2][c]), dl[2], fma(ld(&m[1][c]), dl[1], acc));
    for c in 0..3 {
        let p = comb(&bk.d, c, mul(ld(&bk.d[0][c]), dl[0]));
        v1[c] = fma(im1, p, v1[c]);
        v2[c] = _mm256_fnmadd_pd(im2, p, v2[c]);
        v1[3 + c] = comb(&bk.m1a, c, fma(ld(&bk.m1a[0][c]), dl[0], v1[3 + c]));
        v2[3 + c] = comb(&bk.m2a, c, fma(ld(&bk.m2a[0][c]), dl[0], v2[3 + c]));
    }
    scatter(fc, &bk.b1, &v1);
    scatter(fc, &bk.b2, &v2);
}
