//! The quadtree space: a fixed tree of blocks over the x/y extent given at
//! creation (each block split in 2×2 children down to the given depth).
//! A member lives in the deepest block that contains its AABB's x/y
//! extent (half-open, as ODE tests it), or in the root when it sticks out.
//! A member is tested against the members after it in its block and
//! against the blocks below that its AABB reaches, so every overlapping
//! pair is seen once, in ODE's order.

use super::{collide_aabbs, locked, sp, Kind, Near};
use crate::collision::geom::{self, g, gflags, GeomRef};

const NIL: u32 = u32::MAX;

pub struct Block {
    pub min_x: f64,
    pub max_x: f64,
    pub min_y: f64,
    pub max_y: f64,
    pub first: Option<GeomRef>,
    pub count: i32,
    pub parent: u32,
    pub children: u32,
}

pub struct QuadTree {
    pub blocks: Vec<Block>,
    pub dirty: Vec<GeomRef>,
}

/// Deepest tree accepted (4^12 leaves already take a lot of memory).
pub const MAX_DEPTH: i32 = 12;

impl QuadTree {
    /// The tree over center ± extents (x and y) with `depth` levels of
    /// subdivision; the upper bounds are nudged up by one ulp as in ODE.
    pub fn new(center: [f64; 3], extents: [f64; 3], depth: i32) -> Option<QuadTree> {
        let total: usize = (0..=depth).map(|i| 4usize.pow(i as u32)).sum();
        let mut blocks: Vec<Block> = Vec::new();
        blocks.try_reserve_exact(total).ok()?;
        for _ in 0..total {
            blocks.push(Block {
                min_x: 0.0,
                max_x: 0.0,
                min_y: 0.0,
                max_y: 0.0,
                first: None,
                count: 0,
                parent: NIL,
                children: NIL,
            });
        }
        let min_x = center[0] - extents[0];
        let max_x = next_up(center[0] + extents[0]);
        let min_y = center[1] - extents[1];
        let max_y = next_up(center[1] + extents[1]);
        let mut next_free = 1usize;
        build(&mut blocks, 0, [min_x, max_x, min_y, max_y], NIL, depth, &mut next_free);
        Some(QuadTree { blocks, dirty: Vec::new() })
    }

    /// Visits the members, block by block.
    pub fn for_each(&self, f: &mut dyn FnMut(GeomRef)) {
        for b in &self.blocks {
            let mut c = b.first;
            while let Some(h) = c {
                c = g(h).next;
                f(h);
            }
        }
    }

    fn inside(&self, b: u32, a: &[f64; 6]) -> bool {
        let k = &self.blocks[b as usize];
        a[0] >= k.min_x && a[1] < k.max_x && a[2] >= k.min_y && a[3] < k.max_y
    }

    fn block_for(&self, b: u32, a: &[f64; 6]) -> u32 {
        if self.inside(b, a) {
            self.child_for(b, a)
        } else if self.blocks[b as usize].parent != NIL {
            self.block_for(self.blocks[b as usize].parent, a)
        } else {
            b
        }
    }

    fn child_for(&self, b: u32, a: &[f64; 6]) -> u32 {
        let ch = self.blocks[b as usize].children;
        if ch != NIL {
            for i in 0..4 {
                if self.inside(ch + i, a) {
                    return self.child_for(ch + i, a);
                }
            }
        }
        b
    }

    fn add_object(&mut self, b: u32, h: GeomRef) {
        let blk = &mut self.blocks[b as usize];
        let old = blk.first;
        g(h).next = old;
        g(h).prev = None;
        if let Some(o) = old {
            g(o).prev = Some(h);
        }
        blk.first = Some(h);
        g(h).slot = b as i32;
        let mut k = b;
        while k != NIL {
            self.blocks[k as usize].count += 1;
            k = self.blocks[k as usize].parent;
        }
    }

    fn del_object(&mut self, b: u32, h: GeomRef) {
        let (prev, next) = (g(h).prev, g(h).next);
        match prev {
            Some(p) => g(p).next = next,
            None => self.blocks[b as usize].first = next,
        }
        if let Some(n) = next {
            g(n).prev = prev;
        }
        g(h).next = None;
        g(h).prev = None;
        g(h).slot = -1;
        let mut k = b;
        while k != NIL {
            self.blocks[k as usize].count -= 1;
            k = self.blocks[k as usize].parent;
        }
    }
}

fn next_up(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f64::from_bits(1);
    }
    let b = x.to_bits();
    f64::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}

