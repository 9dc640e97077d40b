//! The sweep-and-prune space (ODE's "complete box pruning"): members are
//! sorted by the lower bound of their AABB on the first axis of the
//! space's axis order (as single-precision keys, as in ODE), then each is
//! tested against the following ones whose lower bound does not exceed
//! its upper bound, with the other two axes checked exactly. Members with
//! an infinite upper bound on the first axis skip the sort and are paired
//! with everything, without AABB test, as ODE does.
//!
//! Members are kept in two arrays, dirty and clean; each geom knows its
//! index in one of them (`slot` = dirty index, `slot2` = clean index).

use super::{collide_aabbs, collide_no_aabbs, locked, sp, Kind, Near};
use crate::collision::geom::{self, g, gflags, GeomRef};

pub struct Sap {
    pub dirty: Vec<GeomRef>,
    pub geoms: Vec<GeomRef>,
    /// AABB indices of the sort axis and the two others (min; max is +1).
    pub ax: [usize; 3],
    scratch: Option<Box<Scratch>>,
}

#[derive(Default)]
struct Scratch {
    normal: Vec<GeomRef>,
    /// The normal members' AABBs, contiguous for the sweep.
    boxes: Vec<[f64; 6]>,
    infinite: Vec<GeomRef>,
    keys: Vec<f32>,
    sort: RadixSort,
    sorted_keys: Vec<f32>,
    sorted: Vec<[f64; 4]>,
    pairs: Vec<(u32, u32)>,
}

/// ODE's (OPCODE's) radix sort of single-precision keys, with its state
/// kept between passes: ranks from the previous sort are reused as the
/// starting order ("temporal coherence"), and equal negative keys come out
/// in reverse order. Reproducing it keeps pairs in ODE's order even with
/// equal keys.
#[derive(Default)]
struct RadixSort {
    size: usize,
    utilization: usize,
    valid: bool,
    buf: Vec<u32>,
    /// Offset of the primary ranks in `buf` (0 or `size`).
    primary: usize,
}

impl RadixSort {
    fn ranks2_off(&self) -> usize {
        if self.primary == 0 {
            self.size
        } else {
            0
        }
    }

    fn prepare(&mut self, n: usize) {
        if n != self.utilization {
            if n > self.size {
                self.buf.clear();
                self.buf.resize(2 * n, 0);
                self.size = n;
                self.primary = 0;
            }
            self.valid = false;
            self.utilization = n;
        }
    }

    /// Sorts `keys` (ascending); the result is `self.ranks()`.
    fn sort(&mut self, keys: &[f32]) {
        let nb = keys.len();
        self.prepare(nb);
        let bits = |i: usize| keys[i].to_bits();
        let mut hist = [0u32; 1024];
        let count = |hist: &mut [u32; 1024], i: usize| {
            let b = bits(i);
            hist[(b & 0xff) as usize] += 1;
            hist[256 + ((b >> 8) & 0xff) as usize] += 1;
            hist[512 + ((b >> 16) & 0xff) as usize] += 1;
            hist[768 + (b >> 24) as usize] += 1;
        };
        let mut counted = 0;
        let mut sorted = true;
        if !self.valid {
            let mut prev = keys[0];
            while counted < nb {
                let v = keys[counted];
                if v < prev {
                    sorted = false;
                    break;
                }
                prev = v;
                count(&mut hist, counted);
                counted += 1;
            }
            if sorted {
                let p = self.primary;
                for i in 0..nb {
                    self.buf[p + i] = i as u32;
                }
                return;
            }
        } else {
            let p = self.primary;
            let mut prev = keys[self.buf[p] as usize];
            while counted < nb {
                let v = keys[self.buf[p + counted] as usize];
                if v < prev {
                    sorted = false;
                    break;
                }
                prev = v;
                count(&mut hist, counted);
                counted += 1;
            }
            if sorted {
                return;
            }
        }
        while counted < nb {
            count(&mut hist, counted);
            counted += 1;
        }
        let negatives: u32 = hist[768 + 128..1024].iter().sum();
        let mut link = [0usize; 256];
        for pass in 0..4usize {
            let cur = &hist[pass * 256..pass * 256 + 256];
            let unique = ((bits(0) >> (8 * pass)) & 0xff) as usize;
            let perform = cur[unique] as usize != nb;
            let (p1, p2) = (self.primary, self.ranks2_off());
            if pass != 3 {
                if !perform {
                    continue;
                }
                link[0] = p2;
                for i in 1..256 {
                    link[i] = link[i - 1] + cur[i - 1] as usize;
                }
                let byte = |i: usize| ((bits(i) >> (8 * pass)) & 0xff) as usize;
                if !self.valid {
                    for i in 0..nb {
                        let b = byte(i);
                        self.buf[link[b]] = i as u32;
                        link[b] += 1;
                    }
                    self.valid = true;
                } else {
                    for k in 0..nb {
                        let id = self.buf[p1 + k] as usize;
                        let b = byte(id);
                        self.buf[link[b]] = id as u32;
                        link[b] += 1;
                    }
                }
                self.primary = p2;
            } else if perform {
                link[0] = p2 + negatives as usize;
                for i in 1..128 {
                    link[i] = link[i - 1] + cur[i - 1] as usize;
                }
                link[255] = p2;
                for i in 0..127 {
                    link[254 - i] = link[255 - i] + cur[255 - i] as usize;
                }
                for i in 128..256 {
                    link[i] += cur[i] as usize;
                }
                for k in 0..nb {
                    let id = if self.valid { self.buf[p1 + k] as usize } else { k };
                    let radix = (bits(id) >> 24) as usize;
                    if radix < 128 {
                        self.buf[link[radix]] = id as u32;
                        link[radix] += 1;
                    } else {
                        link[radix] -= 1;
                        self.buf[link[radix]] = id as u32;
                    }
                }
                self.valid = true;
                self.primary = p2;
            } else if unique >= 128 {
                for i in 0..nb {
                    self.buf[p2 + i] = if self.valid { self.buf[p1 + nb - i - 1] } else { (nb - i - 1) as u32 };
                }
                self.valid = true;
                self.primary = p2;
            }
        }
    }

