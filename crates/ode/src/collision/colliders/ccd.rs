//! Minkowski Portal Refinement (Snethen's XenoCollide algorithm) in the
//! form libccd 2.1 implements it, for the pairs Debian's ODE routes through
//! libccd: convex against sphere, box, capsule, cylinder and convex, and
//! capsule–cylinder. One contact: depth and direction from the portal
//! face nearest the origin once it stops moving by more than the
//! tolerance (1e-6, ODE's setting), position from the barycentric
//! coordinates of the origin's projection mapped back onto both shapes.
//! The normal is the negated penetration direction, so moving shape 1
//! along it by the depth separates the pair.
//!
//! Shapes are presented as support mappings over rotations held as
//! quaternions (ODE converts each geom's rotation matrix), so rounding
//! follows the reference closely; agreement is to the MPR tolerance, not
//! bit for bit.

use super::super::contact::{Contact, ContactSink};
use super::super::shapes::{BoxShape, Capsule, Cylinder, Pose, Sphere};
use super::convex::Convex;
use super::cylinder::v3::*;
use crate::collision::trimesh::face_angles::{EdgeKind, FaceAngles};
use crate::collision::trimesh::Mesh;

const EPS: f64 = f64::EPSILON;
const MAX_ITERATIONS: usize = 500;
/// libccd's portal discovery and refinement loop until the geometry
/// settles, which never happens on some absurd pairs (a box side of 1e18
/// against a unit cube makes the support points jump between the box's far
/// corners). Convergent cases take a handful of rounds; past this many the
/// pair is reported and gets no contact.
const MAX_PORTAL_ROUNDS: usize = 1000;
const TOLERANCE: f64 = 1e-6;

#[cold]
fn portal_gave_up() {
    super::give_up("dCollide: MPR found no stable portal (geometry too extreme), no contact");
}

#[inline]
fn is_zero(x: f64) -> bool {
    x.abs() < EPS
}

/// libccd's relative equality.
#[inline]
fn eq(a: f64, b: f64) -> bool {
    let ab = (a - b).abs();
    if ab < EPS {
        return true;
    }
    let (a, b) = (a.abs(), b.abs());
    if b > a {
        ab < EPS * b
    } else {
        ab < EPS * a
    }
}

/// libccd's approximate comparison with the origin.
#[inline]
fn is_origin(v: &V3) -> bool {
    eq(v[0], 0.0) && eq(v[1], 0.0) && eq(v[2], 0.0)
}

#[inline]
fn sign(x: f64) -> f64 {
    if is_zero(x) {
        0.0
    } else if x < 0.0 {
        -1.0
    } else {
        1.0
    }
}

fn normalize(v: &mut V3) {
    let k = 1.0 / len2(v).sqrt();
    *v = scale(v, k);
}

/// Quaternion (x, y, z, w) as libccd stores it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Quat([f64; 4]);

impl Quat {
    /// From ODE's (w, x, y, z) quaternion of the geom: ODE's glue reads
    /// `dGeomGetQuaternion`, which for a geom on a body (without offset)
    /// is the body's own quaternion, not one recomputed from R; the two
    /// differ in the last bits, and so would every contact.
    fn from_ode(q: &[f64; 4]) -> Quat {
        Quat([q[1], q[2], q[3], q[0]])
    }

    fn inverse(&self) -> Quat {
        let q = self.0;
        let l2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
        if l2 < EPS {
            return *self;
        }
        let k = 1.0 / l2;
        Quat([-q[0] * k, -q[1] * k, -q[2] * k, q[3] * k])
    }

    /// v + 2 q×(q×v + w v), libccd's rotation.
    fn rotate(&self, v: &V3) -> V3 {
        let [x, y, z, w] = self.0;
        let (vx, vy, vz) = (v[0], v[1], v[2]);
        let c1x = y * vz - z * vy + w * vx;
        let c1y = z * vx - x * vz + w * vy;
        let c1z = x * vy - y * vx + w * vz;
        let c2x = y * c1z - z * c1y;
        let c2y = z * c1x - x * c1z;
        let c2z = x * c1y - y * c1x;
        [vx + 2.0 * c2x, vy + 2.0 * c2y, vz + 2.0 * c2z]
    }
}

/// A convex shape as MPR sees it: a support mapping and a centre.
pub(crate) enum Shape<'a> {
    Sphere {
        pos: V3,
        radius: f64,
    },
    Box {
        pos: V3,
        rot: Quat,
        inv: Quat,
        half: V3,
    },
    Capsule {
        pos: V3,
        radius: f64,
        axis: V3,
        p1: V3,
        p2: V3,
    },
    Cylinder {
        pos: V3,
        radius: f64,
        axis: V3,
        p1: V3,
        p2: V3,
    },
    Convex {
        pos: V3,
        rot: Quat,
        inv: Quat,
        cvx: &'a Convex<'a>,
    },
    /// A mesh triangle in world coordinates, centred on its centroid.
    Triangle {
        pos: V3,
        v: [V3; 3],
    },
}

