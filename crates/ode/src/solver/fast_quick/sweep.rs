//! The fast QuickStep's SOR iterations over the filled lanes: batches of
//! four independent rows, overflow rows one at a time (`Single`), and
//! blocks of four contacts swept joint by joint; the sweep order is
//! shuffled every few iterations with a private generator. The AVX2 copy
//! (`sweeps_avx2`) does the same IEEE operations in the same order (see
//! `fma4` for the blocks' fused multiply-adds).

use super::*;

/// Sweep items per run of `shuffle_runs`: 64 singles are 16 kB, enough for
/// the hardware prefetcher to stream.
pub(super) const RUN: usize = 64;

/// The large-island shuffle: `order` as runs of `RUN` consecutive items
/// (the last, partial run stays last), the runs shuffled with the
/// generator of the item shuffle. Runs start in memory order and move
/// whole, so each is always swept in memory order; the rows of one item
/// are independent and the items of a run are still swept one after the
/// other, so this is a Gauss–Seidel order like any other.
pub(super) fn shuffle_runs(order: &mut [u32], rng: &mut u64) {
    let runs = order.len() / RUN;
    for i in 1..runs {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        let j = (*rng % (i as u64 + 1)) as usize;
        if j != i {
            let (a, b) = order.split_at_mut(i * RUN);
            a[j * RUN..(j + 1) * RUN].swap_with_slice(&mut b[..RUN]);
        }
    }
}

/// Start state of the batch shuffle (xorshift64).
pub(super) const SHUFFLE_SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// `iterations` SOR sweeps over the batches. On x86-64 processors with
/// AVX2 and FMA the same code is compiled a second time for 256-bit lanes
/// (one instruction per `DVec4` operation instead of two); both versions
/// do the same IEEE operations in the same order, but for the blocks'
/// multiply-adds, fused only in the AVX2 copy (see `fma4`).
pub(super) fn sweeps(s: Sweep<'_>, order: &mut [u32], lambda: &mut [f64], fc: &mut [[f64; 6]], iterations: usize) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2_fma() {
        // SAFETY: the processor supports AVX2 and FMA (checked just above).
        unsafe { sweeps_avx2(s, order, lambda, fc, iterations) };
        return;
    }
    sweeps_generic::<false>(s, order, lambda, fc, iterations);
}

/// `x` clamped to `[lo, hi]` as x86's `maxpd(lo, x)` then `minpd(hi, ·)`
/// do it (`x < lo ? lo : x`, then `· > hi ? hi : ·`), so that the scalar
/// and the AVX2 block sweeps give the same bits, signed zeros included.
#[inline(always)]
pub(super) fn clamp(x: DVec4, lo: DVec4, hi: DVec4) -> DVec4 {
    let y = DVec4::select(x.cmplt(lo), lo, x);
    DVec4::select(y.cmpgt(hi), hi, y)
}

/// What the sweeps read: the row batches, the overflow rows, the blocks
/// and the first slot of the blocks' λ. Sweep items are coded as
/// `Layout` says.
#[derive(Clone, Copy)]
pub(super) struct Sweep<'a> {
    pub(super) batches: &'a [Batch],
    pub(super) singles: &'a [Single],
    /// Per body, for the singles (`InvMass`).
    pub(super) inv_mass: &'a [InvMass],
    pub(super) blocks: &'a [Block],
    pub(super) block_base: usize,
    pub(super) layout: Layout,
    /// Shuffle in runs (`LARGE_ISLAND_BYTES`).
    pub(super) large: bool,
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
pub(super) unsafe fn sweeps_avx2(s: Sweep<'_>, order: &mut [u32], lambda: &mut [f64], fc: &mut [[f64; 6]], iterations: usize) {
    sweeps_generic::<true>(s, order, lambda, fc, iterations);
}

