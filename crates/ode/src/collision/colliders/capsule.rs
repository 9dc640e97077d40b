//! Capsule colliders (capsule–sphere, capsule–box, capsule–capsule), the
//! capsule point depth and the closest points between two segments
//! (exported as `dClosestLineSegmentPoints`). A capsule whose axis reaches
//! into a box is collided as a box (ODE 0.16's rule), giving up to 8
//! contacts.
//!
//! A capsule is a segment of the geom's z axis (half length `length/2`)
//! swollen by `radius`, so every pair reduces to closest points on the
//! axis followed by the sphere-pair kernel. ODE registers capsule–sphere
//! and capsule–box in that order; `collide_sphere_capsule` and
//! `collide_box_capsule` are the same results seen from the other geom
//! (normals negated, sides swapped), exactly what `dCollide` produces when
//! it swaps the arguments.

use super::box_box::box_box;
use super::box_shape::{closest_segment_box_points, sub3};
use super::sphere::{collide_spheres, push_one};
use crate::collision::contact::{Contact, ContactSink, CONTACTS_UNIMPORTANT, NUMC_MASK};
use crate::collision::shapes::{BoxShape, Capsule, Pose, Sphere};
use crate::math::vec::dot3;

/// The capsule axis (column 2 of R).
#[inline]
fn axis(p: &Pose) -> [f64; 3] {
    [p.r[2], p.r[6], p.r[10]]
}

/// Axis end points, (+z end, -z end).
fn ends(c: &Capsule, p: &Pose) -> ([f64; 3], [f64; 3]) {
    let h = c.length * 0.5;
    let ax = axis(p);
    (
        [p.pos[0] + ax[0] * h, p.pos[1] + ax[1] * h, p.pos[2] + ax[2] * h],
        [p.pos[0] - ax[0] * h, p.pos[1] - ax[1] * h, p.pos[2] - ax[2] * h],
    )
}

/// Depth of a world point in a capsule (radius minus distance to the axis
/// segment).
pub fn capsule_point_depth(c: &Capsule, pose: &Pose, p: [f64; 3]) -> f64 {
    let r = &pose.r;
    let a = sub3(&p, &pose.pos);
    let mut beta = a[0] * r[2] + a[1] * r[6] + a[2] * r[10];
    let h = c.length * 0.5;
    if beta < -h {
        beta = -h;
    } else if beta > h {
        beta = h;
    }
    let q = [pose.pos[0] + beta * r[2], pose.pos[1] + beta * r[6], pose.pos[2] + beta * r[10]];
    c.radius - ((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2])).sqrt()
}

