//! 3x3 matrix helpers on ODE's padded 3x4 row-major layout. Every sum runs
//! over k = 0, 1, 2 from left to right, as ODE's helpers do, so results are
//! bit-identical to ODE's.

use super::vec::dot3;

/// A·v.
#[inline]
pub fn mul0_331(a: &[f64; 12], v: &[f64]) -> [f64; 3] {
    [dot3(&a[0..3], v), dot3(&a[4..7], v), dot3(&a[8..11], v)]
}

/// Aᵀ·v.
#[inline]
pub fn mul1_331(a: &[f64; 12], v: &[f64]) -> [f64; 3] {
    let col = |j: usize| a[j] * v[0] + a[4 + j] * v[1] + a[8 + j] * v[2];
    [col(0), col(1), col(2)]
}

/// A·B.
pub fn mul0_333(a: &[f64; 12], b: &[f64; 12]) -> [f64; 12] {
    let mut r = [0.0; 12];
    for i in 0..3 {
        for j in 0..3 {
            r[4 * i + j] = a[4 * i] * b[j] + a[4 * i + 1] * b[4 + j] + a[4 * i + 2] * b[8 + j];
        }
    }
    r
}

/// A·Bᵀ.
pub fn mul2_333(a: &[f64; 12], b: &[f64; 12]) -> [f64; 12] {
    let mut r = [0.0; 12];
    for i in 0..3 {
        for j in 0..3 {
            r[4 * i + j] = dot3(&a[4 * i..4 * i + 3], &b[4 * j..4 * j + 3]);
        }
    }
    r
}

/// R·T·Rᵀ: a body-frame tensor expressed in the world frame.
pub fn rotate_tensor(t: &[f64; 12], r: &[f64; 12]) -> [f64; 12] {
    mul0_333(r, &mul2_333(t, r))
}

/// Cross-product matrix of `v` ([v]ₓ·w = v × w), zero diagonal and padding.
pub fn cross_matrix(v: &[f64]) -> [f64; 12] {
    let mut m = [0.0; 12];
    m[1] = -v[2];
    m[2] = v[1];
    m[4] = v[2];
    m[6] = -v[0];
    m[8] = -v[1];
    m[9] = v[0];
    m
}

/// Closed-form inverse by cofactors; `None` when the determinant is 0.
pub fn invert3(m: &[f64; 12]) -> Option<[f64; 12]> {
    let det =
        m[0] * (m[5] * m[10] - m[9] * m[6]) - m[1] * (m[4] * m[10] - m[8] * m[6]) + m[2] * (m[4] * m[9] - m[8] * m[5]);
    if det == 0.0 {
        return None;
    }
    let d = 1.0 / det;
    let mut r = [0.0; 12];
    r[0] = (m[5] * m[10] - m[6] * m[9]) * d;
    r[1] = (m[9] * m[2] - m[1] * m[10]) * d;
    r[2] = (m[1] * m[6] - m[5] * m[2]) * d;
    r[4] = (m[6] * m[8] - m[4] * m[10]) * d;
    r[5] = (m[0] * m[10] - m[8] * m[2]) * d;
    r[6] = (m[4] * m[2] - m[0] * m[6]) * d;
    r[8] = (m[4] * m[9] - m[8] * m[5]) * d;
    r[9] = (m[8] * m[1] - m[0] * m[9]) * d;
    r[10] = (m[0] * m[5] - m[1] * m[4]) * d;
    Some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_and_inverse_agree() {
        let a = [2.0, 1.0, 0.5, 0.0, -1.0, 3.0, 0.25, 0.0, 0.0, 0.5, 4.0, 0.0];
        let inv = invert3(&a).unwrap();
        let id = mul0_333(&a, &inv);
        for i in 0..3 {
            for j in 0..3 {
                assert!((id[4 * i + j] - if i == j { 1.0 } else { 0.0 }).abs() < 1e-15);
            }
        }
        let v = [1.0, -2.0, 3.0];
        let at = [a[0], a[4], a[8], 0.0, a[1], a[5], a[9], 0.0, a[2], a[6], a[10], 0.0];
        assert_eq!(mul1_331(&a, &v), mul0_331(&at, &v));
        let c = mul0_331(&cross_matrix(&v), &[0.5, 0.25, -1.0]);
        assert_eq!(c, crate::math::vec::cross3(&v, &[0.5, 0.25, -1.0]));
        assert!(invert3(&[0.0; 12]).is_none());
    }

    /// Each product entry is ODE's sum `(a₀b₀ + a₁b₁) + a₂b₂` bit for bit
    /// (a vectorising rewrite must keep it), whatever the padding holds.
    #[test]
    fn products_keep_odes_sum_order() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 2e3 - 1e3
        };
        for _ in 0..2000 {
            let a: [f64; 12] = std::array::from_fn(|k| if k % 4 == 3 { f64::NAN } else { next() });
            let b: [f64; 12] = std::array::from_fn(|k| if k % 4 == 3 { next() } else { next() * 1e-3 });
            let (p0, p2) = (mul0_333(&a, &b), mul2_333(&a, &b));
            for i in 0..3 {
                for j in 0..3 {
                    let e0 = a[4 * i] * b[j] + a[4 * i + 1] * b[4 + j] + a[4 * i + 2] * b[8 + j];
                    let e2 = a[4 * i] * b[4 * j] + a[4 * i + 1] * b[4 * j + 1] + a[4 * i + 2] * b[4 * j + 2];
                    assert_eq!(p0[4 * i + j].to_bits(), e0.to_bits());
                    assert_eq!(p2[4 * i + j].to_bits(), e2.to_bits());
                }
                assert_eq!(p0[4 * i + 3], 0.0);
                assert_eq!(p2[4 * i + 3], 0.0);
            }
        }
    }
}