/// `AVX2`: the caller runs with AVX2 enabled (only `sweeps_avx2` passes
/// true), so blocks are swept by `avx2::sweep_block`.
#[inline(always)]
pub(super) fn sweeps_generic<const AVX2: bool>(s: Sweep<'_>, order: &mut [u32], lambda: &mut [f64], fc: &mut [[f64; 6]], iterations: usize) {
    // A fixed sweep order biases the solution towards the rows solved last,
    // which makes stacks creep sideways; ODE breaks that bias by shuffling
    // its rows every 8th iteration with `dRand`. Here the batches are
    // shuffled at the same iterations with a private generator seeded the
    // same way at every solve, so results stay reproducible and `dRand`
    // is never touched.
    let nbatch = order.len();
    let mut rng = SHUFFLE_SEED;
    for iteration in 0..iterations {
        if iteration >= crate::solver::quick::REORDER_FREQUENCY && iteration % crate::solver::quick::REORDER_FREQUENCY == 0 {
            if s.large {
                shuffle_runs(order, &mut rng);
            } else {
                for i in 1..nbatch {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    order.swap(i, (rng % (i as u64 + 1)) as usize);
                }
            }
        }
        for &bi in order.iter() {
            let bi = bi as usize;
            if bi < s.batches.len() {
                sweep_batch(&s.batches[bi], lambda, s.layout.batch_number(bi) * 4, fc);
            } else if bi < s.batches.len() + s.singles.len() {
                sweep_single(&s.singles[bi - s.batches.len()], s.inv_mass, lambda, fc);
            } else {
                let k = bi - s.batches.len() - s.singles.len();
                let slot0 = s.block_base + 12 * k;
                #[cfg(target_arch = "x86_64")]
                if AVX2 {
                    let bk = &s.blocks[k];
                    debug_assert!(bk.b1.iter().chain(&bk.b2).all(|&b| (b as usize) < fc.len()));
                    assert!(slot0 + 12 <= lambda.len());
                    // SAFETY: AVX2 and FMA are enabled (see above); the body
                    // indices are in range by construction in `solve_rows`
                    // and the λ range was just checked.
                    unsafe { avx2::sweep_block(bk, lambda.as_mut_ptr().add(slot0), fc.as_mut_ptr()) };
                    continue;
                }
                sweep_block::<false>(&s.blocks[k], lambda, slot0, fc);
            }
        }
    }
}

/// One projected SOR update of the four independent rows of a batch.
///
/// Body indices (`b1`, `b2`: island bodies `< nb` or lane dummies
/// `nb..nb + 4`) and friction slots (`< 4·batches + 1`) are all in range by
/// construction in `solve_rows` (checked in debug builds); indexing
/// without bounds checks removes about a tenth of the sweep's instructions.
#[inline(always)]
pub(super) fn sweep_batch(bt: &Batch, lambda: &mut [f64], slot0: usize, fc: &mut [[f64; 6]]) {
    debug_assert!(bt.b1.iter().chain(&bt.b2).all(|&b| (b as usize) < fc.len()));
    debug_assert!(bt.fslot.iter().all(|&f| (f as usize) < lambda.len()) && slot0 + 4 <= lambda.len());
    let n = fc.len();
    let fcp = fc.as_mut_ptr();
    // SAFETY: every index below is < n (see above), and `fc` is borrowed
    // mutably for the whole function, so no other reference aliases it.
    let body = |b: u32| -> &mut [f64; 6] {
        debug_assert!((b as usize) < n);
        unsafe { &mut *fcp.add(b as usize) }
    };
    let gather = |b: &[u32; 4], c: usize| DVec4::new(body(b[0])[c], body(b[1])[c], body(b[2])[c], body(b[3])[c]);
    let lp = lambda.as_mut_ptr();
    // SAFETY: slot0 + 4 <= lambda.len() (see above); the four λ of the
    // batch are contiguous.
    let old = unsafe { DVec4::new(*lp.add(slot0), *lp.add(slot0 + 1), *lp.add(slot0 + 2), *lp.add(slot0 + 3)) };
    let mut delta = bt.rhs - old * bt.cfm;
    for c in 0..6 {
        delta -= bt.j1[c] * gather(&bt.b1, c) + bt.j2[c] * gather(&bt.b2, c);
    }
    // SAFETY: friction slots are < lambda.len() by construction.
    let normal = unsafe {
        DVec4::new(
            *lp.add(bt.fslot[0] as usize),
            *lp.add(bt.fslot[1] as usize),
            *lp.add(bt.fslot[2] as usize),
            *lp.add(bt.fslot[3] as usize),
        )
    };
    let f = bt.fcoef * normal.abs();
    let (lo, hi) = (bt.lo - f, bt.hi + f);
    let new = clamp(old + delta, lo, hi);
    let delta = new - old;
    // SAFETY: as for `old`.
    unsafe {
        *lp.add(slot0) = new.x;
        *lp.add(slot0 + 1) = new.y;
        *lp.add(slot0 + 2) = new.z;
        *lp.add(slot0 + 3) = new.w;
    }
    let d = delta.to_array();
    for (lane, &dl) in d.iter().enumerate() {
        let (f, m) = (body(bt.b1[lane]), &bt.m1[lane]);
        for c in 0..6 {
            f[c] += dl * m[c];
        }
        let (f, m) = (body(bt.b2[lane]), &bt.m2[lane]);
        for c in 0..6 {
            f[c] += dl * m[c];
        }
    }
}

