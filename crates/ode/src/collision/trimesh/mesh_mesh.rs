//! Trimesh–trimesh, with the semantics of ODE's OPCODE build (Francisco
//! León's collider):
//! - the pairs are the intersecting triangle pairs OPCODE's tree collider
//!   reports, in its order (`opcode::TreeQuery`: single precision, mesh 2
//!   moved into mesh 1's space);
//! - per pair, each triangle's plane is tried as the separating direction:
//!   the other triangle is clipped to this one's prism (edge planes) and
//!   its points deepest below the plane (within 1e-6 of the deepest) are
//!   kept; the plane with the smaller penetration wins (the first on
//!   ties). Normal −n1 (first triangle's plane) or n2; no contact when the
//!   clipped set is empty or the penetration is negative;
//! - contacts are deduplicated on a 1e-4 grid through ODE's hash set (256
//!   buckets of 4 keys; a full bucket stops culling, with ODE's message):
//!   a new point in the cell of an existing one replaces it when deeper
//!   by more than 1e-5, is
//!   averaged into it (length-weighted normal sum, sides from the merge
//!   callbacks or −1) when within 1e-5, and dropped when shallower; a
//!   merge whose normals cancel removes the contact (the last one moves
//!   into its slot). Once the buffer is full, new points are dropped but
//!   existing ones still update.
//!
//! Triangle callbacks are not consulted, as in ODE. side1/side2 = the
//! triangles of mesh 1 and mesh 2.
//!
//! Speed: a call works in a per-thread scratch (the descent's work list,
//! the pairs, world triangles with their planes computed on first use and
//! tagged with the call's generation), so a warm call does not allocate
//! and no triangle is transformed twice.

use super::*;
use crate::collision::contact::{Contact, ContactSink};
use crate::math::vec::safe_normalize3;
use std::cell::Cell;

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

/// A triangle in world frame with its planes, valid when `stamp` is the
/// call's.
#[derive(Clone, Copy)]
struct TriCache {
    stamp: u32,
    t: Tri,
    planes: TriPlanes,
}

impl Default for TriCache {
    fn default() -> Self {
        TriCache { stamp: 0, t: [[0.0; 3]; 3], planes: TriPlanes { plane: None, edges: [None; 3] } }
    }
}

/// One mesh's per-call caches.
#[derive(Default)]
struct Side {
    tris: Vec<TriCache>,
}

impl Side {
    fn prepare(&mut self, m: &Mesh) {
        if self.tris.len() < m.data.tri_count {
            self.tris.resize(m.data.tri_count, TriCache::default());
        }
    }

    fn reset(&mut self) {
        self.tris.iter_mut().for_each(|t| t.stamp = 0);
    }

    /// Triangle `t` in world frame with its planes (made once per call).
    fn planes(&mut self, m: &Mesh, t: u32, gen: u32) -> &TriCache {
        let c = &mut self.tris[t as usize];
        if c.stamp != gen {
            c.t = m.triangle(t as usize);
            c.planes = TriPlanes::of(&c.t);
            c.stamp = gen;
        }
        c
    }
}

/// ODE's contact set: 256 buckets of at most 4 keys, each key a 32-bit
/// hash of the contact's 1e-4 grid cell and the slot of the contact. A
/// new point joins the first contact of its bucket with the same hash
/// within a cell diagonal; a full bucket records nothing more (ODE says
/// so on the message channel), so later points in it are not culled.
#[derive(Clone, Copy, Default)]
struct Bucket {
    n: usize,
    keys: [(u32, u32); 4],
}

/// Marks the key of a point that has no slot (the array is full).
const NO_SLOT: u32 = u32::MAX;

struct ContactSet {
    buckets: [Bucket; 256],
}

impl Default for ContactSet {
    fn default() -> Self {
        ContactSet { buckets: [Bucket::default(); 256] }
    }
}

/// ODE's hash of a contact position: per axis the raw bits of
/// floor(x·1e4), folded byte by byte, the axes chained by a rotation.
fn contact_key(p: &[f64; 3]) -> u32 {
    let mut h: u32 = 0;
    for (i, x) in p.iter().enumerate() {
        let bits = (x * 10000.0).floor().to_bits();
        let input = (bits as u32) ^ ((bits >> 32) as u32);
        for shift in [24, 16, 8, 0] {
            h = (h << 4).wrapping_add((input >> shift) & 0xFF) ^ (h >> 28);
        }
        if i < 2 {
            h = h.rotate_left(11);
        }
    }
    h
}

fn bucket_of(key: u32) -> usize {
    let i = key ^ (key >> 16);
    ((i ^ (i >> 8)) & 0xFF) as usize
}

