//! Trimesh–capsule with the semantics of ODE 0.16.2's OPCODE build
//! (collision_trimesh_ccylinder.cpp), written from its description:
//!
//! - candidates: the triangles overlapping the capsule's bounding box
//!   (OBB of half extents r, r, length/2 + r), in the BVH's order
//!   (ascending index; OPCODE's tree order may differ, which matters only
//!   when the contact array fills up);
//! - a triangle counts only when the capsule centre is on its front side;
//! - separating axes in ODE's order, each normalised and skipped when
//!   shorter than ODE's thresholds: −normal (not flipped), axis × edges,
//!   ((cap end − vertex) × edge) × edge for both cap-sphere centres,
//!   ((vertex − first end) × axis) × axis, vertex − cap end for both
//!   ends; edges and vertices only where the use flags (Preprocess) allow;
//!   the axis of least overlap wins (strict `>`);
//! - contacts: the capsule's segment pushed by r along the winning normal,
//!   clipped below the triangle plane and by the three edge planes (with
//!   ODE's 1e-5 slack); both clipped ends become contacts (depth clamped
//!   to 0, so zero-depth contacts occur) while the array has room;
//! - finally (unless CONTACTS_UNIMPORTANT) of any two contacts closer
//!   than 1e-4 per coordinate in position and normal the shallower is
//!   dropped; side1 = triangle index.
//!
//! The arithmetic follows ODE's operation order.

use super::opcode::Reused;
use super::*;
use crate::collision::contact::{Contact, ContactSink};
use crate::collision::shapes::Capsule;
use crate::math::vec::{normalize3, safe_normalize3};
use std::cell::Cell;

thread_local! {
    /// The contacts gathered before merging, reused call after call.
    static LOCAL: Cell<Vec<(Contact, bool)>> = const { Cell::new(Vec::new()) };
}

/// All edge and vertex flags (a mesh without use flags).
const USE_ALL: u8 = 0x3f;

struct Cap {
    c: [f64; 3],
    axis: [f64; 3],
    r: f64,
    /// Length including both caps (ODE's fCapsuleSize).
    size: f64,
}

impl Cap {
    #[inline]
    fn hs(&self) -> f64 {
        self.size * 0.5 - self.r
    }
}

/// Best axis so far.
struct Best {
    depth: f64,
    center: f64,
    rt: f64,
    normal: [f64; 3],
    axis: usize,
}

/// ODE's per-axis test; false when the axis separates.
fn test_axis(cap: &Cap, tv: &[[f64; 3]; 3], mut ax: [f64; 3], id: usize, no_flip: bool, best: &mut Best) -> bool {
    let l = (ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]).sqrt();
    if l < 1e-5 {
        return true;
    }
    normalize3(&mut ax);
    let frc = dot(&cap.axis, &ax).abs() * cap.hs() + cap.r;
    let mut fmin = f64::MAX;
    let mut fmax = -f64::MAX;
    for v in tv {
        let p = dot(v, &ax);
        if p < fmin {
            fmin = p;
        }
        if p > fmax {
            fmax = p;
        }
    }
    let center = (fmin + fmax) * 0.5;
    let tr = (fmax - fmin) * 0.5;
    if center.abs() > frc + tr {
        return false;
    }
    let depth = center.abs() - (frc + tr);
    if depth > best.depth {
        best.depth = depth;
        best.center = center;
        best.rt = tr;
        best.normal = ax;
        best.axis = id;
        if center < 0.0 && !no_flip {
            best.normal = [-ax[0], -ax[1], -ax[2]];
            best.center = -center;
        }
    }
    true
}

#[inline]
fn len2(a: &[f64; 3]) -> f64 {
    a[0] * a[0] + a[1] * a[1] + a[2] * a[2]
}

/// ((a − b) × c) × d
#[inline]
fn axis_of(a: &[f64; 3], b: &[f64; 3], c: &[f64; 3], d: &[f64; 3]) -> [f64; 3] {
    cross(&cross(&sub(a, b), c), d)
}

