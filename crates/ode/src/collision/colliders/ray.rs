//! Ray colliders against sphere, box, capsule and plane.
//!
//! A ray starts at its pose position and runs `length` along the pose's z
//! axis (column 2 of R). A hit gives one contact at the hit point, with
//! depth = distance from the ray start and the surface normal there; a ray
//! starting inside a solid reports where it leaves, with the normal
//! pointing inwards. The flags below (`dGeomRaySetParams`,
//! `dGeomRaySetClosestHit`) only steer ODE's trimesh and heightfield ray
//! colliders: the primitive colliders here ignore them, as ODE's do.

use super::box_shape::{col_dot, sub3};
use super::sphere::push_one;
use crate::collision::contact::{Contact, ContactSink};
use crate::collision::shapes::{BoxShape, Capsule, Plane, Pose, Ray, Sphere};
use crate::math::mat3::mul1_331;
use crate::math::vec::{dot3, normalize3};

/// Ray flag: stop at the first contact found (`dGeomRaySetParams`).
pub const RAY_FIRSTCONTACT: u32 = 0x10000;
/// Ray flag: ignore back-facing triangles (`dGeomRaySetParams`).
pub const RAY_BACKFACECULL: u32 = 0x20000;
/// Ray flag: report only the closest hit (`dGeomRaySetClosestHit`).
pub const RAY_CLOSEST_HIT: u32 = 0x40000;

#[inline]
fn dir(p: &Pose) -> [f64; 3] {
    [p.r[2], p.r[6], p.r[10]]
}

#[inline]
fn point_at(p: &Pose, alpha: f64) -> [f64; 3] {
    [p.pos[0] + alpha * p.r[2], p.pos[1] + alpha * p.r[6], p.pos[2] + alpha * p.r[10]]
}

/// Ray against a sphere (centre `c`, radius `radius`). `exit` asks for the
/// point where the ray leaves the sphere (used for capsule end caps when
/// the ray starts inside the capsule).
fn ray_sphere_hit(ray: &Ray, pr: &Pose, c: &[f64], radius: f64, exit: bool) -> Option<Contact> {
    let q = sub3(&pr.pos, c);
    let b = col_dot(&q, &pr.r, 2);
    let cc = dot3(&q, &q) - radius * radius;
    // cc <= 0: the ray starts inside the sphere.
    let mut k = b * b - cc;
    if k < 0.0 {
        return None;
    }
    k = k.sqrt();
    let alpha;
    if exit && cc >= 0.0 {
        alpha = -b + k;
        if alpha < 0.0 {
            return None;
        }
    } else {
        let near = -b - k;
        if near < 0.0 {
            let far = -b + k;
            if far < 0.0 {
                return None;
            }
            alpha = far;
        } else {
            alpha = near;
        }
    }
    if alpha > ray.length {
        return None;
    }
    let pos = point_at(pr, alpha);
    let nsign = if cc < 0.0 || exit { -1.0 } else { 1.0 };
    let mut n = [nsign * (pos[0] - c[0]), nsign * (pos[1] - c[1]), nsign * (pos[2] - c[2])];
    normalize3(&mut n);
    Some(Contact::new(pos, n, alpha))
}

/// Ray–sphere: at most one contact.
pub fn collide_ray_sphere(a: &Ray, pa: &Pose, b: &Sphere, pb: &Pose, sink: &mut ContactSink) -> usize {
    if sink.max() == 0 {
        return 0;
    }
    push_one(sink, ray_sphere_hit(a, pa, &pb.pos, b.radius, false))
}

