//! Sparse LDLᵀ factorisation of a symmetric positive definite matrix, for
//! the fast `dWorldStep` (`fast_step`): constraint rows couple only through
//! the bodies they share, so `J·M⁻¹·Jᵀ` is sparse, and eliminating rows in
//! minimum-degree order (leaves first on a chain or a tree of joints) keeps
//! the factor sparse: O(m) work on forests, fill-in only where the joint
//! graph has loops.
//!
//! The matrix is given as its diagonal plus off-diagonal entries (both
//! triangles kept, `add`); `factor` eliminates in place and `solve` then
//! solves `A·x = b` for any number of right-hand sides. Buffers are kept
//! between uses: a warm factorisation of a same-shaped matrix does not grow
//! them.

/// The matrix being factorised, then its factor.
#[derive(Default)]
pub struct SparseLdl {
    n: usize,
    /// Diagonal, then the pivots D.
    diag: Vec<f64>,
    /// Off-diagonal entries of the not yet eliminated part, per row
    /// (column, value), both triangles; emptied by the elimination.
    adj: Vec<Vec<(u32, f64)>>,
    /// Column of L below each pivot: (row, L value), per unknown.
    lcol: Vec<Vec<(u32, f64)>>,
    /// Elimination order.
    order: Vec<u32>,
    done: Vec<bool>,
    /// Scratch: the pivot's neighbours while eliminating it.
    nbr: Vec<(u32, f64)>,
    /// Scratch: position of column j in the row being updated, or NONE
    /// (so that merging k entries into a row of d costs k + d, not k·d).
    at: Vec<u32>,
    /// Unknowns by (current degree, index), smallest first; an entry whose
    /// degree has changed since it was pushed is stale and skipped.
    queue: BinaryHeap<Reverse<(u32, u32)>>,
    /// Small systems are factorised densely: `dense` is then the n×n
    /// row-major work matrix (upper triangle), and L goes into `lcol`
    /// (natural `order`) as on the sparse path, so the solves skip its
    /// zeros.
    is_dense: bool,
    dense: Vec<f64>,
    /// Scratch: the pivot's column before scaling, and the rows where it
    /// is nonzero.
    col: Vec<f64>,
    nz: Vec<u32>,
    /// Dense path: per row of the work matrix, a bit set (`words` words)
    /// of its columns beyond the diagonal that may be nonzero, and the
    /// pivot's nonzero columns as a bit set.
    pattern: Vec<u64>,
    nz_bits: Vec<u64>,
    /// Largest n factorised densely (`DENSE_MAX`; tests change it).
    dense_max: Option<usize>,
}

/// Up to this many unknowns a dense LDLᵀ is cheaper than the sparse one.
/// In a ragdoll island (about 60 bilateral rows, each joint's rows coupled
/// with every row at its two bodies) the sparse elimination spent about
/// 3700 instructions per row on index bookkeeping, the dense one about
/// 2000 on contiguous row updates (n³/6 multiply-adds at most). Chains and
/// trees of hundreds of rows stay sparse (O(m)).
const DENSE_MAX: usize = 128;

use std::cmp::Reverse;
use std::collections::BinaryHeap;

const NONE: u32 = u32::MAX;

impl SparseLdl {
    /// Starts an `n`×`n` matrix with diagonal `diag` and no off-diagonal
    /// entries.
    pub fn reset(&mut self, diag: impl Iterator<Item = f64>) {
        self.diag.clear();
        self.diag.extend(diag);
        self.n = self.diag.len();
        let n = self.n;
        for v in [&mut self.adj, &mut self.lcol] {
            if v.len() < n {
                v.resize_with(n, Vec::new);
            }
            for row in v.iter_mut().take(n) {
                row.clear();
            }
        }
        self.done.clear();
        self.done.resize(n, false);
        self.at.clear();
        self.at.resize(n, NONE);
        self.order.clear();
    }

