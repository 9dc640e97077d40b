//! Broad phase against brute force: for random scenes of a few thousand
//! spheres and axis-aligned boxes (coordinates on a 1/1024 grid, so that
//! every AABB bound is exact in single precision too, which the SAP space
//! sorts with), every space must report exactly the unordered pairs whose
//! AABBs overlap, whose category/collide bits match, that are both enabled
//! and not on the same body — each pair once. Scenes are checked fresh,
//! after moving a third of the geoms, and after removing and re-adding
//! some. Runs through the C entry points.
use ode::ffi::collision::*;
use ode::ffi::collision_space::*;
use ode::ffi::decl::collision_space::*;
use ode::ffi::objects_body::*;
use ode::ffi::objects_world::*;
use ode::ffi::ode_ext::*;
use std::collections::{HashMap, HashSet};
use std::ffi::c_void;

type Id = *mut c_void;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A multiple of 1/1024 in [-range, range].
    fn grid(&mut self, range: f64) -> f64 {
        let steps = (range * 1024.0) as u64;
        ((self.next() % (2 * steps + 1)) as f64 - steps as f64) / 1024.0
    }
    fn size(&mut self, lo: f64, hi: f64) -> f64 {
        let steps = ((hi - lo) * 1024.0) as u64;
        lo + (self.next() % (steps + 1)) as f64 / 1024.0
    }
}

unsafe extern "C" fn collect(data: *mut c_void, a: Id, b: Id) {
    let v = &mut *(data as *mut Vec<(usize, usize)>);
    v.push((a as usize, b as usize));
}

struct Scene {
    geoms: Vec<Id>,
    bodies: Vec<Id>,
    world: Id,
}

unsafe fn reported(space: Id) -> Vec<(usize, usize)> {
    let mut v: Vec<(usize, usize)> = Vec::new();
    dSpaceCollide(space, &mut v as *mut _ as *mut c_void, Some(collect));
    v
}

unsafe fn brute_force(geoms: &[Id], space: Id) -> HashSet<(usize, usize)> {
    let mut boxes = Vec::new();
    for &g in geoms {
        if dGeomGetSpace(g) != space || dGeomIsEnabled(g) == 0 {
            continue;
        }
        let mut a = [0.0; 6];
        dGeomGetAABB(g, a.as_mut_ptr());
        boxes.push((g, a, dGeomGetCategoryBits(g), dGeomGetCollideBits(g), dGeomGetBody(g)));
    }
    let mut set = HashSet::new();
    for i in 0..boxes.len() {
        for j in i + 1..boxes.len() {
            let (ga, a, ca, ka, ba) = boxes[i];
            let (gb, b, cb, kb, bb) = boxes[j];
            if !ba.is_null() && ba == bb {
                continue;
            }
            if (ca & kb) == 0 && (cb & ka) == 0 {
                continue;
            }
            if a[0] > b[1] || a[1] < b[0] || a[2] > b[3] || a[3] < b[2] || a[4] > b[5] || a[5] < b[4] {
                continue;
            }
            set.insert(key(ga as usize, gb as usize));
        }
    }
    set
}

fn key(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

/// The unordered pairs of one pass, each checked to come once.
unsafe fn pair_set(name: &str, space: Id) -> HashSet<(usize, usize)> {
    let mut seen = HashSet::new();
    for (a, b) in reported(space) {
        assert_ne!(a, b, "{name}: a geom paired with itself");
        assert!(seen.insert(key(a, b)), "{name}: pair reported twice");
    }
    seen
}

/// A space in fast collide mode (`odexSpaceSetCollideMode`) must report
/// every pair exact mode (ODE's traversal) reports on the same scene right
/// after, each with the same geom first (only the order of the pairs may
/// differ), and exactly brute force's pairs of its members. (ODE's hash
/// space misses some overlapping pairs near the origin, where its cell
/// index steps over an unsigned wrap, and exact mode keeps that; fast mode
/// reports them.)
unsafe fn same_as_exact(name: &str, space: Id, fast: &HashSet<(usize, usize)>) {
    if odexSpaceGetCollideMode(space) != ODEX_SOLVER_FAST {
        return;
    }
    let oriented = |s: Id| reported(s).into_iter().collect::<HashSet<_>>();
    let fast_oriented = oriented(space);
    odexSpaceSetCollideMode(space, ODEX_SOLVER_EXACT);
    let exact = pair_set(name, space);
    let exact_oriented = oriented(space);
    odexSpaceSetCollideMode(space, ODEX_SOLVER_FAST);
    let missing: Vec<_> = exact.difference(fast).take(5).collect();
    assert!(missing.is_empty(), "{name}: fast mode lacks pairs of exact mode, e.g. {missing:?}");
    let flipped = exact_oriented.iter().filter(|&&(a, b)| !fast_oriented.contains(&(a, b))).count();
    assert_eq!(flipped, 0, "{name}: pairs in the other orientation than exact mode's");
    let members: Vec<Id> = (0..dSpaceGetNumGeoms(space)).map(|i| dSpaceGetGeom(space, i)).collect();
    let want = brute_force(&members, space);
    let missing: Vec<_> = want.difference(fast).take(5).collect();
    let extra: Vec<_> = fast.difference(&want).take(5).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{name}: fast mode reported {} pairs, brute force {}; missing e.g. {missing:?}, extra e.g. {extra:?}",
        fast.len(),
        want.len()
    );
}

