//! The multi-resolution hash space. Each enabled member goes into the
//! level whose cell size (2^level) is the smallest at least as large as
//! its AABB's largest side (clamped to the space's minimum level); members
//! above the maximum level are tested against everything. A member is
//! tested against the members sharing one of its cells at its level and
//! at every coarser level. The table layout, hashing and traversal follow
//! ODE's, so pairs come out in ODE's order.
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
}

struct Node {
    next: u32,
    x: i32,
    y: i32,
    z: i32,
    /// The owner's level, so that a chain walk reads only nodes.
    level: i32,
    owner: u32,
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
}

const NIL: u32 = u32::MAX;

/// ODE's bounds for cell coordinates (`dMinIntExact`, `dMaxIntExact`).
const MIN_INT_EXACT: f64 = i32::MIN as f64;
const MAX_INT_EXACT: f64 = i32::MAX as f64;

/// prime[i]: the largest prime below 2^i (ODE's table sizes).
const PRIMES: [u64; 31] = [
    1, 2, 3, 7, 13, 31, 61, 127, 251, 509, 1021, 2039, 4093, 8191, 16381, 32749, 65521, 131071, 262139, 524287,
    1048573, 2097143, 4194301, 8388593, 16777213, 33554393, 67108859, 134217689, 268435399, 536870909, 1073741789,
];

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

/// ODE's cell address before the z term (unsigned arithmetic). Along z the
/// table index steps by one from the first cell's, as in ODE, also where
/// the unsigned address wraps (z = -1 to 0 near the origin), so a geom
/// whose cells start at z = 0 does not meet one whose cells start at
/// z = -1 in the z = 0 cell there. Kept so in exact mode: restarting at 0
/// made the container bench's checksum differ from Debian's. The fast sort
/// and sweep finds such pairs.
#[inline]
fn address_base(level: i32, x: i32, y: i32) -> u64 {
    (level as u32 as u64)
        .wrapping_mul(1000)
        .wrapping_add((x as u32 as u64).wrapping_mul(100))
        .wrapping_add((y as u32 as u64).wrapping_mul(10))
}

#[inline]
fn first_index(level: i32, x: i32, y: i32, z: i32, sz: &Modulus) -> u64 {
    sz.rem(address_base(level, x, y).wrapping_add(z as i64 as u64))
}

/// `a % d` for a fixed `d` by multiplications instead of a division
/// (Lemire, Kaser and Kurz, "Faster remainder by direct computation",
/// 2019: with the 128-bit fraction c = ⌈2¹²⁸/d⌉ the remainder of every
/// 64-bit `a` is exact). The hash takes one remainder per cell column.
struct Modulus {
    d: u64,
    c: u128,
}

impl Modulus {
    fn new(d: u64) -> Modulus {
        // d = 1 (every remainder 0) would need c = 2¹²⁸: handled in `rem`.
        let c = if d > 1 { u128::MAX / d as u128 + 1 } else { 0 };
        Modulus { d, c }
    }

    #[inline(always)]
    fn rem(&self, a: u64) -> u64 {
        if self.d <= 1 {
            return 0;
        }
        let low = self.c.wrapping_mul(a as u128);
        let d = self.d as u128;
        let bottom = ((low as u64) as u128 * d) >> 64;
        let top = (low >> 64) * d;
        ((bottom + top) >> 64) as u64
    }
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
    if super::sweep::enabled(s) {
        return super::sweep::collide(s, cb);
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
                sc.boxes.push(Cellbox { level, db, geom: h });
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
    let sz = PRIMES.iter().copied().find(|&p| p >= 8 * n as u64).unwrap_or(PRIMES[30]);
    let modulus = Modulus::new(sz);
    sc.table.clear();
    sc.table.resize(sz as usize, NIL);
    sc.seen.clear();
    sc.seen.resize(n, 0);
    // A box is never larger than a cell of its level (its largest side is
    // below 2^level), so it covers at most 2 cells per axis: 8n nodes at
    // most, reserved once so that a warm pass never grows the list.
    sc.nodes.reserve(8 * n);

    let table = &mut sc.table[..];
    for (bi, b) in sc.boxes.iter().enumerate() {
        let db = &b.db;
        for xi in db[0]..=db[1] {
            for yi in db[2]..=db[3] {
                let mut hi = first_index(b.level, xi, yi, db[4], &modulus) as usize;
                for zi in db[4]..=db[5] {
                    let node = Node { next: table[hi], x: xi, y: yi, z: zi, level: b.level, owner: bi as u32 };
                    table[hi] = sc.nodes.len() as u32;
                    sc.nodes.push(node);
                    hi = if hi + 1 != table.len() { hi + 1 } else { 0 };
                }
            }
        }
    }

    let (table, nodes, boxes, seen) = (&sc.table[..], &sc.nodes[..], &sc.boxes[..], &mut sc.seen[..n]);
    for ai in 0..n {
        let (alevel, mut db, ag) = {
            let a = &boxes[ai];
            (a.level, a.db, a.geom)
        };
        let stamp = ai as u32 + 1;
        let mut level = alevel;
        loop {
            for xi in db[0]..=db[1] {
                for yi in db[2]..=db[3] {
                    let mut hi = first_index(level, xi, yi, db[4], &modulus) as usize;
                    for zi in db[4]..=db[5] {
                        let mut ni = table[hi];
                        while ni != NIL {
                            let node = &nodes[ni as usize];
                            ni = node.next;
                            if node.level == level && node.x == xi && node.y == yi && node.z == zi {
                                let bi = node.owner as usize;
                                if bi == ai {
                                    continue;
                                }
                                let already = seen[bi] == stamp || (bi < ai && node.level == alevel);
                                if !already {
                                    seen[bi] = stamp;
                                    collide_aabbs(ag, boxes[bi].geom, cb);
                                }
                            }
                        }
                        hi = if hi + 1 != table.len() { hi + 1 } else { 0 };
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

    #[test]
    fn hash_modulus_equals_remainder() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for &d in PRIMES.iter().chain(&[2, 3, 1 << 20, u32::MAX as u64]) {
            let m = Modulus::new(d);
            for a in [0, 1, d - 1, d, d + 1, u64::MAX, u64::MAX - 1, u64::MAX / 2, (-1i64) as u64 - 5] {
                assert_eq!(m.rem(a), a % d, "{a} % {d}");
            }
            for _ in 0..2000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                assert_eq!(m.rem(x), x % d, "{x} % {d}");
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
