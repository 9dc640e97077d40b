//! Ray pairs against Debian's ODE (`ctests/ref_collide_ray_pairs.c`: starts inside
//! and outside, axis-aligned and random directions, random lengths and ray
//! flags), replayed through our pure colliders bit for bit. For rays the
//! depth is the distance along the ray: each hit must lie at
//! start + depth·direction, on the shape's surface, within the ray length,
//! with a unit normal along the surface normal there.
mod collide_reference_support;
mod common;
use collide_reference_support::*;

const N: usize = 2000;

#[test]
fn ray_pairs_match_ode_and_hit_the_surface() {
    let cases = reference("ref_collide_ray_pairs.c", N);
    for pair in ["ray-sphere", "ray-box", "ray-capsule", "ray-plane"] {
        compare(&cases, pair, 0.0);
    }

    for pair in ["ray-sphere", "ray-box", "ray-capsule", "ray-plane"] {
        let mut along = Invariant::new("ray: hit at start + depth·dir within length", 1e-12);
        let mut surface = Invariant::new("ray: hit on the surface", 1e-12);
        let mut normal = Invariant::new("ray: normal is the unit surface normal", 1e-9);
        for (c, got) in each_contact_set(&cases, pair) {
            let start = c.a.pose.pos;
            let dir = c.a.pose.axis(2);
            let len = c.a.par[0];
            let scale = norm(&start) + len + 4.0;
            for g in &got {
                along.check(norm(&sub(&add_scaled(&start, g.depth, &dir), &g.pos)), scale, || format!("{c:?}"));
                along.check((g.depth - g.depth.clamp(0.0, len)).abs(), scale, || format!("{c:?}"));
                normal.check(norm(&g.normal) - 1.0, 1.0, || format!("{c:?}"));
                // Surface normal at the hit (up to sign).
                let sn = match pair {
                    "ray-sphere" => {
                        let r = c.b.par[0];
                        surface.check(norm(&sub(&g.pos, &c.b.pose.pos)) - r, scale, || format!("{c:?}"));
                        let d = sub(&g.pos, &c.b.pose.pos);
                        [d[0] / r, d[1] / r, d[2] / r]
                    }
                    "ray-box" => {
                        let bx = c.b.boxs();
                        let q = local(&c.b.pose, &g.pos);
                        // On the boundary: inside (distance 0) with one
                        // coordinate on a face.
                        surface.check(dist_point_box(&bx, &c.b.pose, &g.pos), scale, || format!("{c:?}"));
                        let (i, gap) = (0..3)
                            .map(|i| (i, (q[i].abs() - 0.5 * bx.sides[i]).abs()))
                            .fold((0, f64::INFINITY), |b, x| if x.1 < b.1 { x } else { b });
                        surface.check(gap, scale, || format!("{c:?}"));
                        c.b.pose.axis(i)
                    }
                    "ray-capsule" => {
                        let cap = c.b.capsule();
                        let (e1, e2) = capsule_ends(&cap, &c.b.pose);
                        surface.check(dist_point_segment(&g.pos, &e1, &e2) - cap.radius, scale, || format!("{c:?}"));
                        // Normal from the nearest axis point.
                        let ax = c.b.pose.axis(2);
                        let t = dot(&sub(&g.pos, &c.b.pose.pos), &ax).clamp(-0.5 * cap.length, 0.5 * cap.length);
                        let d = sub(&g.pos, &add_scaled(&c.b.pose.pos, t, &ax));
                        let l = norm(&d);
                        [d[0] / l, d[1] / l, d[2] / l]
                    }
                    _ => {
                        let pl = c.b.plane();
                        surface.check(dot(&pl.n, &g.pos) - pl.d, scale, || format!("{c:?}"));
                        pl.n
                    }
                };
                normal.check(dot(&sn, &g.normal).abs() - 1.0, 1.0, || format!("{c:?}"));
            }
        }
        eprint!("{pair}: ");
        along.report();
        eprint!("{pair}: ");
        surface.report();
        eprint!("{pair}: ");
        normal.report();
    }
}