unsafe fn check(name: &str, space: Id, scene: &Scene) -> usize {
    let seen = pair_set(name, space);
    same_as_exact(name, space, &seen);
    let want = brute_force(&scene.geoms, space);
    let missing: Vec<_> = want.difference(&seen).take(5).collect();
    let extra: Vec<_> = seen.difference(&want).take(5).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{name}: {} pairs reported, {} expected; missing e.g. {missing:?}, extra e.g. {extra:?}",
        seen.len(),
        want.len()
    );
    seen.len()
}

unsafe fn build(space: Id, rng: &mut Rng, n: usize) -> Scene {
    let world = dWorldCreate();
    let mut scene = Scene { geoms: Vec::new(), bodies: Vec::new(), world };
    for i in 0..n {
        let g = if i % 2 == 0 {
            // Mostly small, a few large enough for the hash space's big list.
            let r = if i % 97 == 0 { rng.size(30.0, 40.0) } else { rng.size(0.05, 2.0) };
            dCreateSphere(space, r)
        } else {
            let s = if i % 101 == 1 { 1500.0 } else { 1.0 };
            dCreateBox(space, rng.size(0.1, 3.0) * s, rng.size(0.1, 3.0), rng.size(0.1, 3.0))
        };
        dGeomSetPosition(g, rng.grid(60.0), rng.grid(60.0), rng.grid(60.0));
        if i % 11 == 0 {
            dGeomSetCategoryBits(g, 1 << (rng.next() % 3));
            dGeomSetCollideBits(g, 1 << (rng.next() % 3));
        }
        if i % 23 == 0 {
            dGeomDisable(g);
        }
        scene.geoms.push(g);
    }
    // Pairs of neighbours share a body (never reported together).
    for i in (0..n / 10).map(|k| 10 * k + 3) {
        let b = dBodyCreate(world);
        dBodySetPosition(b, rng.grid(60.0), rng.grid(60.0), rng.grid(60.0));
        dGeomSetBody(scene.geoms[i], b);
        dGeomSetBody(scene.geoms[i + 2], b);
        scene.bodies.push(b);
    }
    scene
}

unsafe fn exercise(name: &str, space: Id, seed: u64) {
    let mut rng = Rng(seed);
    let scene = build(space, &mut rng, 2500);
    let mut total = check(&format!("{name} fresh"), space, &scene);
    total += check(&format!("{name} again"), space, &scene);
    for (k, &g) in scene.geoms.iter().enumerate() {
        if k % 3 == 0 {
            dGeomSetPosition(g, rng.grid(60.0), rng.grid(60.0), rng.grid(60.0));
        }
    }
    for &b in &scene.bodies {
        dBodySetPosition(b, rng.grid(60.0), rng.grid(60.0), rng.grid(60.0));
    }
    total += check(&format!("{name} moved"), space, &scene);
    for &g in scene.geoms.iter().step_by(7) {
        dSpaceRemove(space, g);
    }
    total += check(&format!("{name} removed"), space, &scene);
    for &g in scene.geoms.iter().step_by(14) {
        dSpaceAdd(space, g);
        dGeomEnable(g);
    }
    total += check(&format!("{name} re-added"), space, &scene);
    assert!(total > 1000, "{name}: scenes too sparse to mean anything ({total} pairs)");
    for &g in &scene.geoms {
        if dGeomGetSpace(g).is_null() {
            dGeomDestroy(g);
        }
    }
    dWorldDestroy(scene.world);
    dSpaceDestroy(space);
}

