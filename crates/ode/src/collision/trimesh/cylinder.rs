//! Trimesh–cylinder, with the semantics of ODE's OPCODE build (Alen
//! Ladavac's separating-axis collider):
//! - candidate triangles are those overlapping the cylinder's box
//!   (radius, radius, half length) — an exact triangle/box test;
//! - a triangle only counts when the cylinder centre is on its front side;
//! - per triangle, the axis of least overlap among: the face normal, the
//!   cylinder axis crossed with each edge, the axes from the top cap centre
//!   towards each vertex (made perpendicular to the cylinder axis), the
//!   cylinder axis itself, and for each cap circle and triangle edge the
//!   axis perpendicular to the edge and the circle's tangent where the edge
//!   line meets the cap plane;
//! - when that axis is within ~26° of the cylinder axis the triangle is
//!   clipped by the cap facing it (as a regular octagon circumscribing the
//!   circle) and each clipped point that penetrates is a contact; otherwise
//!   the cylinder's side line nearest the triangle is clipped to the
//!   triangle's prism and both ends are contacts (depth clamped at zero,
//!   so zero-depth contacts occur, as in ODE);
//! - contacts within 1e-4 of each other in every position and normal
//!   component are merged (the deeper one stays) unless the caller asked
//!   for unimportant contacts.
//!
//! Normal: from the cylinder into the mesh (mesh is geom 1); side1 =
//! triangle index.

use super::opcode::Reused;
use super::*;
use crate::collision::contact::{Contact, ContactSink};
use crate::collision::shapes::Cylinder;
use crate::math::vec::safe_normalize3;
use std::cell::Cell;

thread_local! {
    /// The contacts gathered before merging, reused call after call.
    static LOCAL: Cell<Vec<Local>> = const { Cell::new(Vec::new()) };
}

const SEGMENTS: usize = 8;

struct Cyl {
    pos: [f64; 3],
    axis: [f64; 3],
    /// Rotation as ODE's quaternion (w, x, y, z) of the geom (see
    /// `collide_trimesh_cylinder`).
    q: [f64; 4],
    radius: f64,
    length: f64,
    /// Inward normals of the octagon's sides, in cylinder frame.
    seg_n: [[f64; 3]; SEGMENTS],
}

/// Best axis found by the separating-axis pass over one triangle.
struct Best {
    depth: f64,
    rt: f64,
    normal: [f64; 3],
    axis: u32,
}

struct Local {
    pos: [f64; 3],
    normal: [f64; 3],
    depth: f64,
    tri: i32,
    keep: bool,
}

fn test_axis(c: &Cyl, v: &[[f64; 3]; 3], axis: [f64; 3], id: u32, no_flip: bool, best: &mut Best) -> bool {
    let l = norm(&axis);
    if l < 1e-5 {
        return true;
    }
    let a = [axis[0] / l, axis[1] / l, axis[2] / l];
    let d1 = dot(&c.axis, &a);
    let half = c.length * 0.5;
    let rc = if d1.abs() > 1.0 { half.abs() } else { (half * d1).abs() + c.radius * (1.0 - d1 * d1).sqrt() };
    let p = [dot(&sub(&v[0], &c.pos), &a), dot(&sub(&v[1], &c.pos), &a), dot(&sub(&v[2], &c.pos), &a)];
    let (mut mn, mut mx) = (f64::INFINITY, f64::NEG_INFINITY);
    for x in p {
        if x < mn {
            mn = x;
        }
        if x > mx {
            mx = x;
        }
    }
    let centre = (mn + mx) * 0.5;
    let tr = (mx - mn) * 0.5;
    if centre.abs() > rc + tr {
        return false;
    }
    let depth = -(centre.abs() - (rc + tr));
    if depth < best.depth {
        best.depth = depth;
        best.rt = rc;
        best.normal = a;
        best.axis = id;
        if centre < 0.0 && !no_flip {
            best.normal = scale(&a, -1.0);
        }
    }
    true
}

