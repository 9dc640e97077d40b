//! Colliders against a plane (sphere, box, capsule) and the plane point
//! depth. Planes are world-space half-spaces `n·p <= d` (solid below), so
//! these functions take the plane without a pose; every contact normal is
//! the plane normal.

use super::box_shape::col_dot;
use super::sphere::push_one;
use crate::collision::contact::{Contact, ContactSink};
use crate::collision::shapes::{BoxShape, Capsule, Plane, Pose, Sphere};
use crate::math::vec::dot3;

/// Depth of a world point below a plane (`d - n·p`).
pub fn plane_point_depth(pl: &Plane, p: [f64; 3]) -> f64 {
    pl.d - pl.n[0] * p[0] - pl.n[1] * p[1] - pl.n[2] * p[2]
}

/// Contact of a sphere of radius `r` centred at `c` with the plane, if any:
/// at the sphere's lowest point, depth = how far the sphere reaches below.
fn sphere_below(c: &[f64], r: f64, pl: &Plane) -> Option<Contact> {
    let depth = pl.d - dot3(c, &pl.n) + r;
    if depth >= 0.0 {
        let n = pl.n;
        Some(Contact::new([c[0] - n[0] * r, c[1] - n[1] * r, c[2] - n[2] * r], n, depth))
    } else {
        None
    }
}

/// Sphere–plane: at most one contact.
pub fn collide_sphere_plane(a: &Sphere, pa: &Pose, b: &Plane, sink: &mut ContactSink) -> usize {
    if sink.max() == 0 {
        return 0;
    }
    push_one(sink, sphere_below(&pa.pos, a.radius, b))
}

/// Capsule–plane: the deeper end sphere first, then (if two or more
/// contacts are accepted and it touches too) the other end sphere.
pub fn collide_capsule_plane(a: &Capsule, pa: &Pose, b: &Plane, sink: &mut ContactSink) -> usize {
    if sink.max() == 0 {
        return 0;
    }
    let r = &pa.r;
    // The end whose axis direction points against the plane normal is lower.
    let sign = if col_dot(&b.n, r, 2) > 0.0 { -1.0 } else { 1.0 };
    let end = |s: f64| {
        [
            pa.pos[0] + r[2] * a.length * 0.5 * s,
            pa.pos[1] + r[6] * a.length * 0.5 * s,
            pa.pos[2] + r[10] * a.length * 0.5 * s,
        ]
    };
    // The second end is written as pos - R·len·0.5·sign, which rounds as
    // pos + R·len·0.5·(-sign): negation is exact.
    let Some(first) = sphere_below(&end(sign), a.radius, b) else { return 0 };
    let mut n = push_one(sink, Some(first));
    if sink.max() >= 2 {
        n += push_one(sink, sphere_below(&end(-sign), a.radius, b));
    }
    n
}

