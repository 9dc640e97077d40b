//! Mesh preprocessing with ODE 0.16.2's semantics: the per-triangle use
//! flags of BUILD_CONCAVE_EDGES (which triangle "owns" each edge and
//! vertex, and which edges/vertices are dropped because an edge is
//! concave), and the sorted edge walk and folds that the face angles of
//! BUILD_FACE_ANGLES (`face_angles`) share with them.
//!
//! ODE lists the three edges of every triangle (vertex indices ordered
//! low/high), sorts that list with the C++ standard library's `std::sort`
//! and walks it: two neighbouring records with the same vertex pair are
//! the two sides of a shared edge, a lone record is an open edge. Because
//! `std::sort` is not stable, WHICH of the two sides comes first depends
//! on the exact sorting algorithm, and the first side decides the
//! convexity test and ties in ownership. To get the same flags we sort
//! with the same algorithm as GCC's libstdc++ (introsort with
//! median-of-three pivots, heap-sort fallback, final insertion sort).

use super::{cross, dot, sub, TriMeshData};

const EDGE_FLAGS: u8 = 0x07;
const VERTEX_USED: u8 = 1;
const VERTEX_CONCAVE: u8 = 2;

#[derive(Clone, Copy, Debug)]
pub(super) struct Edge {
    pub lo: u32,
    pub hi: u32,
    pub tri: u32,
    /// 1 << e for edge e (from corner e to corner e+1) of the triangle.
    pub edge_flag: u8,
    lo_flag: u8,
    hi_flag: u8,
}

impl Edge {
    fn new(tri: usize, e: usize, idx: [usize; 3]) -> Edge {
        let (a, b) = (e, (e + 1) % 3);
        let (mut lo, mut hi) = (idx[a] as u32, idx[b] as u32);
        let (mut lf, mut hf) = (8u8 << a, 8u8 << b);
        if lo > hi {
            std::mem::swap(&mut lo, &mut hi);
            std::mem::swap(&mut lf, &mut hf);
        }
        Edge { lo, hi, tri: tri as u32, edge_flag: 1 << e, lo_flag: lf, hi_flag: hf }
    }
    /// The edge's slot in its triangle (the corner it starts from).
    pub fn slot(&self) -> usize {
        self.edge_flag.trailing_zeros() as usize
    }
    /// Triangle corner not on this edge.
    pub fn opposite(&self) -> usize {
        let rest = (self.lo_flag | self.hi_flag) ^ 0x38;
        (rest >> 3).trailing_zeros() as usize
    }
}

fn less(a: &Edge, b: &Edge) -> bool {
    a.lo < b.lo || (a.lo == b.lo && a.hi < b.hi)
}

// ---- libstdc++'s std::sort, step for step --------------------------------

fn floor_log2(n: usize) -> usize {
    (usize::BITS - 1 - n.leading_zeros()) as usize
}

fn gnu_sort(v: &mut [Edge]) {
    if v.len() > 1 {
        introsort_loop(v, 0, v.len(), 2 * floor_log2(v.len()));
        final_insertion_sort(v, 0, v.len());
    }
}

const THRESHOLD: usize = 16;

fn introsort_loop(v: &mut [Edge], first: usize, mut last: usize, mut depth: usize) {
    while last - first > THRESHOLD {
        if depth == 0 {
            heap_sort(&mut v[first..last]);
            return;
        }
        depth -= 1;
        let cut = partition_pivot(v, first, last);
        introsort_loop(v, cut, last, depth);
        last = cut;
    }
}

fn move_median_to_first(v: &mut [Edge], result: usize, a: usize, b: usize, c: usize) {
    let pick = if less(&v[a], &v[b]) {
        if less(&v[b], &v[c]) {
            b
        } else if less(&v[a], &v[c]) {
            c
        } else {
            a
        }
    } else if less(&v[a], &v[c]) {
        a
    } else if less(&v[b], &v[c]) {
        c
    } else {
        b
    };
    v.swap(result, pick);
}

