//! Convex polyhedra (`dCreateConvex`) and the pairs ODE 0.16 handles with
//! its own convex code: convex–plane and ray–convex. The convex pairs with
//! sphere, box, capsule, cylinder and convex go through MPR (`ccd`), as in
//! Debian's libccd-enabled build.

use super::super::contact::{Contact, ContactSink};
use super::super::shapes::{Plane, Pose, Ray};
use super::cylinder::v3::*;

/// A convex polyhedron in the form `dCreateConvex` takes it, in geom
/// frame: `planes` holds (a, b, c, d) per face with `a·x + b·y + c·z = d`
/// on the face and the unit normal pointing out; `points` holds (x, y, z)
/// per vertex; `polygons` holds, per face, the vertex count followed by the
/// vertex indices (counter-clockwise seen from outside).
///
/// The arrays are borrowed: ODE references the host's arrays rather than
/// copying them, and the geom hands colliders a view of them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Convex<'a> {
    pub planes: &'a [f64],
    pub points: &'a [f64],
    pub polygons: &'a [u32],
}

impl<'a> Convex<'a> {
    pub fn new(planes: &'a [f64], points: &'a [f64], polygons: &'a [u32]) -> Convex<'a> {
        Convex { planes, points, polygons }
    }

    pub fn plane_count(&self) -> usize {
        self.planes.len() / 4
    }

    pub fn point_count(&self) -> usize {
        self.points.len() / 3
    }

    #[inline]
    pub fn point(&self, i: usize) -> V3 {
        [self.points[3 * i], self.points[3 * i + 1], self.points[3 * i + 2]]
    }

    #[inline]
    pub fn plane(&self, i: usize) -> [f64; 4] {
        [self.planes[4 * i], self.planes[4 * i + 1], self.planes[4 * i + 2], self.planes[4 * i + 3]]
    }

    /// World-frame AABB as ODE computes it (min/max over the transformed
    /// vertices): [minx, maxx, miny, maxy, minz, maxz].
    pub fn aabb(&self, pose: &Pose) -> [f64; 6] {
        let pos = p3(&pose.pos);
        let mut bb =
            [f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY];
        for i in 0..self.point_count() {
            let p = add(&mul0(&pose.r, &self.point(i)), &pos);
            for k in 0..3 {
                bb[2 * k] = bb[2 * k].min(p[k]);
                bb[2 * k + 1] = bb[2 * k + 1].max(p[k]);
            }
        }
        bb
    }
}

/// Convex (a) against plane (b): one contact per vertex on or below the
/// plane (depth = its distance below), but only if the plane actually cuts
/// the hull — a hull lying entirely below the plane gets no contact, as in
/// ODE.
pub fn collide_convex_plane(cvx: &Convex, pc: &Pose, plane: &Plane, sink: &mut ContactSink) -> usize {
    let maxc = sink.max();
    if maxc == 0 {
        return 0;
    }
    let start = sink.len();
    let pos = p3(&pc.pos);
    let (mut below, mut above) = (false, false);
    let mut count = 0;
    for i in 0..cvx.point_count() {
        let v = add(&pos, &mul0(&pc.r, &cvx.point(i)));
        let d = dot(&plane.n, &v) - plane.d;
        if d <= 0.0 {
            below = true;
            if d == 0.0 {
                above = true;
            }
            if count != maxc {
                sink.push(Contact::new(v, plane.n, -d));
                count += 1;
            }
        } else {
            above = true;
        }
        if count == maxc && below && above {
            break;
        }
    }
    if below && above {
        count
    } else {
        sink.truncate(start);
        0
    }
}

/// Ray (a) against convex (b), ODE 0.16's algorithm: the ray is taken into
/// the convex's frame and each face plane it points at is a candidate, at
/// the *distance from the ray origin to the plane* (not the distance along
/// the ray — ODE's measure, kept because hosts see it as the depth); a
/// candidate is accepted when no other face plane has it outside.
pub fn collide_ray_convex(ray: &Ray, pr: &Pose, cvx: &Convex, pc: &Pose, sink: &mut ContactSink) -> usize {
    if sink.max() == 0 {
        return 0;
    }
    const EPS: f64 = f64::EPSILON;
    let cpos = p3(&pc.pos);
    let o = mul1(&pc.r, &sub(&p3(&pr.pos), &cpos));
    let dir = mul1(&pc.r, &col(&pr.r, 2));
    let n = cvx.plane_count();
    let outside = (0..n).any(|i| {
        let p = cvx.plane(i);
        p[0] * o[0] + p[1] * o[1] + p[2] * o[2] - p[3] >= 0.0
    });
    let nsign = if outside { 1.0 } else { -1.0 };
    // ODE writes the position of every candidate into the contact before
    // checking it against the other planes, and the normal and depth only
    // for accepted ones; the returned position can thus come from a later,
    // rejected candidate. Kept as is.
    let mut pos_out = [0.0; 3];
    let mut normal_out = [0.0; 3];
    let mut depth = f64::INFINITY;
    for i in 0..n {
        let p = cvx.plane(i);
        let alpha = nsign * (p[0] * o[0] + p[1] * o[1] + p[2] * o[2] - p[3]);
        let beta = (p[0] * dir[0] + p[1] * dir[1] + p[2] * dir[2]) * nsign;
        if beta < -EPS && alpha >= 0.0 && alpha <= ray.length && alpha < depth {
            pos_out = [o[0] * 1.0 + dir[0] * alpha, o[1] * 1.0 + dir[1] * alpha, o[2] * 1.0 + dir[2] * alpha];
            let off_hull = (0..n).filter(|&j| j != i).any(|j| {
                let q = cvx.plane(j);
                q[0] * pos_out[0] + q[1] * pos_out[1] + q[2] * pos_out[2] - q[3] > EPS
            });
            if !off_hull {
                normal_out = [nsign * p[0], nsign * p[1], nsign * p[2]];
                depth = alpha;
                if sink.unimportant() && depth <= ray.length {
                    break;
                }
            }
        }
    }
    if depth <= ray.length {
        let pos = add(&mul0(&pc.r, &pos_out), &cpos);
        sink.push(Contact::new(pos, mul0(&pc.r, &normal_out), depth));
        1
    } else {
        0
    }
}
