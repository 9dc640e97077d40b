//! Vector helpers exported by odemath.h: normalisation, plane space and
//! re-orthogonalisation of rotation matrices. The normalisations follow
//! ODE's overflow-safe scheme (divide by the largest component first), so
//! results agree with ODE to the last bit.

/// Normalises `a` in place; returns false (leaving `a` unchanged) for the
/// zero vector.
pub fn safe_normalize3(a: &mut [f64]) -> bool {
    let (x, y, z) = (a[0].abs(), a[1].abs(), a[2].abs());
    // Index of the component of largest magnitude (ties favour the lower one).
    let idx = if y > x {
        if z > y {
            2
        } else {
            1
        }
    } else if z > x {
        2
    } else if x > 0.0 {
        0
    } else {
        return false;
    };
    let (i, j) = match idx {
        0 => (1, 2),
        1 => (0, 2),
        _ => (0, 1),
    };
    let inv = 1.0 / a[idx].abs();
    let ai = a[i] * inv;
    let aj = a[j] * inv;
    let l = 1.0 / (1.0 + ai * ai + aj * aj).sqrt();
    a[i] = ai * l;
    a[j] = aj * l;
    a[idx] = l.copysign(a[idx]);
    true
}

/// Does ODE's 3-vector normalisation give a finite unit vector for `a`?
/// It fails only on the zero vector, and gives NaN when the largest
/// component is so small (below about 5.6e-309) that its reciprocal
/// overflows; anything else normalises, however small or large.
pub fn normalizable3(a: &[f64; 3]) -> bool {
    let mut v = *a;
    safe_normalize3(&mut v) && v.iter().all(|c| c.is_finite())
}

/// Normalises a 4-vector in place; false (unchanged) if it is zero.
pub fn safe_normalize4(a: &mut [f64]) -> bool {
    let l = a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3];
    if l > 0.0 {
        let k = 1.0 / l.sqrt();
        for v in a.iter_mut().take(4) {
            *v *= k;
        }
        true
    } else {
        false
    }
}

/// Normalises, falling back to (1,0,0) for the zero vector as ODE does.
pub fn normalize3(a: &mut [f64]) -> bool {
    if safe_normalize3(a) {
        true
    } else {
        a[0] = 1.0;
        a[1] = 0.0;
        a[2] = 0.0;
        false
    }
}

/// Normalises, falling back to (1,0,0,0) for the zero vector as ODE does.
pub fn normalize4(a: &mut [f64]) -> bool {
    if safe_normalize4(a) {
        true
    } else {
        a[0] = 1.0;
        a[1] = 0.0;
        a[2] = 0.0;
        a[3] = 0.0;
        false
    }
}

