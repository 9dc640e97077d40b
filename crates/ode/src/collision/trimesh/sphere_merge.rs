//! Trimesh–sphere contact merging, the option set with
//! `dGeomLowLevelControl` (`dGeomColliderSetMergeSphereContactsControlCode`):
//! ODE's default keeps one contact per touched triangle; "normals" gives
//! every contact the depth-weighted mean normal; "full" replaces them by
//! one contact at the mean position, with that normal and a depth raised
//! so that each triangle's penetration is resolved along it. Applied to
//! the contacts the collider wrote, in their order (as ODE sums them).

use super::TriMergeCallback;
use crate::collision::contact::ContactSink;
use crate::math::vec::{normalize3, safe_normalize3};
use std::ffi::c_void;

/// ODE's merge options (the values of `dGeomColliderMergeContactsValue_*`;
/// `__Default` is stored as `NONE`, ODE's default).
pub const NONE: i32 = 1;
pub const NORMALS: i32 = 2;
pub const FULL: i32 = 3;

/// Merges the `n` contacts of `sink` per `mode`; returns the new count.
/// `mesh` is the trimesh geom handle given to the merge callback.
pub fn merge(
    mode: i32,
    sink: &mut ContactSink,
    n: usize,
    callback: Option<TriMergeCallback>,
    mesh: *mut c_void,
) -> usize {
    if n == 0 {
        return 0;
    }
    match mode {
        FULL => merge_full(sink, n, callback, mesh),
        NORMALS => {
            if n != 1 && !sink.unimportant() {
                let mut sum = [0.0; 3];
                for i in 0..n {
                    let c = sink.get_mut(i);
                    for k in 0..3 {
                        sum[k] += c.normal[k] * c.depth;
                    }
                }
                normalize3(&mut sum);
                for i in 0..n {
                    let c = sink.get_mut(i);
                    c.normal = [sum[0], sum[1], sum[2], 0.0];
                }
            }
            n
        }
        _ => n,
    }
}

fn merge_full(sink: &mut ContactSink, n: usize, callback: Option<TriMergeCallback>, mesh: *mut c_void) -> usize {
    if n > 1 && !sink.unimportant() {
        let first = *sink.get_mut(0);
        let mut pos = [first.pos[0], first.pos[1], first.pos[2]];
        let mut normal = [first.normal[0] * first.depth, first.normal[1] * first.depth, first.normal[2] * first.depth];
        let mut tri = first.side1;
        for i in 1..n {
            let c = *sink.get_mut(i);
            for k in 0..3 {
                pos[k] += c.pos[k];
                normal[k] += c.normal[k] * c.depth;
            }
            // SAFETY: a host callback registered with dGeomTriMeshSetCallback's
            // merge variant, called as ODE calls it.
            tri = callback.map_or(-1, |f| unsafe { f(mesh, tri, c.side1) });
        }
        let nf = n as f64;
        {
            let c0 = sink.get_mut(0);
            c0.side1 = tri;
            c0.pos = [pos[0] / nf, pos[1] / nf, pos[2] / nf, c0.pos[3]];
        }
        // As in ODE, the pathological cases keep every contact (the first
        // one already moved to the mean position).
        if !safe_normalize3(&mut normal) {
            return n;
        }
        let mut depth: f64 = 0.0;
        for i in 0..n {
            let c = sink.get_mut(i);
            let mut eff = normal[0] * c.normal[0] + normal[1] * c.normal[1] + normal[2] * c.normal[2];
            if eff < f64::EPSILON {
                return n;
            }
            if eff < 0.5 {
                eff = 0.5;
            }
            let adjusted = c.depth / eff;
            if depth < adjusted {
                depth = adjusted;
            }
        }
        let c0 = sink.get_mut(0);
        c0.depth = depth;
        c0.normal = [normal[0], normal[1], normal[2], 0.0];
    }
    sink.truncate(1);
    1
}
