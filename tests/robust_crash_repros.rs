//! Inputs that used to crash, abort, hang or panic inside the library
//! (issue 10, sections 1 and 4), each run as its own child process with a
//! time limit so that a regression fails instead of hanging the suite; and
//! the panic channel: a panic inside an API call is reported through ODE's
//! debug handler only, with nothing of Rust's panic text on stderr.
mod common;
use common::*;
use std::ffi::{c_char, c_int, c_void};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `bin case` against our library; kills it past `limit`.
fn run_limited(bin: &std::path::Path, case: &str, limit: Duration) -> (bool, String, String) {
    let mut child = Command::new(bin)
        .arg(case)
        .env("LD_LIBRARY_PATH", our_lib_dir())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot run test program");
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) =
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned());
    match status {
        None => panic!("case {case} did not finish within {limit:?} (hang)\nstdout:\n{stdout}\nstderr:\n{stderr}"),
        Some(s) => (s.success(), stdout, stderr),
    }
}

fn binary() -> &'static std::path::PathBuf {
    // Built once: the cases run in parallel threads.
    static BIN: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    BIN.get_or_init(|| {
        require_reference();
        build_c("t_robust_crash_repros", &["t_robust_crash_repros.c"], Headers::Debian, &[])
    })
}

fn repro(case: &str) {
    let (ok, out, err) = run_limited(binary(), case, Duration::from_secs(120));
    assert!(
        ok && out.lines().last().is_some_and(|l| l.starts_with("PASS ")),
        "case {case} failed:\n{out}\nstderr:\n{err}"
    );
    assert!(!err.contains("panicked"), "case {case}: panic text on stderr:\n{err}");
}

#[test]
fn transform_cycles_are_refused() {
    repro("transform_cycle");
}

#[test]
fn convex_polygon_list_is_validated() {
    repro("convex_bounds");
}

#[test]
fn huge_heightfield_zone_is_bounded() {
    repro("heightfield_huge");
}

#[test]
fn mpr_portal_search_is_bounded() {
    repro("mpr_endless");
}

#[test]
fn hash_space_far_geoms_are_bounded() {
    repro("hash_far");
}

#[test]
fn unbuilt_trimesh_with_concave_edges_collides_without_panic() {
    repro("trimesh_unbuilt");
}

#[test]
fn sap_space_with_all_disabled_collides_without_panic() {
    repro("sap_disabled");
}

// ---- panic output ---------------------------------------------------------------------------------------

const CHILD_ENV: &str = "ODE_ROBUST_PANIC_CHILD";

extern "C" {
    fn vsnprintf(buf: *mut c_char, n: usize, fmt: *const c_char, ap: *mut c_void) -> c_int;
}

static mut LAST: [u8; 512] = [0; 512];

unsafe extern "C" fn on_debug(_num: c_int, fmt: *const c_char, ap: *mut c_void) {
    let buf = &raw mut LAST;
    vsnprintf(buf as *mut c_char, 512, fmt, ap);
    // Our own record on stdout: stderr must stay silent.
    let text = std::ffi::CStr::from_ptr(buf as *const c_char).to_string_lossy();
    println!("HANDLER {text}");
}

/// The child's side: panics inside an API call in the mode given by the
/// environment. Without the variable this test does nothing.
#[test]
fn panic_child() {
    let Ok(mode) = std::env::var(CHILD_ENV) else { return };
    if mode.contains("handler") {
        unsafe { ode::ffi::error::dSetDebugHandler(Some(on_debug)) };
    }
    let r = ode::ffi::call("dTestCall", 7, |_| -> Option<i32> { panic!("boom {}", 42) });
    println!("RESULT {r}");
    if mode.contains("outside") {
        // A panic outside any API call keeps Rust's default report.
        let _ = std::panic::catch_unwind(|| panic!("outside of the library"));
    }
}

fn run_child(mode: &str) -> (String, String) {
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "panic_child", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, mode)
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    let (stdout, stderr) =
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned());
    assert!(out.status.success(), "child ({mode}) failed:\n{stdout}\n{stderr}");
    (stdout, stderr)
}

#[test]
fn panic_in_call_goes_to_the_debug_handler_only() {
    let (out, err) = run_child("handler");
    assert!(out.contains("RESULT 7"), "{out}");
    let line = out.lines().find(|l| l.contains("HANDLER ")).unwrap_or_else(|| panic!("handler not called:\n{out}"));
    assert!(
        line.contains("dTestCall") && line.contains("boom 42") && line.contains("robust_crash_repros.rs"),
        "{line}"
    );
    assert!(!err.contains("panicked") && !err.contains("boom") && !err.contains("backtrace"), "stderr noise:\n{err}");
}

#[test]
fn panic_without_handler_prints_only_odes_message() {
    let (out, err) = run_child("default");
    assert!(out.contains("RESULT 7"), "{out}");
    assert!(err.contains("ODE INTERNAL ERROR 1: dTestCall: internal error, call abandoned: boom 42"), "{err}");
    assert!(!err.contains("panicked") && !err.contains("backtrace"), "Rust panic text on stderr:\n{err}");
}

#[test]
fn panic_outside_calls_keeps_the_default_hook() {
    let (out, err) = run_child("handler outside");
    assert!(out.contains("RESULT 7"), "{out}");
    assert!(err.contains("panicked") && err.contains("outside of the library"), "default hook lost:\n{err}");
    assert!(!err.contains("boom"), "{err}");
}