/// Closest points between segments a1–a2 and b1–b2 (either may have zero
/// length). For parallel segments with many solutions, one involving an
/// end point is returned.
///
/// Vertex–vertex pairs are tried first, then vertex–edge, each accepted
/// when both points lie in each other's Voronoi regions; otherwise the
/// interior edge–edge solution applies.
pub fn closest_segment_points(a1: &[f64; 3], a2: &[f64; 3], b1: &[f64; 3], b2: &[f64; 3]) -> ([f64; 3], [f64; 3]) {
    let a1a2 = sub3(a2, a1);
    let b1b2 = sub3(b2, b1);
    let a1b1 = sub3(b1, a1);
    let da1 = dot3(&a1a2, &a1b1);
    let db1 = dot3(&b1b2, &a1b1);
    if da1 <= 0.0 && db1 >= 0.0 {
        return (*a1, *b1);
    }
    let a1b2 = sub3(b2, a1);
    let da2 = dot3(&a1a2, &a1b2);
    let db2 = dot3(&b1b2, &a1b2);
    if da2 <= 0.0 && db2 <= 0.0 {
        return (*a1, *b2);
    }
    let a2b1 = sub3(b1, a2);
    let da3 = dot3(&a1a2, &a2b1);
    let db3 = dot3(&b1b2, &a2b1);
    if da3 >= 0.0 && db3 >= 0.0 {
        return (*a2, *b1);
    }
    let a2b2 = sub3(b2, a2);
    let da4 = dot3(&a1a2, &a2b2);
    let db4 = dot3(&b1b2, &a2b2);
    if da4 >= 0.0 && db4 <= 0.0 {
        return (*a2, *b2);
    }

    // Zero-length segments never get here, so the divisions are safe.
    let along = |o: &[f64; 3], k: f64, d: &[f64; 3]| [o[0] + k * d[0], o[1] + k * d[1], o[2] + k * d[2]];
    let la = dot3(&a1a2, &a1a2);
    if da1 >= 0.0 && da3 <= 0.0 {
        let k = da1 / la;
        let n = [a1b1[0] - k * a1a2[0], a1b1[1] - k * a1a2[1], a1b1[2] - k * a1a2[2]];
        if dot3(&b1b2, &n) >= 0.0 {
            return (along(a1, k, &a1a2), *b1);
        }
    }
    if da2 >= 0.0 && da4 <= 0.0 {
        let k = da2 / la;
        let n = [a1b2[0] - k * a1a2[0], a1b2[1] - k * a1a2[1], a1b2[2] - k * a1a2[2]];
        if dot3(&b1b2, &n) <= 0.0 {
            return (along(a1, k, &a1a2), *b2);
        }
    }
    let lb = dot3(&b1b2, &b1b2);
    if db1 <= 0.0 && db2 >= 0.0 {
        let k = -db1 / lb;
        let n = [-a1b1[0] - k * b1b2[0], -a1b1[1] - k * b1b2[1], -a1b1[2] - k * b1b2[2]];
        if dot3(&a1a2, &n) >= 0.0 {
            return (*a1, along(b1, k, &b1b2));
        }
    }
    if db3 <= 0.0 && db4 >= 0.0 {
        let k = -db3 / lb;
        let n = [-a2b1[0] - k * b1b2[0], -a2b1[1] - k * b1b2[1], -a2b1[2] - k * b1b2[2]];
        if dot3(&a1a2, &n) <= 0.0 {
            return (*a2, along(b1, k, &b1b2));
        }
    }

    let k = dot3(&a1a2, &b1b2);
    let det = la * lb - k * k;
    if det <= 0.0 {
        // Only reachable through round-off.
        return (*a1, *b1);
    }
    let det = 1.0 / det;
    let alpha = (lb * da1 - k * db1) * det;
    let beta = (k * da1 - la * db1) * det;
    (along(a1, alpha, &a1a2), along(b1, beta, &b1b2))
}

/// Capsule–sphere: at most one contact.
pub fn collide_capsule_sphere(a: &Capsule, pa: &Pose, b: &Sphere, pb: &Pose, sink: &mut ContactSink) -> usize {
    if sink.max() == 0 {
        return 0;
    }
    let r = &pa.r;
    let mut alpha = r[2] * (pb.pos[0] - pa.pos[0]) + r[6] * (pb.pos[1] - pa.pos[1]) + r[10] * (pb.pos[2] - pa.pos[2]);
    let h = a.length * 0.5;
    if alpha > h {
        alpha = h;
    }
    if alpha < -h {
        alpha = -h;
    }
    let p = [pa.pos[0] + alpha * r[2], pa.pos[1] + alpha * r[6], pa.pos[2] + alpha * r[10]];
    push_one(sink, collide_spheres(&p, a.radius, &pb.pos, b.radius))
}

/// Capsule–box: at most one contact, between the capsule's end-sphere at
/// the axis point closest to the box and that box point.
pub fn collide_capsule_box(a: &Capsule, pa: &Pose, b: &BoxShape, pb: &Pose, sink: &mut ContactSink) -> usize {
    if sink.max() == 0 {
        return 0;
    }
    let (p1, p2) = ends(a, pa);
    let (pl, pbox) = closest_segment_box_points(&p1, &p2, &pb.pos, &pb.r, &b.sides);
    let gap = sub3(&pl, &pbox);
    if dot3(&gap, &gap).sqrt() < 1e-15 {
        // The axis reaches into the box, so the closest points give no
        // direction: treat the capsule as its bounding box (2r x 2r x
        // length + 2r) and use box–box, box first; its normal (box towards
        // capsule) is already the one this pair needs.
        return capsule_as_box(a, pa, b, pb, sink);
    }
    push_one(sink, collide_spheres(&pl, a.radius, &pbox, 0.0))
}

