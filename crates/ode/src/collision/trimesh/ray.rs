//! Trimesh–ray as ODE 0.16.2's OPCODE build does it: OPCODE's ray query
//! (single precision, tree order; FirstContact stops at the first hit,
//! ClosestHit keeps only the nearest, BackfaceCull its own culling test)
//! lists the faces hit with their distance and (u, v); then, in that
//! order, each face the ray callback and the triangle callback accept
//! gives a contact at origin + direction·distance, depth = that distance,
//! normal = (v2 − v0) × (v1 − v0) normalised (faces that degenerate after
//! the transform are skipped), side1 = triangle index, until the contact
//! array is full.

use super::opcode::{ray_hits, with_scratch, RayQuery};
use super::*;
use crate::collision::contact::{Contact, ContactSink};
use crate::collision::shapes::{ray_flags, Ray};
use crate::math::vec::safe_normalize3;

pub fn collide_trimesh_ray(mesh: &Mesh, host: &dyn TriHost, ray: &Ray, rp: &Pose, sink: &mut ContactSink) -> usize {
    let o = [rp.pos[0], rp.pos[1], rp.pos[2]];
    let d = rp.axis(2);
    let q = RayQuery::new(
        &o,
        &d,
        ray.length,
        &mesh.pose.pos,
        &mesh.pose.r,
        ray.flags & ray_flags::BACKFACE_CULL != 0,
        ray.flags & ray_flags::FIRST_CONTACT != 0,
        ray.flags & ray_flags::CLOSEST_HIT != 0,
    );
    with_scratch(|scr| {
        ray_hits(mesh, &q, &mut scr.nodes, &mut scr.hits);
        for h in &scr.hits {
            if sink.is_full() {
                break;
            }
            if !host.accept_ray(h.tri, h.u as f64, h.v as f64) || !host.accept(h.tri) {
                continue;
            }
            let v = mesh.triangle(h.tri as usize);
            let mut n = cross(&sub(&v[2], &v[0]), &sub(&v[1], &v[0]));
            if !safe_normalize3(&mut n) {
                continue;
            }
            let t = h.dist as f64;
            let mut c = Contact::new([o[0] + d[0] * t, o[1] + d[1] * t, o[2] + d[2] * t], n, t);
            c.side1 = h.tri;
            sink.push(c);
        }
    });
    sink.len()
}

/// The depth ODE's ray–trimesh collider reports when asked for one
/// contact with a ray of no special flags from `o` along `d` with length
/// `len`: the first hit, in OPCODE's order, that the host's ray and
/// triangle callbacks accept. The heightfield's vertex pass asks this with
/// a NEGATIVE length, which OPCODE does not refuse: its segment test then
/// culls the tree with the segment running backwards from `o`, while its
/// triangle test still takes every hit ahead of `o` (its distance bound,
/// compared as unsigned bits, passes every positive distance). The query
/// reproduces both, since hosts see those contacts.
pub fn first_hit_depth(mesh: &Mesh, host: &dyn TriHost, o: &[f64; 3], d: &[f64; 3], len: f64) -> Option<f64> {
    let q = RayQuery::new(o, d, len, &mesh.pose.pos, &mesh.pose.r, false, false, false);
    with_scratch(|scr| {
        ray_hits(mesh, &q, &mut scr.nodes, &mut scr.hits);
        for h in &scr.hits {
            if !host.accept_ray(h.tri, h.u as f64, h.v as f64) || !host.accept(h.tri) {
                continue;
            }
            let v = mesh.triangle(h.tri as usize);
            let mut n = cross(&sub(&v[2], &v[0]), &sub(&v[1], &v[0]));
            if safe_normalize3(&mut n) {
                return Some(h.dist as f64);
            }
        }
        None
    })
}
