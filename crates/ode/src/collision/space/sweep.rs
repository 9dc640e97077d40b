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
//! do not overlap). Where the members spread widely across the sweep axis
//! too, the sweep runs in strips (`Strips`): slabs of a second axis, each
//! with the members that reach into it, in sort order, so a member is not
//! tested against every member beside it on the sweep axis anywhere in the
//! space. Members with an infinite or NaN bound (planes, spaces
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

impl Columns {
    /// The six columns emptied and refilled with `len` copies of `fill`
    /// (capacity kept), as lo, hi, lo1, hi1, lo2, hi2.
    fn sized(&mut self, len: usize, fill: f32) -> [&mut [f32]; 6] {
        [&mut self.lo, &mut self.hi, &mut self.lo1, &mut self.hi1, &mut self.lo2, &mut self.hi2].map(|col| {
            col.clear();
            col.resize(len, fill);
            &mut col[..]
        })
    }
}

#[derive(Default)]
pub struct Sweep {
    /// Members sorted by `lo` (from the last pass).
    recs: Vec<Rec>,
    /// The next pass's array, built from `recs` and swapped with it.
    next: Vec<Rec>,
    /// Members with a non-finite bound, with their keys.
    big: Vec<(GeomRef, u64)>,
    cols: Columns,
    strips: Strips,
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
    // Indexed writes into sized columns (six pushes per member cost a
    // capacity check each).
    let m = recs.len();
    // Re-sliced to m so that the writes below need no bounds checks.
    let [lo, hi, lo1, hi1, lo2, hi2] = cols.sized(m, 0.0).map(|c| &mut c[..m]);
    for (i, r) in recs.iter().enumerate() {
        let b = &g(r.geom).aabb;
        lo[i] = round_down(b[2 * axis]);
        hi[i] = round_up(b[2 * axis + 1]);
        lo1[i] = round_down(b[2 * a1]);
        hi1[i] = round_up(b[2 * a1 + 1]);
        lo2[i] = round_down(b[2 * a2]);
        hi2[i] = round_up(b[2 * a2 + 1]);
    }
    // The strip axis: the other axis along which the centres spread more.
    let var = |k: usize| if n < 2.0 { 0.0 } else { sq[k] - sum[k] * sum[k] / n };
    let across = if var(a2) > var(a1) { 2 } else { 1 };
    if sw.strips.build(cols, across) {
        sw.strips.pairs(&mut |i, j| report(&recs[i], &recs[j], cb));
    } else {
        for col in [&mut cols.lo, &mut cols.hi, &mut cols.lo1, &mut cols.hi1, &mut cols.lo2, &mut cols.hi2] {
            col.extend_from_slice(&[f32::NAN; PAD]);
        }
        for i in 0..recs.len() {
            sweep_one(cols, i, &mut |j| report(&recs[i], &recs[j], cb));
        }
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

/// The sorted members cut into strips across a second axis (`across`: 1
/// or 2, the `lo1`/`lo2` column pair). Strip t covers
/// [base + t·width, base + (t+1)·width) of that axis in the columns'
/// single-precision bounds; a member is listed, in sort order, in every
/// strip its bounds reach, and the strips' columns follow each other with
/// `PAD` NaN entries between them, so a sweep stops at its strip's end.
/// With about one member per unit of width in a 45-unit cube (the collide
/// bench), a member meets a tenth of the candidates the single sweep gives
/// it. Buffers are reused (no allocation once warm).
#[derive(Default)]
struct Strips {
    cols: Columns,
    /// Per strip entry: the member's index in sort order.
    member: Vec<u32>,
    /// Per member: the strip holding its lower bound across.
    first: Vec<u32>,
    /// Per member: the strip holding its upper bound across.
    last: Vec<u32>,
    /// Per strip: its first entry; one more at the end.
    start: Vec<u32>,
    /// Per strip: its number of members.
    count: Vec<u32>,
}

/// Strips are used from this many members on (below, the single sweep
/// costs little)...
const STRIP_MIN_MEMBERS: usize = 256;
/// ...and when the members spread across at least this many strips.
const STRIP_MIN_STRIPS: usize = 4;
/// ...and when they save at least this many candidates per member.
const STRIP_MIN_SAVING: f64 = 64.0;
/// Upper bound on the strips (the per-strip bookkeeping stays small).
const STRIP_MAX: usize = 256;

impl Strips {
    /// Cuts the sorted members (`c`, without padding) into strips across
    /// axis `across` (1 or 2); false (nothing built) when strips would not
    /// pay: few members, or members that do not spread across several
    /// strips of twice their mean extent.
    fn build(&mut self, c: &Columns, across: usize) -> bool {
        let m = c.lo.len();
        if m < STRIP_MIN_MEMBERS {
            return false;
        }
        let (lo, hi) = if across == 1 { (&c.lo1, &c.hi1) } else { (&c.lo2, &c.hi2) };
        // Extents and ranges along the sweep axis and across (f32 sums are
        // plenty for an estimate).
        let (mut min, mut max, mut extent) = (f32::INFINITY, f32::NEG_INFINITY, 0.0f32);
        let (mut top, mut extent_along) = (f32::NEG_INFINITY, 0.0f32);
        for i in 0..m {
            let (l, h) = (lo[i], hi[i]);
            min = min.min(l);
            max = max.max(h);
            extent += h - l;
            top = top.max(c.hi[i]);
            extent_along += c.hi[i] - c.lo[i];
        }
        let across_ext = extent as f64 / m as f64;
        let width = 2.0 * across_ext;
        let range = max as f64 - min as f64;
        if !(width > 0.0 && range.is_finite()) || range < STRIP_MIN_STRIPS as f64 * width {
            return false;
        }
        let strips = ((range / width).ceil() as usize).clamp(STRIP_MIN_STRIPS, STRIP_MAX);
        let width = range / strips as f64;
        // Worth it? A member meets about m·e/R candidates in the single
        // sweep (e: mean extent, R: range, on the sweep axis), and the
        // fraction (w + e')/R'·(1 + e'/w) of them in its strips (w: strip
        // width, e', R' across). Building the strips costs about as much
        // as scanning ~40 candidates per member (callgrind: the container
        // bench, ~80 candidates a member in a 10-unit box, came out 3 %
        // slower with strips; the collide bench, ~140 in a 45-unit cube,
        // 20 % faster).
        let candidates = extent_along as f64 / (top as f64 - c.lo[0] as f64);
        let kept = (width + across_ext) / range * (1.0 + across_ext / width);
        if !(candidates * (1.0 - kept) >= STRIP_MIN_SAVING) {
            return false;
        }
        let (base, per_width) = (min as f64, 1.0 / width);
        // The strip of a coordinate; monotone, so the strip of the larger
        // of two lower bounds is the larger of their strips.
        let strip = |v: f32| (((v as f64 - base) * per_width) as usize).min(strips - 1) as u32;
        self.first.clear();
        self.last.clear();
        self.count.clear();
        self.count.resize(strips, 0);
        for (&l, &h) in lo.iter().zip(hi) {
            let (f, t) = (strip(l), strip(h));
            self.first.push(f);
            self.last.push(t);
            for k in f..=t {
                self.count[k as usize] += 1;
            }
        }
        self.start.clear();
        let mut at = 0u32;
        for &k in &self.count {
            self.start.push(at);
            at += k + PAD as u32;
        }
        self.start.push(at);
        let total = at as usize;
        self.member.clear();
        self.member.resize(total, 0);
        // NaN between the strips (the padding that stops a sweep).
        let [dlo, dhi, dlo1, dhi1, dlo2, dhi2] = self.cols.sized(total, f32::NAN);
        // Fill in sort order, so each strip is sorted too; `count` is
        // rebuilt as the fill cursor.
        self.count.fill(0);
        let (member, count, start) = (&mut self.member[..total], &mut self.count[..strips], &self.start[..strips]);
        for i in 0..m {
            for k in self.first[i] as usize..=self.last[i] as usize {
                let e = (start[k] + count[k]) as usize;
                count[k] += 1;
                member[e] = i as u32;
                dlo[e] = c.lo[i];
                dhi[e] = c.hi[i];
                dlo1[e] = c.lo1[i];
                dhi1[e] = c.hi1[i];
                dlo2[e] = c.lo2[i];
                dhi2[e] = c.hi2[i];
            }
        }
        true
    }

    /// Calls `hit(i, j)` (sort-order indices, i < j) once for every pair
    /// of members whose columns overlap on all three axes, strip by strip.
    fn pairs(&self, hit: &mut impl FnMut(usize, usize)) {
        for t in 0..self.count.len() {
            let from = self.start[t] as usize;
            for e in from..from + self.count[t] as usize {
                let i = self.member[e] as usize;
                sweep_one(&self.cols, e, &mut |f| {
                    let j = self.member[f] as usize;
                    // A pair overlaps across in every strip from the one
                    // holding the larger of their lower bounds on: only
                    // that first one reports it.
                    if self.first[i].max(self.first[j]) as usize == t {
                        hit(i, j)
                    }
                });
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Random boxes as sorted, outward-rounded columns (no padding): `m`
    /// boxes of extent up to `size` in a cube of side `side`, every 50th
    /// stretched across the whole cube on the strip axis.
    fn columns(seed: u64, m: usize, side: f64, size: f64) -> Columns {
        let mut state = seed;
        let mut uniform = |lo: f64, hi: f64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            lo + (hi - lo) * ((state >> 11) as f64 / (1u64 << 53) as f64)
        };
        let mut boxes: Vec<[f64; 6]> = (0..m)
            .map(|k| {
                let mut b = [0.0; 6];
                for a in 0..3 {
                    let c = uniform(0.0, side);
                    let e = if a == 1 && k % 50 == 7 { side } else { uniform(0.0, size) };
                    b[2 * a] = c - e / 2.0;
                    b[2 * a + 1] = c + e / 2.0;
                }
                b
            })
            .collect();
        boxes.sort_by(|x, y| x[0].total_cmp(&y[0]));
        let mut c = Columns::default();
        for b in &boxes {
            c.lo.push(round_down(b[0]));
            c.hi.push(round_up(b[1]));
            c.lo1.push(round_down(b[2]));
            c.hi1.push(round_up(b[3]));
            c.lo2.push(round_down(b[4]));
            c.hi2.push(round_up(b[5]));
        }
        c
    }

    fn brute_force(c: &Columns) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for i in 0..c.lo.len() {
            for j in i + 1..c.lo.len() {
                if c.lo[j] <= c.hi[i]
                    && c.lo1[j] <= c.hi1[i]
                    && c.hi1[j] >= c.lo1[i]
                    && c.lo2[j] <= c.hi2[i]
                    && c.hi2[j] >= c.lo2[i]
                {
                    v.push((i, j));
                }
            }
        }
        v
    }

    /// The strips report every overlapping pair of a dense, wide scene
    /// exactly once (members reaching into many strips included), on
    /// either axis across, and only where they pay.
    #[test]
    fn strips_report_each_overlapping_pair_once() {
        for (seed, across) in [(1u64, 1usize), (2, 2), (3, 1)] {
            let c = columns(seed, 6000, 40.0, 2.0);
            let mut st = Strips::default();
            assert!(st.build(&c, across), "a dense 40-unit cube of 6000 boxes should use strips");
            assert!(st.count.len() >= 8, "only {} strips", st.count.len());
            let mut got = Vec::new();
            st.pairs(&mut |i, j| got.push((i.min(j), i.max(j))));
            let n = got.len();
            got.sort_unstable();
            got.dedup();
            assert_eq!(got.len(), n, "a pair reported twice");
            let want = brute_force(&c);
            assert!(want.len() > 1000, "too sparse to mean anything: {}", want.len());
            assert_eq!(got, want);
        }
        // Few members, or members crowded in a small box: no strips.
        assert!(!Strips::default().build(&columns(4, 200, 40.0, 1.5), 1));
        assert!(!Strips::default().build(&columns(5, 6000, 4.0, 2.0), 1));
    }
}
