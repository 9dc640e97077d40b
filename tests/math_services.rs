//! Self-checking C test of error.h, memory.h, odeinit.h, timer.h and the
//! configuration queries, run against Debian's ODE (to validate the test's
//! expectations) and against ours.
mod common;
use common::*;

#[test]
fn services_behave_like_ode() {
    require_reference();
    let bin = build_c("t_math_services", &["t_math_services.c"], Headers::Debian, &[]);
    for lib in [Lib::Debian, Lib::Ours] {
        let out = run_ok(&bin, lib, &[]);
        let last = out.lines().last().unwrap_or("");
        assert!(last.ends_with(" passed, 0 failed"), "{lib:?}: {out}");
    }
}
