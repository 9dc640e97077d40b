//! The AABB refresh of spheres, boxes, capsules and cylinders reads the
//! pose where it lives (the body's, or the geom's own) instead of copying
//! it (`geom::compute_aabb`'s primitive path). It must give the generic
//! formula's bits (`geom::shape_aabb` on a copy of the pose, the path every
//! other class takes): free geoms, geoms sharing a body's pose, and geoms
//! with an offset, under random rotations and moves, with degenerate
//! rotations (axis-aligned, cylinder axis exactly along a world axis)
//! among them. Runs through the C entry points.
use ode::collision::geom::{self, g};
use ode::collision::space::check;
use ode::ffi::collision::*;
use ode::ffi::objects_body::*;
use ode::ffi::objects_world::*;
use std::ffi::c_void;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
    /// A unit quaternion; every fourth one a quarter turn about an axis
    /// (rotation entries exactly 0 and ±1).
    fn quaternion(&mut self, k: usize) -> [f64; 4] {
        if k.is_multiple_of(4) {
            let s = std::f64::consts::FRAC_1_SQRT_2;
            return [[s, s, 0.0, 0.0], [s, 0.0, s, 0.0], [s, 0.0, 0.0, s], [1.0, 0.0, 0.0, 0.0]][(k / 4) % 4];
        }
        let q = [self.uniform(-1.0, 1.0), self.uniform(-1.0, 1.0), self.uniform(-1.0, 1.0), self.uniform(-1.0, 1.0)];
        let l = q.iter().map(|v| v * v).sum::<f64>().sqrt();
        q.map(|v| v / l)
    }
}

/// The geom's AABB as `dGeomGetAABB` refreshes it, and the generic
/// formula's on a copy of its pose.
unsafe fn both(geom: *mut c_void) -> ([f64; 6], [f64; 6]) {
    let mut got = [0.0; 6];
    dGeomGetAABB(geom, got.as_mut_ptr());
    let h = check(geom).expect("live geom");
    let want = geom::shape_aabb(&g(h).shape, &geom::pose(h));
    (got, want)
}

#[test]
fn primitive_aabb_path_matches_generic_formula() {
    unsafe {
        let world = dWorldCreate();
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut geoms = Vec::new();
        let mut bodies = Vec::new();
        for k in 0..240 {
            let geom = match k % 4 {
                0 => dCreateBox(
                    std::ptr::null_mut(),
                    rng.uniform(0.1, 2.0),
                    rng.uniform(0.1, 2.0),
                    rng.uniform(0.1, 2.0),
                ),
                1 => dCreateSphere(std::ptr::null_mut(), rng.uniform(0.1, 2.0)),
                2 => dCreateCapsule(std::ptr::null_mut(), rng.uniform(0.1, 1.0), rng.uniform(0.1, 2.0)),
                _ => dCreateCylinder(std::ptr::null_mut(), rng.uniform(0.1, 1.0), rng.uniform(0.1, 2.0)),
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
                            rng.uniform(-1.0, 1.0),
                            rng.uniform(-1.0, 1.0),
                            rng.uniform(-1.0, 1.0),
                        );
                        let q = rng.quaternion(k + 1);
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
                let q = rng.quaternion(k + round);
                let p = [rng.uniform(-50.0, 50.0), rng.uniform(-50.0, 50.0), rng.uniform(-50.0, 50.0)];
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
                let (got, want) = both(geom);
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