    /// Adds `v` to entries (i, j) and (j, i), i ≠ j. Repeated pairs are
    /// summed by `factor` (appending here keeps assembly O(entries)).
    pub fn add(&mut self, i: usize, j: usize, v: f64) {
        debug_assert!(i != j);
        self.adj[i].push((j as u32, v));
        self.adj[j].push((i as u32, v));
    }

    /// Sums the repeated entries `add` left in each row.
    fn merge_duplicates(&mut self) {
        for row in self.adj.iter_mut().take(self.n) {
            let mut k = 0;
            while k < row.len() {
                let (j, v) = row[k];
                match self.at[j as usize] {
                    NONE => {
                        self.at[j as usize] = k as u32;
                        k += 1;
                    }
                    first => {
                        row[first as usize].1 += v;
                        row.swap_remove(k);
                    }
                }
            }
            for e in row.iter() {
                self.at[e.0 as usize] = NONE;
            }
        }
    }

    /// Factorises A = L·D·Lᵀ in minimum-degree order. A pivot that is not
    /// positive (a singular or indefinite system: redundant constraints
    /// without CFM) is replaced by a tiny positive one, which leaves the
    /// redundant direction unconstrained instead of dividing by zero.
    pub fn factor(&mut self) {
        let n = self.n;
        self.is_dense = n <= self.dense_max.unwrap_or(DENSE_MAX);
        if self.is_dense {
            self.factor_dense();
            return;
        }
        self.merge_duplicates();
        // The pivot is the remaining unknown of least current degree, the
        // lowest index among equals. A heap of (degree, index) finds it in
        // O(log n) (a scan of all unknowns per pivot made the factorisation
        // O(n²): 90 % of a 200-link chain's step); each unknown is pushed
        // again when its degree changes and stale entries are skipped.
        self.queue.clear();
        self.queue.extend((0..n).map(|i| Reverse((self.adj[i].len() as u32, i as u32))));
        for _ in 0..n {
            let p = loop {
                let Reverse((deg, i)) = self.queue.pop().expect("every unknown is queued until eliminated");
                let i = i as usize;
                if !self.done[i] && self.adj[i].len() as u32 == deg {
                    break i;
                }
            };
            self.done[p] = true;
            self.order.push(p as u32);
            let mut d = self.diag[p];
            if !(d > 1e-300) {
                d = 1e-300_f64.max(d.abs());
            }
            self.diag[p] = d;
            let rd = 1.0 / d;
            let mut nbr = std::mem::take(&mut self.nbr);
            nbr.clear();
            nbr.append(&mut self.adj[p]);
            // Schur complement on the neighbours: A_ij -= A_ip·A_jp / d
            // (both triangles: row i gets every other neighbour j).
            for &(i, aip) in nbr.iter() {
                let i = i as usize;
                remove_entry(&mut self.adj[i], p as u32);
                self.diag[i] -= aip * aip / d;
                let row = &mut self.adj[i];
                for (k, e) in row.iter().enumerate() {
                    self.at[e.0 as usize] = k as u32;
                }
                for &(j, ajp) in nbr.iter() {
                    if j as usize == i {
                        continue;
                    }
                    // (aip·ajp) first: entries (i, j) and (j, i) stay equal.
                    let v = -(aip * ajp) * rd;
                    match self.at[j as usize] {
                        NONE => {
                            self.at[j as usize] = row.len() as u32;
                            row.push((j, v));
                        }
                        k => row[k as usize].1 += v,
                    }
                }
                for e in row.iter() {
                    self.at[e.0 as usize] = NONE;
                }
                self.queue.push(Reverse((row.len() as u32, i as u32)));
            }
            let col = &mut self.lcol[p];
            col.clear();
            col.extend(nbr.iter().map(|&(i, aip)| (i, aip / d)));
            self.nbr = nbr;
        }
    }

