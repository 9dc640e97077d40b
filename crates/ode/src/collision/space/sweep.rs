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

use super::{clean_member, collide_aabbs, collide_no_aabbs, locked, sp, Near};
use crate::collision::geom::{g, GeomRef};

/// One member in sort order: its lower bound on the sweep axis. (The
/// pair orientation's `key` is computed only for pairs whose boxes
/// overlap, a fraction of the members.)
#[derive(Clone, Copy)]
struct Rec {
    lo: f64,
    geom: GeomRef,
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
        Some((min, max)) => super::level::find_level(&g(h).aabb).max(min).min(max.saturating_add(1)),
    };
    (((level as i64 - i32::MIN as i64) as u64) << 32) | rank as u64
}

/// The sorted members' bounds as single-precision columns: four
/// candidates are rejected per SSE comparison, and the double-precision
/// test decides the rest exactly. The conversion rounds to nearest, which
/// is monotone (x <= y gives x as f32 <= y as f32), so every pair of
/// boxes that overlaps in double precision overlaps in the columns too
/// (ties may add candidates, never lose one), and columns built in the
/// order of the double lower bounds are sorted. Each column ends with
/// `PAD` NaN entries, which fail every comparison and so stop a sweep
/// without a bound check.
#[derive(Default)]
struct Columns {
    lo: Vec<f32>,
    hi: Vec<f32>,
    lo1: Vec<f32>,
    hi1: Vec<f32>,
    lo2: Vec<f32>,
    hi2: Vec<f32>,
}

/// (8: the AVX scan reads blocks of 8.)
const PAD: usize = 8;

