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

/// ODE's cell address before the z term (unsigned arithmetic).
#[inline]
fn address_base(level: i32, x: i32, y: i32) -> u64 {
    (level as u32 as u64)
        .wrapping_mul(1000)
        .wrapping_add((x as u32 as u64).wrapping_mul(100))
        .wrapping_add((y as u32 as u64).wrapping_mul(10))
}

#[inline]
fn first_index(level: i32, x: i32, y: i32, z: i32, sz: u64) -> u64 {
    address_base(level, x, y).wrapping_add(z as i64 as u64) % sz
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
                in_range &= (MIN_INT_EXACT..MAX_INT_EXACT).contains(&v);
                *d = v.floor() as i32;
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
    sc.table.clear();
    sc.table.resize(sz as usize, NIL);
    sc.seen.clear();
    sc.seen.resize(n, 0);

    for (bi, b) in sc.boxes.iter().enumerate() {
        let db = &b.db;
        for xi in db[0]..=db[1] {
            for yi in db[2]..=db[3] {
                let mut hi = first_index(b.level, xi, yi, db[4], sz);
                for zi in db[4]..=db[5] {
                    let node = Node { next: sc.table[hi as usize], x: xi, y: yi, z: zi, owner: bi as u32 };
                    sc.table[hi as usize] = sc.nodes.len() as u32;
                    sc.nodes.push(node);
                    hi = if hi + 1 != sz { hi + 1 } else { 0 };
                }
            }
        }
    }

    for ai in 0..n {
        let (alevel, mut db, ag) = {
            let a = &sc.boxes[ai];
            (a.level, a.db, a.geom)
        };
        let stamp = ai as u32 + 1;
        let mut level = alevel;
        loop {
            for xi in db[0]..=db[1] {
                for yi in db[2]..=db[3] {
                    let mut hi = first_index(level, xi, yi, db[4], sz);
                    for zi in db[4]..=db[5] {
                        let mut ni = sc.table[hi as usize];
                        while ni != NIL {
                            let node = &sc.nodes[ni as usize];
                            ni = node.next;
                            let bi = node.owner as usize;
                            if bi == ai {
                                continue;
                            }
                            let b = &sc.boxes[bi];
                            if b.level == level && node.x == xi && node.y == yi && node.z == zi {
                                let already = sc.seen[bi] == stamp || (bi < ai && b.level == alevel);
                                if !already {
                                    sc.seen[bi] = stamp;
                                    collide_aabbs(ag, b.geom, cb);
                                }
                            }
                        }
                        hi = if hi + 1 != sz { hi + 1 } else { 0 };
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
