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
//!
//! Triangle callbacks are not consulted, as in ODE. side1/side2 = the
//! triangles of mesh 1 and mesh 2.
//!
//! Speed: a call works in a per-thread scratch (node world boxes,
//! world triangles with their edges and planes, computed on first use and
//! tagged with the call's generation), so a warm call does not allocate
//! and no node or triangle is transformed twice.

use super::*;
use crate::collision::contact::{Contact, ContactSink};
use crate::math::vec::safe_normalize3;
use std::cell::Cell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

type Tri = [[f64; 3]; 3];
type Plane = ([f64; 3], f64);

/// A convex polygon of at most 8 points (the clip keeps no more).
#[derive(Clone, Copy)]
struct Poly {
    n: usize,
    p: [[f64; 3]; 8],
}

impl Poly {
    const EMPTY: Poly = Poly { n: 0, p: [[0.0; 3]; 8] };

    fn push(&mut self, q: [f64; 3]) {
        self.p[self.n] = q;
        self.n += 1;
    }

    fn points(&self) -> &[[f64; 3]] {
        &self.p[..self.n]
    }
}

/// Clips the convex polygon `pts` to n·x − c ≤ 1e-8 into `out`, at most
/// 8 points (ODE's walk: points behind are kept, crossings added in order).
fn clip_polygon(n: &[f64; 3], c: f64, pts: &Poly, out: &mut Poly) {
    out.n = 0;
    let cnt = pts.n;
    if cnt == 0 {
        return;
    }
    let mut prev_front = false;
    let cut = |s1: &[f64; 3], s2: &[f64; 3]| {
        let d1 = dot(s1, n) - c;
        let e = sub(s2, s1);
        let d2 = dot(&e, n);
        add(&scale(&e, -d1 / d2), s1)
    };
    for i in 0..=cnt {
        let vi = if i == cnt { 0 } else { i };
        let d = dot(n, &pts.p[vi]) - c;
        let front = d > 1.0e-8;
        if !front {
            if i > 0 && prev_front && out.n < 8 {
                out.push(cut(&pts.p[i - 1], &pts.p[vi]));
            }
            if out.n < 8 && i < cnt {
                out.push(pts.p[vi]);
            }
        } else if i > 0 && !prev_front && out.n < 8 {
            out.push(cut(&pts.p[i - 1], &pts.p[vi]));
        }
        prev_front = front;
    }
}

/// Unit plane normal (v1 − v0) × (v2 − v0) and its offset, if not degenerate.
fn plane(t: &Tri) -> Option<Plane> {
    let mut n = cross(&sub(&t[1], &t[0]), &sub(&t[2], &t[0]));
    if !safe_normalize3(&mut n) {
        return None;
    }
    Some((n, dot(&n, &t[0])))
}

/// The prism planes of `tri` (plane normal `n`): unit outward edge
/// normals and offsets, None for a degenerate edge.
fn edge_planes(tri: &Tri, n: &[f64; 3]) -> [Option<Plane>; 3] {
    let mut out = [None; 3];
    for (i, o) in out.iter_mut().enumerate() {
        let mut pn = cross(&sub(&tri[(i + 1) % 3], &tri[i]), n);
        if safe_normalize3(&mut pn) {
            *o = Some((pn, dot(&pn, &tri[i])));
        }
    }
    out
}

/// The points of `pts` inside the prism `edges` of a triangle, then the
/// deepest below its plane (n, d): (penetration, points).
fn deepest_inside(pts: &Tri, edges: &[Option<Plane>; 3], n: &[f64; 3], d: f64) -> (f64, Poly) {
    let mut bufs = [Poly::EMPTY, Poly::EMPTY];
    bufs[0].n = 3;
    bufs[0].p[..3].copy_from_slice(pts);
    let mut cur = 0;
    for (pn, pd) in edges.iter().flatten() {
        let (a, b) = bufs.split_at_mut(1);
        if cur == 0 {
            clip_polygon(pn, *pd, &a[0], &mut b[0]);
        } else {
            clip_polygon(pn, *pd, &b[0], &mut a[0]);
        }
        cur = 1 - cur;
    }
    let mut best = f64::NEG_INFINITY;
    let mut deep = Poly::EMPTY;
    for q in bufs[cur].points() {
        let dist = -(dot(n, q) - d);
        if dist > best {
            best = dist;
            deep.n = 0;
            deep.push(*q);
        } else if dist + 1e-6 >= best {
            deep.push(*q);
        }
    }
    (best, deep)
}

