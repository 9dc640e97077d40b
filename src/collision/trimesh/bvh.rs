//! Our own bounding volume hierarchy over a mesh's triangles: a binary
//! AABB tree in mesh coordinates, built once per data object by median
//! splits of triangle centroids along the longest axis, and refitted in
//! place (same topology) when the host moved its vertices
//! (`dGeomTriMeshDataUpdate`).
//!
//! Nodes are stored parents before children, so a reverse sweep refits.

/// Leaf size: few triangles per leaf keeps queries tight.
const LEAF: usize = 4;

#[derive(Clone, Copy, Debug)]
pub struct Node {
    pub min: [f64; 3],
    pub max: [f64; 3],
    /// Leaf: first index into `Bvh::tris` and count; inner: children.
    pub a: u32,
    pub b: u32,
    pub leaf: bool,
}

#[derive(Default, Debug)]
pub struct Bvh {
    pub nodes: Vec<Node>,
    /// Triangle indices, grouped by leaf.
    pub tris: Vec<u32>,
}

type Tri = [[f64; 3]; 3];

fn bounds(tri: &Tri) -> ([f64; 3], [f64; 3]) {
    let mut mn = tri[0];
    let mut mx = tri[0];
    for v in &tri[1..] {
        for k in 0..3 {
            mn[k] = mn[k].min(v[k]);
            mx[k] = mx[k].max(v[k]);
        }
    }
    (mn, mx)
}

fn grow(mn: &mut [f64; 3], mx: &mut [f64; 3], a: &[f64; 3], b: &[f64; 3]) {
    for k in 0..3 {
        mn[k] = mn[k].min(a[k]);
        mx[k] = mx[k].max(b[k]);
    }
}

impl Bvh {
    /// Builds the tree over `n` triangles given by `tri(i)`.
    pub fn build(n: usize, tri: impl Fn(usize) -> Tri) -> Bvh {
        let mut bvh = Bvh { nodes: Vec::new(), tris: (0..n as u32).collect() };
        if n == 0 {
            return bvh;
        }
        let boxes: Vec<([f64; 3], [f64; 3])> = (0..n).map(|i| bounds(&tri(i))).collect();
        let centre = |i: u32, k: usize| boxes[i as usize].0[k] + boxes[i as usize].1[k];
        // Explicit stack of (node index, first, count).
        bvh.nodes.push(Node { min: [0.0; 3], max: [0.0; 3], a: 0, b: n as u32, leaf: true });
        let mut stack = vec![(0usize, 0usize, n)];
        while let Some((node, first, count)) = stack.pop() {
            let mut mn = [f64::INFINITY; 3];
            let mut mx = [f64::NEG_INFINITY; 3];
            for &t in &bvh.tris[first..first + count] {
                let (a, b) = &boxes[t as usize];
                grow(&mut mn, &mut mx, a, b);
            }
            bvh.nodes[node].min = mn;
            bvh.nodes[node].max = mx;
            if count <= LEAF {
                bvh.nodes[node].a = first as u32;
                bvh.nodes[node].b = count as u32;
                bvh.nodes[node].leaf = true;
                continue;
            }
            let ext = [mx[0] - mn[0], mx[1] - mn[1], mx[2] - mn[2]];
            let axis = if ext[0] >= ext[1] && ext[0] >= ext[2] { 0 } else if ext[1] >= ext[2] { 1 } else { 2 };
            let half = count / 2;
            bvh.tris[first..first + count]
                .select_nth_unstable_by(half, |&p, &q| centre(p, axis).total_cmp(&centre(q, axis)));
            let l = bvh.nodes.len();
            bvh.nodes.push(Node { min: mn, max: mx, a: 0, b: 0, leaf: true });
            bvh.nodes.push(Node { min: mn, max: mx, a: 0, b: 0, leaf: true });
            bvh.nodes[node].a = l as u32;
            bvh.nodes[node].b = l as u32 + 1;
            bvh.nodes[node].leaf = false;
            stack.push((l, first, half));
            stack.push((l + 1, first + half, count - half));
        }
        bvh
    }

