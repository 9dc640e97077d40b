//! Shared by the `collide_cyl_*` tests: runs `ctests/ref_collide_cylinder_convex_heightfield.c`
//! against Debian's libode.so.8 (which calls ODE's own `dCollide` on the
//! placements it draws), parses placements and contacts, replays each case
//! through one of our pure collider functions and compares. It also checks
//! ODE's normal/depth rule geometrically with support functions.
// Several test binaries include this module and each uses only part of it.
#![allow(dead_code)]

#[path = "../common/mod.rs"]
mod common;

use ode::collision::contact::ContactSink;
use ode::collision::shapes::Pose;
use ode::ffi::decl::contact::dContactGeom;
use std::sync::OnceLock;

#[derive(Clone, Debug)]
pub struct Geom {
    pub kind: String,
    pub params: Vec<f64>,
    pub pose: Pose,
}

#[derive(Clone, Debug, PartialEq)]
pub struct C {
    pub pos: [f64; 3],
    pub normal: [f64; 3],
    pub depth: f64,
    pub side1: i32,
    pub side2: i32,
}

#[derive(Clone, Debug)]
pub struct Case {
    pub a: Geom,
    pub b: Geom,
    pub flags: i32,
    pub contacts: Vec<C>,
}

/// Convex shape as printed in the header: planes (a,b,c,d), points and the
/// polygon list (count, indices...).
#[derive(Clone, Debug)]
pub struct ShapeData {
    pub planes: Vec<f64>,
    pub points: Vec<f64>,
    pub polygons: Vec<u32>,
}

pub struct Reference {
    pub shapes: Vec<ShapeData>,
    pub cases: Vec<Case>,
}

fn binary() -> &'static std::path::PathBuf {
    static BIN: OnceLock<std::path::PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        common::require_reference();
        common::build_c(
            "ref_collide_cylinder_convex_heightfield",
            &["ref_collide_cylinder_convex_heightfield.c"],
            common::Headers::Debian,
            &[],
        )
    })
}

fn parse_pose(t: &[f64]) -> Pose {
    let mut r = [0.0; 12];
    r.copy_from_slice(&t[3..15]);
    Pose::new([t[0], t[1], t[2]], r)
}

fn parse_geom(line: &str) -> Geom {
    let (head, tail) = match line.split_once('|') {
        Some((h, t)) => (h, Some(t)),
        None => (line, None),
    };
    let mut it = head.split_whitespace();
    it.next();
    let kind = it.next().unwrap().to_string();
    let params: Vec<f64> = it.map(|x| x.parse().unwrap()).collect();
    let pose = match tail {
        Some(t) => parse_pose(&common::numbers(t)),
        None => Pose::IDENTITY,
    };
    Geom { kind, params, pose }
}

/// Runs the generator for `pair` with `count` placements.
pub fn reference(pair: &str, count: usize, seed: u64) -> Reference {
    let out = common::run_ok(binary(), common::Lib::Debian, &[pair, &count.to_string(), &seed.to_string()]);
    let mut shapes = Vec::new();
    let mut cases = Vec::new();
    let mut lines = out.lines().peekable();
    while let Some(l) = lines.next() {
        if l.starts_with("S ") {
            let t: Vec<&str> = l.split_whitespace().collect();
            let np: usize = t[2].parse().unwrap();
            let nv: usize = t[3].parse().unwrap();
            let nums: Vec<f64> = t[4..4 + 4 * np + 3 * nv].iter().map(|x| x.parse().unwrap()).collect();
            let polygons: Vec<u32> = t[4 + 4 * np + 3 * nv..].iter().map(|x| x.parse().unwrap()).collect();
            shapes.push(ShapeData { planes: nums[..4 * np].to_vec(), points: nums[4 * np..].to_vec(), polygons });
        } else if l.starts_with("A ") {
            let a = parse_geom(l);
            let b = parse_geom(lines.next().unwrap());
            let n = common::numbers(lines.next().unwrap());
            let (flags, count) = (n[0] as i32, n[1] as usize);
            let mut contacts = Vec::new();
            for _ in 0..count {
                let v = common::numbers(lines.next().unwrap());
                contacts.push(C {
                    pos: [v[0], v[1], v[2]],
                    normal: [v[3], v[4], v[5]],
                    depth: v[6],
                    side1: v[7] as i32,
                    side2: v[8] as i32,
                });
            }
            cases.push(Case { a, b, flags, contacts });
        }
    }
    Reference { shapes, cases }
}