#[test]
fn simple_space_matches_brute_force() {
    unsafe { exercise("simple", dSimpleSpaceCreate(std::ptr::null_mut()), 0x1234_5678_9ABC_DEF1) }
}

#[test]
fn hash_space_matches_brute_force() {
    unsafe {
        exercise("hash", dHashSpaceCreate(std::ptr::null_mut()), 0x0F1E_2D3C_4B5A_6978);
        let s = dHashSpaceCreate(std::ptr::null_mut());
        dHashSpaceSetLevels(s, -1, 2);
        exercise("hash -1..2", s, 0x5555_AAAA_1234_4321);
    }
}

#[test]
fn quadtree_space_matches_brute_force() {
    unsafe {
        let c = [0.0, 0.0, 0.0, 0.0];
        let e = [50.0, 50.0, 50.0, 0.0];
        exercise(
            "quadtree",
            dQuadTreeSpaceCreate(std::ptr::null_mut(), c.as_ptr(), e.as_ptr(), 5),
            0x7777_1111_3333_9999,
        );
        // A tree smaller than the scene: most geoms stick out into the root.
        let e = [10.0, 10.0, 10.0, 0.0];
        exercise(
            "small quadtree",
            dQuadTreeSpaceCreate(std::ptr::null_mut(), c.as_ptr(), e.as_ptr(), 3),
            0x1357_9BDF_2468_ACE0,
        );
    }
}

#[test]
fn sap_space_matches_brute_force() {
    unsafe {
        for (k, order) in [dSAP_AXES_XYZ, dSAP_AXES_XZY, dSAP_AXES_YXZ, dSAP_AXES_YZX, dSAP_AXES_ZXY, dSAP_AXES_ZYX]
            .into_iter()
            .enumerate()
        {
            exercise(
                &format!("sap {order}"),
                dSweepAndPruneSpaceCreate(std::ptr::null_mut(), order),
                0xABCD_0000 + k as u64,
            );
        }
    }
}

/// Nested spaces report the pairs inside each space when the host recurses
/// as ODE's documentation shows; the totals match brute force per space.
#[test]
fn nested_spaces_report_space_members() {
    unsafe {
        let top = dHashSpaceCreate(std::ptr::null_mut());
        let inner = dSimpleSpaceCreate(top);
        let lone = dCreateSphere(top, 1.0);
        let a = dCreateSphere(inner, 1.0);
        let b = dCreateSphere(inner, 1.0);
        dGeomSetPosition(a, 0.5, 0.0, 0.0);
        let got = reported(top);
        assert_eq!(got.len(), 1, "top level: the lone sphere against the inner space");
        let (x, y) = got[0];
        assert_eq!(key(x, y), key(lone as usize, inner as usize));
        let got = reported(inner);
        assert_eq!(got.iter().map(|&(x, y)| key(x, y)).collect::<Vec<_>>(), vec![key(a as usize, b as usize)]);
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        dSpaceCollide2(lone, inner, &mut pairs as *mut _ as *mut c_void, Some(collect));
        let mut want = [(lone as usize, a as usize), (lone as usize, b as usize)];
        let mut got: Vec<_> = pairs.iter().map(|&(x, y)| (x, y)).collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "geom against space: (geom, member) for every member");
        dSpaceDestroy(top);
    }
}

/// The simple space's pair order is its list order: newest or most
/// recently moved first, as in ODE (checked against ODE in diff tests);
/// here the invariant that every pair shows up once under heavy churn.
#[test]
fn churn_keeps_pairs_unique() {
    unsafe {
        let s = dHashSpaceCreate(std::ptr::null_mut());
        let mut rng = Rng(99);
        let mut geoms: Vec<Id> = (0..400).map(|_| dCreateSphere(s, rng.size(0.5, 1.5))).collect();
        let mut counts = HashMap::new();
        for round in 0..20 {
            for &g in &geoms {
                dGeomSetPosition(g, rng.grid(15.0), rng.grid(15.0), rng.grid(15.0));
            }
            if round % 4 == 1 {
                let g = geoms.swap_remove((rng.next() % geoms.len() as u64) as usize);
                dGeomDestroy(g);
                geoms.push(dCreateSphere(s, 1.0));
            }
            let scene = Scene { geoms: geoms.clone(), bodies: vec![], world: std::ptr::null_mut() };
            *counts.entry(round).or_insert(0) = check("churn", s, &scene);
        }
        dSpaceDestroy(s);
    }
}

