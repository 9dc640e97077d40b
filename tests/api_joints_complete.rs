//! Every joint type through the safe API: each typed getter equals the C
//! getter on the same joint (the C layer is the reference here: it is the
//! one checked against Debian's ODE by the differential suites), the
//! transmission joint drives a second wheel, and stale or foreign handles
//! and bad numbers give typed errors that change nothing.
use ode::api::{AxisFrame, Body, DVec3, Error, Joint, Mass, Param, SolverMode, TransmissionMode, World};
use ode::ffi::{
    objects_amotor as am, objects_hinge2 as h2, objects_piston as pi, objects_pr as pr, objects_pu as pu,
    objects_transmission as tr, objects_universal as un,
};

fn body_at(w: &mut World, p: [f64; 3]) -> Body {
    let b = w.create_body();
    b.set_mass(w, &Mass::box_total(1.0, 0.3, 0.4, 0.5).unwrap()).unwrap();
    b.set_position(w, p).unwrap();
    b
}

/// Two bodies given some spin and drift, so angles and rates are not zero.
fn pair(w: &mut World) -> (Body, Body) {
    let a = body_at(w, [0.0, 0.0, 1.0]);
    let b = body_at(w, [0.7, 0.2, 1.1]);
    a.set_angular_vel(w, [0.3, -0.2, 0.5]).unwrap();
    b.set_angular_vel(w, [-0.4, 0.6, 0.1]).unwrap();
    b.set_linear_vel(w, [0.2, 0.1, -0.3]).unwrap();
    (a, b)
}

fn raw(j: &Joint) -> ode::ffi::dJointID {
    j.as_raw() as _
}

fn c_vec(f: unsafe extern "C" fn(ode::ffi::dJointID, *mut f64), j: &Joint) -> DVec3 {
    let mut out = [0.0f64; 4];
    unsafe { f(raw(j), out.as_mut_ptr()) };
    DVec3::new(out[0], out[1], out[2])
}

fn c_real(f: unsafe extern "C" fn(ode::ffi::dJointID) -> f64, j: &Joint) -> f64 {
    unsafe { f(raw(j)) }
}

fn same(a: f64, b: f64, what: &str) {
    assert_eq!(a.to_bits(), b.to_bits(), "{what}: api {a} vs C {b}");
}

fn same3(a: DVec3, b: DVec3, what: &str) {
    for i in 0..3 {
        same(a[i], b[i], what);
    }
}

fn step(w: &mut World, n: usize) {
    for _ in 0..n {
        w.step(0.01).unwrap();
    }
}

