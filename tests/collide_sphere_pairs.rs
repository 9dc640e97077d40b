//! Sphere pairs against Debian's ODE: `ctests/ref_collide_sphere_pairs.c` prints
//! random placements and Debian's dCollide contacts (max 1, 2, 4 and 4 with
//! CONTACTS_UNIMPORTANT); our pure colliders must reproduce them bit for
//! bit, and every contact must obey the normal/depth rule: moving sphere
//! `a` by depth·normal leaves the pair just touching.
mod collide_reference_support;
mod common;
use collide_reference_support::*;

const N: usize = 2000;

#[test]
fn sphere_pairs_match_ode_and_obey_the_depth_rule() {
    let cases = reference("ref_collide_sphere_pairs.c", N);
    for pair in ["sphere-sphere", "sphere-box", "sphere-capsule", "capsule-sphere", "sphere-plane"] {
        compare(&cases, pair, 0.0);
    }

    // sphere-sphere: centre distance after the move is r1 + r2.
    let mut inv = Invariant::new("sphere-sphere depth rule", 1e-12);
    for (c, got) in each_contact_set(&cases, "sphere-sphere") {
        let (r1, r2) = (c.a.par[0], c.b.par[0]);
        for g in &got {
            let p = add_scaled(&c.a.pose.pos, g.depth, &g.normal);
            inv.check(norm(&sub(&p, &c.b.pose.pos)) - (r1 + r2), r1 + r2, || format!("{c:?}"));
        }
    }
    inv.report();

    // sphere-box: distance from the moved centre to the box is r.
    let mut inv = Invariant::new("sphere-box depth rule", 1e-12);
    for (c, got) in each_contact_set(&cases, "sphere-box") {
        let r = c.a.par[0];
        for g in &got {
            let p = add_scaled(&c.a.pose.pos, g.depth, &g.normal);
            inv.check(dist_point_box(&c.b.boxs(), &c.b.pose, &p) - r, r + 3.0, || format!("{c:?}"));
        }
    }
    inv.report();

    // sphere-capsule (both orders): distance from the moved sphere centre to
    // the capsule axis is r1 + r2.
    for pair in ["sphere-capsule", "capsule-sphere"] {
        let mut inv = Invariant::new(
            if pair == "sphere-capsule" { "sphere-capsule depth rule" } else { "capsule-sphere depth rule" },
            1e-9,
        );
        for (c, got) in each_contact_set(&cases, pair) {
            let (cap, cp, sp, rs, sign) = if pair == "sphere-capsule" {
                (c.b.capsule(), c.b.pose, c.a.pose, c.a.par[0], 1.0)
            } else {
                // Moving the capsule by d is moving the sphere by -d.
                (c.a.capsule(), c.a.pose, c.b.pose, c.b.par[0], -1.0)
            };
            let (e1, e2) = capsule_ends(&cap, &cp);
            // A centre on the axis has no defined direction: ODE then uses
            // +x (as for concentric spheres), which need not separate.
            if dist_point_segment(&sp.pos, &e1, &e2) < 1e-12 {
                continue;
            }
            for g in &got {
                let p = add_scaled(&sp.pos, sign * g.depth, &g.normal);
                inv.check(dist_point_segment(&p, &e1, &e2) - (cap.radius + rs), cap.radius + rs + cap.length, || {
                    format!("{c:?}")
                });
            }
        }
        inv.report();
    }

    // sphere-plane: the moved sphere's lowest point is on the plane.
    let mut inv = Invariant::new("sphere-plane depth rule", 1e-12);
    for (c, got) in each_contact_set(&cases, "sphere-plane") {
        let pl = c.b.plane();
        for g in &got {
            let p = add_scaled(&c.a.pose.pos, g.depth, &g.normal);
            inv.check(dot(&pl.n, &p) - pl.d - c.a.par[0], pl.d.abs() + c.a.par[0], || format!("{c:?}"));
        }
    }
    inv.report();
}