fn partition_pivot(v: &mut [Edge], first: usize, last: usize) -> usize {
    let mid = first + (last - first) / 2;
    move_median_to_first(v, first, first + 1, mid, last - 1);
    // Unguarded partition of [first+1, last) around v[first].
    let (mut lo, mut hi) = (first + 1, last);
    loop {
        while less(&v[lo], &v[first]) {
            lo += 1;
        }
        hi -= 1;
        while less(&v[first], &v[hi]) {
            hi -= 1;
        }
        if lo >= hi {
            return lo;
        }
        v.swap(lo, hi);
        lo += 1;
    }
}

fn unguarded_linear_insert(v: &mut [Edge], mut last: usize) {
    let val = v[last];
    while less(&val, &v[last - 1]) {
        v[last] = v[last - 1];
        last -= 1;
    }
    v[last] = val;
}

fn insertion_sort(v: &mut [Edge], first: usize, last: usize) {
    for i in first + 1..last {
        if less(&v[i], &v[first]) {
            let val = v[i];
            v.copy_within(first..i, first + 1);
            v[first] = val;
        } else {
            unguarded_linear_insert(v, i);
        }
    }
}

fn final_insertion_sort(v: &mut [Edge], first: usize, last: usize) {
    if last - first > THRESHOLD {
        insertion_sort(v, first, first + THRESHOLD);
        for i in first + THRESHOLD..last {
            unguarded_linear_insert(v, i);
        }
    } else {
        insertion_sort(v, first, last);
    }
}

fn adjust_heap(v: &mut [Edge], mut hole: usize, len: usize, val: Edge) {
    let top = hole;
    let mut child = hole;
    while child < (len - 1) / 2 {
        child = 2 * (child + 1);
        if less(&v[child], &v[child - 1]) {
            child -= 1;
        }
        v[hole] = v[child];
        hole = child;
    }
    if len & 1 == 0 && child == (len - 2) / 2 {
        child = 2 * (child + 1);
        v[hole] = v[child - 1];
        hole = child - 1;
    }
    // Push `val` back up from `hole`.
    let mut parent = hole.wrapping_sub(1) / 2;
    while hole > top && less(&v[parent], &val) {
        v[hole] = v[parent];
        hole = parent;
        parent = hole.wrapping_sub(1) / 2;
    }
    v[hole] = val;
}

fn heap_sort(v: &mut [Edge]) {
    let len = v.len();
    if len >= 2 {
        let mut parent = (len - 2) / 2;
        loop {
            let val = v[parent];
            adjust_heap(v, parent, len, val);
            if parent == 0 {
                break;
            }
            parent -= 1;
        }
    }
    let mut last = len;
    while last > 1 {
        last -= 1;
        let val = v[last];
        v[last] = v[0];
        adjust_heap(v, 0, last, val);
    }
}

// ---- use flags -------------------------------------------------------------

/// Relative threshold below which a fold counts as flat, not concave.
const CONCAVE_EPS: f64 = 0.000001f32 as f64;

/// The sorted edge records of the mesh.
pub(super) fn sorted_edges(d: &TriMeshData) -> Vec<Edge> {
    let mut edges = Vec::with_capacity(d.tri_count * 3);
    for t in 0..d.tri_count {
        let idx = d.indices(t);
        for e in 0..3 {
            edges.push(Edge::new(t, e, idx));
        }
    }
    gnu_sort(&mut edges);
    edges
}

/// One step of ODE's walk over the sorted edge records: two neighbouring
/// records with the same two vertices are one shared edge (the first and
/// second side), any other record stands alone (an open edge, or the
/// leftover side of an edge shared by three or more triangles). `i` is the
/// index of the run's first record.
#[derive(Clone, Copy)]
pub(super) enum EdgeRun {
    Alone { i: usize, e: Edge },
    Shared { i: usize, first: Edge, second: Edge },
}

/// The runs of `edges` (sorted) in ODE's order.
pub(super) fn edge_runs(edges: &[Edge]) -> impl Iterator<Item = EdgeRun> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        let cur = *edges.get(i)?;
        let run = match edges.get(i + 1) {
            Some(&next) if next.hi == cur.hi && next.lo == cur.lo => EdgeRun::Shared { i, first: cur, second: next },
            _ => EdgeRun::Alone { i, e: cur },
        };
        i += if matches!(run, EdgeRun::Shared { .. }) { 2 } else { 1 };
        Some(run)
    })
}