fn capsule_as_box(a: &Capsule, pa: &Pose, b: &BoxShape, pb: &Pose, sink: &mut ContactSink) -> usize {
    let d = a.radius * 2.0;
    let cap_sides = [d, d, a.length + d];
    let mut flags = sink.max().min(NUMC_MASK as usize) as i32;
    if sink.unimportant() {
        flags |= CONTACTS_UNIMPORTANT;
    }
    let c = [pb.pos[0], pb.pos[1], pb.pos[2]];
    let p = [pa.pos[0], pa.pos[1], pa.pos[2]];
    let res = box_box(&c, &pb.r, &b.sides, &p, &pa.r, &cap_sides, flags);
    let (Some((normal, _)), Some(_)) = (res.normal_depth, res.code) else { return 0 };
    let mut n = 0;
    for &(pos, depth) in &res.points {
        if sink.push(Contact::new(pos, normal, depth)) {
            n += 1;
        }
    }
    n
}

/// Capsule–capsule: up to two contacts.
///
/// Nearly parallel axes (1 - (a1·a2)² below 1e-5) whose projections
/// overlap give two contacts at the ends of the overlap when two are
/// accepted and both touch, otherwise one in its middle; all other cases
/// use the closest points of the two axis segments.
pub fn collide_capsule_capsule(a: &Capsule, pa: &Pose, b: &Capsule, pb: &Pose, sink: &mut ContactSink) -> usize {
    if sink.max() == 0 {
        return 0;
    }
    const TOLERANCE: f64 = 1e-5;
    let h1 = a.length * 0.5;
    let h2 = b.length * 0.5;
    let (pos1, pos2) = (&pa.pos, &pb.pos);
    let axis1 = axis(pa);
    let mut axis2 = axis(pb);

    let a1a2 = dot3(&axis1, &axis2);
    let det = 1.0 - a1a2 * a1a2;
    if det < TOLERANCE {
        if a1a2 < 0.0 {
            axis2 = [-axis2[0], -axis2[1], -axis2[2]];
        }
        // Overlap of the two segments in the first axis' parameter.
        let k = dot3(&axis1, &sub3(pos1, pos2));
        let (a2lo, a2hi) = (-h2 - k, h2 - k);
        let lo = if -h1 > a2lo { -h1 } else { a2lo };
        let hi = if h1 < a2hi { h1 } else { a2hi };
        if lo <= hi {
            let at = |s1: f64, s2: f64| {
                (
                    [pos1[0] + s1 * axis1[0], pos1[1] + s1 * axis1[1], pos1[2] + s1 * axis1[2]],
                    [pos2[0] + s2 * axis2[0], pos2[1] + s2 * axis2[1], pos2[2] + s2 * axis2[2]],
                )
            };
            if sink.max() >= 2 && lo < hi {
                let (c1, c2) = at(lo, lo + k);
                if let Some(first) = collide_spheres(&c1, a.radius, &c2, b.radius) {
                    let (d1, d2) = at(hi, hi + k);
                    if let Some(second) = collide_spheres(&d1, a.radius, &d2, b.radius) {
                        sink.push(first);
                        sink.push(second);
                        return 2;
                    }
                }
            }
            let alpha1 = (lo + hi) * 0.5;
            let (c1, c2) = at(alpha1, alpha1 + k);
            return push_one(sink, collide_spheres(&c1, a.radius, &c2, b.radius));
        }
    }

    // axis2 may have been flipped above (parallel axes whose projections
    // do not overlap); ODE builds b's end points from the flipped axis, which
    // swaps them and can change which end wins a tie.
    let (a1, a2) = ends(a, pa);
    let b1 = [pos2[0] + axis2[0] * h2, pos2[1] + axis2[1] * h2, pos2[2] + axis2[2] * h2];
    let b2 = [pos2[0] - axis2[0] * h2, pos2[1] - axis2[1] * h2, pos2[2] - axis2[2] * h2];
    let (s1, s2) = closest_segment_points(&a1, &a2, &b1, &b2);
    push_one(sink, collide_spheres(&s1, a.radius, &s2, b.radius))
}