#[test]
fn api_joint_getters_equal_the_c_getters() {
    let mut w = World::new();
    w.set_gravity([0.0, 0.0, -9.81]).unwrap();

    let (a, b) = pair(&mut w);
    let u = w.create_universal();
    w.attach(*u, Some(a), Some(b)).unwrap();
    u.set_anchor(&mut w, [0.3, 0.1, 1.0]).unwrap();
    u.set_axis1(&mut w, [0.0, 0.0, 1.0]).unwrap();
    u.set_axis2(&mut w, [0.0, 1.0, 0.0]).unwrap();
    u.set_param_axis(&mut w, 1, Param::HiStop, 0.5).unwrap();

    let (c, d) = pair(&mut w);
    let h = w.create_hinge2();
    w.attach(*h, Some(c), Some(d)).unwrap();
    h.set_anchor(&mut w, [0.7, 0.2, 1.1]).unwrap();
    h.set_axes(&mut w, Some(DVec3::Z), Some(DVec3::Y)).unwrap();
    h.set_param_axis(&mut w, 1, Param::Vel, 2.0).unwrap();
    h.set_param_axis(&mut w, 1, Param::FMax, 1.0).unwrap();

    let (e, f) = pair(&mut w);
    let p = w.create_piston();
    w.attach(*p, Some(e), Some(f)).unwrap();
    p.set_anchor(&mut w, [0.2, 0.0, 1.0]).unwrap();
    p.set_axis(&mut w, [1.0, 0.0, 0.0]).unwrap();

    let (g, k) = pair(&mut w);
    let r = w.create_pr();
    w.attach(*r, Some(g), Some(k)).unwrap();
    r.set_anchor(&mut w, [0.4, 0.1, 1.0]).unwrap();
    r.set_axis1(&mut w, [1.0, 0.0, 0.0]).unwrap();
    r.set_axis2(&mut w, [0.0, 1.0, 0.0]).unwrap();

    let (m, n) = pair(&mut w);
    let q = w.create_pu();
    w.attach(*q, Some(m), Some(n)).unwrap();
    q.set_anchor(&mut w, [0.4, 0.1, 1.0]).unwrap();
    q.set_axis1(&mut w, [0.0, 0.0, 1.0]).unwrap();
    q.set_axis2(&mut w, [0.0, 1.0, 0.0]).unwrap();
    q.set_axis_p(&mut w, [1.0, 0.0, 0.0]).unwrap();

    let s = body_at(&mut w, [3.0, 0.0, 1.0]);
    s.set_angular_vel(&mut w, [0.1, 0.2, 0.3]).unwrap();
    let mo = w.create_amotor();
    w.attach(*mo, Some(s), None).unwrap();
    mo.set_euler_mode(&mut w, true).unwrap();
    mo.set_axis(&mut w, 0, AxisFrame::Body1, [1.0, 0.0, 0.0]).unwrap();
    mo.set_axis(&mut w, 2, AxisFrame::World, [0.0, 0.0, 1.0]).unwrap();

    step(&mut w, 7);
    u.add_torques(&mut w, 0.1, -0.2).unwrap();
    h.add_torques(&mut w, 0.3, 0.1).unwrap();
    p.add_force(&mut w, 0.5).unwrap();
    r.add_torque(&mut w, 0.2).unwrap();
    q.add_torque(&mut w, -0.2).unwrap();
    mo.add_torques(&mut w, [0.1, 0.0, 0.2]).unwrap();
    step(&mut w, 3);

    same3(u.anchor2(&w).unwrap(), c_vec(un::dJointGetUniversalAnchor2, &u), "universal anchor2");
    same3(u.axis1(&w).unwrap(), c_vec(un::dJointGetUniversalAxis1, &u), "universal axis1");
    same3(u.axis2(&w).unwrap(), c_vec(un::dJointGetUniversalAxis2, &u), "universal axis2");
    same(u.angle1(&w).unwrap(), c_real(un::dJointGetUniversalAngle1, &u), "universal angle1");
    same(u.angle2(&w).unwrap(), c_real(un::dJointGetUniversalAngle2, &u), "universal angle2");
    same(u.angle1_rate(&w).unwrap(), c_real(un::dJointGetUniversalAngle1Rate, &u), "universal rate1");
    same(u.angle2_rate(&w).unwrap(), c_real(un::dJointGetUniversalAngle2Rate, &u), "universal rate2");
    let hi2 = unsafe { un::dJointGetUniversalParam(raw(&u), ode::abi::common::dParamHiStop2) };
    same(u.param_axis(&w, 1, Param::HiStop).unwrap(), hi2, "universal HiStop2");

    same3(h.anchor2(&w).unwrap(), c_vec(h2::dJointGetHinge2Anchor2, &h), "hinge2 anchor2");
    same(h.angle2(&w).unwrap(), c_real(h2::dJointGetHinge2Angle2, &h), "hinge2 angle2");
    same(h.angle1_rate(&w).unwrap(), c_real(h2::dJointGetHinge2Angle1Rate, &h), "hinge2 rate1");
    let vel2 = unsafe { h2::dJointGetHinge2Param(raw(&h), ode::abi::common::dParamVel2) };
    same(h.param_axis(&w, 1, Param::Vel).unwrap(), vel2, "hinge2 Vel2");

    same3(p.anchor2(&w).unwrap(), c_vec(pi::dJointGetPistonAnchor2, &p), "piston anchor2");
    same(p.position_rate(&w).unwrap(), c_real(pi::dJointGetPistonPositionRate, &p), "piston rate");
    same(p.angle_rate(&w).unwrap(), c_real(pi::dJointGetPistonAngleRate, &p), "piston angle rate");

    same3(r.anchor(&w).unwrap(), c_vec(pr::dJointGetPRAnchor, &r), "pr anchor");
    same3(r.axis1(&w).unwrap(), c_vec(pr::dJointGetPRAxis1, &r), "pr axis1");
    same3(r.axis2(&w).unwrap(), c_vec(pr::dJointGetPRAxis2, &r), "pr axis2");
    same(r.position_rate(&w).unwrap(), c_real(pr::dJointGetPRPositionRate, &r), "pr position rate");
    same(r.angle_rate(&w).unwrap(), c_real(pr::dJointGetPRAngleRate, &r), "pr angle rate");

    same3(q.anchor(&w).unwrap(), c_vec(pu::dJointGetPUAnchor, &q), "pu anchor");
    same3(q.axis1(&w).unwrap(), c_vec(pu::dJointGetPUAxis1, &q), "pu axis1");
    same3(q.axis2(&w).unwrap(), c_vec(pu::dJointGetPUAxis2, &q), "pu axis2");
    same3(q.axis_p(&w).unwrap(), c_vec(pu::dJointGetPUAxisP, &q), "pu axis p");
    same(q.position_rate(&w).unwrap(), c_real(pu::dJointGetPUPositionRate, &q), "pu position rate");
    same(q.angle1(&w).unwrap(), c_real(pu::dJointGetPUAngle1, &q), "pu angle1");
    same(q.angle2(&w).unwrap(), c_real(pu::dJointGetPUAngle2, &q), "pu angle2");
    same(q.angle1_rate(&w).unwrap(), c_real(pu::dJointGetPUAngle1Rate, &q), "pu rate1");
    same(q.angle2_rate(&w).unwrap(), c_real(pu::dJointGetPUAngle2Rate, &q), "pu rate2");

    assert_eq!(mo.num_axes(&w).unwrap(), 3);
    assert!(mo.is_euler_mode(&w).unwrap());
    for i in 0..3 {
        let mut out = [0.0f64; 4];
        unsafe { am::dJointGetAMotorAxis(raw(&mo), i as i32, out.as_mut_ptr()) };
        same3(mo.axis(&w, i).unwrap(), DVec3::new(out[0], out[1], out[2]), "amotor axis");
        same(mo.angle(&w, i).unwrap(), unsafe { am::dJointGetAMotorAngle(raw(&mo), i as i32) }, "amotor angle");
        let rate = unsafe { am::dJointGetAMotorAngleRate(raw(&mo), i as i32) };
        same(mo.angle_rate(&w, i).unwrap(), rate, "amotor rate");
    }
}

