//! Geom classes written in Rust (`UserGeom`): they collide through spaces
//! and `collide` like ODE's classes (a Rust sphere class gives exactly the
//! contacts of a plane against a built-in sphere), their objects are freed
//! with the geom, and a panicking callback is reported as an error without
//! unwinding through the library. Also: point depth of every simple class.
use ode::api::{collide, DVec3, Error, GeomClass, GeomView, Space, SpaceKind, UserContact, UserGeom};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A sphere written in Rust; collides with planes only.
struct RustBall {
    radius: f64,
    drops: Arc<AtomicUsize>,
}

impl Drop for RustBall {
    fn drop(&mut self) {
        self.drops.fetch_add(1, Ordering::SeqCst);
    }
}

impl UserGeom for RustBall {
    fn aabb(&self, me: &GeomView) -> (DVec3, DVec3) {
        let p = me.position();
        (p - DVec3::splat(self.radius), p + DVec3::splat(self.radius))
    }

    fn collide(&self, me: &GeomView, other: &GeomView, _max: usize, out: &mut Vec<UserContact>) {
        if let Some((n, d)) = other.plane_params() {
            let p = me.position();
            let depth = d - p.dot(n) + self.radius;
            if depth >= 0.0 {
                out.push(UserContact { pos: p - n * self.radius, normal: n, depth });
            }
        }
    }
}

/// A class whose callbacks panic on demand.
struct Grenade {
    in_aabb: bool,
}

impl UserGeom for Grenade {
    fn aabb(&self, me: &GeomView) -> (DVec3, DVec3) {
        if self.in_aabb {
            panic!("aabb boom");
        }
        (me.position() - DVec3::ONE, me.position() + DVec3::ONE)
    }

    fn collide(&self, _: &GeomView, _: &GeomView, _: usize, _: &mut Vec<UserContact>) {
        panic!("collide boom");
    }
}

#[test]
fn api_user_geom_collides_like_the_builtin_class() {
    let drops = Arc::new(AtomicUsize::new(0));
    {
        let mut space = Space::new(SpaceKind::Hash);
        let ground = space.add_plane([0.0, 0.3, 1.0], 0.2).unwrap();
        let ours = space.add_user(RustBall { radius: 0.5, drops: drops.clone() }).unwrap();
        let theirs = space.add_sphere(0.5).unwrap();
        for g in [ours, theirs] {
            space.set_position(g, [0.1, -0.2, 0.45]).unwrap();
        }
        assert!(matches!(space.class(ours).unwrap(), GeomClass::User(_)));
        let (lo, hi) = space.aabb(ours).unwrap();
        assert_eq!((lo, hi), space.aabb(theirs).unwrap());

        let a = collide(ours, ground, 4).unwrap();
        let b = collide(theirs, ground, 4).unwrap();
        assert_eq!(a.len(), 1);
        assert_eq!(b.len(), 1);
        assert_eq!((a[0].pos, a[0].normal), (b[0].pos, b[0].normal));
        assert!((a[0].depth - b[0].depth).abs() < 1e-15);
        assert_eq!((a[0].g1, a[0].g2), (ours, ground));
        // Reversed order: ODE flips the normal and the geoms.
        let r = collide(ground, ours, 4).unwrap();
        assert_eq!((r[0].normal, r[0].g1), (-a[0].normal, ground));

        // The broad phase finds the pair too.
        let mut pairs = Vec::new();
        space.collide(|x, y| pairs.push((x, y))).unwrap();
        assert!(pairs.iter().any(|&(x, y)| (x == ours || y == ours) && (x == ground || y == ground)));

        // The object is reachable, typed, and changes move the box.
        assert_eq!(space.user_data::<RustBall>(ours).unwrap().radius, 0.5);
        assert!(matches!(space.user_data::<Grenade>(ours), Err(Error::InvalidArgument { arg: "geom", .. })));
        assert!(matches!(space.user_data::<RustBall>(theirs), Err(Error::InvalidArgument { arg: "geom", .. })));
        space.user_data_mut::<RustBall>(ours).unwrap().radius = 1.0;
        assert_eq!(space.aabb(ours).unwrap().1.z, 1.45);

        // Destroying the geom frees its object once; so does dropping the space.
        space.destroy(ours).unwrap();
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        assert_eq!(space.user_data::<RustBall>(ours).err(), Some(Error::Stale("geom")));
        space.add_user(RustBall { radius: 0.1, drops: drops.clone() }).unwrap();
    }
    assert_eq!(drops.load(Ordering::SeqCst), 2);
}

