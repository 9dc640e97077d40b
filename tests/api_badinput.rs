//! Bad input through the safe Rust API: every refusal is an `Err` naming
//! the argument, and leaves the body bit-identical.
use ode::api::convert::{quat_from_ode, quat_to_ode};
use ode::api::{Body, Error, Mass, World};

/// Every readable property of a body, as raw bits.
fn snapshot(b: Body, w: &World) -> Vec<u64> {
    let mut v: Vec<f64> = Vec::new();
    v.extend(b.position(w).unwrap().to_array());
    v.extend(b.rotation_ode(w).unwrap());
    v.extend(quat_to_ode(b.quaternion(w).unwrap()));
    v.extend(b.linear_vel(w).unwrap().to_array());
    v.extend(b.angular_vel(w).unwrap().to_array());
    v.extend(b.force(w).unwrap().to_array());
    v.extend(b.torque(w).unwrap().to_array());
    let m = b.mass(w).unwrap();
    v.push(m.mass);
    v.extend(m.c);
    v.extend(m.I);
    v.extend(b.finite_rotation_axis(w).unwrap().to_array());
    let (a, c) = b.auto_disable_thresholds(w).unwrap();
    let (d, e) = b.damping(w).unwrap();
    let (f, g) = b.damping_thresholds(w).unwrap();
    v.extend([a, c, d, e, f, g, b.auto_disable_time(w).unwrap(), b.max_angular_speed(w).unwrap()]);
    let mut bits: Vec<u64> = v.iter().map(|x| x.to_bits()).collect();
    bits.extend([
        b.is_kinematic(w).unwrap() as u64,
        b.is_enabled(w).unwrap() as u64,
        b.gravity_mode(w).unwrap() as u64,
        b.gyroscopic_mode(w).unwrap() as u64,
        b.finite_rotation_mode(w).unwrap() as u64,
        b.auto_disable_flag(w).unwrap() as u64,
        b.auto_disable_steps(w).unwrap() as u64,
        b.auto_disable_average_samples(w).unwrap() as u64,
        b.num_joints(w).unwrap() as u64,
    ]);
    bits
}

fn configured(w: &mut World) -> Body {
    let b = w.create_body();
    b.set_position(w, [1.0, -2.0, 3.0]).unwrap();
    b.set_quaternion(w, quat_from_ode(&[0.9, 0.1, -0.3, 0.2])).unwrap();
    b.set_linear_vel(w, [0.5, 0.25, -1.0]).unwrap();
    b.set_angular_vel(w, [-0.5, 2.0, 0.125]).unwrap();
    b.add_force(w, [3.0, 4.0, 5.0]).unwrap();
    let mut m = Mass::zero();
    m.mass = 2.5;
    m.I = [1.0, 0.1, 0.0, 0.0, 0.1, 2.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0];
    b.set_mass(w, &m).unwrap();
    b.set_finite_rotation_axis(w, [0.0, 0.0, 2.0]).unwrap();
    b.set_damping(w, 0.1, 0.2).unwrap();
    b.set_auto_disable_average_samples(w, 4).unwrap();
    b
}

fn expect_invalid(r: Result<(), Error>, arg: &str) {
    match r {
        Err(Error::InvalidArgument { arg: a, reason }) => {
            assert_eq!(a, arg, "wrong argument named ({reason})");
            assert!(!reason.is_empty());
        }
        other => panic!("expected InvalidArgument for '{arg}', got {other:?}"),
    }
}

