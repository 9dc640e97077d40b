//! Vector kernels of the fast solvers (fast mode only, so summation order
//! and fused multiply-adds are free to differ from ODE's): dot products and
//! y += s·v, on AVX2 with FMA where the processor has them (chosen at run
//! time), else portable code with independent partial sums. Shared by the
//! fast `dWorldStep` (`fast_step`, its reduced LCP) and the sparse LDLᵀ.

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

    /// Σ a·z_q for four z of a's length at once (one load of a per four
    /// fused multiply-adds).
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn dot4_fma(a: &[f64], z: [&[f64]; 4]) -> [f64; 4] {
        let n = a.len();
        assert!(z.iter().all(|z| z.len() >= n));
        let pa = a.as_ptr();
        let pz = z.map(|z| z.as_ptr());
        let mut s = [_mm256_setzero_pd(); 4];
        let mut i = 0;
        // SAFETY: every load reads i..i + 4 ≤ n of a and of each z.
        unsafe {
            while i + 4 <= n {
                let va = _mm256_loadu_pd(pa.add(i));
                for q in 0..4 {
                    s[q] = _mm256_fmadd_pd(va, _mm256_loadu_pd(pz[q].add(i)), s[q]);
                }
                i += 4;
            }
        }
        // Horizontal sums of the four accumulators in one go.
        let t0 = _mm256_hadd_pd(s[0], s[1]);
        let t1 = _mm256_hadd_pd(s[2], s[3]);
        let lo = _mm256_permute2f128_pd(t0, t1, 0x20);
        let hi = _mm256_permute2f128_pd(t0, t1, 0x31);
        let mut out = [0.0; 4];
        // SAFETY: out holds four doubles.
        unsafe { _mm256_storeu_pd(out.as_mut_ptr(), _mm256_add_pd(lo, hi)) };
        while i < n {
            for q in 0..4 {
                out[q] = a[i].mul_add(z[q][i], out[q]);
            }
            i += 1;
        }
        out
    }
}