#[inline]
pub fn dot3(a: &[f64], b: &[f64]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

#[inline]
pub fn cross3(a: &[f64], b: &[f64]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// Two unit vectors `p`, `q` completing unit `n` to a right-handed basis.
pub fn plane_space(n: &[f64]) -> ([f64; 3], [f64; 3]) {
    if n[2].abs() > std::f64::consts::FRAC_1_SQRT_2 {
        // p in the y-z plane
        let a = n[1] * n[1] + n[2] * n[2];
        let k = 1.0 / a.sqrt();
        let p = [0.0, -n[2] * k, n[1] * k];
        (p, [a * k, -n[0] * p[2], n[0] * p[1]])
    } else {
        // p in the x-y plane
        let a = n[0] * n[0] + n[1] * n[1];
        let k = 1.0 / a.sqrt();
        let p = [-n[1] * k, n[0] * k, 0.0];
        (p, [-n[2] * p[1], n[2] * p[0], a * k])
    }
}

/// Re-orthogonalises a 3x4 rotation matrix by rows, as ODE's
/// `dOrthogonalizeR` does: row 0 is normalised, row 1 has its projection on
/// row 0 removed and is normalised, row 2 is rebuilt as row0 × row1 (so the
/// result is never a reflection). Returns false, leaving `m` unchanged, if
/// row 0 or the corrected row 1 is zero.
///
/// ODE 0.16.2 quirk, reproduced on purpose: when row 1 needed the
/// Gram–Schmidt correction, ODE uses the corrected row 1 only to build row 2
/// and leaves the stored row 1 as it was; only a row 1 that was already
/// orthogonal is normalised in place. `orthogonalize_r_fixed` gives the
/// mathematically complete version for internal use.
pub fn orthogonalize_r(m: &mut [f64; 12]) -> bool {
    orthogonalize_rows(m, false)
}

/// Like [`orthogonalize_r`] but always stores the corrected row 1, so the
/// result is orthonormal.
pub fn orthogonalize_r_fixed(m: &mut [f64; 12]) -> bool {
    orthogonalize_rows(m, true)
}

fn orthogonalize_rows(m: &mut [f64; 12], store_row1: bool) -> bool {
    if m[0] == 0.0 && m[1] == 0.0 && m[2] == 0.0 {
        return false;
    }
    let n0 = dot3(&m[0..3], &m[0..3]);
    let proj = dot3(&m[0..3], &m[4..7]);
    let corrected = proj != 0.0;
    let mut row1 = [m[4], m[5], m[6]];
    if corrected {
        let f = proj / n0;
        row1 = [m[4] - f * m[0], m[5] - f * m[1], m[6] - f * m[2]];
    }
    if row1 == [0.0; 3] {
        return false;
    }
    if n0 != 1.0 {
        safe_normalize3(&mut m[0..3]);
    }
    if dot3(&row1, &row1) != 1.0 {
        safe_normalize3(&mut row1);
    }
    if !corrected || store_row1 {
        m[4] = row1[0];
        m[5] = row1[1];
        m[6] = row1[2];
    }
    let r2 = cross3(&m[0..3], &row1);
    m[8] = r2[0];
    m[9] = r2[1];
    m[10] = r2[2];
    m[3] = 0.0;
    m[7] = 0.0;
    m[11] = 0.0;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_tiny_and_huge() {
        for s in [1e-300, 1.0, 1e300] {
            let mut a = [3.0 * s, -4.0 * s, 0.0];
            assert!(safe_normalize3(&mut a));
            assert!((a[0] - 0.6).abs() < 1e-15 && (a[1] + 0.8).abs() < 1e-15, "{a:?}");
        }
        let mut z = [0.0; 3];
        assert!(!safe_normalize3(&mut z));
        assert_eq!(z, [0.0; 3]);
        assert!(!normalize3(&mut z));
        assert_eq!(z, [1.0, 0.0, 0.0]);
    }

    #[test]
    fn plane_space_is_orthonormal() {
        for n in [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.6, 0.0, 0.8], [0.48, 0.6, 0.64]] {
            let (p, q) = plane_space(&n);
            assert!(dot3(&p, &n).abs() < 1e-15 && dot3(&q, &n).abs() < 1e-15 && dot3(&p, &q).abs() < 1e-15);
            let c = cross3(&p, &q);
            for i in 0..3 {
                assert!((c[i] - n[i]).abs() < 1e-15, "p x q must be n");
            }
        }
    }

    #[test]
    fn orthogonalize_repairs_drift() {
        let mut m = [1.0, 1e-3, 0.0, 0.0, -1e-3, 1.0, 2e-3, 0.0, 0.0, 0.0, 0.9, 0.0];
        assert!(orthogonalize_r_fixed(&mut m));
        for i in 0..3 {
            for j in 0..3 {
                let d = dot3(&m[4 * i..4 * i + 3], &m[4 * j..4 * j + 3]);
                assert!((d - if i == j { 1.0 } else { 0.0 }).abs() < 1e-14);
            }
        }
        // ODE's variant keeps the stored row 1 when it had to correct it,
        // but row 2 is still orthonormal to row 0.
        let mut o = [1.0, 1e-3, 0.0, 0.0, -1e-3, 1.0, 2e-3, 0.0, 0.0, 0.0, 0.9, 0.0];
        let row1 = [o[4], o[5], o[6]];
        assert!(orthogonalize_r(&mut o));
        assert!(dot3(&o[0..3], &o[8..11]).abs() < 1e-15);
        assert!((dot3(&o[8..11], &o[8..11]) - 1.0).abs() < 1e-14);
        let _ = row1;
    }
}
