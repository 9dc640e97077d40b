//! Trimesh–sphere (ODE's semantics with OPCODE, not merged):
//! the candidates are OPCODE's sphere query (tree order, node boxes only);
//! the array callback sees that whole list. Then, in that order until the
//! contact array is full: one contact per accepted triangle whose front
//! half-space holds the sphere centre, at the closest point of the
//! triangle, with the normal against the triangle's face normal and the
//! depth (r − distance) projected on that normal; side1 = triangle index.
//!
//! The closest point is found as ODE finds it (the classic region walk of
//! the point-to-triangle distance over the parameters (u, v) of the two
//! edges from vertex 0, in the same operation order), so that positions,
//! normals and depths are ODE's to the last bit on the same triangle.

use super::opcode::{sphere_candidates, with_scratch, SphereQuery};
use super::*;
use crate::collision::contact::{Contact, ContactSink};
use crate::collision::shapes::Sphere;
use crate::math::vec::safe_normalize3;

/// Squared distance from `p` to the triangle v0 + u e0 + v e1 (u, v ≥ 0,
/// u + v ≤ 1) and the parameters (u, v) of the closest point.
fn closest_params(p: &[f64; 3], v0: &[f64; 3], e0: &[f64; 3], e1: &[f64; 3]) -> (f64, f64, f64) {
    let diff = sub(v0, p);
    let a00 = dot(e0, e0);
    let a01 = dot(e0, e1);
    let a11 = dot(e1, e1);
    let b0 = dot(&diff, e0);
    let b1 = dot(&diff, e1);
    let c = dot(&diff, &diff);
    let det = (a00 * a11 - a01 * a01).abs();
    let mut u = a01 * b1 - a11 * b0;
    let mut v = a01 * b0 - a00 * b1;
    // Distance² at (u, v) on the plane (the general quadratic form).
    let quad = |u: f64, v: f64| u * (a00 * u + a01 * v + 2.0 * b0) + v * (a01 * u + a11 * v + 2.0 * b1) + c;
    // Minimum over one edge from vertex 0: t ∈ [0, 1] along an edge of
    // squared length `a`, with linear term `b`.
    let edge = |a: f64, b: f64| -> (f64, f64) {
        if b >= 0.0 {
            (0.0, c)
        } else if -b >= a {
            (1.0, a + 2.0 * b + c)
        } else {
            let t = -b / a;
            (t, b * t + c)
        }
    };
    let d2;
    if u + v <= det {
        if u < 0.0 {
            if v < 0.0 {
                // Behind both edges from vertex 0: the nearer of them.
                if b0 < 0.0 {
                    v = 0.0;
                    if -b0 >= a00 {
                        u = 1.0;
                        d2 = a00 + 2.0 * b0 + c;
                    } else {
                        u = -b0 / a00;
                        d2 = b0 * u + c;
                    }
                } else {
                    u = 0.0;
                    (v, d2) = edge(a11, b1);
                }
            } else {
                u = 0.0;
                (v, d2) = edge(a11, b1);
            }
        } else if v < 0.0 {
            v = 0.0;
            (u, d2) = edge(a00, b0);
        } else if det == 0.0 {
            // Degenerate triangle: no interior minimum.
            u = 0.0;
            v = 0.0;
            d2 = f32::MAX as f64;
        } else {
            let inv = 1.0 / det;
            u *= inv;
            v *= inv;
            d2 = quad(u, v);
        }
    } else if u < 0.0 {
        // Beyond the far edge, on the side of edge e1.
        let t0 = a01 + b0;
        let t1 = a11 + b1;
        if t1 > t0 {
            let num = t1 - t0;
            let den = a00 - 2.0 * a01 + a11;
            if num >= den {
                u = 1.0;
                v = 0.0;
                d2 = a00 + 2.0 * b0 + c;
            } else {
                u = num / den;
                v = 1.0 - u;
                d2 = quad(u, v);
            }
        } else {
            u = 0.0;
            if t1 <= 0.0 {
                v = 1.0;
                d2 = a11 + 2.0 * b1 + c;
            } else if b1 >= 0.0 {
                v = 0.0;
                d2 = c;
            } else {
                v = -b1 / a11;
                d2 = b1 * v + c;
            }
        }
    } else if v < 0.0 {
        // Beyond the far edge, on the side of edge e0.
        let t0 = a01 + b1;
        let t1 = a00 + b0;
        if t1 > t0 {
            let num = t1 - t0;
            let den = a00 - 2.0 * a01 + a11;
            if num >= den {
                v = 1.0;
                u = 0.0;
                d2 = a11 + 2.0 * b1 + c;
            } else {
                v = num / den;
                u = 1.0 - v;
                d2 = quad(u, v);
            }
        } else {
            v = 0.0;
            if t1 <= 0.0 {
                u = 1.0;
                d2 = a00 + 2.0 * b0 + c;
            } else if b0 >= 0.0 {
                u = 0.0;
                d2 = c;
            } else {
                u = -b0 / a00;
                d2 = b0 * u + c;
            }
        }
    } else {
        // Beyond the far edge itself.
        let num = a11 + b1 - a01 - b0;
        if num <= 0.0 {
            u = 0.0;
            v = 1.0;
            d2 = a11 + 2.0 * b1 + c;
        } else {
            let den = a00 - 2.0 * a01 + a11;
            if num >= den {
                u = 1.0;
                v = 0.0;
                d2 = a00 + 2.0 * b0 + c;
            } else {
                u = num / den;
                v = 1.0 - u;
                d2 = quad(u, v);
            }
        }
    }
    (d2, u, v)
}