/// Fast collide mode (issue 13: a persistent sort and sweep in simple and
/// hash spaces) reports exactly the pairs of exact mode and of brute force,
/// fresh and after moves, removals and re-additions (`check` compares all
/// three at every stage).
#[test]
fn fast_mode_list_spaces_match_exact_and_brute_force() {
    unsafe {
        for (name, s, seed) in [
            ("fast hash", dHashSpaceCreate(std::ptr::null_mut()), 0x2468_1357_9ACE_BDF0u64),
            ("fast simple", dSimpleSpaceCreate(std::ptr::null_mut()), 0x0BAD_F00D_1234_5678),
        ] {
            assert_eq!(odexSpaceGetCollideMode(s), ODEX_SOLVER_EXACT, "new spaces are exact without ODE_SOLVER");
            odexSpaceSetCollideMode(s, ODEX_SOLVER_FAST);
            assert_eq!(odexSpaceGetCollideMode(s), ODEX_SOLVER_FAST);
            exercise(name, s, seed);
        }
        // A bad mode is refused and changes nothing.
        let s = dHashSpaceCreate(std::ptr::null_mut());
        odexSpaceSetCollideMode(s, 7);
        assert_eq!(odexSpaceGetCollideMode(s), ODEX_SOLVER_EXACT);
        dSpaceDestroy(s);
    }
}

