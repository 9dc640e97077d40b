//! Replays the placements printed by `ctests/ref_prim_*.c` (Debian's
//! dCollide) through our pure colliders and compares the contacts, then
//! checks the geometric invariants of our contacts.
// Several test binaries include this module and each uses only part of it.
#![allow(dead_code)]

use crate::common::*;
use ode::collision::colliders::{box_box::*, capsule::*, plane::*, ray::*, sphere::*};
use ode::collision::contact::ContactSink;
use ode::collision::shapes::*;
use ode::ffi::decl::contact::dContactGeom;

/// One geom of a placement: 4 shape parameters and its pose.
#[derive(Clone, Copy, Debug)]
pub struct Geom {
    pub par: [f64; 4],
    pub pose: Pose,
}

impl Geom {
    pub fn sphere(&self) -> Sphere {
        Sphere { radius: self.par[0] }
    }
    pub fn boxs(&self) -> BoxShape {
        BoxShape { sides: [self.par[0], self.par[1], self.par[2]] }
    }
    pub fn capsule(&self) -> Capsule {
        Capsule { radius: self.par[0], length: self.par[1] }
    }
    pub fn plane(&self) -> Plane {
        Plane { n: [self.par[0], self.par[1], self.par[2]], d: self.par[3] }
    }
    pub fn ray(&self) -> Ray {
        let mut flags = 0;
        if self.par[1] != 0.0 {
            flags |= RAY_FIRSTCONTACT;
        }
        if self.par[2] != 0.0 {
            flags |= RAY_BACKFACECULL;
        }
        if self.par[3] != 0.0 {
            flags |= RAY_CLOSEST_HIT;
        }
        Ray { length: self.par[0], flags }
    }
}

/// A contact as printed by the reference program.
#[derive(Clone, Copy, Debug)]
pub struct RefContact {
    pub pos: [f64; 3],
    pub normal: [f64; 3],
    pub depth: f64,
    pub side1: i32,
    pub side2: i32,
    pub g1_is_a: bool,
    pub g2_is_b: bool,
}

#[derive(Clone, Debug)]
pub struct Case {
    pub pair: String,
    pub a: Geom,
    pub b: Geom,
    /// (flags, contacts) for each flag value tried.
    pub runs: Vec<(i32, Vec<RefContact>)>,
}

/// Builds `ctests/<src>` against Debian's headers and runs it against
/// Debian's library with `n` placements per pair.
pub fn reference(src: &str, n: usize) -> Vec<Case> {
    require_reference();
    let name = src.trim_end_matches(".c");
    let bin = build_c(name, &[src], Headers::Debian, &[]);
    let out = run_ok(&bin, Lib::Debian, &[&n.to_string()]);
    parse(&out)
}

fn geom(v: &[f64]) -> Geom {
    let mut r = [0.0; 12];
    r.copy_from_slice(&v[7..19]);
    Geom { par: [v[0], v[1], v[2], v[3]], pose: Pose::new([v[4], v[5], v[6]], r) }
}

pub fn parse(out: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    for line in out.lines() {
        let mut tok = line.split_whitespace();
        match tok.next() {
            Some("P") => {
                let pair = tok.next().unwrap().to_string();
                let v: Vec<f64> = tok.map(|t| t.parse().unwrap()).collect();
                assert_eq!(v.len(), 38, "bad placement line: {line}");
                cases.push(Case { pair, a: geom(&v[..19]), b: geom(&v[19..]), runs: Vec::new() });
            }
            Some("F") => {
                let v: Vec<f64> = tok.map(|t| t.parse().unwrap()).collect();
                let n = v[1] as usize;
                assert_eq!(v.len(), 2 + 11 * n, "bad result line: {line}");
                let cs = (0..n)
                    .map(|i| {
                        let c = &v[2 + 11 * i..];
                        RefContact {
                            pos: [c[0], c[1], c[2]],
                            normal: [c[3], c[4], c[5]],
                            depth: c[6],
                            side1: c[7] as i32,
                            side2: c[8] as i32,
                            g1_is_a: c[9] != 0.0,
                            g2_is_b: c[10] != 0.0,
                        }
                    })
                    .collect();
                cases.last_mut().expect("result before placement").runs.push((v[0] as i32, cs));
            }
            _ => panic!("unexpected line: {line}"),
        }
    }
    cases
}

