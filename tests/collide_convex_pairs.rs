//! Convex pairs: convex–plane and ray–convex (ODE's own code) and the
//! pairs Debian's ODE sends through libccd's MPR (convex against sphere,
//! box, capsule, cylinder and convex; capsule–cylinder), replayed from
//! placements collided by Debian's libode.so.8 (`ctests/ref_collide_cylinder_convex_heightfield.c`).

mod collide_pairs_common;
use collide_pairs_common::*;

use ode::collision::colliders::ccd::*;
use ode::collision::colliders::convex::*;
use ode::collision::shapes::*;

const N: usize = 3000;

fn cvx<'a>(r: &'a Reference, g: &Geom) -> Convex<'a> {
    assert_eq!(g.kind, "convex");
    let s = &r.shapes[g.params[0] as usize];
    Convex::new(&s.planes, &s.points, &s.polygons)
}

#[test]
fn shapes_are_closed_convex_hulls() {
    // Invariant of the generator's data: every vertex lies on or inside
    // every face plane, and each face's own vertices lie on it.
    let r = reference("cvxplane", 1, 9);
    assert_eq!(r.shapes.len(), 3);
    for s in &r.shapes {
        let c = Convex::new(&s.planes, &s.points, &s.polygons);
        let mut k = 0;
        for f in 0..c.plane_count() {
            let p = c.plane(f);
            for v in 0..c.point_count() {
                let q = c.point(v);
                assert!(p[0] * q[0] + p[1] * q[1] + p[2] * q[2] - p[3] <= 1e-12);
            }
            let n = s.polygons[k] as usize;
            for &i in &s.polygons[k + 1..k + 1 + n] {
                let q = c.point(i as usize);
                assert!((p[0] * q[0] + p[1] * q[1] + p[2] * q[2] - p[3]).abs() <= 1e-12);
            }
            k += n + 1;
        }
    }
}

#[test]
fn convex_plane_matches_ode() {
    let r = reference("cvxplane", N, 11);
    let rule = |r: &Reference, c: &Case, k: &[C]| depth_rule(r, c, k, 1e-9);
    let s = compare(
        &r,
        1e-12,
        0.0,
        |r, c| {
            let p = Plane { n: [c.b.params[0], c.b.params[1], c.b.params[2]], d: c.b.params[3] };
            run_ours(c.flags, |sink| collide_convex_plane(&cvx(r, &c.a), &c.a.pose, &p, sink))
        },
        Some(&rule),
    );
    report("convex-plane", &s);
    assert!(s.touching > N / 3);
}

#[test]
fn ray_convex_matches_ode() {
    let r = reference("raycvx", N, 12);
    let s = compare(
        &r,
        1e-12,
        0.0,
        |r, c| {
            let ray = Ray { length: c.a.params[0], flags: 0 };
            run_ours(c.flags, |sink| collide_ray_convex(&ray, &c.a.pose, &cvx(r, &c.b), &c.b.pose, sink))
        },
        None,
    );
    report("ray-convex", &s);
    assert!(s.touching > N / 20);
}

/// MPR stops when the portal moves by less than 1e-6, so results agree to
/// about that; grazing contacts (depth below 1e-6) may appear on one side
/// only.
const MPR_TOL: f64 = 1e-6;
const MPR_RULE_TOL: f64 = 1e-4;

fn mpr_pair(pair: &str, seed: u64, f: impl Fn(&Reference, &Case) -> Vec<C>) {
    let r = reference(pair, N, seed);
    let rule = |r: &Reference, c: &Case, k: &[C]| depth_rule(r, c, k, MPR_RULE_TOL);
    let s = compare(&r, MPR_TOL, MPR_TOL, f, Some(&rule));
    report(pair, &s);
    assert!(s.touching > N / 3);
    assert!(s.count_mismatch * 100 <= s.cases, "too many grazing count differences");
}

fn prim(g: &Geom) -> (Option<Sphere>, Option<BoxShape>, Option<Capsule>, Option<Cylinder>) {
    let p = &g.params;
    match g.kind.as_str() {
        "sphere" => (Some(Sphere { radius: p[0] }), None, None, None),
        "box" => (None, Some(BoxShape { sides: [p[0], p[1], p[2]] }), None, None),
        "capsule" => (None, None, Some(Capsule { radius: p[0], length: p[1] }), None),
        "cylinder" => (None, None, None, Some(Cylinder { radius: p[0], length: p[1] })),
        k => panic!("unexpected {k}"),
    }
}

#[test]
fn convex_sphere_matches_ode() {
    mpr_pair("cvxsphere", 13, |r, c| {
        let s = prim(&c.b).0.unwrap();
        run_ours(c.flags, |sink| collide_convex_sphere(&cvx(r, &c.a), &c.a.pose, &s, &c.b.pose, sink))
    });
}

#[test]
fn convex_box_matches_ode() {
    mpr_pair("cvxbox", 14, |r, c| {
        let b = prim(&c.b).1.unwrap();
        run_ours(c.flags, |sink| collide_convex_box(&cvx(r, &c.a), &c.a.pose, &b, &c.b.pose, sink))
    });
}

#[test]
fn convex_capsule_matches_ode() {
    mpr_pair("cvxcap", 15, |r, c| {
        let k = prim(&c.b).2.unwrap();
        run_ours(c.flags, |sink| collide_convex_capsule(&cvx(r, &c.a), &c.a.pose, &k, &c.b.pose, sink))
    });
}

#[test]
fn convex_cylinder_matches_ode() {
    mpr_pair("cvxcyl", 16, |r, c| {
        let y = prim(&c.b).3.unwrap();
        run_ours(c.flags, |sink| collide_convex_cylinder(&cvx(r, &c.a), &c.a.pose, &y, &c.b.pose, sink))
    });
}

#[test]
fn convex_convex_matches_ode() {
    mpr_pair("cvxcvx", 17, |r, c| {
        run_ours(c.flags, |sink| collide_convex_convex(&cvx(r, &c.a), &c.a.pose, &cvx(r, &c.b), &c.b.pose, sink))
    });
}

#[test]
fn capsule_cylinder_matches_ode() {
    mpr_pair("capcyl", 18, |_, c| {
        let k = prim(&c.a).2.unwrap();
        let y = prim(&c.b).3.unwrap();
        run_ours(c.flags, |sink| collide_capsule_cylinder(&k, &c.a.pose, &y, &c.b.pose, sink))
    });
}
