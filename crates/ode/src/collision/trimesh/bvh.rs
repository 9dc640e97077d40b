//! The collision tree of a mesh data object, shaped as the one Debian's
//! ODE 0.16.2 gets from OPCODE (a complete "no-leaf" AABB tree over the
//! triangles, in single precision), so that queries meet the candidate
//! triangles in ODE's order.
//!
//! How the tree is made (ODE asks OPCODE for the "splatter points" rule
//! with the geometric-centre split value, one triangle per leaf):
//! - a node's box is the single-precision min/max of its triangles'
//!   vertices, stored as centre (max+min)·½ and extents (max−min)·½;
//! - the split axis is the one along which the triangle centroids
//!   ((v0+v1+v2)·⅓) vary most (mean and variance in f32, summed in index
//!   order, divided by multiplying with the reciprocal); ties keep the
//!   lower axis;
//! - the split value is the mean of the node's vertex coordinates along
//!   that axis (summed vertex by vertex); a sweep over the node's index
//!   range moves every triangle whose centroid lies strictly above it to
//!   the front (swapping with the first slot not yet taken), and the front
//!   part becomes the "positive" child, the rest the "negative" one;
//! - when every centroid falls on one side, the range is halved as it
//!   stands (first half positive);
//! - leaves (single triangles) are not nodes: a node names a child
//!   triangle directly. Nodes are numbered depth first, positive child
//!   first, and every query visits positive before negative.
//!
//! A one-triangle mesh has no node at all (OPCODE's single-node model):
//! queries then test the triangle directly.
//!
//! `dGeomTriMeshDataUpdate` refits the boxes bottom-up, keeping the shape.

/// Marks a child that is a triangle (the low bits) rather than a node.
pub const LEAF: u32 = 0x8000_0000;

/// One node: 32 bytes aligned to 32, so a node never straddles a cache
/// line and `c`, `e` each load as one 4-lane vector (the fourth lane, a
/// child code, is masked off by the SIMD tests in `opcode`).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
pub struct Node {
    pub c: [f32; 3],
    /// Positive and negative children: node index, or `LEAF | triangle`.
    pub pos: u32,
    pub e: [f32; 3],
    pub neg: u32,
}

#[derive(Default, Debug)]
pub struct Bvh {
    pub nodes: Vec<Node>,
    /// Number of triangles the tree was built over.
    pub tris: usize,
}

/// A triangle in single precision, as OPCODE reads it.
pub type TriF = [[f32; 3]; 3];

/// ⅓ as OPCODE writes it (the nearest float).
const INV3: f32 = 0.333_333_34;

#[inline]
fn centroid(t: &TriF, k: usize) -> f32 {
    (t[0][k] + t[1][k] + t[2][k]) * INV3
}

/// min/max as OPCODE's macros pick them (the first operand unless the
/// second is strictly smaller/greater).
#[inline]
pub fn fmin(a: f32, b: f32) -> f32 {
    if a < b {
        a
    } else {
        b
    }
}
#[inline]
pub fn fmax(a: f32, b: f32) -> f32 {
    if a > b {
        a
    } else {
        b
    }
}
#[inline]
pub fn fmin3(a: f32, b: f32, c: f32) -> f32 {
    if a < b {
        fmin(a, c)
    } else {
        fmin(b, c)
    }
}
#[inline]
pub fn fmax3(a: f32, b: f32, c: f32) -> f32 {
    if a > b {
        fmax(a, c)
    } else {
        fmax(b, c)
    }
}

/// Centre and extents of a min/max box, rounded as OPCODE stores them.
#[inline]
fn centre_extents(mn: &[f32; 3], mx: &[f32; 3]) -> ([f32; 3], [f32; 3]) {
    let mut c = [0.0; 3];
    let mut e = [0.0; 3];
    for k in 0..3 {
        c[k] = (mx[k] + mn[k]) * 0.5;
        e[k] = (mx[k] - mn[k]) * 0.5;
    }
    (c, e)
}

/// What a query decides about a node box.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Visit {
    /// The box misses: nothing below is a candidate.
    Skip,
    /// The box is touched: test the children.
    Open,
    /// The box lies inside the query volume: every triangle below is a
    /// candidate, without further tests.
    TakeAll,
}

