//! Trimesh against cylinder (and the other late pairs) compared with
//! Debian's ODE: `ctests/ref_trimesh_collide_cylinder_convex_mesh.c` places the other geom at random
//! against four meshes (cube, icosphere, terrain, bowl; moved and rotated
//! in a third of the rounds) and prints dCollide's contacts with each
//! library.
//!
//! Both pairs now give ODE's contacts bit for bit in ODE's order, side1
//! included (OPCODE's candidate order is reproduced). The older figures:
//! Cylinder, what agrees: the contact SET (position, normal, depth to
//! 1e-7) in >= 98% of the cases (measured: 595 of 600); the rest differ
//! only in which near-duplicate survives ODE's order-dependent 1e-4 merge,
//! which follows OPCODE's tree order. The maximum depth agrees (1e-7) in
//! >= 99% (measured: all). side1 (triangle) agrees in >= 90% of the
//! > same-set cases (a merged duplicate keeps the triangle visited first).
//! > Trimesh–trimesh (a small closed box mesh against the four meshes):
//! > the same contact set (1e-7) AND the same side1/side2 in >= 99% of the
//! > cases (measured: all 600, 296 touching).
//! > Rules asserted for every cylinder contact of ours: unit normal, finite depth
//! >= 0, side1 a triangle index, the point inside the cylinder grown by
//! > ODE's octagon slack (cap contacts are clipped by an octagon that
//! > circumscribes the cap circle).
mod common;
use common::*;

#[derive(Clone, Debug)]
struct C {
    pos: [f64; 3],
    normal: [f64; 3],
    depth: f64,
    side1: i64,
}

#[derive(Debug)]
struct Case {
    mesh: String,
    pair: String,
    par: Vec<f64>,
    contacts: Vec<C>,
}

fn parse(out: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut mesh = String::new();
    for line in out.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.first().copied() {
            Some("mesh") => mesh = w[1].to_owned(),
            Some("case") => cases.push(Case {
                mesh: mesh.clone(),
                pair: w[1].to_owned(),
                par: w[2..].iter().map(|t| t.parse().unwrap()).collect(),
                contacts: Vec::new(),
            }),
            Some("c") => {
                let v: Vec<f64> = w[1..].iter().map(|t| t.parse().unwrap()).collect();
                cases.last_mut().unwrap().contacts.push(C {
                    pos: [v[0], v[1], v[2]],
                    normal: [v[3], v[4], v[5]],
                    depth: v[6],
                    side1: v[7] as i64,
                });
            }
            _ => {}
        }
    }
    cases
}