/// Clips segment (p0, p1) to the plane's front (distance ≥ 0), ODE's way.
fn clip_edge(p0: &mut [f64; 3], p1: &mut [f64; 3], pl: &[f64; 4]) -> bool {
    let d0 = pl[0] * p0[0] + pl[1] * p0[1] + pl[2] * p0[2] + pl[3];
    let d1 = pl[0] * p1[0] + pl[1] * p1[1] + pl[2] * p1[2] + pl[3];
    if d0 < 0.0 && d1 < 0.0 {
        return false;
    }
    if d0 > 0.0 && d1 > 0.0 {
        return true;
    }
    if (d0 > 0.0 && d1 < 0.0) || (d0 < 0.0 && d1 > 0.0) {
        let mut x = [0.0; 3];
        for k in 0..3 {
            x[k] = p0[k] - (p0[k] - p1[k]) * d0 / (d0 - d1);
        }
        if d0 < 0.0 {
            *p0 = x;
        } else {
            *p1 = x;
        }
    }
    true
}

/// Contacts of one triangle, appended to `out` while it has fewer than
/// `max` entries.
fn capsule_triangle(cap: &Cap, v: &[[f64; 3]; 3], flags: u8, max: usize, t: i32, out: &mut Vec<(Contact, bool)>) {
    let (v0, v1, v2) = (&v[0], &v[1], &v[2]);
    let e0 = sub(v1, v0);
    let e1 = sub(v2, v1);
    let e2 = sub(v0, v2);
    let mut n = cross(&e1, &sub(v0, v1));
    if !safe_normalize3(&mut n) {
        return;
    }
    let pd = -dot(v0, &n);
    let c = &cap.c;
    if n[0] * c[0] + n[1] * c[1] + n[2] * c[2] + pd < 0.0 {
        return;
    }
    // Separating axes.
    let hs = cap.hs();
    let mut cp0 = [0.0; 3];
    let mut cp1 = [0.0; 3];
    for k in 0..3 {
        cp0[k] = c[k] + cap.axis[k] * hs;
        cp1[k] = c[k] - cap.axis[k] * hs;
    }
    let tv = [sub(v0, c), sub(v1, c), sub(v2, c)];
    let mut best = Best { depth: -f64::MAX, center: 0.0, rt: 0.0, normal: [0.0; 3], axis: 0 };
    let eps = 1e-6f32 as f64;
    if !test_axis(cap, &tv, [-n[0], -n[1], -n[2]], 1, true, &mut best) {
        return;
    }
    let edges = [e0, e1, e2];
    let verts = [*v0, *v1, *v2];
    // Up to 18 axes, kept inline.
    let mut candidates = [([0.0f64; 3], 0usize); 18];
    let mut nc = 0;
    let mut push = |ax: [f64; 3], id: usize| {
        candidates[nc] = (ax, id);
        nc += 1;
    };
    for j in 0..3 {
        if flags & USE_EDGE[j] != 0 {
            push(cross(&cap.axis, &edges[j]), 2 + j);
        }
    }
    for (base, cp) in [(5, &cp0), (8, &cp1)] {
        for j in 0..3 {
            if flags & USE_EDGE[j] != 0 {
                push(axis_of(cp, &verts[j], &edges[j], &edges[j]), base + j);
            }
        }
    }
    for j in 0..3 {
        if flags & USE_VERTEX[j] != 0 {
            push(axis_of(&verts[j], &cp0, &cap.axis, &cap.axis), 11 + j);
        }
    }
    for (base, cp) in [(14, &cp0), (17, &cp1)] {
        for j in 0..3 {
            if flags & USE_VERTEX[j] != 0 {
                push(sub(&verts[j], cp), base + j);
            }
        }
    }
    for &(ax, id) in &candidates[..nc] {
        if len2(&ax) > eps && !test_axis(cap, &tv, ax, id, false, &mut best) {
            return;
        }
    }
    if best.axis == 0 {
        return;
    }
    // Contacts: the segment moved onto the capsule surface along the
    // normal, clipped to the triangle's prism.
    let nb = best.normal;
    let mut ct = [0.0; 3];
    for k in 0..3 {
        ct[k] = c[k] + nb[k] * cap.r;
    }
    let mut p0 = [0.0; 3];
    let mut p1 = [0.0; 3];
    for k in 0..3 {
        p0[k] = ct[k] + cap.axis[k] * hs;
        p1[k] = ct[k] - cap.axis[k] * hs;
    }
    for k in 0..3 {
        p0[k] -= v0[k];
        p1[k] -= v0[k];
    }
    if !clip_edge(&mut p0, &mut p1, &[-n[0], -n[1], -n[2], 0.0]) {
        return;
    }
    let t0 = cross(&n, &e0);
    if !clip_edge(&mut p0, &mut p1, &[t0[0], t0[1], t0[2], 1e-5]) {
        return;
    }
    let t1 = cross(&n, &e1);
    if !clip_edge(&mut p0, &mut p1, &[t1[0], t1[1], t1[2], -(dot(&e0, &t1) - 1e-5)]) {
        return;
    }
    let t2 = cross(&n, &e2);
    if !clip_edge(&mut p0, &mut p1, &[t2[0], t2[1], t2[2], 1e-5]) {
        return;
    }
    for k in 0..3 {
        p0[k] += v0[k];
        p1[k] += v0[k];
    }
    let off = best.center - best.rt;
    let mut d0 = dot(&sub(&p0, c), &nb) - off;
    let mut d1 = dot(&sub(&p1, c), &nb) - off;
    if d0 < 0.0 {
        d0 = 0.0;
    }
    if d1 < 0.0 {
        d1 = 0.0;
    }
    let mut k0 = Contact::new(p0, nb, d0);
    k0.side1 = t;
    out.push((k0, true));
    if out.len() < max {
        let mut k1 = Contact::new(p1, nb, d1);
        k1.side1 = t;
        out.push((k1, true));
    }
}

