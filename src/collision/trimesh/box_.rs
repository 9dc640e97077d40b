//! Trimesh–box: a separating-axis test per touched triangle (triangle
//! normal, the three box axes; the nine edge cross products),
//! then contacts from the axis of least penetration, as ODE's OPCODE
//! build does:
//! - triangle normal: the box face most facing the triangle, clipped by
//!   the triangle's edge planes; each clipped point below the plane is a
//!   contact on the box face, normal = −face normal;
//! - box face: the triangle clipped by that face's side planes; points
//!   inside the box are contacts on the triangle, normal = the face's
//!   outward direction;
//! - edge pair: one contact at the box edge's point closest to the
//!   triangle edge.
//! Contacts at the same place with the same normal from neighbouring
//! triangles are merged (deepest kept); side1 = triangle index.

use super::*;
use crate::collision::contact::{Contact, ContactSink};
use crate::collision::shapes::BoxShape;

/// Clips polygon `poly` by the half-space n·x ≤ d.
fn clip(poly: &[[f64; 3]], n: &[f64; 3], d: f64) -> Vec<[f64; 3]> {
    let mut out = Vec::with_capacity(poly.len() + 2);
    for i in 0..poly.len() {
        let a = &poly[i];
        let b = &poly[(i + 1) % poly.len()];
        let da = dot(n, a) - d;
        let db = dot(n, b) - d;
        if da <= 0.0 {
            out.push(*a);
        }
        if (da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0) {
            let s = da / (da - db);
            out.push(add(a, &scale(&sub(b, a), s)));
        }
    }
    out
}

enum Axis {
    TriNormal,
    BoxFace(usize),
    Edges(usize, usize),
}