impl ContactSet {
    fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| b.n = 0);
    }

    /// The slot of an earlier contact this point joins, else the point is
    /// recorded under `slot` (when the bucket has room).
    fn find_or_insert(&mut self, slots: &[Slot], p: &[f64; 3], key: u32, slot: u32) -> Option<usize> {
        // Within the cell diagonal (ODE's bound, with its slack factor).
        let limit = 1.00001 * 1.732_050_807_568_877_2 / 10000.0;
        let b = &mut self.buckets[bucket_of(key)];
        for &(k, s) in &b.keys[..b.n] {
            if k == key && s != NO_SLOT {
                let q = &slots[s as usize].c.pos;
                let d = [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
                if (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt() < limit {
                    return Some(s as usize);
                }
            }
        }
        if b.n < b.keys.len() {
            b.keys[b.n] = (key, slot);
            b.n += 1;
        } else {
            crate::error::message(
                crate::error::D_ERR_UASSERT,
                "Trimesh-trimesh contach hash table bucket overflow - close contacts might not be culled in AddContactToNode() [collision_trimesh_trimesh.cpp:224]",
            );
        }
        None
    }

    /// Forgets the key just recorded without a slot.
    fn drop_unslotted(&mut self, key: u32) {
        let b = &mut self.buckets[bucket_of(key)];
        if b.n > 0 && b.keys[b.n - 1].1 == NO_SLOT {
            b.n -= 1;
        }
    }

    /// Removes slot `slot`'s key (the last key of its bucket if none
    /// matches among the others, as ODE does).
    fn remove(&mut self, key: u32, slot: u32) {
        let b = &mut self.buckets[bucket_of(key)];
        if b.n == 0 {
            return;
        }
        let last = b.n - 1;
        if let Some(i) = (0..last).find(|&i| b.keys[i].1 == slot) {
            b.keys[i] = b.keys[last];
        }
        b.n = last;
    }

    /// The key of slot `from` now names slot `to`.
    fn moved(&mut self, key: u32, from: u32, to: u32) {
        let b = &mut self.buckets[bucket_of(key)];
        if b.n == 0 {
            return;
        }
        let last = b.n - 1;
        let i = (0..last).find(|&i| b.keys[i].1 == from).unwrap_or(last);
        b.keys[i].1 = to;
    }
}

/// Per-thread working memory of the collider.
#[derive(Default)]
struct Scratch {
    gen: u32,
    s1: Side,
    s2: Side,
    steps: Vec<super::opcode::Step>,
    pairs: Vec<(u32, u32)>,
    slots: Vec<Slot>,
    set: Box<ContactSet>,
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

    /// Fills `self.pairs` with the intersecting triangle pairs in OPCODE's order.
    fn find_pairs(&mut self, m1: &Mesh, m2: &Mesh) {
        let q = super::opcode::TreeQuery::new(&m1.pose.pos, &m1.pose.r, &m2.pose.pos, &m2.pose.r);
        q.pairs(m1, m2, &mut self.steps, &mut self.pairs);
    }
}

/// Intersecting triangle pairs of two placed meshes, in OPCODE's order.
pub fn overlapping_pairs(m1: &Mesh, m2: &Mesh) -> Vec<(u32, u32)> {
    with_scratch(|s| {
        s.find_pairs(m1, m2);
        s.pairs.clone()
    })
}

struct Slot {
    c: Contact,
    /// Length of the accumulated normal sum (for averaging).
    len: f64,
    key: u32,
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
        s.find_pairs(m1, m2);
        s.slots.clear();
        s.set.clear();
        let Scratch { s1, s2, pairs, slots, set, .. } = s;
        merge_contacts(m1, m2, pairs, s1, s2, gen, max, sink.unimportant(), merge1, merge2, slots, set);
        for s in slots.drain(..) {
            sink.push(s.c);
        }
    });
    sink.len()
}