/// Ray–box: at most one contact (slab test in box frame).
pub fn collide_ray_box(a: &Ray, pa: &Pose, b: &BoxShape, pb: &Pose, sink: &mut ContactSink) -> usize {
    if sink.max() == 0 {
        return 0;
    }
    let mut s = mul1_331(&pb.r, &sub3(&pa.pos, &pb.pos));
    let mut v = mul1_331(&pb.r, &dir(pa));
    // Mirror so v >= 0; `sign` is then the outward normal sign of the
    // entry face on each axis.
    let mut sign = [0.0f64; 3];
    for i in 0..3 {
        if v[i] < 0.0 {
            s[i] = -s[i];
            v[i] = -v[i];
            sign[i] = 1.0;
        } else {
            sign[i] = -1.0;
        }
    }
    let h = [0.5 * b.sides[0], 0.5 * b.sides[1], 0.5 * b.sides[2]];
    if (s[0] < -h[0] && v[0] <= 0.0)
        || s[0] > h[0]
        || (s[1] < -h[1] && v[1] <= 0.0)
        || s[1] > h[1]
        || (s[2] < -h[2] && v[2] <= 0.0)
        || s[2] > h[2]
        || (v[0] == 0.0 && v[1] == 0.0 && v[2] == 0.0)
    {
        return 0;
    }
    let mut lo = f64::NEG_INFINITY;
    let mut hi = f64::INFINITY;
    let (mut nlo, mut nhi) = (0, 0);
    for i in 0..3 {
        if v[i] != 0.0 {
            let k = (-h[i] - s[i]) / v[i];
            if k > lo {
                lo = k;
                nlo = i;
            }
            let k = (h[i] - s[i]) / v[i];
            if k < hi {
                hi = k;
                nhi = i;
            }
        }
    }
    if lo > hi {
        return 0;
    }
    let (alpha, n) = if lo >= 0.0 { (lo, nlo) } else { (hi, nhi) };
    if alpha < 0.0 || alpha > a.length {
        return 0;
    }
    let r = &pb.r;
    let normal = [r[n] * sign[n], r[4 + n] * sign[n], r[8 + n] * sign[n]];
    push_one(sink, Some(Contact::new(point_at(pa, alpha), normal, alpha)))
}

/// Ray–capsule: at most one contact (infinite cylinder, then end caps).
pub fn collide_ray_capsule(a: &Ray, pa: &Pose, b: &Capsule, pb: &Pose, sink: &mut ContactSink) -> usize {
    if sink.max() == 0 {
        return 0;
    }
    push_one(sink, ray_capsule_hit(a, pa, b, pb))
}

fn ray_capsule_hit(a: &Ray, pa: &Pose, b: &Capsule, pb: &Pose) -> Option<Contact> {
    let h = b.length * 0.5;
    let rc = &pb.r;
    let cpos = &pb.pos;
    let cs = sub3(&pa.pos, cpos);
    // Ray start along the capsule axis, and its offset from the axis.
    let mut k = rc[2] * cs[0] + rc[6] * cs[1] + rc[10] * cs[2];
    let mut q = [k * rc[2] - cs[0], k * rc[6] - cs[1], k * rc[10] - cs[2]];
    let c = dot3(&q, &q) - b.radius * b.radius;
    // c < 0: the start is inside the infinite cylinder.

    let mut inside = false;
    if c < 0.0 {
        if k < -h {
            k = -h;
        } else if k > h {
            k = h;
        }
        let r = [cpos[0] + k * rc[2], cpos[1] + k * rc[6], cpos[2] + k * rc[10]];
        let p = &pa.pos;
        if (p[0] - r[0]) * (p[0] - r[0]) + (p[1] - r[1]) * (p[1] - r[1]) + (p[2] - r[2]) * (p[2] - r[2])
            < b.radius * b.radius
        {
            inside = true;
        }
    }

    if !inside && c < 0.0 {
        // Outside the capsule but within its infinite cylinder: only an end
        // cap can be hit.
        k = if k < 0.0 { -h } else { h };
    } else {
        let rr = &pa.r;
        let uv = col_col(rc, rr);
        let r = [uv * rc[2] - rr[2], uv * rc[6] - rr[6], uv * rc[10] - rr[10]];
        let qa = dot3(&r, &r);
        let qb = 2.0 * dot3(&q, &r);
        let disc = qb * qb - 4.0 * qa * c;
        if qa == 0.0 {
            // Ray exactly parallel to the axis: the quadratic degenerates
            // (ODE 0.16 tests this before dividing by it); only the cap ahead
            // can be hit.
            k = if uv < 0.0 { -h } else { h };
        } else if disc < 0.0 {
            // Misses the infinite cylinder; from inside, running along the
            // axis, it can still leave through a cap.
            if !inside {
                return None;
            }
            k = if uv < 0.0 { -h } else { h };
        } else {
            let d = disc.sqrt();
            let inv = 1.0 / (2.0 * qa);
            let mut alpha = (-qb - d) * inv;
            if alpha < 0.0 {
                alpha = (-qb + d) * inv;
                if alpha < 0.0 {
                    return None;
                }
            }
            if alpha > a.length {
                return None;
            }
            let pos = point_at(pa, alpha);
            q = sub3(&pos, cpos);
            k = col_dot(&q, rc, 2);
            let nsign = if inside { -1.0 } else { 1.0 };
            if k >= -h && k <= h {
                let mut n = [
                    nsign * (pos[0] - (cpos[0] + k * rc[2])),
                    nsign * (pos[1] - (cpos[1] + k * rc[6])),
                    nsign * (pos[2] - (cpos[2] + k * rc[10])),
                ];
                normalize3(&mut n);
                return Some(Contact::new(pos, n, alpha));
            }
            k = if k < 0.0 { -h } else { h };
        }
    }

    let cap = [cpos[0] + k * rc[2], cpos[1] + k * rc[6], cpos[2] + k * rc[10]];
    ray_sphere_hit(a, pa, &cap, b.radius, inside)
}

