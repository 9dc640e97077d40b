//! Sparse LDLᵀ factorisation of a symmetric positive definite matrix, for
//! the fast `dWorldStep` (`fast_step`): constraint rows couple only through
//! the bodies they share, so `J·M⁻¹·Jᵀ` is sparse, and eliminating rows in
//! minimum-degree order (leaves first on a chain or a tree of joints) keeps
//! the factor sparse: O(m) work on forests, fill-in only where the joint
//! graph has loops.
//!
//! The matrix is given as its diagonal plus off-diagonal entries (`add`,
//! one triangle, repeats summed); `factor` then factorises and `solve`
//! solves `A·x = b` for any number of right-hand sides.
//!
//! Two ways to factorise, same order and same fill:
//! - **direct**: minimum-degree elimination on adjacency lists, values and
//!   structure together;
//! - **planned**: as in sparse direct solvers, a symbolic analysis of the
//!   entries' positions (elimination order, fill-in, and where every entry
//!   and every elimination update lands in the factor), then a numeric
//!   pass that only follows those precomputed indices, several times
//!   cheaper than the direct one. The analysis costs more than one direct
//!   factorisation, so it is made only for a pattern that has just been
//!   seen (the previous direct factorisation had the same positions: the
//!   same island in consecutive steps, e.g. a long chain); the last few
//!   plans are kept (`CACHED`). Islands whose unknowns come in a new order
//!   each step (joint order follows the contacts) stay on the direct path.
//!
//! Buffers are kept between uses: a warm factorisation allocates nothing.

/// Symbolic analyses kept for reuse.
const CACHED: usize = 8;

/// The positions of a matrix's entries and their elimination plan.
#[derive(Default)]
struct Symbolic {
    n: usize,
    hash: u64,
    /// The key: the off-diagonal entries (i, j) in the order they were added.
    entries: Vec<(u32, u32)>,
    /// Elimination order: `order[k]` is the k-th pivot, `pos` its inverse.
    order: Vec<u32>,
    pos: Vec<u32>,
    /// Column of L of the k-th pivot: slots `start[k]..start[k + 1]`,
    /// holding the rows `rows[slot]`, sorted by elimination position.
    start: Vec<u32>,
    rows: Vec<u32>,
    /// Slot each entry is added into.
    entry_slot: Vec<u32>,
    /// For each pivot, each pair (s1 < s2) of its column's slots in order:
    /// the slot of entry (rows[s1], rows[s2]) that the elimination updates.
    pair_slot: Vec<u32>,
}

/// The matrix being factorised, then its factor.
#[derive(Default)]
pub struct SparseLdl {
    n: usize,
    /// Diagonal, then the pivots D.
    diag: Vec<f64>,
    /// Entries as added: positions (with a running hash) and values.
    entries: Vec<(u32, u32)>,
    values: Vec<f64>,
    hash: u64,
    /// The factor's off-diagonal values per slot (L after `factor`).
    l: Vec<f64>,
    /// Cached analyses, the one in use, and the next to replace.
    cache: Vec<Symbolic>,
    current: usize,
    victim: usize,
    /// Hash of the pattern of the last direct factorisation.
    last_direct: Option<u64>,
    /// Whether the factor in use is `cache[current]` (planned) or
    /// `dcol`/`dorder` (direct).
    planned: bool,
    /// Direct path: remaining off-diagonal entries per row (column, value),
    /// both triangles; columns of L per unknown; elimination order.
    dadj: Vec<Vec<(u32, f64)>>,
    dcol: Vec<Vec<(u32, f64)>>,
    dorder: Vec<u32>,
    dnbr: Vec<(u32, f64)>,
    /// Scratch of the analysis.
    adj: Vec<Vec<u32>>,
    mark: Vec<u32>,
    done: Vec<bool>,
    nbr: Vec<u32>,
}

impl SparseLdl {
    /// Starts an `n`×`n` matrix with diagonal `diag` and no off-diagonal
    /// entries.
    pub fn reset(&mut self, diag: impl Iterator<Item = f64>) {
        self.diag.clear();
        self.diag.extend(diag);
        self.n = self.diag.len();
        self.entries.clear();
        self.values.clear();
        self.hash = 0xcbf2_9ce4_8422_2325 ^ self.n as u64;
    }