/// Two wheels on hinges to the world, coupled by a parallel-axes
/// transmission of ratio 2: driving wheel 1 turns wheel 2 the other way,
/// twice as fast; the API getters equal the C getters.
#[test]
fn api_transmission_couples_two_wheels() {
    let mut w = World::new();
    let wheel = |w: &mut World, x: f64| {
        let b = w.create_body();
        b.set_mass(w, &Mass::cylinder_total(1.0, ode::api::Axis::Z, 0.5, 0.1).unwrap()).unwrap();
        b.set_position(w, [x, 0.0, 0.0]).unwrap();
        let h = w.create_hinge();
        w.attach(*h, Some(b), None).unwrap();
        h.set_anchor(w, [x, 0.0, 0.0]).unwrap();
        h.set_axis(w, DVec3::Z).unwrap();
        (b, h)
    };
    let (b1, h1) = wheel(&mut w, 0.0);
    let (b2, h2) = wheel(&mut w, 1.5);
    h1.set_param(&mut w, Param::Vel, 1.0).unwrap();
    h1.set_param(&mut w, Param::FMax, 100.0).unwrap();
    let t = w.create_transmission();
    w.attach(*t, Some(b1), Some(b2)).unwrap();
    assert_eq!(t.mode(&w).unwrap(), TransmissionMode::Parallel);
    t.set_axis(&mut w, DVec3::Z).unwrap();
    t.set_anchor(&mut w, 0, [0.0, 0.0, 0.0]).unwrap();
    t.set_anchor(&mut w, 1, [1.5, 0.0, 0.0]).unwrap();
    t.set_ratio(&mut w, 2.0).unwrap();
    t.set_param(&mut w, Param::Erp, 0.3).unwrap();
    for _ in 0..50 {
        w.step(0.01).unwrap();
    }
    let (r1, r2) = (h1.angle_rate(&w).unwrap(), h2.angle_rate(&w).unwrap());
    assert!((r1 - 1.0).abs() < 1e-3, "driven wheel at the motor speed: {r1}");
    assert!((r2 + 2.0 * r1).abs() < 1e-2, "second wheel at -2x: {r2} vs {r1}");

    same(t.ratio(&w).unwrap(), c_real(tr::dJointGetTransmissionRatio, &t), "ratio");
    same(t.angle(&w, 0).unwrap(), c_real(tr::dJointGetTransmissionAngle1, &t), "angle1");
    same(t.angle(&w, 1).unwrap(), c_real(tr::dJointGetTransmissionAngle2, &t), "angle2");
    same3(t.anchor(&w, 1).unwrap(), c_vec(tr::dJointGetTransmissionAnchor2, &t), "anchor2");
    same3(t.wheel_axis_of(&w, 0).unwrap(), c_vec(tr::dJointGetTransmissionAxis1, &t), "axis1");
    same3(t.contact_point(&w, 1).unwrap(), c_vec(tr::dJointGetTransmissionContactPoint2, &t), "contact2");
    let erp = unsafe { tr::dJointGetTransmissionParam(raw(&t), ode::abi::common::dParamERP) };
    same(t.param(&w, Param::Erp).unwrap(), erp, "erp");

    // Calls that do not fit the mode or bad numbers are refused, unchanged.
    let invalid = |r: Result<(), Error>, name: &str| match r {
        Err(Error::InvalidArgument { arg, .. }) => assert_eq!(arg, name),
        other => panic!("expected invalid '{name}', got {other:?}"),
    };
    invalid(t.set_ratio(&mut w, -1.0), "ratio");
    invalid(t.set_ratio(&mut w, f64::NAN), "ratio");
    invalid(t.set_radius(&mut w, 0, 0.3), "radius");
    invalid(t.set_wheel_axis(&mut w, 0, DVec3::X), "axis");
    invalid(t.set_anchor(&mut w, 2, DVec3::X), "which");
    invalid(t.set_backlash(&mut w, f64::NAN), "backlash");
    invalid(t.set_param(&mut w, Param::Erp, f64::NAN), "value");
    assert_eq!(t.ratio(&w).unwrap(), 2.0);
    assert_eq!(t.param(&w, Param::Erp).unwrap(), 0.3);
    t.set_mode(&mut w, TransmissionMode::Chain).unwrap();
    t.set_radius(&mut w, 1, 0.25).unwrap();
    same(t.radius(&w, 1).unwrap(), c_real(tr::dJointGetTransmissionRadius2, &t), "radius2");
    invalid(t.set_ratio(&mut w, 3.0), "ratio");
}

