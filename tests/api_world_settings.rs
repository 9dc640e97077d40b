//! World settings through the safe API: ODE's defaults, round trips, and
//! refused values that change nothing.
use ode::api::{Error, World};

#[test]
fn world_settings_round_trip_and_refuse_bad_values() {
    let mut w = World::new();
    assert_eq!(w.contact_max_correcting_vel(), f64::INFINITY);
    assert_eq!(w.contact_surface_layer(), 0.0);
    assert_eq!(w.auto_disable_steps(), 10);
    assert_eq!(w.auto_disable_time(), 0.0);
    w.set_contact_max_correcting_vel(0.5).unwrap();
    w.set_contact_surface_layer(0.001).unwrap();
    w.set_auto_disable_thresholds(0.02, 0.03).unwrap();
    w.set_auto_disable_steps(7).unwrap();
    w.set_auto_disable_time(0.25).unwrap();
    let bad = |r: Result<(), Error>| assert!(matches!(r, Err(Error::InvalidArgument { .. })), "{r:?}");
    bad(w.set_contact_max_correcting_vel(f64::NAN));
    bad(w.set_contact_surface_layer(f64::INFINITY));
    bad(w.set_auto_disable_thresholds(-1.0, 0.0));
    bad(w.set_auto_disable_time(f64::NAN));
    assert_eq!(w.contact_max_correcting_vel(), 0.5);
    assert_eq!(w.contact_surface_layer(), 0.001);
    let (l, a) = w.auto_disable_thresholds();
    assert!((l - 0.02).abs() < 1e-17 && (a - 0.03).abs() < 1e-17);
    assert_eq!((w.auto_disable_steps(), w.auto_disable_time()), (7, 0.25));
    // New bodies take the world's defaults.
    w.set_auto_disable_flag(true);
    let b = w.create_body();
    assert_eq!(b.auto_disable_steps(&w).unwrap(), 7);
    assert!(b.auto_disable_flag(&w).unwrap());
}

#[test]
fn solver_switches_round_trip() {
    // Process-wide switches: set and restore, so other tests in this
    // binary see the defaults.
    let (d, ws) = (ode::api::quickstep_deterministic_order(), ode::api::quickstep_warm_start());
    ode::api::set_quickstep_deterministic_order(true);
    ode::api::set_quickstep_warm_start(true);
    assert!(ode::api::quickstep_deterministic_order() && ode::api::quickstep_warm_start());
    ode::api::set_quickstep_deterministic_order(d);
    ode::api::set_quickstep_warm_start(ws);
    let mut w = World::new();
    w.set_step_islands_max_threads(3);
    assert_eq!(w.step_islands_max_threads(), 3);
}
