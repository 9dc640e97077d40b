//! Spaces: containers of geoms that find potentially touching pairs.
//!
//! A space is a geom (`Shape::Space`), so spaces nest. Each kind keeps its
//! own structure (`simple`, `hash`, `quadtree`, `sap`); this module holds
//! what they share: counts, cleanup/sublevel settings, the lock that makes
//! changes from inside a collide callback refusable, the list used by the
//! simple and hash spaces (newest and most recently moved geoms first, as
//! ODE keeps it), the pair test (`collide_aabbs`), the choice between a
//! kind's own traversal and the fast `sweep`, and `collide2`, ODE's
//! recursion of geom/space against geom/space. A space's state is kept by
//! its geom opaquely (`Shape::Space`); the geom layer below reaches what
//! it needs (adding, removing, a member's move, releasing the contents,
//! the AABB) through the hooks that `create` registers.
//!
//! Callbacks receive geom handles; they may call back into the library
//! (create contacts, query geoms). While a space is locked, changes to its
//! contents are refused by the C layer, and moves of its geoms are only
//! recorded, so the traversal never sees a changed structure.

pub mod hash;
pub mod level;
pub mod quadtree;
pub mod sap;
pub mod simple;
pub mod sweep;

use super::geom::{self, class, g, gflags, GeomRef, Shape, GEOMS};

/// The near callback as the core sees it.
pub type Near<'a> = dyn FnMut(GeomRef, GeomRef) + 'a;

pub enum Kind {
    Simple,
    Hash(hash::Hash),
    QuadTree(quadtree::QuadTree),
    Sap(sap::Sap),
}

pub struct Space {
    pub count: i32,
    /// Head of the geom list (simple and hash spaces).
    pub first: Option<GeomRef>,
    pub cleanup: bool,
    pub sublevel: i32,
    pub manual_cleanup: bool,
    pub lock_count: u32,
    /// `getGeom` cursor: index and geom of the last lookup.
    pub cursor: Option<(i32, GeomRef)>,
    pub kind: Kind,
    /// Simple and hash spaces: find pairs with the fast sort and sweep
    /// (`sweep`; same pairs, another order) instead of ODE's traversal.
    /// New spaces take `ODE_SOLVER`; `odexSpaceSetCollideMode` changes it.
    pub fast_collide: bool,
    /// The sort and sweep's state, kept between passes.
    pub sweep: Option<Box<sweep::Sweep>>,
}

impl Space {
    fn new(kind: Kind) -> Space {
        Space {
            count: 0,
            first: None,
            cleanup: true,
            sublevel: 0,
            manual_cleanup: false,
            lock_count: 0,
            cursor: None,
            kind,
            fast_collide: crate::dynamics::world::SolverMode::from_env() == crate::dynamics::world::SolverMode::Fast,
            sweep: None,
        }
    }
}

/// The space of a handle known to be a space.
#[inline]
pub fn sp(s: GeomRef) -> &'static mut Space {
    state_of(g(s)).expect("handle is a space")
}

/// The state of a space geom, `None` for other geoms (`geom` keeps it
/// without knowing its type).
fn state_of(geom: &mut geom::Geom) -> Option<&mut Space> {
    match &mut geom.shape {
        Shape::Space(s) => s.get_mut(),
        _ => None,
    }
}

#[inline]
pub fn is_space(h: GeomRef) -> bool {
    g(h).is_space()
}

#[inline]
pub fn is_locked(s: GeomRef) -> bool {
    sp(s).lock_count > 0
}

/// Is `s` or any space nested in it locked?
pub fn subtree_locked(s: GeomRef) -> bool {
    if is_locked(s) {
        return true;
    }
    let mut found = false;
    for_each_child(s, &mut |c| {
        if !found && is_space(c) && subtree_locked(c) {
            found = true;
        }
    });
    found
}

/// Creates a space of the given kind inside `parent`.
pub fn create(parent: Option<GeomRef>, kind: Kind) -> GeomRef {
    let (cls, infinite) = match &kind {
        Kind::Simple => (class::SIMPLE_SPACE, false),
        Kind::Hash(_) => (class::HASH_SPACE, false),
        Kind::QuadTree(_) => (class::QUADTREE_SPACE, true),
        Kind::Sap(_) => (class::SAP_SPACE, true),
    };
    geom::register_space_hooks(geom::SpaceHooks {
        add,
        remove,
        member_moved,
        release_contents,
        compute_aabb,
    });
    let h = geom::create(None, false, cls, Shape::Space(geom::SpaceState::new(Space::new(kind))));
    if infinite {
        let i = f64::INFINITY;
        g(h).aabb = [-i, i, -i, i, -i, i];
    }
    if let Some(p) = parent {
        add(p, h);
    }
    h
}