/// A contact as seen from the other geom: normal negated, sides swapped
/// (what `dCollide` does when only the reverse pair is implemented).
fn reversed(sink: &mut ContactSink, from: usize, n: usize) {
    for i in from..from + n {
        let g = sink.get_mut(i);
        for k in 0..3 {
            g.normal[k] = -g.normal[k];
        }
        std::mem::swap(&mut g.side1, &mut g.side2);
    }
}

/// Sphere–capsule: `collide_capsule_sphere` with the roles swapped.
pub fn collide_sphere_capsule(a: &Sphere, pa: &Pose, b: &Capsule, pb: &Pose, sink: &mut ContactSink) -> usize {
    let from = sink.len();
    let n = collide_capsule_sphere(b, pb, a, pa, sink);
    reversed(sink, from, n);
    n
}

/// Box–capsule: `collide_capsule_box` with the roles swapped.
pub fn collide_box_capsule(a: &BoxShape, pa: &Pose, b: &Capsule, pb: &Pose, sink: &mut ContactSink) -> usize {
    let from = sink.len();
    let n = collide_capsule_box(b, pb, a, pa, sink);
    reversed(sink, from, n);
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::contact::dContactGeom;
    use crate::math::rotation::IDENTITY;

    #[test]
    fn segment_points_cover_each_feature_pair() {
        let z = [0.0; 3];
        // Crossing segments: interior points.
        let (p, q) = closest_segment_points(&[-1.0, 0.0, 0.0], &[1.0, 0.0, 0.0], &[0.0, -1.0, 1.0], &[0.0, 1.0, 1.0]);
        assert_eq!((p, q), (z, [0.0, 0.0, 1.0]));
        // End point to interior.
        let (p, q) = closest_segment_points(&[2.0, 0.0, 0.0], &[3.0, 0.0, 0.0], &[0.0, -1.0, 0.0], &[0.0, 1.0, 0.0]);
        assert_eq!((p, q), ([2.0, 0.0, 0.0], z));
        // Degenerate segments.
        let (p, q) = closest_segment_points(&z, &z, &[1.0, 1.0, 1.0], &[1.0, 1.0, 1.0]);
        assert_eq!((p, q), (z, [1.0, 1.0, 1.0]));
    }

    #[test]
    fn parallel_capsules_touch_at_two_points() {
        let mut buf: [dContactGeom; 2] = unsafe { std::mem::zeroed() };
        let mut s = ContactSink::from_slice(&mut buf, 2);
        let c = Capsule { radius: 0.5, length: 2.0 };
        let pb = Pose::new([0.9, 0.0, 0.5], IDENTITY);
        assert_eq!(collide_capsule_capsule(&c, &Pose::IDENTITY, &c, &pb, &mut s), 2);
        assert_eq!(buf[0].normal[..3], [-1.0, 0.0, 0.0]);
        assert!((buf[0].depth - 0.1).abs() < 1e-15);
        assert_eq!(buf[0].pos[2], -0.5);
        assert_eq!(buf[1].pos[2], 1.0);
    }

    #[test]
    fn swapped_pairs_negate_the_normal() {
        let mut buf: [dContactGeom; 1] = unsafe { std::mem::zeroed() };
        let mut s = ContactSink::from_slice(&mut buf, 1);
        let pb = Pose::new([0.0, 0.0, 1.2], IDENTITY);
        let n = collide_sphere_capsule(
            &Sphere { radius: 0.5 },
            &Pose::IDENTITY,
            &Capsule { radius: 0.5, length: 1.0 },
            &pb,
            &mut s,
        );
        assert_eq!(n, 1);
        assert_eq!(buf[0].normal[..3], [0.0, 0.0, -1.0]);
        assert!((buf[0].depth - 0.3).abs() < 1e-15);
        assert!((capsule_point_depth(&Capsule { radius: 0.5, length: 1.0 }, &pb, [0.0, 0.0, 2.0]) - 0.2).abs() < 1e-15);
    }
}
