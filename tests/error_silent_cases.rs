//! Input that used to pass without a word (issue 10, section 3): refused
//! with a report where ODE asserts, crashes or makes NaN; carried out as
//! ODE with a message where ODE's result is degenerate; silent where
//! it is meaningful (ctests/t_error_silent_cases.c), and Debian's numbers
//! wherever Debian runs (ctests/diff_error_silent_cases.c).
mod common;
use common::*;

#[test]
fn silent_cases_match_debian() {
    let reference = differential("diff_error_silent_cases");
    assert!(reference.lines().count() > 40, "short trace");
}

#[test]
fn silent_cases_are_reported() {
    let bin = build_c("t_error_silent_cases", &["t_error_silent_cases.c"], Headers::Ours, &[]);
    let out = run_ok(&bin, Lib::Ours, &[]);
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("PASS "), "{out}");
    let n: usize = last[5..].trim().parse().unwrap();
    assert!(n >= 90, "too few checks ran: {n}");
}