/// Every joint type has a typed handle whose parameters round-trip, and a
/// destroyed or foreign joint is refused by every kind of generated method.
#[test]
fn api_every_joint_type_checks_its_handle() {
    let mut w = World::new();
    let mut other = World::new();
    let (a, b) = pair(&mut w);
    macro_rules! check {
        ($j:expr, $param:expr) => {{
            let j = $j;
            w.attach(*j, Some(a), Some(b)).unwrap();
            j.set_param(&mut w, $param, 0.25).unwrap();
            assert_eq!(j.param(&w, $param).unwrap(), 0.25);
            assert!(matches!(j.set_param(&mut w, $param, f64::NAN), Err(Error::InvalidArgument { arg: "value", .. })));
            assert_eq!(j.param(&w, $param).unwrap(), 0.25, "a refused value changes nothing");
            assert_eq!(j.param(&other, $param), Err(Error::WrongWorld));
            assert_eq!(j.set_param(&mut other, $param, 1.0), Err(Error::WrongWorld));
            w.destroy_joint(j).unwrap();
            assert_eq!(j.param(&w, $param), Err(Error::Stale("joint")));
            assert_eq!(j.set_param(&mut w, $param, 1.0), Err(Error::Stale("joint")));
        }};
    }
    check!(w.create_hinge(), Param::LoStop);
    check!(w.create_ball(), Param::Cfm);
    check!(w.create_slider(), Param::HiStop);
    check!(w.create_fixed(), Param::Erp);
    check!(w.create_hinge2(), Param::SuspensionErp);
    check!(w.create_universal(), Param::Vel);
    check!(w.create_piston(), Param::FMax);
    check!(w.create_pr(), Param::Bounce);
    check!(w.create_pu(), Param::StopErp);
    check!(w.create_amotor(), Param::FudgeFactor);
    check!(w.create_lmotor(), Param::StopCfm);
    check!(w.create_plane2d(), Param::Vel);
    check!(w.create_dball(), Param::Erp);
    check!(w.create_dhinge(), Param::Cfm);
    check!(w.create_transmission(), Param::Cfm);

    // The other kinds of generated methods: points, axes, numbers, getters.
    let hinge = w.create_hinge();
    w.attach(*hinge, Some(a), None).unwrap();
    hinge.set_axis(&mut w, DVec3::Z).unwrap();
    assert!(matches!(
        hinge.set_anchor(&mut w, [f64::INFINITY, 0.0, 0.0]),
        Err(Error::InvalidArgument { arg: "anchor", .. })
    ));
    assert!(matches!(hinge.set_axis(&mut w, DVec3::ZERO), Err(Error::InvalidArgument { arg: "axis", .. })));
    assert!(matches!(hinge.add_torque(&mut w, f64::NAN), Err(Error::InvalidArgument { arg: "torque", .. })));
    assert_eq!(hinge.axis(&w).unwrap(), DVec3::Z, "a refused axis changes nothing");
    assert_eq!(hinge.angle(&other), Err(Error::WrongWorld));
    let pu = w.create_pu();
    assert!(matches!(pu.set_param_axis(&mut w, 3, Param::Vel, 1.0), Err(Error::InvalidArgument { arg: "axis", .. })));
    assert!(matches!(pu.position(&w), Err(Error::InvalidArgument { arg: "joint", .. })), "unattached");
    w.destroy_joint(hinge).unwrap();
    assert_eq!(hinge.add_torque(&mut w, 1.0), Err(Error::Stale("joint")));
    assert_eq!(hinge.axis(&w), Err(Error::Stale("joint")));
    let _ = &mut other;
}

