//! Safe API collision and joint handles: stale and foreign ids, bad numbers
//! and panicking callbacks give errors and change nothing.
use ode::api::{
    collide, Contact, ContactGeom, DVec3, Error, JointGroup, Mass, Param, Space, SpaceKind, Surface, World,
};

fn invalid<T: std::fmt::Debug>(r: Result<T, Error>, name: &str) {
    match r {
        Err(Error::InvalidArgument { arg, .. }) => assert_eq!(arg, name),
        other => panic!("expected an invalid '{name}', got {other:?}"),
    }
}

#[test]
fn stale_and_foreign_geoms_are_refused() {
    let mut s1 = Space::new(SpaceKind::Simple);
    let mut s2 = Space::new(SpaceKind::Hash);
    let a = s1.add_sphere(1.0).unwrap();
    let b = s2.add_box(1.0, 1.0, 1.0).unwrap();
    assert_eq!(s1.set_position(b, [1.0, 2.0, 3.0]), Err(Error::WrongSpace));
    assert_eq!(s2.position(b).unwrap(), DVec3::ZERO, "a refused call moved the geom");
    assert_eq!(s2.destroy(a), Err(Error::WrongSpace));
    s1.destroy(a).unwrap();
    assert_eq!(s1.position(a), Err(Error::Stale("geom")));
    assert_eq!(s1.destroy(a), Err(Error::Stale("geom")));
    assert!(matches!(collide(a, b, 4), Err(Error::Stale("geom"))));
    // Many creations reuse the freed cell: the old id stays stale.
    let fresh: Vec<_> = (0..600).map(|_| s1.add_sphere(0.5).unwrap()).collect();
    assert_eq!(s1.sphere_radius(a), Err(Error::Stale("geom")));
    assert_eq!(s1.num_geoms(s1.root()).unwrap(), fresh.len());
    // Dropping the space destroys its geoms.
    drop(s1);
    assert!(!fresh[0].is_alive());
    assert!(b.is_alive());
}

#[test]
fn bad_geom_numbers_change_nothing() {
    let mut s = Space::new(SpaceKind::SweepAndPrune(ode::api::SapAxes::Xzy));
    let g = s.add_box(1.0, 2.0, 3.0).unwrap();
    let plane = s.add_plane([0.0, 0.0, 2.0], 1.0).unwrap();
    s.set_position(g, [1.0, 1.0, 1.0]).unwrap();
    invalid(s.set_position(g, [f64::NAN, 0.0, 0.0]), "position");
    invalid(s.set_box_lengths(g, [1.0, -1.0, 1.0]), "ly");
    invalid(s.add_sphere(f64::INFINITY), "radius");
    invalid(s.add_capsule(1.0, f64::NAN), "length");
    invalid(s.set_sphere_radius(g, 1.0), "geom");
    invalid(s.set_position(plane, [0.0; 3]), "geom");
    invalid(s.set_offset_position(g, [0.0; 3]), "geom"); // no body
    invalid(collide(g, plane, 0), "max");
    assert!(matches!(
        Space::try_new(SpaceKind::QuadTree { center: DVec3::ZERO, extents: DVec3::ONE, depth: 99 }),
        Err(Error::InvalidArgument { arg: "depth", .. })
    ));
    assert_eq!(s.position(g).unwrap(), DVec3::ONE);
    assert_eq!(s.box_lengths(g).unwrap(), DVec3::new(1.0, 2.0, 3.0));
    let (n, d) = s.plane_params(plane).unwrap();
    assert_eq!((n, d), (DVec3::Z, 0.5), "ODE normalises the plane");
    assert_eq!(s.num_geoms(s.root()).unwrap(), 2);
}

#[test]
fn categories_nesting_and_enable_select_pairs() {
    let mut s = Space::new(SpaceKind::Hash);
    let inner = s.add_space(SpaceKind::Simple).unwrap();
    let a = s.add_sphere(1.0).unwrap();
    let b = s.add_sphere_in(inner, 1.0).unwrap();
    let c = s.add_sphere_in(inner, 1.0).unwrap();
    let count = |s: &Space| {
        let mut n = 0;
        s.collide(|x, y| {
            // Descend into nested spaces, as a near callback does in C.
            if x == inner.geom() || y == inner.geom() {
                s.collide2(x, y, |_, _| n += 1).unwrap();
            } else {
                n += 1;
            }
        })
        .unwrap();
        s.collide_in(inner, |_, _| n += 1).unwrap();
        n
    };
    assert_eq!(count(&s), 3); // a-b, a-c (through the nested space), b-c
                              // Pairs need one's category bits to meet the other's collide bits.
    s.set_category_bits(a, 1).unwrap();
    s.set_collide_bits(a, 1).unwrap();
    for g in [b, c] {
        s.set_category_bits(g, 2).unwrap();
        s.set_collide_bits(g, 2).unwrap();
    }
    assert_eq!(count(&s), 1, "only b-c");
    s.set_collide_bits(a, 2).unwrap();
    assert_eq!(count(&s), 3);
    s.set_enabled(c, false).unwrap();
    assert_eq!(count(&s), 1);
    s.move_to(c, s.root()).unwrap();
    s.set_enabled(c, true).unwrap();
    assert_eq!(s.num_geoms(inner).unwrap(), 1);
    assert_eq!(count(&s), 3);
    invalid(s.move_to(inner.geom(), inner), "to");
}

