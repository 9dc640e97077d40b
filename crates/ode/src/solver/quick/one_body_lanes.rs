//! QuickStep's sweep of one-body islands, several at a time in the lanes
//! of SIMD registers: a box or a ball resting on static geometry (a
//! terrain, a plane) is an island of one body whose rows all act on it.
//!
//! Lane l of a batch is one island: step k of the batch updates row k of
//! each island's sweep order, with every operation of the scalar update
//! (`sor_update`) done on that lane alone, in the same order and without
//! fused multiply-add, so each island gets its own bits. An island's rows
//! form one chain (each waits for the body's force the previous one
//! wrote), so a few batches advance side by side for the processor to
//! overlap. A set's rows, λ and body forces are repacked as structures of
//! lane arrays whenever the islands' orders change (at the start and at
//! each of ODE's reorderings), and written back after the last sweep.
//!
//! Four lanes of 256 bits, two batches side by side: on the trimesh
//! terrain, eight lanes of 512 bits were no faster (1.01-1.05), and more
//! batches were slower (four: 1.07), their rows no longer fitting the L1
//! cache with the padding of more islands.
//!
//! The rows have no body 2: J₂ is +0 and so is the dummy's force, so the
//! second dot product is +0 and subtracting it changes nothing (not even
//! a −0); it is left out.

use super::{shuffle_order, BodyForce, Segment, SorOrder, SorRow, PERM, REORDER_FREQUENCY};

/// Fewest islands worth a lane sweep.
pub(super) const MIN_ISLANDS: usize = 4;
/// Islands per register.
const LANES: usize = 4;
/// Batches of `LANES` islands advanced side by side.
const BATCHES: usize = 2;
/// Islands per set.
const SET: usize = LANES * BATCHES;

/// Step k of one batch: the lanes' rows (padding lanes are not `live`:
/// zero rows whose results go to their own λ slot and never to a force).
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
pub(super) struct Quad {
    j: [[f64; LANES]; 6],
    im: [[f64; LANES]; 6],
    rhs: [f64; LANES],
    cfm: [f64; LANES],
    lo: [f64; LANES],
    hi: [f64; LANES],
    /// All ones where the row has a friction index.
    friction: [u64; LANES],
    /// All ones where the lane has a row at this step.
    live: [u64; LANES],
    /// Where the set's λ array holds the λ of the row's friction index
    /// (the row's own slot when it has none).
    fpos: [u32; LANES],
    /// The row (index into the island rows and `lambda`).
    row: [u32; LANES],
}

/// The buffers of the lane sweep (grown, never shrunk).
#[derive(Default)]
pub(super) struct LaneScratch {
    quads: Vec<Quad>,
    lambda: Vec<f64>,
    /// Per batch, its lanes' body forces, component by component.
    force: Vec<[[f64; LANES]; 6]>,
    /// Per row: its step in its island's current order.
    pos: Vec<u32>,
}