/// ((v1 − v2) × v3) × v3
fn perp_axis(v1: &[f64; 3], v2: &[f64; 3], v3: &[f64; 3]) -> [f64; 3] {
    cross(&cross(&sub(v1, v2), v3), v3)
}

fn circle_edge_axis(
    c: &Cyl,
    v: &[[f64; 3]; 3],
    centre: &[f64; 3],
    e0: &[f64; 3],
    e1: &[f64; 3],
    id: u32,
    best: &mut Best,
) -> bool {
    let mut k = sub(e1, e0);
    safe_normalize3(&mut k);
    let d2 = dot(&k, &c.axis);
    if d2.abs() < 1e-5 {
        return true;
    }
    let d1 = dot(&sub(centre, e0), &c.axis);
    let pnt = [e0[0] + k[0] * d1 / d2, e0[1] + k[1] * d1 / d2, e0[2] + k[2] * d1 / d2];
    let tangent = cross(&sub(centre, &pnt), &c.axis);
    test_axis(c, v, cross(&tangent, &k), id, false, best)
}

fn separating_axes(c: &Cyl, v: &[[f64; 3]; 3], n: &[f64; 3], e: &[[f64; 3]; 3], best: &mut Best) -> bool {
    let half = c.length * 0.5;
    let top = add(&c.pos, &scale(&c.axis, half));
    let bottom = sub(&c.pos, &scale(&c.axis, half));
    best.axis = 0;
    test_axis(c, v, scale(n, -1.0), 1, true, best)
        && test_axis(c, v, cross(&c.axis, &e[0]), 2, false, best)
        && test_axis(c, v, cross(&c.axis, &e[1]), 3, false, best)
        && test_axis(c, v, cross(&c.axis, &e[2]), 4, false, best)
        && test_axis(c, v, perp_axis(&v[0], &top, &c.axis), 11, false, best)
        && test_axis(c, v, perp_axis(&v[1], &top, &c.axis), 12, false, best)
        && test_axis(c, v, perp_axis(&v[2], &top, &c.axis), 13, false, best)
        && test_axis(c, v, c.axis, 14, false, best)
        && circle_edge_axis(c, v, &top, &v[0], &v[1], 15, best)
        && circle_edge_axis(c, v, &top, &v[1], &v[2], 16, best)
        && circle_edge_axis(c, v, &top, &v[0], &v[2], 17, best)
        && circle_edge_axis(c, v, &bottom, &v[0], &v[1], 18, best)
        && circle_edge_axis(c, v, &bottom, &v[1], &v[2], 19, best)
        && circle_edge_axis(c, v, &bottom, &v[0], &v[2], 20, best)
}

/// Keeps the part of segment (a, b) where n·x + d ≥ 0; false if none.
fn clip_edge(a: &mut [f64; 3], b: &mut [f64; 3], n: &[f64; 3], d: f64) -> bool {
    let d0 = dot(n, a) + d;
    let d1 = dot(n, b) + d;
    if d0 < 0.0 && d1 < 0.0 {
        return false;
    }
    if (d0 > 0.0 && d1 < 0.0) || (d0 < 0.0 && d1 > 0.0) {
        let t = d0 - d1;
        let x = [a[0] - (a[0] - b[0]) * d0 / t, a[1] - (a[1] - b[1]) * d0 / t, a[2] - (a[2] - b[2]) * d0 / t];
        if d0 < 0.0 {
            *a = x;
        } else {
            *b = x;
        }
    }
    true
}