    /// Adds `v` to entries (i, j) and (j, i), i ≠ j. The position counts
    /// even when `v` is zero (the analysis depends on positions only).
    pub fn add(&mut self, i: usize, j: usize, v: f64) {
        debug_assert!(i != j && i < self.n && j < self.n);
        self.entries.push((i as u32, j as u32));
        self.values.push(v);
        self.hash = (self.hash ^ ((i as u64) << 32 | j as u64)).wrapping_mul(0x0100_0000_01b3);
    }

    /// Factorises A = L·D·Lᵀ in minimum-degree order. A pivot that is not
    /// positive (a singular or indefinite system: redundant constraints
    /// without CFM) is replaced by a tiny positive one, which leaves the
    /// redundant direction unconstrained instead of dividing by zero.
    pub fn factor(&mut self) {
        let hit = self.cache.iter().position(|c| c.n == self.n && c.hash == self.hash && c.entries == self.entries);
        self.current = match hit {
            Some(k) => k,
            None if self.last_direct == Some(self.hash) => self.analyse(),
            None => {
                self.last_direct = Some(self.hash);
                self.planned = false;
                self.factor_direct();
                return;
            }
        };
        self.planned = true;
        let sym = &self.cache[self.current];
        let l = &mut self.l;
        l.clear();
        l.resize(sym.rows.len(), 0.0);
        for (&slot, &v) in sym.entry_slot.iter().zip(&self.values) {
            l[slot as usize] += v;
        }
        let diag = &mut self.diag;
        let mut t = 0;
        for k in 0..self.n {
            let p = sym.order[k] as usize;
            let mut d = diag[p];
            if !(d > 1e-300) {
                d = 1e-300_f64.max(d.abs());
            }
            diag[p] = d;
            let (s0, s1) = (sym.start[k] as usize, sym.start[k + 1] as usize);
            // Schur complement on the column's rows: A_ij -= A_ip·A_jp / d.
            for a in s0..s1 {
                let aip = l[a];
                diag[sym.rows[a] as usize] -= aip * aip / d;
                for b in a + 1..s1 {
                    let v = -aip * l[b] / d;
                    l[sym.pair_slot[t] as usize] += v;
                    t += 1;
                }
            }
            for v in &mut l[s0..s1] {
                *v /= d;
            }
        }
    }

    /// Minimum-degree elimination with values and structure together (the
    /// factor then lives in `dcol`/`dorder`).
    fn factor_direct(&mut self) {
        let n = self.n;
        for v in [&mut self.dadj, &mut self.dcol] {
            if v.len() < n {
                v.resize_with(n, Vec::new);
            }
            for row in v.iter_mut().take(n) {
                row.clear();
            }
        }
        for (&(i, j), &v) in self.entries.iter().zip(&self.values) {
            if v != 0.0 {
                add_entry(&mut self.dadj[i as usize], j, v);
                add_entry(&mut self.dadj[j as usize], i, v);
            }
        }
        self.done.clear();
        self.done.resize(n, false);
        self.dorder.clear();
        for _ in 0..n {
            let mut p = usize::MAX;
            let mut best = usize::MAX;
            for i in 0..n {
                if !self.done[i] && self.dadj[i].len() < best {
                    best = self.dadj[i].len();
                    p = i;
                    if best == 0 {
                        break;
                    }
                }
            }
            self.done[p] = true;
            self.dorder.push(p as u32);
            let mut d = self.diag[p];
            if !(d > 1e-300) {
                d = 1e-300_f64.max(d.abs());
            }
            self.diag[p] = d;
            let mut nbr = std::mem::take(&mut self.dnbr);
            nbr.clear();
            nbr.append(&mut self.dadj[p]);
            // Schur complement on the neighbours: A_ij -= A_ip·A_jp / d.
            for (a, &(i, aip)) in nbr.iter().enumerate() {
                let i = i as usize;
                remove_entry(&mut self.dadj[i], p as u32);
                self.diag[i] -= aip * aip / d;
                for &(j, ajp) in &nbr[a + 1..] {
                    let v = -aip * ajp / d;
                    add_entry(&mut self.dadj[i], j, v);
                    add_entry(&mut self.dadj[j as usize], i as u32, v);
                }
            }
            let col = &mut self.dcol[p];
            col.clear();
            col.extend(nbr.iter().map(|&(i, aip)| (i, aip / d)));
            self.dnbr = nbr;
        }
    }

