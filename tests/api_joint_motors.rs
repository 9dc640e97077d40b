//! Motor joints through the safe API reach their target velocity with
//! ample force (closed form: a velocity motor row is an equality on the
//! rate when FMax is not reached), and refuse bad axes and frames.
use ode::api::{AxisFrame, DVec3, Error, Mass, Param, World};

fn free_body(w: &mut World) -> ode::api::Body {
    let b = w.create_body();
    b.set_mass(w, &Mass::box_total(1.0, 1.0, 2.0, 3.0).unwrap()).unwrap();
    b
}

#[test]
fn linear_and_angular_motors_reach_their_velocity() {
    let mut w = World::new();
    let b = free_body(&mut w);
    let lm = w.create_lmotor();
    w.attach(*lm, Some(b), None).unwrap();
    lm.set_num_axes(&mut w, 1).unwrap();
    lm.set_axis(&mut w, 0, AxisFrame::World, [1.0, 0.0, 0.0]).unwrap();
    lm.set_param_axis(&mut w, 0, Param::Vel, 2.0).unwrap();
    lm.set_param_axis(&mut w, 0, Param::FMax, 1e6).unwrap();
    let am = w.create_amotor();
    w.attach(*am, Some(b), None).unwrap();
    am.set_num_axes(&mut w, 1).unwrap();
    am.set_axis(&mut w, 0, AxisFrame::World, [0.0, 0.0, 1.0]).unwrap();
    am.set_param_axis(&mut w, 0, Param::Vel, 3.0).unwrap();
    am.set_param_axis(&mut w, 0, Param::FMax, 1e6).unwrap();
    w.step(0.01).unwrap();
    assert!((b.linear_vel(&w).unwrap() - DVec3::new(2.0, 0.0, 0.0)).length() < 1e-6);
    assert!((b.angular_vel(&w).unwrap() - DVec3::new(0.0, 0.0, 3.0)).length() < 1e-6);
    assert_eq!(am.param_axis(&w, 0, Param::Vel).unwrap(), 3.0);
    // Bad axes change nothing.
    assert!(matches!(
        lm.set_axis(&mut w, 3, AxisFrame::World, DVec3::X),
        Err(Error::InvalidArgument { arg: "axis", .. })
    ));
    assert!(matches!(am.set_num_axes(&mut w, 4), Err(Error::InvalidArgument { arg: "num", .. })));
    assert!(matches!(
        lm.set_param_axis(&mut w, 0, Param::Vel, f64::NAN),
        Err(Error::InvalidArgument { arg: "value", .. })
    ));
}

#[test]
fn piston_motor_slides_along_its_axis() {
    let mut w = World::new();
    let b = free_body(&mut w);
    let p = w.create_piston();
    w.attach(*p, Some(b), None).unwrap();
    p.set_anchor(&mut w, [0.0, 0.0, 0.0]).unwrap();
    p.set_axis(&mut w, [0.0, 1.0, 0.0]).unwrap();
    p.set_param(&mut w, Param::Vel, 0.5).unwrap();
    p.set_param(&mut w, Param::FMax, 1e6).unwrap();
    for _ in 0..100 {
        w.step(0.01).unwrap();
    }
    assert!((p.position(&w).unwrap() - 0.5).abs() < 1e-6, "{}", p.position(&w).unwrap());
    assert_eq!(p.axis(&w).unwrap(), DVec3::Y);
    let n = w.create_null();
    w.attach(*n, Some(b), None).unwrap();
    assert_eq!(n.num_bodies(&w).unwrap(), 1);
    let pl = w.create_plane2d();
    assert_eq!(pl.num_bodies(&w).unwrap(), 0);
}

#[test]
fn dball_keeps_its_distance_and_pr_slides() {
    let mut w = World::new();
    w.set_gravity([0.0, 0.0, -9.81]).unwrap();
    let b = free_body(&mut w);
    b.set_position(&mut w, [1.0, 0.0, 0.0]).unwrap();
    let d = w.create_dball();
    w.attach(*d, Some(b), None).unwrap();
    d.set_anchor(&mut w, 0, [1.0, 0.0, 0.0]).unwrap();
    d.set_anchor(&mut w, 1, [0.0, 0.0, 0.0]).unwrap();
    d.set_distance(&mut w, 1.0).unwrap();
    assert!(matches!(d.set_distance(&mut w, -1.0), Err(Error::InvalidArgument { arg: "dist", .. })));
    let mut lowest: f64 = 0.0;
    for _ in 0..200 {
        w.step(0.005).unwrap();
        let p = b.position(&w).unwrap();
        // ERP corrects the drift a step late: a few mm at full swing speed.
        assert!((p.length() - 1.0).abs() < 5e-3, "distance {}", p.length());
        lowest = lowest.min(p.z);
    }
    assert!(lowest < -0.99, "it swung through the bottom ({lowest})");

    let c = free_body(&mut w);
    let pr = w.create_pr();
    w.attach(*pr, Some(c), None).unwrap();
    pr.set_anchor(&mut w, [0.0, 0.0, 0.0]).unwrap();
    pr.set_axis1(&mut w, [0.0, 0.0, 1.0]).unwrap();
    pr.set_axis2(&mut w, [1.0, 0.0, 0.0]).unwrap();
    for _ in 0..100 {
        w.step(0.01).unwrap();
    }
    // Free fall along the prismatic axis: z = -g t²/2 to first order in h.
    let z = pr.position(&w).unwrap();
    assert!((z + 0.5 * 9.81).abs() < 0.06, "{z}");
}

#[test]
fn dhinge_needs_a_body_for_its_axis() {
    let mut w = World::new();
    let h = w.create_dhinge();
    assert!(matches!(h.set_axis(&mut w, DVec3::Z), Err(Error::InvalidArgument { arg: "joint", .. })));
    let b = free_body(&mut w);
    w.attach(*h, Some(b), None).unwrap();
    assert!(matches!(h.set_axis(&mut w, DVec3::ZERO), Err(Error::InvalidArgument { arg: "axis", .. })));
    h.set_axis(&mut w, [0.0, 0.0, 2.0]).unwrap();
    assert_eq!(h.axis(&w).unwrap(), DVec3::Z, "the axis is normalised");
}
