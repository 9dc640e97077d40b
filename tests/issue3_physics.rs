//! Issue 3, constraint dynamics: closed-form checks (contact ramp, motors
//! with limited force, stop bounce, joint error of a swinging chain) run
//! as self-checking C programs against our library, and against Debian's
//! too where ours must be as close to the closed form as ODE; plus the
//! differential scenes `ctests/diff_phys_*.c` (20-link ball chain, slider
//! arm with force and limits, box stacks with every surface mode under
//! dWorldQuickStep), compared with Debian's trace within the tolerance on
//! each program's first line.
mod common;
use common::*;
use std::collections::BTreeMap;

/// Builds `ctests/<name>.c` against our headers and runs it with `lib`;
/// the program must pass its own checks.
fn self_check(name: &str, lib: Lib) -> String {
    require_reference();
    let bin = build_c(name, &[&format!("{name}.c")], Headers::Ours, &[]);
    let out = run_ok(&bin, lib, &[]);
    assert!(out.lines().last().unwrap_or_default().starts_with("PASS"), "{name} against {lib:?}:\n{out}");
    out
}

/// The `<key> <name> <value>` lines of a program's output.
fn measured(out: &str, key: &str) -> BTreeMap<String, f64> {
    out.lines()
        .filter_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            (t.len() == 3 && t[0] == key).then(|| (t[1].to_string(), t[2].parse().expect(l)))
        })
        .collect()
}

/// Every measurement of ours is no larger than Debian's (the same binary
/// run with each library), up to a relative 1e-6.
fn no_worse_than_ode(name: &str, key: &str) {
    let ours = measured(&self_check(name, Lib::Ours), key);
    let reference = measured(&self_check(name, Lib::Debian), key);
    assert!(!reference.is_empty(), "{name}: no `{key}` lines");
    assert_eq!(ours.keys().collect::<Vec<_>>(), reference.keys().collect::<Vec<_>>(), "{name}: measurements differ");
    for (k, &r) in &reference {
        let o = ours[k];
        eprintln!("{name} {k}: ours {o:e}, ODE {r:e}");
        assert!(o <= r * (1.0 + 1e-6) + 1e-15, "{name} {k}: ours {o:e} > ODE's {r:e}");
    }
}

/// A box on a hand-made contact ramp sticks below the friction angle and
/// slides with g (sin θ − μ cos θ) above it (0.1 %), both steppers.
#[test]
fn ramp_friction_angle() {
    self_check("t_phys_ramp", Lib::Ours);
}

/// Hinge and slider motors with limited FMax: α = (FMax − load) / I until
/// the target velocity, then hold it, both steppers.
#[test]
fn motor_reaches_velocity_with_limited_force() {
    self_check("t_phys_motor", Lib::Ours);
}

/// Stop bounce: rate flips to −e·ω_in and the rebound reaches e² of the
/// drop height, as closely as ODE gets it.
#[test]
fn stop_bounce_restitution() {
    no_worse_than_ode("t_phys_bounce", "err");
}

/// Joint separation of ball and hinge chains swinging 10 s with ERP 0.2
/// (max over the run and after the last step) is no larger than ODE's.
#[test]
fn chain_joint_error_no_larger_than_ode() {
    no_worse_than_ode("t_phys_joint_error", "sep");
}

#[test]
fn ball_chain_20_links_both_steppers() {
    let reference = differential("diff_phys_ball_chain20");
    assert!(reference.lines().count() > 400);
}

#[test]
fn slider_arm_with_force_and_limits() {
    let reference = differential("diff_phys_slider");
    assert!(reference.lines().count() > 400);
}

#[test]
fn box_stacks_with_every_surface_mode() {
    let reference = differential("diff_phys_stack_modes");
    assert!(reference.lines().count() > 1000);
}
