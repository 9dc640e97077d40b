//! Warm-started solve of the fast Step's reduced boxed LCP (fast mode
//! only; exact mode's Dantzig solver in `solver::lcp` is untouched).
//!
//! The problem is `lcp`'s: find x, w with A·x = b + w and, per index i,
//! lo(i) < x(i) < hi(i) and w(i) = 0, or x(i) = lo(i) and w(i) ≥ 0, or
//! x(i) = hi(i) and w(i) ≤ 0; a friction row (findex f ≥ 0) has the bounds
//! ±|hi(i)·x(f)|. A is symmetric positive definite (CFM), only its lower
//! triangle is read.
//!
//! Given a guess of each index's state (free, at its lower or upper bound),
//! typically the previous step's, the indices at a constant bound are
//! moved to the right-hand side, a friction row at its bound is replaced
//! by ±|hi|·x(f) in the columns of its normal, and the remaining square
//! system is solved once (Gaussian elimination with partial pivoting: the
//! friction substitution makes it unsymmetric). The answer is then checked
//! against every bound and sign condition; the indices that violate one
//! change state (all at once, as block principal pivoting does) and the
//! system is solved again, a few times at most. If that does not settle the
//! caller falls back to the cold Dantzig solve.
//!
//! The friction bounds are those of the answer's own normal forces (a
//! consistent Coulomb box), where Dantzig fixes each friction row's bound
//! from the normal force at the moment it meets the row; both coincide when
//! the normal forces are not changed by the friction rows' processing, and
//! an answer accepted here satisfies every LCP condition with its own
//! normal forces. Where the solution is unique both solvers give it, up
//! to rounding.

/// State of an index in the guess and the answer.
pub const FREE: u8 = 0;
pub const AT_LO: u8 = 1;
pub const AT_HI: u8 = 2;

const NONE: u32 = u32::MAX;

/// The problem, read only (the caller keeps it for the cold fallback).
pub struct Boxed<'a> {
    pub n: usize,
    /// Lower triangle of A, row i at `a[i * skip..]`.
    pub a: &'a [f64],
    pub skip: usize,
    pub b: &'a [f64],
    pub lo: &'a [f64],
    pub hi: &'a [f64],
    /// Friction index per row among the problem's indices, or −1.
    pub findex: Option<&'a [i32]>,
}

impl Boxed<'_> {
    #[inline]
    fn at(&self, i: usize, j: usize) -> f64 {
        if i >= j {
            self.a[i * self.skip + j]
        } else {
            self.a[j * self.skip + i]
        }
    }

    #[inline]
    fn target(&self, i: usize) -> Option<usize> {
        self.findex.and_then(|f| if f[i] >= 0 { Some(f[i] as usize) } else { None })
    }
}

/// Reusable buffers (a warm solve allocates nothing).
#[derive(Default)]
pub struct WarmLcp {
    /// Per index: `FREE`, `AT_LO` or `AT_HI`; set by the caller as the
    /// guess, holds the accepted answer's states on success.
    pub state: Vec<u8>,
    /// Free indices, and each index's position among them (or NONE).
    free: Vec<u32>,
    pos: Vec<u32>,
    /// Per index at a bound: the coefficient c with x = c·x(findex) for a
    /// friction row whose normal is free (else 0, x constant).
    coef: Vec<f64>,
    /// The square system over the free indices (row-major) and its
    /// right-hand side.
    m: Vec<f64>,
    r: Vec<f64>,
    /// Flips of the last iteration.
    flips: Vec<u32>,
    /// A, both triangles (row-major n×n).
    full: Vec<f64>,
    /// How many solves succeeded warm, and how many fell back (statistics
    /// for tests and profiling).
    pub hits: u64,
    pub hist: [u64; 16],
    pub misses: u64,
}

