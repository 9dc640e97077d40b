//! A cheap solver of the fast Step's reduced boxed LCP (the k×k Schur
//! complement system of the bounded rows), with the Dantzig solver of
//! `lcp` as its fallback.
//!
//! The answer is the one Dantzig gives (up to rounding): Dantzig solves
//! the rows without a friction index first (friction λ = 0), fixes each
//! friction row's bounds to ±|μ·λ_normal| from that solution, then solves
//! everything with those fixed bounds. Each of the two phases is an
//! ordinary boxed LCP with a positive definite matrix (CFM on the
//! diagonal), whose solution is unique; here each phase is
//!
//! 1. projected Gauss–Seidel sweeps on the dense system (k² a sweep), only
//!    to guess the active set (which rows sit at a bound), then
//! 2. an exact solve of the free rows (dense LDLᵀ of their block, the
//!    others held at their bounds), verified against the LCP conditions
//!    (λ within bounds, w = S·λ − r of the right sign at a bound); rows
//!    that break them switch state and the solve is repeated a few times.
//!
//! When the guess cannot be made to verify within the caps the caller
//! falls back to Dantzig (`solve` returns false). The matrices are nearly
//! singular (about 34 rows on 29 degrees of freedom in a ragdoll island),
//! which is why the exact solve starts from Gauss–Seidel's active set
//! rather than pivoting from scratch (block principal pivoting from an
//! empty set failed to converge in a fifth of the islands).

use crate::solver::fast_kernels::{self as kernels, dot};

const FREE: u8 = 0;
const AT_LO: u8 = 1;
const AT_HI: u8 = 2;

/// The caps: Gauss–Seidel sweeps before the first exact solve and in
/// all, and state switches per exact-solve attempt.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub first_sweeps: usize,
    pub max_sweeps: usize,
    pub rounds: usize,
}

/// One sweep before the first exact solve: the starting guess is the
/// previous step's λ of the same contacts, already near the answer's
/// active set (three sweeps from it cost 1.7 % more instructions on the
/// ragdoll bench, for the same answers).
pub const LIMITS: Limits = Limits { first_sweeps: 1, max_sweeps: 30, rounds: 80 };
/// Sweeps stop early once no λ moves by more than this (as |Δλ_i|·S_ii,
/// relative to the largest |r_i|): the active set is then settled.
const SWEEP_TOL: f64 = 1e-6;
/// Tolerance of the LCP conditions, relative to the scale of r and S·λ.
const CHECK_TOL: f64 = 1e-10;

/// Buffers of one boxed solve.
#[derive(Default)]
struct Work {
    state: Vec<u8>,
    free: Vec<u32>,
    /// The free rows' block (factorised in place) and right-hand side.
    m: Vec<f64>,
    b: Vec<f64>,
    w: Vec<f64>,
    t: Vec<f64>,
    xp: Vec<f64>,
    /// A·x over the working set's rows (A symmetric: Σ_W x_j·A_j).
    g: Vec<f64>,
    sweeps: usize,
    solves: usize,
}

/// Reusable buffers of the reduced LCP solver (no allocation once warm).
#[derive(Default)]
pub struct ReducedLcp {
    /// S, full and symmetric (row-major, stride k).
    a: Vec<f64>,
    /// Phase 1: the rows without a friction index, their block of S,
    /// right-hand side, bounds and λ.
    sub: Vec<u32>,
    subpos: Vec<u32>,
    pa: Vec<f64>,
    pr: Vec<f64>,
    plo: Vec<f64>,
    phi: Vec<f64>,
    px: Vec<f64>,
    /// Phase 2 bounds (friction bounds fixed).
    lo: Vec<f64>,
    hi: Vec<f64>,
    work: Work,
    /// Solves asked for, and how many of them were left to Dantzig.
    pub calls: u64,
    pub fallbacks: u64,
}

impl ReducedLcp {
    /// Solves the boxed LCP S·x = r + w (bounds lo, hi; `findex[i] ≥ 0`:
    /// friction row bounded by ±|hi_i·x_findex|, ODE's semantics) with S
    /// given by its lower triangle (row stride `skip`). `x` holds the
    /// starting guess (zeros when cold). Returns false, x unspecified,
    /// when the solution could not be confirmed: the caller then solves
    /// with Dantzig.
    #[allow(clippy::too_many_arguments)]
    pub fn solve(
        &mut self,
        k: usize,
        s: &[f64],
        skip: usize,
        r: &[f64],
        lo: &[f64],
        hi: &[f64],
        findex: &[i32],
        x: &mut [f64],
        lim: Limits,
    ) -> bool {
        self.work.sweeps = 0;
        self.work.solves = 0;
        let ok = self.solve_inner(k, s, skip, r, lo, hi, findex, x, lim);
        self.calls += 1;
        self.fallbacks += u64::from(!ok);
        ok
    }

