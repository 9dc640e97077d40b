//! The step's guard against non-finite results (ctests/t_pipeline_nonfinite_guard.c):
//! extreme but finite inputs are reported once, the island keeps its last
//! finite state and is disabled, other islands are untouched.
mod common;
use common::*;

#[test]
fn nonfinite_step_results_are_reported_and_rolled_back() {
    let bin = build_c("t_pipeline_nonfinite_guard", &["t_pipeline_nonfinite_guard.c"], Headers::Ours, &[]);
    let out = run_ok(&bin, Lib::Ours, &[]);
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("PASS "), "{out}");
    let n: usize = last[5..].trim().parse().unwrap();
    assert!(n >= 150, "too few checks ran: {n}");
}
