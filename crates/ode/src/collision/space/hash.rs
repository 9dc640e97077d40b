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

use super::{clean, collide_aabbs, locked, sp, Kind, Near};
use crate::collision::geom::{g, GeomRef};

pub struct Hash {
    pub min_level: i32,
    pub max_level: i32,
    scratch: Option<Box<Scratch>>,
}

impl Hash {
    pub fn new() -> Hash {
        Hash { min_level: -3, max_level: 10, scratch: None }
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
    /// `Some(bits)` when `table` has 2^bits slots, all `NIL` (each pass
    /// resets the slots it used, instead of clearing the whole table at
    /// the start of the next).
    clean_bits: Option<u32>,
}

const NIL: u32 = u32::MAX;

/// ODE's bounds for cell coordinates (`dMinIntExact`, `dMaxIntExact`).
const MIN_INT_EXACT: f64 = i32::MIN as f64;
const MAX_INT_EXACT: f64 = i32::MAX as f64;

/// Exponent e with q = m·2^e, m in [0.5, 1) (C's frexp; 0 for 0 and NaN).
pub fn frexp_exp(q: f64) -> i32 {
    if q == 0.0 || !q.is_finite() {
        return 0;
    }
    let bits = q.to_bits();
    let e = ((bits >> 52) & 0x7ff) as i32;
    if e == 0 {
        // Subnormal: scale into the normal range first.
        return frexp_exp(q * 2f64.powi(64)) - 64;
    }
    e - 1022
}

/// Level of an AABB: i32::MAX for unbounded boxes (and sides that do not
/// fit a double), else the exponent of its largest side.
pub fn find_level(b: &[f64; 6]) -> i32 {
    let inf = f64::INFINITY;
    if b[0] <= -inf || b[1] >= inf || b[2] <= -inf || b[3] >= inf || b[4] <= -inf || b[5] >= inf {
        return i32::MAX;
    }
    let mut q = b[1] - b[0];
    let q2 = b[3] - b[2];
    if q2 > q {
        q = q2;
    }
    let q2 = b[5] - b[4];
    if q2 > q {
        q = q2;
    }
    if !q.is_finite() {
        // Sides too far apart for a double (or a NaN bound): ODE's frexp
        // would give level 0 and billions of cells; it is a big box.
        return i32::MAX;
    }
    frexp_exp(q)
}

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
        let (min_level, max_level) = (hash_of(s).min_level, hash_of(s).max_level);
        let mut sc = hash_of(s).scratch.take().unwrap_or_default();
        run(s, &mut sc, min_level, max_level, cb);
        if s.is_live() {
            hash_of(s).scratch = Some(sc);
        }
    })
}

fn run(s: GeomRef, sc: &mut Scratch, min_level: i32, max_level: i32, cb: &mut Near) {
    sc.boxes.clear();
    sc.big.clear();
    sc.nodes.clear();
    let mut maxlevel = min_level.saturating_sub(1);
    let mut out_of_range = false;
    let mut c = sp(s).first;
    while let Some(h) = c {
        c = g(h).next;
        let geom = g(h);
        if !geom.takes_part() {
            continue;
        }
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
    for ai in 0..n {
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
                                    collide_aabbs(ag, boxes[bi].geom, cb);
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

    #[test]
    fn hash_floor_i32_equals_floor() {
        for v in [-2.5, -2.0, -1.5, -1.0, -0.5, -0.0, 0.0, 0.25, 1.0, 1.75, -1e-300, 2147483646.5, -2147483648.0, -2147483647.5] {
            assert_eq!(floor_i32(v), v.floor() as i32, "{v}");
        }
    }
}