fn build(blocks: &mut [Block], idx: usize, r: [f64; 4], parent: u32, depth: i32, next_free: &mut usize) {
    let [min_x, max_x, min_y, max_y] = r;
    {
        let b = &mut blocks[idx];
        b.min_x = min_x;
        b.max_x = max_x;
        b.min_y = min_y;
        b.max_y = max_y;
        b.parent = parent;
        b.first = None;
        b.count = 0;
    }
    if depth > 0 {
        let ch = *next_free;
        *next_free += 4;
        blocks[idx].children = ch as u32;
        let ex = (max_x - min_x) / 2.0;
        let ey = (max_y - min_y) / 2.0;
        let mut index = 0;
        let mut right_x = min_x;
        for i in 0..2 {
            let left_x = right_x;
            right_x = if i != 1 { left_x + ex } else { max_x };
            let mut right_y = min_y;
            for j in 0..2 {
                let left_y = right_y;
                right_y = if j != 1 { left_y + ey } else { max_y };
                build(blocks, ch + index, [left_x, right_x, left_y, right_y], idx as u32, depth - 1, next_free);
                index += 1;
            }
        }
    } else {
        blocks[idx].children = NIL;
    }
}

fn qt(s: GeomRef) -> &'static mut QuadTree {
    match &mut sp(s).kind {
        Kind::QuadTree(q) => q,
        _ => unreachable!("not a quadtree space"),
    }
}

/// Puts a new member into the block its (possibly stale) AABB selects and
/// queues it for cleaning.
pub fn add(s: GeomRef, h: GeomRef) {
    let q = qt(s);
    q.dirty.push(h);
    let aabb = g(h).aabb;
    let b = q.block_for(0, &aabb);
    q.add_object(b, h);
}

pub fn remove(s: GeomRef, h: GeomRef) {
    let q = qt(s);
    let b = g(h).slot;
    if b >= 0 {
        q.del_object(b as u32, h);
    }
    q.dirty.retain(|&x| x != h);
}

/// Refreshes the dirty members' AABBs and moves them to their blocks.
pub fn clean(s: GeomRef) {
    let mut i = 0;
    while i < qt(s).dirty.len() {
        let h = qt(s).dirty[i];
        i += 1;
        if super::is_space(h) {
            super::clean(h);
        }
        geom::recompute_aabb(h);
        g(h).gflags &= !(gflags::DIRTY | gflags::AABB_BAD);
        let q = qt(s);
        let cur = g(h).slot as u32;
        let aabb = g(h).aabb;
        let nb = q.block_for(cur, &aabb);
        if nb != cur {
            q.del_object(cur, h);
            q.add_object(nb, h);
        }
    }
    qt(s).dirty.clear();
}

pub fn collide(s: GeomRef, cb: &mut Near) {
    locked(s, || {
        super::clean(s);
        collide_block(s, 0, cb);
    })
}

fn collide_block(s: GeomRef, b: u32, cb: &mut Near) {
    let mut c = qt(s).blocks[b as usize].first;
    while let Some(h) = c {
        if g(h).takes_part() {
            collide_from(s, b, h, g(h).next, cb);
        }
        c = g(h).next;
    }
    let ch = qt(s).blocks[b as usize].children;
    if ch != NIL {
        for i in 0..4 {
            if qt(s).blocks[(ch + i) as usize].count <= 1 {
                continue;
            }
            collide_block(s, ch + i, cb);
        }
    }
}

/// `h` against the list of block `b` from `start` on, and against the
/// blocks below that its AABB reaches.
fn collide_from(s: GeomRef, b: u32, h: GeomRef, start: Option<GeomRef>, cb: &mut Near) {
    let mut c = start;
    while let Some(m) = c {
        if g(m).takes_part() {
            collide_aabbs(h, m, cb);
            if !h.is_live() {
                return;
            }
        }
        c = g(m).next;
    }
    let ch = qt(s).blocks[b as usize].children;
    if ch != NIL {
        for i in 0..4 {
            let k = &qt(s).blocks[(ch + i) as usize];
            if k.count == 0 {
                continue;
            }
            if k.count != 1 {
                let a = &g(h).aabb;
                if a[0] >= k.max_x || a[1] < k.min_x || a[2] >= k.max_y || a[3] < k.min_y {
                    continue;
                }
            }
            let first = k.first;
            collide_from(s, ch + i, h, first, cb);
        }
    }
}

pub fn collide2(s: GeomRef, h: GeomRef, cb: &mut Near) {
    locked(s, || {
        super::clean(s);
        geom::recompute_aabb(h);
        let mut swapped = |x: GeomRef, y: GeomRef| cb(y, x);
        if g(h).parent == Some(s) {
            let mut b = g(h).slot as u32;
            let first = qt(s).blocks[b as usize].first;
            collide_from(s, b, h, first, &mut swapped);
            loop {
                b = qt(s).blocks[b as usize].parent;
                if b == NIL || !h.is_live() {
                    break;
                }
                let mut c = qt(s).blocks[b as usize].first;
                while let Some(m) = c {
                    if g(m).takes_part() {
                        collide_aabbs(m, h, &mut swapped_back(&mut swapped));
                    }
                    c = g(m).next;
                }
            }
        } else {
            let first = qt(s).blocks[0].first;
            collide_from(s, 0, h, first, &mut swapped);
        }
    })
}

/// Undoes `swapped` (ODE calls the parents' lists with the user's
/// callback directly).
fn swapped_back<'a>(f: &'a mut dyn FnMut(GeomRef, GeomRef)) -> impl FnMut(GeomRef, GeomRef) + 'a {
    move |x, y| f(y, x)
}