/// Box–plane: up to 4 contacts (ODE's scheme).
///
/// The deepest vertex comes first. The next two walk from it along the two
/// box edges whose projections on the normal are shortest, kept while they
/// still penetrate. With 4 contacts requested and those three found, the
/// vertex opposite the deepest one on that face is added if it penetrates.
pub fn collide_box_plane(a: &BoxShape, pa: &Pose, b: &Plane, sink: &mut ContactSink) -> usize {
    let maxc = sink.max().min(4);
    if maxc == 0 {
        return 0;
    }
    let r = &pa.r;
    let n = &b.n;
    let q = [col_dot(n, r, 0), col_dot(n, r, 1), col_dot(n, r, 2)];
    let proj = [a.sides[0] * q[0], a.sides[1] * q[1], a.sides[2] * q[2]];
    let bq = [proj[0].abs(), proj[1].abs(), proj[2].abs()];

    let depth = b.d + 0.5 * (bq[0] + bq[1] + bq[2]) - dot3(n, &pa.pos);
    if depth < 0.0 {
        return 0;
    }

    // Deepest vertex: step half a side against the normal on each axis.
    let mut p = [pa.pos[0], pa.pos[1], pa.pos[2]];
    for i in 0..3 {
        for (k, pk) in p.iter_mut().enumerate() {
            let step = 0.5 * a.sides[i] * r[4 * k + i];
            if proj[i] > 0.0 {
                *pk -= step;
            } else {
                *pk += step;
            }
        }
    }

    let mut found: [([f64; 3], f64); 4] = [([0.0; 3], 0.0); 4];
    found[0] = (p, depth);
    let mut ret = 1;

    if maxc > 1 {
        // Sides with the smallest projections, in ODE's order of choice.
        let (s1, s2) = if bq[0] < bq[1] {
            if bq[2] < bq[0] {
                (2, 0)
            } else {
                (0, if bq[1] < bq[2] { 1 } else { 2 })
            }
        } else if bq[2] < bq[1] {
            (2, if bq[0] < bq[1] { 0 } else { 1 })
        } else {
            (1, if bq[0] < bq[2] { 0 } else { 2 })
        };
        for (slot, s) in [(1usize, s1), (2, s2)] {
            if slot == 2 && maxc == 2 {
                break;
            }
            let d = depth - bq[s];
            if d < 0.0 {
                break;
            }
            let e = a.sides[s];
            let pos = if proj[s] > 0.0 {
                [p[0] + e * r[s], p[1] + e * r[4 + s], p[2] + e * r[8 + s]]
            } else {
                [p[0] - e * r[s], p[1] - e * r[4 + s], p[2] - e * r[8 + s]]
            };
            found[slot] = (pos, d);
            ret += 1;
        }
    }

    if maxc == 4 && ret == 3 {
        let d4 = found[1].1 + found[2].1 - depth;
        if d4 > 0.0 {
            let (c1, c2) = (found[1].0, found[2].0);
            found[3] = ([c1[0] + c2[0] - p[0], c1[1] + c2[1] - p[1], c1[2] + c2[2] - p[2]], d4);
            ret += 1;
        }
    }

    let mut written = 0;
    for &(pos, d) in &found[..ret] {
        if sink.push(Contact::new(pos, *n, d)) {
            written += 1;
        }
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::contact::dContactGeom;
    use crate::math::rotation::IDENTITY;

    #[test]
    fn resting_box_gives_four_corners() {
        let mut buf: [dContactGeom; 4] = unsafe { std::mem::zeroed() };
        let mut s = ContactSink::from_slice(&mut buf, 4);
        let pl = Plane { n: [0.0, 0.0, 1.0], d: 0.0 };
        let pose = Pose::new([0.0, 0.0, 0.4], IDENTITY);
        assert_eq!(collide_box_plane(&BoxShape { sides: [1.0, 2.0, 1.0] }, &pose, &pl, &mut s), 4);
        for c in &buf {
            assert!((c.depth - 0.1).abs() < 1e-15);
            assert!((c.pos[2] + 0.1).abs() < 1e-15);
            assert_eq!(c.normal[..3], [0.0, 0.0, 1.0]);
        }
    }

    #[test]
    fn capsule_lying_on_plane_gives_two_contacts() {
        let mut buf: [dContactGeom; 2] = unsafe { std::mem::zeroed() };
        let mut s = ContactSink::from_slice(&mut buf, 2);
        let pl = Plane { n: [0.0, 0.0, 1.0], d: 0.0 };
        // z axis of the capsule along world x.
        let r = [0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0];
        let pose = Pose::new([0.0, 0.0, 0.4], r);
        assert_eq!(collide_capsule_plane(&Capsule { radius: 0.5, length: 2.0 }, &pose, &pl, &mut s), 2);
        assert!((buf[0].depth - 0.1).abs() < 1e-15 && (buf[1].depth - 0.1).abs() < 1e-15);
        assert_eq!(plane_point_depth(&pl, [0.0, 0.0, -2.0]), 2.0);
    }
}
