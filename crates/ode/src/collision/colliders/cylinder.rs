//! Cylinder pairs that ODE 0.16 handles with its own code: cylinder–sphere,
//! cylinder–box (separating axes, then clipping), cylinder–plane and
//! ray–cylinder. Cylinder–cylinder and capsule–cylinder go through the
//! MPR path in `ccd`.
//!
//! The arithmetic follows ODE's order of operations so that results agree
//! with Debian's library to rounding; where ODE has quirks (the cofactor
//! "inverse" of the cylinder–box clipper, the choice of disc in the
//! cylinder–plane parallel case) they are kept, since hosts see them.
//! `v3` holds small vector helpers shared with `convex`, `ccd` and the
//! heightfield collider.

use super::super::contact::{Contact, ContactSink};
use super::super::shapes::{BoxShape, Cylinder, Plane, Pose, Ray, Sphere};
use v3::*;

/// Vector helpers on `[f64; 3]` with ODE's summation order.
pub(crate) mod v3 {
    pub type V3 = [f64; 3];

    #[inline]
    pub fn dot(a: &V3, b: &V3) -> f64 {
        a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
    }
    #[inline]
    pub fn cross(a: &V3, b: &V3) -> V3 {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    }
    #[inline]
    pub fn sub(a: &V3, b: &V3) -> V3 {
        [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
    }
    #[inline]
    pub fn add(a: &V3, b: &V3) -> V3 {
        [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
    }
    #[inline]
    pub fn scale(a: &V3, k: f64) -> V3 {
        [a[0] * k, a[1] * k, a[2] * k]
    }
    #[inline]
    pub fn neg(a: &V3) -> V3 {
        [-a[0], -a[1], -a[2]]
    }
    #[inline]
    pub fn len2(a: &V3) -> f64 {
        dot(a, a)
    }
    #[inline]
    pub fn len(a: &V3) -> f64 {
        dot(a, a).sqrt()
    }
    /// ODE's `dNormalize3`: overflow-safe, (1,0,0) for the zero vector.
    #[inline]
    pub fn normalize(a: &mut V3) {
        crate::math::vec::normalize3(a);
    }
    #[inline]
    pub fn normalized(mut a: V3) -> V3 {
        normalize(&mut a);
        a
    }
    /// Column `i` of a padded 3x4 rotation.
    #[inline]
    pub fn col(r: &[f64; 12], i: usize) -> V3 {
        [r[i], r[4 + i], r[8 + i]]
    }
    #[inline]
    pub fn p3(p: &[f64; 4]) -> V3 {
        [p[0], p[1], p[2]]
    }
    /// R·v.
    #[inline]
    pub fn mul0(r: &[f64; 12], v: &V3) -> V3 {
        [
            r[0] * v[0] + r[1] * v[1] + r[2] * v[2],
            r[4] * v[0] + r[5] * v[1] + r[6] * v[2],
            r[8] * v[0] + r[9] * v[1] + r[10] * v[2],
        ]
    }
    /// Rᵀ·v.
    #[inline]
    pub fn mul1(r: &[f64; 12], v: &V3) -> V3 {
        [
            r[0] * v[0] + r[4] * v[1] + r[8] * v[2],
            r[1] * v[0] + r[5] * v[1] + r[9] * v[2],
            r[2] * v[0] + r[6] * v[1] + r[10] * v[2],
        ]
    }
    /// Signed distance of `p` to plane `n·p + d = 0` (ODE's clip planes).
    #[inline]
    pub fn plane_dist(p: &V3, pl: &[f64; 4]) -> f64 {
        pl[0] * p[0] + pl[1] * p[1] + pl[2] * p[2] + pl[3]
    }

    /// Clips segment `e0`-`e1` to the positive side of `pl`; false when
    /// both ends lie strictly behind it.
    pub fn clip_edge_to_plane(e0: &mut V3, e1: &mut V3, pl: &[f64; 4]) -> bool {
        let d0 = plane_dist(e0, pl);
        let d1 = plane_dist(e1, pl);
        if d0 < 0.0 && d1 < 0.0 {
            return false;
        }
        if d0 > 0.0 && d1 > 0.0 {
            return true;
        }
        if (d0 > 0.0 && d1 < 0.0) || (d0 < 0.0 && d1 > 0.0) {
            let x = [
                e0[0] - (e0[0] - e1[0]) * d0 / (d0 - d1),
                e0[1] - (e0[1] - e1[1]) * d0 / (d0 - d1),
                e0[2] - (e0[2] - e1[2]) * d0 / (d0 - d1),
            ];
            if d0 < 0.0 {
                *e0 = x;
            } else {
                *e1 = x;
            }
        }
        true
    }

    /// A convex polygon of at most `Poly::CAP` vertices, stored inline so
    /// clipping never allocates. Each clip adds at most one vertex, so a
    /// box face (4) clipped by the cap plane and the 8 segment planes needs
    /// at most 13.
    #[derive(Clone, Copy)]
    pub struct Poly {
        pts: [V3; Poly::CAP],
        len: usize,
    }

    impl Poly {
        pub const CAP: usize = 16;

        pub fn new() -> Poly {
            Poly { pts: [[0.0; 3]; Poly::CAP], len: 0 }
        }

        pub fn from_slice(p: &[V3]) -> Poly {
            let mut out = Poly::new();
            for &v in p {
                out.push(v);
            }
            out
        }

        fn clear(&mut self) {
            self.len = 0;
        }

        fn push(&mut self, v: V3) {
            debug_assert!(self.len < Poly::CAP, "polygon capacity exceeded");
            if self.len < Poly::CAP {
                self.pts[self.len] = v;
                self.len += 1;
            }
        }
    }

    impl Default for Poly {
        fn default() -> Self {
            Poly::new()
        }
    }

    impl std::ops::Deref for Poly {
        type Target = [V3];
        fn deref(&self) -> &[V3] {
            &self.pts[..self.len]
        }
    }

    /// Sutherland–Hodgman step: keeps the part of polygon `inp` on the
    /// non-negative side of `pl`, writing it to `out`.
    pub fn clip_poly_to_plane(inp: &[V3], out: &mut Poly, pl: &[f64; 4]) {
        out.clear();
        let n = inp.len();
        if n == 0 {
            return;
        }
        let mut i0 = n - 1;
        for i1 in 0..n {
            let a = &inp[i0];
            let b = &inp[i1];
            let d0 = plane_dist(a, pl);
            let d1 = plane_dist(b, pl);
            if d0 >= 0.0 {
                out.push(*a);
            }
            if (d0 > 0.0 && d1 < 0.0) || (d0 < 0.0 && d1 > 0.0) {
                out.push([
                    a[0] - (a[0] - b[0]) * d0 / (d0 - d1),
                    a[1] - (a[1] - b[1]) * d0 / (d0 - d1),
                    a[2] - (a[2] - b[2]) * d0 / (d0 - d1),
                ]);
            }
            i0 = i1;
        }
    }
}

/// Cylinder (a) against sphere (b): one contact on the side, on a disc or
/// on a rim.
pub fn collide_cylinder_sphere(cyl: &Cylinder, pc: &Pose, sph: &Sphere, ps: &Pose, sink: &mut ContactSink) -> usize {
    if sink.max() == 0 {
        return 0;
    }
    const TOL: f64 = 1e-7;
    let (radius, length) = (cyl.radius, cyl.length);
    let cp = p3(&pc.pos);
    let r2 = sph.radius;
    let sp = p3(&ps.pos);
    let dir = col(&pc.r, 2);
    let half = length * 0.5;
    let top = [dir[0] * half + cp[0], dir[1] * half + cp[1], dir[2] * half + cp[2]];
    let bot = [dir[0] * -half + cp[0], dir[1] * -half + cp[1], dir[2] * -half + cp[2]];

    // s: position of the centre along the axis measured from the bottom disc.
    let s = (sp[0] - bot[0]) * dir[0] - (bot[1] - sp[1]) * dir[1] - (bot[2] - sp[2]) * dir[2];
    if s < -r2 || s > length + r2 {
        return 0;
    }
    // c: from the sphere centre to the axis, orthogonal to it.
    let c = [s * dir[0] + bot[0] - sp[0], s * dir[1] + bot[1] - sp[1], s * dir[2] + bot[2] - sp[2]];
    let t = len(&c);
    if t > radius + r2 {
        return 0;
    }
    let contact = if t > radius && (s < 0.0 || s > length) {
        // Rim of one disc.
        let (ds, centre) = if s <= 0.0 { (s, bot) } else { (s - length, top) };
        let depth = r2 - (ds * ds + (t - radius) * (t - radius)).sqrt();
        if depth < 0.0 {
            return 0;
        }
        let pos = [c[0] / t * -radius + centre[0], c[1] / t * -radius + centre[1], c[2] / t * -radius + centre[2]];
        let k = r2 - depth;
        let normal = [(pos[0] - sp[0]) / k, (pos[1] - sp[1]) / k, (pos[2] - sp[2]) / k];
        Contact::new(pos, normal, depth)
    } else if radius - t <= s && radius - t <= length - s {
        // Side of the cylinder.
        let depth = (r2 + radius) - t;
        if depth < 0.0 {
            return 0;
        }
        if t > r2 + TOL {
            let u = [c[0] / t, c[1] / t, c[2] / t];
            let pos = [u[0] * r2 + sp[0], u[1] * r2 + sp[1], u[2] * r2 + sp[2]];
            Contact::new(pos, u, depth)
        } else {
            // ODE divides by t here even when it is zero (axis through the
            // centre): the normal is then NaN, as in ODE.
            let pos = [c[0] + sp[0], c[1] + sp[1], c[2] + sp[2]];
            Contact::new(pos, [c[0] / t, c[1] / t, c[2] / t], depth)
        }
    } else if s <= length * 0.5 {
        // Bottom disc.
        let depth = s + r2;
        if depth < 0.0 {
            return 0;
        }
        let pos = [r2 * dir[0] + sp[0], r2 * dir[1] + sp[1], r2 * dir[2] + sp[2]];
        Contact::new(pos, dir, depth)
    } else {
        let depth = r2 + length - s;
        if depth < 0.0 {
            return 0;
        }
        let pos = [r2 * -dir[0] + sp[0], r2 * -dir[1] + sp[1], r2 * -dir[2] + sp[2]];
        Contact::new(pos, neg(&dir), depth)
    };
    sink.push(contact);
    1
}

/// Cylinder (a) against plane (b): up to 4 contacts on a disc lying on the
/// plane, otherwise the deepest rim point of each disc.
pub fn collide_cylinder_plane(cyl: &Cylinder, pc: &Pose, plane: &Plane, sink: &mut ContactSink) -> usize {
    const TOL: f64 = 1e-7;
    let max = sink.max();
    if max == 0 {
        return 0;
    }
    let (radius, length) = (cyl.radius, cyl.length);
    let cp = p3(&pc.pos);
    let pn = plane.n;
    let pd = plane.d;
    let dir = col(&pc.r, 2);
    let half = length * 0.5;
    let top = [dir[0] * half + cp[0], dir[1] * half + cp[1], dir[2] * half + cp[2]];
    let bot = [dir[0] * -half + cp[0], dir[1] * -half + cp[1], dir[2] * -half + cp[2]];
    let mut count = 0;
    let mut emit = |pos: V3, depth: f64, sink: &mut ContactSink| -> bool {
        sink.push(Contact::new(pos, pn, depth));
        count += 1;
        count >= max
    };

    let mut s = dot(&dir, &pn);
    if s < 0.0 {
        s += 1.0;
    } else {
        s -= 1.0;
    }
    if s < TOL && s > -TOL {
        // Discs parallel to the plane: four points on the lower disc.
        let s = pd - dot(&pn, &bot);
        let t = pd - dot(&pn, &top);
        let p = if s >= t {
            if s >= 0.0 {
                bot
            } else {
                return 0;
            }
        } else if t >= 0.0 {
            top
        } else {
            return 0;
        };
        let v1 =
            if dir[0] < TOL && dir[0] > -TOL { [dir[0] + 1.0, dir[1], dir[2]] } else { [dir[0], dir[1] + 1.0, dir[2]] };
        let v2 = cross(&v1, &dir);
        let k = radius / len(&v2);
        let v2 = scale(&v2, k);
        let v1 = cross(&v2, &dir);
        for q in [add(&p, &v1), sub(&p, &v1), add(&p, &v2), sub(&p, &v2)] {
            let depth = pd - dot(&pn, &q);
            if depth > 0.0 && emit(q, depth, sink) {
                break;
            }
        }
    } else {
        let t = dot(&pn, &dir);
        let c = [dir[0] * t - pn[0], dir[1] * t - pn[1], dir[2] * t - pn[2]];
        let k = radius / len(&c);
        let c = scale(&c, k);
        let q = add(&c, &bot);
        let depth = pd - dot(&pn, &q);
        if depth >= 0.0 && emit(q, depth, sink) {
            return count;
        }
        let q = add(&c, &top);
        let depth = pd - pn[0] * q[0] - pn[1] * q[1] - pn[2] * q[2];
        if depth >= 0.0 {
            emit(q, depth, sink);
        }
    }
    count
}

/// Ray (a) against cylinder (b): the first hit along the ray, on a cap or
/// on the side; depth is the distance from the ray origin. A ray starting
/// inside the cylinder hits it from within, with the normal pointing
/// inwards (ODE 0.16's ray–cylinder behaviour).
pub fn collide_ray_cylinder(ray: &Ray, pr: &Pose, cyl: &Cylinder, pc: &Pose, sink: &mut ContactSink) -> usize {
    if sink.max() == 0 {
        return 0;
    }
    let half = cyl.length * 0.5;
    let cp = p3(&pc.pos);
    let mut pos = mul1(&pc.r, &sub(&p3(&pr.pos), &cp));
    let mut dir = mul1(&pc.r, &col(&pr.r, 2));
    let r2 = cyl.radius * cyl.radius;
    let c = pos[0] * pos[0] + pos[1] * pos[1] - r2;
    let parallel = dir[0] == 0.0 && dir[1] == 0.0;
    let perpendicular = dir[2] == 0.0;
    let in_radius = c <= 0.0;
    let in_caps = pos[2].abs() <= half;
    let check_caps = !perpendicular && (!in_caps || in_radius);
    let mut check_side = !parallel && (!in_radius || in_caps);
    let flip_normals = in_caps && in_radius;
    let mut tt = f64::NEG_INFINITY;
    let mut hit = [0.0; 3];
    let mut n = [f64::NAN; 3];

    if check_caps {
        // Mirror along the axis so that only the +z cap needs testing.
        let flip_dir = (dir[2] < 0.0 && flip_normals) || (dir[2] > 0.0 && !flip_normals);
        if flip_dir {
            dir[2] = -dir[2];
            pos[2] = -pos[2];
        }
        tt = (half - pos[2]) / dir[2];
        if tt >= 0.0 && tt <= ray.length {
            hit[0] = pos[0] + tt * dir[0];
            hit[1] = pos[1] + tt * dir[1];
            if hit[0] * hit[0] + hit[1] * hit[1] <= r2 {
                hit[2] = if flip_dir { -half } else { half };
                n = [0.0, 0.0, if flip_dir != flip_normals { -1.0 } else { 1.0 }];
                check_side = false;
            } else {
                tt = f64::NEG_INFINITY;
            }
        } else {
            tt = f64::NEG_INFINITY;
        }
        if flip_dir {
            dir[2] = -dir[2];
            pos[2] = -pos[2];
        }
    }
    if check_side {
        let mut a = dir[0] * dir[0] + dir[1] * dir[1];
        let b = 2.0 * (pos[0] * dir[0] + pos[1] * dir[1]);
        let mut k = b * b - 4.0 * a * c;
        if k >= 0.0 && (b < 0.0 || b * b <= k) {
            k = k.sqrt();
            a = 1.0 / (2.0 * a);
            // Origin inside: the exit root; outside: the entry root.
            tt = if b.abs() <= k { (-b + k) * a } else { (-b - k) * a };
            if tt <= ray.length {
                hit[2] = pos[2] + tt * dir[2];
                if hit[2].abs() <= half {
                    hit[0] = pos[0] + tt * dir[0];
                    hit[1] = pos[1] + tt * dir[1];
                    n = [hit[0] / cyl.radius, hit[1] / cyl.radius, 0.0];
                    if flip_normals {
                        n[0] = -n[0];
                        n[1] = -n[1];
                    }
                } else {
                    tt = f64::NEG_INFINITY;
                }
            } else {
                tt = f64::NEG_INFINITY;
            }
        }
    }
    if tt > 0.0 {
        let normal = mul0(&pc.r, &n);
        let p = add(&mul0(&pc.r, &hit), &cp);
        sink.push(Contact::new(p, normal, tt));
        return 1;
    }
    0
}

// ---------------------------------------------------------------------------
// Cylinder–box: separating axis test over box faces, cylinder axis, their
// cross products, box vertices and box-edge/rim axes, then clipping of the
// cylinder side segment against the box, or of a box face against an
// octagon approximating the cylinder disc.

const CYL_SEGMENTS: usize = 8;

struct CylBox {
    cyl_r: [f64; 12],
    cyl_pos: V3,
    axis: V3,
    radius: f64,
    size: f64,
    box_r: [f64; 12],
    box_pos: V3,
    half: V3,
    verts: [V3; 8],
    diff: V3,
    normal: V3,
    best_depth: f64,
    best_rb: f64,
    best_rc: f64,
    best_axis: i32,
}

/// ODE's `dInvertMatrix3` (cofactors times the reciprocal determinant);
/// for rotations this is the transpose up to rounding, and the rounding
/// decides ties in the choice of the box face, so it is kept.
fn ode_invert3(m: &[f64; 12]) -> [f64; 12] {
    let det =
        m[0] * (m[5] * m[10] - m[9] * m[6]) - m[1] * (m[4] * m[10] - m[8] * m[6]) + m[2] * (m[4] * m[9] - m[8] * m[5]);
    if det == 0.0 {
        return crate::math::rotation::IDENTITY;
    }
    let k = 1.0 / det;
    let mut d = [0.0; 12];
    d[0] = (m[5] * m[10] - m[6] * m[9]) * k;
    d[1] = (m[9] * m[2] - m[1] * m[10]) * k;
    d[2] = (m[1] * m[6] - m[5] * m[2]) * k;
    d[4] = (m[6] * m[8] - m[4] * m[10]) * k;
    d[5] = (m[0] * m[10] - m[8] * m[2]) * k;
    d[6] = (m[4] * m[2] - m[0] * m[6]) * k;
    d[8] = (m[4] * m[9] - m[8] * m[5]) * k;
    d[9] = (m[8] * m[1] - m[0] * m[9]) * k;
    d[10] = (m[0] * m[5] - m[1] * m[4]) * k;
    d
}

impl CylBox {
    fn new(cyl: &Cylinder, pc: &Pose, bx: &BoxShape, pb: &Pose) -> CylBox {
        let half = [bx.sides[0] * 0.5, bx.sides[1] * 0.5, bx.sides[2] * 0.5];
        let (hx, hy, hz) = (half[0], half[1], half[2]);
        let local = [
            [-hx, hy, -hz],
            [hx, hy, -hz],
            [-hx, -hy, -hz],
            [hx, -hy, -hz],
            [hx, hy, hz],
            [hx, -hy, hz],
            [-hx, -hy, hz],
            [-hx, hy, hz],
        ];
        let box_pos = p3(&pb.pos);
        let mut verts = [[0.0; 3]; 8];
        for (v, l) in verts.iter_mut().zip(local.iter()) {
            *v = add(&mul0(&pb.r, l), &box_pos);
        }
        let cyl_pos = p3(&pc.pos);
        CylBox {
            cyl_r: pc.r,
            cyl_pos,
            axis: col(&pc.r, 2),
            radius: cyl.radius,
            size: cyl.length,
            box_r: pb.r,
            box_pos,
            half,
            verts,
            diff: sub(&cyl_pos, &box_pos),
            normal: [0.0; 3],
            best_depth: f64::INFINITY,
            best_rb: 0.0,
            best_rc: 0.0,
            best_axis: 0,
        }
    }

    /// False when `n` separates the shapes; otherwise records the
    /// shallowest overlap (normal pointing from cylinder to box).
    fn test_axis(&mut self, n: &V3, id: i32) -> bool {
        if len(n) < 1e-5 {
            return true;
        }
        let n = normalized(*n);
        let d1 = dot(&self.axis, &n);
        let rc = if !(-1.0..=1.0).contains(&d1) {
            self.size * 0.5
        } else {
            (d1 * (self.size * 0.5)).abs() + self.radius * (1.0 - d1 * d1).sqrt()
        };
        let mut rb = dot(&col(&self.box_r, 0), &n).abs() * self.half[0];
        rb += dot(&col(&self.box_r, 1), &n).abs() * self.half[1];
        rb += dot(&col(&self.box_r, 2), &n).abs() * self.half[2];
        let fd = dot(&self.diff, &n);
        let mut depth = rc + rb;
        if fd.abs() > depth {
            return false;
        }
        depth -= fd.abs();
        if depth < self.best_depth {
            self.best_depth = depth;
            self.normal = if fd > 0.0 { neg(&n) } else { n };
            self.best_axis = id;
            self.best_rb = rb;
            self.best_rc = rc;
        }
        true
    }

    fn test_edge_circle(&mut self, centre: &V3, v0: usize, v1: usize, id: i32) -> bool {
        let (p0, p1) = (self.verts[v0], self.verts[v1]);
        let dir = normalized(sub(&p1, &p0));
        let d2 = dot(&dir, &self.axis);
        if d2.abs() < 1e-5 {
            return true;
        }
        let d1 = dot(&sub(centre, &p0), &self.axis);
        let pnt = [p0[0] + dir[0] * (d1 / d2), p0[1] + dir[1] * (d1 / d2), p0[2] + dir[2] * (d1 / d2)];
        let tangent = cross(&sub(centre, &pnt), &self.axis);
        let ax = cross(&tangent, &dir);
        self.test_axis(&ax, id)
    }

    fn separating_axes(&mut self) -> bool {
        for i in 0..3 {
            let a = col(&self.box_r, i);
            if !self.test_axis(&a, 1 + i as i32) {
                return false;
            }
        }
        let axis = self.axis;
        if !self.test_axis(&axis, 4) {
            return false;
        }
        for i in 0..3 {
            // axis × box column i, in ODE's component order.
            let m = &self.box_r;
            let v = &axis;
            let a = [v[1] * m[8 + i] - v[2] * m[4 + i], v[2] * m[i] - v[0] * m[8 + i], v[0] * m[4 + i] - v[1] * m[i]];
            if len2(&a) > 1e-6 && !self.test_axis(&a, 5 + i as i32) {
                return false;
            }
        }
        for i in 0..8 {
            let t1 = sub(&self.verts[i], &self.cyl_pos);
            let t2 = cross(&axis, &t1);
            let a = cross(&axis, &t2);
            if len2(&a) > 1e-6 && !self.test_axis(&a, 8 + i as i32) {
                return false;
            }
        }
        const EDGES: [(usize, usize); 12] =
            [(1, 0), (1, 3), (2, 3), (2, 0), (4, 1), (4, 7), (0, 7), (5, 3), (5, 6), (2, 6), (4, 5), (6, 7)];
        let hs = self.size * 0.5;
        let top = [self.cyl_pos[0] + axis[0] * hs, self.cyl_pos[1] + axis[1] * hs, self.cyl_pos[2] + axis[2] * hs];
        for (k, &(a, b)) in EDGES.iter().enumerate() {
            if !self.test_edge_circle(&top, a, b, 16 + k as i32) {
                return false;
            }
        }
        let bot = [self.cyl_pos[0] - axis[0] * hs, self.cyl_pos[1] - axis[1] * hs, self.cyl_pos[2] - axis[2] * hs];
        for (k, &(a, b)) in EDGES.iter().enumerate() {
            if !self.test_edge_circle(&bot, a, b, 28 + k as i32) {
                return false;
            }
        }
        true
    }

    fn push(&self, sink: &mut ContactSink, pos: V3, depth: f64) -> bool {
        sink.push(Contact::new(pos, neg(&self.normal), depth));
        sink.is_full()
    }

    /// Clips the cylinder's side segment nearest the box against the box.
    fn clip_cylinder_to_box(&self, sink: &mut ContactSink) -> bool {
        let t = dot(&self.axis, &self.normal);
        let n = normalized([
            self.normal[0] - self.axis[0] * t,
            self.normal[1] - self.axis[1] * t,
            self.normal[2] - self.axis[2] * t,
        ]);
        let c = [
            self.cyl_pos[0] + n[0] * self.radius,
            self.cyl_pos[1] + n[1] * self.radius,
            self.cyl_pos[2] + n[2] * self.radius,
        ];
        let hs = self.size * 0.5;
        let mut e0 = [c[0] + self.axis[0] * hs, c[1] + self.axis[1] * hs, c[2] + self.axis[2] * hs];
        let mut e1 = [c[0] - self.axis[0] * hs, c[1] - self.axis[1] * hs, c[2] - self.axis[2] * hs];
        e0 = sub(&e0, &self.box_pos);
        e1 = sub(&e1, &self.box_pos);
        for sign in [1.0, -1.0] {
            for i in 0..3 {
                let a = col(&self.box_r, i);
                let a = if sign < 0.0 { neg(&a) } else { a };
                let pl = [a[0], a[1], a[2], self.half[i]];
                if !clip_edge_to_plane(&mut e0, &mut e1, &pl) {
                    return false;
                }
            }
        }
        let d0 = (self.best_rb + dot(&e0, &self.normal)).max(0.0);
        let d1 = (self.best_rb + dot(&e1, &self.normal)).max(0.0);
        let e0 = add(&e0, &self.box_pos);
        let e1 = add(&e1, &self.box_pos);
        if !self.push(sink, e0, d0) {
            self.push(sink, e1, d1);
        }
        true
    }

    /// Clips the box face most facing the cylinder against the nearer disc,
    /// approximated (as in ODE) by the octagon whose edges lie at the disc
    /// radius.
    fn clip_box_to_cylinder(&self, sink: &mut ContactSink) {
        let hs = self.size * 0.5;
        let (circle_pos, circle_n) = if dot(&self.axis, &self.normal) > 0.0 {
            (
                [
                    self.cyl_pos[0] + self.axis[0] * hs,
                    self.cyl_pos[1] + self.axis[1] * hs,
                    self.cyl_pos[2] + self.axis[2] * hs,
                ],
                [0.0, 0.0, -1.0],
            )
        } else {
            (
                [
                    self.cyl_pos[0] - self.axis[0] * hs,
                    self.cyl_pos[1] - self.axis[1] * hs,
                    self.cyl_pos[2] - self.axis[2] * hs,
                ],
                [0.0, 0.0, 1.0],
            )
        };
        let box_inv = ode_invert3(&self.box_r);
        let nr = mul0(&box_inv, &self.normal);
        let an = [nr[0].abs(), nr[1].abs(), nr[2].abs()];
        let (b0, b1, b2) = if an[1] > an[0] {
            if an[0] > an[2] {
                (1, 0, 2)
            } else if an[1] > an[2] {
                (1, 2, 0)
            } else {
                (2, 1, 0)
            }
        } else if an[1] > an[2] {
            (0, 1, 2)
        } else if an[0] > an[2] {
            (0, 2, 1)
        } else {
            (2, 0, 1)
        };
        let t = col(&self.box_r, b0);
        let h0 = self.half[b0];
        let centre = if nr[b0] > 0.0 {
            [self.box_pos[0] - h0 * t[0], self.box_pos[1] - h0 * t[1], self.box_pos[2] - h0 * t[2]]
        } else {
            [self.box_pos[0] + h0 * t[0], self.box_pos[1] + h0 * t[1], self.box_pos[2] + h0 * t[2]]
        };
        let a1 = col(&self.box_r, b1);
        let a2 = col(&self.box_r, b2);
        let (h1, h2) = (self.half[b1], self.half[b2]);
        let corner = |s1: f64, s2: f64| -> V3 {
            // centre ± h1*a1 ± h2*a2, evaluated left to right as ODE does.
            let mut p = [0.0; 3];
            for k in 0..3 {
                let x = if s1 > 0.0 { centre[k] + h1 * a1[k] } else { centre[k] - h1 * a1[k] };
                p[k] = if s2 > 0.0 { x + h2 * a2[k] } else { x - h2 * a2[k] };
            }
            p
        };
        let pts = [corner(1.0, -1.0), corner(-1.0, -1.0), corner(-1.0, 1.0), corner(1.0, 1.0)];
        let cyl_inv = ode_invert3(&self.cyl_r);
        let mut poly = Poly::from_slice(&pts.map(|p| mul0(&cyl_inv, &sub(&p, &circle_pos))));
        let mut tmp = Poly::new();
        clip_poly_to_plane(&poly, &mut tmp, &[circle_n[0], circle_n[1], circle_n[2], 0.0]);
        std::mem::swap(&mut poly, &mut tmp);
        let mut angle = std::f64::consts::PI / CYL_SEGMENTS as f64;
        let inc = angle * 2.0;
        for _ in 0..CYL_SEGMENTS {
            let pl = [-angle.cos(), -angle.sin(), 0.0, self.radius];
            clip_poly_to_plane(&poly, &mut tmp, &pl);
            std::mem::swap(&mut poly, &mut tmp);
            angle += inc;
        }
        for p in poly.iter() {
            let mut q = mul0(&self.cyl_r, p);
            q = add(&q, &circle_pos);
            let d = self.best_rc - dot(&sub(&q, &self.cyl_pos), &self.normal);
            if d > 0.0 && self.push(sink, q, d) {
                break;
            }
        }
    }
}

/// Cylinder (a) against box (b).
pub fn collide_cylinder_box(cyl: &Cylinder, pc: &Pose, bx: &BoxShape, pb: &Pose, sink: &mut ContactSink) -> usize {
    if sink.max() == 0 {
        return 0;
    }
    let start = sink.len();
    let mut d = CylBox::new(cyl, pc, bx, pb);
    if !d.separating_axes() || d.best_axis == 0 {
        return 0;
    }
    if dot(&d.normal, &d.axis).abs() < 0.9 {
        if !d.clip_cylinder_to_box(sink) {
            return 0;
        }
    } else {
        d.clip_box_to_cylinder(sink);
    }
    sink.len() - start
}
