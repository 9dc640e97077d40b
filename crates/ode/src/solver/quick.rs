//! The QuickStep solver of one island (`dWorldQuickStep`): projected
//! Gauss–Seidel with successive over-relaxation (SOR) on the island's
//! constraint rows, reproducing ODE 0.16.2's single-threaded quickstep in
//! operation order so that trajectories agree with Debian's library.
//!
//! Per island, in ODE's order:
//! 1. the rows' right-hand side and CFM are scaled by 1/h, and
//!    `rhs = c/h − J·(v/h + M⁻¹·F)` is formed (F: the force and torque
//!    accumulators, gravity and gyroscopic torque already added);
//! 2. `iMJ = M⁻¹·Jᵀ` per row, then each row is scaled by
//!    `Ad = w / (J·iMJ + cfm/h)` (J, rhs and cfm all multiplied by Ad, so
//!    the iteration needs no division);
//! 3. λ starts at zero (ODE 0.16.2 is built without warm starting; see
//!    `set_warm_start` for the optional mode), `fc = M⁻¹·Jᵀ·λ` likewise;
//! 4. rows without a friction index are solved first, then the rows with
//!    one, each group in island order. Every 8th iteration from the 8th on,
//!    the whole order is shuffled (Fisher–Yates with ODE's global `dRand`
//!    generator, so after `dRandSetSeed` the same sequence is drawn); the
//!    shuffled order persists for later iterations. `set_deterministic_order`
//!    selects the same order without any shuffle (no `dRand` use);
//! 5. each row update: `δ = rhs − λ·cfm − J·fc`, `λ` clamped to
//!    `[lo, hi]` (friction rows: `±|hi·λ_findex|`), `fc += δ·iMJ`;
//! 6. velocities get `h·fc`, feedback gets `Jᵀ·λ` (unscaled J, world
//!    frame, body 2 only when present), each joint stores its λ, and
//!    finally the external forces are applied: `v += h·F/m`,
//!    torque accumulator scaled by h in place, `w += I⁻¹·(h·T)`.
//!
//! All buffers live in `SolverScratch` (resized, never shrunk), so a warm
//! solve performs no heap allocation.

use super::{IslandInput, IslandRows, SolverScratch};
use crate::math::mat3::mul0_331;
use crate::math::random;
use std::sync::atomic::{AtomicU8, Ordering};

/// Iterations between two random reorderings (ODE's
/// RANDOM_CONSTRAINTS_REORDERING_FREQUENCY).
pub const REORDER_FREQUENCY: usize = 8;

/// Environment variable read once (on first use, unless the host already
/// called `set_deterministic_order`): a value starting with `1`, `y`, `Y`,
/// `t` or `T` selects the deterministic order.
pub const DETERMINISTIC_ENV: &str = "ODE_QUICKSTEP_DETERMINISTIC";

// Layout of one scaled row in the scratch (ODE's 16-real row): body 1's
// Jacobian (linear then angular), rhs, cfm, body 2's Jacobian, lo, hi.
const J1: usize = 0;
const RHS: usize = 6;
const CFM: usize = 7;
const J2: usize = 8;
const LO: usize = 14;
const HI: usize = 15;
const ROW: usize = 16;
/// iMJ per row: body 1's six values, then body 2's.
const IMJ: usize = 12;
/// Per body: linear then angular.
const BODY: usize = 6;

const UNSET: u8 = 0;
const ODE_ORDER: u8 = 1;
const DETERMINISTIC: u8 = 2;

static ORDER_MODE: AtomicU8 = AtomicU8::new(UNSET);
static WARM_START: AtomicU8 = AtomicU8::new(0);

/// Selects the row ordering of every QuickStep in the process: `false`
/// (the default) is ODE's, with its periodic random shuffles drawn from the
/// global `dRand` generator; `true` keeps ODE's initial order (unbounded
/// and normal rows first, then friction rows) for all iterations and never
/// touches the generator, so results do not depend on other users of
/// `dRand`. Overrides the environment variable `DETERMINISTIC_ENV`.
pub fn set_deterministic_order(on: bool) {
    ORDER_MODE.store(if on { DETERMINISTIC } else { ODE_ORDER }, Ordering::Relaxed);
}

/// Whether the deterministic ordering is selected (reads
/// `DETERMINISTIC_ENV` the first time if the host set nothing).
pub fn deterministic_order() -> bool {
    match ORDER_MODE.load(Ordering::Relaxed) {
        DETERMINISTIC => true,
        ODE_ORDER => false,
        _ => {
            let on = std::env::var_os(DETERMINISTIC_ENV)
                .and_then(|v| v.to_str().map(|s| matches!(s.chars().next(), Some('1' | 'y' | 'Y' | 't' | 'T'))))
                .unwrap_or(false);
            let mode = if on { DETERMINISTIC } else { ODE_ORDER };
            // A concurrent set_deterministic_order wins over the variable.
            match ORDER_MODE.compare_exchange(UNSET, mode, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => on,
                Err(current) => current == DETERMINISTIC,
            }
        }
    }
}