#[test]
fn api_user_geom_panics_are_reported_not_unwound() {
    let mut space = Space::new(SpaceKind::Simple);
    let ball = space.add_sphere(0.5).unwrap();
    let g = space.add_user(Grenade { in_aabb: false }).unwrap();
    match collide(g, ball, 4) {
        Err(Error::CallbackPanicked(msg)) => assert_eq!(msg, "collide boom"),
        other => panic!("expected a reported panic, got {other:?}"),
    }
    match space.collide(|a, b| {
        let _ = (a, b);
    }) {
        Ok(()) => {}
        other => panic!("the near callback does not collide: {other:?}"),
    }
    // A near callback that collides the pair sees the panic as an error.
    let mut seen = Vec::new();
    space.collide(|a, b| seen.push(collide(a, b, 4))).unwrap();
    assert!(matches!(seen.as_slice(), [Err(Error::CallbackPanicked(_))]));

    space.user_data_mut::<Grenade>(g).unwrap().in_aabb = true;
    match space.aabb(g) {
        Err(Error::CallbackPanicked(msg)) => assert_eq!(msg, "aabb boom"),
        other => panic!("expected a reported panic, got {other:?}"),
    }
    // The box is computed again (and the panic reported) once the geom moves.
    space.set_position(g, [0.0, 0.0, 0.1]).unwrap();
    assert!(matches!(space.collide(|_, _| {}), Err(Error::CallbackPanicked(_))));
    // The library is still usable.
    space.destroy(g).unwrap();
    space.collide(|_, _| {}).unwrap();
    assert_eq!(collide(ball, ball, 4).unwrap().len(), 0);
}

#[test]
fn api_point_depth_covers_the_simple_classes() {
    let mut space = Space::new(SpaceKind::Simple);
    let cyl = space.add_cylinder(1.0, 2.0).unwrap(); // along z, |z| <= 1
    space.set_position(cyl, [1.0, 0.0, 0.0]).unwrap();
    let d = |s: &Space, p: [f64; 3]| s.point_depth(cyl, p).unwrap();
    assert_eq!(d(&space, [1.0, 0.0, 0.0]), 1.0); // centre: 1 to the side and to the caps
    assert_eq!(d(&space, [1.5, 0.0, 0.9]), 0.09999999999999998); // nearest is the top cap
    assert_eq!(d(&space, [1.0, 0.0, 3.0]), -2.0); // above the cap
    assert_eq!(d(&space, [4.0, 0.0, 0.0]), -2.0); // beside it
    assert_eq!(d(&space, [5.0, 0.0, 5.0]), -5.0); // off the rim: 3-4-5
    let sphere = space.add_sphere(1.0).unwrap();
    assert_eq!(space.point_depth(sphere, [0.0, 0.0, 0.5]).unwrap(), 0.5);
    let bx = space.add_box(2.0, 2.0, 2.0).unwrap();
    assert_eq!(space.point_depth(bx, [0.0, 0.0, 0.5]).unwrap(), 0.5);
    let cap = space.add_capsule(1.0, 2.0).unwrap();
    assert_eq!(space.point_depth(cap, [0.0, 0.0, 1.5]).unwrap(), 0.5);
    let plane = space.add_plane([0.0, 0.0, 1.0], 0.0).unwrap();
    assert_eq!(space.point_depth(plane, [0.0, 0.0, -0.5]).unwrap(), 0.5);
    let ray = space.add_ray(1.0).unwrap();
    assert!(matches!(space.point_depth(ray, [0.0; 3]), Err(Error::InvalidArgument { arg: "geom", .. })));
    assert!(matches!(space.point_depth(cyl, [f64::NAN, 0.0, 0.0]), Err(Error::InvalidArgument { arg: "point", .. })));
}

/// A custom joint whose callback panics: the step completes without the
/// joint's rows, returns the panic as an error, and the next step works.
#[test]
fn api_custom_joint_panic_is_reported_not_unwound() {
    use ode::api::{CustomInfo1, CustomInfo2, CustomJoint, JointRow, Mass, World};

    /// Holds the body's height; panics in `info1` on the steps listed.
    struct Holder {
        step: usize,
        panic_at: usize,
    }

    impl CustomJoint for Holder {
        fn info1(&mut self, _: &mut CustomInfo1<'_, '_>) -> (usize, usize) {
            self.step += 1;
            if self.step == self.panic_at {
                panic!("info1 boom");
            }
            (1, 1)
        }
        fn info2(&mut self, _: &mut CustomInfo2<'_, '_>, rows: &mut [JointRow]) {
            rows[0].j1l = [0.0, 0.0, 1.0];
        }
    }

    let mut w = World::new();
    w.set_gravity([0.0, 0.0, -10.0]).unwrap();
    let b = w.create_body();
    b.set_mass(&mut w, &Mass::sphere_total(1.0, 0.1).unwrap()).unwrap();
    let j = w.create_custom_joint(Holder { step: 0, panic_at: 2 }).unwrap();
    w.attach(j, Some(b), None).unwrap();
    w.step(0.1).unwrap();
    assert!(b.linear_vel(&w).unwrap().z.abs() < 1e-6, "held");
    match w.step(0.1) {
        Err(Error::CallbackPanicked(msg)) => assert_eq!(msg, "info1 boom"),
        other => panic!("expected a reported panic, got {other:?}"),
    }
    let v = b.linear_vel(&w).unwrap().z;
    assert!((v + 1.0).abs() < 1e-6, "the joint added no rows in that step: {v}");
    w.step(0.1).unwrap();
    assert!(b.linear_vel(&w).unwrap().z.abs() < 1e-6, "held again");
}
