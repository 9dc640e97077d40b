//! The level of a box in ODE's multi-resolution hash grid: the exponent
//! of its largest side, so that cells of size 2^level hold it. The hash
//! space files its members by it, and the sweep that finds pairs in the
//! hash space's order sorts by it.

/// Exponent e with q = m·2^e, m in [0.5, 1) (C's frexp; 0 for 0 and NaN).
fn frexp_exp(q: f64) -> i32 {
    if q == 0.0 || !q.is_finite() {
        return 0;
    }
    let bits = q.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i32;
    if e == 0 {
        // Subnormal: scale into the normal range first.
        return frexp_exp(q * 2f64.powi(64)) - 64;
    }
    e - 1022
}

/// Level of an AABB: i32::MAX for unbounded boxes (and sides that do not
/// fit a double), else the exponent of its largest side.
pub fn find_level(b: &[f64; 6]) -> i32 {
    let inf = f64::INFINITY;
    if b[0] <= -inf || b[1] >= inf || b[2] <= -inf || b[3] >= inf || b[4] <= -inf || b[5] >= inf {
        return i32::MAX;
    }
    let mut q = b[1] - b[0];
    let q2 = b[3] - b[2];
    if q2 > q {
        q = q2;
    }
    let q2 = b[5] - b[4];
    if q2 > q {
        q = q2;
    }
    if !q.is_finite() {
        // Sides too far apart for a double (or a NaN bound): ODE's frexp
        // would give level 0 and billions of cells; it is a big box.
        return i32::MAX;
    }
    frexp_exp(q)
}