/// Calls one of our colliders on a fresh buffer with the case's flags.
pub fn run_ours(flags: i32, f: impl FnOnce(&mut ContactSink) -> usize) -> Vec<C> {
    let mut buf: Vec<dContactGeom> = vec![unsafe { std::mem::zeroed() }; 64];
    let mut sink = ContactSink::from_slice(&mut buf, flags);
    let n = f(&mut sink);
    assert_eq!(n, sink.len(), "returned count differs from the contacts written");
    buf[..n]
        .iter()
        .map(|g| C {
            pos: [g.pos[0], g.pos[1], g.pos[2]],
            normal: [g.normal[0], g.normal[1], g.normal[2]],
            depth: g.depth,
            side1: g.side1,
            side2: g.side2,
        })
        .collect()
}

/// Largest differences seen over a pair.
#[derive(Debug, Default)]
pub struct Stats {
    pub cases: usize,
    pub touching: usize,
    pub contacts: usize,
    pub pos: f64,
    pub normal: f64,
    pub depth: f64,
    pub count_mismatch: usize,
    pub rule_ref_fail: usize,
    pub rule_ours_fail: usize,
}

fn rel(a: f64, b: f64) -> f64 {
    if a == b || (a.is_nan() && b.is_nan()) {
        0.0
    } else {
        (a - b).abs() / (1.0 + a.abs().max(b.abs()))
    }
}

fn describe(c: &Case, ours: &[C]) -> String {
    format!("A {:?}\nB {:?}\nflags {}\nref  {:#?}\nours {:#?}", c.a, c.b, c.flags, c.contacts, ours)
}

/// Compares ours with ODE's contact for contact, in order. `tol` bounds
/// |x - y| / (1 + max(|x|,|y|)) for positions, normals and depths.
/// `count_slack` lets a case differ in count only when every contact that
/// the other side lacks is shallower than that depth (grazing contacts of
/// iterative algorithms); such cases are counted, not compared.
pub fn compare(
    r: &Reference,
    tol: f64,
    count_slack: f64,
    mut run: impl FnMut(&Reference, &Case) -> Vec<C>,
    rule: Option<&dyn Fn(&Reference, &Case, &[C]) -> bool>,
) -> Stats {
    let mut s = Stats { cases: r.cases.len(), ..Default::default() };
    let skip: usize = std::env::var("CYL_SKIP").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    for case in r.cases.iter().skip(skip) {
        let ours = run(r, case);
        if !case.contacts.is_empty() {
            s.touching += 1;
        }
        if let Some(rule) = rule {
            let rr = rule(r, case, &case.contacts);
            let ro = rule(r, case, &ours);
            if !rr {
                if std::env::var("CYL_DEBUG").is_ok() && s.rule_ref_fail < 3 {
                    eprintln!("ODE rule failure:\n{}", describe(case, &ours));
                }
                s.rule_ref_fail += 1;
            }
            if !ro {
                s.rule_ours_fail += 1;
                assert!(!rr, "normal/depth rule broken by us but not by ODE:\n{}", describe(case, &ours));
            }
        }
        if ours.len() != case.contacts.len() {
            let (long, short) =
                if ours.len() > case.contacts.len() { (&ours, &case.contacts) } else { (&case.contacts, &ours) };
            let extra_shallow = long[short.len()..].iter().all(|c| c.depth <= count_slack)
                || (short.is_empty() && long.iter().all(|c| c.depth <= count_slack));
            assert!(
                extra_shallow,
                "contact count differs: ours {} vs ODE {}\n{}",
                ours.len(),
                case.contacts.len(),
                describe(case, &ours)
            );
            s.count_mismatch += 1;
            continue;
        }
        for (o, e) in ours.iter().zip(&case.contacts) {
            s.contacts += 1;
            let mut dp: f64 = 0.0;
            let mut dn: f64 = 0.0;
            for k in 0..3 {
                dp = dp.max(rel(o.pos[k], e.pos[k]));
                dn = dn.max(rel(o.normal[k], e.normal[k]));
            }
            let dd = rel(o.depth, e.depth);
            assert!(
                dp <= tol && dn <= tol && dd <= tol,
                "contact differs (pos {dp:e}, normal {dn:e}, depth {dd:e} > {tol:e}):\n{}",
                describe(case, &ours)
            );
            assert_eq!((o.side1, o.side2), (e.side1, e.side2), "sides differ:\n{}", describe(case, &ours));
            s.pos = s.pos.max(dp);
            s.normal = s.normal.max(dn);
            s.depth = s.depth.max(dd);
        }
    }
    s
}