    /// Dense right-looking LDLᵀ in natural order, with the sparse path's
    /// pivot guard. The trailing matrix is kept in the upper triangle, so
    /// that the pivot's column is a contiguous row (the lower triangle is
    /// never read); L's columns go into `lcol` as they are finished.
    fn factor_dense(&mut self) {
        let n = self.n;
        let a = &mut self.dense;
        if a.len() < n * n {
            a.resize(n * n, 0.0);
        }
        // Which entries beyond the diagonal may be nonzero, row by row:
        // the pivot's column is then read from its set bits instead of a
        // scan of the whole row (the scan was a third of this
        // factorisation on ragdolls: O(n²) compares for ~450 nonzeros).
        let words = n.div_ceil(64);
        let pattern = &mut self.pattern;
        pattern.clear();
        pattern.resize(n * words, 0);
        for i in 0..n {
            let row = &mut a[i * n..(i + 1) * n];
            row[i..].fill(0.0);
            row[i] = self.diag[i];
            for &(j, v) in &self.adj[i] {
                // Both triangles were appended by `add`; keep the upper one
                // (repeated pairs sum).
                let j = j as usize;
                if j > i {
                    row[j] += v;
                    pattern[i * words + j / 64] |= 1 << (j % 64);
                }
            }
        }
        let nz_bits = &mut self.nz_bits;
        nz_bits.clear();
        nz_bits.resize(words, 0);
        let col = &mut self.col;
        col.clear();
        col.resize(n, 0.0);
        let mut nz = std::mem::take(&mut self.nz);
        for j in 0..n {
            let mut d = a[j * n + j];
            if !(d > 1e-300) {
                d = 1e-300_f64.max(d.abs());
            }
            self.diag[j] = d;
            let rd = 1.0 / d;
            // The pivot's nonzeros beyond it (a joint's rows couple only
            // with the rows at its two bodies, so a ragdoll's column holds
            // a handful): only they update the trailing block, and their
            // L values are formed once (col).
            // Column j of L is also kept as a list, as the sparse path
            // keeps it: the solves then visit only the nonzeros (about 30 %
            // of a ragdoll island's 61×61 lower triangle).
            nz.clear();
            let lcol = &mut self.lcol[j];
            lcol.clear();
            let (done, rest) = a.split_at_mut((j + 1) * n);
            let pivot = &done[j * n..];
            // Columns k > j in increasing order, as a scan would visit
            // them (every other entry of the row is zero).
            for w in 0..words {
                let mut bits = pattern[j * words + w];
                let mut kept = 0;
                while bits != 0 {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let k = w * 64 + b;
                    let v = pivot[k];
                    if v != 0.0 {
                        kept |= 1 << b;
                        nz.push(k as u32);
                        let l = v * rd;
                        col[k] = l;
                        if l != 0.0 {
                            lcol.push((k as u32, l));
                        }
                    }
                }
                nz_bits[w] = kept;
            }
            // A_rc −= L_cj·A_rj for pivot neighbours r ≤ c (the upper
            // triangle's image of the lower A_cr −= L_cj·A_rj); entries
            // with A_rj = 0 or A_cj = 0 are left as they are.
            for (p, &r) in nz.iter().enumerate() {
                let r = r as usize;
                let arj = pivot[r];
                let row = &mut rest[(r - j - 1) * n..(r - j) * n];
                for &c in &nz[p..] {
                    // SAFETY: nz holds rows of j + 1..n: c < n = row.len()
                    // = col.len().
                    unsafe { *row.get_unchecked_mut(c as usize) -= *col.get_unchecked(c as usize) * arj };
                }
                // Row r may now be nonzero at the pivot's columns beyond r.
                for w in r / 64..words {
                    let above = if w == r / 64 { !0u64 << (r % 64) << 1 } else { !0 };
                    pattern[r * words + w] |= nz_bits[w] & above;
                }
            }
        }
        self.nz = nz;
        self.order.clear();
        self.order.extend(0..n as u32);
    }

