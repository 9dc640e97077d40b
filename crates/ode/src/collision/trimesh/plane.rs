//! Trimesh–plane as ODE 0.16.2 does it: triangles in index order (no
//! tree), each vertex once (the first triangle using a vertex index
//! reports it; the use flags are not consulted), every vertex below the
//! plane a contact at the vertex with the plane normal and the depth below
//! the plane, side1 = that triangle, until the contact array is full.

use super::opcode::Reused;
use super::*;
use crate::collision::contact::{Contact, ContactSink};
use crate::collision::shapes::Plane;
use std::cell::Cell;

thread_local! {
    /// Per vertex: already reported this call (ODE's per-thread vertex-use
    /// cache, cleared on every call).
    static USED: Cell<Vec<bool>> = const { Cell::new(Vec::new()) };
}

pub fn collide_trimesh_plane(mesh: &Mesh, pl: &Plane, sink: &mut ContactSink) -> usize {
    let data = mesh.data;
    let mut used = Reused::take(&USED);
    used.resize(data.vertex_count, false);
    for t in 0..data.tri_count {
        let idx = data.indices(t);
        let tri = mesh.triangle(t);
        for k in 0..3 {
            if let Some(u) = used.get_mut(idx[k]) {
                if *u {
                    continue;
                }
                *u = true;
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
