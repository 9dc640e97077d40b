//! Geom queries of the safe API: trimesh triangles and points equal the C
//! getters on the same geom, ray casts report every geom hit nearest first
//! (the same hits as colliding a ray geom), heightfields built from a
//! function equal those built from the sampled array, and bad arguments
//! are refused.
use ode::api::{collide, DQuat, DVec3, Error, HeightfieldData, Space, SpaceKind, TriMeshData};
use std::sync::Arc;

fn tetra() -> Arc<TriMeshData> {
    let v = [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z];
    Arc::new(TriMeshData::new(&v, &[[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]).unwrap())
}

#[test]
fn api_trimesh_triangles_equal_the_c_getters() {
    let mut space = Space::new(SpaceKind::Simple);
    let mesh = space.add_trimesh(&tetra()).unwrap();
    space.set_position(mesh, [1.0, 2.0, 3.0]).unwrap();
    space.set_quaternion(mesh, DQuat::from_rotation_z(0.7)).unwrap();
    assert_eq!(space.trimesh_triangle_count(mesh).unwrap(), 4);
    let raw = mesh.as_raw() as ode::ffi::dGeomID;
    for i in 0..4 {
        let t = space.trimesh_triangle(mesh, i).unwrap();
        let mut c = [[0.0f64; 4]; 3];
        let [p0, p1, p2] = &mut c;
        unsafe { ode::ffi::collision_trimesh::dGeomTriMeshGetTriangle(raw, i as i32, p0, p1, p2) };
        for k in 0..3 {
            assert_eq!(t[k].to_array(), [c[k][0], c[k][1], c[k][2]], "triangle {i} vertex {k}");
        }
        let p = space.trimesh_point(mesh, i, 0.25, 0.5).unwrap();
        let mut out = [0.0f64; 4];
        unsafe { ode::ffi::collision_trimesh::dGeomTriMeshGetPoint(raw, i as i32, 0.25, 0.5, out.as_mut_ptr()) };
        assert_eq!(p.to_array(), [out[0], out[1], out[2]]);
    }
    assert!(matches!(space.trimesh_triangle(mesh, 4), Err(Error::InvalidArgument { arg: "index", .. })));
    assert!(matches!(space.trimesh_point(mesh, 0, f64::NAN, 0.0), Err(Error::InvalidArgument { arg: "u", .. })));
    let ball = space.add_sphere(1.0).unwrap();
    assert!(matches!(space.trimesh_triangle(ball, 0), Err(Error::InvalidArgument { arg: "geom", .. })));
    let other = Space::new(SpaceKind::Simple);
    assert_eq!(other.trimesh_triangle(mesh, 0), Err(Error::WrongSpace));
    space.destroy(mesh).unwrap();
    assert_eq!(space.trimesh_triangle(mesh, 0), Err(Error::Stale("geom")));
}

#[test]
fn api_cast_ray_reports_hits_nearest_first() {
    let mut space = Space::new(SpaceKind::Hash);
    let ground = space.add_plane([0.0, 0.0, 1.0], 0.0).unwrap();
    let inner = space.add_space(SpaceKind::Simple).unwrap();
    let ball = space.add_sphere_in(inner, 0.5).unwrap();
    space.set_position(ball, [0.2, 0.0, 2.0]).unwrap();
    let bx = space.add_box(1.0, 1.0, 1.0).unwrap();
    space.set_position(bx, [0.0, 0.0, 6.0]).unwrap();
    let mesh = space.add_trimesh(&tetra()).unwrap();
    space.set_position(mesh, [-0.1, -0.1, 3.5]).unwrap();
    let before = space.num_geoms(space.root()).unwrap();
    assert!(space.contains(inner, ball).unwrap());
    assert!(!space.contains(space.root(), ball).unwrap(), "only direct children");
    assert!(space.contains(space.root(), inner.geom()).unwrap());

    let hits = space.cast_ray([0.0, 0.0, 10.0], [0.0, 0.0, -2.0], 20.0, 4).unwrap();
    let order: Vec<_> = hits.iter().map(|h| h.geom).collect();
    // The ray enters and leaves the tetrahedron through two triangles.
    assert_eq!(order, vec![bx, mesh, mesh, ball, ground]);
    assert_ne!(hits[1].side, hits[2].side);
    assert!(hits.windows(2).all(|w| w[0].distance <= w[1].distance));
    assert_eq!(space.num_geoms(space.root()).unwrap(), before, "the space is unchanged");

    // The same hits as a ray geom collided with each geom.
    let ray = space.add_ray(20.0).unwrap();
    space.set_ray(ray, [0.0, 0.0, 10.0], [0.0, 0.0, -2.0]).unwrap();
    for h in &hits {
        let c = collide(ray, h.geom, 4).unwrap();
        assert!(c.iter().any(|c| (c.pos, c.normal, c.depth, c.side2) == (h.pos, h.normal, h.distance, h.side)));
    }
    // Too short a ray misses what is beyond it.
    assert_eq!(space.cast_ray([0.0, 0.0, 10.0], [0.0, 0.0, -1.0], 5.0, 1).unwrap().len(), 1);
    for (r, arg) in [
        (space.cast_ray([f64::NAN, 0.0, 0.0], DVec3::Z, 1.0, 1), "start"),
        (space.cast_ray(DVec3::ZERO, DVec3::ZERO, 1.0, 1), "dir"),
        (space.cast_ray(DVec3::ZERO, DVec3::Z, -1.0, 1), "length"),
        (space.cast_ray(DVec3::ZERO, DVec3::Z, 1.0, 0), "max_per_geom"),
    ] {
        assert!(matches!(r, Err(Error::InvalidArgument { arg: a, .. }) if a == arg), "{arg}");
    }
}

#[test]
fn api_heightfield_from_fn_equals_the_sampled_array() {
    let f = |x: usize, z: usize| ((x * 7 + z * 3) % 5) as f64 * 0.25;
    let (ws, ds) = (6, 4);
    let heights: Vec<f64> = (0..ws * ds).map(|i| f(i % ws, i / ws)).collect();
    let a = HeightfieldData::from_fn(5.0, 3.0, ws, ds, f).offset(0.5).build().unwrap();
    let b = HeightfieldData::builder(5.0, 3.0, ws, ds, heights).offset(0.5).build().unwrap();
    for x in 0..ws {
        for z in 0..ds {
            assert_eq!(a.height(x, z).to_bits(), b.height(x, z).to_bits());
        }
    }
    assert!(matches!(
        HeightfieldData::from_fn(5.0, 3.0, 1, 4, f).build(),
        Err(Error::InvalidArgument { arg: "width_samples", .. })
    ));
    assert!(matches!(
        HeightfieldData::from_fn(5.0, 3.0, 3, 3, |_, _| f64::NAN).build(),
        Err(Error::InvalidArgument { arg: "heights", .. })
    ));
}

/// A trimesh triangle filter (`dGeomTriMeshSetCallback`) sees each
/// candidate triangle with the other geom and removes the contacts of the
/// triangles it rejects; a panicking filter is reported, not unwound.
#[test]
fn api_trimesh_filter_selects_triangles() {
    let mut space = Space::new(SpaceKind::Simple);
    // Two triangles side by side in the z = 0 plane, a ball over each.
    let v =
        [DVec3::new(-2.0, -1.0, 0.0), DVec3::new(0.0, -1.0, 0.0), DVec3::new(0.0, 1.0, 0.0), DVec3::new(2.0, 1.0, 0.0)];
    let data = Arc::new(TriMeshData::new(&v, &[[0, 1, 2], [1, 3, 2]]).unwrap());
    let mesh = space.add_trimesh(&data).unwrap();
    let left = space.add_sphere(0.3).unwrap();
    space.set_position(left, [-0.6, -0.2, 0.2]).unwrap();
    let right = space.add_sphere(0.3).unwrap();
    space.set_position(right, [0.6, 0.2, 0.2]).unwrap();
    let unfiltered = (collide(mesh, left, 8).unwrap(), collide(mesh, right, 8).unwrap());
    assert_eq!((unfiltered.0.len(), unfiltered.1.len()), (1, 1));

    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    space
        .set_trimesh_filter(mesh, move |other, tri| {
            log.lock().unwrap().push((other, tri));
            tri == 1
        })
        .unwrap();
    assert!(collide(mesh, left, 8).unwrap().is_empty(), "triangle 0 is filtered out");
    assert_eq!(collide(mesh, right, 8).unwrap(), unfiltered.1, "triangle 1 gives the same contact");
    // The filter sees every candidate triangle (both are near each ball).
    let mut calls = seen.lock().unwrap().clone();
    calls.sort_by_key(|&(g, t)| (g != left, t));
    assert_eq!(calls, vec![(left, 0), (left, 1), (right, 0), (right, 1)]);

    space.set_trimesh_filter(mesh, |_, _| panic!("filter boom")).unwrap();
    assert!(matches!(collide(mesh, left, 8), Err(Error::CallbackPanicked(m)) if m == "filter boom"));
    space.clear_trimesh_filter(mesh).unwrap();
    assert_eq!(collide(mesh, left, 8).unwrap(), unfiltered.0);
    assert!(matches!(space.set_trimesh_filter(left, |_, _| true), Err(Error::InvalidArgument { arg: "geom", .. })));
}
