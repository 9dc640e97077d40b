//! Box geometry shared by several colliders: the point-depth query, the
//! closest points between a segment and a box (capsule–box), and the small
//! column helpers on ODE's padded 3x4 rotation layout.
//!
//! Every sum is evaluated in the order ODE evaluates it, so results agree
//! with ODE to the last bit.

use crate::collision::shapes::{BoxShape, Pose};
use crate::math::mat3::{mul0_331, mul1_331};

/// `v · (column c of r)`, summed x, y, z.
#[inline]
pub(crate) fn col_dot(v: &[f64], r: &[f64; 12], c: usize) -> f64 {
    v[0] * r[c] + v[1] * r[4 + c] + v[2] * r[8 + c]
}

/// `(column ca of a) · (column cb of b)`.
#[inline]
pub(crate) fn col_col_dot(a: &[f64; 12], ca: usize, b: &[f64; 12], cb: usize) -> f64 {
    a[ca] * b[cb] + a[4 + ca] * b[4 + cb] + a[8 + ca] * b[8 + cb]
}

#[inline]
pub(crate) fn sub3(a: &[f64], b: &[f64]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// Depth of a world point in a box: positive inside (distance to the
/// nearest face), negative outside (minus the largest distance past a face
/// plane, which underestimates the true distance near edges and corners,
/// as ODE does).
pub fn box_point_depth(b: &BoxShape, pose: &Pose, p: [f64; 3]) -> f64 {
    let q = mul1_331(&pose.r, &sub3(&p, &pose.pos));
    let mut dist = [0.0; 6];
    let mut inside = true;
    for i in 0..3 {
        let h = b.sides[i] * 0.5;
        dist[i] = h - q[i];
        dist[i + 3] = h + q[i];
        if dist[i] < 0.0 || dist[i + 3] < 0.0 {
            inside = false;
        }
    }
    if inside {
        // ODE starts from (dReal)(unsigned)-1.
        let mut smallest = u32::MAX as f64;
        for d in dist {
            if d < smallest {
                smallest = d;
            }
        }
        smallest
    } else {
        let mut largest = 0.0;
        for d in dist {
            if d > largest {
                largest = d;
            }
        }
        -largest
    }
}

/// Closest points between segment `p1`–`p2` and a box (centre `c`,
/// rotation `r`, full side lengths `side`): returns (point on the segment,
/// point on or in the box).
///
/// The squared distance along the segment is piecewise quadratic; its
/// derivative is walked from t = 0 through the parameters where the line
/// crosses the box's face planes until it turns non-negative. The line is
/// first mirrored (in box frame) so that its direction is non-negative.
pub(crate) fn closest_segment_box_points(
    p1: &[f64; 3],
    p2: &[f64; 3],
    c: &[f64],
    r: &[f64; 12],
    side: &[f64; 3],
) -> ([f64; 3], [f64; 3]) {
    let mut s = mul1_331(r, &sub3(p1, c));
    let d = sub3(p2, p1);
    let mut v = mul1_331(r, &d);
    let mut sign = [0.0f64; 3];
    for i in 0..3 {
        if v[i] < 0.0 {
            s[i] = -s[i];
            v[i] = -v[i];
            sign[i] = -1.0;
        } else {
            sign[i] = 1.0;
        }
    }
    let v2 = [v[0] * v[0], v[1] * v[1], v[2] * v[2]];
    let h = [0.5 * side[0], 0.5 * side[1], 0.5 * side[2]];

    // region: -1/0/+1 = below/inside/above the slab of axis i; tanchor: the
    // next t where that changes (2 = never, for a direction ~0 on that axis;
    // the threshold only keeps v from being denormal).
    const TANCHOR_EPS: f64 = 1e-307;
    let mut region = [0i32; 3];
    let mut tanchor = [0.0f64; 3];
    for i in 0..3 {
        if v[i] > TANCHOR_EPS {
            if s[i] < -h[i] {
                region[i] = -1;
                tanchor[i] = (-h[i] - s[i]) / v[i];
            } else {
                region[i] = (s[i] > h[i]) as i32;
                tanchor[i] = (h[i] - s[i]) / v[i];
            }
        } else {
            region[i] = 0;
            tanchor[i] = 2.0;
        }
    }
    let w = |i: usize, region: &[i32; 3]| if region[i] != 0 { v2[i] } else { 0.0 };

    let mut t = 0.0;
    let mut dd2dt = 0.0;
    for i in 0..3 {
        dd2dt -= w(i, &region) * tanchor[i];
    }
    // Negated comparisons keep ODE's branch for NaN input.
    if !(dd2dt >= 0.0) {
        let mut found = false;
        loop {
            let mut next_t = 1.0;
            for &ta in &tanchor {
                if ta > t && ta < 1.0 && ta < next_t {
                    next_t = ta;
                }
            }
            let mut next_dd2dt = 0.0;
            for i in 0..3 {
                next_dd2dt += w(i, &region) * (next_t - tanchor[i]);
            }
            if next_dd2dt >= 0.0 {
                let m = (next_dd2dt - dd2dt) / (next_t - t);
                t -= dd2dt / m;
                found = true;
                break;
            }
            for i in 0..3 {
                if tanchor[i] == next_t {
                    tanchor[i] = (h[i] - s[i]) / v[i];
                    region[i] += 1;
                }
            }
            t = next_t;
            dd2dt = next_dd2dt;
            if !(t < 1.0) {
                break;
            }
        }
        if !found {
            t = 1.0;
        }
    }

    let lret = [p1[0] + t * d[0], p1[1] + t * d[1], p1[2] + t * d[2]];
    let mut q = [0.0; 3];
    for i in 0..3 {
        q[i] = sign[i] * (s[i] + t * v[i]);
        if q[i] < -h[i] {
            q[i] = -h[i];
        } else if q[i] > h[i] {
            q[i] = h[i];
        }
    }
    let w = mul0_331(r, &q);
    (lret, [w[0] + c[0], w[1] + c[1], w[2] + c[2]])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_depth_inside_and_outside() {
        let b = BoxShape { sides: [2.0, 4.0, 6.0] };
        let pose = Pose::new([1.0, 0.0, 0.0], crate::math::rotation::IDENTITY);
        assert_eq!(box_point_depth(&b, &pose, [1.0, 0.0, 0.0]), 1.0);
        assert_eq!(box_point_depth(&b, &pose, [1.0, 1.5, 0.0]), 0.5);
        // Outside: minus the largest face-plane distance (ODE's approximation).
        assert_eq!(box_point_depth(&b, &pose, [4.0, 0.0, 0.0]), -4.0);
    }

    #[test]
    fn segment_box_closest_points() {
        let id = crate::math::rotation::IDENTITY;
        // A segment parallel to x above the box: closest box point is on top.
        let (l, b) = closest_segment_box_points(&[-3.0, 0.0, 2.0], &[3.0, 0.0, 2.0], &[0.0; 3], &id, &[2.0, 2.0, 2.0]);
        assert_eq!(l[2], 2.0);
        assert_eq!(b[2], 1.0);
        assert!(l[0].abs() <= 1.0 && (l[0] - b[0]).abs() < 1e-15);
        // Segment crossing the box: the points coincide.
        let (l, b) = closest_segment_box_points(&[-3.0, 0.2, 0.1], &[3.0, 0.2, 0.1], &[0.0; 3], &id, &[2.0, 2.0, 2.0]);
        assert!((0..3).all(|i| (l[i] - b[i]).abs() < 1e-15));
    }
}