/// Keeps the part of polygon `inp` where n·x + d ≥ 0.
fn clip_poly(inp: &[[f64; 3]], n: &[f64; 3], d: f64, out: &mut Poly16) {
    out.clear();
    // Edges (last, first), (first, second), ... as ODE walks them.
    for i in 0..inp.len() {
        let (a, b) = (&inp[(i + inp.len() - 1) % inp.len()], &inp[i]);
        let d0 = dot(n, a) + d;
        let d1 = dot(n, b) + d;
        if d0 >= 0.0 {
            out.push(*a);
        }
        if (d0 > 0.0 && d1 < 0.0) || (d0 < 0.0 && d1 > 0.0) {
            let t = d0 - d1;
            out.push([a[0] - (a[0] - b[0]) * d0 / t, a[1] - (a[1] - b[1]) * d0 / t, a[2] - (a[2] - b[2]) * d0 / t]);
        }
    }
}

fn clip_side_line(
    c: &Cyl,
    v: &[[f64; 3]; 3],
    n: &[f64; 3],
    e: &[[f64; 3]; 3],
    best: &Best,
    out: &mut Vec<Local>,
    max: usize,
) {
    let t = dot(&c.axis, &best.normal);
    let n2 = sub(&best.normal, &scale(&c.axis, t));
    let l = norm(&n2);
    if l < 1e-5 {
        return;
    }
    let n2 = [n2[0] / l, n2[1] / l, n2[2] / l];
    let base = add(&c.pos, &scale(&n2, c.radius));
    let half = c.length * 0.5;
    let mut p0 = sub(&add(&base, &scale(&c.axis, half)), &v[0]);
    let mut p1 = sub(&sub(&base, &scale(&c.axis, half)), &v[0]);
    if !clip_edge(&mut p0, &mut p1, &scale(n, -1.0), 0.0) {
        return;
    }
    if !clip_edge(&mut p0, &mut p1, &cross(n, &e[0]), 1e-5) {
        return;
    }
    let pn = cross(n, &e[1]);
    let d = dot(&e[0], &pn) - 1e-5;
    if !clip_edge(&mut p0, &mut p1, &pn, -d) {
        return;
    }
    if !clip_edge(&mut p0, &mut p1, &cross(n, &e[2]), 1e-5) {
        return;
    }
    for p in [add(&p0, &v[0]), add(&p1, &v[0])] {
        let rest = -dot(&sub(&p, &c.pos), &best.normal) + best.rt;
        let mut depth = best.depth - rest;
        if depth < 0.0 {
            depth = 0.0;
        }
        out.push(Local { pos: p, normal: best.normal, depth, tri: -1, keep: true });
        if out.len() >= max {
            return;
        }
    }
}

fn clip_cap(c: &Cyl, v: &[[f64; 3]; 3], best: &Best, out: &mut Vec<Local>, max: usize) {
    let half = c.length * 0.5;
    let (centre, rel_z) = if dot(&c.axis, &best.normal) > 0.0 {
        (add(&c.pos, &scale(&c.axis, half)), -1.0)
    } else {
        (sub(&c.pos, &scale(&c.axis, half)), 1.0)
    };
    // Triangle into the cap's frame through the inverse quaternion (as
    // ODE: rounding decides which points on a clip plane survive).
    let inv = quat_inv(&c.q);
    let pts = [
        quat_transform(&inv, &sub(&v[0], &centre)),
        quat_transform(&inv, &sub(&v[1], &centre)),
        quat_transform(&inv, &sub(&v[2], &centre)),
    ];
    let mut a = Poly16::EMPTY;
    let mut b = Poly16::EMPTY;
    clip_poly(&pts, &[0.0, 0.0, rel_z], 0.0, &mut a);
    for s in 0..SEGMENTS {
        clip_poly(&a, &c.seg_n[s], c.radius, &mut b);
        std::mem::swap(&mut a, &mut b);
    }
    for p in a.iter() {
        let w = add(&quat_transform(&c.q, p), &centre);
        let depth = best.rt - dot(&sub(&w, &c.pos), &best.normal).abs();
        if depth > 0.0 {
            out.push(Local { pos: w, normal: best.normal, depth, tri: -1, keep: true });
            if out.len() >= max {
                return;
            }
        }
    }
}