/// Fast mode against exact mode on what the random scenes above lack:
/// planes (infinite AABBs, the hash space's "big" list) and boxes above
/// its largest level, nested spaces as members, geoms on disabled bodies,
/// category/collide bits, disabled geoms, geoms destroyed and created
/// between passes, and scenes that move a lot (the sort starting over)
/// or along another axis (the sweep axis changing).
#[test]
fn fast_mode_matches_exact_with_planes_nesting_and_churn() {
    unsafe {
        let world = dWorldCreate();
        for kind in 0..2 {
            let top = if kind == 0 {
                dHashSpaceCreate(std::ptr::null_mut())
            } else {
                dSimpleSpaceCreate(std::ptr::null_mut())
            };
            odexSpaceSetCollideMode(top, ODEX_SOLVER_FAST);
            let inner = [dHashSpaceCreate(top), dSimpleSpaceCreate(top)];
            for &s in &inner {
                odexSpaceSetCollideMode(s, ODEX_SOLVER_FAST);
            }
            let mut rng = Rng(0x5EED + kind);
            let mut geoms: Vec<Id> = Vec::new();
            dCreatePlane(top, 0.0, 0.0, 1.0, -5.0);
            dCreatePlane(top, 1.0, 0.0, 0.0, 0.0);
            let huge = dCreateBox(top, 5000.0, 1.0, 1.0);
            geoms.push(huge);
            for i in 0..900 {
                let target = match i % 9 {
                    0 => inner[0],
                    1 => inner[1],
                    _ => top,
                };
                let g = if i % 2 == 0 {
                    dCreateSphere(target, rng.size(0.1, 1.5))
                } else {
                    dCreateBox(target, rng.size(0.1, 2.0), rng.size(0.1, 2.0), rng.size(0.1, 2.0))
                };
                dGeomSetPosition(g, rng.grid(20.0), rng.grid(20.0), rng.grid(20.0));
                if i % 13 == 0 {
                    dGeomSetCategoryBits(g, 1 << (rng.next() % 3));
                    dGeomSetCollideBits(g, 1 << (rng.next() % 3));
                }
                if i % 29 == 0 {
                    dGeomDisable(g);
                }
                if i % 7 == 3 {
                    let b = dBodyCreate(world);
                    dGeomSetBody(g, b);
                    if i % 14 == 3 {
                        dBodyDisable(b);
                    }
                }
                geoms.push(g);
            }
            let compare = |name: &str| {
                for s in [top, inner[0], inner[1]] {
                    let fast = pair_set(name, s);
                    same_as_exact(name, s, &fast);
                }
            };
            compare("fresh");
            compare("again");
            for round in 0..12u64 {
                // Rounds 0-3 small moves, 4-7 teleports, 8-11 a stretch
                // along y then z (the sweep axis follows).
                for (k, g) in geoms.iter().enumerate() {
                    if dGeomGetSpace(*g).is_null() || !(k as u64 + round).is_multiple_of(3) {
                        continue;
                    }
                    let mut p = [0.0; 4];
                    let q = dGeomGetPosition(*g);
                    p[..3].copy_from_slice(std::slice::from_raw_parts(q, 3));
                    let (x, y, z) = match round {
                        0..=3 => (p[0] + rng.grid(0.2), p[1] + rng.grid(0.2), p[2] + rng.grid(0.2)),
                        4..=7 => (rng.grid(20.0), rng.grid(20.0), rng.grid(20.0)),
                        8..=9 => (rng.grid(3.0), rng.grid(200.0), rng.grid(3.0)),
                        _ => (rng.grid(3.0), rng.grid(3.0), rng.grid(200.0)),
                    };
                    dGeomSetPosition(*g, x, y, z);
                }
                // Churn: destroy some, create some, move some between spaces.
                for _ in 0..5 {
                    let i = 1 + (rng.next() % (geoms.len() as u64 - 1)) as usize;
                    dGeomDestroy(geoms.swap_remove(i));
                    let g = dCreateSphere(if round % 2 == 0 { top } else { inner[0] }, rng.size(0.2, 1.0));
                    dGeomSetPosition(g, rng.grid(20.0), rng.grid(20.0), rng.grid(20.0));
                    geoms.push(g);
                }
                for _ in 0..5 {
                    let g = geoms[1 + (rng.next() % (geoms.len() as u64 - 1)) as usize];
                    let from = dGeomGetSpace(g);
                    if !from.is_null() {
                        dSpaceRemove(from, g);
                        dSpaceAdd(if from == top { inner[1] } else { top }, g);
                    }
                }
                dGeomEnable(geoms[(rng.next() % geoms.len() as u64) as usize]);
                compare(&format!("round {round}"));
            }
            dSpaceDestroy(top);
        }
        dWorldDestroy(world);
    }
}

/// Small geoms crowded around the origin, where cell addresses cross from
/// z = -1 to z = 0 and the unsigned address wraps to 0: ODE's hash space
/// (and exact mode) steps the table index by one there and misses pairs
/// between a geom whose cells start at z = -1 and one whose cells start at
/// z = 0; fast mode must find exactly brute force's pairs, a superset.
#[test]
fn fast_hash_space_finds_pairs_across_the_origin() {
    unsafe {
        let s = dHashSpaceCreate(std::ptr::null_mut());
        odexSpaceSetCollideMode(s, ODEX_SOLVER_FAST);
        let mut rng = Rng(0xC0FF_EE00_D15E_A5E5);
        let geoms: Vec<Id> = (0..300)
            .map(|_| {
                let g = dCreateSphere(s, rng.size(0.05, 0.5));
                dGeomSetPosition(g, rng.grid(1.5), rng.grid(1.5), rng.grid(1.5));
                g
            })
            .collect();
        let scene = Scene { geoms, bodies: vec![], world: std::ptr::null_mut() };
        assert!(check("fast hash at the origin", s, &scene) > 500);
        odexSpaceSetCollideMode(s, ODEX_SOLVER_EXACT);
        let exact = pair_set("exact hash at the origin", s);
        let fast_count = brute_force(&scene.geoms, s).len();
        assert!(exact.len() < fast_count, "the scene no longer shows the exact hash space's misses");
        dSpaceDestroy(s);
    }
}