// ---- contents ------------------------------------------------------------------

pub(crate) fn list_push_front(s: GeomRef, h: GeomRef) {
    let space = sp(s);
    let old = space.first;
    g(h).next = old;
    g(h).prev = None;
    if let Some(o) = old {
        g(o).prev = Some(h);
    }
    space.first = Some(h);
}

pub(crate) fn list_unlink(s: GeomRef, h: GeomRef) {
    let (prev, next) = (g(h).prev, g(h).next);
    match prev {
        Some(p) => g(p).next = next,
        None => sp(s).first = next,
    }
    if let Some(n) = next {
        g(n).prev = prev;
    }
    g(h).next = None;
    g(h).prev = None;
}

/// Adds a geom (not in any space) to `s`. SAP and quadtree spaces mark it
/// dirty; the list spaces take its flags as they are (as ODE 0.16 does: a
/// geom re-added without moving stays clean, and its next move brings it
/// to the front of the list again).
pub fn add(s: GeomRef, h: GeomRef) {
    g(h).parent = Some(s);
    match &mut sp(s).kind {
        Kind::Simple | Kind::Hash(_) => list_push_front(s, h),
        Kind::Sap(_) => {
            g(h).gflags |= gflags::DIRTY | gflags::AABB_BAD;
            sap::add(s, h)
        }
        Kind::QuadTree(_) => {
            g(h).gflags |= gflags::DIRTY | gflags::AABB_BAD;
            quadtree::add(s, h)
        }
    }
    let space = sp(s);
    space.count += 1;
    space.cursor = None;
    geom::moved(s);
}

/// Removes `h` (a member) from `s`.
pub fn remove(s: GeomRef, h: GeomRef) {
    match &mut sp(s).kind {
        Kind::Simple | Kind::Hash(_) => list_unlink(s, h),
        Kind::Sap(_) => sap::remove(s, h),
        Kind::QuadTree(_) => quadtree::remove(s, h),
    }
    let space = sp(s);
    space.count -= 1;
    space.cursor = None;
    let geom = g(h);
    geom.parent = None;
    geom.next = None;
    geom.prev = None;
    geom.slot = -1;
    geom.slot2 = -1;
    geom::moved(s);
}

/// A member became dirty: the list spaces move it to the front.
pub fn dirty(s: GeomRef, h: GeomRef) {
    match &mut sp(s).kind {
        Kind::Simple | Kind::Hash(_) => {
            list_unlink(s, h);
            list_push_front(s, h);
        }
        Kind::Sap(_) => sap::dirty(s, h),
        Kind::QuadTree(q) => q.dirty.push(h),
    }
}

/// A member moved (`geom::moved`): a locked space (inside its collide
/// callback) is reported and only marked, else a space that held the
/// member clean moves it to its dirty set.
fn member_moved(s: GeomRef, h: GeomRef, handing: bool) {
    if is_locked(s) {
        crate::error::report(
            crate::error::Channel::Debug,
            crate::error::D_ERR_UASSERT,
            "geom moved while its space is locked (inside that space's collide callback)",
        );
    } else if handing {
        dirty(s, h);
    }
}

/// Visits the members in the space's own order.
pub fn for_each_child(s: GeomRef, f: &mut dyn FnMut(GeomRef)) {
    match &sp(s).kind {
        Kind::Simple | Kind::Hash(_) => {
            let mut c = sp(s).first;
            while let Some(h) = c {
                c = g(h).next;
                f(h);
            }
        }
        Kind::Sap(x) => {
            for &h in x.dirty.iter().chain(x.geoms.iter()) {
                f(h);
            }
        }
        Kind::QuadTree(q) => q.for_each(f),
    }
}

/// The member at `i` in ODE's numbering, or `None` (quadtree spaces do not
/// support indexing in ODE).
pub fn get_geom(s: GeomRef, i: i32) -> Option<GeomRef> {
    let space = sp(s);
    match &space.kind {
        Kind::Sap(x) => {
            let nd = x.dirty.len() as i32;
            if i < nd {
                x.dirty.get(i as usize).copied()
            } else {
                x.geoms.get((i - nd) as usize).copied()
            }
        }
        Kind::QuadTree(_) => None,
        Kind::Simple | Kind::Hash(_) => {
            if let Some((ci, cg)) = space.cursor {
                if ci == i - 1 {
                    let n = g(cg).next?;
                    space.cursor = Some((i, n));
                    return Some(n);
                }
            }
            let mut c = space.first;
            for _ in 0..i {
                c = g(c?).next;
            }
            let h = c?;
            space.cursor = Some((i, h));
            Some(h)
        }
    }
}