/// Runs our collider for `pair` with the given flags.
pub fn ours(case: &Case, flags: i32) -> Vec<dContactGeom> {
    let mut buf: [dContactGeom; 16] = unsafe { std::mem::zeroed() };
    let (a, b) = (&case.a, &case.b);
    let (pa, pb) = (&a.pose, &b.pose);
    let n = {
        let mut s = ContactSink::from_slice(&mut buf, flags);
        let s = &mut s;
        match case.pair.as_str() {
            "sphere-sphere" => collide_sphere_sphere(&a.sphere(), pa, &b.sphere(), pb, s),
            "sphere-box" => collide_sphere_box(&a.sphere(), pa, &b.boxs(), pb, s),
            "sphere-capsule" => collide_sphere_capsule(&a.sphere(), pa, &b.capsule(), pb, s),
            "capsule-sphere" => collide_capsule_sphere(&a.capsule(), pa, &b.sphere(), pb, s),
            "sphere-plane" => collide_sphere_plane(&a.sphere(), pa, &b.plane(), s),
            "box-box" => collide_box_box(&a.boxs(), pa, &b.boxs(), pb, s),
            "box-capsule" => collide_box_capsule(&a.boxs(), pa, &b.capsule(), pb, s),
            "capsule-box" => collide_capsule_box(&a.capsule(), pa, &b.boxs(), pb, s),
            "box-plane" => collide_box_plane(&a.boxs(), pa, &b.plane(), s),
            "capsule-capsule" => collide_capsule_capsule(&a.capsule(), pa, &b.capsule(), pb, s),
            "capsule-plane" => collide_capsule_plane(&a.capsule(), pa, &b.plane(), s),
            "ray-sphere" => collide_ray_sphere(&a.ray(), pa, &b.sphere(), pb, s),
            "ray-box" => collide_ray_box(&a.ray(), pa, &b.boxs(), pb, s),
            "ray-capsule" => collide_ray_capsule(&a.ray(), pa, &b.capsule(), pb, s),
            "ray-plane" => collide_ray_plane(&a.ray(), pa, &b.plane(), s),
            p => panic!("unknown pair {p}"),
        }
    };
    buf[..n].to_vec()
}

/// Largest differences seen for one pair.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub placements: usize,
    pub calls: usize,
    pub contacts: usize,
    pub pos: f64,
    pub normal: f64,
    pub depth: f64,
    pub bit_identical: bool,
}

fn rel(x: f64, y: f64) -> f64 {
    if x == y {
        0.0
    } else {
        (x - y).abs() / x.abs().max(y.abs()).max(1.0)
    }
}

/// Compares our contacts with the reference for every case of `pair`:
/// counts and sides must be equal; positions, normals and depths within
/// `tol` (relative, with a floor of 1 on the scale). Returns the stats.
pub fn compare(cases: &[Case], pair: &str, tol: f64) -> Stats {
    let mut st = Stats { bit_identical: true, ..Default::default() };
    for case in cases.iter().filter(|c| c.pair == pair) {
        st.placements += 1;
        for (flags, refc) in &case.runs {
            st.calls += 1;
            let got = ours(case, *flags);
            assert_eq!(
                got.len(),
                refc.len(),
                "{pair} flags {flags:#x}: {} contacts, ODE {}\ncase {case:?}\nours {got:?}",
                got.len(),
                refc.len()
            );
            for (g, r) in got.iter().zip(refc) {
                st.contacts += 1;
                assert!(r.g1_is_a && r.g2_is_b, "{pair}: ODE's g1/g2 are not (a, b)");
                assert_eq!((g.side1, g.side2), (r.side1, r.side2), "{pair}: sides");
                for k in 0..3 {
                    st.pos = st.pos.max(rel(g.pos[k], r.pos[k]));
                    st.normal = st.normal.max(rel(g.normal[k], r.normal[k]));
                    if g.pos[k].to_bits() != r.pos[k].to_bits() || g.normal[k].to_bits() != r.normal[k].to_bits() {
                        st.bit_identical = false;
                    }
                }
                st.depth = st.depth.max(rel(g.depth, r.depth));
                if g.depth.to_bits() != r.depth.to_bits() {
                    st.bit_identical = false;
                }
                let worst = st.pos.max(st.normal).max(st.depth);
                assert!(
                    worst <= tol,
                    "{pair} flags {flags:#x}: difference {worst:e} > {tol:e}\ncase {case:?}\nours {got:?}\nref {refc:?}"
                );
            }
        }
    }
    assert!(st.placements > 0, "no placements of {pair} in the reference output");
    eprintln!(
        "{pair}: {} placements, {} calls, {} contacts; max rel diff pos {:e} normal {:e} depth {:e}; bit-identical: {}",
        st.placements, st.calls, st.contacts, st.pos, st.normal, st.depth, st.bit_identical
    );
    st
}

// ---------------------------------------------------------------- geometry
// Independent helpers for the invariant checks (deliberately not the
// colliders' own routines).

