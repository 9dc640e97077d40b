//! Geoms on shared data (heightfield, trimesh, convex) and transforms
//! through the safe API, checked against closed forms; the data outlives
//! the caller's references because the space keeps it.
use ode::api::{collide, ConvexData, DVec3, Error, HeightfieldData, Space, SpaceKind, TriMeshData};
use std::sync::Arc;

#[test]
fn convex_cuboid_on_a_plane_touches_like_a_box() {
    let mut s = Space::new(SpaceKind::Simple);
    let plane = s.add_plane([0.0, 0.0, 1.0], 0.0).unwrap();
    let hull = Arc::new(ConvexData::cuboid(1.0, 1.0, 1.0).unwrap());
    let c = s.add_convex(&hull).unwrap();
    drop(hull); // the space keeps the arrays alive
    s.set_position(c, [0.0, 0.0, 0.4]).unwrap();
    let contacts = collide(c, plane, 8).unwrap();
    assert!(!contacts.is_empty());
    for k in &contacts {
        assert!((k.depth - 0.1).abs() < 1e-12, "{k:?}");
        assert_eq!(k.normal, DVec3::Z);
    }
}

#[test]
fn sphere_on_mesh_and_terrain() {
    let mut s = Space::new(SpaceKind::Hash);
    // Two triangles making the square [-1, 1]² at z = 0.
    let v = [
        DVec3::new(-1.0, -1.0, 0.0),
        DVec3::new(1.0, -1.0, 0.0),
        DVec3::new(1.0, 1.0, 0.0),
        DVec3::new(-1.0, 1.0, 0.0),
    ];
    let mesh = Arc::new(TriMeshData::new(&v, &[[0, 1, 2], [0, 2, 3]]).unwrap());
    assert_eq!(mesh.num_triangles(), 2);
    let m = s.add_trimesh(&mesh).unwrap();
    let ball = s.add_sphere(0.5).unwrap();
    // Away from the shared diagonal edge: one face contact.
    s.set_position(ball, [0.5, -0.5, 0.45]).unwrap();
    let c = collide(ball, m, 4).unwrap();
    assert_eq!(c.len(), 1, "{c:?}");
    assert!((c[0].depth - 0.05).abs() < 1e-9 && c[0].side2 == 0, "{c:?}");

    let hf =
        Arc::new(HeightfieldData::builder(2.0, 2.0, 5, 5, vec![0.25; 25]).scale(2.0).offset(-0.1).build().unwrap());
    assert_eq!(hf.height(2, 2), 0.4);
    let t = s.add_heightfield(&hf, false).unwrap();
    let ball2 = s.add_sphere(0.5).unwrap();
    s.set_position(ball2, [0.1, 0.8, -0.2]).unwrap(); // y is up for heightfields
    let c = collide(ball2, t, 4).unwrap();
    assert!(!c.is_empty() && (c[0].depth - 0.1).abs() < 1e-9, "{c:?}");
}

#[test]
fn bad_data_is_refused() {
    let bad = |r: Result<HeightfieldData, Error>, name: &str| match r {
        Err(Error::InvalidArgument { arg, .. }) => assert_eq!(arg, name),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("accepted"),
    };
    bad(HeightfieldData::builder(1.0, 1.0, 2, 2, vec![0.0; 3]).build(), "heights");
    bad(HeightfieldData::builder(1.0, 1.0, 1, 2, vec![0.0; 2]).build(), "width_samples");
    bad(HeightfieldData::builder(0.0, 1.0, 2, 2, vec![0.0; 4]).build(), "width");
    bad(HeightfieldData::builder(1.0, 1.0, 2, 2, vec![0.0, f64::NAN, 0.0, 0.0]).build(), "heights");
    assert!(matches!(
        TriMeshData::new(&[DVec3::ZERO], &[[0, 0, 1]]),
        Err(Error::InvalidArgument { arg: "triangles", .. })
    ));
    assert!(matches!(
        ConvexData::new(&[(DVec3::Z, 1.0)], &[DVec3::ZERO], &[vec![0, 0, 5]]),
        Err(Error::InvalidArgument { arg: "polygons", .. })
    ));
}

#[test]
fn a_transform_offsets_its_child() {
    let mut s = Space::new(SpaceKind::Simple);
    let plane = s.add_plane([0.0, 0.0, 1.0], 0.0).unwrap();
    let child = s.add_sphere(0.5).unwrap();
    let tr = s.add_transform(child).unwrap();
    assert_eq!(s.num_geoms(s.root()).unwrap(), 2, "the child left the space");
    s.set_position(child, [0.0, 0.0, -1.0]).unwrap(); // relative to the transform
    s.set_position(tr, [0.0, 0.0, 1.4]).unwrap();
    let c = collide(tr, plane, 4).unwrap();
    assert_eq!(c.len(), 1);
    assert!((c[0].depth - 0.1).abs() < 1e-12);
    assert_eq!(c[0].g1, child, "contacts report the child by default");
    s.set_transform_info(tr, true).unwrap();
    assert_eq!(collide(tr, plane, 4).unwrap()[0].g1, tr);
    s.destroy(tr).unwrap();
    assert!(!child.is_alive(), "the transform owned its child");
}

#[test]
fn point_depths_and_ray_options() {
    let mut s = Space::new(SpaceKind::Simple);
    let sphere = s.add_sphere(1.0).unwrap();
    let bx = s.add_box(2.0, 2.0, 2.0).unwrap();
    s.set_position(bx, [5.0, 0.0, 0.0]).unwrap();
    let plane = s.add_plane([0.0, 0.0, 1.0], -1.0).unwrap();
    assert_eq!(s.point_depth(sphere, [0.25, 0.0, 0.0]).unwrap(), 0.75);
    assert_eq!(s.point_depth(bx, [5.5, 0.0, 0.0]).unwrap(), 0.5);
    assert_eq!(s.point_depth(plane, [0.0, 0.0, -3.0]).unwrap(), 2.0);
    let ray = s.add_ray(10.0).unwrap();
    assert!(matches!(s.point_depth(ray, [0.0; 3]), Err(Error::InvalidArgument { arg: "geom", .. })));
    // A ray along +x from x = -5 hits the sphere at x = -1.
    s.set_ray(ray, [-5.0, 0.0, 0.0], [1.0, 0.0, 0.0]).unwrap();
    s.set_ray_options(ray, false, false, true).unwrap();
    let c = collide(ray, sphere, 1).unwrap();
    assert_eq!(c.len(), 1);
    assert!((c[0].depth - 4.0).abs() < 1e-12 && (c[0].pos.x + 1.0).abs() < 1e-12, "{c:?}");
    assert!(matches!(s.set_ray_options(sphere, true, true, true), Err(Error::InvalidArgument { arg: "geom", .. })));
}
