//! Fast-mode broad phase of the list spaces (simple and hash): a persistent
//! sort and sweep on one axis (issue 13).
//!
//! It reports exactly the pairs the space's own traversal reports (every
//! pair of taking-part members passing `collide_aabbs`), in another order.
//! Members with a finite AABB are kept in an array sorted by the lower
//! bound on the sweep axis; the array survives between passes, so after
//! small moves an insertion sort restores the order in about n steps
//! (temporal coherence). Each member is then tested against the following
//! members until their lower bound passes its upper bound, with the other
//! two axes compared first from the array (no geom access for pairs that
//! do not overlap). Members with an infinite or NaN bound (planes, spaces
//! without bounds) are tested against all others, like the hash space's
//! "big" list. The axis is the one along which the members' centres spread
//! most, re-chosen only when another axis spreads clearly more.
//!
//! Membership is recomputed each pass from the space's list: a member's
//! `slot` holds the pass stamp, so members that left (or left and came
//! back), were disabled or destroyed are dropped or kept without a search.
//! Buffers are reused, so a warm pass does not allocate.

use super::{clean, collide_aabbs, locked, sp, Near};
use crate::collision::geom::{g, GeomRef};

/// One member in sort order: its lower bound on the sweep axis.
#[derive(Clone, Copy)]
struct Rec {
    lo: f64,
    geom: GeomRef,
    /// Orders the two geoms of a pair as the exact traversal does (`key`).
    key: u64,
}

/// A pair is reported as (a, b) with key(a) < key(b), the orientation of
/// the exact traversal (only the order of pairs differs, which keeps
/// colliders' normals and contact points as in exact mode): the simple
/// space reports the earlier member of its list first; the hash space
/// reports a geom at a finer level first and between geoms of one level
/// the earlier one. `rank` is the list position; geoms above the hash
/// space's maximum level count as level max + 1 (its "big" list, in list
/// order).
fn key(h: GeomRef, rank: u32, levels: Option<(i32, i32)>) -> u64 {
    let level = match levels {
        None => 0,
        Some((min, max)) => super::hash::find_level(&g(h).aabb).max(min).min(max.saturating_add(1)),
    };
    (((level as i64 - i32::MIN as i64) as u64) << 32) | rank as u64
}

/// The sorted members' bounds as single-precision columns, rounded
/// outwards (lower bounds down, upper bounds up), so that a pair whose
/// columns do not overlap certainly does not overlap in double precision:
/// four candidates are rejected per SSE comparison, and `collide_aabbs`
/// decides the rest exactly. Each column ends with `PAD` NaN entries,
/// which fail every comparison and so stop a sweep without a bound check.
#[derive(Default)]
struct Columns {
    lo: Vec<f32>,
    hi: Vec<f32>,
    lo1: Vec<f32>,
    hi1: Vec<f32>,
    lo2: Vec<f32>,
    hi2: Vec<f32>,
}

const PAD: usize = 4;

#[derive(Default)]
pub struct Sweep {
    /// Members sorted by `lo` (from the last pass).
    recs: Vec<Rec>,
    /// The next pass's array, built from `recs` and swapped with it.
    next: Vec<Rec>,
    /// Members with a non-finite bound, with their keys.
    big: Vec<(GeomRef, u64)>,
    cols: Columns,
    /// Sweep axis (0, 1, 2).
    axis: usize,
    /// Pass counter: a member's `slot` is `2·epoch` once listed this pass
    /// and `2·epoch + 1` once placed in the array.
    epoch: i32,
}

/// Does the space use the fast broad phase?
#[inline]
pub fn enabled(s: GeomRef) -> bool {
    sp(s).fast_collide
}

/// `dSpaceCollide` of a simple or hash space in fast mode.
pub fn collide(s: GeomRef, cb: &mut Near) {
    locked(s, || {
        clean(s);
        let mut sw = sp(s).sweep.take().unwrap_or_default();
        run(s, &mut sw, cb);
        if s.is_live() {
            sp(s).sweep = Some(sw);
        }
    })
}