/// A triangle's plane and prism planes.
#[derive(Clone, Copy)]
struct TriPlanes {
    plane: Option<Plane>,
    edges: [Option<Plane>; 3],
}

impl TriPlanes {
    fn of(t: &Tri) -> TriPlanes {
        let plane = plane(t);
        let edges = match &plane {
            Some((n, _)) => edge_planes(t, n),
            None => [None; 3],
        };
        TriPlanes { plane, edges }
    }
}

/// Penetration, normal (into mesh 1) and contact points of one pair.
fn tri_tri(t1: &Tri, p1: &TriPlanes, t2: &Tri, p2: &TriPlanes) -> Option<(f64, [f64; 3], Poly)> {
    let mut depth = f64::INFINITY;
    let mut normal = [0.0; 3];
    let mut pts = Poly::EMPTY;
    let mut first = true;
    if let Some((n1, d1)) = p1.plane {
        let (d, p) = deepest_inside(t2, &p1.edges, &n1, d1);
        depth = d;
        normal = n1;
        pts = p;
    }
    if let Some((n2, d2)) = p2.plane {
        let (d, p) = deepest_inside(t1, &p2.edges, &n2, d2);
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

/// What the overlap test needs of one triangle: edges (v1 − v0, v2 − v1,
/// v0 − v2), their normal n = e0 × e1, n·n, and the triangle's own
/// extent along n.
#[derive(Clone, Copy, Default)]
struct SatFrame {
    e: [[f64; 3]; 3],
    n: [f64; 3],
    nn: f64,
    lo: f64,
    hi: f64,
}

fn sat_frame(t: &Tri) -> SatFrame {
    let e = [sub(&t[1], &t[0]), sub(&t[2], &t[1]), sub(&t[0], &t[2])];
    let n = cross(&e[0], &e[1]);
    let p = [dot(&n, &t[0]), dot(&n, &t[1]), dot(&n, &t[2])];
    SatFrame { e, n, nn: dot(&n, &n), lo: p[0].min(p[1]).min(p[2]), hi: p[0].max(p[1]).max(p[2]) }
}

/// Do two triangles intersect (touching counts)? Separating axes: both
/// normals, the nine edge cross products, and the in-plane edge normals
/// for coplanar pairs.
pub fn tri_tri_overlap(a: &Tri, b: &Tri) -> bool {
    overlap_with(a, &sat_frame(a), b, &sat_frame(b))
}

/// `tri_tri_overlap` with the frames already made.
fn overlap_with(a: &Tri, fa: &SatFrame, b: &Tri, fb: &SatFrame) -> bool {
    let range = |ax: &[f64; 3], t: &Tri| {
        let p = [dot(ax, &t[0]), dot(ax, &t[1]), dot(ax, &t[2])];
        (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]))
    };
    let separated = |ax: &[f64; 3]| {
        if dot(ax, ax) < 1e-30 {
            return false;
        }
        let ((amin, amax), (bmin, bmax)) = (range(ax, a), range(ax, b));
        amax < bmin || bmax < amin
    };
    // A triangle's own normal: its extent is known.
    let off_plane = |f: &SatFrame, other: &Tri| {
        if f.nn < 1e-30 {
            return false;
        }
        let (omin, omax) = range(&f.n, other);
        f.hi < omin || omax < f.lo
    };
    if off_plane(fa, b) || off_plane(fb, a) {
        return false;
    }
    let (ea, na, eb, nb) = (&fa.e, &fa.n, &fb.e, &fb.n);
    let par = cross(na, nb);
    if dot(&par, &par) <= 1e-12 * fa.nn * fb.nn {
        // (Nearly) coplanar: in-plane edge normals of both.
        for e in ea.iter() {
            if separated(&cross(na, e)) {
                return false;
            }
        }
        for e in eb.iter() {
            if separated(&cross(nb, e)) {
                return false;
            }
        }
        return true;
    }
    for x in ea {
        for y in eb {
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

/// Closed boxes overlap (all six comparisons, without branches: the
/// outcome is hard to predict during a descent).
#[inline]
fn boxes_overlap(a0: &[f64; 3], a1: &[f64; 3], b0: &[f64; 3], b1: &[f64; 3]) -> bool {
    (a0[0] <= b1[0]) & (b0[0] <= a1[0]) & (a0[1] <= b1[1]) & (b0[1] <= a1[1]) & (a0[2] <= b1[2]) & (b0[2] <= a1[2])
}

/// A node's world box (and volume), valid when `stamp` is the call's.
#[derive(Clone, Copy, Default)]
struct NodeBox {
    stamp: u32,
    min: [f64; 3],
    max: [f64; 3],
    vol: f64,
}

/// A triangle's world box, valid when `stamp` is the call's (kept apart
/// from the rest: the descent reads many boxes and few triangles).
#[derive(Clone, Copy, Default)]
struct TriBox {
    stamp: u32,
    min: [f64; 3],
    max: [f64; 3],
}

/// A triangle in world frame with its overlap-test edges and normal
/// (`t` made with its `TriBox`, `sat` when `sat_stamp` is the call's,
/// `planes` when `plane_stamp` is).
#[derive(Clone, Copy)]
struct TriCache {
    sat_stamp: u32,
    plane_stamp: u32,
    t: Tri,
    sat: SatFrame,
    planes: TriPlanes,
}

impl Default for TriCache {
    fn default() -> Self {
        TriCache {
            sat_stamp: 0,
            plane_stamp: 0,
            t: [[0.0; 3]; 3],
            sat: SatFrame::default(),
            planes: TriPlanes { plane: None, edges: [None; 3] },
        }
    }
}

/// One mesh's per-call caches.
#[derive(Default)]
struct Side {
    nodes: Vec<NodeBox>,
    boxes: Vec<TriBox>,
    tris: Vec<TriCache>,
}

impl Side {
    fn prepare(&mut self, m: &Mesh) {
        if self.nodes.len() < m.data.bvh.nodes.len() {
            self.nodes.resize(m.data.bvh.nodes.len(), NodeBox::default());
        }
        if self.tris.len() < m.data.tri_count {
            self.boxes.resize(m.data.tri_count, TriBox::default());
            self.tris.resize(m.data.tri_count, TriCache::default());
        }
    }

    fn reset(&mut self) {
        self.nodes.iter_mut().for_each(|n| n.stamp = 0);
        self.boxes.iter_mut().for_each(|b| b.stamp = 0);
        self.tris.iter_mut().for_each(|t| {
            t.sat_stamp = 0;
            t.plane_stamp = 0;
        });
    }

    #[inline]
    fn node(&mut self, m: &Mesh, i: u32, gen: u32) -> NodeBox {
        let nb = &mut self.nodes[i as usize];
        if nb.stamp != gen {
            let n = &m.data.bvh.nodes[i as usize];
            let (a, b) = world_box(&m.pose, &n.min, &n.max);
            *nb = NodeBox { stamp: gen, min: a, max: b, vol: (b[0] - a[0]) * (b[1] - a[1]) * (b[2] - a[2]) };
        }
        *nb
    }

    /// Makes triangle `t` in world frame (box, edges) if not yet this call.
    #[inline]
    fn tri(&mut self, m: &Mesh, t: u32, gen: u32) -> TriBox {
        let b = &mut self.boxes[t as usize];
        if b.stamp != gen {
            let tr = m.triangle(t as usize);
            let (mn, mx) = tri_box(&tr);
            *b = TriBox { stamp: gen, min: mn, max: mx };
            self.tris[t as usize].t = tr;
        }
        *b
    }

    /// Triangle `t` (already made this call) with its overlap frame.
    #[inline]
    fn sat(&mut self, t: u32, gen: u32) -> &TriCache {
        let c = &mut self.tris[t as usize];
        if c.sat_stamp != gen {
            c.sat = sat_frame(&c.t);
            c.sat_stamp = gen;
        }
        c
    }

    /// Triangle `t` (already made this call) with its planes.
    fn planes(&mut self, t: u32, gen: u32) -> &TriCache {
        let c = &mut self.tris[t as usize];
        if c.plane_stamp != gen {
            c.planes = TriPlanes::of(&c.t);
            c.plane_stamp = gen;
        }
        c
    }
}

/// Fast hash for the contact grid cells (keys are small integers).
#[derive(Default)]
struct CellHasher(u64);

impl Hasher for CellHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_i64(&mut self, x: i64) {
        self.write_u64(x as u64);
    }
}

type CellMap = HashMap<(i64, i64, i64), usize, BuildHasherDefault<CellHasher>>;

/// Per-thread working memory of the collider.
#[derive(Default)]
struct Scratch {
    gen: u32,
    s1: Side,
    s2: Side,
    stack: Vec<(u32, u32)>,
    pairs: Vec<(u32, u32)>,
    slots: Vec<Slot>,
    index: CellMap,
}

thread_local! {
    static SCRATCH: Cell<Option<Box<Scratch>>> = const { Cell::new(None) };
}

/// Runs `f` on this thread's scratch (a fresh one if a callback re-entered).
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    let mut s = SCRATCH.with(|c| c.take()).unwrap_or_default();
    let r = f(&mut s);
    SCRATCH.with(|c| c.set(Some(s)));
    r
}

impl Scratch {
    /// Starts a call on meshes `m1`, `m2`: a new generation.
    fn begin(&mut self, m1: &Mesh, m2: &Mesh) -> u32 {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.s1.reset();
            self.s2.reset();
            self.gen = 1;
        }
        self.s1.prepare(m1);
        self.s2.prepare(m2);
        self.gen
    }

    /// Fills `self.pairs` with the intersecting triangle pairs, sorted.
    fn find_pairs(&mut self, m1: &Mesh, m2: &Mesh, gen: u32) {
        let (b1, b2) = (&m1.data.bvh, &m2.data.bvh);
        self.pairs.clear();
        self.stack.clear();
        if b1.nodes.is_empty() || b2.nodes.is_empty() {
            return;
        }
        let Scratch { s1, s2, stack, pairs, .. } = self;
        stack.push((0, 0));
        while let Some((i, j)) = stack.pop() {
            let (bi, bj) = (s1.node(m1, i, gen), s2.node(m2, j, gen));
            if !boxes_overlap(&bi.min, &bi.max, &bj.min, &bj.max) {
                continue;
            }
            let (n1, n2) = (&b1.nodes[i as usize], &b2.nodes[j as usize]);
            match (n1.leaf, n2.leaf) {
                (true, true) => {
                    let l2 = &b2.tris[n2.a as usize..(n2.a + n2.b) as usize];
                    let mut made2 = false;
                    for &t1 in &b1.tris[n1.a as usize..(n1.a + n1.b) as usize] {
                        let x1 = s1.tri(m1, t1, gen);
                        // Against the other leaf's box first.
                        if !boxes_overlap(&x1.min, &x1.max, &bj.min, &bj.max) {
                            continue;
                        }
                        if !made2 {
                            for &t2 in l2 {
                                s2.tri(m2, t2, gen);
                            }
                            made2 = true;
                        }
                        for &t2 in l2 {
                            let x2 = &s2.boxes[t2 as usize];
                            if boxes_overlap(&x1.min, &x1.max, &x2.min, &x2.max) {
                                let (c1, c2) = (s1.sat(t1, gen), s2.sat(t2, gen));
                                if overlap_with(&c1.t, &c1.sat, &c2.t, &c2.sat) {
                                    pairs.push((t1, t2));
                                }
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
                    if bi.vol >= bj.vol {
                        stack.push((n1.a, j));
                        stack.push((n1.b, j));
                    } else {
                        stack.push((i, n2.a));
                        stack.push((i, n2.b));
                    }
                }
            }
        }
        pairs.sort_unstable();
    }
}

/// Intersecting triangle pairs of two placed meshes, sorted.
pub fn overlapping_pairs(m1: &Mesh, m2: &Mesh) -> Vec<(u32, u32)> {
    with_scratch(|s| {
        let gen = s.begin(m1, m2);
        s.find_pairs(m1, m2, gen);
        s.pairs.clone()
    })
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
    with_scratch(|s| {
        let gen = s.begin(m1, m2);
        s.find_pairs(m1, m2, gen);
        s.slots.clear();
        s.index.clear();
        let Scratch { s1, s2, pairs, slots, index, .. } = s;
        merge_contacts(pairs, s1, s2, gen, max, sink.unimportant(), merge1, merge2, slots, index);
        for s in slots.drain(..) {
            sink.push(s.c);
        }
    });
    sink.len()
}

/// Contacts of the pairs, merged on the 1e-4 grid into `slots`.
#[allow(clippy::too_many_arguments)]
fn merge_contacts(
    pairs: &[(u32, u32)],
    s1: &mut Side,
    s2: &mut Side,
    gen: u32,
    max: usize,
    unimportant: bool,
    merge1: Option<(TriMergeCallback, *mut c_void)>,
    merge2: Option<(TriMergeCallback, *mut c_void)>,
    slots: &mut Vec<Slot>,
    index: &mut CellMap,
) {
    for &(id1, id2) in pairs {
        let c1 = s1.planes(id1, gen);
        let c2 = s2.planes(id2, gen);
        let Some((depth, normal, pts)) = tri_tri(&c1.t, &c1.planes, &c2.t, &c2.planes) else { continue };
        for &p in pts.points() {
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
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::rotation::r_from_euler_angles;

    /// A UV sphere of radius 1 (s segments, s rings), f32 vertices.
    fn sphere(s: usize) -> (Vec<f32>, Vec<u32>) {
        let mut v = vec![0.0, 0.0, 1.0];
        for r in 1..s {
            let th = std::f64::consts::PI * r as f64 / s as f64;
            for k in 0..s {
                let ph = 2.0 * std::f64::consts::PI * k as f64 / s as f64;
                v.extend([(th.sin() * ph.cos()) as f32, (th.sin() * ph.sin()) as f32, th.cos() as f32]);
            }
        }
        v.extend([0.0, 0.0, -1.0]);
        let nv = (v.len() / 3) as u32;
        let ring = |r: usize, k: usize| (1 + (r - 1) * s + k % s) as u32;
        let mut i = Vec::new();
        for k in 0..s {
            i.extend([0, ring(1, k), ring(1, k + 1)]);
        }
        for r in 1..s - 1 {
            for k in 0..s {
                let (a, b, c, d) = (ring(r, k), ring(r, k + 1), ring(r + 1, k), ring(r + 1, k + 1));
                i.extend([a, c, d, a, d, b]);
            }
        }
        for k in 0..s {
            i.extend([nv - 1, ring(s - 1, k + 1), ring(s - 1, k)]);
        }
        (v, i)
    }

    #[test]
    fn pairs_equal_brute_force_over_repeated_calls() {
        let (v, i) = sphere(12);
        let mut data = TriMeshData::default();
        // SAFETY: v and i outlive `data`'s use below; indices < vertex count.
        unsafe {
            data.build(v.as_ptr() as *const u8, 12, v.len() / 3, false, i.as_ptr() as *const u8, i.len() / 3, 12, std::ptr::null());
        }
        let n = i.len() / 3;
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut touching = 0;
        for round in 0..40 {
            let p1 = Pose::new([rnd() - 0.5, rnd() - 0.5, rnd() - 0.5], r_from_euler_angles(rnd() * 6.0, rnd() * 3.0, rnd() * 6.0));
            let d = 1.2 + 0.8 * rnd();
            let (ph, th) = (rnd() * 6.0, rnd() * 3.0);
            let off = [d * th.sin() * ph.cos(), d * th.sin() * ph.sin(), d * th.cos()];
            let p2 = Pose::new(add(&[p1.pos[0], p1.pos[1], p1.pos[2]], &off), r_from_euler_angles(rnd() * 6.0, rnd() * 3.0, rnd() * 6.0));
            let (m1, m2) = (Mesh { data: &data, pose: p1 }, Mesh { data: &data, pose: p2 });
            let mut brute = Vec::new();
            for a in 0..n {
                for b in 0..n {
                    if tri_tri_overlap(&m1.triangle(a), &m2.triangle(b)) {
                        brute.push((a as u32, b as u32));
                    }
                }
            }
            // Twice: the second call runs on the warm scratch.
            assert_eq!(overlapping_pairs(&m1, &m2), brute, "round {round}");
            assert_eq!(overlapping_pairs(&m1, &m2), brute, "round {round} (warm)");
            touching += !brute.is_empty() as usize;
        }
        assert!(touching >= 20, "{touching}");
    }

    #[test]
    fn overlap_test_basics() {
        let a = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        // Piercing, touching at a vertex, and clearly apart.
        assert!(tri_tri_overlap(&a, &[[0.2, 0.2, -1.0], [0.2, 0.2, 1.0], [0.3, 0.3, 1.0]]));
        assert!(tri_tri_overlap(&a, &[[1.0, 0.0, 0.0], [2.0, 0.0, 1.0], [2.0, 1.0, 1.0]]));
        assert!(!tri_tri_overlap(&a, &[[0.6, 0.6, -1.0], [0.6, 0.6, 1.0], [0.9, 0.9, 1.0]]));
        // Coplanar: overlapping and disjoint.
        assert!(tri_tri_overlap(&a, &[[0.4, 0.4, 0.0], [1.0, 1.0, 0.0], [0.4, 1.0, 0.0]]));
        assert!(!tri_tri_overlap(&a, &[[0.6, 0.6, 0.0], [1.0, 1.0, 0.0], [0.6, 1.0, 0.0]]));
    }
}
