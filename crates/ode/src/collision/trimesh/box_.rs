//! Trimesh–box with the semantics of ODE 0.16.2's OPCODE build
//! (collision_trimesh_box.cpp), written from its description:
//!
//! - candidates: the triangles overlapping the box (OBB query), tested in
//!   the BVH's order (ascending triangle index; OPCODE visits its own
//!   tree's leaves, so the order — and with it which contacts survive a
//!   full contact array and which triangle a merged contact names — can
//!   differ from ODE's);
//! - per triangle a separating-axis test over 13 axes in ODE's order:
//!   the triangle normal (one-sided: a box behind the plane overlaps), the
//!   three box axes, then the nine box-axis × edge products; the first
//!   axis with the smallest normalised overlap wins (strict `<`), edge
//!   axes only when 1.5 × their overlap is still smaller;
//! - contacts: triangle normal → the box face most aligned with it,
//!   clipped below the triangle plane and by its three edge planes; box
//!   face → the triangle clipped by that face's plane and the four side
//!   planes; edge pair → one contact midway between the closest points of
//!   the two (infinite) edge lines. Clipped points keep depth ≥ 0, so
//!   points on the plane yield zero-depth contacts, as in ODE;
//! - merging (unless CONTACTS_UNIMPORTANT): a contact within √ε of an
//!   earlier one with the same normal (1 − n·n' < ε) only raises that
//!   contact's depth (and names its triangle); once the array is full,
//!   every remaining triangle is still tested and a deeper contact takes
//!   the place of the shallowest one kept (see `generate`). With
//!   CONTACTS_UNIMPORTANT the first contacts found are kept and the
//!   search stops when the array is full.
//!
//! The arithmetic follows ODE's operation order so that results agree to
//! the last bit on the same triangles.

use super::opcode::Reused;
use super::*;
use crate::collision::contact::{Contact, ContactSink};
use crate::collision::shapes::BoxShape;
use crate::math::vec::normalize3;
use std::cell::Cell;

thread_local! {
    /// The contact points of one triangle, reused call after call.
    static POINTS: Cell<Vec<([f64; 3], f64)>> = const { Cell::new(Vec::new()) };
}

const EPS: f64 = f64::EPSILON;

/// A plane n·x + d (ODE's dVector4 plane).
type Plane = [f64; 4];

#[inline]
fn plane_dist(p: &Plane, v: &[f64; 3]) -> f64 {
    p[0] * v[0] + p[1] * v[1] + p[2] * v[2] + p[3]
}

/// Keeps the part of polygon `input` where the plane distance is ≥ 0,
/// walking edges from the last vertex as ODE does (so the output order,
/// hence contact order, is the same), into `out` (cleared first; the
/// caller's buffers are reused triangle after triangle rather than
/// zeroed and returned by value for every plane).
fn clip_poly(input: &[[f64; 3]], pl: &Plane, out: &mut Poly16) {
    out.clear();
    let n = input.len();
    if n == 0 {
        return;
    }
    let mut i0 = n - 1;
    for i1 in 0..n {
        let (a, b) = (&input[i0], &input[i1]);
        let d0 = plane_dist(pl, a);
        let d1 = plane_dist(pl, b);
        if d0 >= 0.0 {
            out.push(*a);
        }
        if (d0 > 0.0 && d1 < 0.0) || (d0 < 0.0 && d1 > 0.0) {
            let mut p = [0.0; 3];
            for k in 0..3 {
                p[k] = a[k] - (a[k] - b[k]) * d0 / (d0 - d1);
            }
            out.push(p);
        }
        i0 = i1;
    }
}

/// The box as ODE's collider holds it.
struct BoxData {
    c: [f64; 3],
    ax: [[f64; 3]; 3],
    h: [f64; 3],
}

/// Result of the separating-axis test of one triangle.
struct Sat {
    axis: usize,
    normal: [f64; 3],
    depth: f64,
    e0: [f64; 3],
    e1: [f64; 3],
    e2: [f64; 3],
    n: [f64; 3],
}

fn neg(a: &[f64; 3]) -> [f64; 3] {
    [-a[0], -a[1], -a[2]]
}