fn run(s: GeomRef, sw: &mut Sweep, cb: &mut Near) {
    if sw.epoch >= i32::MAX / 2 - 1 {
        // Stamps would wrap: forget them (once in ~10⁹ passes).
        let mut c = sp(s).first;
        while let Some(h) = c {
            g(h).slot = -1;
            c = g(h).next;
        }
        sw.epoch = 0;
    }
    sw.epoch += 1;
    let listed = 2 * sw.epoch;
    let placed = listed + 1;

    // 1. Mark the members taking part; non-finite ones go to `big`.
    // Also sums the centres' coordinates and squares for the axis choice.
    sw.big.clear();
    let (mut n, mut sum, mut sq) = (0.0f64, [0.0f64; 3], [0.0f64; 3]);
    let levels = match &sp(s).kind {
        super::Kind::Hash(x) => Some((x.min_level, x.max_level)),
        _ => None,
    };
    let mut rank = 0u32;
    let mut c = sp(s).first;
    while let Some(h) = c {
        let geom = g(h);
        c = geom.next;
        if !geom.takes_part() {
            continue;
        }
        // The list position, for `key` (slot2 is free in list spaces).
        geom.slot2 = rank as i32;
        rank += 1;
        if geom.aabb.iter().all(|v| v.is_finite()) {
            geom.slot = listed;
            n += 1.0;
            for k in 0..3 {
                let m = 0.5 * (geom.aabb[2 * k] + geom.aabb[2 * k + 1]);
                sum[k] += m;
                sq[k] += m * m;
            }
        } else {
            geom.slot = placed;
            sw.big.push((h, key(h, rank - 1, levels)));
        }
    }

    // 2. The axis: the widest spread of centres (variance), kept unless
    // another axis spreads 1.5× more, so the order survives between passes.
    let axis = choose_axis(n, &sum, &sq, sw.axis);
    let resort = axis != sw.axis;
    sw.axis = axis;
    let rec_of = |h: GeomRef| Rec { lo: g(h).aabb[2 * axis], geom: h, key: key(h, g(h).slot2 as u32, levels) };

    // 3. Last pass's order for the members still listed, then new ones.
    sw.next.clear();
    for r in &sw.recs {
        let h = r.geom;
        // A destroyed member's cell may be dead (or reused by a geom of
        // another space): check before reading further.
        if h.is_live() && g(h).parent == Some(s) && g(h).slot == listed {
            g(h).slot = placed;
            sw.next.push(rec_of(h));
        }
    }
    let mut c = sp(s).first;
    while let Some(h) = c {
        let geom = g(h);
        c = geom.next;
        if geom.slot == listed {
            geom.slot = placed;
            sw.next.push(rec_of(h));
        }
    }
    std::mem::swap(&mut sw.recs, &mut sw.next);

    // 4. Sort by lower bound: insertion sort while nearly sorted, a full
    // sort when the axis changed or too much moved.
    let recs = &mut sw.recs[..];
    if resort || !insertion_sort(recs) {
        recs.sort_unstable_by(|x, y| x.lo.total_cmp(&y.lo));
    }

    // 5. Columns in sort order, then the sweep.
    let (a1, a2) = ((axis + 1) % 3, (axis + 2) % 3);
    let cols = &mut sw.cols;
    for col in [&mut cols.lo, &mut cols.hi, &mut cols.lo1, &mut cols.hi1, &mut cols.lo2, &mut cols.hi2] {
        col.clear();
    }
    for r in recs.iter() {
        let b = &g(r.geom).aabb;
        cols.lo.push(round_down(b[2 * axis]));
        cols.hi.push(round_up(b[2 * axis + 1]));
        cols.lo1.push(round_down(b[2 * a1]));
        cols.hi1.push(round_up(b[2 * a1 + 1]));
        cols.lo2.push(round_down(b[2 * a2]));
        cols.hi2.push(round_up(b[2 * a2 + 1]));
    }
    for col in [&mut cols.lo, &mut cols.hi, &mut cols.lo1, &mut cols.hi1, &mut cols.lo2, &mut cols.hi2] {
        col.extend_from_slice(&[f32::NAN; PAD]);
    }
    for i in 0..recs.len() {
        sweep_one(cols, i, &mut |j| report(&recs[i], &recs[j], cb));
    }
    for r in recs.iter() {
        for &(big, key) in &sw.big {
            report(r, &Rec { lo: 0.0, geom: big, key }, cb);
        }
    }
    for i in 0..sw.big.len() {
        for j in i + 1..sw.big.len() {
            // In list order, as the hash space's big list.
            collide_aabbs(sw.big[i].0, sw.big[j].0, cb);
        }
    }
}

/// The pair test with the pair in the exact traversal's orientation.
#[inline]
fn report(a: &Rec, b: &Rec, cb: &mut Near) {
    if a.key <= b.key {
        collide_aabbs(a.geom, b.geom, cb)
    } else {
        collide_aabbs(b.geom, a.geom, cb)
    }
}

/// The axis along which the finite members' centres spread most (`n`
/// centres with coordinate sums `sum` and sums of squares `sq`).
fn choose_axis(n: f64, sum: &[f64; 3], sq: &[f64; 3], current: usize) -> usize {
    if n < 2.0 {
        return current;
    }
    let var = |k: usize| sq[k] - sum[k] * sum[k] / n;
    let mut best = current;
    for k in 0..3 {
        // NaN variances (overflowing sums) never win.
        if var(k) > 1.5 * var(best) {
            best = k;
        }
    }
    best
}

