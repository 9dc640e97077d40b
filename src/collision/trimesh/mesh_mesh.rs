//! Trimesh–trimesh, with the semantics of ODE's OPCODE build (Francisco
//! León's collider):
//! - the pairs are the intersecting triangle pairs (a BVH–BVH descent in
//!   world frame, then an exact triangle–triangle separating-axis test);
//! - per pair, each triangle's plane is tried as the separating direction:
//!   the other triangle is clipped to this one's prism (edge planes) and
//!   its points deepest below the plane (within 1e-6 of the deepest) are
//!   kept; the plane with the smaller penetration wins (the first on
//!   ties). Normal −n1 (first triangle's plane) or n2; no contact when the
//!   clipped set is empty or the penetration is negative;
//! - contacts are deduplicated on a 1e-4 grid: a new point in the cell of
//!   an existing one replaces it when deeper by more than 1e-5, is
//!   averaged into it (length-weighted normal sum, sides from the merge
//!   callbacks or −1) when within 1e-5, and dropped when shallower; a
//!   merge whose normals cancel removes the contact (the last one moves
//!   into its slot). Once the buffer is full, new points are dropped but
//!   existing ones still update.
//! Triangle callbacks are not consulted, as in ODE. side1/side2 = the
//! triangles of mesh 1 and mesh 2.

use super::*;
use crate::collision::contact::{Contact, ContactSink};
use crate::math::vec::safe_normalize3;
use std::collections::HashMap;

type Tri = [[f64; 3]; 3];

/// Clips the convex polygon `pts` to n·x − c ≤ 1e-8, at most 8 points
/// (ODE's walk: points behind are kept, crossings added in order).
fn clip_polygon(n: &[f64; 3], c: f64, pts: &mut Vec<[f64; 3]>) {
    if pts.is_empty() {
        return;
    }
    let cnt = pts.len();
    let mut out: Vec<[f64; 3]> = Vec::with_capacity(8);
    let mut prev_front = false;
    let cut = |s1: &[f64; 3], s2: &[f64; 3]| {
        let d1 = dot(s1, n) - c;
        let e = sub(s2, s1);
        let d2 = dot(&e, n);
        add(&scale(&e, -d1 / d2), s1)
    };
    for i in 0..=cnt {
        let vi = i % cnt;
        let d = dot(n, &pts[vi]) - c;
        let front = d > 1.0e-8;
        if !front {
            if i > 0 && prev_front && out.len() < 8 {
                out.push(cut(&pts[i - 1], &pts[vi]));
            }
            if out.len() < 8 && i < cnt {
                out.push(pts[vi]);
            }
        } else if i > 0 && !prev_front && out.len() < 8 {
            out.push(cut(&pts[i - 1], &pts[vi]));
        }
        prev_front = front;
    }
    *pts = out;
}

/// Unit plane normal (v1 − v0) × (v2 − v0) and its offset, if not degenerate.
fn plane(t: &Tri) -> Option<([f64; 3], f64)> {
    let mut n = cross(&sub(&t[1], &t[0]), &sub(&t[2], &t[0]));
    if !safe_normalize3(&mut n) {
        return None;
    }
    Some((n, dot(&n, &t[0])))
}

/// The points of `pts` inside the prism of `tri`, then the deepest below
/// the plane (n, d): (penetration, points).
fn deepest_inside(pts: &Tri, tri: &Tri, n: &[f64; 3], d: f64) -> (f64, Vec<[f64; 3]>) {
    let mut p: Vec<[f64; 3]> = pts.to_vec();
    for i in 0..3 {
        let mut pn = cross(&sub(&tri[(i + 1) % 3], &tri[i]), n);
        if safe_normalize3(&mut pn) {
            let pd = dot(&pn, &tri[i]);
            clip_polygon(&pn, pd, &mut p);
        }
    }
    let mut best = f64::NEG_INFINITY;
    let mut deep: Vec<[f64; 3]> = Vec::new();
    for q in &p {
        let dist = -(dot(n, q) - d);
        if dist > best {
            best = dist;
            deep.clear();
            deep.push(*q);
        } else if dist + 1e-6 >= best {
            deep.push(*q);
        }
    }
    (best, deep)
}

/// Penetration, normal (into mesh 1) and contact points of one pair.
fn tri_tri(t1: &Tri, t2: &Tri) -> Option<(f64, [f64; 3], Vec<[f64; 3]>)> {
    let mut depth = f64::INFINITY;
    let mut normal = [0.0; 3];
    let mut pts = Vec::new();
    let mut first = true;
    if let Some((n1, d1)) = plane(t1) {
        let (d, p) = deepest_inside(t2, t1, &n1, d1);
        depth = d;
        normal = n1;
        pts = p;
    }
    if let Some((n2, d2)) = plane(t2) {
        let (d, p) = deepest_inside(t1, t2, &n2, d2);
        if d < depth {
            depth = d;
            normal = n2;
            pts = p;
            first = false;
        }
    }
    if first {
        normal = scale(&normal, -1.0);
    }
    if depth < 0.0 {
        return None;
    }
    Some((depth, normal, pts))
}