/// Is an edge axis with unnormalised `depth` (≥ 0) and squared length
/// `l2` (> ε) sure to fail ODE's `1.5 · depth / √l2 < best`? Decided
/// on squares, with a relative margin of 1e-9 (far above the few ulps
/// by which the rounded sqrt, division and products can differ from the
/// exact value), only where no square over- or underflows; undecided
/// cases return false and take the exact test. Saves a sqrt and a
/// division on most edge axes, which rarely win.
#[inline]
fn edge_axis_loses(depth: f64, l2: f64, best: f64) -> bool {
    let bb = best * best;
    let a = 2.25 * (depth * depth);
    // bb ≥ 1e-200 (so bb·l2 > 1e-216, normal) and finite; `a` finite.
    (1e-200..f64::MAX).contains(&bb) && a < f64::MAX && l2 < f64::MAX && a > (bb * l2) * (1.0 + 1e-9)
}

impl BoxData {
    /// ODE's 13-axis test; None when some axis separates (or the
    /// triangle is degenerate).
    fn sat(&self, v0: &[f64; 3], v1: &[f64; 3], v2: &[f64; 3]) -> Option<Sat> {
        let e0 = sub(v1, v0);
        let e1 = sub(v2, v0);
        let e2 = sub(&e1, &e0);
        let n = cross(&e0, &e1);
        let nlen = dot(&n, &n).sqrt();
        if nlen.abs() < EPS {
            return None;
        }
        let (a, h) = (&self.ax, &self.h);
        let d = sub(v0, &self.c);
        let mut best = f64::MAX;
        let mut best_axis = 0usize;
        let mut best_n = [0.0; 3];

        // Axis 1: the triangle normal, one-sided.
        let fp0 = dot(&n, &d);
        let fr = h[0] * dot(&n, &a[0]).abs() + h[1] * dot(&n, &a[1]).abs() + h[2] * dot(&n, &a[2]).abs();
        let mut depth = fr + fp0;
        if depth < 0.0 {
            return None;
        }
        let len = dot(&n, &n).sqrt();
        if len > 0.0 {
            let inv = 1.0 / len;
            depth *= inv;
            if depth < best {
                best_n = [-n[0] * inv, -n[1] * inv, -n[2] * inv];
                best_axis = 1;
                best = depth;
            }
        }

        // Axes 2..4: the box axes.
        for i in 0..3 {
            let fp0 = dot(&a[i], &d);
            let fp1 = fp0 + dot(&a[i], &e0);
            let fp2 = fp0 + dot(&a[i], &e1);
            let fmin = if fp0 < fp1 {
                if fp0 < fp2 {
                    fp0
                } else {
                    fp2
                }
            } else if fp1 < fp2 {
                fp1
            } else {
                fp2
            };
            let fmax = if fp0 > fp1 {
                if fp0 > fp2 {
                    fp0
                } else {
                    fp2
                }
            } else if fp1 > fp2 {
                fp1
            } else {
                fp2
            };
            let dmin = h[i] - fmin;
            let dmax = fmax + h[i];
            if dmin < 0.0 || dmax < 0.0 {
                return None;
            }
            let (depth, l) = if dmin > dmax { (dmax, neg(&a[i])) } else { (dmin, a[i]) };
            if depth < best {
                best_n = l;
                best_axis = 2 + i;
                best = depth;
            }
        }

        // Axes 5..13: box axis i × triangle edge j (E0, E1, E2).
        let edges = [e0, e1, e2];
        for i in 0..3 {
            let (j1, j2) = match i {
                0 => (1, 2),
                1 => (0, 2),
                _ => (0, 1),
            };
            let an = dot(&a[i], &n);
            for (j, e) in edges.iter().enumerate() {
                let l = cross(&a[i], e);
                let fp0 = dot(&l, &d);
                // The triangle's two distinct projections on this axis.
                let other = if j == 0 { fp0 + an } else { fp0 - an };
                // Box radius: the two other axes' extents, ODE's order.
                let fr = h[j1] * dot(&a[3 - i - j1], e).abs() + h[j2] * dot(&a[3 - i - j2], e).abs();
                if l[0] * l[0] + l[1] * l[1] + l[2] * l[2] <= EPS {
                    continue;
                }
                let (fmin, fmax) = if fp0 < other { (fp0, other) } else { (other, fp0) };
                let dmin = fr - fmin;
                let dmax = fmax + fr;
                if dmin < 0.0 || dmax < 0.0 {
                    return None;
                }
                let (mut depth, l) = if dmin > dmax { (dmax, neg(&l)) } else { (dmin, l) };
                let l2 = dot(&l, &l);
                if edge_axis_loses(depth, l2, best) {
                    continue;
                }
                let len = l2.sqrt();
                if len > 0.0 {
                    let inv = 1.0 / len;
                    depth *= inv;
                    if depth * 1.5 < best {
                        best_n = [l[0] * inv, l[1] * inv, l[2] * inv];
                        best_axis = 5 + 3 * i + j;
                        best = depth;
                    }
                }
            }
        }
        if best_axis == 0 {
            return None;
        }
        Some(Sat { axis: best_axis, normal: best_n, depth: best, e0, e1, e2, n })
    }