    fn ranks(&self) -> &[u32] {
        &self.buf[self.primary..self.primary + self.utilization]
    }
}

impl Sap {
    /// `axisorder` is one of the dSAP_AXES_* codes (three 2-bit axis numbers).
    pub fn new(axisorder: i32) -> Sap {
        let ax = |k: i32| (((axisorder >> (2 * k)) & 3) as usize) << 1;
        Sap { dirty: Vec::new(), geoms: Vec::new(), ax: [ax(0), ax(1), ax(2)], scratch: None }
    }
}

fn sap_of(s: GeomRef) -> &'static mut Sap {
    match &mut sp(s).kind {
        Kind::Sap(x) => x,
        _ => unreachable!("not a SAP space"),
    }
}

pub fn add(s: GeomRef, h: GeomRef) {
    let x = sap_of(s);
    g(h).slot = x.dirty.len() as i32;
    g(h).slot2 = -1;
    x.dirty.push(h);
}

fn swap_remove(list: &mut Vec<GeomRef>, i: usize, dirty_list: bool) {
    let last = *list.last().expect("list holds the geom");
    list[i] = last;
    if dirty_list {
        g(last).slot = i as i32;
    } else {
        g(last).slot2 = i as i32;
    }
    list.pop();
}

pub fn remove(s: GeomRef, h: GeomRef) {
    let x = sap_of(s);
    let (di, gi) = (g(h).slot, g(h).slot2);
    if di >= 0 {
        swap_remove(&mut x.dirty, di as usize, true);
    } else if gi >= 0 {
        swap_remove(&mut x.geoms, gi as usize, false);
    }
    g(h).slot = -1;
    g(h).slot2 = -1;
}

pub fn dirty(s: GeomRef, h: GeomRef) {
    if g(h).slot >= 0 {
        return;
    }
    let x = sap_of(s);
    let gi = g(h).slot2;
    if gi >= 0 {
        swap_remove(&mut x.geoms, gi as usize, false);
    }
    g(h).slot2 = -1;
    g(h).slot = x.dirty.len() as i32;
    x.dirty.push(h);
}

/// Moves the dirty members (AABBs refreshed) to the end of the clean list.
/// Runs under the caller's lock.
pub fn clean(s: GeomRef) {
    let x = sap_of(s);
    if x.dirty.is_empty() {
        return;
    }
    let dirty = std::mem::take(&mut x.dirty);
    for &h in &dirty {
        if super::is_space(h) {
            super::clean(h);
        }
        geom::recompute_aabb(h);
        let x = sap_of(s);
        let geom = g(h);
        geom.gflags &= !(gflags::DIRTY | gflags::AABB_BAD);
        geom.slot = -1;
        geom.slot2 = x.geoms.len() as i32;
        x.geoms.push(h);
    }
    let x = sap_of(s);
    let mut dirty = dirty;
    dirty.clear();
    if x.dirty.is_empty() {
        x.dirty = dirty;
    }
}

