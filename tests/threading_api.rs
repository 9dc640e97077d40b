//! Self-checking C programs of the threading / cooperative APIs, built
//! against our headers and run against our library: bad input is reported
//! and ignored; worlds step identically with or without a threading
//! implementation (our steppers are single-threaded and deterministic).
mod common;
use common::{build_c, run_ok, Headers, Lib};

#[test]
fn bad_input_is_reported_and_ignored() {
    let bin = build_c("t_threading_badinput", &["t_threading_badinput.c"], Headers::Ours, &[]);
    let out = run_ok(&bin, Lib::Ours, &[]);
    assert!(out.starts_with("PASS"), "{out}");
}

#[test]
fn threading_does_not_change_trajectories() {
    let bin = build_c("t_threading_world_serial", &["t_threading_world_serial.c"], Headers::Ours, &[]);
    let out = run_ok(&bin, Lib::Ours, &[]);
    assert!(out.contains("ours: pool 0 self 0"), "{out}");
}

#[test]
fn scheduler_runs_against_our_headers() {
    // The differential program, compiled against our generated headers.
    let bin = build_c("diff_threading_pool", &["diff_threading_pool.c"], Headers::Ours, &[]);
    let out = run_ok(&bin, Lib::Ours, &[]);
    assert!(out.contains("failures 0"), "{out}");
    assert!(out.contains("order fan-in: 202 201 200 100"), "{out}");
}