impl WarmLcp {
    /// Solves `p` from the guess in `self.state` (length `p.n`); `x` holds
    /// the previous answer's values where known (only its signs of the
    /// friction rows' normals are used) and receives the answer. Returns
    /// false (x undefined) if the guess did not settle within `max_iter`
    /// solves or the system was singular.
    pub fn solve(&mut self, p: &Boxed<'_>, x: &mut [f64], max_iter: usize, sweeps: usize) -> bool {
        let n = p.n;
        debug_assert!(self.state.len() >= n && x.len() >= n);
        self.full.clear();
        self.full.resize(n * n, 0.0);
        for i in 0..n {
            for j in 0..=i {
                let v = p.a[i * p.skip + j];
                self.full[i * n + j] = v;
                self.full[j * n + i] = v;
            }
        }
        if let Some(f) = p.findex {
            // A friction row's normal must not itself be a friction row
            // (the bounds would chain); such problems go to Dantzig.
            for i in 0..n {
                if f[i] >= 0 && (f[i] as usize >= n || f[f[i] as usize] >= 0) {
                    self.hist[13] += 1;
                    return false;
                }
            }
        }
        // Bounds a state cannot take (infinite) mean free.
        for i in 0..n {
            let s = &mut self.state[i];
            if p.target(i).is_none()
                && ((*s == AT_LO && p.lo[i] == f64::NEG_INFINITY) || (*s == AT_HI && p.hi[i] == f64::INFINITY))
            {
                *s = FREE;
            }
        }
        let scale_b = p.b[..n].iter().fold(1.0f64, |m, v| m.max(v.abs()));
        for it in 0..max_iter {
            // Projected Gauss–Seidel sweeps from the last answer (clamped
            // into its bounds) find the next guess; without sweeps the
            // violators' states are flipped (block principal pivoting).
            if sweeps > 0 {
                self.pgs_guess(p, x, sweeps);
            }
            if !self.solve_once(p, x) {
                self.hist[14] += 1;
                return false;
            }
            let scale_x = x[..n].iter().fold(1.0f64, |m, v| m.max(v.abs()));
            if self.check(p, x, 1e-10 * scale_x, 1e-10 * scale_b) {
                self.hist[it.min(12)] += 1;
                return true;
            }
            if std::env::var_os("FR2_DBG").is_some() && it + 1 == max_iter {
                let fl: Vec<String> = self.flips.iter().map(|&v| { let i = (v>>2) as usize; let w = dot(&self.full[i * n..(i + 1) * n], &x[..n]) - p.b[i]; format!("{}:->{} x={:.3e} w={:.3e} lo={:.2e} hi={:.2e} f={:?}", i, v & 3, x[i], w, p.lo[i], p.hi[i], p.target(i).map(|f| x[f]))}).collect();
                eprintln!("n {n} free {} sx {scale_x:.2e} sb {scale_b:.2e} flips {:?}", self.free.len(), fl);
            }
            if sweeps > 0 {
                project(p, x);
            }
        }
        false
    }

    /// Refines the guess by projected Gauss–Seidel sweeps from x (friction
    /// bounds from the current normal forces): cheap (n² a sweep), and its
    /// clamped indices are a good guess of the active set where the
    /// previous step gives none (contacts). Sets `state` from the result.
    fn pgs_guess(&mut self, p: &Boxed<'_>, x: &mut [f64], sweeps: usize) {
        let n = p.n;
        for _ in 0..sweeps {
            for i in 0..n {
                let row = &self.full[i * n..(i + 1) * n];
                let d = row[i];
                let r = p.b[i] - dot(row, &x[..n]) + d * x[i];
                let (lo, hi) = match p.target(i) {
                    Some(f) => {
                        let b = (p.hi[i] * x[f]).abs();
                        (-b, b)
                    }
                    None => (p.lo[i], p.hi[i]),
                };
                x[i] = (r / d).max(lo).min(hi);
            }
        }
        for i in 0..n {
            let (lo, hi) = match p.target(i) {
                Some(f) => {
                    let b = (p.hi[i] * x[f]).abs();
                    (-b, b)
                }
                None => (p.lo[i], p.hi[i]),
            };
            self.state[i] = if x[i] <= lo && lo != f64::NEG_INFINITY {
                AT_LO
            } else if x[i] >= hi && hi != f64::INFINITY {
                AT_HI
            } else {
                FREE
            };
        }
    }