/// Warm starting (off by default, as in ODE 0.16.2, whose quickstep is
/// compiled without WARM_STARTING): when on, each row starts from 0.9 times
/// the λ its joint stored at the previous step, which is what ODE's
/// optional WARM_STARTING mode does. Joints store their λ in both modes.
pub fn set_warm_start(on: bool) {
    WARM_START.store(on as u8, Ordering::Relaxed);
}

pub fn warm_start() -> bool {
    WARM_START.load(Ordering::Relaxed) != 0
}

/// How many `dRand` draws one island solve makes in ODE's ordering mode:
/// `m − 1` per shuffle, one shuffle at each iteration 8, 16, 24, … below
/// `iterations`.
pub fn rand_draws(m: usize, iterations: i32) -> usize {
    if m < 2 || iterations <= 0 {
        return 0;
    }
    let n = iterations as usize;
    let shuffles = (n - 1) / REORDER_FREQUENCY;
    shuffles * (m - 1)
}

/// Solves the island's rows, updates the island bodies' velocities
/// (constraint forces, then external forces), writes the joints' feedback
/// and stores each joint's λ. Islands without rows only get the external
/// force update. Positions are not touched.
pub fn solve_island(input: &IslandInput, rows: &mut IslandRows, scratch: &mut SolverScratch) {
    let m = rows.rows.len();
    if m > 0 {
        solve_rows(input, rows, scratch);
    }
    apply_external_forces(input);
}

/// ODE's final velocity update with the accumulated forces (the torque
/// accumulator is scaled by h in place, as ODE does). Fast mode ends its
/// solve with the same update.
pub(super) fn apply_external_forces(input: &IslandInput) {
    let h = input.h;
    for (&b, ii) in input.bodies.iter().zip(input.inv_i.iter()) {
        let b = b.get_mut();
        let s = h * b.inv_mass;
        for k in 0..3 {
            b.lvel[k] += s * b.facc[k];
            b.tacc[k] *= h;
        }
        let dw = mul0_331(ii, &b.tacc);
        for k in 0..3 {
            b.avel[k] += dw[k];
        }
    }
}

