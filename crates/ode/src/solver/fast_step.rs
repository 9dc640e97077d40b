//! The fast `dWorldStep` solver of one island (`SolverMode::Fast`). It
//! solves the same boxed LCP as `step` — A = J·M⁻¹·Jᵀ + CFM/h and
//! rhs = c/h − J·(v/h + M⁻¹·f), with each row's bounds and findex friction
//! — without `step`'s dense O(m³) factorisation:
//!
//! - the bilateral rows (unbounded, no friction index: ball, hinge, slider
//!   and fixed constraints, motors without limits…) are factorised by
//!   `SparseLdl` in minimum-degree order: O(m) on chains and trees of
//!   joints, fill-in only where the joints form loops;
//! - the bounded rows (limits, contacts, friction) are solved on top by
//!   block Gauss–Seidel: the exact bilateral solve given the bounded λ,
//!   then one projected sweep over the bounded rows given the rest,
//!   repeated until the bounded λ settle (at most `MAX_SWEEPS`). With no
//!   bounded rows, one solve is the exact answer.
//!
//! The output is `step`'s: Jᵀλ per body (`StepBuffers::cforce`) and the
//! joints' feedback; the pipeline integrates as for the exact Step. `dRand`
//! is never used. Buffers are kept in `FastStepScratch` between steps.

use super::sparse_ldl::SparseLdl;
use super::step::StepBuffers;
use super::{IslandInput, IslandRows};
use crate::joints::Row;
use crate::math::mat3::mul0_331;

/// Most block Gauss–Seidel sweeps over the bounded rows in one step.
const MAX_SWEEPS: usize = 40;
/// A sweep whose largest λ change is below this (relative to the largest
/// bounded λ) ends the iteration.
const SETTLED: f64 = 1e-10;

const NONE: u32 = u32::MAX;

/// Reusable buffers of the fast Step solver.
#[derive(Default)]
pub struct FastStepScratch {
    /// Per row: J (body 1, body 2), M⁻¹·Jᵀ (body 1, body 2), bodies.
    j: Vec<[f64; 12]>,
    mj: Vec<[f64; 12]>,
    bodies: Vec<[u32; 2]>,
    rhs: Vec<f64>,
    /// A_rr (CFM/h included).
    diag: Vec<f64>,
    lambda: Vec<f64>,
    /// Row → index among the bilateral unknowns, or NONE.
    unknown: Vec<u32>,
    bilateral: Vec<u32>,
    bounded: Vec<u32>,
    /// Bilateral rows acting on each body: (unknown, side).
    on_body: Vec<Vec<(u32, u8)>>,
    /// M⁻¹·Jᵀ·λ per body, of the bounded rows and of the bilateral ones.
    fc: Vec<[f64; 6]>,
    fb: Vec<[f64; 6]>,
    x: Vec<f64>,
    ldl: SparseLdl,
}

#[inline]
fn row_j(r: &Row) -> [f64; 12] {
    [r.j1l[0], r.j1l[1], r.j1l[2], r.j1a[0], r.j1a[1], r.j1a[2], r.j2l[0], r.j2l[1], r.j2l[2], r.j2a[0], r.j2a[1], r.j2a[2]]
}

#[inline]
fn dot6(a: &[f64], b: &[f64; 6]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5]
}

/// J_r · (per-body vectors `f`) over the row's bodies.
#[inline]
fn j_dot(j: &[f64; 12], bodies: [u32; 2], f: &[[f64; 6]]) -> f64 {
    let mut s = 0.0;
    if bodies[0] != NONE {
        s += dot6(&j[..6], &f[bodies[0] as usize]);
    }
    if bodies[1] != NONE {
        s += dot6(&j[6..], &f[bodies[1] as usize]);
    }
    s
}

/// Adds `l`·M⁻¹·Jᵀ of a row into the per-body vectors `f`.
#[inline]
fn add_mj(mj: &[f64; 12], bodies: [u32; 2], l: f64, f: &mut [[f64; 6]]) {
    for side in 0..2 {
        let b = bodies[side];
        if b != NONE {
            let t = &mut f[b as usize];
            for k in 0..6 {
                t[k] += mj[6 * side + k] * l;
            }
        }
    }
}

