//! Capsule–capsule and capsule–plane against Debian's ODE
//! (`ctests/ref_collide_capsule_pairs.c`: random, parallel, anti-parallel, nearly
//! parallel and collinear axes, zero-length capsules), replayed through our
//! pure colliders bit for bit, then the normal/depth rule checked.
mod collide_reference_support;
mod common;
use collide_reference_support::*;

const N: usize = 2000;

#[test]
fn capsule_pairs_match_ode_and_obey_the_depth_rule() {
    let cases = reference("ref_collide_capsule_pairs.c", N);
    for pair in ["capsule-capsule", "capsule-plane"] {
        compare(&cases, pair, 0.0);
    }

    // capsule-capsule, single contact from the closest points of the axes:
    // after the move the axes are r1 + r2 apart. Two-contact results (the
    // parallel-axes case) each come from a pair of end spheres: moving by
    // the deeper one's depth must separate the capsules to at least touching.
    let mut one = Invariant::new("capsule-capsule depth rule", 1e-9);
    let mut two = Invariant::new("capsule-capsule (2 contacts): deepest separates", 1e-9);
    let mut skipped = 0;
    for (c, got) in each_contact_set(&cases, "capsule-capsule") {
        let (ca, cb) = (c.a.capsule(), c.b.capsule());
        let (a1, a2) = capsule_ends(&ca, &c.a.pose);
        let (b1, b2) = capsule_ends(&cb, &c.b.pose);
        let reach = ca.radius + cb.radius;
        let scale = reach + ca.length + cb.length;
        if dist_segments(&a1, &a2, &b1, &b2) < 1e-9 {
            // Intersecting axes: no direction, ODE uses +x.
            skipped += 1;
            continue;
        }
        let moved_gap = |g: &ode::ffi::decl::contact::dContactGeom| {
            let d = [g.depth * g.normal[0], g.depth * g.normal[1], g.depth * g.normal[2]];
            dist_segments(&add_scaled(&a1, 1.0, &d), &add_scaled(&a2, 1.0, &d), &b1, &b2) - reach
        };
        // Nearly parallel axes (ODE's 1 - cos² < 1e-5 branch) get contacts
        // from end spheres of the overlap, exact only for parallel axes.
        let par = dot(&c.a.pose.axis(2), &c.b.pose.axis(2)).abs();
        if 1.0 - par > 1e-12 && 1.0 - par * par < 1e-5 {
            continue;
        }
        match got.len() {
            1 => one.check(moved_gap(&got[0]), scale, || format!("{c:?}")),
            2 => {
                let g = if got[0].depth >= got[1].depth { &got[0] } else { &got[1] };
                two.check(moved_gap(g).min(0.0), scale, || format!("{c:?}"));
            }
            _ => {}
        }
    }
    one.report();
    two.report();
    eprintln!("capsule-capsule: {skipped} placements with intersecting axes skipped");

    // capsule-plane: moving by the first (deepest) contact's depth leaves
    // the capsule touching the plane; every contact is an end sphere's
    // lowest point.
    let mut touch = Invariant::new("capsule-plane depth rule", 1e-12);
    for (c, got) in each_contact_set(&cases, "capsule-plane") {
        let (cap, pl) = (c.a.capsule(), c.b.plane());
        let scale = cap.length + cap.radius + pl.d.abs() + norm(&c.a.pose.pos);
        if let Some(g) = got.first() {
            let (e1, e2) = capsule_ends(
                &cap,
                &moved(&c.a.pose, &[g.depth * g.normal[0], g.depth * g.normal[1], g.depth * g.normal[2]]),
            );
            let deepest = (pl.d - dot(&pl.n, &e1)).max(pl.d - dot(&pl.n, &e2)) + cap.radius;
            touch.check(deepest, scale, || format!("{c:?}"));
        }
        for g in &got {
            touch.check(g.depth - (pl.d - dot(&pl.n, &g.pos)), scale, || format!("{c:?}"));
        }
    }
    touch.report();
}