/// Contacts of the pairs, merged on the 1e-4 grid into `slots`.
#[allow(clippy::too_many_arguments)]
fn merge_contacts(
    m1: &Mesh,
    m2: &Mesh,
    pairs: &[(u32, u32)],
    s1: &mut Side,
    s2: &mut Side,
    gen: u32,
    max: usize,
    unimportant: bool,
    merge1: Option<(TriMergeCallback, *mut c_void)>,
    merge2: Option<(TriMergeCallback, *mut c_void)>,
    slots: &mut Vec<Slot>,
    set: &mut ContactSet,
) {
    for &(id1, id2) in pairs {
        let c1 = s1.planes(m1, id1, gen);
        let c2 = s2.planes(m2, id2, gen);
        let Some((depth, normal, pts)) = tri_tri(&c1.t, &c1.planes, &c2.t, &c2.planes) else { continue };
        for &p in pts.points() {
            let key = contact_key(&p);
            let slot = if slots.len() < max { slots.len() as u32 } else { NO_SLOT };
            match set.find_or_insert(slots, &p, key, slot) {
                None => {
                    if slot != NO_SLOT {
                        let mut c = Contact::new(p, normal, depth);
                        c.side1 = id1 as i32;
                        c.side2 = id2 as i32;
                        slots.push(Slot { c, len: 1.0, key });
                    } else {
                        set.drop_unslotted(key);
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
                            set.remove(s.key, k as u32);
                            let last = slots.len() - 1;
                            if k != last {
                                slots.swap(k, last);
                                set.moved(slots[k].key, last as u32, k as u32);
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
    use super::super::opcode::tri_tri;
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
            data.build(
                v.as_ptr() as *const u8,
                12,
                v.len() / 3,
                false,
                i.as_ptr() as *const u8,
                i.len() / 3,
                12,
                std::ptr::null(),
            );
        }
        let n = i.len() / 3;
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut touching = 0;
        for round in 0..40 {
            let p1 = Pose::new(
                [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5],
                r_from_euler_angles(rnd() * 6.0, rnd() * 3.0, rnd() * 6.0),
            );
            let d = 1.2 + 0.8 * rnd();
            let (ph, th) = (rnd() * 6.0, rnd() * 3.0);
            let off = [d * th.sin() * ph.cos(), d * th.sin() * ph.sin(), d * th.cos()];
            let p2 = Pose::new(
                add(&[p1.pos[0], p1.pos[1], p1.pos[2]], &off),
                r_from_euler_angles(rnd() * 6.0, rnd() * 3.0, rnd() * 6.0),
            );
            let (m1, m2) = (Mesh { data: &data, pose: p1 }, Mesh { data: &data, pose: p2 });
            // OPCODE tests each pair once, with one triangle moved into
            // the other mesh's space: the pairs it reports lie between
            // those overlapping both ways and those overlapping either way.
            let q = super::super::opcode::TreeQuery::new(&p1.pos, &p1.r, &p2.pos, &p2.r);
            let (mut both, mut either) = (Vec::new(), Vec::new());
            for a in 0..n {
                for b in 0..n {
                    let (ta, tb) = (data.local_triangle_f(a), data.local_triangle_f(b));
                    let x = tri_tri(&q.to_mesh1(&ta), &tb);
                    let y = tri_tri(&q.to_mesh0(&tb), &ta);
                    if x && y {
                        both.push((a as u32, b as u32));
                    }
                    if x || y {
                        either.push((a as u32, b as u32));
                    }
                }
            }
            let mut got = overlapping_pairs(&m1, &m2);
            // Twice: the second call runs on the warm scratch.
            assert_eq!(overlapping_pairs(&m1, &m2), got, "round {round} (warm)");
            got.sort_unstable();
            let len = got.len();
            got.dedup();
            assert_eq!(got.len(), len, "round {round}: a pair twice");
            assert!(both.iter().all(|p| got.binary_search(p).is_ok()), "round {round}: missed pairs");
            assert!(got.iter().all(|p| either.binary_search(p).is_ok()), "round {round}: extra pairs");
            touching += !both.is_empty() as usize;
        }
        assert!(touching >= 20, "{touching}");
    }

    #[test]
    fn overlap_test_basics() {
        let a: [[f32; 3]; 3] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        let tri_tri_overlap = |a: &[[f32; 3]; 3], b: &[[f32; 3]; 3]| tri_tri(a, b);
        // Piercing, touching at a vertex, and clearly apart.
        assert!(tri_tri_overlap(&a, &[[0.2, 0.2, -1.0], [0.2, 0.2, 1.0], [0.3, 0.3, 1.0]]));
        assert!(tri_tri_overlap(&a, &[[1.0, 0.0, 0.0], [2.0, 0.0, 1.0], [2.0, 1.0, 1.0]]));
        assert!(!tri_tri_overlap(&a, &[[0.6, 0.6, -1.0], [0.6, 0.6, 1.0], [0.9, 0.9, 1.0]]));
        // Coplanar: overlapping and disjoint.
        assert!(tri_tri_overlap(&a, &[[0.4, 0.4, 0.0], [1.0, 1.0, 0.0], [0.4, 1.0, 0.0]]));
        assert!(!tri_tri_overlap(&a, &[[0.6, 0.6, 0.0], [1.0, 1.0, 0.0], [0.6, 1.0, 0.0]]));
    }
}