#[test]
fn a_panicking_near_callback_is_reported_not_unwound() {
    let mut s = Space::new(SpaceKind::Simple);
    for _ in 0..4 {
        s.add_sphere(1.0).unwrap();
    }
    let mut calls = 0;
    let r = s.collide(|_, _| {
        calls += 1;
        panic!("boom");
    });
    assert_eq!(r, Err(Error::CallbackPanicked("boom".into())));
    assert_eq!(calls, 1, "pairs after the panic are skipped");
    // The space is usable afterwards (not left locked).
    s.add_box(1.0, 1.0, 1.0).unwrap();
    let mut n = 0;
    s.collide(|_, _| n += 1).unwrap();
    assert_eq!(n, 10);
}

#[test]
fn stale_foreign_joints_and_bad_contacts_are_refused() {
    let mut w1 = World::new();
    let mut w2 = World::new();
    let b1 = w1.create_body();
    b1.set_mass(&mut w1, &Mass::sphere(1.0, 0.5).unwrap()).unwrap();
    let h = w1.create_hinge();
    w1.attach(*h, Some(b1), None).unwrap();
    h.set_param(&mut w1, Param::LoStop, -0.5).unwrap();
    assert_eq!(h.set_param(&mut w2, Param::LoStop, 0.0), Err(Error::WrongWorld));
    invalid(h.set_param(&mut w1, Param::HiStop, f64::NAN), "value");
    invalid(h.set_axis(&mut w1, [0.0, 0.0, 0.0]), "axis");
    assert_eq!(h.param(&w1, Param::LoStop).unwrap(), -0.5);
    assert_eq!(h.axis(&w1).unwrap(), DVec3::X, "ODE's default axis (1, 0, 0) kept");
    let b2 = w2.create_body();
    assert_eq!(w1.attach(*h, Some(b2), None), Err(Error::WrongWorld));
    w1.destroy_joint(h).unwrap();
    assert_eq!(h.angle(&w1), Err(Error::Stale("joint")));
    // A hinge2 needs two bodies for its axes.
    let h2 = w1.create_hinge2();
    invalid(h2.set_axes(&mut w1, Some(DVec3::Z), None), "joint");

    // Contacts: NaN in a used surface value, non-finite geometry.
    let mut s = Space::new(SpaceKind::Simple);
    let g = s.add_sphere(1.0).unwrap();
    let group = JointGroup::new();
    let cg = ContactGeom { pos: DVec3::ZERO, normal: DVec3::Z, depth: 0.1, g1: g, g2: g, side1: -1, side2: -1 };
    let before = w1.num_joints();
    invalid(w1.create_contact(&group, &Contact::new(Surface::new(f64::NAN), cg)), "mu");
    invalid(w1.create_contact(&group, &Contact::new(Surface::new(1.0).bounce(f64::NAN, 0.0), cg)), "bounce");
    let bad = ContactGeom { depth: f64::INFINITY, ..cg };
    invalid(w1.create_contact(&group, &Contact::new(Surface::new(1.0), bad)), "depth");
    assert_eq!(w1.num_joints(), before);
    assert!(group.is_empty());
    // An unused surface value may be anything, as in ODE.
    let mut ok = Contact::new(Surface::new(1.0), cg);
    ok.surface = ok.surface.with_mode_bits(0);
    w1.create_contact(&group, &ok).unwrap();
    assert_eq!(group.len(), 1);
}

#[test]
fn hinge_feedback_reports_the_holding_force() {
    let mut w = World::new();
    w.set_gravity([0.0, 0.0, -10.0]).unwrap();
    let b = w.create_body();
    b.set_mass(&mut w, &Mass::sphere_total(2.0, 0.1).unwrap()).unwrap();
    let h = w.create_hinge();
    w.attach(*h, Some(b), None).unwrap();
    h.set_anchor(&mut w, [0.0, 0.0, 0.0]).unwrap();
    h.set_axis(&mut w, [1.0, 0.0, 0.0]).unwrap();
    assert_eq!(h.feedback(&w).unwrap(), None);
    h.set_feedback(&mut w, true).unwrap();
    w.step(0.01).unwrap();
    let f = h.feedback(&w).unwrap().expect("feedback on");
    // The body hangs at the anchor: the joint carries its weight.
    assert!((f.f1.z - 20.0).abs() < 1e-6, "{f:?}");
}
