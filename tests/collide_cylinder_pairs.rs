//! Cylinder pairs ODE handles natively (cylinder–sphere, cylinder–box,
//! cylinder–plane, ray–cylinder): thousands of placements drawn and
//! collided by Debian's libode.so.8 (`ctests/ref_collide_cylinder_convex_heightfield.c`), replayed
//! through our pure collider functions; counts, positions, normals and
//! depths must agree, and the normal/depth rule must hold for us wherever
//! it holds for ODE.

mod collide_pairs_common;
use collide_pairs_common::*;

use ode::collision::colliders::cylinder::*;
use ode::collision::shapes::*;

fn cyl(g: &Geom) -> Cylinder {
    assert_eq!(g.kind, "cylinder");
    Cylinder { radius: g.params[0], length: g.params[1] }
}

const N: usize = 3000;
/// Relative slack of the geometric rule check: the cylinder support
/// function loses precision (sqrt of 1 - z²) near axis-aligned normals.
const RULE_TOL: f64 = 1e-6;

#[test]
fn cylinder_sphere_matches_ode() {
    let r = reference("cylsphere", N, 1);
    let rule = |r: &Reference, c: &Case, k: &[C]| depth_rule(r, c, k, RULE_TOL);
    let s = compare(
        &r,
        1e-12,
        0.0,
        |_, c| {
            run_ours(c.flags, |sink| {
                collide_cylinder_sphere(&cyl(&c.a), &c.a.pose, &Sphere { radius: c.b.params[0] }, &c.b.pose, sink)
            })
        },
        Some(&rule),
    );
    report("cylinder-sphere", &s);
    assert!(s.touching > N / 3);
}

#[test]
fn cylinder_box_matches_ode() {
    let r = reference("cylbox", N, 2);
    let rule = |r: &Reference, c: &Case, k: &[C]| depth_rule(r, c, k, RULE_TOL);
    let s = compare(
        &r,
        1e-9,
        0.0,
        |_, c| {
            let b = BoxShape { sides: [c.b.params[0], c.b.params[1], c.b.params[2]] };
            run_ours(c.flags, |sink| collide_cylinder_box(&cyl(&c.a), &c.a.pose, &b, &c.b.pose, sink))
        },
        Some(&rule),
    );
    report("cylinder-box", &s);
    assert!(s.touching > N / 3);
}

#[test]
fn cylinder_plane_matches_ode() {
    let r = reference("cylplane", N, 3);
    let rule = |r: &Reference, c: &Case, k: &[C]| depth_rule(r, c, k, RULE_TOL);
    let s = compare(
        &r,
        1e-12,
        0.0,
        |_, c| {
            let p = Plane { n: [c.b.params[0], c.b.params[1], c.b.params[2]], d: c.b.params[3] };
            run_ours(c.flags, |sink| collide_cylinder_plane(&cyl(&c.a), &c.a.pose, &p, sink))
        },
        Some(&rule),
    );
    report("cylinder-plane", &s);
    assert!(s.touching > N / 3);
}

/// A ray contact lies on the ray at distance `depth` from its origin, within
/// its length, on the cylinder's surface, with the surface normal.
fn ray_rule(_: &Reference, c: &Case, k: &[C]) -> bool {
    k.iter().all(|k| {
        let o = [c.a.pose.pos[0], c.a.pose.pos[1], c.a.pose.pos[2]];
        let d = c.a.pose.axis(2);
        let on_ray = (0..3).all(|i| (o[i] + d[i] * k.depth - k.pos[i]).abs() < 1e-9);
        let (r, l) = (c.b.params[0], c.b.params[1]);
        let p = c.b.pose.to_local(&k.pos);
        let n = ode::math::mat3::mul1_331(&c.b.pose.r, &k.normal);
        let rho = (p[0] * p[0] + p[1] * p[1]).sqrt();
        let on_side = (rho - r).abs() < 1e-9
            && p[2].abs() <= l * 0.5 + 1e-9
            && n[2].abs() < 1e-9
            && ((n[0] * p[0] + n[1] * p[1]) / r).abs() > 1.0 - 1e-9;
        let on_cap = (p[2].abs() - l * 0.5).abs() < 1e-9 && rho <= r + 1e-9 && (n[2].abs() - 1.0).abs() < 1e-12;
        on_ray && k.depth >= 0.0 && k.depth <= c.a.params[0] && (on_side || on_cap)
    })
}

#[test]
fn ray_cylinder_matches_ode() {
    let r = reference("raycyl", N, 4);
    let s = compare(
        &r,
        1e-12,
        0.0,
        |_, c| {
            let ray = Ray { length: c.a.params[0], flags: 0 };
            run_ours(c.flags, |sink| collide_ray_cylinder(&ray, &c.a.pose, &cyl(&c.b), &c.b.pose, sink))
        },
        Some(&ray_rule),
    );
    report("ray-cylinder", &s);
    assert!(s.touching > N / 20);
}