/// Do two triangles intersect (touching counts)? Separating axes: both
/// normals, the nine edge cross products, and the in-plane edge normals
/// for coplanar pairs.
pub fn tri_tri_overlap(a: &Tri, b: &Tri) -> bool {
    let separated = |ax: &[f64; 3]| {
        if dot(ax, ax) < 1e-30 {
            return false;
        }
        let pa = [dot(ax, &a[0]), dot(ax, &a[1]), dot(ax, &a[2])];
        let pb = [dot(ax, &b[0]), dot(ax, &b[1]), dot(ax, &b[2])];
        let (amin, amax) = (pa[0].min(pa[1]).min(pa[2]), pa[0].max(pa[1]).max(pa[2]));
        let (bmin, bmax) = (pb[0].min(pb[1]).min(pb[2]), pb[0].max(pb[1]).max(pb[2]));
        amax < bmin || bmax < amin
    };
    let ea = [sub(&a[1], &a[0]), sub(&a[2], &a[1]), sub(&a[0], &a[2])];
    let eb = [sub(&b[1], &b[0]), sub(&b[2], &b[1]), sub(&b[0], &b[2])];
    let na = cross(&ea[0], &ea[1]);
    let nb = cross(&eb[0], &eb[1]);
    if separated(&na) || separated(&nb) {
        return false;
    }
    let par = cross(&na, &nb);
    if dot(&par, &par) <= 1e-12 * dot(&na, &na) * dot(&nb, &nb) {
        // (Nearly) coplanar: in-plane edge normals of both.
        for e in ea.iter() {
            if separated(&cross(&na, e)) {
                return false;
            }
        }
        for e in eb.iter() {
            if separated(&cross(&nb, e)) {
                return false;
            }
        }
        return true;
    }
    for x in &ea {
        for y in &eb {
            if separated(&cross(x, y)) {
                return false;
            }
        }
    }
    true
}

fn tri_box(t: &Tri) -> ([f64; 3], [f64; 3]) {
    let mut a = t[0];
    let mut b = t[0];
    for v in &t[1..] {
        for k in 0..3 {
            a[k] = a[k].min(v[k]);
            b[k] = b[k].max(v[k]);
        }
    }
    (a, b)
}

/// World box of a node box given in mesh frame.
fn world_box(p: &Pose, mn: &[f64; 3], mx: &[f64; 3]) -> ([f64; 3], [f64; 3]) {
    let c = [(mn[0] + mx[0]) * 0.5, (mn[1] + mx[1]) * 0.5, (mn[2] + mx[2]) * 0.5];
    let e = [(mx[0] - mn[0]) * 0.5, (mx[1] - mn[1]) * 0.5, (mx[2] - mn[2]) * 0.5];
    let wc = p.to_world(&c);
    let mut a = [0.0; 3];
    let mut b = [0.0; 3];
    for i in 0..3 {
        let r = p.r[4 * i].abs() * e[0] + p.r[4 * i + 1].abs() * e[1] + p.r[4 * i + 2].abs() * e[2];
        a[i] = wc[i] - r;
        b[i] = wc[i] + r;
    }
    (a, b)
}