    /// Plans the elimination of the current entries' positions into a
    /// cache slot; returns the slot.
    fn analyse(&mut self) -> usize {
        let n = self.n;
        let k = if self.cache.len() < CACHED {
            self.cache.push(Symbolic::default());
            self.cache.len() - 1
        } else {
            let k = self.victim;
            self.victim = (k + 1) % CACHED;
            k
        };
        let sym = &mut self.cache[k];
        sym.n = n;
        sym.hash = self.hash;
        sym.entries.clear();
        sym.entries.extend_from_slice(&self.entries);

        // Adjacency sets of the pattern.
        if self.adj.len() < n {
            self.adj.resize_with(n, Vec::new);
        }
        for row in self.adj.iter_mut().take(n) {
            row.clear();
        }
        self.mark.clear();
        self.mark.resize(n, u32::MAX);
        for &(i, j) in &self.entries {
            self.adj[i as usize].push(j);
            self.adj[j as usize].push(i);
        }
        for (i, row) in self.adj.iter_mut().take(n).enumerate() {
            row.retain(|&j| {
                let fresh = self.mark[j as usize] != i as u32;
                self.mark[j as usize] = i as u32;
                fresh
            });
        }
        self.mark.fill(u32::MAX);

        // Minimum-degree elimination, symbolically: each pivot's remaining
        // neighbours become its column of L and a clique among themselves.
        self.done.clear();
        self.done.resize(n, false);
        sym.order.clear();
        sym.start.clear();
        sym.rows.clear();
        let mut nbr = std::mem::take(&mut self.nbr);
        for _ in 0..n {
            let mut p = usize::MAX;
            let mut best = usize::MAX;
            for i in 0..n {
                if !self.done[i] && self.adj[i].len() < best {
                    best = self.adj[i].len();
                    p = i;
                    if best == 0 {
                        break;
                    }
                }
            }
            self.done[p] = true;
            sym.order.push(p as u32);
            sym.start.push(sym.rows.len() as u32);
            nbr.clear();
            nbr.append(&mut self.adj[p]);
            sym.rows.extend_from_slice(&nbr);
            for &i in &nbr {
                let row = &mut self.adj[i as usize];
                row.retain(|&j| j as usize != p);
                for &j in row.iter() {
                    self.mark[j as usize] = i;
                }
                for &j in &nbr {
                    if j != i && self.mark[j as usize] != i {
                        row.push(j);
                        self.mark[j as usize] = i;
                    }
                }
                for &j in row.iter() {
                    self.mark[j as usize] = u32::MAX;
                }
            }
        }
        sym.start.push(sym.rows.len() as u32);
        self.nbr = nbr;

        // Columns sorted by elimination position, then where each entry and
        // each update lands: entry (i, j) lives in the column of whichever
        // of i, j is eliminated first, at the other's row.
        sym.pos.clear();
        sym.pos.resize(n, 0);
        for (k, &p) in sym.order.iter().enumerate() {
            sym.pos[p as usize] = k as u32;
        }
        for k in 0..n {
            let (s0, s1) = (sym.start[k] as usize, sym.start[k + 1] as usize);
            let pos = &sym.pos;
            sym.rows[s0..s1].sort_unstable_by_key(|&r| pos[r as usize]);
        }
        let slot_of = |sym: &Symbolic, i: u32, j: u32| -> u32 {
            let (first, other) = if sym.pos[i as usize] < sym.pos[j as usize] { (i, j) } else { (j, i) };
            let k = sym.pos[first as usize] as usize;
            let (s0, s1) = (sym.start[k] as usize, sym.start[k + 1] as usize);
            let want = sym.pos[other as usize];
            let at = sym.rows[s0..s1].partition_point(|&r| sym.pos[r as usize] < want);
            debug_assert!(s0 + at < s1 && sym.rows[s0 + at] == other);
            (s0 + at) as u32
        };
        let mut entry_slot = std::mem::take(&mut sym.entry_slot);
        entry_slot.clear();
        entry_slot.extend(sym.entries.iter().map(|&(i, j)| slot_of(sym, i, j)));
        sym.entry_slot = entry_slot;
        let mut pair_slot = std::mem::take(&mut sym.pair_slot);
        pair_slot.clear();
        for k in 0..n {
            let (s0, s1) = (sym.start[k] as usize, sym.start[k + 1] as usize);
            for a in s0..s1 {
                for b in a + 1..s1 {
                    pair_slot.push(slot_of(sym, sym.rows[a], sym.rows[b]));
                }
            }
        }
        sym.pair_slot = pair_slot;
        k
    }

