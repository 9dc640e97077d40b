//! The multi-resolution hash space. Each enabled member goes into the
//! level whose cell size (2^level) is the smallest at least as large as
//! its AABB's largest side (clamped to the space's minimum level); members
//! above the maximum level are tested against everything. A member is
//! tested against the members sharing one of its cells at its level and
//! at every coarser level, cells and members visited in ODE's order, so
//! pairs come out in ODE's order.
//!
//! ODE chains the cells in a table indexed by a weak address (level·1000 +
//! x·100 + y·10 + z, modulo a prime), so a chain mixes many cells and most
//! of a walk is spent skipping other cells' entries (the collide bench's
//! chains were three times longer than its matches, and the skip test its
//! costliest branch). Within one cell a chain lists the cell's members
//! newest first whatever the table, so we hash the exact cell instead,
//! together with the one quirk of ODE's addressing that decides which
//! members meet (see [`wraps`]), and walk only the cell's entries.
//!
//! ODE remembers tested pairs in an n×n bit matrix. The same answers come
//! from two facts: within one member's scan a per-member stamp catches
//! repeats, and a pair met again in a later member's scan was already met
//! in the earlier member's scan exactly when both sit at the same level.
//! Buffers live in the space and are reused, so a warm pass does not
//! allocate.

use super::level::find_level;
use super::{clean, collide_aabbs, collide_no_aabbs, locked, sp, Kind, Near};
use crate::collision::geom::{g, gflags, GeomRef};

pub struct Hash {
    pub min_level: i32,
    pub max_level: i32,
    scratch: Option<Box<Scratch>>,
    /// Boxes from which the sort and sweep finds the pairs
    /// (`SWEEP_MIN_BOXES`; the tests compare it with the cell walk).
    sweep_from: usize,
}

impl Hash {
    pub fn new() -> Hash {
        Hash { min_level: -3, max_level: 10, scratch: None, sweep_from: SWEEP_MIN_BOXES }
    }
}

impl Default for Hash {
    fn default() -> Self {
        Hash::new()
    }
}

struct Cellbox {
    level: i32,
    db: [i32; 6],
    geom: GeomRef,
    /// Index of the box's first cell entry in `nodes` (its entries follow
    /// in the scan's x, y, z order).
    first_node: u32,
}

struct Node {
    next: u32,
    x: i32,
    y: i32,
    z: i32,
    /// The owner's level, so that a chain walk reads only nodes.
    level: i32,
    /// The owner's index in `boxes`, with ODE's wrap class (see [`wraps`])
    /// in the top bit.
    owner_wrap: u32,
}

#[derive(Default)]
struct Scratch {
    boxes: Vec<Cellbox>,
    big: Vec<GeomRef>,
    table: Vec<u32>,
    nodes: Vec<Node>,
    seen: Vec<u32>,
    /// The distinct levels of the hashed boxes, ascending.
    levels: Vec<i32>,
    /// Per taking-part member in list order: its index in `boxes`, or
    /// `NONE` for a big one.
    box_of_rank: Vec<u32>,
    /// `sweep_scan`'s keyed pairs, their groups' starts, and the keyed
    /// pairs by group.
    meets: Vec<Meet>,
    starts: Vec<u32>,
    sorted: Vec<Meet>,
    /// `Some(bits)` when `table` has 2^bits slots, all `NIL` (each pass
    /// resets the slots it used, instead of clearing the whole table at
    /// the start of the next).
    clean_bits: Option<u32>,
}

const NIL: u32 = u32::MAX;
/// `box_of_rank` of a member that is not hashed (a big one).
const NONE: u32 = u32::MAX;

/// ODE's bounds for cell coordinates (`dMinIntExact`, `dMaxIntExact`).
const MIN_INT_EXACT: f64 = i32::MIN as f64;
const MAX_INT_EXACT: f64 = i32::MAX as f64;

/// ODE's cell address before the z term (unsigned arithmetic).
#[inline]
fn address_base(level: i32, x: i32, y: i32) -> u64 {
    (level as u32 as u64)
        .wrapping_mul(1000)
        .wrapping_add((x as u32 as u64).wrapping_mul(100))
        .wrapping_add((y as u32 as u64).wrapping_mul(10))
}