/// Calls `hit(j)` for every later member `j` whose columns overlap those
/// of member `i` (all three axes), in order.
#[cfg(target_arch = "x86_64")]
#[inline]
fn sweep_one(c: &Columns, i: usize, hit: &mut impl FnMut(usize)) {
    use std::arch::x86_64::*;
    // SAFETY: SSE is part of the x86-64 baseline; `scan` reads 4 entries
    // at a time from i + 1 on and stops at the padding at the latest.
    unsafe {
        let q = Query {
            hi: _mm_set1_ps(c.hi[i]),
            lo1: _mm_set1_ps(c.lo1[i]),
            hi1: _mm_set1_ps(c.hi1[i]),
            lo2: _mm_set1_ps(c.lo2[i]),
            hi2: _mm_set1_ps(c.hi2[i]),
            p_lo: c.lo.as_ptr().add(i + 1),
            p_lo1: c.lo1.as_ptr().add(i + 1),
            p_hi1: c.hi1.as_ptr().add(i + 1),
            p_lo2: c.lo2.as_ptr().add(i + 1),
            p_hi2: c.hi2.as_ptr().add(i + 1),
        };
        let mut k = 0;
        loop {
            let (at, mut m, last) = scan(&q, k);
            while m != 0 {
                hit(i + 1 + at + m.trailing_zeros() as usize);
                m &= m - 1;
            }
            if last {
                return;
            }
            k = at + 4;
        }
    }
}

#[cfg(target_arch = "x86_64")]
struct Query {
    hi: std::arch::x86_64::__m128,
    lo1: std::arch::x86_64::__m128,
    hi1: std::arch::x86_64::__m128,
    lo2: std::arch::x86_64::__m128,
    hi2: std::arch::x86_64::__m128,
    p_lo: *const f32,
    p_lo1: *const f32,
    p_hi1: *const f32,
    p_lo2: *const f32,
    p_hi2: *const f32,
}

/// From block `k` on, the first block of 4 with a hit or with the end of
/// the sweep: (its offset, the hit lanes, whether the sweep ends there).
/// Out of line so that its loop keeps everything in registers (the
/// callback in the caller would force spills).
#[cfg(target_arch = "x86_64")]
#[inline(never)]
unsafe fn scan(q: &Query, mut k: usize) -> (usize, i32, bool) {
    use std::arch::x86_64::*;
    let (hi, lo1, hi1, lo2, hi2) = (q.hi, q.lo1, q.hi1, q.lo2, q.hi2);
    let (p_lo, p_lo1, p_hi1, p_lo2, p_hi2) = (q.p_lo, q.p_lo1, q.p_hi1, q.p_lo2, q.p_hi2);
    loop {
        let on_axis = _mm_cmple_ps(_mm_loadu_ps(p_lo.add(k)), hi);
        let a = _mm_and_ps(_mm_cmple_ps(_mm_loadu_ps(p_lo1.add(k)), hi1), _mm_cmple_ps(lo1, _mm_loadu_ps(p_hi1.add(k))));
        let b = _mm_and_ps(_mm_cmple_ps(_mm_loadu_ps(p_lo2.add(k)), hi2), _mm_cmple_ps(lo2, _mm_loadu_ps(p_hi2.add(k))));
        let axis_bits = _mm_movemask_ps(on_axis);
        let m = _mm_movemask_ps(_mm_and_ps(on_axis, _mm_and_ps(a, b)));
        // Sorted lower bounds: once one lane is past `hi` (or is padding),
        // every later member is.
        if m != 0 || axis_bits != 0b1111 {
            return (k, m, axis_bits != 0b1111);
        }
        k += 4;
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn sweep_one(c: &Columns, i: usize, hit: &mut impl FnMut(usize)) {
    let mut j = i + 1;
    // Padding (NaN) fails the first test.
    while c.lo[j] <= c.hi[i] {
        if c.lo1[j] <= c.hi1[i] && c.hi1[j] >= c.lo1[i] && c.lo2[j] <= c.hi2[i] && c.hi2[j] >= c.lo2[i] {
            hit(j);
        }
        j += 1;
    }
}

/// The largest f32 not above `v` (v finite).
fn round_down(v: f64) -> f32 {
    let f = v as f32;
    if (f as f64) <= v {
        f
    } else if f == 0.0 {
        -f32::from_bits(1)
    } else if f > 0.0 {
        f32::from_bits(f.to_bits() - 1)
    } else {
        f32::from_bits(f.to_bits() + 1)
    }
}

/// The smallest f32 not below `v` (v finite).
fn round_up(v: f64) -> f32 {
    -round_down(-v)
}

/// Sorts by `lo` by insertion; gives up (false, partly sorted) after about
/// 8 moves per element, when a full sort is cheaper.
fn insertion_sort(v: &mut [Rec]) -> bool {
    let mut budget = 8 * v.len() + 64;
    for i in 1..v.len() {
        let x = v[i];
        let mut j = i;
        while j > 0 && v[j - 1].lo > x.lo {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
        let moved = i - j;
        if moved > budget {
            return false;
        }
        budget -= moved;
    }
    true
}