impl<'a> Shape<'a> {
    pub(crate) fn sphere(s: &Sphere, p: &Pose) -> Shape<'a> {
        Shape::Sphere { pos: p3(&p.pos), radius: s.radius }
    }

    pub(crate) fn boxed(b: &BoxShape, p: &Pose, q: &[f64; 4]) -> Shape<'a> {
        let rot = Quat::from_ode(q);
        Shape::Box {
            pos: p3(&p.pos),
            rot,
            inv: rot.inverse(),
            half: [b.sides[0] * 0.5, b.sides[1] * 0.5, b.sides[2] * 0.5],
        }
    }

    pub(crate) fn capsule(c: &Capsule, p: &Pose, q: &[f64; 4]) -> Shape<'a> {
        let rot = Quat::from_ode(q);
        let pos = p3(&p.pos);
        let axis = rot.rotate(&[0.0, 0.0, c.length / 2.0]);
        Shape::Capsule { pos, radius: c.radius, axis, p1: add(&axis, &pos), p2: add(&scale(&axis, -1.0), &pos) }
    }

    pub(crate) fn cylinder(c: &Cylinder, p: &Pose, q: &[f64; 4]) -> Shape<'a> {
        let rot = Quat::from_ode(q);
        let pos = p3(&p.pos);
        let half_axis = rot.rotate(&[0.0, 0.0, c.length / 2.0]);
        let mut axis = half_axis;
        let l = len2(&axis).sqrt();
        if l >= EPS {
            axis = scale(&axis, 1.0 / l);
        }
        Shape::Cylinder {
            pos,
            radius: c.radius,
            axis,
            p1: add(&half_axis, &pos),
            p2: add(&scale(&half_axis, -1.0), &pos),
        }
    }

    pub(crate) fn convex(c: &'a Convex, p: &Pose, q: &[f64; 4]) -> Shape<'a> {
        let rot = Quat::from_ode(q);
        Shape::Convex { pos: p3(&p.pos), rot, inv: rot.inverse(), cvx: c }
    }

    fn center(&self) -> V3 {
        match self {
            Shape::Sphere { pos, .. }
            | Shape::Box { pos, .. }
            | Shape::Capsule { pos, .. }
            | Shape::Cylinder { pos, .. }
            | Shape::Convex { pos, .. }
            | Shape::Triangle { pos, .. } => *pos,
        }
    }

    /// Farthest point in direction `d` (unit).
    fn support(&self, d: &V3) -> V3 {
        match self {
            Shape::Sphere { pos, radius } => add(&scale(d, *radius), pos),
            Shape::Box { pos, rot, inv, half } => {
                let l = inv.rotate(d);
                let v = [sign(l[0]) * half[0], sign(l[1]) * half[1], sign(l[2]) * half[2]];
                add(&rot.rotate(&v), pos)
            }
            Shape::Capsule { radius, axis, p1, p2, .. } => {
                let v = scale(d, *radius);
                if dot(d, axis) > 0.0 {
                    add(&v, p1)
                } else {
                    add(&v, p2)
                }
            }
            Shape::Cylinder { radius, axis, p1, p2, .. } => {
                let dd = dot(d, axis);
                let mut v = if dd > 0.0 { *p1 } else { *p2 };
                let mut r = scale(axis, -dd);
                r = add(&r, d);
                let l = len2(&r).sqrt();
                if !is_zero(l) {
                    r = scale(&r, radius / l);
                    v = add(&v, &r);
                }
                v
            }
            Shape::Convex { pos, rot, inv, cvx } => {
                let l = inv.rotate(d);
                let mut best = f64::MIN;
                let mut v = [0.0; 3];
                for i in 0..cvx.point_count() {
                    let p = cvx.point(i);
                    let k = dot(&l, &p);
                    if k > best {
                        v = p;
                        best = k;
                    }
                }
                add(&rot.rotate(&v), pos)
            }
            Shape::Triangle { v, .. } => {
                // First vertex of greatest projection, as libccd's glue.
                let mut best = f64::MIN;
                let mut out = v[0];
                for p in v {
                    let k = dot(d, p);
                    if k > best {
                        out = *p;
                        best = k;
                    }
                }
                out
            }
        }
    }
}

/// A vertex of the Minkowski difference with the two support points it
/// came from.
#[derive(Clone, Copy, Debug, Default)]
struct Sup {
    v: V3,
    v1: V3,
    v2: V3,
}

fn support(a: &Shape, b: &Shape, d: &V3) -> Sup {
    let v1 = a.support(d);
    let v2 = b.support(&scale(d, -1.0));
    Sup { v: sub(&v1, &v2), v1, v2 }
}

struct Portal {
    p: [Sup; 4],
}

impl Portal {
    fn dir(&self) -> V3 {
        let a = sub(&self.p[2].v, &self.p[1].v);
        let b = sub(&self.p[3].v, &self.p[1].v);
        let mut d = cross(&a, &b);
        normalize(&mut d);
        d
    }

    fn encapsules_origin(&self, d: &V3) -> bool {
        let k = dot(d, &self.p[1].v);
        is_zero(k) || k > 0.0
    }

    fn reach_tolerance(&self, v4: &Sup, d: &V3) -> bool {
        let dv1 = dot(&self.p[1].v, d);
        let dv2 = dot(&self.p[2].v, d);
        let dv3 = dot(&self.p[3].v, d);
        let dv4 = dot(&v4.v, d);
        let m = (dv4 - dv1).min(dv4 - dv2).min(dv4 - dv3);
        eq(m, TOLERANCE) || m < TOLERANCE
    }

    fn expand(&mut self, v4: Sup) {
        let v4v0 = cross(&v4.v, &self.p[0].v);
        if dot(&self.p[1].v, &v4v0) > 0.0 {
            if dot(&self.p[2].v, &v4v0) > 0.0 {
                self.p[1] = v4;
            } else {
                self.p[3] = v4;
            }
        } else if dot(&self.p[3].v, &v4v0) > 0.0 {
            self.p[2] = v4;
        } else {
            self.p[1] = v4;
        }
    }
}

#[allow(clippy::large_enum_variant)] // returned by value on the stack: no allocation per collide
enum Discovery {
    Miss,
    Portal(Portal),
    /// The origin is the first support point (touching).
    Touch(Sup),
    /// The origin lies on the segment from the centre to the first support.
    Segment(Sup),
}