/// The fold between the two triangles of a shared edge, seen from the
/// first side: the first triangle's normal (the host's unit normal if it
/// gave normals, else the unnormalised cross product of its edges), the
/// second triangle's opposite vertex offset perpendicular to the edge,
/// their dot product and the product of their squared lengths (the
/// normal's counted as 1 when it is the host's).
pub(super) struct Fold {
    pub normal: [f64; 3],
    pub seg: [f64; 3],
    /// The second triangle's edge direction, normalised (None when the
    /// edge is degenerate; `seg` is then the plain offset).
    pub along: Option<[f64; 3]>,
    pub dot: f64,
    pub len2: f64,
}

impl Fold {
    /// Concave beyond ODE's threshold (dot ≥ 1e-6·|n|·|seg|, squared).
    pub fn concave(&self) -> bool {
        self.dot > 0.0 && self.dot * self.dot >= CONCAVE_EPS * CONCAVE_EPS * self.len2
    }
}

pub(super) fn fold(d: &TriMeshData, a: &Edge, b: &Edge) -> Fold {
    let tb = d.local_triangle(b.tri as usize);
    let opp = b.opposite();
    let start = (opp + 1) % 3;
    let end = 3 - start - opp;
    let mut along = sub(&tb[end], &tb[start]);
    let to_opp = sub(&tb[opp], &tb[start]);
    let have_along = crate::math::vec::safe_normalize3(&mut along);
    let seg = if have_along {
        let p = dot(&to_opp, &along);
        [to_opp[0] - p * along[0], to_opp[1] - p * along[1], to_opp[2] - p * along[2]]
    } else {
        to_opp
    };
    let seg_len2 = dot(&seg, &seg);
    let (normal, len2) = match external_normal(d, a.tri as usize) {
        Some(n) => (n, seg_len2),
        None => {
            let ta = d.local_triangle(a.tri as usize);
            let n = cross(&sub(&ta[2], &ta[1]), &sub(&ta[0], &ta[1]));
            (n, seg_len2 * dot(&n, &n))
        }
    };
    Fold { normal, seg, along: have_along.then_some(along), dot: dot(&normal, &seg), len2 }
}

/// The host's normal of triangle `t` (dReal triples), if it gave normals.
fn external_normal(d: &TriMeshData, t: usize) -> Option<[f64; 3]> {
    if d.normals.is_null() {
        return None;
    }
    // SAFETY: the host promised three dReals per triangle.
    unsafe {
        let p = (d.normals as *const f64).add(3 * t);
        Some([p.read_unaligned(), p.add(1).read_unaligned(), p.add(2).read_unaligned()])
    }
}

/// How far from 1 the squared length of a host normal may be: ODE asserts
/// "Mesh triangle normals must be normalized" beyond a quarter of the
/// squared concavity threshold (single-precision 1e-6, so about 2.5e-13).
const NORMAL_LEN2_TOL: f64 = 0.25 * CONCAVE_EPS * CONCAVE_EPS;

/// The first host normal that ODE's preprocessing reads and asserts on
/// (its triangle and value): the normal of the first side of each shared
/// edge, in the walk of `use_flags`, whose squared length is not within
/// `NORMAL_LEN2_TOL` of 1 (NaN, infinite, zero and huge ones included).
/// Normals of other triangles are never read, and ODE accepts them.
pub fn unnormalized_normal(d: &TriMeshData) -> Option<(usize, [f64; 3])> {
    if d.normals.is_null() || d.tri_count == 0 {
        return None;
    }
    let edges = sorted_edges(d);
    for run in edge_runs(&edges) {
        if let EdgeRun::Shared { first, .. } = run {
            let t = first.tri as usize;
            let n = external_normal(d, t)?;
            if !((dot(&n, &n) - 1.0).abs() < NORMAL_LEN2_TOL) {
                return Some((t, n));
            }
        }
    }
    None
}