/// ODE's wrap class of a member's column of cells at (level, x, y) whose
/// cells start at `z0`. ODE takes the table index of the first cell,
/// (base + z0) mod prime in unsigned 64-bit arithmetic, and steps it by one
/// for each further z. Where base + z0 is negative (level, x and y small
/// and non-negative, z0 below zero: near the origin) the sum wraps past
/// 2^64, so every cell of that column lands 2^64 mod prime slots away from
/// where a column starting at z ≥ 0 puts the same cell, and the two members
/// never meet there. Kept so in exact mode (restarting the index at each
/// cell made the container bench's checksum differ from Debian's): cells
/// are matched on (level, x, y, z, wrap class). The fast sort and sweep
/// finds such pairs.
#[inline]
fn wraps(level: i32, x: i32, y: i32, z0: i32) -> u32 {
    ((z0 < 0) && address_base(level, x, y) < (z0 as i64).unsigned_abs()) as u32
}

/// Number of cells a box's cell range covers (1 to 8 at its own level; 0
/// for an inverted box, min above max, whose cell loops run empty).
#[inline]
fn cell_count(db: &[i32; 6]) -> usize {
    let side = |lo: i32, hi: i32| (hi as i64 - lo as i64 + 1).max(0) as usize;
    side(db[0], db[1]) * side(db[2], db[3]) * side(db[4], db[5])
}

/// Table slot of a cell (multiplicative hashing; `shift` = 64 − log2 of
/// the table size).
#[inline(always)]
fn slot(level: i32, x: i32, y: i32, z: i32, wrap: u32, shift: u32) -> usize {
    let a = (x as u32 as u64) | ((y as u32 as u64) << 32);
    let b = (z as u32 as u64) | (((level as u32 ^ (wrap << 31)) as u64) << 32);
    let h = (a.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ b).wrapping_mul(0xff51_afd7_ed55_8ccd);
    (h >> shift) as usize
}

/// ⌊v⌋ as an integer, for v within the i32 range (checked by the caller):
/// exact, and without the library call `f64::floor` is on the x86-64
/// baseline.
#[inline(always)]
fn floor_i32(v: f64) -> i32 {
    let t = v as i32;
    if (t as f64) > v {
        t - 1
    } else {
        t
    }
}

fn hash_of(s: GeomRef) -> &'static mut Hash {
    match &mut sp(s).kind {
        Kind::Hash(h) => h,
        _ => unreachable!("not a hash space"),
    }
}

pub fn collide(s: GeomRef, cb: &mut Near) {
    if sp(s).count < 2 {
        return;
    }
    locked(s, || {
        clean(s);
        // From here on a member's box changes only if a callback
        // recomputes it (asking for a moved geom's box, say): the flag
        // tells `sweep_scan`.
        g(s).gflags &= !gflags::MEMBER_AABB_SET;
        let (min_level, max_level, sweep_from) = (hash_of(s).min_level, hash_of(s).max_level, hash_of(s).sweep_from);
        let mut sc = hash_of(s).scratch.take().unwrap_or_default();
        run(s, &mut sc, min_level, max_level, sweep_from, cb);
        if s.is_live() {
            hash_of(s).scratch = Some(sc);
        }
    })
}

