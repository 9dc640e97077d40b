//! Trimesh–plane: every mesh vertex below the plane is a contact, once:
//! for the first triangle (in index order) that uses it, which is side1.
//! The contact is at the vertex, with the plane normal and the depth below
//! the plane. As in ODE, the use flags of Preprocess play no part here.
//! The BVH only skips triangles entirely above the plane (their vertices
//! cannot report, whoever owns them).

use super::*;
use crate::collision::contact::{Contact, ContactSink};
use crate::collision::shapes::Plane;
use std::cell::RefCell;

/// Per-thread buffers (a warm collision allocates nothing).
#[derive(Default)]
struct Scratch {
    cand: Vec<u32>,
    /// Vertex already read, by index.
    seen: Vec<bool>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

pub fn collide_trimesh_plane(mesh: &Mesh, pl: &Plane, sink: &mut ContactSink) -> usize {
    SCRATCH.with(|s| match s.try_borrow_mut() {
        Ok(mut s) => collide(&mut s, mesh, pl, sink),
        Err(_) => collide(&mut Scratch::default(), mesh, pl, sink),
    })
}

fn collide(s: &mut Scratch, mesh: &Mesh, pl: &Plane, sink: &mut ContactSink) -> usize {
    let data = mesh.data;
    // The plane in mesh coordinates: n_l = Rᵀ n, d_l = d − n·p.
    let nl = crate::math::mat3::mul1_331(&mesh.pose.r, &pl.n);
    let dl = pl.d - (pl.n[0] * mesh.pose.pos[0] + pl.n[1] * mesh.pose.pos[1] + pl.n[2] * mesh.pose.pos[2]);
    let cand = &mut s.cand;
    cand.clear();
    data.bvh.visit(
        |a, b| {
            let low = [if nl[0] > 0.0 { a[0] } else { b[0] }, if nl[1] > 0.0 { a[1] } else { b[1] }, if nl[2] > 0.0 { a[2] } else { b[2] }];
            dot(&nl, &low) < dl + 1e-9 * (1.0 + dl.abs())
        },
        |t| cand.push(t),
    );
    cand.sort_unstable();
    let seen = &mut s.seen;
    seen.clear();
    seen.resize(data.vertex_count, false);
    for &t in cand.iter() {
        let idx = data.indices(t as usize);
        let tri = mesh.triangle(t as usize);
        for k in 0..3 {
            if idx[k] < seen.len() {
                if seen[idx[k]] {
                    continue;
                }
                seen[idx[k]] = true;
            }
            let depth = pl.d - dot(&pl.n, &tri[k]);
            if depth > 0.0 {
                let mut c = Contact::new(tri[k], pl.n, depth);
                c.side1 = t as i32;
                if !sink.push(c) || sink.is_full() {
                    return sink.len();
                }
            }
        }
    }
    sink.len()
}