pub fn collide(s: GeomRef, cb: &mut Near) {
    locked(s, || {
        super::clean(s);
        let ax = sap_of(s).ax;
        let mut sc = sap_of(s).scratch.take().unwrap_or_default();
        sc.normal.clear();
        sc.boxes.clear();
        sc.infinite.clear();
        // Not every pass prunes (no finite member): no stale pairs either.
        sc.pairs.clear();
        for &h in &sap_of(s).geoms {
            let geom = g(h);
            if !geom.takes_part() {
                continue;
            }
            if geom.aabb[ax[0] + 1] == f64::INFINITY {
                sc.infinite.push(h);
            } else {
                sc.normal.push(h);
                sc.boxes.push(geom.aabb);
            }
        }
        if !sc.normal.is_empty() {
            box_pruning(&mut sc, ax);
        }
        let Scratch { normal, infinite, pairs, .. } = &*sc;
        for &(a, b) in pairs {
            collide_no_aabbs(normal[a as usize], normal[b as usize], cb);
        }
        for m in 0..infinite.len() {
            for n in m + 1..infinite.len() {
                collide_no_aabbs(infinite[m], infinite[n], cb);
            }
            for &n in normal {
                collide_no_aabbs(infinite[m], n, cb);
            }
        }
        if s.is_live() {
            sap_of(s).scratch = Some(sc);
        }
    })
}

/// Sorts by the first-axis lower bound and collects overlapping pairs, in
/// ODE's order (a sentinel key of f32::MAX ends every scan).
fn box_pruning(sc: &mut Scratch, ax: [usize; 3]) {
    let n = sc.normal.len();
    sc.keys.clear();
    sc.keys.extend(sc.boxes.iter().map(|b| b[ax[0]] as f32));
    sc.keys.push(f32::MAX);
    let count = n + 1;
    sc.sort.sort(&sc.keys);
    sc.pairs.clear();
    let order = sc.sort.ranks();
    // Keys and the two other axes' bounds in sorted order, so the sweep
    // reads memory sequentially (the sentinel gets an empty box).
    sc.sorted_keys.clear();
    sc.sorted.clear();
    for &o in order {
        let o = o as usize;
        sc.sorted_keys.push(sc.keys[o]);
        sc.sorted.push(match sc.boxes.get(o) {
            Some(b) => [b[ax[1]], b[ax[1] + 1], b[ax[2]], b[ax[2] + 1]],
            None => [f64::INFINITY, -f64::INFINITY, f64::INFINITY, -f64::INFINITY],
        });
    }
    let (keys, boxes) = (&sc.sorted_keys[..count], &sc.sorted[..count]);
    let (mut running, mut s) = (0usize, 0usize);
    while running < count && s < count {
        let (p0, id0) = (s, order[s] as usize);
        s += 1;
        if id0 == n {
            continue;
        }
        // Advance past the keys below id0's (the index moves on once more
        // after the first key that is not below, as in ODE).
        let k0 = keys[p0];
        loop {
            let k = keys[running];
            running += 1;
            if k >= k0 || running >= count {
                break;
            }
        }
        if running < count {
            let max0 = sc.boxes[id0][ax[0] + 1];
            let a0 = boxes[p0];
            for r2 in running..count {
                if keys[r2] as f64 > max0 {
                    break;
                }
                let id1 = order[r2] as usize;
                if id1 == n {
                    break;
                }
                let a1 = &boxes[r2];
                if a0[1] >= a1[0] && a1[1] >= a0[0] && a0[3] >= a1[2] && a1[3] >= a0[2] {
                    sc.pairs.push((id0 as u32, id1 as u32));
                }
            }
        }
    }
}

/// Members (clean list order) against `h`, with the full AABB test.
pub fn collide2(s: GeomRef, h: GeomRef, cb: &mut Near) {
    locked(s, || {
        super::clean(s);
        geom::recompute_aabb(h);
        let mut i = 0;
        while i < sap_of(s).geoms.len() {
            let m = sap_of(s).geoms[i];
            i += 1;
            if g(m).takes_part() {
                collide_aabbs(m, h, cb);
                if !h.is_live() {
                    return;
                }
            }
        }
    })
}
