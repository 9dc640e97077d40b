//! dWorldStep with real joint types: closed-form checks (pendulum period,
//! energy and joint separation of a swinging chain) and a differential
//! trace against Debian's libode.
mod common;
use common::*;

fn self_check(name: &str) {
    require_reference();
    let bin = build_c(name, &[&format!("{name}.c")], Headers::Ours, &[]);
    let out = run_ok(&bin, Lib::Ours, &[]);
    assert!(out.lines().last().unwrap_or_default().starts_with("PASS"), "{out}");
}

/// Small-amplitude hinge pendulum: period within 0.5 % of the physical
/// pendulum's closed form (Debian's ODE: 0.001 %).
#[test]
fn pendulum_period_matches_closed_form() {
    self_check("t_joint_pendulum");
}

/// Ball-joint chain over 10 s: energy conserved up to the stepper's
/// dissipation, joints stay together.
#[test]
fn chain_energy_and_separation() {
    self_check("t_joint_chain_energy");
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
