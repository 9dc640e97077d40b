//! Constraint dynamics with real joints: closed-form checks (pendulum
//! period, chain energy, contact ramp, motors with limited force, stop
//! bounce, joint error of a swinging chain) run as self-checking C programs
//! against our library, and against Debian's too where ours must be as
//! close to the closed form as ODE; plus differential joint scenes (ball
//! chains, hinge pendulums, a slider arm with force and limits, box stacks
//! with every surface mode), compared with Debian's trace within the
//! tolerance on each program's first line.
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
    self_check("t_joint_contact_ramp_friction", Lib::Ours);
}

/// Hinge and slider motors with limited FMax: α = (FMax − load) / I until
/// the target velocity, then hold it, both steppers.
#[test]
fn motor_reaches_velocity_with_limited_force() {
    self_check("t_joint_motor_force_limit", Lib::Ours);
}

/// Stop bounce: rate flips to −e·ω_in and the rebound reaches e² of the
/// drop height, as closely as ODE gets it.
#[test]
fn stop_bounce_restitution() {
    no_worse_than_ode("t_joint_stop_bounce", "err");
}

/// Joint separation of ball and hinge chains swinging 10 s with ERP 0.2
/// (max over the run and after the last step) is no larger than ODE's.
#[test]
fn chain_joint_error_no_larger_than_ode() {
    no_worse_than_ode("t_joint_chain_error", "sep");
}

#[test]
fn ball_chain_20_links_both_steppers() {
    let reference = differential("diff_joint_ball_chain20");
    assert!(reference.lines().count() > 400);
}

#[test]
fn slider_arm_with_force_and_limits() {
    let reference = differential("diff_joint_slider_robot_arm");
    assert!(reference.lines().count() > 400);
}

#[test]
fn box_stacks_with_every_surface_mode() {
    let reference = differential("diff_joint_contact_stack_modes");
    assert!(reference.lines().count() > 1000);
}

/// Small-amplitude hinge pendulum: period within 0.5 % of the physical
/// pendulum's closed form (Debian's ODE: 0.001 %).
#[test]
fn pendulum_period_matches_closed_form() {
    self_check("t_joint_pendulum", Lib::Ours);
}

/// Ball-joint chain over 10 s: energy conserved up to the stepper's
/// dissipation, joints stay together.
#[test]
fn chain_energy_and_separation() {
    self_check("t_joint_chain_energy", Lib::Ours);
}

/// Ball chain, hinge pendulum and hinge pair with feedback over 1 s,
/// against Debian's library (round-off tolerance).
#[test]
fn step_chain_trace_matches_ode() {
    let reference = differential("diff_joint_step_chain");
    assert!(reference.lines().count() > 100);
}

/// 12-link ball chain over 2 s (bit-identical with a ball joint written as
/// ODE's; see the C source).
#[test]
fn ball_chain_trace_matches_ode() {
    differential("diff_joint_ball_chain");
}

/// Box stack on hand-made contacts, friction modes, LCP stalls as ODE.
#[test]
fn contact_stack_trace_matches_ode() {
    differential("diff_joint_contact_stack");
}