    /// Contacts of one triangle (pos, depth); the normal is `s.normal`.
    /// `bufs` are the clipping buffers (any contents).
    fn contacts(&self, v: &[[f64; 3]; 3], s: &Sat, out: &mut Vec<([f64; 3], f64)>, bufs: &mut [Poly16; 2]) {
        let [pa, pb] = bufs;
        let (a, h, c) = (&self.ax, &self.h, &self.c);
        let (v0, v1, v2) = (&v[0], &v[1], &v[2]);
        if s.axis > 4 {
            // Edge against edge.
            let mut pa = *c;
            for i in 0..3 {
                let sign = if dot(&s.normal, &a[i]) > 0.0 { 1.0 } else { -1.0 };
                for k in 0..3 {
                    pa[k] += sign * h[i] * a[i][k];
                }
            }
            let iedge = (s.axis - 5) % 3;
            let (mut pb, mut ub) = match iedge {
                0 => (*v0, s.e0),
                1 => (*v2, s.e1),
                _ => (*v1, s.e2),
            };
            normalize3(&mut ub);
            let ua = a[(s.axis - 5) / 3];
            let vp = sub(&pb, &pa);
            let uab = dot(&ua, &ub);
            let q1 = dot(&ua, &vp);
            let q2 = -dot(&ub, &vp);
            let mut fd = 1.0 - uab * uab;
            let (p1, p2) = if fd > 0.0 {
                fd = 1.0 / fd;
                ((q1 + uab * q2) * fd, (uab * q1 + q2) * fd)
            } else {
                (0.0, 0.0)
            };
            for k in 0..3 {
                pa[k] += ua[k] * p1;
                pb[k] += ub[k] * p2;
            }
            let p = [(pa[0] + pb[0]) * 0.5, (pa[1] + pb[1]) * 0.5, (pa[2] + pb[2]) * 0.5];
            out.push((p, s.depth));
        } else if s.axis == 1 {
            // The triangle is the reference face: clip the box face most
            // facing it.
            let n2 = neg(&s.normal);
            let nr = [dot(&a[0], &n2), dot(&a[1], &n2), dot(&a[2], &n2)];
            let an = [nr[0].abs(), nr[1].abs(), nr[2].abs()];
            let (b0, b1, b2) = if an[1] > an[0] {
                if an[1] > an[2] {
                    (1, 0, 2)
                } else {
                    (2, 0, 1)
                }
            } else if an[0] > an[2] {
                (0, 1, 2)
            } else {
                (2, 0, 1)
            };
            let col = a[b0];
            let mut center = [0.0; 3];
            for k in 0..3 {
                center[k] = if nr[b0] > 0.0 { c[k] - v0[k] - h[b0] * col[k] } else { c[k] - v0[k] + h[b0] * col[k] };
            }
            let (c1, c2) = (a[b1], a[b2]);
            let mut pts = [[0.0; 3]; 4];
            for k in 0..3 {
                pts[0][k] = center[k] + (h[b1] * c1[k]) - (h[b2] * c2[k]);
                pts[1][k] = center[k] - (h[b1] * c1[k]) - (h[b2] * c2[k]);
                pts[2][k] = center[k] - (h[b1] * c1[k]) + (h[b2] * c2[k]);
                pts[3][k] = center[k] + (h[b1] * c1[k]) + (h[b2] * c2[k]);
            }
            let plane = |mut nn: [f64; 3], d: f64| -> Plane {
                normalize3(&mut nn);
                [nn[0], nn[1], nn[2], d]
            };
            clip_poly(&pts, &plane(neg(&s.n), 0.0), pa);
            clip_poly(pa, &plane(cross(&s.n, &sub(v1, v0)), 0.0), pb);
            let mut t = cross(&s.n, &sub(v2, v1));
            normalize3(&mut t);
            let d = dot(&sub(v0, v2), &t);
            clip_poly(pb, &[t[0], t[1], t[2], d], pa);
            clip_poly(pa, &plane(cross(&s.n, &sub(v0, v2)), 0.0), pb);
            for &p in pb.iter() {
                let mut depth = dot(&n2, &p);
                if depth > 0.0 {
                    depth = 0.0;
                }
                out.push((add(&p, v0), -depth));
            }
        } else {
            // A box face is the reference face: clip the triangle.
            let n2 = s.normal;
            let i0 = s.axis - 2;
            let (i1, i2) = match i0 {
                0 => (1, 2),
                1 => (0, 2),
                _ => (0, 1),
            };
            let pts = [sub(v0, c), sub(v1, c), sub(v2, c)];
            let pl = |nn: [f64; 3], d: f64| -> Plane { [nn[0], nn[1], nn[2], d] };
            clip_poly(&pts, &pl(neg(&n2), h[i0]), pa);
            clip_poly(pa, &pl(a[i1], h[i1]), pb);
            clip_poly(pb, &pl(neg(&a[i1]), h[i1]), pa);
            clip_poly(pa, &pl(a[i2], h[i2]), pb);
            clip_poly(pb, &pl(neg(&a[i2]), h[i2]), pa);
            for &p in pa.iter() {
                let mut depth = dot(&n2, &p) - h[i0];
                if depth > 0.0 {
                    depth = 0.0;
                }
                out.push((add(&p, c), -depth));
            }
        }
    }
}