/// ODE computes an Euler-mode motor's angles itself (`dJointSetAMotorAngle`
/// is for user mode): setting one is refused and changes nothing.
#[test]
fn api_amotor_angle_is_refused_in_euler_mode() {
    let mut w = World::new();
    let b = body_at(&mut w, [0.0, 0.0, 0.0]);
    let m = w.create_amotor();
    w.attach(*m, Some(b), None).unwrap();
    m.set_angle(&mut w, 0, 0.5).unwrap();
    assert_eq!(m.angle(&w, 0).unwrap(), 0.5);
    m.set_euler_mode(&mut w, true).unwrap();
    let before = m.angle(&w, 0).unwrap();
    assert!(matches!(m.set_angle(&mut w, 0, 0.7), Err(Error::InvalidArgument { arg: "angle", .. })));
    assert_eq!(m.angle(&w, 0).unwrap(), before);
}

/// Solver mode and step threads: set, read back, and threads do not change
/// the trajectory (islands are stepped exactly as serially).
#[test]
fn api_world_solver_mode_and_threads() {
    let scene = |threads: u32| {
        let mut w = World::new();
        w.set_gravity([0.0, 0.0, -9.81]).unwrap();
        w.set_step_threads(threads);
        assert_eq!(w.step_threads(), threads as usize);
        let mut bodies = Vec::new();
        for i in 0..4 {
            let (a, b) = pair(&mut w);
            a.set_position(&mut w, [i as f64 * 3.0, 0.0, 1.0]).unwrap();
            b.set_position(&mut w, [i as f64 * 3.0 + 0.7, 0.2, 1.1]).unwrap();
            let j = w.create_ball();
            w.attach(*j, Some(a), Some(b)).unwrap();
            j.set_anchor(&mut w, [i as f64 * 3.0 + 0.3, 0.1, 1.0]).unwrap();
            bodies.push(b);
        }
        step(&mut w, 20);
        bodies.iter().map(|b| b.position(&w).unwrap().to_array().map(f64::to_bits)).collect::<Vec<_>>()
    };
    assert_eq!(scene(1), scene(2));

    let mut w = World::new();
    assert_eq!(w.solver_mode(), SolverMode::from_env());
    w.set_solver_mode(SolverMode::Fast);
    assert_eq!(w.solver_mode(), SolverMode::Fast);
    w.set_solver_mode(SolverMode::Exact);
    assert_eq!(w.solver_mode(), SolverMode::Exact);
}