/// On destruction: destroys the members (cleanup on) or releases them.
/// A quadtree space does neither in ODE (its members are not on the shared
/// list); they are released here so they never point to a dead space.
pub fn release_contents(s: GeomRef) {
    let cleanup = sp(s).cleanup;
    if let Kind::QuadTree(_) = sp(s).kind {
        let mut all = Vec::new();
        for_each_child(s, &mut |h| all.push(h));
        for h in all {
            remove(s, h);
        }
        return;
    }
    loop {
        let next = match &sp(s).kind {
            Kind::Sap(x) => x.dirty.first().or(x.geoms.first()).copied(),
            _ => sp(s).first,
        };
        let Some(h) = next else { break };
        if cleanup {
            geom::destroy(h);
        } else {
            remove(s, h);
        }
    }
}

/// The AABB of a space: the union of its members' (simple and hash
/// spaces); quadtree and SAP spaces keep the infinite box they start with.
pub fn compute_aabb(s: GeomRef) {
    match sp(s).kind {
        Kind::Sap(_) | Kind::QuadTree(_) => {}
        _ => {
            if sp(s).first.is_none() {
                g(s).aabb = [0.0; 6];
                return;
            }
            let i = f64::INFINITY;
            let mut a = [i, -i, i, -i, i, -i];
            let mut c = sp(s).first;
            while let Some(h) = c {
                geom::recompute_aabb(h);
                let b = &g(h).aabb;
                for k in (0..6).step_by(2) {
                    if b[k] < a[k] {
                        a[k] = b[k];
                    }
                }
                for k in (1..6).step_by(2) {
                    if b[k] > a[k] {
                        a[k] = b[k];
                    }
                }
                c = g(h).next;
            }
            g(s).aabb = a;
        }
    }
}

/// Brings the AABBs of dirty members (and nested spaces) up to date.
pub fn clean(s: GeomRef) {
    sp(s).lock_count += 1;
    match &sp(s).kind {
        Kind::Simple | Kind::Hash(_) => {
            let mut c = sp(s).first;
            while let Some(h) = c {
                clean_member(h);
                c = g(h).next;
            }
        }
        Kind::Sap(_) => sap::clean(s),
        Kind::QuadTree(_) => quadtree::clean(s),
    }
    sp(s).lock_count -= 1;
}

/// Cleans one member of a list space if it is dirty.
pub(crate) fn clean_member(h: GeomRef) {
    if g(h).gflags & gflags::DIRTY != 0 {
        if is_space(h) {
            clean(h);
        }
        geom::recompute_aabb(h);
        g(h).gflags &= !(gflags::DIRTY | gflags::AABB_BAD);
    }
}

/// Locks `s` for the duration of `f`.
pub(crate) fn locked<R>(s: GeomRef, f: impl FnOnce() -> R) -> R {
    struct Unlock(GeomRef);
    impl Drop for Unlock {
        fn drop(&mut self) {
            if self.0.is_live() {
                if let Some(s) = state_of(g(self.0)) {
                    s.lock_count -= 1;
                }
            }
        }
    }
    sp(s).lock_count += 1;
    let _u = Unlock(s);
    f()
}

// ---- pair tests ------------------------------------------------------------------------

/// Category/collide bits allow the pair.
#[inline]
pub fn bits_match(a: &geom::Geom, b: &geom::Geom) -> bool {
    (a.category_bits & b.collide_bits) != 0 || (b.category_bits & a.collide_bits) != 0
}

/// Pair test without the AABB overlap (SAP already pruned): same body,
/// bits, then the geoms' own AABB tests; reports the pair.
#[inline]
pub fn collide_no_aabbs(g1: GeomRef, g2: GeomRef, cb: &mut Near) {
    let (a, b) = (g(g1), g(g2));
    if a.body.is_some() && a.body == b.body {
        return;
    }
    if !bits_match(a, b) {
        return;
    }
    if !geom::aabb_test(g1, g2) || !geom::aabb_test(g2, g1) {
        return;
    }
    cb(g1, g2);
}