    /// Gauss–Seidel sweeps of the last `solve`.
    #[cfg(test)]
    pub fn last_sweeps(&self) -> usize {
        self.work.sweeps
    }

    #[allow(clippy::too_many_arguments)]
    fn solve_inner(
        &mut self,
        k: usize,
        s: &[f64],
        skip: usize,
        r: &[f64],
        lo: &[f64],
        hi: &[f64],
        findex: &[i32],
        x: &mut [f64],
        lim: Limits,
    ) -> bool {
        self.a.clear();
        self.a.resize(k * k, 0.0);
        for i in 0..k {
            for j in 0..=i {
                let v = s[i * skip + j];
                self.a[i * k + j] = v;
                self.a[j * k + i] = v;
            }
            let d = self.a[i * k + i];
            if !(d > 0.0 && d.is_finite() && r[i].is_finite() && x[i].is_finite()) {
                return false;
            }
        }
        let friction = findex[..k].iter().any(|&f| f >= 0);
        if !friction {
            for i in 0..k {
                x[i] = x[i].max(lo[i]).min(hi[i]);
            }
            return boxed(k, &self.a, r, lo, hi, x, &mut self.work, lim);
        }

        // Phase 1: the rows without friction index, friction λ = 0.
        self.sub.clear();
        self.subpos.clear();
        for (i, &f) in findex[..k].iter().enumerate() {
            self.subpos.push(if f < 0 { self.sub.len() as u32 } else { u32::MAX });
            if f < 0 {
                self.sub.push(i as u32);
            }
        }
        let ns = self.sub.len();
        self.pa.clear();
        self.pr.clear();
        self.plo.clear();
        self.phi.clear();
        self.px.clear();
        for &i in &self.sub {
            let i = i as usize;
            self.pa.extend(self.sub.iter().map(|&j| self.a[i * k + j as usize]));
            self.pr.push(r[i]);
            self.plo.push(lo[i]);
            self.phi.push(hi[i]);
            self.px.push(x[i].max(lo[i]).min(hi[i]));
        }
        if ns > 0 && !boxed(ns, &self.pa, &self.pr, &self.plo, &self.phi, &mut self.px, &mut self.work, lim) {
            return false;
        }

        // Phase 2: friction bounds fixed from phase 1's normal forces.
        self.lo.clear();
        self.hi.clear();
        for i in 0..k {
            let f = findex[i];
            if f < 0 {
                self.lo.push(lo[i]);
                self.hi.push(hi[i]);
                x[i] = self.px[self.subpos[i] as usize];
                continue;
            }
            let p = self.subpos.get(f as usize).copied().unwrap_or(u32::MAX);
            if p == u32::MAX {
                // A friction row naming a friction row (or out of range):
                // leave it to Dantzig.
                return false;
            }
            let normal = self.px[p as usize];
            let h = if normal == 0.0 { 0.0 } else { (hi[i] * normal).abs() };
            self.lo.push(-h);
            self.hi.push(h);
            x[i] = x[i].max(-h).min(h);
        }
        boxed(k, &self.a, r, &self.lo, &self.hi, x, &mut self.work, lim)
    }
}


/// One projected Gauss–Seidel sweep; returns max |Δx_i|·a_ii.
#[inline(never)]
fn sweep(n: usize, a: &[f64], r: &[f64], lo: &[f64], hi: &[f64], x: &mut [f64]) -> f64 {
    let mut maxd = 0.0f64;
    for i in 0..n {
        let row = &a[i * n..(i + 1) * n];
        let aii = row[i];
        let g = r[i] - dot(row, &x[..n]);
        let new = (x[i] + g / aii).max(lo[i]).min(hi[i]);
        maxd = maxd.max((new - x[i]).abs() * aii);
        x[i] = new;
    }
    maxd
}

