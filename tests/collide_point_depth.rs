//! Point depths against Debian's ODE: `ctests/ref_collide_point_depth.c` prints
//! random geoms, points (inside, outside, at the centre) and Debian's
//! dGeom*PointDepth; our pure point-depth functions must agree bit for bit.
mod common;
use common::*;
use ode::collision::colliders::{
    box_shape::box_point_depth, capsule::capsule_point_depth, plane::plane_point_depth, sphere::sphere_point_depth,
};
use ode::collision::shapes::*;

#[test]
fn point_depths_match_ode_bit_for_bit() {
    require_reference();
    let bin = build_c("ref_collide_point_depth", &["ref_collide_point_depth.c"], Headers::Debian, &[]);
    let out = run_ok(&bin, Lib::Debian, &["3000"]);
    let mut counts = [0usize; 4];
    let mut signs = [0usize; 2];
    for line in out.lines() {
        let mut tok = line.split_whitespace().skip(1);
        let class: i32 = tok.next().unwrap().parse().unwrap();
        let v: Vec<f64> = tok.map(|t| t.parse().unwrap()).collect();
        assert_eq!(v.len(), 23, "bad line {line}");
        let par = &v[0..4];
        let mut r = [0.0; 12];
        r.copy_from_slice(&v[7..19]);
        let pose = Pose::new([v[4], v[5], v[6]], r);
        let p = [v[19], v[20], v[21]];
        let want = v[22];
        // Class numbers: sphere 0, box 1, capsule 2, plane 4.
        let (kind, got) = match class {
            0 => (0, sphere_point_depth(&Sphere { radius: par[0] }, &pose, p)),
            1 => (1, box_point_depth(&BoxShape { sides: [par[0], par[1], par[2]] }, &pose, p)),
            2 => (2, capsule_point_depth(&Capsule { radius: par[0], length: par[1] }, &pose, p)),
            4 => (3, plane_point_depth(&Plane { n: [par[0], par[1], par[2]], d: par[3] }, p)),
            c => panic!("unexpected class {c}"),
        };
        counts[kind] += 1;
        signs[(want > 0.0) as usize] += 1;
        assert_eq!(got.to_bits(), want.to_bits(), "depth {got} vs ODE {want}: {line}");
    }
    eprintln!(
        "point depths bit-identical: sphere {}, box {}, capsule {}, plane {} (inside {}, outside {})",
        counts[0], counts[1], counts[2], counts[3], signs[1], signs[0]
    );
    assert!(counts.iter().all(|&c| c > 2000) && signs.iter().all(|&s| s > 1000));
}
