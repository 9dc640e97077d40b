//! Vector kernels of the fast solvers (fast mode only, so summation order
//! and fused multiply-adds are free to differ from ODE's): dot products,
//! y += s·v and the lower triangle of P −= s·z·zᵀ, on AVX2 with FMA where
//! the processor has them (chosen at run time), else portable code with
//! independent partial sums. Shared by the fast `dWorldStep` (`fast_step`,
//! its reduced LCP) and the sparse LDLᵀ.

/// Σ a·b with independent partial sums (fast mode only, so the summation
/// order need not match anything): AVX2 with fused multiply-adds where the
/// CPU has them, else four scalar partial sums.
#[inline]
pub(super) fn dot(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    #[cfg(target_arch = "x86_64")]
    if n >= 8 && simd::fma() {
        // SAFETY: the CPU has AVX2 and FMA (checked just above).
        return unsafe { simd::dot_fma(a, b) };
    }
    dot_scalar(a, b)
}

/// y += s·v over the shorter length (fast mode only: fused
/// multiply-adds where the CPU has AVX2/FMA).
#[inline]
pub(super) fn axpy(y: &mut [f64], s: f64, v: &[f64]) {
    let n = y.len().min(v.len());
    let (y, v) = (&mut y[..n], &v[..n]);
    #[cfg(target_arch = "x86_64")]
    if n >= 8 && simd::fma() {
        // SAFETY: the CPU has AVX2 and FMA (checked just above).
        unsafe { simd::axpy_fma(y, s, v) };
        return;
    }
    for (y, v) in y.iter_mut().zip(v) {
        *y += s * v;
    }
}

/// P −= s·z·zᵀ on P's lower triangle (row-major, row stride `stride`), z
/// zero-padded to whole groups of four (`z.len() % 4 == 0`, `z.len() ≤
/// stride`): row b takes −s·z_b·z over its first b + 1 entries rounded up
/// to a group of four, so that the AVX2 form needs no scalar tail (the
/// entries beyond the diagonal this also changes are never read).
pub(super) fn sub_outer_lower(p: &mut [f64], stride: usize, s: f64, z: &[f64]) {
    let n = z.len();
    assert!(n.is_multiple_of(4) && n <= stride && p.len() >= n.saturating_sub(1) * stride + n);
    #[cfg(target_arch = "x86_64")]
    if simd::fma() {
        // SAFETY: the CPU has AVX2 and FMA (checked just above); the
        // lengths were checked above.
        unsafe { simd::sub_outer_lower_fma(p, stride, s, z) };
        return;
    }
    sub_outer_lower_scalar(p, stride, s, z);
}

/// The portable form of `sub_outer_lower` (exact lengths, no padding
/// written).
fn sub_outer_lower_scalar(p: &mut [f64], stride: usize, s: f64, z: &[f64]) {
    for (b, &zb) in z.iter().enumerate() {
        if zb != 0.0 {
            let f = s * zb;
            for (pc, zc) in p[b * stride..b * stride + b + 1].iter_mut().zip(z) {
                *pc -= f * zc;
            }
        }
    }
}

#[inline]
fn dot_scalar(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0; 4];
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for j in 0..4 {
            acc[j] += x[j] * y[j];
        }
    }
    let mut s = (acc[0] + acc[2]) + (acc[1] + acc[3]);
    for (x, y) in ra.iter().zip(rb) {
        s += x * y;
    }
    s
}

/// AVX2/FMA kernels of the fast Step's dense products.
#[cfg(target_arch = "x86_64")]
pub(super) mod simd {
    use std::arch::x86_64::*;

    /// True when the CPU has AVX2 and FMA (the detection is cached by std).
    #[inline]
    pub fn fma() -> bool {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
    }