/// Dot product of the z columns of two rotations.
#[inline]
fn col_col(a: &[f64; 12], b: &[f64; 12]) -> f64 {
    super::box_shape::col_col_dot(a, 2, b, 2)
}

/// Ray–plane: at most one contact; rays parallel to the plane never hit.
/// The normal faces the side the ray starts on.
pub fn collide_ray_plane(a: &Ray, pa: &Pose, b: &Plane, sink: &mut ContactSink) -> usize {
    if sink.max() == 0 {
        return 0;
    }
    let mut alpha = b.d - dot3(&b.n, &pa.pos);
    // alpha > 0: the start is below the plane.
    let nsign = if alpha > 0.0 { -1.0 } else { 1.0 };
    let k = col_dot(&b.n, &pa.r, 2);
    if k == 0.0 {
        return 0;
    }
    alpha /= k;
    if alpha < 0.0 || alpha > a.length {
        return 0;
    }
    let n = [nsign * b.n[0], nsign * b.n[1], nsign * b.n[2]];
    push_one(sink, Some(Contact::new(point_at(pa, alpha), n, alpha)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::contact::dContactGeom;
    use crate::math::rotation::IDENTITY;

    fn hit(f: impl FnOnce(&mut ContactSink) -> usize) -> Option<dContactGeom> {
        let mut buf: [dContactGeom; 1] = unsafe { std::mem::zeroed() };
        let mut s = ContactSink::from_slice(&mut buf, 1);
        (f(&mut s) == 1).then_some(buf[0])
    }

    #[test]
    fn rays_along_z_hit_each_shape() {
        let ray = Ray { length: 10.0, flags: 0 };
        let pr = Pose::new([0.0, 0.0, -5.0], IDENTITY);
        let c = hit(|s| collide_ray_sphere(&ray, &pr, &Sphere { radius: 1.0 }, &Pose::IDENTITY, s)).unwrap();
        assert_eq!((c.depth, c.normal[2], c.pos[2]), (4.0, -1.0, -1.0));
        let c = hit(|s| collide_ray_box(&ray, &pr, &BoxShape { sides: [2.0, 2.0, 2.0] }, &Pose::IDENTITY, s)).unwrap();
        assert_eq!((c.depth, c.normal[2]), (4.0, -1.0));
        let cap = Capsule { radius: 1.0, length: 2.0 };
        let c = hit(|s| collide_ray_capsule(&ray, &pr, &cap, &Pose::IDENTITY, s)).unwrap();
        assert_eq!((c.depth, c.normal[2]), (3.0, -1.0));
        let pl = Plane { n: [0.0, 0.0, 1.0], d: 1.0 };
        let c = hit(|s| collide_ray_plane(&ray, &pr, &pl, s)).unwrap();
        // The ray starts below the plane: the normal faces down.
        assert_eq!((c.depth, c.normal[2]), (6.0, -1.0));
        let short = Ray { length: 3.0, flags: 0 };
        assert!(hit(|s| collide_ray_sphere(&short, &pr, &Sphere { radius: 1.0 }, &Pose::IDENTITY, s)).is_none());
    }

    #[test]
    fn ray_from_inside_reports_exit_with_inward_normal() {
        let ray = Ray { length: 10.0, flags: 0 };
        let c =
            hit(|s| collide_ray_sphere(&ray, &Pose::IDENTITY, &Sphere { radius: 2.0 }, &Pose::IDENTITY, s)).unwrap();
        assert_eq!((c.depth, c.normal[2]), (2.0, -1.0));
    }
}