/// Solves the island's rows; fills `buf.cforce`/`buf.has_cforce` and the
/// feedback records as `step::solve_island` does.
pub fn solve_island(input: &IslandInput<'_>, rows: &IslandRows, buf: &mut StepBuffers) {
    let nb = input.bodies.len();
    let m = rows.rows.len();
    let recip = 1.0 / input.h;
    buf.cforce.clear();
    buf.cforce.resize(nb, [0.0; 6]);
    buf.has_cforce.clear();
    buf.has_cforce.resize(nb, false);
    if m == 0 {
        return;
    }
    let s = &mut buf.fast;

    // Rows: Jacobians, M⁻¹·Jᵀ, bodies.
    s.j.clear();
    s.mj.clear();
    s.bodies.clear();
    s.bodies.resize(m, [NONE; 2]);
    for slot in &rows.joints {
        for r in slot.row0..slot.row0 + slot.m {
            s.bodies[r] = [slot.b1.map_or(NONE, |b| b as u32), slot.b2.map_or(NONE, |b| b as u32)];
        }
    }
    for (r, row) in rows.rows.iter().enumerate() {
        let j = row_j(row);
        let mut mj = [0.0; 12];
        for side in 0..2 {
            let b = s.bodies[r][side];
            if b == NONE {
                continue;
            }
            let body = input.bodies[b as usize].get();
            let jj = &j[6 * side..6 * side + 6];
            for k in 0..3 {
                mj[6 * side + k] = body.inv_mass * jj[k];
            }
            let a = mul0_331(&input.inv_i[b as usize], &jj[3..6]);
            mj[6 * side + 3..6 * side + 6].copy_from_slice(&a);
        }
        s.j.push(j);
        s.mj.push(mj);
    }

    // rhs = c/h − J·(v/h + M⁻¹·f); diagonal of A.
    s.fc.clear();
    s.fc.resize(nb, [0.0; 6]);
    for (bi, &b) in input.bodies.iter().enumerate() {
        let b = b.get();
        let t = &mut s.fc[bi];
        for k in 0..3 {
            t[k] = b.facc[k] * b.inv_mass + b.lvel[k] * recip;
        }
        let a = mul0_331(&input.inv_i[bi], &b.tacc);
        for k in 0..3 {
            t[3 + k] = a[k] + b.avel[k] * recip;
        }
    }
    s.rhs.clear();
    s.diag.clear();
    for (r, row) in rows.rows.iter().enumerate() {
        s.rhs.push(row.c * recip - j_dot(&s.j[r], s.bodies[r], &s.fc));
        let mut d = row.cfm * recip;
        for side in 0..2 {
            if s.bodies[r][side] != NONE {
                d += dot6(&s.j[r][6 * side..6 * side + 6], s.mj[r][6 * side..6 * side + 6].try_into().unwrap());
            }
        }
        s.diag.push(d);
    }

    // Bilateral and bounded rows.
    s.unknown.clear();
    s.bilateral.clear();
    s.bounded.clear();
    for (r, row) in rows.rows.iter().enumerate() {
        if row.findex < 0 && row.lo == f64::NEG_INFINITY && row.hi == f64::INFINITY {
            s.unknown.push(s.bilateral.len() as u32);
            s.bilateral.push(r as u32);
        } else {
            s.unknown.push(NONE);
            s.bounded.push(r as u32);
        }
    }

    // The bilateral block of A, assembled through the bodies it shares.
    let nu = s.bilateral.len();
    if nu > 0 {
        if s.on_body.len() < nb {
            s.on_body.resize_with(nb, Vec::new);
        }
        for v in s.on_body.iter_mut().take(nb) {
            v.clear();
        }
        for (u, &r) in s.bilateral.iter().enumerate() {
            for side in 0..2 {
                let b = s.bodies[r as usize][side];
                if b != NONE {
                    s.on_body[b as usize].push((u as u32, side as u8));
                }
            }
        }
        s.ldl.reset(s.bilateral.iter().map(|&r| s.diag[r as usize]));
        for list in s.on_body.iter().take(nb) {
            for (a, &(ua, sa)) in list.iter().enumerate() {
                let ra = s.bilateral[ua as usize] as usize;
                let ja: &[f64; 6] = s.j[ra][6 * sa as usize..6 * sa as usize + 6].try_into().unwrap();
                for &(ub, sb) in &list[a + 1..] {
                    if ua == ub {
                        continue;
                    }
                    let rb = s.bilateral[ub as usize] as usize;
                    let v = dot6(&s.mj[rb][6 * sb as usize..6 * sb as usize + 6], ja);
                    if v != 0.0 {
                        s.ldl.add(ua as usize, ub as usize, v);
                    }
                }
            }
        }
        s.ldl.factor();
    }

    // Block Gauss–Seidel: bilateral solve given the bounded λ, then a
    // projected sweep over the bounded rows.
    s.lambda.clear();
    s.lambda.resize(m, 0.0);
    for f in s.fc.iter_mut() {
        *f = [0.0; 6];
    }
    s.fb.clear();
    s.fb.resize(nb, [0.0; 6]);
    let sweeps = if s.bounded.is_empty() { 1 } else { MAX_SWEEPS };
    for _ in 0..sweeps {
        if nu > 0 {
            s.x.clear();
            for &r in &s.bilateral {
                let r = r as usize;
                s.x.push(s.rhs[r] - j_dot(&s.j[r], s.bodies[r], &s.fc));
            }
            s.ldl.solve(&mut s.x);
            for f in s.fb.iter_mut() {
                *f = [0.0; 6];
            }
            for (u, &r) in s.bilateral.iter().enumerate() {
                let r = r as usize;
                s.lambda[r] = s.x[u];
                add_mj(&s.mj[r], s.bodies[r], s.x[u], &mut s.fb);
            }
        }
        let mut change = 0.0_f64;
        let mut size = 0.0_f64;
        for &r in &s.bounded {
            let r = r as usize;
            let row = &rows.rows[r];
            let bodies = s.bodies[r];
            let old = s.lambda[r];
            let a_lambda = j_dot(&s.j[r], bodies, &s.fb) + j_dot(&s.j[r], bodies, &s.fc) + row.cfm * recip * old;
            let (lo, hi) = if row.findex >= 0 {
                let h = (row.hi * s.lambda[row.findex as usize]).abs();
                (-h, h)
            } else {
                (row.lo, row.hi)
            };
            let d = s.diag[r];
            // Not f64::clamp: a friction bound of ∞·0 (μ = dInfinity, no
            // normal force yet) is NaN, and like ODE's LCP, whose bound tests
            // are false for NaN, the row is then not clamped.
            let new = if d > 0.0 { clamp_unless_nan(old + (s.rhs[r] - a_lambda) / d, lo, hi) } else { old };
            let delta = new - old;
            if delta != 0.0 {
                s.lambda[r] = new;
                add_mj(&s.mj[r], bodies, delta, &mut s.fc);
            }
            change = change.max(delta.abs());
            size = size.max(new.abs());
        }
        if change <= SETTLED * size.max(1e-300) {
            break;
        }
    }

    // Jᵀλ per body and the feedback, as the exact Step does.
    let lambda = std::mem::take(&mut s.lambda);
    super::step::constraint_forces(rows, &lambda, &mut buf.cforce, &mut buf.has_cforce);
    buf.fast.lambda = lambda;
}

/// `v` limited to [lo, hi]; a NaN bound limits nothing (as ODE's tests).
#[inline]
fn clamp_unless_nan(v: f64, lo: f64, hi: f64) -> f64 {
    if v < lo {
        lo
    } else if v > hi {
        hi
    } else {
        v
    }
}