impl Bvh {
    /// Builds the tree over `n` triangles given by `tri(i)`.
    pub fn build(n: usize, tri: impl Fn(usize) -> TriF) -> Bvh {
        let mut bvh = Bvh { nodes: Vec::new(), tris: n };
        if n < 2 {
            return bvh;
        }
        let tris: Vec<TriF> = (0..n).map(tri).collect();
        let mut idx: Vec<u32> = (0..n as u32).collect();
        bvh.nodes.reserve_exact(n - 1);
        // (first, count, parent node, is the parent's negative child).
        let mut stack: Vec<(usize, usize, u32, bool)> = vec![(0, n, u32::MAX, false)];
        while let Some((first, count, parent, neg)) = stack.pop() {
            let id = bvh.nodes.len() as u32;
            if parent != u32::MAX {
                let p = &mut bvh.nodes[parent as usize];
                if neg {
                    p.neg = id;
                } else {
                    p.pos = id;
                }
            }
            let range = &mut idx[first..first + count];
            let mut mn = [f32::MAX; 3];
            let mut mx = [-f32::MAX; 3];
            for &t in range.iter() {
                for v in &tris[t as usize] {
                    for k in 0..3 {
                        mn[k] = fmin(mn[k], v[k]);
                        mx[k] = fmax(mx[k], v[k]);
                    }
                }
            }
            let (c, e) = centre_extents(&mn, &mx);
            let np = split(range, &tris);
            let mut node = Node { c, e, pos: 0, neg: 0 };
            // Children of one triangle are leaves; ranges of more become
            // nodes, the positive one numbered (popped) first.
            if count - np == 1 {
                node.neg = LEAF | idx[first + np];
            } else {
                stack.push((first + np, count - np, id, true));
            }
            if np == 1 {
                node.pos = LEAF | idx[first];
            } else {
                stack.push((first, np, id, false));
            }
            bvh.nodes.push(node);
        }
        bvh
    }

    /// Recomputes every box from the current vertices (same shape), from
    /// the last node back to the root, as OPCODE's refit does.
    pub fn refit(&mut self, tri: impl Fn(usize) -> TriF) {
        let child = |nodes: &[Node], ch: u32| -> ([f32; 3], [f32; 3]) {
            if ch & LEAF != 0 {
                let t = tri((ch & !LEAF) as usize);
                let mut mn = [0.0; 3];
                let mut mx = [0.0; 3];
                for k in 0..3 {
                    mn[k] = fmin3(t[0][k], t[1][k], t[2][k]);
                    mx[k] = fmax3(t[0][k], t[1][k], t[2][k]);
                }
                (mn, mx)
            } else {
                let n = &nodes[ch as usize];
                let mut mn = [0.0; 3];
                let mut mx = [0.0; 3];
                for k in 0..3 {
                    mn[k] = n.c[k] - n.e[k];
                    mx[k] = n.c[k] + n.e[k];
                }
                (mn, mx)
            }
        };
        for i in (0..self.nodes.len()).rev() {
            let nd = self.nodes[i];
            let (mut mn, mut mx) = child(&self.nodes, nd.pos);
            let (mn2, mx2) = child(&self.nodes, nd.neg);
            for k in 0..3 {
                mn[k] = fmin(mn[k], mn2[k]);
                mx[k] = fmax(mx[k], mx2[k]);
            }
            let (c, e) = centre_extents(&mn, &mx);
            self.nodes[i].c = c;
            self.nodes[i].e = e;
        }
    }

