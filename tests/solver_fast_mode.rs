//! The fast solver mode (`ODE_SOLVER=fast`, issue 13): the self-checking C
//! programs whose assertions are closed forms or invariants (not ODE's
//! bits) run again with the environment variable set, plus
//! `ctests/t_solver_fast_mode.c` (mode selection, `dRand` untouched,
//! pendulum period, resting box, friction ramp, box stack), run under both
//! values of the variable.
mod common;
use common::*;
use std::process::Command;

/// Self-checking programs (`ctests/<name>.c`, whose last line starts with
/// `PASS` or ends with `ok` on success) that must pass in fast mode too. Add the dWorldStep fast mode's programs
/// here; `scripts/test-all.sh` runs this list through `cargo test --test
/// solver_fast_mode`.
pub const FAST_MODE_PROGRAMS: &[&str] = &[
    "t_joint_pendulum",
    "t_joint_contact_ramp_friction",
    "t_joint_motor_force_limit",
    "t_joint_stop_bounce",
    "t_joint_chain_energy",
    "t_joint_custom_ball",
    "t_joint_custom_slot",
    "t_scene_drop_comes_to_rest",
];

/// Builds `ctests/<name>.c` and runs it against our library with
/// `ODE_SOLVER=<mode>`; returns stdout, requiring the program's success
/// line (`PASS ...`, or `... ok`).
fn run_with_solver(name: &str, mode: &str, args: &[&str]) -> String {
    let bin = build_c(name, &[&format!("{name}.c")], Headers::Ours, &[]);
    let o = Command::new(&bin)
        .args(args)
        .env("LD_LIBRARY_PATH", our_lib_dir())
        .env("ODE_SOLVER", mode)
        .output()
        .expect("cannot run test program");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success() && {
            let last = out.lines().last().unwrap_or_default();
            last.starts_with("PASS") || last.trim_end().ends_with("ok")
        },
        "{name} with ODE_SOLVER={mode} ({}):\n{out}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// One test for both values (one build of the program, no race on it).
#[test]
fn solver_fast_mode_checks_under_both_env_values() {
    run_with_solver("t_solver_fast_mode", "fast", &["fast"]);
    run_with_solver("t_solver_fast_mode", "exact", &["exact"]);
}

#[test]
fn solver_fast_mode_physics_programs_pass() {
    for name in FAST_MODE_PROGRAMS {
        run_with_solver(name, "fast", &[]);
    }
}