/// Intersecting triangle pairs of two placed meshes, sorted.
pub fn overlapping_pairs(m1: &Mesh, m2: &Mesh) -> Vec<(u32, u32)> {
    let (b1, b2) = (&m1.data.bvh, &m2.data.bvh);
    let mut out = Vec::new();
    if b1.nodes.is_empty() || b2.nodes.is_empty() {
        return out;
    }
    // World boxes are made on visit: a query touches few nodes.
    let w1 = |i: u32| {
        let n = &b1.nodes[i as usize];
        world_box(&m1.pose, &n.min, &n.max)
    };
    let w2 = |i: u32| {
        let n = &b2.nodes[i as usize];
        world_box(&m2.pose, &n.min, &n.max)
    };
    let overlap = |a: &([f64; 3], [f64; 3]), b: &([f64; 3], [f64; 3])| (0..3).all(|k| a.0[k] <= b.1[k] && b.0[k] <= a.1[k]);
    let mut stack = vec![(0u32, 0u32)];
    while let Some((i, j)) = stack.pop() {
        let (bi, bj) = (w1(i), w2(j));
        if !overlap(&bi, &bj) {
            continue;
        }
        let (n1, n2) = (&b1.nodes[i as usize], &b2.nodes[j as usize]);
        match (n1.leaf, n2.leaf) {
            (true, true) => {
                let leaf2: Vec<(u32, Tri, ([f64; 3], [f64; 3]))> = b2.tris[n2.a as usize..(n2.a + n2.b) as usize]
                    .iter()
                    .map(|&t| {
                        let tr = m2.triangle(t as usize);
                        (t, tr, tri_box(&tr))
                    })
                    .collect();
                for &t1 in &b1.tris[n1.a as usize..(n1.a + n1.b) as usize] {
                    let tri1 = m1.triangle(t1 as usize);
                    let box1 = tri_box(&tri1);
                    for (t2, tri2, box2) in &leaf2 {
                        if overlap(&box1, box2) && tri_tri_overlap(&tri1, tri2) {
                            out.push((t1, *t2));
                        }
                    }
                }
            }
            (false, true) => {
                stack.push((n1.a, j));
                stack.push((n1.b, j));
            }
            (true, false) => {
                stack.push((i, n2.a));
                stack.push((i, n2.b));
            }
            (false, false) => {
                // Descend the larger box first.
                let v = |b: &([f64; 3], [f64; 3])| (b.1[0] - b.0[0]) * (b.1[1] - b.0[1]) * (b.1[2] - b.0[2]);
                if v(&bi) >= v(&bj) {
                    stack.push((n1.a, j));
                    stack.push((n1.b, j));
                } else {
                    stack.push((i, n2.a));
                    stack.push((i, n2.b));
                }
            }
        }
    }
    out.sort_unstable();
    out
}

struct Slot {
    c: Contact,
    /// Length of the accumulated normal sum (for averaging).
    len: f64,
    cell: (i64, i64, i64),
}

fn cell(p: &[f64; 3]) -> (i64, i64, i64) {
    let f = |x: f64| (x * 10000.0).floor() as i64;
    (f(p[0]), f(p[1]), f(p[2]))
}

/// Trimesh `m1` against trimesh `m2`; `merge1`/`merge2` are the meshes'
/// `dTriMergeCallback`s (with their geoms), used when contacts average.
pub fn collide_trimesh_trimesh(
    m1: &Mesh,
    m2: &Mesh,
    merge1: Option<(TriMergeCallback, *mut c_void)>,
    merge2: Option<(TriMergeCallback, *mut c_void)>,
    sink: &mut ContactSink,
) -> usize {
    let max = sink.max();
    if max == 0 {
        return 0;
    }
    let unimportant = sink.unimportant();
    let pairs = overlapping_pairs(m1, m2);
    let mut slots: Vec<Slot> = Vec::new();
    let mut index: HashMap<(i64, i64, i64), usize> = HashMap::new();
    'pairs: for (id1, id2) in pairs {
        let (t1, t2) = (m1.triangle(id1 as usize), m2.triangle(id2 as usize));
        let Some((depth, normal, pts)) = tri_tri(&t1, &t2) else { continue };
        for p in pts {
            let key = cell(&p);
            match index.get(&key).copied() {
                None => {
                    if slots.len() < max {
                        let mut c = Contact::new(p, normal, depth);
                        c.side1 = id1 as i32;
                        c.side2 = id2 as i32;
                        index.insert(key, slots.len());
                        slots.push(Slot { c, len: 1.0, cell: key });
                    }
                }
                Some(k) => {
                    let diff = depth - slots[k].c.depth;
                    if diff > 1e-5 {
                        let s = &mut slots[k];
                        s.c.normal = normal;
                        s.len = 1.0;
                        s.c.depth = depth;
                        s.c.side1 = id1 as i32;
                        s.c.side2 = id2 as i32;
                    } else if diff >= -1e-5 {
                        let s = &mut slots[k];
                        let sum = add(&normal, &scale(&s.c.normal, s.len));
                        let l = norm(&sum);
                        if l > 1e-7 {
                            s.c.normal = scale(&sum, 1.0 / l);
                            s.len = l;
                            // SAFETY: host callbacks registered on the meshes.
                            s.c.side1 = merge1.map_or(-1, |(f, g)| unsafe { f(g, s.c.side1, id1 as i32) });
                            s.c.side2 = merge2.map_or(-1, |(f, g)| unsafe { f(g, s.c.side2, id2 as i32) });
                        } else {
                            // The normals cancelled: drop the contact, the
                            // last one takes its slot.
                            index.remove(&s.cell);
                            let last = slots.len() - 1;
                            if k != last {
                                slots.swap(k, last);
                                index.insert(slots[k].cell, k);
                            }
                            slots.pop();
                        }
                    }
                }
            }
            if unimportant && slots.len() == max {
                break 'pairs;
            }
        }
    }
    for s in slots {
        sink.push(s.c);
    }
    sink.len()
}