/// `sweep_batch` for one overflow row: lane 0's operations, in the same
/// order (the padding lanes of its batch only ever add zeros to the dummy
/// body, which stays +0).
#[inline(always)]
pub(super) fn sweep_single(r: &Single, inv_mass: &[InvMass], lambda: &mut [f64], fc: &mut [[f64; 6]]) {
    let (f1, f2) = (fc[r.b1 as usize], fc[r.b2 as usize]);
    let old = lambda[r.slot as usize];
    let mut delta = r.rhs - old * r.cfm;
    for c in 0..6 {
        delta -= (r.j1[c] * r.ad) * f1[c] + (r.j2[c] * r.ad) * f2[c];
    }
    let f = r.fcoef * lambda[r.fslot as usize].abs();
    let (lo, hi) = (r.lo - f, r.hi + f);
    let x = old + delta;
    // `clamp`'s selects, scalar.
    let x = if x < lo { lo } else { x };
    let new = if x > hi { hi } else { x };
    lambda[r.slot as usize] = new;
    let dl = new - old;
    // A lane dummy's record is zero: its products are ±0, which leave its
    // velocity change at +0, as the batch's exact zeros do.
    for (b, j) in [(r.b1, &r.j1), (r.b2, &r.j2)] {
        let m = inv_mass_times(&inv_mass[b as usize], j);
        let f = &mut fc[b as usize];
        for c in 0..6 {
            f[c] += dl * m[c];
        }
    }
}