fn run(s: GeomRef, sc: &mut Scratch, min_level: i32, max_level: i32, sweep_from: usize, cb: &mut Near) {
    sc.boxes.clear();
    sc.big.clear();
    sc.nodes.clear();
    sc.box_of_rank.clear();
    let mut ordered = true;
    let mut maxlevel = min_level.saturating_sub(1);
    let mut out_of_range = false;
    let mut c = sp(s).first;
    while let Some(h) = c {
        c = g(h).next;
        let geom = g(h);
        if !geom.takes_part() {
            continue;
        }
        sc.box_of_rank.push(NONE);
        let mut level = find_level(&geom.aabb);
        if level < min_level {
            level = min_level;
        }
        if level <= max_level {
            let recip = 1.0 / 2f64.powi(level);
            let mut db = [0i32; 6];
            let mut in_range = true;
            for (i, d) in db.iter_mut().enumerate() {
                let v = geom.aabb[i] * recip;
                // ODE checks the cell coordinates fit an int (and stops
                // the process otherwise); such a geom (or a NaN box) would
                // also span billions of cells. It is tested with the big
                // ones instead, after one report per pass.
                let ok = (MIN_INT_EXACT..MAX_INT_EXACT).contains(&v);
                in_range &= ok;
                *d = if ok { floor_i32(v) } else { 0 };
            }
            if in_range {
                if level > maxlevel {
                    maxlevel = level;
                }
                *sc.box_of_rank.last_mut().unwrap() = sc.boxes.len() as u32;
                let b = &geom.aabb;
                ordered &= b[0] <= b[1] && b[2] <= b[3] && b[4] <= b[5];
                sc.boxes.push(Cellbox { level, db, geom: h, first_node: 0 });
            } else {
                out_of_range = true;
                sc.big.push(h);
            }
        } else {
            sc.big.push(h);
        }
    }
    if out_of_range {
        crate::error::report(
            crate::error::Channel::Debug,
            crate::error::D_ERR_UASSERT,
            "dSpaceCollide: a geom of a hash space lies beyond the integer cell range (scene too large); tested against all others instead",
        );
    }
    let n = sc.boxes.len();
    sc.levels.clear();
    sc.levels.extend(sc.boxes.iter().map(|b| b.level));
    sc.levels.sort_unstable();
    sc.levels.dedup();

    // Many members: the pairs come from the sort and sweep, ordered as
    // the cell walk would meet them (see `sweep_scan`); the walk takes
    // over if a callback changes a member's box.
    let mut from = Resume { box_index: 0, after: None };
    let mut walk_cells = true;
    if n >= sweep_from && ordered {
        match sweep_scan(s, sc, cb) {
            None => walk_cells = false,
            Some(r) => from = r,
        }
    }
    if walk_cells {
        scan_cells(sc, maxlevel, from, cb);
    }

    for b in &sc.boxes {
        for &big in &sc.big {
            collide_aabbs(b.geom, big, cb);
        }
    }
    for i in 0..sc.big.len() {
        for j in i + 1..sc.big.len() {
            collide_aabbs(sc.big[i], sc.big[j], cb);
        }
    }
}

/// Where the cell walk starts: at box `box_index`, whose pairs up to and
/// including key `after` (if any) were already reported.
#[derive(Clone, Copy)]
struct Resume {
    box_index: usize,
    after: Option<MeetKey>,
}

/// When a box's scan meets another box: the level, the cell (in the
/// scan's x, y, z loop order) and, within the cell's chain, newest first
/// (`!other`, so that the larger index sorts first).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct MeetKey {
    level: i32,
    x: i32,
    y: i32,
    z: i32,
    other_rev: u32,
}

/// A pair as the cell walk meets it: in the scan of box `scanner` (the
/// other box is `!key.other_rev`).
#[derive(Clone, Copy)]
struct Meet {
    scanner: u32,
    key: MeetKey,
}

/// Boxes from which the sort and sweep replaces the cell walk (below, the
/// walk costs little).
const SWEEP_MIN_BOXES: usize = 64;