/// Inverse of quaternion `q` divided by its squared norm, as ODE computes it
/// (a body's quaternion is unit only to rounding, and the last bits show in
/// the cap contacts); identity for a zero quaternion.
fn quat_inv(q: &[f64; 4]) -> [f64; 4] {
    let norm = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    if norm > 0.0 {
        let k = -1.0 / norm;
        [-q[0] * k, q[1] * k, q[2] * k, q[3] * k]
    } else {
        [1.0, 0.0, 0.0, 0.0]
    }
}

/// Rotates `s` by quaternion `q` (w, x, y, z), in ODE's operation order.
fn quat_transform(q: &[f64; 4], s: &[f64; 3]) -> [f64; 3] {
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

fn one_triangle(c: &Cyl, v: &[[f64; 3]; 3], out: &mut Vec<Local>, max: usize) {
    let e1 = sub(&v[2], &v[1]);
    let mut n = cross(&e1, &sub(&v[0], &v[1]));
    if !safe_normalize3(&mut n) {
        return;
    }
    if dot(&n, &c.pos) - dot(&v[0], &n) < 0.0 {
        return;
    }
    let e = [sub(&v[1], &v[0]), e1, sub(&v[0], &v[2])];
    let mut best = Best { depth: f64::INFINITY, rt: 0.0, normal: [0.0; 3], axis: 0 };
    if !separating_axes(c, v, &n, &e, &mut best) || best.axis == 0 {
        return;
    }
    if dot(&best.normal, &c.axis).abs() < 0.9 {
        clip_side_line(c, v, &n, &e, &best, out, max);
    } else {
        clip_cap(c, v, &best, out, max);
    }
}

/// `cq` is the cylinder's quaternion as ODE reads it (`geom::quaternion`:
/// the body's own for a geom on a body without offset), which places the
/// cap contacts.
pub fn collide_trimesh_cylinder(
    mesh: &Mesh,
    host: &dyn TriHost,
    cy: &Cylinder,
    cp: &Pose,
    cq: [f64; 4],
    sink: &mut ContactSink,
) -> usize {
    let max = sink.max();
    if max == 0 {
        return 0;
    }
    let mut seg_n = [[0.0; 3]; SEGMENTS];
    let step = std::f64::consts::PI / SEGMENTS as f64;
    let mut ang = step;
    for s in seg_n.iter_mut() {
        *s = [-ang.cos(), -ang.sin(), 0.0];
        ang += 2.0 * step;
    }
    let c = Cyl {
        pos: [cp.pos[0], cp.pos[1], cp.pos[2]],
        axis: cp.axis(2),
        q: cq,
        radius: cy.radius,
        length: cy.length,
        seg_n,
    };
    let cand = mesh.candidates_obb(cp, &[c.radius, c.radius, c.length * 0.5]);
    if cand.is_empty() {
        return 0;
    }
    host.touched(&cand);
    let mut local = Reused::take(&LOCAL);
    for &t in cand.iter() {
        if !host.accept(t) {
            continue;
        }
        let first = local.len();
        one_triangle(&c, &mesh.triangle(t as usize), &mut local, max);
        for l in &mut local[first..] {
            l.tri = t;
        }
        if local.len() >= max {
            break;
        }
    }
    if local.len() > 1 && !sink.unimportant() {
        let near = |a: &[f64; 3], b: &[f64; 3]| (0..3).all(|k| (a[k] - b[k]).abs() < 1e-4);
        for i in 0..local.len() {
            for j in i + 1..local.len() {
                if near(&local[i].pos, &local[j].pos) && near(&local[i].normal, &local[j].normal) {
                    if local[j].depth > local[i].depth {
                        local[i].keep = false;
                    } else {
                        local[j].keep = false;
                    }
                }
            }
        }
    }
    for l in local.iter().filter(|l| l.keep) {
        let mut k = Contact::new(l.pos, l.normal, l.depth);
        k.side1 = l.tri;
        if !sink.push(k) {
            break;
        }
    }
    sink.len()
}