/// ODE's AABB overlap test (true unless a comparison proves the boxes
/// apart; NaN bounds never do). Symmetric in its arguments.
#[inline(always)]
pub fn aabbs_overlap(b1: &[f64; 6], b2: &[f64; 6]) -> bool {
    !(b1[0] > b2[1] || b1[1] < b2[0] || b1[2] > b2[3] || b1[3] < b2[2] || b1[4] > b2[5] || b1[5] < b2[4])
}

/// ODE's collideAABBs: same body, bits, AABB overlap, AABB tests.
#[inline]
pub fn collide_aabbs(g1: GeomRef, g2: GeomRef, cb: &mut Near) {
    let (a, b) = (g(g1), g(g2));
    // (Same tests as ODE; the cheap AABB rejection first, which changes
    // nothing but speed since all of them must pass.)
    if !aabbs_overlap(&a.aabb, &b.aabb) {
        return;
    }
    if a.body.is_some() && a.body == b.body {
        return;
    }
    if !bits_match(a, b) {
        return;
    }
    if !geom::aabb_test(g1, g2) || !geom::aabb_test(g2, g1) {
        return;
    }
    cb(g1, g2);
}

// ---- collide ------------------------------------------------------------------------------

/// `dSpaceCollide`: every potentially touching pair of members, once.
/// The list spaces in fast mode sweep instead (a hash space with fewer
/// than two members has no pair either way).
pub fn collide(s: GeomRef, cb: &mut Near) {
    match &sp(s).kind {
        Kind::Simple if sweep::enabled(s) => sweep::collide(s, cb),
        Kind::Simple => simple::collide(s, cb),
        Kind::Hash(_) if sp(s).count >= 2 && sweep::enabled(s) => sweep::collide(s, cb),
        Kind::Hash(_) => hash::collide(s, cb),
        Kind::Sap(_) => sap::collide(s, cb),
        Kind::QuadTree(_) => quadtree::collide(s, cb),
    }
}

/// The members of `s` against a geom `h` (not necessarily outside `s`).
pub fn collide_with(s: GeomRef, h: GeomRef, cb: &mut Near) {
    match &sp(s).kind {
        Kind::Simple | Kind::Hash(_) => simple::collide2(s, h, cb),
        Kind::Sap(_) => sap::collide2(s, h, cb),
        Kind::QuadTree(_) => quadtree::collide2(s, h, cb),
    }
}

/// `dSpaceCollide2`: geom or space against geom or space. Between spaces
/// of different sublevels the higher one is treated as a geom; between two
/// spaces, the members of the smaller one (its shared list, which SAP and
/// quadtree spaces do not use, as in ODE) are collided with the other.
pub fn collide2(g1: GeomRef, g2: GeomRef, cb: &mut Near) {
    let mut s1 = is_space(g1).then_some(g1);
    let mut s2 = is_space(g2).then_some(g2);
    if let (Some(a), Some(b)) = (s1, s2) {
        let (l1, l2) = (sp(a).sublevel, sp(b).sublevel);
        if l1 != l2 {
            if l1 > l2 {
                s2 = None;
            } else {
                s1 = None;
            }
        }
    }
    match (s1, s2) {
        (Some(a), Some(b)) => {
            if a == b {
                collide(a, cb);
            } else if sp(a).count < sp(b).count {
                let mut swapped = |x: GeomRef, y: GeomRef| cb(y, x);
                for_each_listed(a, &mut |m| collide_with(b, m, &mut swapped));
            } else {
                for_each_listed(b, &mut |m| collide_with(a, m, cb));
            }
        }
        (Some(a), None) => collide_with(a, g2, cb),
        (None, Some(b)) => {
            let mut swapped = |x: GeomRef, y: GeomRef| cb(y, x);
            collide_with(b, g1, &mut swapped);
        }
        (None, None) => {
            geom::recompute_aabb(g1);
            geom::recompute_aabb(g2);
            collide_aabbs(g1, g2, cb);
        }
    }
}

/// Walks the shared member list of `s` (empty for SAP and quadtree
/// spaces), locked so the callback cannot change it under the walk.
fn for_each_listed(s: GeomRef, f: &mut dyn FnMut(GeomRef)) {
    locked(s, || {
        let mut c = sp(s).first;
        while let Some(h) = c {
            f(h);
            if !h.is_live() {
                break;
            }
            c = g(h).next;
        }
    })
}

/// Validates a raw handle as a live geom of this pool.
pub fn check(raw: *mut std::ffi::c_void) -> Option<GeomRef> {
    GEOMS.check(raw)
}