/// ODE 0.16.2's contact admission for boxes (its GenerateContact). Unless
/// the caller set CONTACTS_UNIMPORTANT:
/// - a contact within √ε of an earlier one with the same normal
///   (1 − n·n' < ε, a one-sided test) only raises that one's depth and
///   then names this triangle; the scan stops at the first such match;
/// - once the array is full, a new contact replaces the shallowest one
///   kept (the first of equal ones) if it is strictly deeper, in that
///   slot, so that a small limit keeps the deepest contacts and not the
///   first found (zero-depth ones included).
fn generate(sink: &mut ContactSink, k: Contact) {
    if !sink.unimportant() {
        let mut shallowest = f64::INFINITY;
        let mut slot = None;
        for i in 0..sink.len() {
            let g = sink.get_mut(i);
            let d = [k.pos[0] - g.pos[0], k.pos[1] - g.pos[1], k.pos[2] - g.pos[2]];
            if dot(&d, &d) < EPS {
                let gn = [g.normal[0], g.normal[1], g.normal[2]];
                if 1.0 - dot(&k.normal, &gn) < EPS {
                    if k.depth > g.depth {
                        g.depth = k.depth;
                        g.side1 = k.side1;
                    }
                    return;
                }
            }
            if g.depth < shallowest {
                shallowest = g.depth;
                slot = Some(i);
            }
        }
        if sink.is_full() {
            // (No slot when the limit is 0 or every kept depth is NaN.)
            let Some(i) = slot else { return };
            if !(shallowest < k.depth) {
                return;
            }
            let g = sink.get_mut(i);
            g.pos = [k.pos[0], k.pos[1], k.pos[2], 0.0];
            g.normal = [k.normal[0], k.normal[1], k.normal[2], 0.0];
            g.depth = k.depth;
            g.side1 = k.side1;
            return;
        }
    }
    sink.push(k);
}