fn solve_rows(input: &IslandInput, island: &IslandRows, scratch: &mut SolverScratch) {
    let rows = &island.rows;
    let m = rows.len();
    let nb = input.bodies.len();
    let h = input.h;
    let hinv = 1.0 / h;
    let qs = input.world.qs;

    // ---- scratch layout ------------------------------------------------
    // Every element used below is written before it is read, except λ and
    // fc, which are zeroed explicitly; so the buffers are only grown.
    let nf = m * (ROW + IMJ + 1) + nb * 2 * BODY;
    if scratch.f64s.len() < nf {
        scratch.f64s.resize(nf, 0.0);
    }
    if scratch.i32s.len() < m * 4 {
        scratch.i32s.resize(m * 4, 0);
    }
    let (jbuf, rest) = scratch.f64s.split_at_mut(m * ROW);
    let (imjbuf, rest) = rest.split_at_mut(m * IMJ);
    let (lambda, rest) = rest.split_at_mut(m);
    let (fcbuf, rest) = rest.split_at_mut(nb * BODY);
    let tmpbuf = &mut rest[..nb * BODY];
    lambda.fill(0.0);
    fcbuf.fill(0.0);
    let jrows: &mut [[f64; ROW]] = jbuf.as_chunks_mut().0;
    let imj: &mut [[f64; IMJ]] = imjbuf.as_chunks_mut().0;
    let fc: &mut [[f64; BODY]] = fcbuf.as_chunks_mut().0;
    let tmp: &mut [[f64; BODY]] = tmpbuf.as_chunks_mut().0;
    let (jbi, rest) = scratch.i32s.split_at_mut(m * 2);
    let (order, rest) = rest.split_at_mut(m);
    let findex = &mut rest[..m];
    let jb: &mut [[i32; 2]] = jbi.as_chunks_mut().0;

    // ---- rows: copy, body indices, 1/h scaling ---------------------------
    for slot in &island.joints {
        let b1 = slot.b1.map_or(-1, |i| i as i32);
        let b2 = slot.b2.map_or(-1, |i| i as i32);
        for r in slot.row0..slot.row0 + slot.m {
            jb[r] = [b1, b2];
        }
    }
    let mut valid_findices = 0;
    for (i, row) in rows.iter().enumerate() {
        let j = &mut jrows[i];
        j[J1..J1 + 3].copy_from_slice(&row.j1l);
        j[J1 + 3..J1 + 6].copy_from_slice(&row.j1a);
        j[J2..J2 + 3].copy_from_slice(&row.j2l);
        j[J2 + 3..J2 + 6].copy_from_slice(&row.j2a);
        j[RHS] = row.c * hinv;
        j[CFM] = row.cfm * hinv;
        j[LO] = row.lo;
        j[HI] = row.hi;
        findex[i] = row.findex;
        if row.findex != -1 {
            valid_findices += 1;
        }
    }

    // ---- rhs: c/h − J·(v/h + M⁻¹F) ---------------------------------------
    for ((t, &b), ii) in tmp.iter_mut().zip(input.bodies).zip(input.inv_i) {
        let b = b.get();
        let im = b.inv_mass;
        for k in 0..3 {
            t[k] = -(b.facc[k] * im + b.lvel[k] * hinv);
        }
        let a = mul0_331(ii, &b.tacc);
        for k in 0..3 {
            t[3 + k] = -(b.avel[k] * hinv) - a[k];
        }
    }
    for (j, &[b1, b2]) in jrows.iter_mut().zip(jb.iter()) {
        let mut sum = 0.0;
        if b1 >= 0 {
            let t = &tmp[b1 as usize];
            for k in 0..6 {
                sum += j[J1 + k] * t[k];
            }
        }
        if b2 >= 0 {
            let t = &tmp[b2 as usize];
            for k in 0..6 {
                sum += j[J2 + k] * t[k];
            }
        }
        j[RHS] += sum;
    }

    // ---- iMJ = M⁻¹·Jᵀ ------------------------------------------------------
    for ((im, j), &[b1, b2]) in imj.iter_mut().zip(jrows.iter()).zip(jb.iter()) {
        for (side, b, base) in [(0, b1, J1), (6, b2, J2)] {
            if b >= 0 {
                let body = input.bodies[b as usize].get();
                let k = body.inv_mass;
                for c in 0..3 {
                    im[side + c] = k * j[base + c];
                }
                let a = mul0_331(&input.inv_i[b as usize], &j[base + 3..base + 6]);
                im[side + 3..side + 6].copy_from_slice(&a);
            } else {
                im[side..side + 6].fill(0.0);
            }
        }
    }

    // ---- λ and fc start values -------------------------------------------
    if warm_start() {
        for slot in &island.joints {
            let prev = &slot.joint.get().head.lambda;
            for (k, l) in lambda[slot.row0..slot.row0 + slot.m].iter_mut().enumerate() {
                *l = prev.get(k).copied().unwrap_or(0.0) * 0.9;
            }
        }
        for ((im, &[b1, b2]), &l) in imj.iter().zip(jb.iter()).zip(lambda.iter()) {
            if b1 >= 0 {
                let f = &mut fc[b1 as usize];
                for k in 0..6 {
                    f[k] += im[k] * l;
                }
            }
            if b2 >= 0 {
                let f = &mut fc[b2 as usize];
                for k in 0..6 {
                    f[k] += im[6 + k] * l;
                }
            }
        }
    }

    // ---- Ad scaling ----------------------------------------------------------
    let w = qs.w;
    for ((j, im), &[b1, b2]) in jrows.iter_mut().zip(imj.iter()).zip(jb.iter()) {
        let mut sum = 0.0;
        if b1 >= 0 {
            for k in 0..6 {
                sum += im[k] * j[J1 + k];
            }
        }
        if b2 >= 0 {
            for k in 0..6 {
                sum += im[6 + k] * j[J2 + k];
            }
        }
        let cfm = j[CFM];
        let ad = w / (sum + cfm);
        j[CFM] = cfm * ad;
        j[RHS] *= ad;
        for k in 0..6 {
            j[J1 + k] *= ad;
        }
        if b2 >= 0 {
            for k in 0..6 {
                j[J2 + k] *= ad;
            }
        }
    }

    // ---- order: rows without findex first, then friction rows -------------
    {
        let (mut head, mut tail) = (0, m - valid_findices);
        for (i, &f) in findex.iter().enumerate() {
            if f == -1 {
                order[head] = i as i32;
                head += 1;
            } else {
                order[tail] = i as i32;
                tail += 1;
            }
        }
    }

    // ---- SOR iterations ----------------------------------------------------
    let shuffle = !deterministic_order();
    let iterations = qs.num_iterations.max(0) as usize;
    for iteration in 0..iterations {
        if shuffle && iteration >= REORDER_FREQUENCY && iteration % REORDER_FREQUENCY == 0 {
            for index in 1..m {
                let swap = random::rand_int(index as i32 + 1) as usize;
                order.swap(index, swap);
            }
        }
        for &r in order.iter() {
            let r = r as usize;
            iterate_row(r, &jrows[r], &imj[r], jb[r], findex[r], lambda, fc);
        }
    }

    // ---- results -------------------------------------------------------------
    for (&b, f) in input.bodies.iter().zip(fc.iter()) {
        let b = b.get_mut();
        for k in 0..3 {
            b.lvel[k] += h * f[k];
            b.avel[k] += h * f[3 + k];
        }
    }
    for slot in &island.joints {
        let lam = &lambda[slot.row0..slot.row0 + slot.m];
        let head = &mut slot.joint.get_mut().head;
        let n = lam.len().min(head.lambda.len());
        head.lambda[..n].copy_from_slice(&lam[..n]);
        let fb = head.feedback;
        if !fb.is_null() {
            let rs = &rows[slot.row0..slot.row0 + slot.m];
            let (f1, t1) = feedback_sum(rs, lam, |r| (&r.j1l, &r.j1a));
            // SAFETY: the host registered this dJointFeedback with
            // dJointSetFeedback and must keep it valid while the joint
            // exists; nothing else accesses it during the step.
            let fb = unsafe { &mut *fb };
            if slot.b2.is_some() {
                let (f2, t2) = feedback_sum(rs, lam, |r| (&r.j2l, &r.j2a));
                fb.f2[..3].copy_from_slice(&f2);
                fb.t2[..3].copy_from_slice(&t2);
            }
            fb.f1[..3].copy_from_slice(&f1);
            fb.t1[..3].copy_from_slice(&t1);
        }
    }
}