/// Solves one boxed LCP with fixed bounds (a full n×n, positive
/// definite): Gauss–Seidel for the active set, then exact solves of the
/// free rows until the LCP conditions hold. `x` is the start (within the
/// bounds) and the answer.
#[allow(clippy::too_many_arguments)]
fn boxed(n: usize, a: &[f64], r: &[f64], lo: &[f64], hi: &[f64], x: &mut [f64], wk: &mut Work, lim: Limits) -> bool {
    let rscale = r[..n].iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if rscale == 0.0 {
        // Zero right-hand side: λ = 0 is the answer when 0 is within the
        // bounds (it always is here: lo ≤ 0 ≤ hi).
        x[..n].fill(0.0);
        return lo[..n].iter().zip(&hi[..n]).all(|(&l, &h)| l <= 0.0 && h >= 0.0);
    }
    let max_sweeps = lim.max_sweeps.max(1);
    let mut done = 0;
    let mut target = lim.first_sweeps.clamp(1, max_sweeps);
    let ok = loop {
        let mut settled = false;
        while done < target {
            let d = sweep(n, a, r, lo, hi, x);
            done += 1;
            if d <= SWEEP_TOL * rscale {
                settled = true;
                break;
            }
        }
        // The exact solve works on a copy so that more sweeps can resume
        // from Gauss–Seidel's own iterate if it fails.
        let mut trial = std::mem::take(&mut wk.w);
        trial.clear();
        trial.extend_from_slice(&x[..n]);
        let found = exact(n, a, r, lo, hi, &mut trial, wk, lim.rounds);
        if found {
            x[..n].copy_from_slice(&trial);
        }
        wk.w = trial;
        if found {
            break true;
        }
        if done >= max_sweeps || settled {
            break false;
        }
        target = max_sweeps;
    };
    wk.sweeps += done;
    ok
}

