//! Trimesh–plane: every mesh vertex below the plane is a contact (once per
//! vertex: the first triangle using it reports it, whatever the use flags
//! of Preprocess say, as in ODE), at the vertex, with the plane normal and
//! the depth below the plane; side1 = that triangle. Triangles go in index order
//! as in ODE, the BVH only skipping those entirely above the plane.

use super::*;
use crate::collision::contact::{Contact, ContactSink};
use crate::collision::shapes::Plane;

thread_local! {
    static SEEN: std::cell::RefCell<Vec<bool>> = const { std::cell::RefCell::new(Vec::new()) };
}

pub fn collide_trimesh_plane(mesh: &Mesh, pl: &Plane, sink: &mut ContactSink) -> usize {
    let data = mesh.data;
    // The plane in mesh coordinates: n_l = Rᵀ n, d_l = d − n·p.
    let nl = crate::math::mat3::mul1_331(&mesh.pose.r, &pl.n);
    let dl = pl.d - (pl.n[0] * mesh.pose.pos[0] + pl.n[1] * mesh.pose.pos[1] + pl.n[2] * mesh.pose.pos[2]);
    let mut cand = Vec::new();
    data.bvh.visit(
        |a, b| {
            let low = [if nl[0] > 0.0 { a[0] } else { b[0] }, if nl[1] > 0.0 { a[1] } else { b[1] }, if nl[2] > 0.0 { a[2] } else { b[2] }];
            dot(&nl, &low) < dl + 1e-9 * (1.0 + dl.abs())
        },
        |t| cand.push(t),
    );
    cand.sort_unstable();
    // ODE reports each vertex once, from the first triangle (in index
    // order) that uses it; the preprocessing use flags play no part here.
    // The marks live in a per-thread buffer so that a warm call does not
    // allocate (no host callback runs in between, so no re-entry).
    SEEN.with(|seen| {
        let mut seen = seen.borrow_mut();
        seen.clear();
        seen.resize(data.vertex_count, false);
        for &t in &cand {
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
                        return;
                    }
                }
            }
        }
    });
    sink.len()
}
