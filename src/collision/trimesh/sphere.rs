//! Trimesh–sphere (ODE's semantics with OPCODE, not merged):
//! one contact per touched triangle whose front half-space holds the
//! sphere centre, at the closest point of the triangle, with the normal
//! against the triangle's face normal and the depth (r − distance)
//! projected on that normal; side1 = triangle index.

use super::*;
use crate::collision::contact::{Contact, ContactSink};
use crate::collision::shapes::Sphere;

pub fn collide_trimesh_sphere(mesh: &Mesh, host: &dyn TriHost, s: &Sphere, sp: &Pose, sink: &mut ContactSink) -> usize {
    let c = [sp.pos[0], sp.pos[1], sp.pos[2]];
    let r = s.radius;
    let mut cand = Vec::new();
    mesh.candidates_world_box([c[0] - r, c[1] - r, c[2] - r], [c[0] + r, c[1] + r, c[2] + r], &mut cand);
    // The triangles the sphere touches (what the array callback sees).
    let mut touched: Vec<(i32, [[f64; 3]; 3], [f64; 3])> = Vec::new();
    for &t in &cand {
        let tri = mesh.triangle(t as usize);
        let (cp, _) = closest_on_triangle(&c, &tri);
        let d = sub(&c, &cp);
        if dot(&d, &d) <= r * r {
            touched.push((t as i32, tri, cp));
        }
    }
    if touched.is_empty() {
        return 0;
    }
    let ids: Vec<i32> = touched.iter().map(|x| x.0).collect();
    host.touched(&ids);
    for (t, tri, cp) in touched {
        if sink.is_full() {
            break;
        }
        if !host.accept(t) {
            continue;
        }
        let Some(n) = tri_normal(&tri) else { continue };
        if dot(&n, &c) - dot(&n, &tri[0]) < 0.0 {
            continue;
        }
        let dir = sub(&c, &cp);
        let dist = norm(&dir);
        let depth = r - dist;
        if depth < 0.0 {
            continue;
        }
        // Centre on the triangle: the direction is the normal itself.
        let proj = if dist > 0.0 { dot(&dir, &n) / dist } else { 1.0 };
        if proj < 0.0 {
            continue;
        }
        let mut k = Contact::new(cp, scale(&n, -1.0), depth * proj);
        k.side1 = t;
        // CONTACTS_UNIMPORTANT changes nothing here: ODE fills the array
        // up to the limit either way (and only skips merging, which its
        // default for spheres does not do).
        sink.push(k);
    }
    sink.len()
}