impl Columns {
    /// The six columns' first `len` entries, as lo, hi, lo1, hi1, lo2,
    /// hi2; the columns only grow, and entries keep what the last pass
    /// wrote (no clearing fill: the callers write every entry a scan
    /// reads).
    fn at_least(&mut self, len: usize) -> [&mut [f32]; 6] {
        [&mut self.lo, &mut self.hi, &mut self.lo1, &mut self.hi1, &mut self.lo2, &mut self.hi2].map(|col| {
            if col.len() < len {
                col.resize(len, f32::NAN);
            }
            &mut col[..len]
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
    /// Candidate pairs of a scan (column indices), reported after it.
    hits: Vec<(u32, u32)>,
    /// Per member in sort order: its `key`, or `NO_KEY` until needed.
    keys: Vec<u64>,
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
        // (The members' AABBs are refreshed in the first walk of `run`.)
        let mut sw = sp(s).sweep.take().unwrap_or_default();
        run(s, &mut sw, cb);
        if s.is_live() {
            sp(s).sweep = Some(sw);
        }
    })
}

fn run(s: GeomRef, sw: &mut Sweep, cb: &mut Near) {
    let levels = match &sp(s).kind {
        super::Kind::Hash(x) => Some((x.min_level, x.max_level)),
        _ => None,
    };
    candidates(s, sw, levels, &mut |recs, keys, i, j| report(recs, keys, i, j, levels, cb));
    let (recs, keys) = (&sw.recs[..], &mut sw.keys[..]);
    if !sw.big.is_empty() {
        for (i, r) in recs.iter().enumerate() {
            for &(big, big_key) in &sw.big {
                report_keyed(r.geom, key_at(recs, keys, i, levels), big, big_key, cb);
            }
        }
    }
    for i in 0..sw.big.len() {
        for j in i + 1..sw.big.len() {
            // In list order, as the hash space's big list.
            collide_aabbs(sw.big[i].0, sw.big[j].0, cb);
        }
    }
}

/// The exact hash space's candidates (`hash`): every pair of members
/// with finite boxes that overlap (`collide_aabbs`' box test), handed to
/// `pair` as the members' ranks among the taking-part members in list
/// order, in no particular order. Members with a non-finite bound are left out (the
/// hash space tests its big members itself). Refreshes the members as a
/// pass does, and keeps the sort for the next pass of either mode.
pub(super) fn overlapping_pairs(s: GeomRef, sw: &mut Sweep, pair: &mut impl FnMut(u32, u32)) {
    candidates(s, sw, None, &mut |recs, _, i, j| {
        let (a, b) = (g(recs[i].geom), g(recs[j].geom));
        if super::aabbs_overlap(&a.aabb, &b.aabb) {
            pair(a.slot2 as u32, b.slot2 as u32);
        }
    });
}

/// Steps 1-5 of a pass: the members refreshed, listed and sorted, and
/// every candidate pair `(i, j)` (indices in the sort order of the
/// members, `sw.recs`) whose single-precision boxes overlap handed to
/// `hit` with the members and their key cache. Members with a
/// non-finite bound are left in `sw.big`.
fn candidates(
    s: GeomRef,
    sw: &mut Sweep,
    levels: Option<(i32, i32)>,
    hit: &mut impl FnMut(&[Rec], &mut [u64], usize, usize),
) {
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
    let mut rank = 0u32;
    let mut finite = 0usize;
    let mut c = sp(s).first;
    while let Some(h) = c {
        // The space's clean (`space::clean`), member by member, fused
        // with this walk: one pass over the list instead of two.
        clean_member(h);
        let geom = g(h);
        c = geom.next;
        if !geom.takes_part() {
            continue;
        }
        // The list position, for `key` (slot2 is free in list spaces).
        geom.slot2 = rank as i32;
        rank += 1;
        let b = &geom.aabb;
        // All six bounds finite: v·0 is NaN for an infinite or NaN v, ±0
        // otherwise (one sum instead of six tests and branches).
        if b[0] * 0.0 + b[1] * 0.0 + b[2] * 0.0 + b[3] * 0.0 + b[4] * 0.0 + b[5] * 0.0 == 0.0 {
            geom.slot = listed;
            finite += 1;
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
    let rec_of = |h: GeomRef| Rec { lo: g(h).aabb[2 * axis], geom: h };

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
    // New members (none when every listed one was placed above).
    let mut c = if sw.next.len() < finite { sp(s).first } else { None };
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
    let [lo, hi, lo1, hi1, lo2, hi2] = cols.at_least(m + PAD);
    // The padding after the members, for the single sweep.
    lo[m..].fill(f32::NAN);
    // Re-sliced to m so that the writes below need no bounds checks.
    let [lo, hi, lo1, hi1, lo2, hi2] = [lo, hi, lo1, hi1, lo2, hi2].map(|c| &mut c[..m]);
    for (i, r) in recs.iter().enumerate() {
        let b = &g(r.geom).aabb;
        lo[i] = b[2 * axis] as f32;
        hi[i] = b[2 * axis + 1] as f32;
        lo1[i] = b[2 * a1] as f32;
        hi1[i] = b[2 * a1 + 1] as f32;
        lo2[i] = b[2 * a2] as f32;
        hi2[i] = b[2 * a2 + 1] as f32;
    }
    // The strip axis: the other axis along which the centres spread more.
    let var = |k: usize| if n < 2.0 { 0.0 } else { sq[k] - sum[k] * sum[k] / n };
    let across = if var(a2) > var(a1) { 2 } else { 1 };
    let hits = &mut sw.hits;
    let keys = &mut sw.keys;
    keys.clear();
    keys.resize(m, NO_KEY);
    // Room for a batch and one more member's candidates (at most m), so
    // the scans never grow it once warm.
    hits.clear();
    hits.reserve(HIT_BATCH + m + PAD);
    if sw.strips.build(cols, m, across) {
        sw.strips.pairs(hits, &mut |i, j| hit(recs, keys, i, j));
    } else {
        let mut from = 0;
        while from < m {
            hits.clear();
            from = scan_range(cols, from, m, hits);
            for &(i, j) in hits.iter() {
                hit(recs, keys, i as usize, j as usize);
            }
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
    /// Per member: the strips holding its lower and upper bounds across.
    first: Vec<u32>,
    last: Vec<u32>,
    /// Per strip: its first entry; one more at the end.
    start: Vec<u32>,
    /// Per strip: the end of its entries (while building: its number of
    /// members, then the fill cursor).
    end: Vec<u32>,
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
    /// Cuts the `m` sorted members (the first `m` entries of `c`) into
    /// strips across axis `across` (1 or 2); false (nothing built) when
    /// strips would not pay: few members, or members that do not spread
    /// across several strips of twice their mean extent.
    fn build(&mut self, c: &Columns, m: usize, across: usize) -> bool {
        if m < STRIP_MIN_MEMBERS {
            return false;
        }
        let (lo, hi) = if across == 1 { (&c.lo1[..m], &c.hi1[..m]) } else { (&c.lo2[..m], &c.hi2[..m]) };
        let (along_lo, along_hi) = (&c.lo[..m], &c.hi[..m]);
        // Extents and ranges along the sweep axis and across (f32 sums are
        // plenty for an estimate). Plain comparisons: the columns hold no
        // NaN (finite members only).
        let (mut min, mut max, mut extent) = (f32::INFINITY, f32::NEG_INFINITY, 0.0f32);
        let (mut top, mut extent_along) = (f32::NEG_INFINITY, 0.0f32);
        for i in 0..m {
            let (l, h) = (lo[i], hi[i]);
            if l < min {
                min = l;
            }
            if h > max {
                max = h;
            }
            extent += h - l;
            let (al, ah) = (along_lo[i], along_hi[i]);
            if ah > top {
                top = ah;
            }
            extent_along += ah - al;
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
        let strip = |v: f32| {
            let x = (v as f64 - base) * per_width;
            // SAFETY: v is a finite column value in [min, max], so x is in
            // [0, strips] up to rounding: finite and in range of u32.
            let k: u32 = unsafe { x.to_int_unchecked() };
            k.min(strips as u32 - 1)
        };
        // (Every entry of `first`, `last`, `member` and the columns that
        // is read is written below: they only grow, without a fill.)
        grow(&mut self.first, m);
        grow(&mut self.last, m);
        self.end.clear();
        self.end.resize(strips, 0);
        let (first, last, end) = (&mut self.first[..m], &mut self.last[..m], &mut self.end[..strips]);
        // Strip sizes (most members lie in one strip, some in two).
        for i in 0..m {
            let (f, t) = (strip(lo[i]), strip(hi[i]));
            first[i] = f;
            last[i] = t;
            end[f as usize] += 1;
            // (Most members lie in one strip.)
            for k in f as usize + 1..t as usize + 1 {
                end[k] += 1;
            }
        }
        self.start.clear();
        let mut at = 0u32;
        for k in end.iter_mut() {
            self.start.push(at);
            let size = *k;
            // `end` becomes the fill cursor: the strip's first entry.
            *k = at;
            at += size + PAD as u32;
        }
        self.start.push(at);
        let total = at as usize;
        grow(&mut self.member, total);
        let [dlo, dhi, dlo1, dhi1, dlo2, dhi2] = self.cols.at_least(total);
        // Fill in sort order, so each strip is sorted too; each strip's
        // cursor ends at the end of its entries.
        let member = &mut self.member[..total];
        let src = [&c.lo[..m], &c.hi[..m], &c.lo1[..m], &c.hi1[..m], &c.lo2[..m], &c.hi2[..m]];
        for i in 0..m {
            let v = src.map(|col| col[i]);
            for k in first[i] as usize..last[i] as usize + 1 {
                let e = end[k] as usize;
                end[k] += 1;
                assert!(e < total);
                // SAFETY: just checked (the compiler does not see that the
                // six columns and `member` are all `total` long).
                unsafe {
                    *member.get_unchecked_mut(e) = i as u32;
                    *dlo.get_unchecked_mut(e) = v[0];
                    *dhi.get_unchecked_mut(e) = v[1];
                    *dlo1.get_unchecked_mut(e) = v[2];
                    *dhi1.get_unchecked_mut(e) = v[3];
                    *dlo2.get_unchecked_mut(e) = v[4];
                    *dhi2.get_unchecked_mut(e) = v[5];
                }
            }
        }
        // NaN lower bounds between the strips: the padding that stops a
        // sweep (the scan's mask needs the lower bound to pass, so the
        // other columns' padding is never used).
        for &e in end.iter() {
            dlo[e as usize..e as usize + PAD].fill(f32::NAN);
        }
        true
    }

    /// Calls `hit(i, j)` (sort-order indices, i < j) once for every pair
    /// of members whose columns overlap on all three axes, strip by strip
    /// (`hits`: scratch, with room for `HIT_BATCH` plus a strip).
    fn pairs(&self, hits: &mut Vec<(u32, u32)>, hit: &mut impl FnMut(usize, usize)) {
        for t in 0..self.end.len() {
            let (mut from, to) = (self.start[t] as usize, self.end[t] as usize);
            while from < to {
                hits.clear();
                from = scan_range(&self.cols, from, to, hits);
                for &(e, f) in hits.iter() {
                    let (i, j) = (self.member[e as usize] as usize, self.member[f as usize] as usize);
                    // A pair overlaps across in every strip from the one
                    // holding the larger of their lower bounds on: only
                    // that first one reports it.
                    if self.first[i].max(self.first[j]) as usize == t {
                        hit(i, j)
                    }
                }
            }
        }
    }
}

/// `keys` entry not computed yet (no key is all ones: ranks are below
/// the number of geoms).
const NO_KEY: u64 = u64::MAX;

/// The key of member `i` (sort order), computed once a pass.
#[inline]
fn key_at(recs: &[Rec], keys: &mut [u64], i: usize, levels: Option<(i32, i32)>) -> u64 {
    if keys[i] == NO_KEY {
        let h = recs[i].geom;
        keys[i] = key(h, g(h).slot2 as u32, levels);
    }
    keys[i]
}

/// The pair test (`collide_aabbs`) of members `i` and `j` (sort order)
/// with the pair in the exact traversal's orientation. The AABB test is
/// symmetric, so it comes first, and keys are computed only for members
/// of overlapping boxes.
#[inline]
fn report(recs: &[Rec], keys: &mut [u64], i: usize, j: usize, levels: Option<(i32, i32)>, cb: &mut Near) {
    let (a, b) = (recs[i].geom, recs[j].geom);
    if !super::aabbs_overlap(&g(a).aabb, &g(b).aabb) {
        return;
    }
    let (ka, kb) = (key_at(recs, keys, i, levels), key_at(recs, keys, j, levels));
    if ka <= kb {
        collide_no_aabbs(a, b, cb)
    } else {
        collide_no_aabbs(b, a, cb)
    }
}

/// The pair test with the pair ordered by the given keys.
#[inline]
fn report_keyed(a: GeomRef, ka: u64, b: GeomRef, kb: u64, cb: &mut Near) {
    if ka <= kb {
        collide_aabbs(a, b, cb)
    } else {
        collide_aabbs(b, a, cb)
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

/// `v` grown to at least `len` entries (never shrunk, no clearing fill),
/// for buffers whose entries are written before they are read.
fn grow(v: &mut Vec<u32>, len: usize) {
    if v.len() < len {
        v.resize(len, 0);
    }
}

/// Scans are reported in batches of about this many candidate pairs.
const HIT_BATCH: usize = 1024;

/// For members `from..to` of the columns (each followed, at the latest at
/// `to`, by padding), appends `(i, j)` for every later member `j` whose
/// columns overlap those of `i` on all three axes, in order; stops after
/// the member that brings `hits` to `HIT_BATCH` and returns the next one.
/// `hits` must have room for that (a batch and one member's candidates).
#[cfg(target_arch = "x86_64")]
fn scan_range(c: &Columns, from: usize, to: usize, hits: &mut Vec<(u32, u32)>) -> usize {
    assert!(to < c.lo.len() && [c.hi.len(), c.lo1.len(), c.hi1.len(), c.lo2.len(), c.hi2.len()] == [c.lo.len(); 5]);
    // SAFETY: the column lengths are checked above; AVX just now (the
    // check is a cached flag).
    unsafe {
        if std::arch::is_x86_feature_detected!("avx") {
            scan_range_avx(c, from, to, hits)
        } else {
            scan_range_sse(c, from, to, hits)
        }
    }
}

/// The scan of `scan_range`, with `$w`-lane vectors (the same candidates
/// in the same order for any width: within a block, a lane past the
/// query's upper bound is followed by such lanes only).
///
/// # Safety
/// The columns are of one length, `to` is below it, and the padding
/// entries (NaN lower bounds, `PAD` >= `$w`) follow `to` and every
/// strip end before it: the scan of member i reads `$w` entries at a time
/// from i + 1 on and stops at the first block holding padding.
macro_rules! scan_body {
    ($c:ident, $from:ident, $to:ident, $hits:ident, $w:expr, $set1:ident, $load:ident, $le:expr, $and:ident, $mask:ident) => {{
        let c = $c;
        let (lo, hi, lo1, hi1, lo2, hi2) =
            (c.lo.as_ptr(), c.hi.as_ptr(), c.lo1.as_ptr(), c.hi1.as_ptr(), c.lo2.as_ptr(), c.hi2.as_ptr());
        let full = (1i32 << $w) - 1;
        let mut i = $from;
        while i < $to {
            let q_hi = $set1(*hi.add(i));
            let (q_lo1, q_hi1) = ($set1(*lo1.add(i)), $set1(*hi1.add(i)));
            let (q_lo2, q_hi2) = ($set1(*lo2.add(i)), $set1(*hi2.add(i)));
            let mut k = i + 1;
            loop {
                let on_axis = $le($load(lo.add(k)), q_hi);
                let a = $and($le($load(lo1.add(k)), q_hi1), $le(q_lo1, $load(hi1.add(k))));
                let b = $and($le($load(lo2.add(k)), q_hi2), $le(q_lo2, $load(hi2.add(k))));
                let axis_bits = $mask(on_axis);
                let mut m = $mask($and(on_axis, $and(a, b)));
                while m != 0 {
                    $hits.push((i as u32, (k + m.trailing_zeros() as usize) as u32));
                    m &= m - 1;
                }
                // Sorted lower bounds: once one lane is past `hi` (or is
                // padding), every later member is.
                if axis_bits != full {
                    break;
                }
                k += $w;
            }
            i += 1;
            if $hits.len() >= HIT_BATCH {
                break;
            }
        }
        i
    }};
}

/// `scan_range` with SSE (part of the x86-64 baseline), 4 lanes.
#[cfg(target_arch = "x86_64")]
unsafe fn scan_range_sse(c: &Columns, from: usize, to: usize, hits: &mut Vec<(u32, u32)>) -> usize {
    use std::arch::x86_64::*;
    scan_body!(c, from, to, hits, 4, _mm_set1_ps, _mm_loadu_ps, _mm_cmple_ps, _mm_and_ps, _mm_movemask_ps)
}

/// `scan_range` with AVX, 8 lanes: most scans end in their first block
/// (about 5 candidates on the sweep axis in the collide bench), and the
/// query's broadcasts are single instructions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn scan_range_avx(c: &Columns, from: usize, to: usize, hits: &mut Vec<(u32, u32)>) -> usize {
    use std::arch::x86_64::*;
    // Ordered, quiet: false for NaN, as `_mm_cmple_ps`.
    let le = |a, b| _mm256_cmp_ps::<_CMP_LE_OQ>(a, b);
    scan_body!(c, from, to, hits, 8, _mm256_set1_ps, _mm256_loadu_ps, le, _mm256_and_ps, _mm256_movemask_ps)
}

#[cfg(not(target_arch = "x86_64"))]
fn scan_range(c: &Columns, from: usize, to: usize, hits: &mut Vec<(u32, u32)>) -> usize {
    let mut i = from;
    while i < to {
        let mut j = i + 1;
        // Padding (NaN) fails the first test.
        while c.lo[j] <= c.hi[i] {
            if c.lo1[j] <= c.hi1[i] && c.hi1[j] >= c.lo1[i] && c.lo2[j] <= c.hi2[i] && c.hi2[j] >= c.lo2[i] {
                hits.push((i as u32, j as u32));
            }
            j += 1;
        }
        i += 1;
        if hits.len() >= HIT_BATCH {
            break;
        }
    }
    i
}

/// Sorts by `lo` by insertion; gives up (false, partly sorted) after about
/// 8 moves per element, when a full sort is cheaper.
fn insertion_sort(v: &mut [Rec]) -> bool {
    let mut budget = 8 * v.len() + 64;
    for i in 1..v.len() {
        let x = v[i];
        if v[i - 1].lo <= x.lo {
            // In place already (most members, most passes).
            continue;
        }
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
            c.lo.push(b[0] as f32);
            c.hi.push(b[1] as f32);
            c.lo1.push(b[2] as f32);
            c.hi1.push(b[3] as f32);
            c.lo2.push(b[4] as f32);
            c.hi2.push(b[5] as f32);
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

    /// Columns converted to nearest single precision lose no pair whose
    /// double-precision boxes overlap, however close the bounds (touching
    /// boxes, gaps below single precision's resolution), and the batched
    /// scans give exactly the column overlaps, in order, across many
    /// batches.
    #[test]
    fn scans_keep_every_double_overlap_across_batches() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut uniform = |lo: f64, hi: f64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            lo + (hi - lo) * ((state >> 11) as f64 / (1u64 << 53) as f64)
        };
        let m = 1200;
        let mut boxes: Vec<[f64; 6]> = Vec::with_capacity(m);
        for k in 0..m {
            let mut b = [0.0; 6];
            for a in 0..3 {
                b[2 * a] = uniform(0.0, 6.0);
                b[2 * a + 1] = b[2 * a] + uniform(0.05, 1.5);
            }
            if k > 0 {
                // Against an earlier box on one axis: touching exactly, a
                // gap of 1e-12 (no overlap, same single-precision bound)
                // or an overlap of 1e-12.
                let (o, a) = (k * 7 % k, k % 3);
                let nudge = [0.0, 1e-12, -1e-12][k % 3];
                for e in 0..3 {
                    let w = b[2 * e + 1] - b[2 * e];
                    // Beside the earlier box on the other axes.
                    b[2 * e] = if e == a { boxes[o][2 * e + 1] + nudge } else { boxes[o][2 * e] + uniform(-0.02, 0.02) };
                    b[2 * e + 1] = b[2 * e] + w;
                }
            }
            boxes.push(b);
        }
        boxes.sort_by(|x, y| x[0].total_cmp(&y[0]));
        let mut c = Columns::default();
        for b in &boxes {
            for (col, v) in [&mut c.lo, &mut c.hi, &mut c.lo1, &mut c.hi1, &mut c.lo2, &mut c.hi2].into_iter().zip(b) {
                col.push(*v as f32);
            }
        }
        let want_f32 = brute_force(&c);
        for col in [&mut c.lo, &mut c.hi, &mut c.lo1, &mut c.hi1, &mut c.lo2, &mut c.hi2] {
            col.extend_from_slice(&[f32::NAN; PAD]);
        }
        // Every scan this machine has: the dispatching one, and on x86-64
        // the SSE one (the AVX one is what `scan_range` picks where it can).
        let scans: Vec<(&str, fn(&Columns, usize, usize, &mut Vec<(u32, u32)>) -> usize)> = vec![
            ("scan_range", scan_range),
            #[cfg(target_arch = "x86_64")]
            ("sse", |c, f, t, h| {
                assert!(t < c.lo.len() && [c.hi.len(), c.lo1.len(), c.hi1.len(), c.lo2.len(), c.hi2.len()] == [c.lo.len(); 5]);
                // SAFETY: lengths checked; padding after `to`.
                unsafe { scan_range_sse(c, f, t, h) }
            }),
        ];
        let mut got = Vec::new();
        for (name, scan) in scans {
            let (mut hits, mut from, mut batches) = (Vec::with_capacity(HIT_BATCH + m + PAD), 0, 0);
            got.clear();
            while from < m {
                hits.clear();
                from = scan(&c, from, m, &mut hits);
                got.extend(hits.iter().map(|&(i, j)| (i as usize, j as usize)));
                batches += 1;
            }
            assert!(batches >= 4, "{name}: only {batches} batches");
            assert_eq!(got, want_f32, "{name}: the scans differ from the columns' brute force");
        }
        let got: std::collections::HashSet<_> = got.into_iter().collect();
        let (mut overlapping, mut touching) = (0, 0);
        for i in 0..m {
            for j in i + 1..m {
                let (x, y) = (&boxes[i], &boxes[j]);
                if (0..3).all(|a| x[2 * a] <= y[2 * a + 1] && y[2 * a] <= x[2 * a + 1]) {
                    overlapping += 1;
                    touching += (0..3).any(|a| x[2 * a] == y[2 * a + 1] || y[2 * a] == x[2 * a + 1]) as usize;
                    assert!(got.contains(&(i, j)), "boxes {i} and {j} overlap but were not scanned: {x:?} {y:?}");
                }
            }
        }
        assert!(overlapping > 4 * HIT_BATCH && touching > 20, "{overlapping} overlaps, {touching} touching");
    }

    /// The strips report every overlapping pair of a dense, wide scene
    /// exactly once (members reaching into many strips included), on
    /// either axis across, and only where they pay.
    #[test]
    fn strips_report_each_overlapping_pair_once() {
        for (seed, across) in [(1u64, 1usize), (2, 2), (3, 1)] {
            let c = columns(seed, 6000, 40.0, 2.0);
            let mut st = Strips::default();
            assert!(st.build(&c, c.lo.len(), across), "a dense 40-unit cube of 6000 boxes should use strips");
            assert!(st.end.len() >= 8, "only {} strips", st.end.len());
            let mut got = Vec::new();
            let mut hits = Vec::new();
            st.pairs(&mut hits, &mut |i, j| got.push((i.min(j), i.max(j))));
            let n = got.len();
            got.sort_unstable();
            got.dedup();
            assert_eq!(got.len(), n, "a pair reported twice");
            let want = brute_force(&c);
            assert!(want.len() > 1000, "too sparse to mean anything: {}", want.len());
            assert_eq!(got, want);
        }
        // Few members, or members crowded in a small box: no strips.
        for (c, label) in [(columns(4, 200, 40.0, 1.5), "few"), (columns(5, 6000, 4.0, 2.0), "crowded")] {
            assert!(!Strips::default().build(&c, c.lo.len(), 1), "{label} members should not use strips");
        }
    }
}