fn discover(a: &Shape, b: &Shape) -> Discovery {
    let c1 = a.center();
    let c2 = b.center();
    let mut v0 = Sup { v: sub(&c1, &c2), v1: c1, v2: c2 };
    if is_origin(&v0.v) {
        // Centres coincide: nudge the portal centre off the origin.
        v0.v = add(&v0.v, &[EPS * 10.0, 0.0, 0.0]);
    }
    let mut d = scale(&v0.v, -1.0);
    normalize(&mut d);
    let v1 = support(a, b, &d);
    let k = dot(&v1.v, &d);
    if is_zero(k) || k < 0.0 {
        return Discovery::Miss;
    }
    d = cross(&v0.v, &v1.v);
    if is_zero(len2(&d)) {
        return if is_origin(&v1.v) { Discovery::Touch(v1) } else { Discovery::Segment(v1) };
    }
    normalize(&mut d);
    let v2 = support(a, b, &d);
    let k = dot(&v2.v, &d);
    if is_zero(k) || k < 0.0 {
        return Discovery::Miss;
    }
    let mut p = Portal { p: [v0, v1, v2, Sup::default()] };
    let face_dir = |p: &Portal| -> V3 {
        let va = sub(&p.p[1].v, &p.p[0].v);
        let vb = sub(&p.p[2].v, &p.p[0].v);
        let mut d = cross(&va, &vb);
        normalize(&mut d);
        d
    };
    d = face_dir(&p);
    if dot(&d, &p.p[0].v) > 0.0 {
        p.p.swap(1, 2);
        d = scale(&d, -1.0);
    }
    for _ in 0..MAX_PORTAL_ROUNDS {
        let v3 = support(a, b, &d);
        let k = dot(&v3.v, &d);
        if is_zero(k) || k < 0.0 {
            return Discovery::Miss;
        }
        let mut cont = false;
        let va = cross(&p.p[1].v, &v3.v);
        let k = dot(&va, &p.p[0].v);
        if k < 0.0 && !is_zero(k) {
            p.p[2] = v3;
            cont = true;
        }
        if !cont {
            let va = cross(&v3.v, &p.p[2].v);
            let k = dot(&va, &p.p[0].v);
            if k < 0.0 && !is_zero(k) {
                p.p[1] = v3;
                cont = true;
            }
        }
        if cont {
            d = face_dir(&p);
        } else {
            p.p[3] = v3;
            return Discovery::Portal(p);
        }
    }
    portal_gave_up();
    Discovery::Miss
}

/// False when the origin is found outside the difference.
fn refine(a: &Shape, b: &Shape, p: &mut Portal) -> bool {
    for _ in 0..MAX_PORTAL_ROUNDS {
        let d = p.dir();
        if p.encapsules_origin(&d) {
            return true;
        }
        let v4 = support(a, b, &d);
        let k = dot(&v4.v, &d);
        let can = is_zero(k) || k > 0.0;
        if !can || p.reach_tolerance(&v4, &d) {
            return false;
        }
        p.expand(v4);
    }
    portal_gave_up();
    false
}

fn segment_dist2(p: &V3, x0: &V3, b: &V3) -> (f64, V3) {
    let d = sub(b, x0);
    let a = sub(x0, p);
    let mut t = -dot(&a, &d);
    t /= len2(&d);
    if t < 0.0 || is_zero(t) {
        (len2(&sub(x0, p)), *x0)
    } else if t > 1.0 || eq(t, 1.0) {
        (len2(&sub(b, p)), *b)
    } else {
        let w = add(&scale(&d, t), x0);
        (len2(&sub(&w, p)), w)
    }
}

/// Squared distance from `p` to triangle (x0, b, c) and the nearest point.
fn point_tri_dist2(p: &V3, x0: &V3, b: &V3, c: &V3) -> (f64, V3) {
    let d1 = sub(b, x0);
    let d2 = sub(c, x0);
    let a = sub(x0, p);
    let v = dot(&d1, &d1);
    let w = dot(&d2, &d2);
    let pp = dot(&a, &d1);
    let q = dot(&a, &d2);
    let r = dot(&d1, &d2);
    let d = w * v - r * r;
    let (s, t) = if is_zero(d) {
        (-1.0, -1.0)
    } else {
        let s = (q * r - w * pp) / d;
        (s, (-s * r - q) / w)
    };
    if (is_zero(s) || s > 0.0)
        && (eq(s, 1.0) || s < 1.0)
        && (is_zero(t) || t > 0.0)
        && (eq(t, 1.0) || t < 1.0)
        && (eq(t + s, 1.0) || t + s < 1.0)
    {
        let mut wit = *x0;
        wit = add(&wit, &scale(&d1, s));
        wit = add(&wit, &scale(&d2, t));
        (len2(&sub(&wit, p)), wit)
    } else {
        let mut best = segment_dist2(p, x0, b);
        let s2 = segment_dist2(p, x0, c);
        if s2.0 < best.0 {
            best = s2;
        }
        let s3 = segment_dist2(p, b, c);
        if s3.0 < best.0 {
            best = s3;
        }
        best
    }
}

