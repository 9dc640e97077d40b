//! The safe API's trimesh callbacks (`Space::set_trimesh_touched`,
//! `set_trimesh_ray_filter`, `set_trimesh_merge`, with the sphere merge
//! option) on a unit quad of two triangles, checked against the geometry:
//! which triangles a ball over the diagonal touches (as Debian's ODE lists them), where a ray's
//! barycentric (u, v) puts its hit, what a merged contact carries, and
//! that a panicking closure is reported, not unwound.
use ode::api::{collide, DVec3, Error, Geom, Space, SpaceKind, SphereMerge, TriMeshData};
use std::sync::{Arc, Mutex};

/// A 2 × 2 m quad on z = 0: triangle 0 = (v0, v1, v2), triangle 1 = (v0, v2, v3);
/// their shared edge is the diagonal from (-1, -1) to (1, 1).
fn quad(space: &mut Space) -> Geom {
    let v = [
        DVec3::new(-1.0, -1.0, 0.0),
        DVec3::new(1.0, -1.0, 0.0),
        DVec3::new(1.0, 1.0, 0.0),
        DVec3::new(-1.0, 1.0, 0.0),
    ];
    let data = Arc::new(TriMeshData::new(&v, &[[0, 1, 2], [0, 2, 3]]).unwrap());
    space.add_trimesh(&data).unwrap()
}

#[test]
fn api_trimesh_touched_lists_both_triangles_under_a_ball_on_the_diagonal() {
    let mut space = Space::new(SpaceKind::Simple);
    let mesh = quad(&mut space);
    let ball = space.add_sphere(0.3).unwrap();
    space.set_position(ball, [0.0, 0.0, 0.25]).unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    space.set_trimesh_touched(mesh, move |other, tris| log.lock().unwrap().push((other, tris.to_vec()))).unwrap();
    let contacts = collide(mesh, ball, 8).unwrap();
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1, "one call per collision");
    assert_eq!(seen[0].0, ball);
    let mut tris = seen[0].1.clone();
    tris.sort();
    assert_eq!(tris, vec![0, 1], "the ball over the diagonal touches both triangles");
    // One contact per touched triangle (ODE's default, no merging).
    assert_eq!(contacts.len(), 2);
    // Off the diagonal, over triangle 0 only: one contact, but the callback
    // still lists both triangles, as Debian's ODE does (it reports the
    // candidates of the mesh's tree query; checked with a C program against
    // libode.so.8: "touched n=2: 0 1", 1 contact).
    drop(seen);
    let seen2 = Arc::new(Mutex::new(Vec::new()));
    let log2 = seen2.clone();
    space.set_trimesh_touched(mesh, move |_, tris| log2.lock().unwrap().push(tris.to_vec())).unwrap();
    space.set_position(ball, [0.6, -0.6, 0.25]).unwrap();
    assert_eq!(collide(mesh, ball, 8).unwrap().len(), 1);
    assert_eq!(*seen2.lock().unwrap(), vec![vec![0, 1]]);
    // Away from the mesh: no collision, no call.
    space.set_position(ball, [5.0, 5.0, 0.25]).unwrap();
    assert!(collide(mesh, ball, 8).unwrap().is_empty());
    assert_eq!(seen2.lock().unwrap().len(), 1);
}

#[test]
fn api_trimesh_ray_filter_sees_the_hit_barycentric_and_can_refuse_it() {
    let mut space = Space::new(SpaceKind::Simple);
    let mesh = quad(&mut space);
    let ray = space.add_ray(5.0).unwrap();
    // Straight down onto (0.5, -0.25): inside triangle 0.
    space.set_ray(ray, [0.5, -0.25, 2.0], [0.0, 0.0, -1.0]).unwrap();
    let hits = Arc::new(Mutex::new(Vec::new()));
    let log = hits.clone();
    space
        .set_trimesh_ray_filter(mesh, move |_, tri, u, v| {
            log.lock().unwrap().push((tri, u, v));
            true
        })
        .unwrap();
    let contacts = collide(ray, mesh, 4).unwrap();
    assert_eq!(contacts.len(), 1);
    let (tri, u, v) = hits.lock().unwrap()[0];
    assert_eq!(tri, 0);
    // v0 + u (v1 − v0) + v (v2 − v0) is the hit point.
    let p = space.trimesh_point(mesh, tri, u, v).unwrap();
    assert!((p - DVec3::new(0.5, -0.25, 0.0)).length() < 1e-12, "barycentric point {p}");
    assert!((contacts[0].pos - p).length() < 1e-12);
    // Refused: no hit.
    space.set_trimesh_ray_filter(mesh, |_, _, _, _| false).unwrap();
    assert!(collide(ray, mesh, 4).unwrap().is_empty());
    space.clear_trimesh_callbacks(mesh).unwrap();
    assert_eq!(collide(ray, mesh, 4).unwrap().len(), 1);
}

#[test]
fn api_trimesh_merge_closure_names_the_merged_contacts_triangle() {
    let mut space = Space::new(SpaceKind::Simple);
    let mesh = quad(&mut space);
    let ball = space.add_sphere(0.3).unwrap();
    space.set_position(ball, [0.0, 0.0, 0.25]).unwrap();
    space.set_trimesh_sphere_merge(mesh, SphereMerge::Full).unwrap();
    // Without a closure the merged contact carries −1, as in ODE.
    let merged = collide(mesh, ball, 8).unwrap();
    assert_eq!(merged.len(), 1);
    assert_eq!(merged[0].side1, -1);
    // The depth: 0.05 m into the flat quad, straight up.
    assert!((merged[0].normal.z.abs() - 1.0).abs() < 1e-12 && (merged[0].depth - 0.05).abs() < 1e-12);
    let calls = Arc::new(Mutex::new(Vec::new()));
    let log = calls.clone();
    space
        .set_trimesh_merge(mesh, move |a, b| {
            log.lock().unwrap().push((a, b));
            10 * a + b + 7
        })
        .unwrap();
    let merged = collide(mesh, ball, 8).unwrap();
    let calls = calls.lock().unwrap().clone();
    assert_eq!(calls.len(), 1, "two contacts merge with one call");
    let (a, b) = calls[0];
    assert_eq!(merged[0].side1, 10 * a + b + 7);
    let mut pair = [a, b];
    pair.sort();
    assert_eq!(pair, [0, 1]);
}

#[test]
fn api_trimesh_panicking_callback_is_reported_not_unwound() {
    let mut space = Space::new(SpaceKind::Simple);
    let mesh = quad(&mut space);
    let ball = space.add_sphere(0.3).unwrap();
    space.set_position(ball, [0.3, -0.3, 0.25]).unwrap();
    space.set_trimesh_touched(mesh, |_, _| panic!("touched callback fails")).unwrap();
    match collide(mesh, ball, 8) {
        Err(Error::CallbackPanicked { .. }) => {}
        other => panic!("expected CallbackPanicked, got {other:?}"),
    }
    // Not a trimesh: refused, naming the argument.
    let err = space.set_trimesh_touched(ball, |_, _| {}).unwrap_err();
    assert!(format!("{err}").contains("geom"), "{err}");
}