    /// Solves A·x = b in place (`x` holds b on entry), after `factor`.
    pub fn solve(&self, x: &mut [f64]) {
        for &p in &self.order {
            let xp = x[p as usize];
            if xp != 0.0 {
                for &(i, l) in &self.lcol[p as usize] {
                    x[i as usize] -= l * xp;
                }
            }
        }
        for &p in &self.order {
            x[p as usize] /= self.diag[p as usize];
        }
        for &p in self.order.iter().rev() {
            let mut s = x[p as usize];
            for &(i, l) in &self.lcol[p as usize] {
                s -= l * x[i as usize];
            }
            x[p as usize] = s;
        }
    }

    /// Solves A·X = B in place for `w` right-hand sides at once: `x` is
    /// n×w, row u holding unknown u's values for every right-hand side
    /// (one pass over the factor, contiguous inner loops).
    pub fn solve_many(&self, x: &mut [f64], w: usize) {
        if w == 0 {
            return;
        }
        self.forward_sparse(x, w);
        for &p in &self.order {
            let p = p as usize;
            let r = 1.0 / self.diag[p];
            for v in &mut x[p * w..(p + 1) * w] {
                *v *= r;
            }
        }
        for &p in self.order.iter().rev() {
            let p = p as usize;
            for &(i, l) in &self.lcol[p] {
                let (xp, xi) = two_rows(x, p, i as usize, w);
                for (a, b) in xp.iter_mut().zip(xi.iter()) {
                    *a -= l * *b;
                }
            }
        }
    }

    /// L·Z = B on the sparse path, in pivot order (`w` right-hand sides).
    fn forward_sparse(&self, x: &mut [f64], w: usize) {
        for &p in &self.order {
            let p = p as usize;
            for &(i, l) in &self.lcol[p] {
                let (xi, xp) = two_rows(x, i as usize, p, w);
                for (a, b) in xi.iter_mut().zip(xp.iter()) {
                    *a -= l * *b;
                }
            }
        }
    }

    /// True when `factor` chose the dense path: L is then in natural order,
    /// so row i of L·Z = B involves only rows ≤ i of B.
    pub fn is_dense(&self) -> bool {
        self.is_dense
    }

    /// D of A = L·D·Lᵀ by unknown (after `factor`, pivot guard applied).
    pub fn d(&self) -> &[f64] {
        &self.diag[..self.n]
    }

    /// Solves L·Z = B in place for `w` right-hand sides (`x` is n×w
    /// row-major, as in `solve_many`): the forward half of `solve_many`,
    /// so that A⁻¹ = L⁻ᵀ·D⁻¹·L⁻¹ gives Bᵀ·A⁻¹·B = Zᵀ·D⁻¹·Z without the
    /// backward pass. On the dense path `width[i]` (non-decreasing, ≤ w)
    /// says that row i of B, and so of Z, is zero beyond its first
    /// `width[i]` columns (callers order the columns by their first
    /// nonzero row); the sparse path ignores it (its order is permuted).
    pub fn forward_many(&self, x: &mut [f64], w: usize, width: &[u32]) {
        if w == 0 {
            return;
        }
        if self.is_dense {
            // Natural order: column p's rows i > p have width[i] ≥ width[p],
            // and row p is zero beyond width[p]. Each entry of row i takes
            // its updates in increasing p, as a row-by-row pass would.
            for p in 0..self.n {
                let wp = width[p] as usize;
                if wp == 0 {
                    continue;
                }
                for &(i, l) in &self.lcol[p] {
                    let (xi, xp) = two_rows(x, i as usize, p, w);
                    super::fast_kernels::axpy(&mut xi[..wp], -l, &xp[..wp]);
                }
            }
            return;
        }
        self.forward_sparse(x, w);
    }

    /// Number of off-diagonal entries of L (a measure of fill-in).
    pub fn factor_entries(&self) -> usize {
        self.lcol.iter().take(self.n).map(Vec::len).sum()
    }
}