/// One projected SOR update of row `r` (ODE's iteration step).
#[inline(always)]
fn iterate_row(
    r: usize,
    j: &[f64; ROW],
    im: &[f64; IMJ],
    [b1, b2]: [i32; 2],
    findex: i32,
    lambda: &mut [f64],
    fc: &mut [[f64; BODY]],
) {
    let old = lambda[r];
    let mut delta = j[RHS] - old * j[CFM];
    if b1 >= 0 {
        let f = &fc[b1 as usize];
        delta -=
            f[0] * j[J1] + f[1] * j[J1 + 1] + f[2] * j[J1 + 2] + f[3] * j[J1 + 3] + f[4] * j[J1 + 4] + f[5] * j[J1 + 5];
    }
    if b2 >= 0 {
        let f = &fc[b2 as usize];
        delta -=
            f[0] * j[J2] + f[1] * j[J2 + 1] + f[2] * j[J2 + 2] + f[3] * j[J2 + 3] + f[4] * j[J2 + 4] + f[5] * j[J2 + 5];
    }

    let (lo, hi) = if findex != -1 {
        let hi = (j[HI] * lambda[findex as usize]).abs();
        (-hi, hi)
    } else {
        (j[LO], j[HI])
    };
    let new = old + delta;
    if new < lo {
        delta = lo - old;
        lambda[r] = lo;
    } else if new > hi {
        delta = hi - old;
        lambda[r] = hi;
    } else {
        lambda[r] = new;
    }

    if delta != 0.0 {
        if b1 >= 0 {
            let f = &mut fc[b1 as usize];
            for k in 0..6 {
                f[k] += delta * im[k];
            }
        }
        if b2 >= 0 {
            let f = &mut fc[b2 as usize];
            for k in 0..6 {
                f[k] += delta * im[6 + k];
            }
        }
    }
}

/// Σ_rows Jᵀ·λ for one body's Jacobian blocks (force, torque), each sum
/// starting at zero and running over the rows in order, as ODE does.
fn feedback_sum<'a>(
    rows: &'a [crate::joints::Row],
    lambda: &[f64],
    side: impl Fn(&'a crate::joints::Row) -> (&'a [f64; 3], &'a [f64; 3]),
) -> ([f64; 3], [f64; 3]) {
    let mut f = [0.0; 3];
    let mut t = [0.0; 3];
    for (row, &l) in rows.iter().zip(lambda) {
        let (jl, ja) = side(row);
        for k in 0..3 {
            f[k] += jl[k] * l;
            t[k] += ja[k] * l;
        }
    }
    (f, t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_per_solve() {
        assert_eq!(rand_draws(12, 20), 2 * 11);
        assert_eq!(rand_draws(12, 8), 0);
        assert_eq!(rand_draws(12, 9), 11);
        assert_eq!(rand_draws(1, 100), 0);
        assert_eq!(rand_draws(5, 0), 0);
        assert_eq!(rand_draws(5, -3), 0);
        assert_eq!(rand_draws(3, 17), 2 * 2);
    }
}