/// Contacts of one triangle against the box (none when separated).
fn box_triangle(c: &[f64; 3], ax: &[[f64; 3]; 3], h: &[f64; 3], tri: &[[f64; 3]; 3], out: &mut Vec<Contact>) {
    let Some(n) = tri_normal(tri) else { return };
    let proj_box = |l: &[f64; 3]| h[0] * dot(&ax[0], l).abs() + h[1] * dot(&ax[1], l).abs() + h[2] * dot(&ax[2], l).abs();
    // Triangle normal: separated unless the box straddles the plane; the
    // depth is what pushes the box out along the face normal.
    let dn = dot(&n, &sub(c, &tri[0]));
    let rn = proj_box(&n);
    let mut best = rn - dn;
    if best < 0.0 || dn + rn < 0.0 {
        return;
    }
    let mut best_axis = Axis::TriNormal;
    // Normal of the best axis, pointing from the box into the mesh.
    let mut best_n = scale(&n, -1.0);
    let tc = scale(&add(&tri[0], &add(&tri[1], &tri[2])), 1.0 / 3.0);
    let test = |l: [f64; 3], axis: Axis, bias: f64, best: &mut f64, best_axis: &mut Axis, best_n: &mut [f64; 3]| -> bool {
        let len = norm(&l);
        if len < 1e-12 {
            return true;
        }
        let l = scale(&l, 1.0 / len);
        let rb = proj_box(&l);
        let pc = dot(c, &l);
        let p = [dot(&tri[0], &l), dot(&tri[1], &l), dot(&tri[2], &l)];
        let (tmin, tmax) = (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]));
        let over = (pc + rb - tmin).min(tmax - (pc - rb));
        if over < 0.0 {
            return false;
        }
        if over * bias < *best {
            *best = over;
            *best_axis = axis;
            *best_n = if dot(&sub(&tc, c), &l) >= 0.0 { l } else { scale(&l, -1.0) };
        }
        true
    };
    for i in 0..3 {
        if !test(ax[i], Axis::BoxFace(i), 1.0 + 1e-9, &mut best, &mut best_axis, &mut best_n) {
            return;
        }
    }
    let edges = [sub(&tri[1], &tri[0]), sub(&tri[2], &tri[1]), sub(&tri[0], &tri[2])];
    for i in 0..3 {
        for (j, e) in edges.iter().enumerate() {
            // Edge axes must win clearly over face axes (stable contacts).
            if !test(cross(&ax[i], e), Axis::Edges(i, j), 1.05, &mut best, &mut best_axis, &mut best_n) {
                return;
            }
        }
    }
    match best_axis {
        Axis::TriNormal => {
            // Box face most opposite to n (facing the triangle).
            let (mut k, mut kd) = (0, 0.0f64);
            for i in 0..3 {
                let d = dot(&ax[i], &n);
                if d.abs() > kd.abs() {
                    k = i;
                    kd = d;
                }
            }
            let s = if kd > 0.0 { -1.0 } else { 1.0 };
            let fc = add(c, &scale(&ax[k], s * h[k]));
            let (u, v) = ((k + 1) % 3, (k + 2) % 3);
            let (au, av) = (scale(&ax[u], h[u]), scale(&ax[v], h[v]));
            let mut poly = vec![
                add(&fc, &add(&au, &av)),
                add(&fc, &sub(&au, &av)),
                sub(&fc, &add(&au, &av)),
                sub(&fc, &sub(&au, &av)),
            ];
            for e in 0..3 {
                // Inward side plane of edge e: (n × edge) points inside.
                let inward = cross(&n, &edges[e]);
                let out_n = scale(&inward, -1.0);
                poly = clip(&poly, &out_n, dot(&out_n, &tri[e]));
                if poly.is_empty() {
                    return;
                }
            }
            for p in poly {
                let depth = -dot(&n, &sub(&p, &tri[0]));
                if depth >= 0.0 {
                    out.push(Contact::new(p, best_n, depth));
                }
            }
        }
        Axis::BoxFace(k) => {
            // best_n points from the box to the triangle: the face is the
            // box's side facing along best_n.
            let s = if dot(&ax[k], &best_n) >= 0.0 { 1.0 } else { -1.0 };
            let fnorm = scale(&ax[k], s);
            let face_d = dot(&fnorm, c) + h[k];
            let mut poly = vec![tri[0], tri[1], tri[2]];
            for i in [(k + 1) % 3, (k + 2) % 3] {
                let pc = dot(&ax[i], c);
                poly = clip(&poly, &ax[i], pc + h[i]);
                poly = clip(&poly, &scale(&ax[i], -1.0), -(pc - h[i]));
                if poly.is_empty() {
                    return;
                }
            }
            for p in poly {
                let depth = face_d - dot(&fnorm, &p);
                if depth >= 0.0 {
                    out.push(Contact::new(p, fnorm, depth));
                }
            }
        }
        Axis::Edges(i, j) => {
            // Box edge parallel to axis i through the support corner.
            let mut corner = *c;
            for k in 0..3 {
                if k != i {
                    let s = if dot(&ax[k], &best_n) >= 0.0 { 1.0 } else { -1.0 };
                    corner = add(&corner, &scale(&ax[k], s * h[k]));
                }
            }
            let b0 = sub(&corner, &scale(&ax[i], h[i]));
            let b1 = add(&corner, &scale(&ax[i], h[i]));
            let (t0, t1) = (tri[j], tri[(j + 1) % 3]);
            let (s, t) = closest_segments(&b0, &b1, &t0, &t1);
            let pb = add(&b0, &scale(&sub(&b1, &b0), s));
            let _ = t;
            out.push(Contact::new(pb, best_n, best));
        }
    }
}

pub fn collide_trimesh_box(mesh: &Mesh, host: &dyn TriHost, b: &BoxShape, bp: &Pose, sink: &mut ContactSink) -> usize {
    let c = [bp.pos[0], bp.pos[1], bp.pos[2]];
    let ax = [bp.axis(0), bp.axis(1), bp.axis(2)];
    let h = [b.sides[0] * 0.5, b.sides[1] * 0.5, b.sides[2] * 0.5];
    let mut ext = [0.0; 3];
    for (k, e) in ext.iter_mut().enumerate() {
        *e = h[0] * ax[0][k].abs() + h[1] * ax[1][k].abs() + h[2] * ax[2][k].abs();
    }
    let mut cand = Vec::new();
    mesh.candidates_world_box(sub(&c, &ext), add(&c, &ext), &mut cand);
    let mut found: Vec<(i32, Vec<Contact>)> = Vec::new();
    for &t in &cand {
        let tri = mesh.triangle(t as usize);
        let mut cs = Vec::new();
        box_triangle(&c, &ax, &h, &tri, &mut cs);
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