    /// Solves A·x = b in place (`x` holds b on entry), after `factor`.
    pub fn solve(&self, x: &mut [f64]) {
        if !self.planned {
            for &p in &self.dorder {
                let xp = x[p as usize];
                if xp != 0.0 {
                    for &(i, l) in &self.dcol[p as usize] {
                        x[i as usize] -= l * xp;
                    }
                }
            }
            for &p in &self.dorder {
                x[p as usize] /= self.diag[p as usize];
            }
            for &p in self.dorder.iter().rev() {
                let mut s = x[p as usize];
                for &(i, l) in &self.dcol[p as usize] {
                    s -= l * x[i as usize];
                }
                x[p as usize] = s;
            }
            return;
        }
        let sym = &self.cache[self.current];
        let n = self.n;
        for k in 0..n {
            let p = sym.order[k] as usize;
            let xp = x[p];
            if xp != 0.0 {
                let (s0, s1) = (sym.start[k] as usize, sym.start[k + 1] as usize);
                for (&i, &l) in sym.rows[s0..s1].iter().zip(&self.l[s0..s1]) {
                    x[i as usize] -= l * xp;
                }
            }
        }
        for &p in &sym.order[..n] {
            x[p as usize] /= self.diag[p as usize];
        }
        for k in (0..n).rev() {
            let p = sym.order[k] as usize;
            let (s0, s1) = (sym.start[k] as usize, sym.start[k + 1] as usize);
            let mut s = x[p];
            for (&i, &l) in sym.rows[s0..s1].iter().zip(&self.l[s0..s1]) {
                s -= l * x[i as usize];
            }
            x[p] = s;
        }
    }

    /// Number of off-diagonal entries of L (a measure of fill-in).
    pub fn factor_entries(&self) -> usize {
        if self.planned {
            self.cache.get(self.current).map_or(0, |s| s.rows.len())
        } else {
            self.dcol.iter().take(self.n).map(Vec::len).sum()
        }
    }
}

fn add_entry(row: &mut Vec<(u32, f64)>, j: u32, v: f64) {
    match row.iter_mut().find(|e| e.0 == j) {
        Some(e) => e.1 += v,
        None => row.push((j, v)),
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

    /// xorshift, deterministic.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> f64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        }
        fn below(&mut self, n: usize) -> usize {
            ((self.next() + 1.0) * 0.5 * n as f64) as usize % n
        }
    }

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
                    j[row * bodies * 6 + a * 6 + k] = rng.next();
                    j[row * bodies * 6 + b * 6 + k] = rng.next();
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

    fn check(edges: &[(usize, usize)], bodies: usize, rows: usize, seed: u64) -> usize {
        check_with(&mut SparseLdl::default(), edges, bodies, rows, seed)
    }

    fn check_with(f: &mut SparseLdl, edges: &[(usize, usize)], bodies: usize, rows: usize, seed: u64) -> usize {
        let mut rng = Rng(seed);
        let (a, n) = system(edges, bodies, rows, &mut rng);
        let b: Vec<f64> = (0..n).map(|_| rng.next()).collect();
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

    #[test]
    fn sparse_ldl_reused_plans_equal_the_dense_solve() {
        // One factoriser for many systems: patterns repeat with new values
        // (a plan is made, then reused), alternate, and outnumber the cache
        // (plans are replaced).
        let mut f = SparseLdl::default();
        for round in 0..3u64 {
            for shape in 0..(CACHED as u64 + 3) {
                let mut rng = Rng(shape * 7919 + 1);
                let bodies = 12 + shape as usize;
                let mut edges: Vec<(usize, usize)> = (1..bodies).map(|i| (rng.below(i), i)).collect();
                if shape % 2 == 1 {
                    edges.push((rng.below(bodies / 2), bodies / 2 + rng.below(bodies / 2)));
                }
                // Twice in a row: the first factorisation of a pattern is
                // direct, the second makes a plan (later rounds reuse it,
                // unless it was replaced meanwhile).
                for again in 0..2 {
                    let seed = round * 1000 + shape * 17 + again * 7 + 5;
                    check_with(&mut f, &edges, bodies, 5 - (shape % 2) as usize, seed);
                    if again == 1 {
                        assert!(f.planned, "round {round} shape {shape}: a repeated pattern is planned");
                    } else if round == 0 {
                        assert!(!f.planned, "shape {shape}: a new pattern is factorised directly");
                    }
                }
            }
        }
    }
}