/// A primal active-set method for the box QP min ½xᵀAx − rᵀx, lo ≤ x ≤ hi
/// (the same problem as the LCP), started from x (within the bounds; rows
/// at a bound form the working set). Each iteration solves the free rows
/// exactly with the others held; if that point leaves the box, x moves to
/// its projection onto the box when that lowers the objective, else
/// towards it as far as the box allows (the row that blocks joins the
/// working set); otherwise x is that point, and the row of the working set
/// whose w has the wrong sign by the most (the largest decrease of the
/// objective) is freed. The objective never rises, so nothing cycles;
/// after `cap` solves the caller gives up. The free rows' LDLᵀ factor is
/// updated as rows come and go (O(f²) each) rather than recomputed. On
/// success x is the solution.
#[allow(clippy::too_many_arguments)]
fn exact(n: usize, a: &[f64], r: &[f64], lo: &[f64], hi: &[f64], x: &mut [f64], wk: &mut Work, cap: usize) -> bool {
    wk.state.clear();
    wk.free.clear();
    for i in 0..n {
        wk.state.push(if x[i] <= lo[i] {
            x[i] = lo[i];
            AT_LO
        } else if x[i] >= hi[i] {
            x[i] = hi[i];
            AT_HI
        } else {
            wk.free.push(i as u32);
            FREE
        });
        if !x[i].is_finite() {
            return false;
        }
    }
    let rscale = r[..n].iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if wk.m.len() < n * n {
        wk.m.resize(n * n, 0.0);
    }
    if !factor(n, a, &wk.free, &mut wk.m, &mut wk.t) {
        return false;
    }
    wk.g.clear();
    wk.g.resize(n, 0.0);
    for j in 0..n {
        if wk.state[j] != FREE {
            axpy(&mut wk.g[..n], x[j], &a[j * n..(j + 1) * n]);
        }
    }
    let mut project = true;
    for _ in 0..cap {
        wk.solves += 1;
        let nf = wk.free.len();
        // The free rows' solution with the others held: r_F − A_F,W·x_W,
        // A_W·x_W being kept in g as rows come and go.
        wk.b.clear();
        wk.b.extend(wk.free.iter().map(|&i| r[i as usize] - wk.g[i as usize]));
        if !solve_factored(n, nf, &wk.m, &mut wk.b) {
            return false;
        }
        // Leaving the box: first try the projection of that point onto the
        // box (every row beyond a bound joins the working set at once),
        // kept if it lowers the objective; else the ratio test.
        let outside = wk.free.iter().enumerate().any(|(p, &i)| wk.b[p] < lo[i as usize] || wk.b[p] > hi[i as usize]);
        if outside && project {
            // On the free rows' subspace the objective is
            // f(y) + ½(z − y)ᵀ·A_FF·(z − y), y its minimiser: compare
            // the two distances to y through the factor.
            wk.xp.clear();
            wk.xp.extend(wk.free.iter().enumerate().map(|(p, &i)| wk.b[p].max(lo[i as usize]).min(hi[i as usize]) - wk.b[p]));
            let projected = energy(n, nf, &wk.m, &wk.xp, &mut wk.t);
            wk.xp.clear();
            wk.xp.extend(wk.free.iter().enumerate().map(|(p, &i)| x[i as usize] - wk.b[p]));
            let current = energy(n, nf, &wk.m, &wk.xp, &mut wk.t);
            if projected < current {
                // Rows leaving the free set, last first (positions stay
                // valid for the earlier ones).
                let mut removed = 0;
                for p in (0..nf).rev() {
                    let i = wk.free[p] as usize;
                    let y = wk.b[p];
                    if y <= lo[i] || y >= hi[i] {
                        wk.state[i] = if y <= lo[i] { AT_LO } else { AT_HI };
                        x[i] = if y <= lo[i] { lo[i] } else { hi[i] };
                        axpy(&mut wk.g[..n], x[i], &a[i * n..(i + 1) * n]);
                        remove(n, nf - removed, p, &mut wk.m, &mut wk.t);
                        wk.free.remove(p);
                        removed += 1;
                    } else {
                        x[i] = y;
                    }
                }
                continue;
            }
            project = false;
        }
        // Ratio test: how far towards the free rows' solution x may go.
        let mut alpha = 1.0;
        let mut block = None;
        for (p, &i) in wk.free.iter().enumerate() {
            let i = i as usize;
            let y = wk.b[p];
            if y < lo[i] {
                let t = (lo[i] - x[i]) / (y - x[i]);
                if t < alpha {
                    alpha = t;
                    block = Some((p, AT_LO));
                }
            } else if y > hi[i] {
                let t = (hi[i] - x[i]) / (y - x[i]);
                if t < alpha {
                    alpha = t;
                    block = Some((p, AT_HI));
                }
            }
        }
        let alpha = alpha.max(0.0);
        for (p, &i) in wk.free.iter().enumerate() {
            let i = i as usize;
            x[i] = if block.is_none() { wk.b[p] } else { x[i] + alpha * (wk.b[p] - x[i]) };
        }
        if let Some((p, st)) = block {
            let i = wk.free[p] as usize;
            wk.state[i] = st;
            x[i] = if st == AT_LO { lo[i] } else { hi[i] };
            axpy(&mut wk.g[..n], x[i], &a[i * n..(i + 1) * n]);
            remove(n, nf, p, &mut wk.m, &mut wk.t);
            wk.free.remove(p);
            continue;
        }
        // At the free rows' solution: free the working-set row whose w
        // has the wrong sign by the most, if any.
        let mut xscale = rscale;
        for i in 0..n {
            xscale = xscale.max((a[i * n + i] * x[i]).abs());
        }
        let tol = CHECK_TOL * xscale;
        let mut worst = None;
        let mut worst_gain = 0.0;
        for i in 0..n {
            let st = wk.state[i];
            if st == FREE || lo[i] == hi[i] {
                continue;
            }
            let w = dot(&a[i * n..(i + 1) * n], &x[..n]) - r[i];
            let v = if st == AT_LO { -w } else { w };
            if v > tol {
                let gain = v * v / a[i * n + i];
                if gain > worst_gain {
                    worst_gain = gain;
                    worst = Some(i);
                }
            }
        }
        match worst {
            None => return true,
            Some(i) => {
                if !append(n, a, &wk.free, i, &mut wk.m, &mut wk.t) {
                    return false;
                }
                axpy(&mut wk.g[..n], -x[i], &a[i * n..(i + 1) * n]);
                wk.state[i] = FREE;
                wk.free.push(i as u32);
                project = true;
            }
        }
    }
    false
}