/// A dense scene spread over a wide cube (the collide bench's shape: about
/// 150 members beside each on any one axis), where the fast broad phase
/// sweeps in strips across a second axis (`sweep.rs`, `Strips`; its unit
/// test checks that such scenes use them): the same pairs and orientation
/// as exact mode and brute force, fresh, after small moves, after a
/// stretch that changes both axes, and with a few geoms as long as the
/// cube lying across all strips.
#[test]
fn fast_mode_dense_wide_scene_matches_exact() {
    unsafe {
        for (name, s) in [
            ("strips hash", dHashSpaceCreate(std::ptr::null_mut())),
            ("strips simple", dSimpleSpaceCreate(std::ptr::null_mut())),
        ] {
            odexSpaceSetCollideMode(s, ODEX_SOLVER_FAST);
            let mut rng = Rng(0x57A1_95E5_0000_0001);
            let geoms: Vec<Id> = (0..6000)
                .map(|i| {
                    let g = match i % 3 {
                        0 => dCreateSphere(s, rng.size(0.2, 1.0)),
                        1 => dCreateBox(s, rng.size(0.4, 2.0), rng.size(0.4, 2.0), rng.size(0.4, 2.0)),
                        _ if i % 301 == 2 => dCreateBox(s, 0.5, 45.0, 0.5),
                        _ => dCreateCapsule(s, rng.size(0.15, 0.4), rng.size(0.3, 1.2)),
                    };
                    dGeomSetPosition(g, rng.grid(20.0), rng.grid(20.0), rng.grid(20.0));
                    g
                })
                .collect();
            let scene = Scene { geoms, bodies: vec![], world: std::ptr::null_mut() };
            let mut total = check(&format!("{name} fresh"), s, &scene);
            for round in 0..3 {
                for &g in &scene.geoms {
                    let p = std::slice::from_raw_parts(dGeomGetPosition(g), 3).to_vec();
                    let (x, y, z) = match round {
                        0 | 1 => (p[0] + rng.grid(0.3), p[1] + rng.grid(0.3), p[2] + rng.grid(0.3)),
                        // Wider along z, narrower along x: the axes change.
                        _ => (p[0] * 0.5, p[1], p[2] * 2.0),
                    };
                    dGeomSetPosition(g, x, y, z);
                }
                total += check(&format!("{name} round {round}"), s, &scene);
            }
            assert!(total > 8000, "{name}: too sparse to mean anything ({total} pairs)");
            dSpaceDestroy(s);
        }
    }
}

/// Boxes whose cells lie at the top of the integer cell range (the upper
/// cell coordinate 2147483646, the largest a hashed box can have, and its
/// neighbour cells) are still paired by the exact hash space (brute
/// force's pairs), and the cell loops' half-open ranges do not overflow
/// there (a debug build would panic); boxes past the range go to the big
/// list.
#[test]
fn exact_hash_space_pairs_boxes_at_the_top_of_the_cell_range() {
    unsafe {
        let s = dHashSpaceCreate(std::ptr::null_mut());
        odexSpaceSetCollideMode(s, ODEX_SOLVER_EXACT);
        // Level 0 cells (unit cells): sides below 1 keep the boxes there.
        dHashSpaceSetLevels(s, 0, 0);
        let top = 2147483646.0;
        let mut geoms = Vec::new();
        for (x, side) in [(top + 0.3, 0.5), (top + 0.6, 0.5), (top - 0.1, 0.9), (top - 5.0, 0.5), (top + 3.0, 0.5)] {
            let g = dCreateBox(s, side, side, side);
            dGeomSetPosition(g, x, 0.25, 0.25);
            geoms.push(g);
        }
        let got: HashSet<(usize, usize)> = reported(s).into_iter().map(|(a, b)| key(a, b)).collect();
        let want = brute_force(&geoms, s);
        assert_eq!(got, want);
        // The first three overlap pairwise around x = 2147483646.3; the one
        // at 2147483649 lies past the range (big list), far from the rest.
        assert_eq!(want.len(), 3, "{want:?}");
        dSpaceDestroy(s);
    }
}

impl Rng {
    /// Uniform-ish in [lo, hi] on a 1/2^20 grid.
    fn size_f(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next() >> 44) as f64 / (1u64 << 20) as f64)
    }
}

/// A unit quaternion; every fourth one a quarter turn about an axis.
fn quaternion(rng: &mut Rng, k: usize) -> [f64; 4] {
    if k.is_multiple_of(4) {
        let s = std::f64::consts::FRAC_1_SQRT_2;
        return [[s, s, 0.0, 0.0], [s, 0.0, s, 0.0], [s, 0.0, 0.0, s], [1.0, 0.0, 0.0, 0.0]][(k / 4) % 4];
    }
    let q = [rng.size_f(-1.0, 1.0), rng.size_f(-1.0, 1.0), rng.size_f(-1.0, 1.0), rng.size_f(-1.0, 1.0)];
    let l = q.iter().map(|v| v * v).sum::<f64>().sqrt();
    q.map(|v| v / l)
}

