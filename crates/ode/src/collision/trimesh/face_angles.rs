//! Face angles of `dGeomTriMeshDataPreprocess2(…BUILD_FACE_ANGLES…)`: one
//! byte per triangle edge, in ODE's preprocessing arithmetic, which the
//! convex–trimesh collider (`colliders::ccd`) reads back for its normal
//! correction.

use super::{add, cross, dot, scale, sub, TriMeshData};

/// Face angles of every triangle edge in ODE's default one-byte positive
/// storage (three bytes per triangle, edge e runs from vertex e to e+1):
/// floor(angle·254/π) at convex edges, 0 at flat, concave and open edges
/// (which the normal correction treats alike in that storage). Built once
/// by `dGeomTriMeshDataPreprocess2(…BUILD_FACE_ANGLES…)` and kept in the
/// mesh data.
pub(crate) fn face_angle_codes(d: &TriMeshData) -> Vec<u8> {
    use std::collections::HashMap;
    let n = d.tri_count;
    let mut out = vec![0u8; 3 * n];
    // Edge (lo, hi) -> first (triangle, slot), and whether it got paired.
    let mut seen: HashMap<(usize, usize), (usize, usize, bool)> = HashMap::new();
    for t in 0..n {
        let idx = d.indices(t);
        for e in 0..3 {
            let (a, b) = (idx[e], idx[(e + 1) % 3]);
            let key = (a.min(b), a.max(b));
            match seen.get_mut(&key) {
                Some(rec) if !rec.2 => {
                    rec.2 = true;
                    let code = encode_face_angle(edge_angle(d, rec.0, rec.1, t, e));
                    out[3 * rec.0 + rec.1] = code;
                    out[3 * t + e] = code;
                }
                Some(_) => {}
                None => {
                    seen.insert(key, (t, e, false));
                }
            }
        }
    }
    out
}

/// ODE's byte-positive codec: concave angles are not stored (read as 0).
fn encode_face_angle(angle: f64) -> u8 {
    if angle < 0.0 {
        return 0;
    }
    ((angle * (254.0 / std::f64::consts::PI)).floor() as u32).min(254) as u8
}

/// Signed angle at the edge shared by slot `e0` of triangle `t0` and slot
/// `e1` of `t1` (positive convex, negative concave, 0 flat), in ODE's
/// preprocessing arithmetic.
fn edge_angle(d: &TriMeshData, t0: usize, e0: usize, t1: usize, e1: usize) -> f64 {
    let s = d.local_triangle(t1);
    let (start, end, opp) = (e1, (e1 + 1) % 3, (e1 + 2) % 3);
    let mut m = sub(&s[end], &s[start]);
    let have_m = crate::math::vec::safe_normalize3(&mut m);
    let seg = if have_m {
        let o = sub(&s[opp], &s[start]);
        let pl = dot(&o, &m);
        add(&o, &scale(&m, -pl))
    } else {
        sub(&s[opp], &s[start])
    };
    let f = d.local_triangle(t0);
    let nrm = cross(&sub(&f[2], &f[1]), &sub(&f[0], &f[1]));
    let lsp = dot(&seg, &seg) * dot(&nrm, &nrm);
    let nd = dot(&nrm, &seg);
    let thr = (1e-6f32 * 1e-6f32) as f64;
    if nd > 0.0 && nd * nd >= thr * lsp {
        return -std::f64::consts::PI; // concave
    }
    if !(nd < 0.0 && lsp != 0.0) {
        return 0.0;
    }
    let cosine = -nd / lsp.sqrt();
    if cosine >= 1.0 {
        return std::f64::consts::FRAC_PI_2;
    }
    let c1 = cross(&nrm, &seg);
    let check = if have_m {
        dot(&c1, &m)
    } else {
        let oi = if e0 != 0 { e0 - 1 } else { 2 };
        dot(&c1, &cross(&nrm, &sub(&f[oi], &f[e0])))
    };
    if check < 0.0 {
        cosine.asin()
    } else {
        std::f64::consts::FRAC_PI_2 + cosine.acos()
    }
}