/// LDLᵀ of A's block on rows `free` (in that order) into `m` (row
/// stride n: L below the diagonal, D on it). False on a non-positive or
/// non-finite pivot.
fn factor(n: usize, a: &[f64], free: &[u32], m: &mut [f64], t: &mut Vec<f64>) -> bool {
    for (p, &i) in free.iter().enumerate() {
        for (q, &j) in free[..=p].iter().enumerate() {
            m[p * n + q] = a[i as usize * n + j as usize];
        }
    }
    let f = free.len();
    if t.len() < n {
        t.resize(n, 0.0);
    }
    for j in 0..f {
        // Row j of L, left-looking: L_jc = (M_jc − Σ_p (L_jp·D_p)·L_cp) / D_c,
        // with t_p = L_jp·D_p kept as the row is built.
        let (done, rest) = m.split_at_mut(j * n);
        let row = &mut rest[..n];
        for c in 0..j {
            t[c] = row[c] - dot(&t[..c], &done[c * n..c * n + c]);
            row[c] = t[c] / done[c * n + c];
        }
        let d = row[j] - dot(&t[..j], &row[..j]);
        if !(d > 0.0 && d.is_finite()) {
            return false;
        }
        row[j] = d;
    }
    true
}

/// Adds row i of A at the end of the factored block (rows `free`).
fn append(n: usize, a: &[f64], free: &[u32], i: usize, m: &mut [f64], t: &mut Vec<f64>) -> bool {
    let f = free.len();
    if t.len() < n {
        t.resize(n, 0.0);
    }
    let (done, rest) = m.split_at_mut(f * n);
    let row = &mut rest[..n];
    for (q, &j) in free.iter().enumerate() {
        row[q] = a[i * n + j as usize];
    }
    for c in 0..f {
        t[c] = row[c] - dot(&t[..c], &done[c * n..c * n + c]);
        row[c] = t[c] / done[c * n + c];
    }
    let d = a[i * n + i] - dot(&t[..f], &row[..f]);
    row[f] = d;
    // A pivot this small relative to the diagonal: the free rows are
    // (nearly) dependent; leave the problem to Dantzig.
    d > 1e-12 * a[i * n + i] && d.is_finite()
}

/// Removes position p from the factor of an f-row block: the rows below
/// take the removed column back as a rank-one update (L₂₂·D₂₂·L₂₂ᵀ +
/// d_p·c·cᵀ, stable for a positive weight), then rows and columns move up.
fn remove(n: usize, f: usize, p: usize, m: &mut [f64], w: &mut Vec<f64>) {
    if w.len() < n {
        w.resize(n, 0.0);
    }
    let mut alpha = m[p * n + p];
    for r in p + 1..f {
        w[r] = m[r * n + p];
    }
    for j in p + 1..f {
        let wj = w[j];
        let dj = m[j * n + j];
        let dn = dj + alpha * wj * wj;
        let beta = wj * alpha / dn;
        alpha *= dj / dn;
        m[j * n + j] = dn;
        for r in j + 1..f {
            w[r] -= wj * m[r * n + j];
            m[r * n + j] += beta * w[r];
        }
    }
    for r in p..f - 1 {
        let (dst, src) = m.split_at_mut((r + 1) * n);
        let dst = &mut dst[r * n..r * n + n];
        let src = &src[..n];
        dst[..p].copy_from_slice(&src[..p]);
        dst[p..=r].copy_from_slice(&src[p + 1..=r + 1]);
    }
}

/// y = (L·D·Lᵀ)⁻¹·b in place for the f-row factor in `m` (stride n).
fn solve_factored(n: usize, f: usize, m: &[f64], b: &mut [f64]) -> bool {
    for j in 0..f {
        b[j] -= dot(&m[j * n..j * n + j], &b[..j]);
    }
    for j in 0..f {
        b[j] /= m[j * n + j];
    }
    // Lᵀ by rows of L: once b_j is final, take it out of the earlier ones.
    for j in (1..f).rev() {
        let bj = b[j];
        axpy(&mut b[..j], -bj, &m[j * n..j * n + j]);
    }
    b[..f].iter().all(|v| v.is_finite())
}

/// y += s·v (skipped for s = 0: a row at a zero bound adds nothing).
#[inline]
fn axpy(y: &mut [f64], s: f64, v: &[f64]) {
    if s != 0.0 {
        kernels::axpy(y, s, v);
    }
}

