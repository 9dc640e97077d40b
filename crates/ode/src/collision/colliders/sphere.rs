//! Sphere colliders (sphere–sphere, sphere–box), the sphere point depth,
//! and `collide_spheres`, the sphere-pair kernel the capsule colliders
//! reuse. Sphere–plane lives with the other plane colliders.

use super::box_shape::{col_dot, sub3};
use crate::collision::contact::{Contact, ContactSink};
use crate::collision::shapes::{BoxShape, Pose, Sphere};
use crate::math::mat3::mul0_331;
use crate::math::vec::{dot3, normalize3};

/// Contact between spheres (p1, r1) and (p2, r2), if they touch.
///
/// The normal points from sphere 2 to sphere 1; the position is midway
/// through the overlap along the centre line. Concentric spheres get the
/// normal +x and the depth r1 + r2 (ODE's convention).
pub(crate) fn collide_spheres(p1: &[f64], r1: f64, p2: &[f64], r2: f64) -> Option<Contact> {
    let d3 = sub3(p1, p2);
    let d = dot3(&d3, &d3).sqrt();
    if d > r1 + r2 {
        return None;
    }
    if d <= 0.0 {
        return Some(Contact::new([p1[0], p1[1], p1[2]], [1.0, 0.0, 0.0], r1 + r2));
    }
    let inv = 1.0 / d;
    let n = [(p1[0] - p2[0]) * inv, (p1[1] - p2[1]) * inv, (p1[2] - p2[2]) * inv];
    let k = 0.5 * (r2 - r1 - d);
    let pos = [p1[0] + n[0] * k, p1[1] + n[1] * k, p1[2] + n[2] * k];
    Some(Contact::new(pos, n, r1 + r2 - d))
}

/// Pushes at most one contact; returns how many were written.
#[inline]
pub(crate) fn push_one(sink: &mut ContactSink, c: Option<Contact>) -> usize {
    match c {
        Some(c) if sink.push(c) => 1,
        _ => 0,
    }
}

/// Depth of a world point in a sphere (radius minus distance to centre).
pub fn sphere_point_depth(s: &Sphere, pose: &Pose, p: [f64; 3]) -> f64 {
    let c = &pose.pos;
    s.radius - ((p[0] - c[0]) * (p[0] - c[0]) + (p[1] - c[1]) * (p[1] - c[1]) + (p[2] - c[2]) * (p[2] - c[2])).sqrt()
}

/// Sphere–sphere: at most one contact.
pub fn collide_sphere_sphere(a: &Sphere, pa: &Pose, b: &Sphere, pb: &Pose, sink: &mut ContactSink) -> usize {
    if sink.max() == 0 {
        return 0;
    }
    push_one(sink, collide_spheres(&pa.pos, a.radius, &pb.pos, b.radius))
}

/// Sphere–box: at most one contact.
///
/// The sphere centre is clamped into the box (in box frame). A centre
/// outside the box gives a contact at the clamped point with the normal
/// from that point to the centre; a centre inside pushes the sphere out
/// through the nearest face (contact at the centre, depth = distance to
/// that face + radius).
pub fn collide_sphere_box(a: &Sphere, pa: &Pose, b: &BoxShape, pb: &Pose, sink: &mut ContactSink) -> usize {
    if sink.max() == 0 {
        return 0;
    }
    let p = sub3(&pa.pos, &pb.pos);
    let r = &pb.r;
    let mut l = [0.0; 3];
    let mut t = [0.0; 3];
    let mut onborder = false;
    for i in 0..3 {
        l[i] = b.sides[i] * 0.5;
        t[i] = col_dot(&p, r, i);
        if t[i] < -l[i] {
            t[i] = -l[i];
            onborder = true;
        }
        if t[i] > l[i] {
            t[i] = l[i];
            onborder = true;
        }
    }

    if !onborder {
        let mut min_distance = l[0] - t[0].abs();
        let mut mini = 0;
        for i in 1..3 {
            let face_distance = l[i] - t[i].abs();
            if face_distance < min_distance {
                min_distance = face_distance;
                mini = i;
            }
        }
        let mut dir = [0.0; 3];
        dir[mini] = if t[mini] > 0.0 { 1.0 } else { -1.0 };
        let n = mul0_331(r, &dir);
        let pos = [pa.pos[0], pa.pos[1], pa.pos[2]];
        return push_one(sink, Some(Contact::new(pos, n, min_distance + a.radius)));
    }

    let q = mul0_331(r, &t);
    let mut n = sub3(&p, &q);
    let depth = a.radius - dot3(&n, &n).sqrt();
    if depth < 0.0 {
        return 0;
    }
    let pos = [q[0] + pb.pos[0], q[1] + pb.pos[1], q[2] + pb.pos[2]];
    normalize3(&mut n);
    push_one(sink, Some(Contact::new(pos, n, depth)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::contact::dContactGeom;

    fn buf() -> [dContactGeom; 4] {
        unsafe { std::mem::zeroed() }
    }

    #[test]
    fn spheres_touch_along_centre_line() {
        let mut b = buf();
        let mut s = ContactSink::from_slice(&mut b, 4);
        let pa = Pose::new([0.0, 0.0, 1.5], crate::math::rotation::IDENTITY);
        let n = collide_sphere_sphere(&Sphere { radius: 1.0 }, &pa, &Sphere { radius: 1.0 }, &Pose::IDENTITY, &mut s);
        assert_eq!(n, 1);
        assert_eq!(b[0].normal[..3], [0.0, 0.0, 1.0]);
        assert_eq!(b[0].depth, 0.5);
        assert_eq!(b[0].pos[..3], [0.0, 0.0, 0.75]);
    }

    #[test]
    fn sphere_inside_box_leaves_through_nearest_face() {
        let mut b = buf();
        let mut s = ContactSink::from_slice(&mut b, 1);
        let pa = Pose::new([0.0, 0.8, 0.0], crate::math::rotation::IDENTITY);
        let bx = BoxShape { sides: [2.0, 2.0, 4.0] };
        assert_eq!(collide_sphere_box(&Sphere { radius: 0.5 }, &pa, &bx, &Pose::IDENTITY, &mut s), 1);
        assert_eq!(b[0].normal[..3], [0.0, 1.0, 0.0]);
        assert!((b[0].depth - 0.7).abs() < 1e-15);
    }
}