/// a·b + c per lane: rounded once when `FUSED` (glam's `mul_add`, lane by
/// lane `f64::mul_add`), as the AVX2/FMA block sweep computes it, else as
/// a product and a sum. A fused chain is a third shorter than separate
/// products and sums, and the sweep is bound by their count (the block
/// sweep took 0.82 of the time without). The portable sweep, which runs on
/// processors without FMA, is unfused: `mul_add` is a libm call there, a
/// hundred times slower than a product and a sum. So the last bits of fast
/// mode's blocks differ between processors with and without FMA, as the
/// fast Step's do; the fused portable form exists to check the AVX2 sweep
/// bit for bit.
#[inline(always)]
pub(super) fn fma4<const FUSED: bool>(a: DVec4, b: DVec4, c: DVec4) -> DVec4 {
    if FUSED {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

/// Row k's scaled `J·v` on lane velocities `v1`, `v2`, with `dv` the
/// linear velocity difference v₁ − v₂ (body 2's linear Jacobian is the
/// negation of body 1's): the linear part, then each angular term fused
/// onto the sum in turn.
#[inline(always)]
pub(super) fn block_jv<const FUSED: bool>(bk: &Block, k: usize, dv: &[DVec4; 3], v1: &[DVec4; 6], v2: &[DVec4; 6]) -> DVec4 {
    let fma = fma4::<FUSED>;
    let d = &bk.d[k];
    let mut s = bk.ad[k] * fma(d[2], dv[2], fma(d[1], dv[1], d[0] * dv[0]));
    for c in 0..3 {
        s = fma(bk.j1a[k][c], v1[3 + c], s);
    }
    for c in 0..3 {
        s = fma(bk.j2a[k][c], v2[3 + c], s);
    }
    s
}

/// One projected SOR update of the four independent joints of a block:
/// rows 1 and 2 (friction, bounded by the normal λ of the previous sweep)
/// then row 0 of every lane, as Gauss–Seidel over the three rows.
///
/// The rows of a lane act on the same two bodies, so instead of updating
/// the velocities after each row and forming the next row's `J·v` from
/// them, the three `J·v` are formed once (independent of each other) and a
/// row's λ change is carried to the rows after it through the couplings
/// `Block::a`; the velocities take the three λ changes at the end. In
/// exact arithmetic this is the row-by-row update; it shortens the chain
/// of dependent operations per block from three dot products to one.
///
/// Body indices (island bodies `< nb` or lane dummies `nb..nb + 4`) are in
/// range by construction in `solve_rows`, and the lanes' dynamic bodies
/// are distinct (the colouring); a lane dummy and a body without inverse
/// mass receive only zero products. So the lanes' velocities are gathered
/// once, updated in registers and written back once.
#[inline(always)]
pub(super) fn sweep_block<const FUSED: bool>(bk: &Block, lambda: &mut [f64], slot0: usize, fc: &mut [[f64; 6]]) {
    debug_assert!(bk.b1.iter().chain(&bk.b2).all(|&b| (b as usize) < fc.len()));
    debug_assert!(slot0 + 12 <= lambda.len());
    let (mut v1, mut v2) = gather_block(bk, fc);
    let lp = lambda.as_mut_ptr();
    // SAFETY: slot0 + 12 <= lambda.len() (see above).
    let row_ptr = |k: usize| unsafe { lp.add(slot0 + 4 * k) as *mut [f64; 4] };
    let dv = [v1[0] - v2[0], v1[1] - v2[1], v1[2] - v2[2]];
    let mut jv = [0, 1, 2].map(|k| block_jv::<FUSED>(bk, k, &dv, &v1, &v2));
    // SAFETY: as `row_ptr`.
    let old = [0, 1, 2].map(|k| DVec4::from_array(unsafe { *row_ptr(k) }));
    // Friction rows first, bounded by the normal λ of the previous sweep,
    // then the normal row (as Box2D orders a contact): with the normal row
    // first, a 5-box stack crept 1.4 cm in 10 s against ODE's 0.7 cm,
    // with this order 0.3 cm.
    let normal = old[0].abs();
    let mut dl = [DVec4::ZERO; 3];
    for k in [1, 2, 0] {
        let (lo, hi) = if k == 0 {
            (bk.lo0, bk.hi0)
        } else {
            let f = bk.fcoef[k - 1] * normal;
            (-f, f)
        };
        let delta = fma4::<FUSED>(-old[k], bk.cfm[k], bk.rhs[k]) - jv[k];
        let new = clamp(old[k] + delta, lo, hi);
        dl[k] = new - old[k];
        // SAFETY: as `row_ptr`.
        unsafe { *row_ptr(k) = new.to_array() };
        for (a, &(i, j)) in bk.a.iter().zip(&COUPLED) {
            if j == k {
                jv[i] = fma4::<FUSED>(*a, dl[k], jv[i]);
            }
        }
    }
    add_impulse::<FUSED>(bk, &dl, &mut v1, &mut v2);
    scatter_block(bk, fc, &v1, &v2);
}

/// The velocities of a block's lanes, body 1 and body 2, component by
/// component (lanes' body indices `< fc.len()` by construction).
#[inline(always)]
pub(super) fn gather_block(bk: &Block, fc: &[[f64; 6]]) -> ([DVec4; 6], [DVec4; 6]) {
    let gather = |b: &[u32; 4], c: usize| DVec4::new(fc[b[0] as usize][c], fc[b[1] as usize][c], fc[b[2] as usize][c], fc[b[3] as usize][c]);
    (std::array::from_fn(|c| gather(&bk.b1, c)), std::array::from_fn(|c| gather(&bk.b2, c)))
}

/// The inverse of `gather_block`, body 1 then body 2 (a lane whose two
/// bodies are both its dummy keeps body 2's values).
#[inline(always)]
pub(super) fn scatter_block(bk: &Block, fc: &mut [[f64; 6]], v1: &[DVec4; 6], v2: &[DVec4; 6]) {
    for c in 0..6 {
        let (a, b) = (v1[c].to_array(), v2[c].to_array());
        for lane in 0..4 {
            fc[bk.b1[lane] as usize][c] = a[lane];
        }
        for lane in 0..4 {
            fc[bk.b2[lane] as usize][c] = b[lane];
        }
    }
}

/// Adds M⁻¹·Jᵀ·dl to the lanes' velocities, `dl` the λ changes of rows
/// 0, 1, 2 (fused as `block_jv`).
#[inline(always)]
pub(super) fn add_impulse<const FUSED: bool>(bk: &Block, dl: &[DVec4; 3], v1: &mut [DVec4; 6], v2: &mut [DVec4; 6]) {
    let fma = fma4::<FUSED>;
    for c in 0..3 {
        let p = fma(bk.d[2][c], dl[2], fma(bk.d[1][c], dl[1], bk.d[0][c] * dl[0]));
        v1[c] = fma(bk.im1, p, v1[c]);
        v2[c] = fma(-bk.im2, p, v2[c]);
        for (v, m) in [(&mut v1[3 + c], &bk.m1a), (&mut v2[3 + c], &bk.m2a)] {
            *v = fma(m[2][c], dl[2], fma(m[1][c], dl[1], fma(m[0][c], dl[0], *v)));
        }
    }
}