    /// Walks the tree in OPCODE's order: `test` judges each node box
    /// reached, `prim(t, tested)` receives each candidate triangle
    /// (`tested` is false for triangles taken wholesale under a
    /// `TakeAll` box) and returns true to stop the walk at once.
    /// `stack` is the caller's reusable work list. Not for trees without
    /// nodes (one triangle), which the caller handles.
    ///
    /// The positive child is entered directly (only the negative one waits
    /// on `stack`, as a bare node code), and a `TakeAll` node's leaves come
    /// from a walk of their own without node tests, so the common path
    /// carries no "tested" flag on the stack.
    #[inline]
    pub fn walk(
        &self,
        stack: &mut Vec<u32>,
        mut test: impl FnMut(&Node) -> Visit,
        mut prim: impl FnMut(u32, bool) -> bool,
    ) {
        stack.clear();
        let nodes = &self.nodes[..];
        if nodes.is_empty() {
            return;
        }
        let mut code = 0u32;
        loop {
            if code & LEAF != 0 {
                if prim(code & !LEAF, true) {
                    return;
                }
            } else {
                let nd = &nodes[code as usize];
                match test(nd) {
                    Visit::Skip => {}
                    Visit::Open => {
                        // The negative child lies past the positive
                        // subtree, far in memory: start fetching it now.
                        #[cfg(target_arch = "x86_64")]
                        if nd.neg & LEAF == 0 {
                            let p = nodes.as_ptr().wrapping_add(nd.neg as usize) as *const i8;
                            // SAFETY: a prefetch never faults, whatever the address.
                            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
                        }
                        stack.push(nd.neg);
                        code = nd.pos;
                        continue;
                    }
                    Visit::TakeAll => {
                        // Every leaf below, in walk order, on top of the
                        // pending entries.
                        let base = stack.len();
                        stack.push(code);
                        while stack.len() > base {
                            let c = stack.pop().unwrap_or(LEAF);
                            if c & LEAF != 0 {
                                if prim(c & !LEAF, false) {
                                    return;
                                }
                            } else {
                                let n = &nodes[c as usize];
                                stack.push(n.neg);
                                stack.push(n.pos);
                            }
                        }
                    }
                }
            }
            match stack.pop() {
                Some(c) => code = c,
                None => return,
            }
        }
    }

    /// Every triangle in the tree's leaf order (the order a query whose
    /// volume holds the whole mesh reports them).
    pub fn leaf_order(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.tris);
        if self.nodes.is_empty() {
            out.extend(0..self.tris as u32);
            return out;
        }
        let mut stack = Vec::new();
        self.walk(
            &mut stack,
            |_| Visit::TakeAll,
            |t, _| {
                out.push(t);
                false
            },
        );
        out
    }
}

