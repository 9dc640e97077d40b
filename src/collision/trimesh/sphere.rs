//! Trimesh–sphere (ODE's semantics with OPCODE, not merged):
//! the candidates are OPCODE's sphere query (tree order, node boxes only);
//! the array callback sees that whole list. Then, in that order until the
//! contact array is full: one contact per accepted triangle whose front
//! half-space holds the sphere centre, at the closest point of the
//! triangle, with the normal against the triangle's face normal and the
//! depth (r − distance) projected on that normal; side1 = triangle index.

use super::opcode::{closest_sq, sphere_candidates, with_scratch, SphereQuery};
use super::*;
use crate::math::vec::safe_normalize3;
use crate::collision::contact::{Contact, ContactSink};
use crate::collision::shapes::Sphere;

pub fn collide_trimesh_sphere(mesh: &Mesh, host: &dyn TriHost, s: &Sphere, sp: &Pose, sink: &mut ContactSink) -> usize {
    let c = [sp.pos[0], sp.pos[1], sp.pos[2]];
    let r = s.radius;
    with_scratch(|scr| {
        let q = SphereQuery::new(&c, r, &mesh.pose.pos, &mesh.pose.r);
        sphere_candidates(mesh, &q, &mut scr.stack, &mut scr.cand);
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
            let v = mesh.triangle(t as usize);
            let eu = sub(&v[1], &v[0]);
            let ev = sub(&v[2], &v[0]);
            let mut n = cross(&eu, &ev);
            if !safe_normalize3(&mut n) {
                continue;
            }
            if dot(&n, &c) - dot(&n, &v[0]) < 0.0 {
                continue;
            }
            let diff = sub(&v[0], &c);
            let (u, w, d2) = closest_sq(dot(&eu, &eu), dot(&eu, &ev), dot(&ev, &ev), dot(&diff, &eu), dot(&diff, &ev), dot(&diff, &diff));
            let dist = d2.abs().sqrt();
            // ODE's test (a NaN distance fails it too).
            #[allow(clippy::neg_cmp_op_on_partial_ord)]
            if !(dist <= r) {
                continue;
            }
            let depth = r - dist;
            let w0 = 1.0 - u - w;
            let cp = [v[0][0] * w0 + v[1][0] * u + v[2][0] * w, v[0][1] * w0 + v[1][1] * u + v[2][1] * w, v[0][2] * w0 + v[1][2] * u + v[2][2] * w];
            let dir = sub(&c, &cp);
            let len = dot(&dir, &dir).sqrt();
            // ODE divides by the length even when the centre lies on the
            // triangle (0/0, a NaN depth); the direction is then the
            // normal itself.
            let proj = if len > 0.0 { dot(&dir, &n) / len } else { 1.0 };
            if proj < 0.0 {
                continue;
            }
            let mut k = Contact::new(cp, scale(&n, -1.0), depth * proj);
            k.side1 = t;
            // CONTACTS_UNIMPORTANT does not stop ODE here: it fills the array.
            sink.push(k);
        }
    });
    sink.len()
}