    /// One solve of the system the states give; x receives every index's
    /// value. False if singular.
    fn solve_once(&mut self, p: &Boxed<'_>, x: &mut [f64]) -> bool {
        let n = p.n;
        self.free.clear();
        self.pos.clear();
        self.pos.resize(n, NONE);
        for i in 0..n {
            if self.state[i] == FREE {
                self.pos[i] = self.free.len() as u32;
                self.free.push(i as u32);
            }
        }
        // Constant bounds first (friction rows need their normal's value).
        self.coef.clear();
        self.coef.resize(n, 0.0);
        for i in 0..n {
            match (self.state[i], p.target(i)) {
                (FREE, _) | (_, Some(_)) => {}
                (AT_LO, None) => x[i] = p.lo[i],
                _ => x[i] = p.hi[i],
            }
        }
        for i in 0..n {
            if self.state[i] == FREE {
                continue;
            }
            if let Some(f) = p.target(i) {
                let sign = if self.state[i] == AT_LO { -1.0 } else { 1.0 };
                let mu = p.hi[i].abs();
                x[i] = 0.0;
                if self.pos[f] == NONE {
                    x[i] = sign * (p.hi[i] * x[f]).abs();
                } else {
                    // |hi·x_f| = |hi|·s·x_f with s the sign x_f had.
                    let s = if x[f] < 0.0 { -1.0 } else { 1.0 };
                    self.coef[i] = sign * mu * s;
                }
            }
        }
        let nf = self.free.len();
        self.m.clear();
        self.m.resize(nf * nf, 0.0);
        self.r.clear();
        for (a, &i) in self.free.iter().enumerate() {
            let i = i as usize;
            let row = &mut self.m[a * nf..(a + 1) * nf];
            let mut r = p.b[i];
            let arow = &self.full[i * n..(i + 1) * n];
            for j in 0..n {
                let v = arow[j];
                let pj = self.pos[j];
                if pj != NONE {
                    row[pj as usize] += v;
                } else if self.coef[j] != 0.0 {
                    let f = p.target(j).unwrap();
                    row[self.pos[f] as usize] += v * self.coef[j];
                } else {
                    r -= v * x[j];
                }
            }
            self.r.push(r);
        }
        if !lu_solve(&mut self.m, &mut self.r, nf) {
            return false;
        }
        for (a, &i) in self.free.iter().enumerate() {
            x[i as usize] = self.r[a];
        }
        for i in 0..n {
            if self.coef[i] != 0.0 {
                x[i] = self.coef[i] * x[p.target(i).unwrap()];
            }
        }
        true
    }

    /// Checks every condition; flips the violators' states. True if none.
    fn check(&mut self, p: &Boxed<'_>, x: &[f64], tol_x: f64, tol_w: f64) -> bool {
        let n = p.n;
        self.flips.clear();
        for i in 0..n {
            let (lo, hi) = match p.target(i) {
                Some(f) => {
                    let b = (p.hi[i] * x[f]).abs();
                    (-b, b)
                }
                None => (p.lo[i], p.hi[i]),
            };
            let s = self.state[i];
            let flip = if s == FREE {
                if x[i] < lo - tol_x {
                    Some(AT_LO)
                } else if x[i] > hi + tol_x {
                    Some(AT_HI)
                } else {
                    None
                }
            } else {
                // A bound of zero width (a friction row without normal
                // force) holds whatever the sign of w.
                if lo == hi {
                    None
                } else {
                    let w = dot(&self.full[i * n..(i + 1) * n], &x[..n]) - p.b[i];
                    if (s == AT_LO && w < -tol_w) || (s == AT_HI && w > tol_w) {
                        Some(FREE)
                    } else {
                        None
                    }
                }
            };
            if let Some(f) = flip {
                self.flips.push(((i as u32) << 2) | f as u32);
            }
        }
        for &v in &self.flips {
            self.state[(v >> 2) as usize] = (v & 3) as u8;
        }
        self.flips.is_empty()
    }
}

/// Clamps x into its bounds (friction rows into ±|hi·x(findex)| of the
/// clamped normal forces).
fn project(p: &Boxed<'_>, x: &mut [f64]) {
    for i in 0..p.n {
        if p.target(i).is_none() {
            x[i] = x[i].max(p.lo[i]).min(p.hi[i]);
        }
    }
    for i in 0..p.n {
        if let Some(f) = p.target(i) {
            let b = (p.hi[i] * x[f]).abs();
            x[i] = x[i].max(-b).min(b);
        }
    }
}

/// Σ a·b with four partial sums.
#[inline]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0.0; 4];
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for j in 0..4 {
            acc[j] += x[j] * y[j];
        }
    }
    let mut s = (acc[0] + acc[2]) + (acc[1] + acc[3]);
    for (x, y) in ra.iter().zip(rb) {
        s += x * y;
    }
    s
}