// ---- geometry for the normal/depth rule ----

pub fn dot(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn axis(p: &Pose, i: usize) -> [f64; 3] {
    p.axis(i)
}

/// max over the shape of n·x (world frame); None for unbounded shapes.
pub fn support(r: &Reference, g: &Geom, n: &[f64; 3]) -> Option<f64> {
    let c = [g.pose.pos[0], g.pose.pos[1], g.pose.pos[2]];
    let base = dot(&c, n);
    let p = &g.params;
    Some(match g.kind.as_str() {
        "sphere" => base + p[0],
        "box" => base + (0..3).map(|i| dot(&axis(&g.pose, i), n).abs() * p[i] * 0.5).sum::<f64>(),
        "capsule" => base + dot(&axis(&g.pose, 2), n).abs() * p[1] * 0.5 + p[0],
        "cylinder" => {
            let z = dot(&axis(&g.pose, 2), n);
            base + z.abs() * p[1] * 0.5 + p[0] * (1.0 - z * z).max(0.0).sqrt()
        }
        "convex" => {
            let s = &r.shapes[p[0] as usize];
            s.points.chunks(3).map(|q| dot(&g.pose.to_world(&[q[0], q[1], q[2]]), n)).fold(f64::NEG_INFINITY, f64::max)
        }
        _ => return None,
    })
}

/// Moving A by `depth` along `normal` separates A from B along `normal`
/// (for the deepest contact, when the set was not cut at the maximum
/// count), and no contact claims more depth than the
/// overlap of the shapes along its own normal. Planes are half-spaces.
pub fn depth_rule(r: &Reference, c: &Case, contacts: &[C], tol: f64) -> bool {
    if contacts.is_empty() {
        return true;
    }
    let overlap = |n: &[f64; 3]| -> Option<f64> {
        let neg = [-n[0], -n[1], -n[2]];
        let min_a = -support(r, &c.a, &neg)?;
        let max_b = if c.b.kind == "plane" {
            let pn = [c.b.params[0], c.b.params[1], c.b.params[2]];
            if (dot(&pn, n) - 1.0).abs() > 1e-9 {
                return None;
            }
            c.b.params[3]
        } else {
            support(r, &c.b, n)?
        };
        Some(max_b - min_a)
    };
    let mut deepest = &contacts[0];
    for k in contacts {
        let l = dot(&k.normal, &k.normal).sqrt();
        if !(l - 1.0).abs().le(&1e-6) || k.depth < -tol {
            return false;
        }
        if let Some(ov) = overlap(&k.normal) {
            if k.depth > ov + tol * (1.0 + ov.abs()) {
                return false;
            }
        } else {
            return false;
        }
        if k.depth > deepest.depth {
            deepest = k;
        }
    }
    // A truncated set (as many contacts as allowed) may lack the deepest.
    if contacts.len() >= (c.flags & 0xffff) as usize {
        return true;
    }
    let ov = overlap(&deepest.normal).unwrap();
    deepest.depth >= ov - tol * (1.0 + ov.abs())
}

pub fn report(pair: &str, s: &Stats) {
    eprintln!(
        "{pair}: {} cases, {} touching, {} contacts compared; max rel diff pos {:e} normal {:e} depth {:e}; \
         count mismatches {}; rule failures ODE {} ours {}",
        s.cases, s.touching, s.contacts, s.pos, s.normal, s.depth, s.count_mismatch, s.rule_ref_fail, s.rule_ours_fail
    );
}