fn sub(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn dot(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn close(a: &C, b: &C, tol: f64) -> bool {
    (0..3).all(|k| (a.pos[k] - b.pos[k]).abs() <= tol && (a.normal[k] - b.normal[k]).abs() <= tol)
        && (a.depth - b.depth).abs() <= tol
}

/// Matches every ODE contact to a distinct one of ours: Some(number with
/// the same side1) when the sets agree.
fn same_set(d: &[C], o: &[C], tol: f64) -> Option<usize> {
    if d.len() != o.len() {
        return None;
    }
    let mut left: Vec<&C> = o.iter().collect();
    let mut sides = 0;
    for x in d {
        let j = left.iter().position(|y| close(x, y, tol))?;
        if left[j].side1 == x.side1 {
            sides += 1;
        }
        left.remove(j);
    }
    Some(sides)
}

fn max_depth(v: &[C]) -> f64 {
    v.iter().map(|c| c.depth).fold(0.0, f64::max)
}

/// The same contacts bit for bit in the same order, side1 included.
fn identical(a: &[C], b: &[C]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.pos == y.pos && x.normal == y.normal && x.depth == y.depth && x.side1 == y.side1)
}

/// Distance of `p` outside a cylinder (centre, axis, radius, half length).
fn dist_cylinder(p: &[f64; 3], c: &[f64; 3], a: &[f64; 3], r: f64, h: f64) -> f64 {
    let d = sub(p, c);
    let z = dot(&d, a);
    let rad = (dot(&d, &d) - z * z).max(0.0).sqrt();
    let (ez, er) = ((z.abs() - h).max(0.0), (rad - r).max(0.0));
    (ez * ez + er * er).sqrt()
}

#[test]
fn trimesh_cylinder_matches_ode() {
    require_reference();
    let bin = build_c("ref_tm2_collide_cyl", &["ref_trimesh_collide_cylinder_convex_mesh.c"], Headers::Debian, &[]);
    let args = ["150", "cyl"];
    let deb = run_ok(&bin, Lib::Debian, &args);
    let ours = run_ok(&bin, Lib::Ours, &args);
    assert!(deb.ends_with("done\n") && ours.ends_with("done\n"));
    let (d, o) = (parse(&deb), parse(&ours));
    assert_eq!(d.len(), o.len());
    assert_eq!(d.len(), 150 * 4);
    let (mut same, mut same_side, mut same_total, mut depth_eq, mut touching) = (0, 0, 0, 0, 0);
    for (dc, oc) in d.iter().zip(&o) {
        assert_eq!((&dc.mesh, &dc.pair, &dc.par), (&oc.mesh, &oc.pair, &oc.par));
        let ctx = || format!("{} {} {:?}\nODE: {:#?}\nours: {:#?}", dc.mesh, dc.pair, dc.par, dc.contacts, oc.contacts);
        let p = &dc.par;
        let (c, r, h) = ([p[0], p[1], p[2]], p[3], p[4] * 0.5);
        let axis = [p[7], p[11], p[15]];
        for k in &oc.contacts {
            assert!((dot(&k.normal, &k.normal) - 1.0).abs() < 1e-9, "normal not unit: {}", ctx());
            assert!(k.depth >= 0.0 && k.depth.is_finite(), "bad depth: {}", ctx());
            assert!(k.side1 >= 0, "side1: {}", ctx());
            let slack = r * (1.0 / (std::f64::consts::PI / 8.0).cos() - 1.0);
            assert!(dist_cylinder(&k.pos, &c, &axis, r, h) <= slack + 1e-9, "point away from the cylinder: {}", ctx());
        }
        if !dc.contacts.is_empty() {
            touching += 1;
        }
        if (max_depth(&dc.contacts) - max_depth(&oc.contacts)).abs() <= 1e-7 {
            depth_eq += 1;
        }
        if let Some(s) = same_set(&dc.contacts, &oc.contacts, 1e-7) {
            same += 1;
            same_side += s;
            same_total += dc.contacts.len();
        } else {
            eprintln!("contact sets differ: {}", ctx());
        }
        assert!(identical(&dc.contacts, &oc.contacts), "contacts not identical in ODE's order: {}", ctx());
    }
    eprintln!("cylinder: {} cases, {touching} touching, same set {same}, same max depth {depth_eq}, side1 {same_side}/{same_total}", d.len());
    assert!(touching > 200, "too few touching cases");
    assert!(same * 100 >= d.len() * 98, "contact sets differ too often: {same}");
    assert!(depth_eq * 100 >= d.len() * 99, "max depths differ too often: {depth_eq}");
    assert!(same_side * 10 >= same_total * 9, "side1 differs too often: {same_side}/{same_total}");
}

#[test]
fn trimesh_trimesh_matches_ode() {
    require_reference();
    let bin = build_c("ref_tm2_collide_mesh", &["ref_trimesh_collide_cylinder_convex_mesh.c"], Headers::Debian, &[]);
    let args = ["150", "mesh"];
    let deb = run_ok(&bin, Lib::Debian, &args);
    let ours = run_ok(&bin, Lib::Ours, &args);
    assert!(deb.ends_with("done\n") && ours.ends_with("done\n"));
    let (d, o) = (parse(&deb), parse(&ours));
    assert_eq!(d.len(), 150 * 4);
    assert_eq!(d.len(), o.len());
    let (mut same, mut touching) = (0, 0);
    for (dc, oc) in d.iter().zip(&o) {
        assert_eq!((&dc.mesh, &dc.pair, &dc.par), (&oc.mesh, &oc.pair, &oc.par));
        for k in &oc.contacts {
            assert!((dot(&k.normal, &k.normal) - 1.0).abs() < 1e-9 && k.depth >= 0.0 && k.depth.is_finite());
        }
        if !dc.contacts.is_empty() {
            touching += 1;
        }
        match same_set(&dc.contacts, &oc.contacts, 1e-7) {
            Some(s) if s == dc.contacts.len() => same += 1,
            _ => eprintln!("differs: {} {:?}\nODE: {:#?}\nours: {:#?}", dc.mesh, dc.par, dc.contacts, oc.contacts),
        }
        assert!(
            identical(&dc.contacts, &oc.contacts),
            "contacts not identical in ODE's order: {} {:?}",
            dc.mesh,
            dc.par
        );
    }
    eprintln!("trimesh-trimesh: {} cases, {touching} touching, same set and sides {same}", d.len());
    assert!(touching > 200, "too few touching cases");
    assert!(same * 100 >= d.len() * 99, "contact sets differ too often: {same}");
}