pub fn collide_trimesh_box(mesh: &Mesh, host: &dyn TriHost, b: &BoxShape, bp: &Pose, sink: &mut ContactSink) -> usize {
    let bx = BoxData {
        c: [bp.pos[0], bp.pos[1], bp.pos[2]],
        ax: [bp.axis(0), bp.axis(1), bp.axis(2)],
        h: [b.sides[0] * 0.5, b.sides[1] * 0.5, b.sides[2] * 0.5],
    };
    let cand = mesh.candidates_obb(bp, &bx.h);
    if cand.is_empty() {
        return 0;
    }
    host.touched(&cand);
    let mut pts = Reused::take(&POINTS);
    let mut bufs = [Poly16::EMPTY; 2];
    for &t in cand.iter() {
        if !host.accept(t) {
            continue;
        }
        let v = mesh.triangle(t as usize);
        let Some(s) = bx.sat(&v[0], &v[1], &v[2]) else { continue };
        pts.clear();
        bx.contacts(&v, &s, &mut pts, &mut bufs);
        for &(p, depth) in pts.iter() {
            let mut k = Contact::new(p, s.normal, depth);
            k.side1 = t;
            generate(sink, k);
            if sink.unimportant() && sink.is_full() {
                break;
            }
        }
        if sink.unimportant() && sink.is_full() {
            break;
        }
    }
    sink.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::contact::dContactGeom;
    use crate::math::rotation::r_from_axis_and_angle;

    /// The shortcut never skips an edge axis that ODE's exact test
    /// would take: random depths, lengths and bests, many of them within
    /// a few ulps of the tie 1.5·depth/√l2 = best, and extreme scales.
    #[test]
    fn edge_axis_shortcut_never_skips_a_winner() {
        let mut s = 7u64;
        let mut unit = || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        let (mut skipped, mut near) = (0, 0);
        for i in 0..400_000 {
            let scale = [1.0, 1e-100, 1e100, 1e-150, 1e150][i % 5];
            let depth = unit() * scale;
            let l2 = f64::EPSILON + unit() * [1.0, 1e-8, 1e8][i % 3];
            let tie = depth * 1.5 / l2.sqrt();
            let best = match i % 4 {
                0 => unit() * 2.0 * tie,
                // Within a few ulps of the tie either way.
                1 => tie * (1.0 + (unit() - 0.5) * 1e-15),
                2 => f64::from_bits(tie.to_bits().wrapping_add((unit() * 16.0) as u64).wrapping_sub(8)),
                _ => tie * (1.0 - 1e-9 * unit()),
            };
            let exact_wins = depth * (1.0 / l2.sqrt()) * 1.5 < best;
            if edge_axis_loses(depth, l2, best) {
                assert!(!exact_wins, "depth {depth:e} l2 {l2:e} best {best:e}");
                skipped += 1;
            } else if !exact_wins && i.is_multiple_of(4) {
                near += 1;
            }
        }
        // The shortcut decides most clearly losing axes.
        assert!(skipped > 3 * near, "{skipped} {near}");
    }

    /// A box tilted on a flat grid with a small contact limit keeps the
    /// deepest contacts of the full set, not the first ones found (which
    /// include zero-depth points clipped on the surface).
    #[test]
    fn small_limits_keep_the_deepest_contacts() {
        // 4 x 4 grid of unit cells at z = 0 (32 triangles).
        let mut v: Vec<f32> = Vec::new();
        for j in 0..5 {
            for i in 0..5 {
                v.extend([i as f32 - 2.0, j as f32 - 2.0, 0.0]);
            }
        }
        let mut idx: Vec<u32> = Vec::new();
        for j in 0..4u32 {
            for i in 0..4u32 {
                let (a, b, c, d) = (j * 5 + i, j * 5 + i + 1, (j + 1) * 5 + i, (j + 1) * 5 + i + 1);
                idx.extend([a, b, d, a, d, c]);
            }
        }
        let mut data = TriMeshData::default();
        // SAFETY: v and idx outlive `data`'s use; indices < vertex count.
        unsafe {
            data.build(
                v.as_ptr() as *const u8,
                12,
                25,
                false,
                idx.as_ptr() as *const u8,
                idx.len() / 3,
                12,
                std::ptr::null(),
            );
        }
        let mesh = Mesh { data: &data, pose: Pose::IDENTITY };
        let shape = BoxShape { sides: [1.2, 0.9, 0.5] };
        let mut tested = 0;
        for k in 0..40 {
            let a = 0.05 + 0.01 * k as f64;
            let r = r_from_axis_and_angle(0.3, 1.0, 0.1 * k as f64, a);
            let pose = Pose::new([0.37 - 0.02 * k as f64, 0.21, 0.2], r);
            // SAFETY: dContactGeom is plain data (null geoms are valid).
            let mut full: [dContactGeom; 64] = unsafe { std::mem::zeroed() };
            let n = collide_trimesh_box(&mesh, &NoHost, &shape, &pose, &mut ContactSink::from_slice(&mut full, 64));
            let mut deepest: Vec<f64> = full[..n].iter().map(|c| c.depth).collect();
            deepest.sort_by(|x, y| y.total_cmp(x));
            if n < 2 || deepest[n - 1] == deepest[0] {
                continue;
            }
            tested += 1;
            for limit in 1..n {
                // SAFETY: as above.
                let mut buf: [dContactGeom; 64] = unsafe { std::mem::zeroed() };
                let m = collide_trimesh_box(
                    &mesh,
                    &NoHost,
                    &shape,
                    &pose,
                    &mut ContactSink::from_slice(&mut buf, limit as i32),
                );
                assert_eq!(m, limit);
                let mut kept: Vec<f64> = buf[..m].iter().map(|c| c.depth).collect();
                kept.sort_by(|x, y| y.total_cmp(x));
                assert_eq!(kept, deepest[..limit], "placement {k}, limit {limit}");
            }
        }
        assert!(tested >= 20, "{tested}");
    }
}