pub fn sub(a: &[f64], b: &[f64]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
pub fn add_scaled(a: &[f64], k: f64, n: &[f64]) -> [f64; 3] {
    [a[0] + k * n[0], a[1] + k * n[1], a[2] + k * n[2]]
}
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
pub fn norm(a: &[f64]) -> f64 {
    dot(a, a).sqrt()
}

/// Pose moved by `d` (rotation unchanged).
pub fn moved(p: &Pose, d: &[f64]) -> Pose {
    Pose::new(add_scaled(&p.pos, 1.0, d), p.r)
}

/// World → box frame.
pub fn local(p: &Pose, x: &[f64]) -> [f64; 3] {
    let d = sub(x, &p.pos);
    [
        p.r[0] * d[0] + p.r[4] * d[1] + p.r[8] * d[2],
        p.r[1] * d[0] + p.r[5] * d[1] + p.r[9] * d[2],
        p.r[2] * d[0] + p.r[6] * d[1] + p.r[10] * d[2],
    ]
}

/// Euclidean distance from a point to a solid box (0 inside).
pub fn dist_point_box(b: &BoxShape, p: &Pose, x: &[f64]) -> f64 {
    let q = local(p, x);
    let mut s = 0.0;
    for i in 0..3 {
        let e = (q[i].abs() - 0.5 * b.sides[i]).max(0.0);
        s += e * e;
    }
    s.sqrt()
}

/// Minimises a convex function on [0, 1] (golden-section search).
pub fn min_convex(f: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..90 {
        let m1 = hi - g * (hi - lo);
        let m2 = lo + g * (hi - lo);
        if f(m1) <= f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    f(0.5 * (lo + hi)).min(f(0.0)).min(f(1.0))
}

/// Axis segment end points of a capsule.
pub fn capsule_ends(c: &Capsule, p: &Pose) -> ([f64; 3], [f64; 3]) {
    let ax = [p.r[2], p.r[6], p.r[10]];
    (add_scaled(&p.pos, 0.5 * c.length, &ax), add_scaled(&p.pos, -0.5 * c.length, &ax))
}

pub fn lerp(a: &[f64; 3], b: &[f64; 3], t: f64) -> [f64; 3] {
    [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2] + t * (b[2] - a[2])]
}

/// Distance from a point to a segment.
pub fn dist_point_segment(x: &[f64], a: &[f64; 3], b: &[f64; 3]) -> f64 {
    min_convex(|t| norm(&sub(x, &lerp(a, b, t))))
}

/// Distance between two segments (nested convex minimisation).
pub fn dist_segments(a1: &[f64; 3], a2: &[f64; 3], b1: &[f64; 3], b2: &[f64; 3]) -> f64 {
    min_convex(|t| dist_point_segment(&lerp(a1, a2, t), b1, b2))
}

/// Distance from a segment to a solid box.
pub fn dist_segment_box(a: &[f64; 3], b: &[f64; 3], bx: &BoxShape, p: &Pose) -> f64 {
    min_convex(|t| dist_point_box(bx, p, &lerp(a, b, t)))
}

/// Box corners in world frame.
pub fn box_corners(b: &BoxShape, p: &Pose) -> Vec<[f64; 3]> {
    let mut v = Vec::new();
    for i in 0..8 {
        let l = [
            if i & 1 != 0 { 0.5 } else { -0.5 } * b.sides[0],
            if i & 2 != 0 { 0.5 } else { -0.5 } * b.sides[1],
            if i & 4 != 0 { 0.5 } else { -0.5 } * b.sides[2],
        ];
        v.push(p.to_world(&l));
    }
    v
}

/// Half-width of a box's projection on unit axis `n`.
pub fn box_radius_along(b: &BoxShape, p: &Pose, n: &[f64]) -> f64 {
    (0..3).map(|i| 0.5 * b.sides[i] * dot(&p.axis(i), n).abs()).sum()
}

/// Records the worst violation of an invariant, asserting it stays below
/// `tol` (absolute, scaled by the case size `scale`).
pub struct Invariant {
    pub name: &'static str,
    pub worst: f64,
    pub checked: usize,
    pub tol: f64,
}

impl Invariant {
    pub fn new(name: &'static str, tol: f64) -> Invariant {
        Invariant { name, worst: 0.0, checked: 0, tol }
    }
    pub fn check(&mut self, err: f64, scale: f64, what: impl Fn() -> String) {
        let e = err.abs() / scale.max(1.0);
        self.checked += 1;
        self.worst = self.worst.max(e);
        assert!(e <= self.tol, "{}: invariant off by {e:e} (> {:e}): {}", self.name, self.tol, what());
    }
    pub fn report(&self) {
        eprintln!("{}: {} contacts checked, worst deviation {:e}", self.name, self.checked, self.worst);
        assert!(self.checked > 0, "{}: nothing checked", self.name);
    }
}

/// Every (case, flags-with-the-largest-count, our contacts).
pub fn each_contact_set<'a>(
    cases: &'a [Case],
    pair: &'a str,
) -> impl Iterator<Item = (&'a Case, Vec<dContactGeom>)> + 'a {
    cases.iter().filter(move |c| c.pair == pair).map(|c| {
        let flags = c.runs.iter().map(|r| r.0).filter(|f| *f > 0).max().unwrap_or(1);
        (c, ours(c, flags))
    })
}