pub fn collide_trimesh_sphere(mesh: &Mesh, host: &dyn TriHost, s: &Sphere, sp: &Pose, sink: &mut ContactSink) -> usize {
    let c = [sp.pos[0], sp.pos[1], sp.pos[2]];
    let r = s.radius;
    with_scratch(|scr| {
        let q = SphereQuery::new(&c, r, &mesh.pose.pos, &mesh.pose.r);
        sphere_candidates(mesh, &q, &mut scr.nodes, &mut scr.cand);
        if scr.cand.is_empty() {
            return;
        }
        host.touched(&scr.cand);
        for &t in &scr.cand {
            if sink.is_full() {
                break;
            }
            if !host.accept(t) {
                continue;
            }
            let tri = mesh.triangle(t as usize);
            let (v0, v1, v2) = (&tri[0], &tri[1], &tri[2]);
            let e0 = sub(v1, v0);
            let e1 = sub(v2, v0);
            let mut n = cross(&e0, &e1);
            // A triangle can degenerate to a segment once transformed.
            if !safe_normalize3(&mut n) {
                continue;
            }
            // Only from the front half-space of the triangle.
            if dot(&n, &c) - dot(&n, v0) < 0.0 {
                continue;
            }
            let (d2, u, v) = closest_params(&c, v0, &e0, &e1);
            let dist = d2.abs().sqrt();
            if dist > r {
                continue;
            }
            let depth = r - dist;
            let w = 1.0 - u - v;
            let cp = [
                (v0[0] * w) + (v1[0] * u) + (v2[0] * v),
                (v0[1] * w) + (v1[1] * u) + (v2[1] * v),
                (v0[2] * w) + (v1[2] * u) + (v2[2] * v),
            ];
            // The depth along centre − point, projected on the normal.
            let dir = sub(&c, &cp);
            let proj = dot(&dir, &n) / dot(&dir, &dir).sqrt();
            if proj < 0.0 {
                continue;
            }
            let mut k = Contact::new(cp, [-n[0], -n[1], -n[2]], depth * proj);
            k.side1 = t;
            // CONTACTS_UNIMPORTANT changes nothing here: ODE fills the array
            // up to the limit either way (and only skips merging, which its
            // default for spheres does not do).
            sink.push(k);
        }
    });
    sink.len()
}