    /// Recomputes every box from the current vertices (same topology).
    pub fn refit(&mut self, tri: impl Fn(usize) -> Tri) {
        for i in (0..self.nodes.len()).rev() {
            let nd = self.nodes[i];
            let mut mn = [f64::INFINITY; 3];
            let mut mx = [f64::NEG_INFINITY; 3];
            if nd.leaf {
                for &t in &self.tris[nd.a as usize..(nd.a + nd.b) as usize] {
                    let (a, b) = bounds(&tri(t as usize));
                    grow(&mut mn, &mut mx, &a, &b);
                }
            } else {
                let (l, r) = (self.nodes[nd.a as usize], self.nodes[nd.b as usize]);
                grow(&mut mn, &mut mx, &l.min, &l.max);
                grow(&mut mn, &mut mx, &r.min, &r.max);
            }
            self.nodes[i].min = mn;
            self.nodes[i].max = mx;
        }
    }

    /// Bounds of the whole mesh (None when empty).
    pub fn root_bounds(&self) -> Option<([f64; 3], [f64; 3])> {
        self.nodes.first().map(|n| (n.min, n.max))
    }

    /// Visits the triangles of every leaf whose box passes `test`
    /// (called on node boxes).
    pub fn visit(&self, test: impl Fn(&[f64; 3], &[f64; 3]) -> bool, mut f: impl FnMut(u32)) {
        if self.nodes.is_empty() {
            return;
        }
        let mut stack: [u32; 64] = [0; 64];
        let mut top = 1usize;
        while top > 0 {
            top -= 1;
            let nd = &self.nodes[stack[top] as usize];
            if !test(&nd.min, &nd.max) {
                continue;
            }
            if nd.leaf {
                for &t in &self.tris[nd.a as usize..(nd.a + nd.b) as usize] {
                    f(t);
                }
            } else if top + 2 <= stack.len() {
                stack[top] = nd.b;
                stack[top + 1] = nd.a;
                top += 2;
            }
        }
    }

    /// Triangles whose leaf boxes overlap the box [mn, mx].
    pub fn query_box(&self, mn: &[f64; 3], mx: &[f64; 3], f: impl FnMut(u32)) {
        self.visit(|a, b| (0..3).all(|k| a[k] <= mx[k] && b[k] >= mn[k]), f)
    }

    /// Triangles whose leaf boxes the segment o + t·d, t in [0, len], meets.
    pub fn query_ray(&self, o: &[f64; 3], d: &[f64; 3], len: f64, f: impl FnMut(u32)) {
        let inv = [1.0 / d[0], 1.0 / d[1], 1.0 / d[2]];
        self.visit(
            |a, b| {
                let (mut t0, mut t1) = (0.0f64, len);
                for k in 0..3 {
                    if d[k] == 0.0 {
                        if o[k] < a[k] || o[k] > b[k] {
                            return false;
                        }
                        continue;
                    }
                    let (mut u, mut v) = ((a[k] - o[k]) * inv[k], (b[k] - o[k]) * inv[k]);
                    if u > v {
                        std::mem::swap(&mut u, &mut v);
                    }
                    t0 = t0.max(u);
                    t1 = t1.min(v);
                    if t0 > t1 {
                        return false;
                    }
                }
                true
            },
            f,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_triangle_in_one_leaf_and_queries_find_overlaps() {
        // A 20x20 grid of small triangles.
        let tri = |i: usize| {
            let (x, y) = ((i / 2 % 20) as f64, (i / 40) as f64);
            if i % 2 == 0 {
                [[x, y, 0.0], [x + 1.0, y, 0.0], [x + 1.0, y + 1.0, 0.0]]
            } else {
                [[x, y, 0.0], [x + 1.0, y + 1.0, 0.0], [x, y + 1.0, 0.0]]
            }
        };
        let bvh = Bvh::build(800, tri);
        let mut seen = bvh.tris.clone();
        seen.sort();
        assert_eq!(seen, (0..800).collect::<Vec<u32>>());
        let mut hits = Vec::new();
        bvh.query_box(&[3.2, 5.2, -1.0], &[3.8, 5.8, 1.0], |t| hits.push(t));
        hits.sort();
        // Both triangles of cell (3, 5) must be among the hits.
        assert!(hits.contains(&(5 * 40 + 6)) && hits.contains(&(5 * 40 + 7)), "{hits:?}");
        assert!(hits.len() <= 16);
        let mut rh = Vec::new();
        bvh.query_ray(&[3.5, 5.25, 5.0], &[0.0, 0.0, -1.0], 10.0, |t| rh.push(t));
        assert!(rh.contains(&(5 * 40 + 6)));
    }
}
