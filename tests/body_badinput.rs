//! Bad input to the dBody* functions through the C ABI: reported with the
//! function's name, no effect, process continues.
mod common;
use common::*;

/// Every dBody* entry point with NULL / destroyed / wrong-kind handles,
/// non-finite reals, NULL out-pointers and out-of-range values; state is
/// compared bit for bit before and after each call (see the C source).
#[test]
fn bad_body_calls_are_reported_and_ignored() {
    require_reference();
    let bin = build_c("t_body_badinput", &["t_body_badinput.c"], Headers::Debian, &[]);
    let out = run_ok(&bin, Lib::Ours, &[]);
    let last = out.lines().last().unwrap_or_default();
    assert!(last.starts_with("PASS "), "{out}");
    let n: usize = last[5..].trim().parse().unwrap();
    assert!(n > 500, "too few checks ran: {n}");
}

/// Without any handler the default prints to stderr and the call returns.
#[test]
fn default_handler_prints_and_continues() {
    require_reference();
    let bin = build_c("t_error_default_handler", &["t_error_default_handler.c"], Headers::Debian, &[]);
    let o = run(&bin, Lib::Ours, &[]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "status {}: {stderr}", o.status);
    assert!(stdout.contains("getposition null") && stdout.ends_with("continued\n"), "{stdout}");
    // ODE's title would be "ODE INTERNAL ERROR 2"; a rejected argument is
    // the caller's mistake and says so.
    for f in ["dBodySetPosition", "dBodyGetPosition", "dBodyAddForce"] {
        let want = format!("ODE usage error (2): {f}: argument 'b' ");
        assert!(stderr.lines().any(|l| l.starts_with(&want)), "no report \"{want}...\" on stderr:\n{stderr}");
    }
    assert!(!stderr.contains("INTERNAL ERROR"), "a usage error reads as an internal error:\n{stderr}");
}