/// Rows a (mutable) and b (shared) of an n×w row-major array, a ≠ b.
#[inline]
fn two_rows(x: &mut [f64], a: usize, b: usize, w: usize) -> (&mut [f64], &[f64]) {
    debug_assert!(a != b);
    if a < b {
        let (lo, hi) = x.split_at_mut(b * w);
        (&mut lo[a * w..(a + 1) * w], &hi[..w])
    } else {
        let (lo, hi) = x.split_at_mut(a * w);
        (&mut hi[..w], &lo[b * w..(b + 1) * w])
    }
}

fn remove_entry(row: &mut Vec<(u32, f64)>, j: u32) {
    if let Some(k) = row.iter().position(|e| e.0 == j) {
        row.swap_remove(k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;


    /// A = J·Jᵀ + εI for random "joints" (rows) between "bodies" joined as
    /// `edges` says: J has one 6-wide block per body; each edge (body pair)
    /// contributes `rows` rows. Returns (dense A, n).
    fn system(edges: &[(usize, usize)], bodies: usize, rows: usize, rng: &mut Rng) -> (Vec<f64>, usize) {
        let n = edges.len() * rows;
        let mut j = vec![0.0; n * bodies * 6];
        for (e, &(a, b)) in edges.iter().enumerate() {
            for r in 0..rows {
                let row = e * rows + r;
                for k in 0..6 {
                    j[row * bodies * 6 + a * 6 + k] = rng.signed();
                    j[row * bodies * 6 + b * 6 + k] = rng.signed();
                }
            }
        }
        let w = bodies * 6;
        let mut a = vec![0.0; n * n];
        for r in 0..n {
            for c in 0..n {
                let s: f64 = (0..w).map(|k| j[r * w + k] * j[c * w + k]).sum();
                a[r * n + c] = s + if r == c { 1e-6 } else { 0.0 };
            }
        }
        (a, n)
    }

    /// Dense Gaussian elimination with partial pivoting.
    fn dense_solve(a: &[f64], b: &[f64], n: usize) -> Vec<f64> {
        let mut m = a.to_vec();
        let mut x = b.to_vec();
        for c in 0..n {
            let p = (c..n).max_by(|&i, &k| m[i * n + c].abs().total_cmp(&m[k * n + c].abs())).unwrap();
            for k in 0..n {
                m.swap(c * n + k, p * n + k);
            }
            x.swap(c, p);
            for r in c + 1..n {
                let f = m[r * n + c] / m[c * n + c];
                for k in c..n {
                    m[r * n + k] -= f * m[c * n + k];
                }
                x[r] -= f * x[c];
            }
        }
        for c in (0..n).rev() {
            let mut s = x[c];
            for k in c + 1..n {
                s -= m[c * n + k] * x[k];
            }
            x[c] = s / m[c * n + c];
        }
        x
    }

    /// Checks the sparse and the dense factorisation; returns the sparse
    /// one's factor entries.
    fn check(edges: &[(usize, usize)], bodies: usize, rows: usize, seed: u64) -> usize {
        check_with(edges, bodies, rows, seed, Some(usize::MAX));
        check_with(edges, bodies, rows, seed, Some(0))
    }

    fn check_with(edges: &[(usize, usize)], bodies: usize, rows: usize, seed: u64, dense_max: Option<usize>) -> usize {
        let mut rng = Rng(seed);
        let (a, n) = system(edges, bodies, rows, &mut rng);
        let b: Vec<f64> = (0..n).map(|_| rng.signed()).collect();
        let mut f = SparseLdl { dense_max, ..Default::default() };
        f.reset((0..n).map(|i| a[i * n + i]));
        for i in 0..n {
            for j in i + 1..n {
                if a[i * n + j] != 0.0 {
                    f.add(i, j, a[i * n + j]);
                }
            }
        }
        f.factor();
        let mut x = b.clone();
        f.solve(&mut x);
        // Three right-hand sides at once (b, 2b, and b reversed) give the
        // single solves' answers.
        let mut many = vec![0.0; n * 3];
        for i in 0..n {
            many[i * 3] = b[i];
            many[i * 3 + 1] = 2.0 * b[i];
            many[i * 3 + 2] = b[n - 1 - i];
        }
        f.solve_many(&mut many, 3);
        let mut rev: Vec<f64> = b.iter().rev().copied().collect();
        f.solve(&mut rev);
        for i in 0..n {
            assert!((many[i * 3] - x[i]).abs() <= 1e-12 * (1.0 + x[i].abs()));
            assert!((many[i * 3 + 1] - 2.0 * x[i]).abs() <= 1e-12 * (1.0 + x[i].abs()));
            assert!((many[i * 3 + 2] - rev[i]).abs() <= 1e-12 * (1.0 + rev[i].abs()));
        }
        let want = dense_solve(&a, &b, n);
        let scale = want.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        for (got, want) in x.iter().zip(&want) {
            assert!((got - want).abs() <= 1e-9 * scale, "{got} vs {want} (scale {scale})");
        }
        // The residual too.
        for i in 0..n {
            let r: f64 = (0..n).map(|k| a[i * n + k] * x[k]).sum::<f64>() - b[i];
            assert!(r.abs() <= 1e-9 * (1.0 + b[i].abs()) * scale.max(1.0), "residual {r}");
        }
        // Bᵀ·A⁻¹·B from the forward pass alone (Zᵀ·D⁻¹·Z, Z = L⁻¹·B), for
        // four columns that are zero above their (ascending) first rows, as
        // the fast Step passes them: equals Bᵀ·(dense solve of A·Y = B).
        let first = [0, n / 3, n / 2, n - 1];
        let w = first.len();
        let mut bm = vec![0.0; n * w];
        for (c, &f0) in first.iter().enumerate() {
            for u in f0..n {
                // Sparse-ish columns, as A_FB is: about every third row.
                if u == f0 || rng.below(3) == 0 {
                    bm[u * w + c] = rng.signed();
                }
            }
        }
        let width: Vec<u32> = (0..n).map(|u| first.iter().filter(|&&f0| f0 <= u).count() as u32).collect();
        let mut z = bm.clone();
        f.forward_many(&mut z, w, &width);
        for b in 0..w {
            for c in 0..w {
                let col: Vec<f64> = (0..n).map(|u| bm[u * w + c]).collect();
                let y = dense_solve(&a, &col, n);
                let want: f64 = (0..n).map(|u| bm[u * w + b] * y[u]).sum();
                let got: f64 = (0..n).map(|u| z[u * w + b] * z[u * w + c] / f.d()[u]).sum();
                let scale = y.iter().fold(1.0_f64, |m, v| m.max(v.abs()));
                assert!((got - want).abs() <= 1e-9 * scale, "({b}, {c}): {got} vs {want}");
            }
        }
        f.factor_entries()
    }

    #[test]
    fn chains_trees_and_loops_equal_the_dense_solve() {
        for seed in 1..=20u64 {
            let mut rng = Rng(seed * 7919);
            // A chain of 30 links (body 0 is the first link).
            let chain: Vec<(usize, usize)> = (0..29).map(|i| (i, i + 1)).collect();
            check(&chain, 30, 3, seed);
            // A random tree of 25 bodies.
            let tree: Vec<(usize, usize)> = (1..25).map(|i| (rng.below(i), i)).collect();
            check(&tree, 25, 5, seed + 100);
            // The tree plus a few loops.
            let mut loops = tree.clone();
            for _ in 0..4 {
                let (a, b) = (rng.below(25), rng.below(25));
                if a != b {
                    loops.push((a, b));
                }
            }
            check(&loops, 25, 4, seed + 200);
        }
    }

    #[test]
    fn a_chain_factors_without_fill_beyond_its_band() {
        // 3 rows per link; each row couples with the rows of the links on
        // either side. Minimum degree from the ends keeps L within the band.
        let chain: Vec<(usize, usize)> = (0..59).map(|i| (i, i + 1)).collect();
        let entries = check(&chain, 60, 3, 5);
        let n = 59 * 3;
        assert!(entries <= n * 6, "{entries} factor entries for {n} rows");
    }
}