/// The cell walk's pairs from the sort and sweep: the walk reports a pair
/// exactly when the boxes overlap and share a cell it can meet them in
/// (overlapping boxes always share one, but ODE's wrap class can keep
/// them apart there, see [`wraps`]); it reports the pair once, in the
/// scan of the finer box (of the earlier one at one level), at the first
/// cell they share. So the overlapping pairs, each keyed by that scan and
/// that cell, sorted, are the walk's reports in its order; they are
/// tested in that order with the walk's test. Returns where the walk
/// must take over when a callback changed a member's box (the remaining
/// tests must see the new box), None when done.
fn sweep_scan(s: GeomRef, sc: &mut Scratch, cb: &mut Near) -> Option<Resume> {
    let n = sc.boxes.len();
    // Room for 16 pairs a box, reserved as the space grows: a warm pass
    // never allocates, and a pass with more pairs is left to the walk.
    let budget = (16 * n).max(1024);
    sc.meets.clear();
    sc.meets.reserve(budget);
    sc.starts.clear();
    sc.starts.resize(n + 1, 0);
    let mut overflow = false;
    {
        let Scratch { boxes, box_of_rank, meets, starts, .. } = &mut *sc;
        let mut sw = sp(s).sweep.take().unwrap_or_default();
        super::sweep::overlapping_pairs(s, &mut sw, &mut |ra, rb| {
            let (p, q) = (box_of_rank[ra as usize], box_of_rank[rb as usize]);
            if p == NONE || q == NONE {
                // A big member's pairs come after the walk.
                return;
            }
            let (bp, bq) = (&boxes[p as usize], &boxes[q as usize]);
            let p_scans = if bp.level == bq.level { p < q } else { bp.level < bq.level };
            let (scanner, other) = if p_scans { (p, q) } else { (q, p) };
            if let Some(key) = first_meeting(&boxes[scanner as usize], &boxes[other as usize], other) {
                if meets.len() == budget {
                    overflow = true;
                    return;
                }
                starts[scanner as usize + 1] += 1;
                meets.push(Meet { scanner, key });
            }
        });
        sp(s).sweep = Some(sw);
    }
    if overflow {
        return Some(Resume { box_index: 0, after: None });
    }

    // Grouped by scanning box (a counting sort), each group in key order.
    for i in 0..n {
        sc.starts[i + 1] += sc.starts[i];
    }
    sc.sorted.clear();
    sc.sorted.reserve(budget);
    sc.sorted.resize(sc.meets.len(), Meet { scanner: 0, key: MeetKey { level: 0, x: 0, y: 0, z: 0, other_rev: 0 } });
    // `starts[i]` becomes the fill cursor of group i, then its end.
    for m in &sc.meets {
        let at = &mut sc.starts[m.scanner as usize];
        sc.sorted[*at as usize] = *m;
        *at += 1;
    }
    let mut begin = 0;
    for i in 0..n {
        let end = sc.starts[i] as usize;
        sc.sorted[begin..end].sort_unstable_by_key(|m| m.key);
        begin = end;
    }

    let mut last: Option<Meet> = None;
    for m in &sc.sorted {
        if g(s).gflags & gflags::MEMBER_AABB_SET != 0 {
            // A callback changed a box: the walk tests the rest with the
            // boxes as they are now, from the last reported pair on.
            return Some(match last {
                Some(l) => Resume { box_index: l.scanner as usize, after: Some(l.key) },
                None => Resume { box_index: 0, after: None },
            });
        }
        let other = !m.key.other_rev as usize;
        collide_no_aabbs(sc.boxes[m.scanner as usize].geom, sc.boxes[other].geom, cb);
        last = Some(*m);
    }
    None
}

/// The key of the first cell in which `a`'s scan meets box `b` (index
/// `bi`), at `b`'s level (a's or coarser), or None if the wrap classes
/// keep them apart in every cell they share.
fn first_meeting(a: &Cellbox, b: &Cellbox, bi: u32) -> Option<MeetKey> {
    let level = b.level;
    // a's cells at b's level, as the walk shifts them level by level.
    let shift = (level as i64 - a.level as i64).min(31) as u32;
    let da = a.db.map(|d| d >> shift);
    let db = &b.db;
    let (x0, x1) = (da[0].max(db[0]), da[1].min(db[1]));
    let (y0, y1) = (da[2].max(db[2]), da[3].min(db[3]));
    let (z0, z1) = (da[4].max(db[4]), da[5].min(db[5]));
    if x0 > x1 || y0 > y1 || z0 > z1 {
        return None;
    }
    let key = |x, y| MeetKey { level, x, y, z: z0, other_rev: !bi };
    if da[4] >= 0 && db[4] >= 0 {
        // Neither column wraps.
        return Some(key(x0, y0));
    }
    for x in x0..x1 + 1 {
        for y in y0..y1 + 1 {
            if wraps(level, x, y, da[4]) == wraps(level, x, y, db[4]) {
                return Some(key(x, y));
            }
        }
    }
    None
}