/// Solves M·y = r in place (y into r) by Gaussian elimination with partial
/// pivoting; M is n×n row-major and is overwritten. False if singular.
fn lu_solve(m: &mut [f64], r: &mut [f64], n: usize) -> bool {
    for c in 0..n {
        let mut p = c;
        let mut best = m[c * n + c].abs();
        for i in c + 1..n {
            let v = m[i * n + c].abs();
            if v > best {
                best = v;
                p = i;
            }
        }
        if best.is_nan() || best < 1e-300 {
            return false;
        }
        if p != c {
            for k in c..n {
                m.swap(c * n + k, p * n + k);
            }
            r.swap(c, p);
        }
        let (top, rest) = m.split_at_mut((c + 1) * n);
        let prow = &top[c * n + c..c * n + n];
        let inv = 1.0 / prow[0];
        let rc = r[c];
        for i in c + 1..n {
            let row = &mut rest[(i - c - 1) * n + c..(i - c) * n];
            let f = row[0] * inv;
            if f != 0.0 {
                for (a, &b) in row[1..].iter_mut().zip(&prow[1..]) {
                    *a -= f * b;
                }
                r[i] -= f * rc;
            }
        }
    }
    for c in (0..n).rev() {
        let row = &m[c * n..(c + 1) * n];
        let s: f64 = row[c + 1..].iter().zip(&r[c + 1..n]).map(|(a, b)| a * b).sum();
        r[c] = (r[c] - s) / row[c];
    }
    r[..n].iter().all(|v| v.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::matrix::pad;
    use crate::solver::lcp::{solve_lcp, LcpScratch};

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> f64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        }
    }

    /// A random problem: A = J·Jᵀ + εI (J n×dof), b random; with `friction`
    /// the indices come in contact triples (normal lo 0, two friction rows
    /// with μ), else random boxes (some unbounded sides).
    struct Prob {
        n: usize,
        skip: usize,
        a: Vec<f64>,
        b: Vec<f64>,
        lo: Vec<f64>,
        hi: Vec<f64>,
        findex: Vec<i32>,
    }

    fn problem(rng: &mut Rng, n: usize, dof: usize, friction: bool) -> Prob {
        let skip = pad(n);
        let j: Vec<f64> = (0..n * dof).map(|_| rng.next()).collect();
        let mut a = vec![0.0; n * skip];
        for r in 0..n {
            for c in 0..=r {
                let mut s: f64 = (0..dof).map(|k| j[r * dof + k] * j[c * dof + k]).sum();
                if r == c {
                    s += 1e-3;
                }
                a[r * skip + c] = s;
            }
        }
        let b = (0..n).map(|_| 3.0 * rng.next()).collect();
        let (mut lo, mut hi, mut findex) = (vec![0.0; n], vec![0.0; n], vec![-1; n]);
        for i in 0..n {
            if friction {
                if i % 3 == 0 {
                    lo[i] = 0.0;
                    hi[i] = f64::INFINITY;
                } else {
                    let mu = 0.2 + 0.5 * (rng.next() + 1.0);
                    lo[i] = -mu;
                    hi[i] = mu;
                    findex[i] = (i - i % 3) as i32;
                }
            } else {
                let t = rng.next();
                lo[i] = if t < -0.3 { f64::NEG_INFINITY } else { -(rng.next() + 1.0) };
                hi[i] = if t > 0.3 { f64::INFINITY } else { rng.next() + 1.0 };
            }
        }
        Prob { n, skip, a, b, lo, hi, findex }
    }

    fn boxed<'a>(p: &'a Prob, friction: bool) -> Boxed<'a> {
        Boxed {
            n: p.n,
            a: &p.a,
            skip: p.skip,
            b: &p.b,
            lo: &p.lo,
            hi: &p.hi,
            findex: if friction { Some(&p.findex) } else { None },
        }
    }

    fn cold(p: &Prob, friction: bool) -> Vec<f64> {
        let (mut a, mut b, mut lo, mut hi, mut f) = (p.a.clone(), p.b.clone(), p.lo.clone(), p.hi.clone(), p.findex.clone());
        let mut x = vec![0.0; p.n];
        let mut sc = LcpScratch::default();
        solve_lcp(p.n, &mut a, &mut x, &mut b, None, 0, &mut lo, &mut hi, if friction { Some(&mut f) } else { None }, &mut sc);
        x
    }

    /// Largest violation of the LCP conditions (friction bounds from x's
    /// own normal forces), relative to the problem's scale.
    fn violation(p: &Boxed<'_>, x: &[f64]) -> f64 {
        let sx = x.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        let sb = p.b.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        let mut worst = 0.0f64;
        for i in 0..p.n {
            let (lo, hi) = match p.target(i) {
                Some(f) => ((-(p.hi[i] * x[f]).abs()), (p.hi[i] * x[f]).abs()),
                None => (p.lo[i], p.hi[i]),
            };
            let w = (0..p.n).map(|j| p.at(i, j) * x[j]).sum::<f64>() - p.b[i];
            worst = worst.max((lo - x[i]).max(0.0) / sx).max((x[i] - hi).max(0.0) / sx);
            let tol = 1e-9 * sx;
            let at_lo = (x[i] - lo).abs() <= tol;
            let at_hi = (x[i] - hi).abs() <= tol;
            // w must vanish unless x sits at a bound with w's sign.
            let wv = if at_lo && at_hi {
                0.0
            } else if at_lo {
                (-w).max(0.0)
            } else if at_hi {
                w.max(0.0)
            } else {
                w.abs()
            };
            worst = worst.max(wv / sb);
        }
        worst
    }

    fn states_of(p: &Boxed<'_>, x: &[f64]) -> Vec<u8> {
        (0..p.n)
            .map(|i| {
                let (lo, hi) = match p.target(i) {
                    Some(f) => ((-(p.hi[i] * x[f]).abs()), (p.hi[i] * x[f]).abs()),
                    None => (p.lo[i], p.hi[i]),
                };
                if x[i] <= lo {
                    AT_LO
                } else if x[i] >= hi {
                    AT_HI
                } else {
                    FREE
                }
            })
            .collect()
    }

    fn max_diff(a: &[f64], b: &[f64]) -> f64 {
        let s = a.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max) / s
    }

    /// Without friction the boxed LCP of a positive definite matrix has one
    /// solution: the warm solve from the cold answer's states and from an
    /// all-free guess both reproduce it.
    #[test]
    fn warm_equals_cold_without_friction() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut w = WarmLcp::default();
        let mut from_free = 0;
        for t in 0..200 {
            let n = 4 + t % 30;
            let p = problem(&mut rng, n, (n * 3 / 4).max(2), false);
            let bx = boxed(&p, false);
            let xc = cold(&p, false);
            assert!(violation(&bx, &xc) < 1e-9, "cold solve violates the LCP");
            w.state.clear();
            w.state.extend(states_of(&bx, &xc));
            let mut x = vec![0.0; n];
            assert!(w.solve(&bx, &mut x, 1, 0), "the cold states must be accepted at once");
            assert!(max_diff(&xc, &x) < 1e-9, "warm {x:?} cold {xc:?}");
            assert!(violation(&bx, &x) < 1e-9);
            w.state.clear();
            w.state.resize(n, FREE);
            x.fill(0.0);
            if w.solve(&bx, &mut x, 20, 0) {
                from_free += 1;
                assert!(max_diff(&xc, &x) < 1e-9, "warm {x:?} cold {xc:?}");
                assert!(violation(&bx, &x) < 1e-9);
            }
        }
        assert!(from_free > 100, "all-free guesses settled only {from_free} times of 200");
    }

    /// With findex friction: every accepted answer satisfies the LCP
    /// conditions with its own normal forces to 1e-9; where the cold
    /// Dantzig answer satisfies them too (its friction bounds then are the
    /// final normal forces' and the solution is unique for these small μ
    /// and positive definite A), both agree; and a perturbed guess of the
    /// answer's states settles.
    #[test]
    fn warm_with_friction_satisfies_lcp() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut w = WarmLcp::default();
        let (mut accepted, mut compared) = (0, 0);
        for t in 0..200 {
            let n = 3 * (1 + t % 12);
            let p = problem(&mut rng, n, (n * 2 / 3).max(3), true);
            let bx = boxed(&p, true);
            let xc = cold(&p, true);
            w.state.clear();
            w.state.resize(n, FREE);
            let mut x = vec![0.0; n];
            if !w.solve(&bx, &mut x, 30, 0) {
                continue;
            }
            accepted += 1;
            assert!(violation(&bx, &x) < 1e-9, "violation {} x {x:?}", violation(&bx, &x));
            if violation(&bx, &xc) < 1e-10 {
                compared += 1;
                assert!(max_diff(&xc, &x) < 1e-9, "warm {x:?} cold {xc:?}");
            }
            // Start again from the answer's states with a few flipped.
            let good = w.state[..n].to_vec();
            let mut guess = good.clone();
            for (i, g) in guess.iter_mut().enumerate() {
                if i % 5 == 0 {
                    *g = if *g == FREE { AT_LO } else { FREE };
                }
            }
            w.state.clear();
            w.state.extend(guess);
            let mut y = vec![0.0; n];
            if w.solve(&bx, &mut y, 30, 0) {
                assert!(violation(&bx, &y) < 1e-9);
            }
            w.state.clear();
            w.state.extend(good);
            // The friction coefficients' signs come from x's normals.
            y.copy_from_slice(&x);
            assert!(w.solve(&bx, &mut y, 1, 0), "an answer's own states must be accepted at once");
            assert!(max_diff(&x, &y) < 1e-9);
        }
        assert!(accepted > 180, "only {accepted} of 200 settled");
        assert!(compared > 15, "only {compared} comparisons with the cold solve");
    }
}
