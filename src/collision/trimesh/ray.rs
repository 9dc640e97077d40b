//! Trimesh–ray: every triangle the ray crosses (both faces unless the
//! ray culls back faces), filtered by the host's ray callback; all hits
//! up to the contact limit, the first one found (FirstContact) or only
//! the nearest (ClosestHit). Contact at the hit, depth = distance along
//! the ray, normal = minus the triangle's face normal (mesh first),
//! side1 = triangle index.

use super::*;
use crate::collision::contact::{Contact, ContactSink};
use crate::collision::geom::ray_flags;
use crate::collision::shapes::Ray;

/// Ray o + t·d against a triangle: (t, u, v) with the hit at
/// v0 + u (v1 − v0) + v (v2 − v0), if within [0, len].
pub fn ray_triangle(o: &[f64; 3], d: &[f64; 3], len: f64, tri: &[[f64; 3]; 3], cull: bool) -> Option<(f64, f64, f64)> {
    let e1 = sub(&tri[1], &tri[0]);
    let e2 = sub(&tri[2], &tri[0]);
    let p = cross(d, &e2);
    let det = dot(&e1, &p);
    if cull {
        if det <= 0.0 {
            return None;
        }
    } else if det == 0.0 {
        return None;
    }
    let inv = 1.0 / det;
    let s = sub(o, &tri[0]);
    let u = dot(&s, &p) * inv;
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    let q = cross(&s, &e1);
    let v = dot(d, &q) * inv;
    if v < 0.0 || u + v > 1.0 {
        return None;
    }
    let t = dot(&e2, &q) * inv;
    if t < 0.0 || t > len {
        return None;
    }
    Some((t, u, v))
}

pub fn collide_trimesh_ray(mesh: &Mesh, host: &dyn TriHost, ray: &Ray, rp: &Pose, sink: &mut ContactSink) -> usize {
    let o = [rp.pos[0], rp.pos[1], rp.pos[2]];
    let d = rp.axis(2);
    let mut cand = Vec::new();
    mesh.candidates_ray(&o, &d, ray.length, &mut cand);
    let cull = ray.flags & ray_flags::BACKFACE_CULL != 0;
    let closest = ray.flags & ray_flags::CLOSEST_HIT != 0;
    let first = ray.flags & ray_flags::FIRST_CONTACT != 0;
    // Hits nearest first (ODE reports them in its tree's order; nearest
    // first makes FirstContact and small limits deterministic).
    let mut hits: Vec<Contact> = Vec::new();
    for &t in &cand {
        let tri = mesh.triangle(t as usize);
        let Some((dist, u, v)) = ray_triangle(&o, &d, ray.length, &tri, false) else { continue };
        let Some(n) = tri_normal(&tri) else { continue };
        // Culling keeps the faces whose normal points against the ray.
        if cull && dot(&n, &d) >= 0.0 {
            continue;
        }
        // ODE asks the ray callback first, then the triangle callback.
        if !host.accept_ray(t as i32, u, v) || !host.accept(t as i32) {
            continue;
        }
        let mut c = Contact::new(add(&o, &scale(&d, dist)), scale(&n, -1.0), dist);
        c.side1 = t as i32;
        hits.push(c);
    }
    hits.sort_by(|a, b| a.depth.total_cmp(&b.depth).then(a.side1.cmp(&b.side1)));
    // CONTACTS_UNIMPORTANT does not shorten the list: ODE reports every hit
    // up to the limit either way.
    let take = if closest || first { 1 } else { hits.len() };
    for c in hits.into_iter().take(take) {
        if !sink.push(c) {
            break;
        }
    }
    sink.len()
}

/// The depth ODE's ray–trimesh collider reports when asked for one
/// contact with a ray of no special flags from `o` along `d` with length
/// `len`: the first hit (in tree-traversal order) that the host's ray and
/// triangle callbacks accept. The heightfield's vertex pass asks this with
/// a NEGATIVE length, which OPCODE does not refuse: its segment test then
/// culls the tree with the segment running backwards from `o`, while its
/// triangle test still takes every hit ahead of `o` (its distance bound,
/// compared as unsigned bits, passes every positive distance). Kept here
/// as ODE behaves, since hosts see those contacts.
///
/// Which hit comes first depends on the tree; ours is not OPCODE's, so
/// where several triangles are hit the depth may be another one's.
pub fn first_hit_depth(mesh: &Mesh, host: &dyn TriHost, o: &[f64; 3], d: &[f64; 3], len: f64) -> Option<f64> {
    let lo = mesh.pose.to_local(o);
    let ld = mul1_331(&mesh.pose.r, d);
    // The culling segment: [o, o + len·d] either way round.
    let (so, slen) = if len < 0.0 { (add(&lo, &scale(&ld, len)), -len) } else { (lo, len) };
    let mut found: Option<f64> = None;
    mesh.data.bvh.query_ray(&so, &ld, slen, |t| {
        if found.is_some() {
            return;
        }
        let tri = mesh.triangle(t as usize);
        let bound = if len < 0.0 { f64::INFINITY } else { len };
        let Some((dist, u, v)) = ray_triangle(o, d, bound, &tri, false) else { return };
        if len >= 0.0 && dist >= len {
            return;
        }
        if !host.accept_ray(t as i32, u, v) || !host.accept(t as i32) {
            return;
        }
        if tri_normal(&tri).is_some() {
            found = Some(dist);
        }
    });
    found
}
