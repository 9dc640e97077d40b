//! Body behaviour through the safe API, checked against closed forms and
//! ODE's documented semantics.
use ode::api::convert::{quat_from_ode, quat_to_ode};
use ode::api::{r_from_axis_and_angle, Mass, World};

fn close(a: ode::api::DVec3, b: [f64; 3], tol: f64) -> bool {
    (0..3).all(|i| (a[i] - b[i]).abs() <= tol)
}

#[test]
fn fresh_body_has_ode_defaults() {
    let mut w = World::new();
    let b = w.create_body();
    assert_eq!(b.position(&w).unwrap().to_array(), [0.0; 3]);
    assert_eq!(quat_to_ode(b.quaternion(&w).unwrap()), [1.0, 0.0, 0.0, 0.0]);
    let m = b.mass(&w).unwrap();
    assert_eq!((m.mass, m.I[0], m.I[5], m.I[10]), (1.0, 1.0, 1.0, 1.0));
    assert!(b.is_enabled(&w).unwrap() && b.gravity_mode(&w).unwrap() && b.gyroscopic_mode(&w).unwrap());
    assert!(!b.is_kinematic(&w).unwrap() && !b.auto_disable_flag(&w).unwrap());
    assert_eq!(b.max_angular_speed(&w).unwrap(), f64::INFINITY);
    assert_eq!(b.auto_disable_steps(&w).unwrap(), 10);
    assert_eq!(b.num_joints(&w).unwrap(), 0);
}

#[test]
fn frames_follow_the_rotation() {
    let mut w = World::new();
    let b = w.create_body();
    // A quarter turn about z: body x is world y.
    let r = r_from_axis_and_angle(0.0, 0.0, 1.0, std::f64::consts::FRAC_PI_2);
    b.set_rotation_ode(&mut w, &r).unwrap();
    b.set_position(&mut w, [1.0, 2.0, 3.0]).unwrap();
    assert!(close(b.vector_to_world(&w, [1.0, 0.0, 0.0]).unwrap(), [0.0, 1.0, 0.0], 1e-15));
    assert!(close(b.rel_point_pos(&w, [1.0, 0.0, 0.0]).unwrap(), [1.0, 3.0, 3.0], 1e-15));
    assert!(close(b.pos_rel_point(&w, [1.0, 3.0, 3.0]).unwrap(), [1.0, 0.0, 0.0], 1e-15));
    assert!(close(b.vector_from_world(&w, [0.0, 1.0, 0.0]).unwrap(), [1.0, 0.0, 0.0], 1e-15));
    // Spinning at 2 rad/s about z while moving along x: v = v0 + w x r.
    b.set_linear_vel(&mut w, [1.0, 0.0, 0.0]).unwrap();
    b.set_angular_vel(&mut w, [0.0, 0.0, 2.0]).unwrap();
    assert!(close(b.point_vel(&w, [2.0, 2.0, 3.0]).unwrap(), [1.0, 2.0, 0.0], 1e-15));
    assert!(close(b.rel_point_vel(&w, [1.0, 0.0, 0.0]).unwrap(), [-1.0, 0.0, 0.0], 1e-15));
    // A force off the centre adds the torque r x F.
    b.add_force_at_pos(&mut w, [0.0, 0.0, 5.0], [1.0, 3.0, 3.0]).unwrap();
    assert!(close(b.torque(&w).unwrap(), [5.0, 0.0, 0.0], 1e-15));
    b.add_rel_force_at_rel_pos(&mut w, [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]).unwrap();
    // body x is world y, body y is world -x: r = (-1,0,0), F = (0,1,0), r x F = (0,0,-1)
    assert!(close(b.force(&w).unwrap(), [0.0, 1.0, 5.0], 1e-15));
    assert!(close(b.torque(&w).unwrap(), [5.0, 0.0, -1.0], 1e-15));
}

#[test]
fn quaternions_are_normalised_and_matrices_orthogonalised() {
    let mut w = World::new();
    let b = w.create_body();
    b.set_quaternion(&mut w, quat_from_ode(&[2.0, 0.0, 0.0, 2.0])).unwrap();
    let q = quat_to_ode(b.quaternion(&w).unwrap());
    let h = std::f64::consts::FRAC_1_SQRT_2;
    assert!((q[0] - h).abs() < 1e-15 && (q[3] - h).abs() < 1e-15);
    // A scaled rotation matrix: ODE normalises row 0 and rebuilds row 2 as
    // row0 x (row 1 made orthonormal), but stores row 1 as given unless it
    // was exactly orthogonal to row 0 (a quirk of ODE 0.16 kept on purpose).
    // The quaternion comes from the given matrix and is normalised
    // (exact values are checked against Debian in body_diff).
    let r0 = r_from_axis_and_angle(1.0, 2.0, 3.0, 0.7);
    let r: [f64; 12] = std::array::from_fn(|i| r0[i] * 3.0);
    b.set_rotation_ode(&mut w, &r).unwrap();
    let r2 = b.rotation_ode(&w).unwrap();
    for i in [0, 2] {
        for j in 0..3 {
            assert!((r2[i * 4 + j] - r0[i * 4 + j]).abs() < 1e-14, "row {i}: {r2:?}");
        }
    }
    assert_eq!(r2[4..7], r[4..7], "row 1 is kept as given");
    let q = quat_to_ode(b.quaternion(&w).unwrap());
    let n: f64 = q.iter().map(|x| x * x).sum();
    assert!((n - 1.0).abs() < 1e-15, "quaternion not unit: {q:?}");
}

#[test]
fn kinematic_keeps_the_mass() {
    let mut w = World::new();
    let b = w.create_body();
    let mut m = Mass::zero();
    m.mass = 3.0;
    m.I = [1.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0];
    b.set_mass(&mut w, &m).unwrap();
    b.set_kinematic(&mut w).unwrap();
    assert!(b.is_kinematic(&w).unwrap());
    assert_eq!(b.mass(&w).unwrap(), m);
    b.set_dynamic(&mut w).unwrap();
    assert!(!b.is_kinematic(&w).unwrap());
    b.set_kinematic(&mut w).unwrap();
    b.set_mass(&mut w, &m).unwrap(); // a mass makes it dynamic again
    assert!(!b.is_kinematic(&w).unwrap());
}

#[test]
fn auto_disable_flag_off_takes_world_settings_and_enables() {
    let mut w = World::new();
    let b = w.create_body();
    b.set_auto_disable_steps(&mut w, 3).unwrap();
    b.set_auto_disable_average_samples(&mut w, 7).unwrap();
    b.set_auto_disable_flag(&mut w, true).unwrap();
    b.disable(&mut w).unwrap();
    b.set_auto_disable_flag(&mut w, false).unwrap();
    assert!(b.is_enabled(&w).unwrap());
    assert_eq!(b.auto_disable_steps(&w).unwrap(), 10);
    assert_eq!(b.auto_disable_average_samples(&w).unwrap(), 1);
    w.set_auto_disable_flag(true);
    w.set_damping(0.25, 0.5).unwrap();
    let c = w.create_body();
    assert!(c.auto_disable_flag(&w).unwrap());
    assert_eq!(c.damping(&w).unwrap(), (0.25, 0.5));
    assert_eq!(w.bodies(), vec![c, b], "bodies are listed newest first, as in ODE");
}