/// The geom's AABB as `dGeomGetAABB` refreshes it, and the generic
/// formula's on a copy of its pose.
unsafe fn aabb_both_ways(geom: *mut c_void) -> ([f64; 6], [f64; 6]) {
    let mut got = [0.0; 6];
    dGeomGetAABB(geom, got.as_mut_ptr());
    let h = ode::collision::space::check(geom).expect("live geom");
    let want = ode::collision::geom::shape_aabb(&ode::collision::geom::g(h).shape, &ode::collision::geom::pose(h));
    (got, want)
}

/// The AABB refresh of spheres, boxes, capsules and cylinders reads the
/// pose where it lives (the body's, or the geom's own) instead of copying
/// it (`geom::compute_aabb`'s primitive path, which every list space's
/// pass runs for its moved members). It must give the generic formula's
/// bits (`geom::shape_aabb` on a copy of the pose, the path every other
/// class takes): free geoms, geoms sharing a body's pose, and geoms with an
/// offset, under random rotations and moves, with quarter turns (rotation
/// entries exactly 0 and ±1) among them.
#[test]
fn primitive_aabb_path_matches_generic_formula() {
    unsafe {
        let world = dWorldCreate();
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut geoms = Vec::new();
        let mut bodies = Vec::new();
        for k in 0..240 {
            let geom = match k % 4 {
                0 => dCreateBox(std::ptr::null_mut(), rng.size_f(0.1, 2.0), rng.size_f(0.1, 2.0), rng.size_f(0.1, 2.0)),
                1 => dCreateSphere(std::ptr::null_mut(), rng.size_f(0.1, 2.0)),
                2 => dCreateCapsule(std::ptr::null_mut(), rng.size_f(0.1, 1.0), rng.size_f(0.1, 2.0)),
                _ => dCreateCylinder(std::ptr::null_mut(), rng.size_f(0.1, 1.0), rng.size_f(0.1, 2.0)),
            };
            // Attachment by k / 4 % 3: free, on a body, on a body with an offset.
            let body = match (k / 4) % 3 {
                0 => None,
                kind => {
                    let b = dBodyCreate(world);
                    dGeomSetBody(geom, b);
                    if kind == 2 {
                        dGeomSetOffsetPosition(
                            geom,
                            rng.size_f(-1.0, 1.0),
                            rng.size_f(-1.0, 1.0),
                            rng.size_f(-1.0, 1.0),
                        );
                        let q = quaternion(&mut rng, k + 1);
                        dGeomSetOffsetQuaternion(geom, q.as_ptr());
                    }
                    bodies.push(b);
                    Some(b)
                }
            };
            geoms.push((geom, body));
        }
        let mut checked = 0;
        for round in 0..6 {
            for (k, &(geom, body)) in geoms.iter().enumerate() {
                let q = quaternion(&mut rng, k + round);
                let p = [rng.size_f(-50.0, 50.0), rng.size_f(-50.0, 50.0), rng.size_f(-50.0, 50.0)];
                // Moved through the body or the geom (which moves its body).
                match body {
                    Some(b) if round % 2 == 0 => {
                        dBodySetQuaternion(b, q.as_ptr());
                        dBodySetPosition(b, p[0], p[1], p[2]);
                    }
                    _ => {
                        dGeomSetQuaternion(geom, q.as_ptr());
                        dGeomSetPosition(geom, p[0], p[1], p[2]);
                    }
                }
                let (got, want) = aabb_both_ways(geom);
                assert_eq!(
                    got.map(f64::to_bits),
                    want.map(f64::to_bits),
                    "geom {k}, round {round}: {got:?} vs {want:?}"
                );
                assert!(got[0] < got[1] && got[2] < got[3] && got[4] < got[5], "geom {k}: empty box {got:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, 6 * 240);
        for (geom, _) in geoms {
            dGeomDestroy(geom);
        }
        dWorldDestroy(world);
    }
}