/// The cell walk: every box's cells hashed, then each box from
/// `from.box_index` on scans its cells at its level and the coarser ones.
fn scan_cells(sc: &mut Scratch, maxlevel: i32, from: Resume, cb: &mut Near) {
    let n = sc.boxes.len();
    // A power-of-two table of at least 4 slots per cell entry, so that a
    // cell's chain rarely holds another cell's entries (with 1 slot per
    // entry half the entries a walk met were other cells', and telling
    // them apart was the scan's costliest mispredicted branch).
    let cells: usize = sc.boxes.iter().map(|b| cell_count(&b.db)).sum();
    let bits = (4 * cells.max(4)).next_power_of_two().trailing_zeros();
    let shift = 64 - bits;
    let table_shift = shift;
    if sc.clean_bits != Some(bits) {
        sc.table.clear();
        // Capacity for the worst case (8 cells per box), so that a warm
        // pass never grows the table when geoms move onto cell corners.
        sc.table.reserve((32 * n.max(4)).next_power_of_two());
        sc.table.resize(1 << bits, NIL);
    }
    // Dirty until the reset below (a callback that panics leaves it so;
    // the scratch is then dropped with it).
    sc.clean_bits = None;
    sc.seen.clear();
    sc.seen.resize(n, 0);
    // A box is never larger than a cell of its level (its largest side is
    // below 2^level), so it covers at most 2 cells per axis: 8n nodes at
    // most, reserved once so that a warm pass never grows the list.
    sc.nodes.reserve(8 * n);

    // Each cell's entries newest first, as in ODE's chains. (The cell
    // loops use half-open ranges, cheaper than inclusive ones: an upper
    // cell coordinate is at most ⌊v⌋ for some v < i32::MAX, or that
    // shifted right, so its + 1 never overflows.)
    let table = &mut sc.table[..];
    for (bi, b) in sc.boxes.iter_mut().enumerate() {
        b.first_node = sc.nodes.len() as u32;
        let db = &b.db;
        for xi in db[0]..db[1] + 1 {
            for yi in db[2]..db[3] + 1 {
                let wrap = wraps(b.level, xi, yi, db[4]);
                for zi in db[4]..db[5] + 1 {
                    let hi = slot(b.level, xi, yi, zi, wrap, shift);
                    let node = Node { next: table[hi], x: xi, y: yi, z: zi, level: b.level, owner_wrap: bi as u32 | wrap << 31 };
                    table[hi] = sc.nodes.len() as u32;
                    sc.nodes.push(node);
                }
            }
        }
    }

    let (table, nodes, boxes, seen) = (&sc.table[..], &sc.nodes[..], &sc.boxes[..], &mut sc.seen[..n]);
    for ai in from.box_index..n {
        // Pairs of a resumed box's scan up to the key already reported.
        let after = if ai == from.box_index { from.after } else { None };
        let (alevel, mut db, ag, first_node) = {
            let a = &boxes[ai];
            (a.level, a.db, a.geom, a.first_node)
        };
        let stamp = ai as u32 + 1;
        // At the member's own level a cell's chain lists the members after
        // it (newest first), then its own entry, then the members before
        // it, which were already paired with it in their own scans: the
        // walk stops at its own entry. At coarser levels it meets only
        // other members, and only a repeat (two shared cells) is skipped.
        let mut own = first_node;
        let mut level = alevel;
        loop {
            let own_level = level == alevel;
            for xi in db[0]..db[1] + 1 {
                for yi in db[2]..db[3] + 1 {
                    let wrap = wraps(level, xi, yi, db[4]);
                    for zi in db[4]..db[5] + 1 {
                        let mut ni = table[slot(level, xi, yi, zi, wrap, shift)];
                        let stop = if own_level { own } else { NIL };
                        own += own_level as u32;
                        while ni != stop {
                            let node = &nodes[ni as usize];
                            ni = node.next;
                            if node.level == level && node.x == xi && node.y == yi && node.z == zi && node.owner_wrap >> 31 == wrap {
                                let bi = (node.owner_wrap & !(1 << 31)) as usize;
                                if seen[bi] != stamp {
                                    seen[bi] = stamp;
                                    let done = after.is_some_and(|k| {
                                        MeetKey { level, x: xi, y: yi, z: zi, other_rev: !(bi as u32) } <= k
                                    });
                                    if !done {
                                        collide_aabbs(ag, boxes[bi].geom, cb);
                                    }
                                }
                            }
                        }
                    }
                }
            }
            if level >= maxlevel {
                break;
            }
            // Levels holding no box cannot match; skip to the next one that
            // does (ODE steps one level at a time, which with a box at an
            // enormous level never ends). After 31 halvings the cell
            // coordinates stay at 0 or -1, so the shift saturates there.
            let next = match sc.levels.binary_search(&(level + 1)) {
                Ok(k) | Err(k) => sc.levels.get(k).copied().unwrap_or(maxlevel),
            };
            let shift = (next as i64 - level as i64).min(31) as u32;
            level = next;
            for d in db.iter_mut() {
                *d >>= shift;
            }
        }
    }

    // Only the slots this pass used go back to NIL, for the next pass:
    // clearing the whole table (4 slots per cell) cost more than this.
    for nd in &sc.nodes {
        sc.table[slot(nd.level, nd.x, nd.y, nd.z, nd.owner_wrap >> 31, table_shift)] = NIL;
    }
    sc.clean_bits = Some(bits);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `wraps` against ODE's arithmetic: the first cell's index, stepped
    /// by one per z, lands where the cell's own address does exactly when
    /// the unsigned sum did not wrap.
    #[test]
    fn hash_wrap_class_matches_unsigned_sum() {
        let sz: u64 = 65521;
        for level in [-3, -1, 0, 1, 2, 10] {
            for x in [-2, -1, 0, 1, 3] {
                for y in [-2, -1, 0, 1, 3] {
                    for z0 in [-40, -11, -10, -3, -1, 0, 1, 5] {
                        let base = address_base(level, x, y);
                        let first = base.wrapping_add(z0 as i64 as u64) % sz;
                        for dz in 0..2u64 {
                            let z = z0 as i64 + dz as i64;
                            let stepped = (first + dz) % sz;
                            // A column that does not wrap puts the cell at (base + z)
                            // mod sz; this one does too exactly when it did not wrap.
                            if (base as i128 + z as i128) >= 0 {
                                let no_wrap = ((base as i128 + z as i128) as u64) % sz;
                                assert_eq!(stepped == no_wrap, wraps(level, x, y, z0) == 0, "{level} {x} {y} {z0} {z}");
                            }
                        }
                    }
                }
            }
        }
    }

    use crate::collision::geom::{self, class, Shape};
    use crate::collision::shapes::{BoxShape, Plane, Sphere};
    use crate::test_rng::Rng;

    /// A hash space of `n` boxes and spheres of sides 0.05-3 (levels -5
    /// to 1) around the origin, half of them below z = 0, plus clusters
    /// where ODE's wrap classes matter: level-0 boxes in the column x = y
    /// = 0 on both sides of z = 0, and level-1 boxes near z = -2000, x and
    /// y small, where the column's wrap starts. Some members are disabled,
    /// one is a plane (a big member). `levels` replaces the default levels.
    fn scene(seed: u64, n: usize, levels: Option<(i32, i32)>) -> (GeomRef, Vec<GeomRef>) {
        let s = super::super::create(None, Kind::Hash(Hash::new()));
        if let Some((lo, hi)) = levels {
            hash_of(s).min_level = lo;
            hash_of(s).max_level = hi;
        }
        let mut r = Rng(seed);
        let mut members = Vec::new();
        for i in 0..n {
            let (side, p) = match i % 13 {
                0 => (0.8, [0.1 + 0.8 * r.unit(), 0.1 + 0.8 * r.unit(), r.sym(0.5)]),
                1 => (1.2 + 0.6 * r.unit(), [0.2 + 1.6 * r.unit(), 0.2 + 1.6 * r.unit(), -2000.0 + r.sym(2.0)]),
                _ => (0.05 + 3.0 * r.unit() * r.unit(), [r.sym(6.0), r.sym(6.0), r.sym(4.0)]),
            };
            let h = if i % 3 == 0 {
                geom::create(Some(s), true, class::SPHERE, Shape::Sphere(Sphere { radius: 0.5 * side }))
            } else {
                let sides = [side, side * (0.5 + 0.5 * r.unit()), side * (0.5 + 0.5 * r.unit())];
                geom::create(Some(s), true, class::BOX, Shape::Box(BoxShape { sides }))
            };
            geom::set_position(h, p);
            if i % 29 == 5 {
                g(h).gflags &= !gflags::ENABLED;
            }
            members.push(h);
        }
        geom::create(Some(s), false, class::PLANE, Shape::Plane(Plane { n: [0.0, 0.0, 1.0], d: -2.5 }));
        (s, members)
    }

    /// The pairs a pass reports, in order, with the sort and sweep from
    /// `sweep_from` members on (`usize::MAX`: the cell walk only);
    /// `during` runs in the callback after each pair.
    fn pass(s: GeomRef, sweep_from: usize, during: &mut dyn FnMut(usize)) -> Vec<(usize, usize)> {
        hash_of(s).sweep_from = sweep_from;
        let mut out = Vec::new();
        collide(s, &mut |a, b| {
            out.push((a.as_raw() as usize, b.as_raw() as usize));
            during(out.len());
        });
        out
    }

    /// The sort and sweep reports the cell walk's pairs in the walk's
    /// order (pair orientation included), on scenes with several levels,
    /// wrapped columns, disabled and big members; also on a second pass
    /// (the sweep's kept sort) and with levels that make the largest
    /// boxes big.
    #[test]
    fn sweep_pairs_come_in_the_cell_walks_order() {
        for seed in 1..=6u64 {
            for levels in [None, Some((-1, 1))] {
                let (s, _) = scene(seed, 400, levels);
                let walk = pass(s, usize::MAX, &mut |_| {});
                assert!(walk.len() > 300, "seed {seed}: {} pairs", walk.len());
                for _ in 0..2 {
                    assert!(pass(s, SWEEP_MIN_BOXES, &mut |_| {}) == walk, "seed {seed} levels {levels:?}");
                }
                geom::destroy(s);
            }
        }
    }

    /// A pass with more overlapping pairs than the sort and sweep has room
    /// for (16 a box) is left to the cell walk: the same pairs.
    #[test]
    fn a_pass_with_more_pairs_than_room_is_walked() {
        let s = super::super::create(None, Kind::Hash(Hash::new()));
        let mut r = Rng(7);
        for _ in 0..120 {
            let h = geom::create(Some(s), true, class::SPHERE, Shape::Sphere(Sphere { radius: 0.5 }));
            geom::set_position(h, [r.sym(0.3), r.sym(0.3), r.sym(0.3)]);
        }
        let walk = pass(s, usize::MAX, &mut |_| {});
        assert!(walk.len() > 16 * 120, "{} pairs", walk.len());
        assert!(pass(s, SWEEP_MIN_BOXES, &mut |_| {}) == walk);
        geom::destroy(s);
    }

    /// A callback that moves members of the space it is called for and
    /// asks for their boxes (reported as a usage error, then carried out,
    /// as ODE carries it out when the debug handler returns) changes the
    /// answers of the pairs tested after it: the sort and sweep hands the
    /// rest of the pass to the cell walk, which reports what the walk
    /// alone reports.
    #[test]
    fn a_callback_moving_members_hands_the_pass_to_the_cell_walk() {
        for (seed, every) in [(11u64, 5usize), (12, 1), (13, 40)] {
            let run = |sweep_from: usize, moving: bool| {
                let (s, members) = scene(seed, 300, None);
                let n = members.len();
                let mut r = Rng(seed ^ 0x5eed);
                let pairs = pass(s, sweep_from, &mut |k| {
                    if moving && k % every == 0 {
                        let (m, to) = (members[(k * 37) % n], members[(k * 53 + 11) % n]);
                        let t = geom::position(to);
                        geom::set_position(m, [t[0] + r.sym(0.6), t[1] + r.sym(0.6), t[2] + r.sym(0.6)]);
                        geom::recompute_aabb(m);
                    }
                });
                geom::destroy(s);
                // Scenes built anew get other handles: compare indices.
                let index = |h: usize| members.iter().position(|m| m.as_raw() as usize == h).unwrap_or(n);
                pairs.iter().map(|&(a, b)| (index(a), index(b))).collect::<Vec<_>>()
            };
            let walk = run(usize::MAX, true);
            assert!(walk != run(usize::MAX, false), "seed {seed}: the moves changed nothing");
            assert!(run(SWEEP_MIN_BOXES, true) == walk, "seed {seed}");
        }
    }

    #[test]
    fn hash_floor_i32_equals_floor() {
        for v in [-2.5, -2.0, -1.5, -1.0, -0.5, -0.0, 0.0, 0.25, 1.0, 1.75, -1e-300, 2147483646.5, -2147483648.0, -2147483647.5] {
            assert_eq!(floor_i32(v), v.floor() as i32, "{v}");
        }
    }
}
