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
    assert!(matches!(lm.set_axis(&mut w, 3, AxisFrame::World, DVec3::X), Err(Error::InvalidArgument { arg: "axis", .. })));
    assert!(matches!(am.set_num_axes(&mut w, 4), Err(Error::InvalidArgument { arg: "num", .. })));
    assert!(matches!(lm.set_param_axis(&mut w, 0, Param::Vel, f64::NAN), Err(Error::InvalidArgument { arg: "value", .. })));
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