fn find_pos(p: &Portal) -> V3 {
    let d = p.dir();
    let v = |i: usize| p.p[i].v;
    let mut b = [
        dot(&cross(&v(1), &v(2)), &v(3)),
        dot(&cross(&v(3), &v(2)), &v(0)),
        dot(&cross(&v(0), &v(1)), &v(3)),
        dot(&cross(&v(2), &v(1)), &v(0)),
    ];
    let mut sum = b[0] + b[1] + b[2] + b[3];
    if is_zero(sum) || sum < 0.0 {
        b[0] = 0.0;
        b[1] = dot(&cross(&v(2), &v(3)), &d);
        b[2] = dot(&cross(&v(3), &v(1)), &d);
        b[3] = dot(&cross(&v(1), &v(2)), &d);
        sum = b[1] + b[2] + b[3];
    }
    let inv = 1.0 / sum;
    let mut p1 = [0.0; 3];
    let mut p2 = [0.0; 3];
    for i in 0..4 {
        p1 = add(&p1, &scale(&p.p[i].v1, b[i]));
        p2 = add(&p2, &scale(&p.p[i].v2, b[i]));
    }
    p1 = scale(&p1, inv);
    p2 = scale(&p2, inv);
    scale(&add(&p1, &p2), 0.5)
}

/// libccd's `ccdMPRPenetration`: (depth, direction, position) or None.
fn penetration(a: &Shape, b: &Shape) -> Option<(f64, V3, V3)> {
    match discover(a, b) {
        Discovery::Miss => None,
        Discovery::Touch(v1) => Some((0.0, [0.0; 3], scale(&add(&v1.v1, &v1.v2), 0.5))),
        Discovery::Segment(v1) => {
            let pos = scale(&add(&v1.v1, &v1.v2), 0.5);
            let mut d = v1.v;
            let depth = len2(&d).sqrt();
            normalize(&mut d);
            Some((depth, d, pos))
        }
        Discovery::Portal(mut p) => {
            if !refine(a, b, &mut p) {
                return None;
            }
            let mut it = 0;
            loop {
                let d = p.dir();
                let v4 = support(a, b, &d);
                if p.reach_tolerance(&v4, &d) || it > MAX_ITERATIONS {
                    let (d2, mut dir) = point_tri_dist2(&[0.0; 3], &p.p[1].v, &p.p[2].v, &p.p[3].v);
                    let depth = d2.sqrt();
                    if is_zero(depth) {
                        dir = [0.0; 3];
                    } else {
                        normalize(&mut dir);
                    }
                    return Some((depth, dir, find_pos(&p)));
                }
                p.expand(v4);
                it += 1;
            }
        }
    }
}

/// libccd's `ccdMPRIntersect`.
fn intersect(a: &Shape, b: &Shape) -> bool {
    match discover(a, b) {
        Discovery::Miss => false,
        Discovery::Touch(_) | Discovery::Segment(_) => true,
        Discovery::Portal(mut p) => refine(a, b, &mut p),
    }
}

/// ODE's generic libccd pair: one contact from the penetration query.
/// With `CONTACTS_UNIMPORTANT` ODE only runs the intersection test and
/// returns 1 without writing the contact; we return the same count but
/// fill the record (from the penetration query, or a zero-depth contact
/// between the centres if that query disagrees) so it is never garbage.
fn mpr_collide(a: &Shape, b: &Shape, sink: &mut ContactSink) -> usize {
    if sink.max() == 0 {
        return 0;
    }
    if sink.unimportant() {
        if !intersect(a, b) {
            return 0;
        }
        let c = match penetration(a, b) {
            Some((depth, dir, pos)) => Contact::new(pos, scale(&dir, -1.0), depth),
            None => Contact::new(scale(&add(&a.center(), &b.center()), 0.5), [0.0; 3], 0.0),
        };
        sink.push(c);
        return 1;
    }
    match penetration(a, b) {
        Some((depth, dir, pos)) => {
            sink.push(Contact::new(pos, scale(&dir, -1.0), depth));
            1
        }
        None => 0,
    }
}

/// A geom's pose with the quaternion ODE's libccd glue would read for it
/// (`geom::quaternion`: the body's own for a geom on a body without
/// offset). `Oriented::of` recomputes it from R, as ODE does for a geom
/// without a body.
#[derive(Clone, Copy, Debug)]
pub struct Oriented<'p> {
    pub pose: &'p Pose,
    pub q: [f64; 4],
}