/// ODE 0.16.2's use flags of the mesh (see the module comment).
pub fn use_flags(d: &TriMeshData) -> Vec<u8> {
    let n = d.tri_count;
    let mut flags = vec![0u8; n];
    if n == 0 {
        return flags;
    }
    let edges = sorted_edges(d);
    let max_v = edges.iter().map(|e| e.hi as usize + 1).max().unwrap_or(0);
    let mut vstate = vec![0u8; max_v.max(d.vertex_count)];
    // Index of the edge record through which each used vertex was given.
    let mut vfrom = vec![0usize; vstate.len()];

    // Marks a vertex used from edge record `ei` if not yet used; returns
    // the flag bit to add to that record's triangle.
    let take = |vs: &mut [u8], vf: &mut [usize], v: usize, ei: usize, bit: u8| -> u8 {
        if vs[v] & VERTEX_USED == 0 {
            vs[v] |= VERTEX_USED;
            vf[v] = ei;
            bit
        } else {
            0
        }
    };

    for run in edge_runs(&edges) {
        let (i, cur, next) = match run {
            EdgeRun::Alone { i, e } => {
                let (lo, hi) = (e.lo as usize, e.hi as usize);
                let extra =
                    take(&mut vstate, &mut vfrom, lo, i, e.lo_flag) | take(&mut vstate, &mut vfrom, hi, i, e.hi_flag);
                flags[e.tri as usize] |= extra | e.edge_flag;
                continue;
            }
            EdgeRun::Shared { i, first, second } => (i, first, second),
        };
        let (lo, hi) = (cur.lo as usize, cur.hi as usize);
        if fold(d, &cur, &next).concave() {
            // Concave: neither the edge nor its vertices are used; undo an
            // earlier use of a vertex first reached through a convex edge.
            for v in [lo, hi] {
                let before = vstate[v];
                vstate[v] |= VERTEX_CONCAVE | VERTEX_USED;
                if before & (VERTEX_CONCAVE | VERTEX_USED) == VERTEX_USED {
                    let from = &edges[vfrom[v]];
                    let bit = if from.lo as usize == v { from.lo_flag } else { from.hi_flag };
                    flags[from.tri as usize] ^= bit;
                }
            }
        } else {
            // Convex or flat: give the edge to the side whose triangle
            // already holds the larger edge mask.
            let (mut ei, mut e) = (i, cur);
            if flags[next.tri as usize] & EDGE_FLAGS > flags[cur.tri as usize] & EDGE_FLAGS {
                ei = i + 1;
                e = next;
            }
            let mut f = flags[e.tri as usize];
            f |= take(&mut vstate, &mut vfrom, lo, ei, e.lo_flag);
            f |= take(&mut vstate, &mut vfrom, hi, ei, e.hi_flag);
            flags[e.tri as usize] = f | e.edge_flag;
        }
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(lo: u32, hi: u32, tri: u32) -> Edge {
        Edge { lo, hi, tri, edge_flag: 0, lo_flag: 0, hi_flag: 0 }
    }

    #[test]
    fn gnu_sort_sorts_every_size_and_pattern() {
        let mut s = 12345u64;
        for n in [0usize, 1, 2, 5, 16, 17, 33, 100, 1000] {
            for modulus in [3u64, 50, 1_000_000] {
                let mut v: Vec<Edge> = (0..n)
                    .map(|t| {
                        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        rec(((s >> 33) % modulus) as u32, ((s >> 20) % 7) as u32, t as u32)
                    })
                    .collect();
                let mut tris: Vec<u32> = v.iter().map(|e| e.tri).collect();
                gnu_sort(&mut v);
                assert!(v.windows(2).all(|w| !less(&w[1], &w[0])));
                let mut after: Vec<u32> = v.iter().map(|e| e.tri).collect();
                tris.sort();
                after.sort();
                assert_eq!(tris, after, "a permutation");
            }
        }
    }

    #[test]
    fn heap_sort_sorts() {
        let mut v: Vec<Edge> = (0..57).map(|i| rec((i * 37 % 19) as u32, (i % 3) as u32, i as u32)).collect();
        heap_sort(&mut v);
        assert!(v.windows(2).all(|w| !less(&w[1], &w[0])));
    }

    #[test]
    fn opposite_corner() {
        let e = Edge::new(0, 1, [5, 9, 2]);
        assert_eq!((e.lo, e.hi, e.opposite()), (2, 9, 0));
        assert_eq!(Edge::new(0, 2, [5, 9, 2]).opposite(), 1);
        assert_eq!(Edge::new(0, 0, [5, 9, 2]).opposite(), 2);
    }
}