/// Splits `range` as OPCODE's splatter-points rule does and returns the
/// size of the positive (front) part.
fn split(range: &mut [u32], tris: &[TriF]) -> usize {
    let n = range.len();
    let mut mean = [0.0f32; 3];
    for &t in range.iter() {
        let tr = &tris[t as usize];
        for (k, m) in mean.iter_mut().enumerate() {
            *m += centroid(tr, k);
        }
    }
    let inv = 1.0f32 / (n as u32 as f32);
    for m in &mut mean {
        *m *= inv;
    }
    let mut var = [0.0f32; 3];
    for &t in range.iter() {
        let tr = &tris[t as usize];
        for k in 0..3 {
            let d = centroid(tr, k) - mean[k];
            var[k] += d * d;
        }
    }
    let inv = 1.0f32 / ((n as u32 - 1) as f32);
    for v in &mut var {
        *v *= inv;
    }
    let mut axis = 0;
    if var[1] > var[axis] {
        axis = 1;
    }
    if var[2] > var[axis] {
        axis = 2;
    }
    let mut sum = 0.0f32;
    for &t in range.iter() {
        let tr = &tris[t as usize];
        sum += tr[0][axis];
        sum += tr[1][axis];
        sum += tr[2][axis];
    }
    let value = sum / ((n as u32).wrapping_mul(3) as f32);
    let mut np = 0;
    for i in 0..n {
        if centroid(&tris[range[i] as usize], axis) > value {
            range.swap(i, np);
            np += 1;
        }
    }
    if np == 0 || np == n {
        np = n >> 1;
    }
    np
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(i: usize) -> TriF {
        let (x, y) = ((i / 2 % 20) as f32, (i / 40) as f32);
        if i.is_multiple_of(2) {
            [[x, y, 0.0], [x + 1.0, y, 0.0], [x + 1.0, y + 1.0, 0.0]]
        } else {
            [[x, y, 0.0], [x + 1.0, y + 1.0, 0.0], [x, y + 1.0, 0.0]]
        }
    }

    #[test]
    fn complete_tree_with_every_triangle_once_and_boxes_enclosing() {
        let bvh = Bvh::build(800, grid);
        assert_eq!(bvh.nodes.len(), 799);
        let mut seen = bvh.leaf_order();
        seen.sort();
        assert_eq!(seen, (0..800).collect::<Vec<u32>>());
        // Every triangle lies in the box of the node naming it.
        for n in &bvh.nodes {
            for ch in [n.pos, n.neg] {
                if ch & LEAF != 0 {
                    for v in grid((ch & !LEAF) as usize) {
                        for k in 0..3 {
                            assert!(v[k] >= n.c[k] - n.e[k] && v[k] <= n.c[k] + n.e[k]);
                        }
                    }
                } else {
                    assert!(ch as usize > 0 && (ch as usize) < bvh.nodes.len());
                }
            }
        }
    }

    #[test]
    fn refit_of_unchanged_vertices_keeps_the_boxes() {
        let mut bvh = Bvh::build(800, grid);
        let before: Vec<([f32; 3], [f32; 3])> = bvh.nodes.iter().map(|n| (n.c, n.e)).collect();
        bvh.refit(grid);
        let after: Vec<([f32; 3], [f32; 3])> = bvh.nodes.iter().map(|n| (n.c, n.e)).collect();
        assert_eq!(before, after);
    }

    /// OPCODE's walk written plainly (the reference): one stack of
    /// (node code, tested), negative child pushed first, every node of a
    /// `TakeAll` box taken untested.
    fn walk_ref(bvh: &Bvh, mut test: impl FnMut(&Node) -> Visit, mut prim: impl FnMut(u32, bool)) {
        let mut stack = vec![(0u32, true)];
        while let Some((code, tested)) = stack.pop() {
            if code & LEAF != 0 {
                prim(code & !LEAF, tested);
                continue;
            }
            let nd = &bvh.nodes[code as usize];
            let mut open = false;
            if tested {
                match test(nd) {
                    Visit::Skip => continue,
                    Visit::Open => open = true,
                    Visit::TakeAll => {}
                }
            }
            stack.push((nd.neg, open));
            stack.push((nd.pos, open));
        }
    }

    /// The walk meets the same leaves, tested or not, in the same order as
    /// the plain reference walk, whatever the node decisions (drawn at
    /// random per node, TakeAll included), and tests the same nodes.
    #[test]
    fn walk_matches_the_reference_walk() {
        let bvh = Bvh::build(800, grid);
        let mut stack = Vec::new();
        let mut seed = 1u64;
        for round in 0..300u64 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let salt = seed;
            // Skip, Open or TakeAll from the node's index and the round's salt.
            let base = bvh.nodes.as_ptr();
            let decide = |n: &Node| {
                // SAFETY: `n` is an element of `bvh.nodes`.
                let i = unsafe { (n as *const Node).offset_from(base) } as u64;
                let h = (i ^ salt).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58;
                let (skip, all) = [(8, 2), (20, 1), (4, 6), (0, 0)][round as usize % 4];
                if h < skip {
                    Visit::Skip
                } else if h < skip + all {
                    Visit::TakeAll
                } else {
                    Visit::Open
                }
            };
            let (mut want, mut want_nodes) = (Vec::new(), Vec::new());
            walk_ref(
                &bvh,
                |n| {
                    want_nodes.push(n as *const Node);
                    decide(n)
                },
                |t, tested| want.push((t, tested)),
            );
            let (mut got, mut got_nodes) = (Vec::new(), Vec::new());
            bvh.walk(
                &mut stack,
                |n| {
                    got_nodes.push(n as *const Node);
                    decide(n)
                },
                |t, tested| {
                    got.push((t, tested));
                    false
                },
            );
            assert_eq!(got, want, "round {round}");
            assert_eq!(got_nodes, want_nodes, "round {round}");
            assert!(stack.is_empty());
        }
    }

    #[test]
    fn walk_stops_when_asked() {
        let bvh = Bvh::build(800, grid);
        let mut stack = Vec::new();
        let mut got = Vec::new();
        bvh.walk(
            &mut stack,
            |_| Visit::Open,
            |t, tested| {
                assert!(tested);
                got.push(t);
                got.len() == 5
            },
        );
        assert_eq!(got, bvh.leaf_order()[..5].to_vec());
    }
}