    /// Σ a·b over equal lengths, two 4-wide accumulators.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn dot_fma(a: &[f64], b: &[f64]) -> f64 {
        let n = a.len().min(b.len());
        let (pa, pb) = (a.as_ptr(), b.as_ptr());
        let mut s0 = _mm256_setzero_pd();
        let mut s1 = _mm256_setzero_pd();
        let mut i = 0;
        // SAFETY: every load reads i..i + 4 ≤ n of both slices.
        unsafe {
            while i + 8 <= n {
                s0 = _mm256_fmadd_pd(_mm256_loadu_pd(pa.add(i)), _mm256_loadu_pd(pb.add(i)), s0);
                s1 = _mm256_fmadd_pd(_mm256_loadu_pd(pa.add(i + 4)), _mm256_loadu_pd(pb.add(i + 4)), s1);
                i += 8;
            }
            if i + 4 <= n {
                s0 = _mm256_fmadd_pd(_mm256_loadu_pd(pa.add(i)), _mm256_loadu_pd(pb.add(i)), s0);
                i += 4;
            }
        }
        let s = _mm256_add_pd(s0, s1);
        let h = _mm_add_pd(_mm256_castpd256_pd128(s), _mm256_extractf128_pd(s, 1));
        let mut r = _mm_cvtsd_f64(_mm_add_sd(h, _mm_unpackhi_pd(h, h)));
        while i < n {
            r = a[i].mul_add(b[i], r);
            i += 1;
        }
        r
    }

    /// y += s·v over equal lengths.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn axpy_fma(y: &mut [f64], s: f64, v: &[f64]) {
        let n = y.len().min(v.len());
        let (py, pv) = (y.as_mut_ptr(), v.as_ptr());
        let vs = _mm256_set1_pd(s);
        let mut i = 0;
        // SAFETY: every access covers i..i + 4 ≤ n of both slices.
        unsafe {
            while i + 4 <= n {
                _mm256_storeu_pd(py.add(i), _mm256_fmadd_pd(vs, _mm256_loadu_pd(pv.add(i)), _mm256_loadu_pd(py.add(i))));
                i += 4;
            }
        }
        while i < n {
            y[i] = s.mul_add(v[i], y[i]);
            i += 1;
        }
    }

    /// `super::sub_outer_lower` (lengths checked by it).
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn sub_outer_lower_fma(p: &mut [f64], stride: usize, s: f64, z: &[f64]) {
        let pz = z.as_ptr();
        let pp = p.as_mut_ptr();
        for (b, &zb) in z.iter().enumerate() {
            if zb == 0.0 {
                continue;
            }
            let f = _mm256_set1_pd(-(s * zb));
            let len = (b + 4) & !3;
            let mut i = 0;
            // SAFETY: i + 4 ≤ len ≤ z.len() ≤ stride, and row b of p holds
            // z.len() entries (checked by the caller).
            unsafe {
                let row = pp.add(b * stride);
                while i < len {
                    _mm256_storeu_pd(row.add(i), _mm256_fmadd_pd(f, _mm256_loadu_pd(pz.add(i)), _mm256_loadu_pd(row.add(i))));
                    i += 4;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// The dispatched form (AVX2 where the CPU has it) and the portable one
    /// both give P − s·z·zᵀ on the lower triangle, checked entry by entry
    /// against the plain formula.
    #[test]
    fn sub_outer_lower_subtracts_the_scaled_outer_product() {
        let mut rng = Rng(7);
        for n in [4usize, 8, 12, 20] {
            let stride = n + 4;
            let z: Vec<f64> = (0..n).map(|i| if i % 3 == 1 { 0.0 } else { rng.signed() }).collect();
            let p0: Vec<f64> = (0..n * stride).map(|_| rng.signed()).collect();
            let s = 0.75;
            let mut p = p0.clone();
            sub_outer_lower(&mut p, stride, s, &z);
            let mut q = p0.clone();
            sub_outer_lower_scalar(&mut q, stride, s, &z);
            for b in 0..n {
                for c in 0..=b {
                    let want = p0[b * stride + c] - s * z[b] * z[c];
                    assert!((p[b * stride + c] - want).abs() <= 1e-15, "({b}, {c})");
                    assert!((q[b * stride + c] - want).abs() <= 1e-15, "scalar ({b}, {c})");
                }
            }
        }
    }
}