#[test]
fn invalid_values_are_refused_without_effect() {
    let mut w = World::new();
    let b = configured(&mut w);
    let before = snapshot(b, &w);
    let nan = f64::NAN;
    let inf = f64::INFINITY;
    expect_invalid(b.set_position(&mut w, [nan, 0.0, 0.0]), "position");
    expect_invalid(b.set_linear_vel(&mut w, [0.0, inf, 0.0]), "velocity");
    expect_invalid(b.set_angular_vel(&mut w, [0.0, 0.0, -inf]), "velocity");
    expect_invalid(b.add_force(&mut w, [nan; 3]), "force");
    expect_invalid(b.add_force_at_pos(&mut w, [1.0; 3], [0.0, nan, 0.0]), "pos");
    expect_invalid(b.add_rel_force_at_rel_pos(&mut w, [inf, 0.0, 0.0], [0.0; 3]), "force");
    expect_invalid(b.set_torque(&mut w, [nan, 0.0, 0.0]), "torque");
    expect_invalid(b.set_quaternion(&mut w, quat_from_ode(&[0.0; 4])), "q");
    expect_invalid(b.set_quaternion(&mut w, quat_from_ode(&[1e-200, 0.0, 0.0, 0.0])), "q");
    expect_invalid(b.set_quaternion(&mut w, quat_from_ode(&[nan, 1.0, 0.0, 0.0])), "q");
    let mut r = [0.0; 12];
    expect_invalid(b.set_rotation_ode(&mut w, &r), "R");
    r = [1.0, 2.0, 3.0, 0.0, 2.0, 4.0, 6.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    expect_invalid(b.set_rotation_ode(&mut w, &r), "R");
    let mut m = b.mass(&w).unwrap();
    m.mass = -1.0;
    expect_invalid(b.set_mass(&mut w, &m), "mass");
    m.mass = 1.0;
    m.c[0] = 0.1;
    expect_invalid(b.set_mass(&mut w, &m), "mass");
    m.c[0] = 0.0;
    m.I[5] = -1.0;
    expect_invalid(b.set_mass(&mut w, &m), "mass");
    expect_invalid(b.set_finite_rotation_axis(&mut w, [nan, 0.0, 0.0]), "axis");
    expect_invalid(b.set_damping(&mut w, 1.5, 0.0), "linear_scale");
    expect_invalid(b.set_damping(&mut w, 0.0, -0.5), "angular_scale");
    expect_invalid(b.set_damping_thresholds(&mut w, -1.0, 0.0), "linear threshold");
    expect_invalid(b.set_auto_disable_thresholds(&mut w, 0.0, nan), "angular_average_threshold");
    expect_invalid(b.set_auto_disable_steps(&mut w, -3), "steps");
    expect_invalid(b.set_auto_disable_time(&mut w, -1.0), "time");
    expect_invalid(b.set_auto_disable_average_samples(&mut w, u32::MAX), "average_samples_count");
    expect_invalid(b.set_max_angular_speed(&mut w, -2.0), "max_speed");
    expect_invalid(b.rel_point_pos(&w, [nan; 3]).map(|_| ()), "point");
    assert_eq!(snapshot(b, &w), before, "a refused call changed the body");
    expect_invalid(w.set_gravity([0.0, nan, 0.0]), "gravity");
    expect_invalid(w.set_damping(2.0, 0.0), "linear_scale");
    expect_invalid(w.set_quick_step_num_iterations(0), "num");
    assert_eq!(w.gravity().to_array(), [0.0; 3]);
}

#[test]
fn stale_and_foreign_bodies_are_refused() {
    let mut w1 = World::new();
    let mut w2 = World::new();
    let a = configured(&mut w1);
    let other = configured(&mut w2);
    let before_a = snapshot(a, &w1);
    let before_other = snapshot(other, &w2);

    // A body used with the wrong world.
    assert_eq!(other.set_position(&mut w1, [9.0; 3]), Err(Error::WrongWorld));
    assert_eq!(other.position(&w1), Err(Error::WrongWorld));
    assert_eq!(w1.destroy_body(other), Err(Error::WrongWorld));
    assert_eq!(snapshot(other, &w2), before_other);

    // A destroyed body, also after its cell has been reused many times.
    let dead = w1.create_body();
    w1.destroy_body(dead).unwrap();
    assert_eq!(dead.position(&w1), Err(Error::StaleBody));
    assert_eq!(dead.set_position(&mut w1, [1.0; 3]), Err(Error::StaleBody));
    assert_eq!(w1.destroy_body(dead), Err(Error::StaleBody));
    for _ in 0..600 {
        let t = w1.create_body();
        w1.destroy_body(t).unwrap();
    }
    let fresh: Vec<Body> = (0..300).map(|_| w1.create_body()).collect();
    assert_eq!(dead.position(&w1), Err(Error::StaleBody));
    assert_eq!(dead.add_force(&mut w1, [1.0; 3]), Err(Error::StaleBody));
    for f in &fresh {
        assert_eq!(f.force(&w1).unwrap().to_array(), [0.0; 3], "a stale id reached a new body");
    }
    assert_eq!(snapshot(a, &w1), before_a);

    // Bodies of a dropped world.
    drop(w2);
    let mut w3 = World::new();
    assert_eq!(other.position(&w3), Err(Error::StaleBody));
    assert_eq!(other.set_position(&mut w3, [0.0; 3]), Err(Error::StaleBody));
    assert_eq!(w1.bodies().len(), 301);
}