/// vᵀ·(L·D·Lᵀ)·v = Σ D_q·((Lᵀv)_q)² for the f-row factor in `m`.
fn energy(n: usize, f: usize, m: &[f64], v: &[f64], z: &mut Vec<f64>) -> f64 {
    z.clear();
    z.extend_from_slice(&v[..f]);
    for j in 1..f {
        axpy(&mut z[..j], v[j], &m[j * n..j * n + j]);
    }
    (0..f).map(|q| m[q * n + q] * z[q] * z[q]).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;
    use crate::math::matrix::pad;
    use crate::solver::lcp::{solve_lcp, LcpScratch};


    /// A random boxed LCP: A = B·Bᵀ + δ·I (n×n, lower triangle stored
    /// with stride pad(n)), r, bounds; with `contacts`, rows come in
    /// triples (normal 0..∞, two friction rows with μ and findex).
    struct Problem {
        n: usize,
        a: Vec<f64>,
        r: Vec<f64>,
        lo: Vec<f64>,
        hi: Vec<f64>,
        findex: Vec<i32>,
    }

    fn problem(rng: &mut Rng, n: usize, contacts: bool, delta: f64) -> Problem {
        let skip = pad(n);
        let m = n / 2 + 3;
        let b: Vec<f64> = (0..n * m).map(|_| rng.signed()).collect();
        let mut a = vec![0.0; n * skip];
        for i in 0..n {
            for j in 0..=i {
                a[i * skip + j] = (0..m).map(|p| b[i * m + p] * b[j * m + p]).sum::<f64>() + if i == j { delta } else { 0.0 };
            }
        }
        let r: Vec<f64> = (0..n).map(|_| rng.signed()).collect();
        let (mut lo, mut hi, mut findex) = (vec![0.0; n], vec![0.0; n], vec![-1; n]);
        for i in 0..n {
            if contacts && i % 3 != 0 {
                findex[i] = (i - i % 3) as i32;
                lo[i] = -0.5;
                hi[i] = 0.5 + 0.3 * rng.signed();
            } else {
                let kind = ((rng.signed() + 1.0) * 2.0) as usize;
                (lo[i], hi[i]) = match kind {
                    0 => (0.0, f64::INFINITY),
                    1 => (-0.2 - 0.1 * rng.signed().abs(), 0.3 + 0.1 * rng.signed().abs()),
                    2 => (f64::NEG_INFINITY, 0.1 + rng.signed().abs()),
                    _ => (0.0, 0.05),
                };
            }
        }
        Problem { n, a, r, lo, hi, findex }
    }

    fn dantzig(p: &Problem) -> Vec<f64> {
        let (mut a, mut r, mut lo, mut hi, mut f) = (p.a.clone(), p.r.clone(), p.lo.clone(), p.hi.clone(), p.findex.clone());
        let mut x = vec![0.0; p.n];
        let friction = f.iter().any(|&v| v >= 0);
        let mut sc = LcpScratch::default();
        solve_lcp(p.n, &mut a, &mut x, &mut r, None, 0, &mut lo, &mut hi, if friction { Some(&mut f[..]) } else { None }, &mut sc);
        x
    }

    fn full(p: &Problem, i: usize, j: usize) -> f64 {
        let skip = pad(p.n);
        if j <= i {
            p.a[i * skip + j]
        } else {
            p.a[j * skip + i]
        }
    }

    /// Checks the boxed-LCP conditions of x with the given bounds.
    fn check_lcp(p: &Problem, x: &[f64], lo: &[f64], hi: &[f64], tol: f64) {
        for i in 0..p.n {
            let w: f64 = (0..p.n).map(|j| full(p, i, j) * x[j]).sum::<f64>() - p.r[i];
            assert!(x[i] >= lo[i] - tol && x[i] <= hi[i] + tol, "row {i}: x {} outside [{}, {}]", x[i], lo[i], hi[i]);
            if lo[i] == hi[i] {
                continue;
            }
            if x[i] > lo[i] + tol && x[i] < hi[i] - tol {
                assert!(w.abs() <= tol, "row {i}: free with w {w}");
            } else if x[i] <= lo[i] + tol {
                assert!(w >= -tol, "row {i}: at lo with w {w}");
            } else {
                assert!(w <= tol, "row {i}: at hi with w {w}");
            }
        }
    }

    /// The friction bounds Dantzig uses: ±|μ·normal| with the normal
    /// forces of the problem without the friction rows (solved here by
    /// Dantzig on that sub-problem).
    fn friction_bounds(p: &Problem) -> (Vec<f64>, Vec<f64>) {
        let sub: Vec<usize> = (0..p.n).filter(|&i| p.findex[i] < 0).collect();
        let ns = sub.len();
        let skip = pad(ns);
        let mut q = Problem { n: ns, a: vec![0.0; ns * skip], r: vec![], lo: vec![], hi: vec![], findex: vec![-1; ns] };
        for (a, &i) in sub.iter().enumerate() {
            for (b, &j) in sub[..=a].iter().enumerate() {
                q.a[a * skip + b] = full(p, i, j);
            }
            q.r.push(p.r[i]);
            q.lo.push(p.lo[i]);
            q.hi.push(p.hi[i]);
        }
        let xs = dantzig(&q);
        let (mut lo, mut hi) = (p.lo.clone(), p.hi.clone());
        for i in 0..p.n {
            if p.findex[i] >= 0 {
                let normal = xs[sub.iter().position(|&j| j == p.findex[i] as usize).unwrap()];
                hi[i] = (p.hi[i] * normal).abs();
                lo[i] = -hi[i];
            }
        }
        (lo, hi)
    }

    fn ours(p: &Problem, x: &mut [f64], lim: Limits, s: &mut ReducedLcp) -> bool {
        s.solve(p.n, &p.a, pad(p.n), &p.r, &p.lo, &p.hi, &p.findex, x, lim)
    }

    #[test]
    fn solutions_meet_the_lcp_conditions_and_equal_dantzig() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut s = ReducedLcp::default();
        let mut solved = 0;
        for case in 0..300 {
            let n = 3 + case % 37;
            let contacts = case % 2 == 1;
            let p = problem(&mut rng, n, contacts, 0.05);
            let mut x = vec![0.0; n];
            if !ours(&p, &mut x, LIMITS, &mut s) {
                continue;
            }
            solved += 1;
            let xd = dantzig(&p);
            let scale = xd.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            let (lo, hi) = if contacts { friction_bounds(&p) } else { (p.lo.clone(), p.hi.clone()) };
            check_lcp(&p, &x, &lo, &hi, 1e-9 * scale);
            for i in 0..n {
                assert!((x[i] - xd[i]).abs() <= 1e-8 * scale, "case {case} row {i}: {} against Dantzig's {}", x[i], xd[i]);
            }
        }
        // The fallback is for hard cases, not the rule.
        assert!(solved >= 285, "only {solved} of 300 solved without Dantzig");
    }

    #[test]
    fn a_warm_start_from_the_solution_takes_one_sweep() {
        let mut rng = Rng(12345);
        let mut s = ReducedLcp::default();
        // Without friction rows: with them, the first phase solves the
        // problem without friction, whose solution is not the one given.
        for case in 0..40 {
            let n = 6 + case % 30;
            let p = problem(&mut rng, n, false, 0.05);
            let mut x = dantzig(&p);
            let xd = x.clone();
            assert!(ours(&p, &mut x, LIMITS, &mut s));
            assert_eq!(s.last_sweeps(), 1, "case {case}");
            let scale = xd.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            for i in 0..n {
                assert!((x[i] - xd[i]).abs() <= 1e-8 * scale);
            }
        }
    }

    #[test]
    fn the_caller_falls_back_when_the_caps_are_too_tight() {
        // Nearly singular problems (tiny ridge) from a cold start, one
        // sweep and one exact solve allowed: the active set cannot be
        // right, and `solve` must say so rather than return a wrong x.
        let mut rng = Rng(777);
        let mut s = ReducedLcp::default();
        let tight = Limits { first_sweeps: 1, max_sweeps: 1, rounds: 1 };
        let mut refused = 0;
        for case in 0..20 {
            let p = problem(&mut rng, 30, case % 2 == 0, 1e-6);
            let mut x = vec![0.0; p.n];
            if ours(&p, &mut x, tight, &mut s) {
                // Whatever it accepted must be the solution.
                let xd = dantzig(&p);
                let scale = xd.iter().fold(1.0f64, |m, v| m.max(v.abs()));
                for i in 0..p.n {
                    assert!((x[i] - xd[i]).abs() <= 1e-6 * scale);
                }
            } else {
                refused += 1;
            }
        }
        assert!(refused >= 15, "only {refused} of 20 refused");
        assert_eq!(s.fallbacks, refused);
        assert_eq!(s.calls, 20);
    }
}