impl<'p> Oriented<'p> {
    pub fn new(pose: &'p Pose, q: [f64; 4]) -> Oriented<'p> {
        Oriented { pose, q }
    }

    pub fn of(pose: &'p Pose) -> Oriented<'p> {
        Oriented { pose, q: crate::math::rotation::r_to_q(&pose.r) }
    }
}

/// Convex (a) against sphere (b), through MPR as in Debian's build.
pub fn collide_convex_sphere(c: &Convex, pc: &Pose, s: &Sphere, ps: &Pose, sink: &mut ContactSink) -> usize {
    collide_convex_sphere_oriented(c, Oriented::of(pc), s, ps, sink)
}

pub fn collide_convex_sphere_oriented(
    c: &Convex,
    pc: Oriented,
    s: &Sphere,
    ps: &Pose,
    sink: &mut ContactSink,
) -> usize {
    mpr_collide(&Shape::convex(c, pc.pose, &pc.q), &Shape::sphere(s, ps), sink)
}

/// Convex (a) against box (b), through MPR.
pub fn collide_convex_box(c: &Convex, pc: &Pose, b: &BoxShape, pb: &Pose, sink: &mut ContactSink) -> usize {
    collide_convex_box_oriented(c, Oriented::of(pc), b, Oriented::of(pb), sink)
}

pub fn collide_convex_box_oriented(
    c: &Convex,
    pc: Oriented,
    b: &BoxShape,
    pb: Oriented,
    sink: &mut ContactSink,
) -> usize {
    mpr_collide(&Shape::convex(c, pc.pose, &pc.q), &Shape::boxed(b, pb.pose, &pb.q), sink)
}

/// Convex (a) against capsule (b), through MPR.
pub fn collide_convex_capsule(c: &Convex, pc: &Pose, k: &Capsule, pk: &Pose, sink: &mut ContactSink) -> usize {
    collide_convex_capsule_oriented(c, Oriented::of(pc), k, Oriented::of(pk), sink)
}

pub fn collide_convex_capsule_oriented(
    c: &Convex,
    pc: Oriented,
    k: &Capsule,
    pk: Oriented,
    sink: &mut ContactSink,
) -> usize {
    mpr_collide(&Shape::convex(c, pc.pose, &pc.q), &Shape::capsule(k, pk.pose, &pk.q), sink)
}

/// Convex (a) against cylinder (b), through MPR.
pub fn collide_convex_cylinder(c: &Convex, pc: &Pose, y: &Cylinder, py: &Pose, sink: &mut ContactSink) -> usize {
    collide_convex_cylinder_oriented(c, Oriented::of(pc), y, Oriented::of(py), sink)
}

pub fn collide_convex_cylinder_oriented(
    c: &Convex,
    pc: Oriented,
    y: &Cylinder,
    py: Oriented,
    sink: &mut ContactSink,
) -> usize {
    mpr_collide(&Shape::convex(c, pc.pose, &pc.q), &Shape::cylinder(y, py.pose, &py.q), sink)
}

/// Convex (a) against convex (b), through MPR.
pub fn collide_convex_convex(a: &Convex, pa: &Pose, b: &Convex, pb: &Pose, sink: &mut ContactSink) -> usize {
    collide_convex_convex_oriented(a, Oriented::of(pa), b, Oriented::of(pb), sink)
}

pub fn collide_convex_convex_oriented(
    a: &Convex,
    pa: Oriented,
    b: &Convex,
    pb: Oriented,
    sink: &mut ContactSink,
) -> usize {
    mpr_collide(&Shape::convex(a, pa.pose, &pa.q), &Shape::convex(b, pb.pose, &pb.q), sink)
}

/// Capsule (a) against cylinder (b), through MPR.
pub fn collide_capsule_cylinder(k: &Capsule, pk: &Pose, y: &Cylinder, py: &Pose, sink: &mut ContactSink) -> usize {
    collide_capsule_cylinder_oriented(k, Oriented::of(pk), y, Oriented::of(py), sink)
}

pub fn collide_capsule_cylinder_oriented(
    k: &Capsule,
    pk: Oriented,
    y: &Cylinder,
    py: Oriented,
    sink: &mut ContactSink,
) -> usize {
    mpr_collide(&Shape::capsule(k, pk.pose, &pk.q), &Shape::cylinder(y, py.pose, &py.q), sink)
}

// ---- cylinder–cylinder -------------------------------------------------------------------------

/// A cylinder as ODE's libccd glue describes it: centre, rotation (and its
/// inverse) as quaternions, unit axis.
struct CylFrame {
    pos: V3,
    rot: Quat,
    inv: Quat,
    axis: V3,
}

impl CylFrame {
    fn new(c: &Cylinder, p: &Pose, q: &[f64; 4]) -> CylFrame {
        let rot = Quat::from_ode(q);
        let mut axis = rot.rotate(&[0.0, 0.0, c.length / 2.0]);
        let l = len2(&axis).sqrt();
        if l >= EPS {
            axis = scale(&axis, 1.0 / l);
        }
        CylFrame { pos: p3(&p.pos), rot, inv: rot.inverse(), axis }
    }
}

/// The rim point of `pri`'s cap at `angle` (cap `length` along its axis,
/// signed), if it is within the slab of `sec`'s caps: (point, depth).
fn cyl_rim_contact(
    angle: f64,
    radius: f64,
    length: f64,
    l_sum: f64,
    pri: &CylFrame,
    sec: &CylFrame,
) -> Option<(V3, f64)> {
    let p = add(&pri.rot.rotate(&[angle.cos() * radius, angle.sin() * radius, 0.0]), &pri.pos);
    let depth = l_sum - dot(&sub(&p, &sec.pos), &sec.axis).abs();
    if depth >= 0.0 {
        Some((add(&p, &scale(&pri.axis, length)), depth))
    } else {
        None
    }
}

/// The two ends of the arc of the circle of radius `r` (centred at the
/// origin, in its cylinder's frame) that lies inside the other circle,
/// whose centre is at `q` (distance `d`) with radius `r_other`, as
/// (start angle, arc length), the arc being the one facing `q`.
fn cyl_arc(q: &V3, d_recip: f64, d_sq: f64, r_sq: f64, r_other_sq: f64) -> (f64, f64) {
    let l = (r_sq - r_other_sq + d_sq) * (0.5 * d_recip);
    let h = (r_sq - l * l).sqrt();
    let (dl, dh) = (l * d_recip, h * d_recip);
    let (x1, y1) = (dl * q[0] + dh * q[1], dl * q[1] - dh * q[0]);
    let (x2, y2) = (dl * q[0] - dh * q[1], dl * q[1] + dh * q[0]);
    let (ap1, ap2) = (y1.atan2(x1), y2.atan2(x2));
    let mut lo = if ap1 < ap2 { ap1 } else { ap2 };
    let mut hi = if ap1 > ap2 { ap1 } else { ap2 };
    let a = q[1].atan2(q[0]);
    if a < lo || a > hi {
        let t = hi;
        hi = lo + std::f64::consts::PI * 2.0;
        lo = t;
    }
    (lo, hi - lo)
}

/// ODE 0.16's special case for cylinders whose axes are (nearly) parallel
/// and whose caps overlap less than their sides: up to 8 contacts on the
/// rims of the cap discs, normal along the larger cylinder's axis. `None`
/// when the case does not apply (MPR takes over).
fn cyl_cyl_aligned(a: &Cylinder, c1: &CylFrame, b: &Cylinder, c2: &CylFrame, sink: &mut ContactSink) -> Option<usize> {
    let max_c = sink.max().min(8);
    let axes_prod = dot(&c1.axis, &c2.axis).abs();
    // ODE compares with the float literal 1e-3f.
    if 1.0 - axes_prod >= 1e-3f32 as f64 {
        return None;
    }
    let (r1, l1, r2, l2) = (a.radius, a.length * 0.5, b.radius, b.length * 0.5);
    let r1_min = r1 <= r2;
    let (rmin, rmax, minc, maxc) = if r1_min { (r1, r2, c1, c2) } else { (r2, r1, c2, c1) };
    let l_sum = l1 + l2;
    let p = sub(&minc.pos, &maxc.pos);
    let d = dot(&p, &maxc.axis);
    let s = 1.0 - axes_prod * axes_prod;
    let depth_v = l_sum - d.abs() + (if 0.0 > s { 0.0 } else { s }).sqrt() * rmin;
    if depth_v < 0.0 {
        return Some(0);
    }
    let proj = add(&scale(&maxc.axis, -d), &p);
    let radii_diff = len2(&proj).sqrt();
    let depth_h = r1 + r2 - radii_diff;
    if depth_h < 0.0 {
        return Some(0);
    }
    if depth_v >= depth_h {
        return None;
    }
    let unimportant = sink.unimportant();
    let d2 = -dot(&p, &minc.axis);
    let mut lmax = if r1_min { l2 } else { l1 };
    let mut lmin = if r1_min { l1 } else { l2 };
    if d2 < 0.0 {
        lmin = -lmin;
    }
    if d < 0.0 {
        lmax = -lmax;
    }
    let normaldir = if (d < 0.0) != r1_min { 1.0 } else { -1.0 };
    let normal = scale(&maxc.axis, normaldir);
    let add_contact = |sink: &mut ContactSink, hit: Option<(V3, f64)>| -> bool {
        match hit {
            Some((pos, depth)) => sink.push(Contact::new(pos, normal, depth)),
            None => false,
        }
    };
    if rmin + radii_diff <= rmax {
        // The smaller disc lies within the larger: points around its rim.
        let step = 2.0 * std::f64::consts::PI / max_c as f64;
        for i in 0..max_c {
            let hit = cyl_rim_contact(step * i as f64, rmin, lmin, l_sum, minc, maxc);
            if add_contact(sink, hit) && unimportant {
                break;
            }
        }
        return Some(sink.len());
    }
    // The discs' rims cross: points on both arcs bounding the overlap.
    let q_max = maxc.inv.rotate(&proj);
    let dd = (q_max[0] * q_max[0] + q_max[1] * q_max[1]).sqrt();
    let d_recip = 1.0 / dd;
    let (rmax_sq, rmin_sq, d_sq) = (rmax * rmax, rmin * rmin, dd * dd);
    let (min_a, diff_a) = cyl_arc(&q_max, d_recip, d_sq, rmax_sq, rmin_sq);
    let q_min = minc.inv.rotate(&scale(&proj, -1.0));
    let (min_b, diff_b) = cyl_arc(&q_min, d_recip, d_sq, rmin_sq, rmax_sq);
    let ratio = diff_a * rmax / (diff_a * rmax + diff_b * rmin);
    let mut n_max = (ratio * max_c as f64 + 0.5).floor() as i32;
    let mut n_min = max_c as i32 - n_max;
    if n_min < 1 {
        n_min = 1;
        n_max -= 1;
    } else if n_min > 1 {
        n_min -= 1;
        n_max += 1;
    }
    let min_step = if n_min > 0 { diff_b / (n_min + 1) as f64 } else { diff_b };
    for i in 1..=n_min {
        let hit = cyl_rim_contact(min_b + min_step * i as f64, rmin, lmin, l_sum, minc, maxc);
        if add_contact(sink, hit) && unimportant {
            break;
        }
    }
    if sink.is_empty() || !unimportant {
        let max_step = if n_max > 1 { diff_a / (n_max - 1) as f64 } else { diff_a };
        let start = if n_max == 1 { min_a + 0.5 * diff_a } else { min_a };
        for i in 0..n_max.max(0) {
            let hit = cyl_rim_contact(start + max_step * i as f64, rmax, lmax, l_sum, maxc, minc);
            if add_contact(sink, hit) && unimportant {
                break;
            }
        }
    }
    Some(sink.len())
}

/// Cylinder (a) against cylinder (b) as Debian's ODE 0.16 does it: the
/// near-parallel special case above, else one contact through MPR.
pub fn collide_cylinder_cylinder(a: &Cylinder, pa: &Pose, b: &Cylinder, pb: &Pose, sink: &mut ContactSink) -> usize {
    collide_cylinder_cylinder_oriented(a, Oriented::of(pa), b, Oriented::of(pb), sink)
}

pub fn collide_cylinder_cylinder_oriented(
    a: &Cylinder,
    pa: Oriented,
    b: &Cylinder,
    pb: Oriented,
    sink: &mut ContactSink,
) -> usize {
    if sink.max() == 0 {
        return 0;
    }
    let (c1, c2) = (CylFrame::new(a, pa.pose, &pa.q), CylFrame::new(b, pb.pose, &pb.q));
    if let Some(n) = cyl_cyl_aligned(a, &c1, b, &c2, sink) {
        return n;
    }
    mpr_collide(&Shape::cylinder(a, pa.pose, &pa.q), &Shape::cylinder(b, pb.pose, &pb.q), sink)
}

// ---- convex against a triangle mesh -----------------------------------------
//
// Debian's ODE 0.16.2 tests the convex against each candidate triangle with
// MPR, then bends each contact normal into the range the mesh's face angles
// allow at the edge the contact lies on (or onto the face normal), merges
// contacts closer than 1e-4 on every axis (normals summed, deepest depth),
// and when exactly one contact results adds up to four more from copies of
// that triangle tilted by ±0.001 rad about the contact. Two quirks are kept
// for agreement: a contact's `side2` is the triangle's position in the
// candidate list, and that position is what selects the face angles and the
// triangle to tilt. Candidates are taken in ascending index order (OPCODE
// walks its own tree, so the order can differ from Debian's when several
// triangles are candidates).

/// libccd's `ccdVec3SafeNormalize`: false (unchanged) below EPS length.
fn ccd_safe_normalize(v: &mut V3) -> bool {
    let l = len2(v).sqrt();
    if l >= EPS {
        *v = scale(v, 1.0 / l);
        true
    } else {
        false
    }
}

impl Quat {
    /// libccd's `ccdQuatSetAngleAxis`.
    fn from_angle_axis(angle: f64, axis: &V3) -> Quat {
        let a = angle / 2.0;
        let n = len2(axis).sqrt();
        if n < EPS {
            return Quat([0.0, 0.0, 0.0, 1.0]);
        }
        let s = a.sin() / n;
        let q = [axis[0] * s, axis[1] * s, axis[2] * s, a.cos()];
        // libccd normalises the result (its length is 1 only to rounding).
        let len = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
        if len < EPS {
            return Quat(q);
        }
        let k = 1.0 / len;
        Quat([q[0] * k, q[1] * k, q[2] * k, q[3] * k])
    }
}

/// A triangle as the libccd glue presents it: centre = vertex sum times the
/// single-precision 1/3 the reference uses.
fn triangle_shape(v: [V3; 3]) -> Shape<'static> {
    let third = (1.0f32 / 3.0f32) as f64;
    let mut c = [0.0; 3];
    for p in &v {
        c = add(&c, p);
    }
    Shape::Triangle { pos: scale(&c, third), v }
}

/// ODE's `ccdCollide` for one pair: the penetration contact, or with
/// `unimportant` the intersection test (the contact is then filled from the
/// penetration query when it agrees, else a zero-depth midpoint record).
fn ccd_one(a: &Shape, b: &Shape, unimportant: bool) -> Option<Contact> {
    if unimportant {
        if !intersect(a, b) {
            return None;
        }
        return Some(match penetration(a, b) {
            Some((depth, dir, pos)) => Contact::new(pos, scale(&dir, -1.0), depth),
            None => Contact::new(scale(&add(&a.center(), &b.center()), 0.5), [0.0; 3], 0.0),
        });
    }
    penetration(a, b).map(|(depth, dir, pos)| Contact::new(pos, scale(&dir, -1.0), depth))
}

/// `correct_triangle_normal` when the mesh has face angles; without them
/// (not preprocessed with them) the normal is kept as it is.
fn corrected(v: &[V3; 3], c: &mut Contact, angles: Option<&FaceAngles>) -> bool {
    angles.is_none_or(|a| correct_triangle_normal(v, c, a))
}

/// Bends the contact normal as ODE's triangle normal correction does.
/// False for a degenerate triangle (the contact is then dropped).
fn correct_triangle_normal(v: &[V3; 3], c: &mut Contact, angles: &FaceAngles) -> bool {
    let orig = c.normal;
    let mut n = c.normal;
    let scaled = scale(&n, c.depth);
    let mut edges = [sub(&v[1], &v[0]), sub(&v[2], &v[1]), sub(&v[0], &v[2])];
    let mut tri_n = cross(&edges[0], &edges[1]);
    let mut fault = !ccd_safe_normalize(&mut tri_n);
    let (mut generated, mut preserved) = (false, false);
    if !fault {
        for e in 0..3 {
            let axis = &mut edges[e];
            if !ccd_safe_normalize(axis) {
                fault = true;
                break;
            }
            let en = cross(axis, &tri_n);
            let to_pos = sub(&c.pos, &v[e]);
            if dot(&en, &sub(&to_pos, &scaled)) < 0.0 && dot(&en, &add(&to_pos, &scaled)) > 0.0 {
                // The contact straddles this edge's plane: an edge contact.
                let ang = dot(&en, &n).atan2(dot(&tri_n, &n));
                let (kind, value) = angles.get(c.side2 as usize, e);
                let target = if kind != EdgeKind::Concave {
                    // Convex or flat: keep the normal between the faces.
                    if ang < 0.0 {
                        0.0
                    } else if ang > value {
                        value
                    } else {
                        preserved = true;
                        0.0
                    }
                } else {
                    // Concave: onto the plane halfway between the faces
                    // (onto the face normal where the angle is not kept).
                    let target = if value != 0.0 { 0.5 * value } else { 0.0 };
                    preserved = ang == target;
                    target
                };
                if !preserved {
                    n = Quat::from_angle_axis(target - ang, axis).rotate(&n);
                    generated = true;
                }
                break;
            }
        }
    }
    if !fault && !preserved {
        let use_n = if generated { n } else { tri_n };
        c.normal = use_n;
        c.depth *= dot(&orig, &use_n).max(0.0);
    }
    !fault
}

thread_local! {
    /// The contacts of a convex–trimesh call being assembled, reused call
    /// after call.
    static PENDING: std::cell::Cell<Vec<Pending>> = const { std::cell::Cell::new(Vec::new()) };
}

/// A contact being assembled, with ODE's "merged" mark.
struct Pending {
    c: Contact,
    merged: bool,
}

/// ODE's unique-contact insertion: merge with a contact closer than the
/// position epsilon on every axis, else append, else (full) replace the
/// shallowest contact shallower than the new one.
fn add_unique(list: &mut Vec<Pending>, c: Contact, max: usize) {
    let eps = 0.0001f32 as f64;
    let mut min_depth = c.depth;
    let count = list.len();
    let mut index = count;
    for (k, p) in list.iter_mut().enumerate() {
        if (c.pos[0] - p.c.pos[0]).abs() < eps
            && (c.pos[1] - p.c.pos[1]).abs() < eps
            && (c.pos[2] - p.c.pos[2]).abs() < eps
        {
            p.c.normal = add(&p.c.normal, &c.normal);
            p.c.depth = p.c.depth.max(c.depth);
            p.merged = true;
            return;
        }
        if count == max && p.c.depth < min_depth {
            min_depth = p.c.depth;
            index = k;
        }
    }
    if index < max {
        if index == list.len() {
            list.push(Pending { c, merged: false });
        } else {
            list[index] = Pending { c, merged: false };
        }
    }
}

/// Rotates `s` by quaternion `q` (w, x, y, z) in ODE's `dQuatTransform`
/// operation order.
fn quat_transform(q: &[f64; 4], s: &V3) -> V3 {
    let x0 = s[0] * q[0] + s[2] * q[2] - s[1] * q[3];
    let x1 = s[1] * q[0] + s[0] * q[3] - s[2] * q[1];
    let x2 = s[2] * q[0] + s[1] * q[1] - s[0] * q[2];
    let x3 = s[0] * q[1] + s[1] * q[2] + s[2] * q[3];
    [
        q[0] * x0 + q[1] * x3 + q[2] * x2 - q[3] * x1,
        q[0] * x1 + q[2] * x3 + q[3] * x0 - q[1] * x2,
        q[0] * x2 + q[3] * x3 + q[1] * x1 - q[2] * x0,
    ]
}

/// The extra contacts from the single contact's triangle tilted by
/// ±0.001 rad about two axes perpendicular to the contact normal.
fn add_tilted(a: &Shape, mesh: &Mesh, angles: Option<&FaceAngles>, list: &mut Vec<Pending>, max: usize) {
    use crate::math::rotation::{q_from_axis_and_angle, q_mult0};
    use crate::math::vec::safe_normalize3;
    let first = list[0].c;
    let tri = mesh.triangle(first.side2 as usize);
    let pos = first.pos;
    let n = first.normal;
    let mut up: V3 = if n[1].abs() > 0.7 { [0.0, 0.0, 1.0] } else { [0.0, 1.0, 0.0] };
    let mut side = cross(&n, &up);
    if !safe_normalize3(&mut side) {
        return;
    }
    up = cross(&side, &n);
    if !safe_normalize3(&mut up) {
        return;
    }
    let mut angle = 0.001f32 as f64;
    let mut q1 = [[0.0; 4]; 2];
    let mut q2 = [[0.0; 4]; 2];
    for j in 0..2 {
        q1[j] = q_from_axis_and_angle(up[0], up[1], up[2], angle);
        q2[j] = q_from_axis_and_angle(side[0], side[1], side[2], angle);
        angle = -angle;
    }
    for k in 0..4 {
        let qr = q_mult0(&q1[k % 2], &q2[k / 2]);
        let mut v = [[0.0; 3]; 3];
        for j in 0..3 {
            v[j] = add(&quat_transform(&qr, &sub(&tri[j], &pos)), &pos);
        }
        let t = triangle_shape(v);
        if let Some(mut c) = ccd_one(a, &t, false) {
            c.side2 = list[0].c.side2;
            if corrected(&v, &mut c, angles) {
                add_unique(list, c, max);
            }
        }
    }
}

/// Convex (a, world AABB `aabb` as the geom holds it) against a triangle
/// mesh, as Debian's build does it (see above).
pub fn collide_convex_trimesh(c: &Convex, pc: Oriented, aabb: &[f64; 6], mesh: &Mesh, sink: &mut ContactSink) -> usize {
    let max = sink.max();
    if max == 0 {
        return 0;
    }
    let angles = mesh.data.face_angles.as_ref();
    if angles.is_none() {
        // ODE asserts here (the mesh must be preprocessed with face
        // angles); we report and go on without the normal correction.
        crate::error::report(
            crate::error::Channel::Debug,
            crate::error::D_ERR_UASSERT,
            "dCollide: convex against trimesh needs the mesh data preprocessed with dTRIDATAPREPROCESS_BUILD_FACE_ANGLES",
        );
    }
    let correct = |v: &[V3; 3], k: &mut Contact| corrected(v, k, angles);
    let cand = mesh.candidates_aabb(aabb);
    let a = Shape::convex(c, pc.pose, &pc.q);
    let unimportant = sink.unimportant();
    let mut list = crate::collision::trimesh::opcode::Reused::take(&PENDING);
    for (i, &t) in cand.iter().enumerate() {
        let v = mesh.triangle(t as usize);
        let tri = triangle_shape(v);
        if let Some(mut k) = ccd_one(&a, &tri, unimportant) {
            k.side2 = i as i32;
            if correct(&v, &mut k) {
                add_unique(&mut list, k, max);
                if unimportant {
                    break;
                }
            }
        }
    }
    if !unimportant && list.len() == 1 {
        add_tilted(&a, mesh, angles, &mut list, max);
    }
    // Merged contacts carry summed normals: normalise, dropping the ones
    // that cancelled out (the last contact takes their place).
    let mut k = 0;
    while k < list.len() {
        if list[k].merged && !crate::math::vec::safe_normalize3(&mut list[k].c.normal) {
            list.swap_remove(k);
            continue;
        }
        k += 1;
    }
    for p in list.iter() {
        sink.push(p.c);
    }
    sink.len()
}
