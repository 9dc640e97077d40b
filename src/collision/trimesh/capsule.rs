//! Trimesh–capsule, per touched triangle whose front half-space holds the
//! capsule centre:
//! - when the axis segment's closest point to the triangle projects
//!   inside it (a face contact), the segment clipped to the triangle's
//!   prism gives up to two contacts (its clipped ends), each at the
//!   deepest point of the end sphere, normal = −face normal, depth =
//!   r − height above the plane;
//! - otherwise one contact at the closest point of the triangle's edge or
//!   vertex, normal from the axis to that point, depth = r − distance;
//!   with use flags (Preprocess) only the owner of a convex edge or of a
//!   vertex reports it, so shared features count once.
//! side1 = triangle index; duplicates are merged as for boxes.

use super::*;
use crate::collision::contact::{Contact, ContactSink};
use crate::collision::shapes::Capsule;

fn capsule_triangle(data: &TriMeshData, t: usize, p0: &[f64; 3], p1: &[f64; 3], r: f64, tri: &[[f64; 3]; 3], out: &mut Vec<Contact>) {
    let Some(n) = tri_normal(tri) else { return };
    let mid = scale(&add(p0, p1), 0.5);
    if dot(&n, &sub(&mid, &tri[0])) < 0.0 {
        return;
    }
    // Closest points segment–triangle: test the segment ends against the
    // face and the segment against each edge.
    let mut best = (f64::INFINITY, [0.0; 3], [0.0; 3], Feature::Face);
    let mut consider = |sp: [f64; 3], tp: [f64; 3], f: Feature| {
        let d = norm(&sub(&sp, &tp));
        if d < best.0 {
            best = (d, sp, tp, f);
        }
    };
    // Segment crossing the triangle plane inside the triangle.
    let (h0, h1) = (dot(&n, &sub(p0, &tri[0])), dot(&n, &sub(p1, &tri[0])));
    for p in [p0, p1] {
        let (cp, f) = closest_on_triangle(p, tri);
        consider(*p, cp, f);
    }
    if (h0 > 0.0) != (h1 > 0.0) {
        let s = h0 / (h0 - h1);
        let x = add(p0, &scale(&sub(p1, p0), s));
        let (cp, f) = closest_on_triangle(&x, tri);
        if f == Feature::Face {
            consider(x, cp, f);
        }
    }
    for e in 0..3 {
        let (a, b) = (tri[e], tri[(e + 1) % 3]);
        let (s, u) = closest_segments(p0, p1, &a, &b);
        let sp = add(p0, &scale(&sub(p1, p0), s));
        let tp = add(&a, &scale(&sub(&b, &a), u));
        let f = if u <= 0.0 { Feature::Vertex(e) } else if u >= 1.0 { Feature::Vertex((e + 1) % 3) } else { Feature::Edge(e) };
        consider(sp, tp, f);
    }
    let (dist, sp, tp, feature) = best;
    if dist > r {
        return;
    }
    let inside = closest_on_triangle(&sp, tri).1 == Feature::Face;
    if feature == Feature::Face || inside {
        // Clip the segment to the prism over the triangle.
        let (mut s0, mut s1) = (0.0f64, 1.0f64);
        let d = sub(p1, p0);
        for e in 0..3 {
            let inward = cross(&n, &sub(&tri[(e + 1) % 3], &tri[e]));
            let a = dot(&inward, &sub(p0, &tri[e]));
            let b = dot(&inward, &d);
            if b == 0.0 {
                if a < 0.0 {
                    return;
                }
            } else {
                let s = -a / b;
                if b > 0.0 {
                    s0 = s0.max(s);
                } else {
                    s1 = s1.min(s);
                }
            }
        }
        if s0 > s1 {
            return;
        }
        let ends = if s1 - s0 < 1e-12 { vec![s0] } else { vec![s0, s1] };
        for s in ends {
            let q = add(p0, &scale(&d, s));
            let hq = dot(&n, &sub(&q, &tri[0]));
            let depth = r - hq;
            if depth > 0.0 {
                out.push(Contact::new(sub(&q, &scale(&n, r)), scale(&n, -1.0), depth));
            }
        }
        return;
    }
    let usable = match feature {
        Feature::Edge(e) => data.edge_usable(t, e),
        Feature::Vertex(k) => data.vertex_usable(t, k),
        Feature::Face => true,
    };
    if !usable {
        return;
    }
    let normal = if dist > 1e-12 { scale(&sub(&tp, &sp), 1.0 / dist) } else { scale(&n, -1.0) };
    out.push(Contact::new(tp, normal, r - dist));
}

pub fn collide_trimesh_capsule(mesh: &Mesh, host: &dyn TriHost, cap: &Capsule, cp: &Pose, sink: &mut ContactSink) -> usize {
    let c = [cp.pos[0], cp.pos[1], cp.pos[2]];
    let a = cp.axis(2);
    let hl = cap.length * 0.5;
    let (p0, p1) = (sub(&c, &scale(&a, hl)), add(&c, &scale(&a, hl)));
    let r = cap.radius;
    let mn = [p0[0].min(p1[0]) - r, p0[1].min(p1[1]) - r, p0[2].min(p1[2]) - r];
    let mx = [p0[0].max(p1[0]) + r, p0[1].max(p1[1]) + r, p0[2].max(p1[2]) + r];
    let mut cand = Vec::new();
    mesh.candidates_world_box(mn, mx, &mut cand);
    let mut found: Vec<(i32, Vec<Contact>)> = Vec::new();
    for &t in &cand {
        let tri = mesh.triangle(t as usize);
        let mut cs = Vec::new();
        capsule_triangle(mesh.data, t as usize, &p0, &p1, r, &tri, &mut cs);
        if !cs.is_empty() {
            found.push((t as i32, cs));
        }
    }
    if found.is_empty() {
        return 0;
    }
    let ids: Vec<i32> = found.iter().map(|x| x.0).collect();
    host.touched(&ids);
    for (t, cs) in found {
        if !host.accept(t) {
            continue;
        }
        for mut k in cs {
            k.side1 = t;
            push_merged(sink, k);
            if sink.is_full() || sink.unimportant() {
                return sink.len();
            }
        }
    }
    sink.len()
}