fn near(a: &Contact, b: &Contact) -> bool {
    const E: f64 = 1e-4;
    (0..3).all(|k| (a.pos[k] - b.pos[k]).abs() < E) && (0..3).all(|k| (a.normal[k] - b.normal[k]).abs() < E)
}

pub fn collide_trimesh_capsule(
    mesh: &Mesh,
    host: &dyn TriHost,
    cap: &Capsule,
    cp: &Pose,
    sink: &mut ContactSink,
) -> usize {
    let cap = Cap {
        c: [cp.pos[0], cp.pos[1], cp.pos[2]],
        axis: cp.axis(2),
        r: cap.radius,
        size: cap.length + 2.0 * cap.radius,
    };
    let cand = mesh.candidates_obb(cp, &[cap.r, cap.r, cap.size * 0.5]);
    if cand.is_empty() {
        return 0;
    }
    host.touched(&cand);
    let max = sink.max();
    let mut local = Reused::take(&LOCAL);
    for &t in cand.iter() {
        if !host.accept(t) {
            continue;
        }
        let v = mesh.triangle(t as usize);
        let flags = mesh.data.flags(t as usize).unwrap_or(USE_ALL);
        capsule_triangle(&cap, &v, flags, max, t, &mut local);
        if local.len() >= max {
            break;
        }
    }
    if local.len() > 1 && !sink.unimportant() {
        for i in 0..local.len() - 1 {
            for j in i + 1..local.len() {
                if near(&local[i].0, &local[j].0) {
                    if local[j].0.depth > local[i].0.depth {
                        local[i].1 = false;
                    } else {
                        local[j].1 = false;
                    }
                }
            }
        }
    }
    for &(k, keep) in local.iter() {
        if sink.is_full() {
            break;
        }
        if keep {
            sink.push(k);
        }
    }
    sink.len()
}