/// Whether the lane sweep can run here (AVX).
pub(super) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Solves the one-body islands `segs` (each a stretch of `order` whose
/// rows act on the body of its first entry alone): `iterations` sweeps,
/// with ODE's reordering of each island where `shuffle` asks for it
/// (drawing from `seg.rand` as the interleaved sweep does). λ and `fc` are
/// read at the start and written at the end.
///
/// # Safety
/// `available()`; every row and friction index of `order` inside the
/// segments is below `srows.len() == lambda.len()`, every body below
/// `fc.len()`, and each segment's entries all name one body.
#[allow(clippy::too_many_arguments)] // the solve's operands
pub(super) unsafe fn solve(
    segs: &mut [Segment],
    order: &mut [SorOrder],
    srows: &[SorRow],
    lambda: &mut [f64],
    fc: &mut [BodyForce],
    iterations: usize,
    shuffle: bool,
    scratch: &mut LaneScratch,
) {
    if iterations == 0 {
        // No sweep: λ and the forces keep their start values (and nothing
        // is packed, so nothing may be written back).
        return;
    }
    // Longest islands first, so that a set's islands have about as many
    // rows and little of it is padding.
    segs.sort_unstable_by_key(|s| std::cmp::Reverse(s.len));
    let longest = segs.first().map_or(0, |s| s.len);
    let LaneScratch { quads, lambda: lam, force, pos } = scratch;
    super::at_least(quads, longest * BATCHES);
    super::at_least(lam, longest * SET);
    let force = super::at_least(force, BATCHES);
    super::at_least(pos, lambda.len());
    let reorder = |it: usize| shuffle && it >= REORDER_FREQUENCY && it.is_multiple_of(REORDER_FREQUENCY);
    for set in segs.chunks_mut(SET) {
        let steps = set[0].len;
        for (b, f) in force.iter_mut().enumerate() {
            for l in 0..LANES {
                let src = set.get(b * LANES + l).map_or([0.0; super::BODY], |s| fc[order[s.start].b1 as usize].f);
                for c in 0..6 {
                    f[c][l] = src[c];
                }
            }
        }
        let quads = &mut quads[..steps * BATCHES];
        let lam = &mut lam[..steps * SET];
        for it in 0..iterations {
            if it == 0 || reorder(it) {
                if it > 0 {
                    write_lambda(quads, lam, lambda);
                    for s in set.iter_mut() {
                        s.rand = shuffle_order(&mut order[s.start..s.start + s.len], s.rand);
                    }
                }
                pack(set, order, srows, lambda, pos, quads, lam);
            }
            #[cfg(target_arch = "x86_64")]
            // SAFETY: AVX (the caller's); the packing made every `fpos`
            // and λ slot index lie below steps·SET.
            unsafe {
                sweep_set_avx(quads, lam, force)
            };
        }
        write_lambda(quads, lam, lambda);
        for (b, f) in force.iter().enumerate() {
            for l in 0..LANES {
                if let Some(s) = set.get(b * LANES + l) {
                    let dst = &mut fc[order[s.start].b1 as usize].f;
                    for c in 0..6 {
                        dst[c] = f[c][l];
                    }
                }
            }
        }
    }
}

/// The set's islands' rows in their current orders into the quads (step k
/// of batch b at `k·BATCHES + b`), and their λ into `lam` (lane l of that
/// quad at `(k·BATCHES + b)·LANES + l`). Every lane of every quad is
/// written once: a row, or padding (no island, or past the island's rows).
fn pack(set: &[Segment], order: &[SorOrder], srows: &[SorRow], lambda: &[f64], pos: &mut [u32], quads: &mut [Quad], lam: &mut [f64]) {
    let steps = quads.len() / BATCHES;
    for i in 0..SET {
        let (b, l) = (i / LANES, i % LANES);
        let slot = |k: usize| (k * BATCHES + b) * LANES + l;
        let rows = set.get(i).map_or(&[][..], |s| &order[s.start..s.start + s.len]);
        for (k, o) in rows.iter().enumerate() {
            pos[o.row as usize] = k as u32;
        }
        for (k, o) in rows.iter().enumerate() {
            let r = &srows[o.row as usize];
            let q = &mut quads[k * BATCHES + b];
            for c in 0..6 {
                q.j[c][l] = r.jj[PERM[c]][0];
                q.im[c][l] = r.im1[c];
            }
            q.rhs[l] = r.rhs;
            q.cfm[l] = r.cfm;
            q.lo[l] = r.lo;
            q.hi[l] = r.hi;
            q.live[l] = !0;
            q.row[l] = o.row;
            if o.findex == -1 {
                q.friction[l] = 0;
                q.fpos[l] = slot(k) as u32;
            } else {
                q.friction[l] = !0;
                q.fpos[l] = slot(pos[o.findex as usize] as usize) as u32;
            }
            lam[slot(k)] = lambda[o.row as usize];
        }
        for k in rows.len()..steps {
            let q = &mut quads[k * BATCHES + b];
            for c in 0..6 {
                q.j[c][l] = 0.0;
                q.im[c][l] = 0.0;
            }
            (q.rhs[l], q.cfm[l], q.lo[l], q.hi[l]) = (0.0, 0.0, 0.0, 0.0);
            (q.live[l], q.friction[l], q.fpos[l], q.row[l]) = (0, 0, slot(k) as u32, 0);
            lam[slot(k)] = 0.0;
        }
    }
}

/// The live lanes' λ back to `lambda`.
fn write_lambda(quads: &[Quad], lam: &[f64], lambda: &mut [f64]) {
    for (n, q) in quads.iter().enumerate() {
        for l in 0..LANES {
            if q.live[l] != 0 {
                lambda[q.row[l] as usize] = lam[n * LANES + l];
            }
        }
    }
}

/// One sweep of a set: step by step, the batches' updates.
///
/// # Safety
/// AVX; `quads.len()` is a multiple of `BATCHES`, `lam` holds `LANES`
/// slots per quad and every `fpos` is a slot of it; `force` holds the
/// batches' forces.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn sweep_set_avx(quads: &[Quad], lam: &mut [f64], force: &mut [[[f64; LANES]; 6]]) {
    use std::arch::x86_64::*;
    assert!(quads.len().is_multiple_of(BATCHES) && lam.len() == quads.len() * LANES && force.len() == BATCHES);
    let lp = lam.as_mut_ptr();
    let sign = _mm256_set1_pd(-0.0);
    let zero = _mm256_setzero_pd();
    for (n, q) in quads.iter().enumerate() {
        // SAFETY: the λ slots of this quad and its `fpos` lie in `lam`
        // (asserted and the caller's).
        unsafe {
            let slot = lp.add(n * LANES);
            let f = &mut force[n % BATCHES];
            let ld = |a: &[f64; LANES]| _mm256_loadu_pd(a.as_ptr());
            let old = _mm256_loadu_pd(slot);
            // δ = rhs − λ·cfm − J₁·f₁ (the J₂ sum is +0, see above).
            let mut delta = _mm256_sub_pd(ld(&q.rhs), _mm256_mul_pd(old, ld(&q.cfm)));
            let mut s1 = _mm256_mul_pd(ld(&f[0]), ld(&q.j[0]));
            for c in 1..6 {
                s1 = _mm256_add_pd(s1, _mm256_mul_pd(ld(&f[c]), ld(&q.j[c])));
            }
            delta = _mm256_sub_pd(delta, s1);
            // Bounds: (lo, hi), or ±|hi·λ_findex| for a friction row.
            let normal = _mm256_set_pd(
                *lp.add(q.fpos[3] as usize),
                *lp.add(q.fpos[2] as usize),
                *lp.add(q.fpos[1] as usize),
                *lp.add(q.fpos[0] as usize),
            );
            let hf = _mm256_andnot_pd(sign, _mm256_mul_pd(ld(&q.hi), normal));
            let friction = _mm256_castsi256_pd(_mm256_loadu_si256(q.friction.as_ptr() as *const __m256i));
            let lo = _mm256_blendv_pd(ld(&q.lo), _mm256_xor_pd(hf, sign), friction);
            let hi = _mm256_blendv_pd(ld(&q.hi), hf, friction);
            // ODE's projection (as `clamp_selected`).
            let new = _mm256_add_pd(old, delta);
            let below = _mm256_cmp_pd::<_CMP_LT_OS>(new, lo);
            let above = _mm256_cmp_pd::<_CMP_LT_OS>(hi, new);
            let l = _mm256_blendv_pd(_mm256_blendv_pd(new, hi, above), lo, below);
            let d = _mm256_blendv_pd(_mm256_blendv_pd(delta, _mm256_sub_pd(hi, old), above), _mm256_sub_pd(lo, old), below);
            _mm256_storeu_pd(slot, l);
            // f += δ·iMJ where δ ≠ 0 (NaN included) in a live lane.
            let live = _mm256_castsi256_pd(_mm256_loadu_si256(q.live.as_ptr() as *const __m256i));
            let update = _mm256_and_pd(_mm256_cmp_pd::<_CMP_NEQ_UQ>(d, zero), live);
            for c in 0..6 {
                let old_f = ld(&f[c]);
                let new_f = _mm256_add_pd(old_f, _mm256_mul_pd(d, ld(&q.im[c])));
                _mm256_storeu_pd(f[c].as_mut_ptr(), _mm256_blendv_pd(old_f, new_f, update));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{interleave, sweep, BodyForce, Segment, SorOrder, SorRow, PERM};
    use super::*;
    use crate::test_rng::Rng;

    /// Mostly ordinary values, with ±0, tiny and huge ones mixed in.
    fn value(rng: &mut Rng) -> f64 {
        match rng.bits() % 23 {
            0 => 0.0,
            1 => -0.0,
            2 => 1e-310,
            3 => -3e300,
            _ => rng.sym(2.0),
        }
    }

    #[test]
    fn one_body_lanes_give_the_interleaved_sweeps_bits() {
        if !available() {
            return;
        }
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        // One scratch for all cases, as a world keeps it from step to step.
        let mut scratch = LaneScratch::default();
        for case in 0..60 {
            let islands = 1 + case % 41;
            let (mut srows, mut order, mut segs) = (Vec::new(), Vec::new(), Vec::new());
            for i in 0..islands {
                let len = 1 + (rng.bits() % 13) as usize;
                let start = order.len();
                for k in 0..len {
                    let mut r = SorRow::default();
                    for c in 0..6 {
                        r.jj[PERM[c]][0] = value(&mut rng);
                        r.im1[c] = value(&mut rng);
                    }
                    r.rhs = value(&mut rng);
                    r.cfm = value(&mut rng).abs() * 0.1;
                    (r.lo, r.hi) = match rng.bits() % 3 {
                        0 => (f64::NEG_INFINITY, f64::INFINITY),
                        1 => (0.0, f64::INFINITY),
                        _ => (-value(&mut rng).abs(), value(&mut rng).abs()),
                    };
                    srows.push(r);
                    let findex = if k > 0 && rng.bits().is_multiple_of(2) { (start + (rng.bits() as usize % k)) as i32 } else { -1 };
                    order.push(SorOrder { row: (start + k) as u32, b1: i as u32, b2: islands as u32, findex });
                }
                segs.push(Segment { start, len, rand: rng.bits() as u32, one_body: true });
            }
            let m = order.len();
            let lambda: Vec<f64> = (0..m).map(|_| value(&mut rng)).collect();
            let mut fc = vec![BodyForce::default(); islands + 1];
            for f in fc.iter_mut().take(islands) {
                for c in 0..6 {
                    f.f[c] = value(&mut rng);
                }
            }
            // An island whose force already holds a NaN in one component.
            if islands > 2 {
                fc[2].f[4] = f64::NAN;
            }
            let shuffle = case % 3 != 0;
            let iterations = [1, 9, 20, 17, 0][case % 5];

            // The interleaved sweep, as the solver runs it.
            let (mut o1, mut s1, mut l1, mut f1) = (order.clone(), segs.clone(), lambda.clone(), fc.clone());
            let mut merged = vec![SorOrder::default(); m];
            interleave(&o1, &s1, &mut merged);
            for it in 0..iterations {
                if shuffle && it >= REORDER_FREQUENCY && it.is_multiple_of(REORDER_FREQUENCY) {
                    for s in s1.iter_mut() {
                        s.rand = shuffle_order(&mut o1[s.start..s.start + s.len], s.rand);
                    }
                    interleave(&o1, &s1, &mut merged);
                }
                sweep(&srows, &merged, &mut l1, &mut f1, islands, true);
            }

            let (mut o2, mut s2, mut l2, mut f2) = (order.clone(), segs.clone(), lambda.clone(), fc.clone());
            // SAFETY: AVX is present; rows, friction indices and bodies as
            // built above.
            unsafe { solve(&mut s2, &mut o2, &srows, &mut l2, &mut f2, iterations, shuffle, &mut scratch) };

            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&l1), bits(&l2), "λ, case {case}");
            for (a, b) in f1.iter().zip(&f2) {
                assert_eq!(bits(&a.f), bits(&b.f), "forces, case {case}");
            }
            s2.sort_by_key(|s| s.start);
            for (a, b) in s1.iter().zip(&s2) {
                assert_eq!(a.rand, b.rand, "dRand states, case {case}");
            }
            assert!(o1.iter().zip(&o2).all(|(a, b)| a.row == b.row), "orders, case {case}");
        }
    }
}
