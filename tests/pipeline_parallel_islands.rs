//! Islands stepped in parallel give the serial bits, and Debian's:
//! - `ctests/diff_pipeline_islands.c` (19 islands, QuickStep with dRand
//!   shuffles then Step, collision) with ODE_THREADS=1/2/4 and through
//!   ODE's threading API with a pool of 1/3 threads, against Debian's
//!   serial trace, exactly (positions, quaternions, dRandGetSeed); and
//!   with `odexWorldSetStepThreads`;
//! - `ctests/diff_quickstep_small_islands.c` (40 small contact islands,
//!   which the QuickStep solves a few at a time) with ODE_THREADS=1/2/4,
//!   against Debian's serial trace, exactly;
//! - `ctests/t_pipeline_worlds_threads.c`: several host threads each
//!   stepping its own world with collision, every trace equal to a serial
//!   run (with Debian's library too).
mod common;

use common::{build_c, debian_lib_dir, our_lib_dir, require_reference, Headers};
use std::process::Command;

fn run_with(bin: &std::path::Path, lib: std::path::PathBuf, threads_env: Option<&str>, args: &[&str]) -> String {
    let mut c = Command::new(bin);
    c.args(args).env("LD_LIBRARY_PATH", lib).env_remove("ODE_THREADS");
    if let Some(t) = threads_env {
        c.env("ODE_THREADS", t);
    }
    let o = c.output().expect("cannot run test program");
    assert!(
        o.status.success(),
        "{} {args:?} ODE_THREADS={threads_env:?} failed: {}",
        bin.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

fn first_difference(a: &str, b: &str) -> String {
    a.lines()
        .zip(b.lines())
        .enumerate()
        .find(|(_, (x, y))| x != y)
        .map(|(i, (x, y))| format!("line {i}:\n ours: {x}\n  ref: {y}"))
        .unwrap_or_else(|| "lengths differ".into())
}

#[test]
fn islands_in_parallel_match_debian_bit_for_bit() {
    require_reference();
    let bin = build_c("diff_pipeline_islands", &["diff_pipeline_islands.c"], Headers::Debian, &[]);
    let reference = run_with(&bin, debian_lib_dir(), None, &[]);
    assert!(reference.lines().count() > 1000);
    for t in ["1", "2", "4"] {
        let ours = run_with(&bin, our_lib_dir(), Some(t), &[]);
        assert!(ours == reference, "ODE_THREADS={t}: {}", first_difference(&ours, &reference));
    }
    // ODE's threading API. (Debian's own threaded islands draw dRand in
    // whatever order its threads run, so its threaded traces vary from run
    // to run: ours must equal Debian's serial trace instead.)
    for pool in ["1", "3"] {
        let ours = run_with(&bin, our_lib_dir(), None, &[pool]);
        assert!(ours == reference, "threading API, pool of {pool}: {}", first_difference(&ours, &reference));
    }
    // Our extension, odexWorldSetStepThreads (overrides ODE_THREADS).
    let ext = build_c("diff_pipeline_islands", &["diff_pipeline_islands.c"], Headers::Ours, &["-DODEX"]);
    for (n, env) in [("3", None), ("2", Some("1")), ("1", Some("4"))] {
        let ours = run_with(&ext, our_lib_dir(), env, &["0", n]);
        assert!(ours == reference, "odexWorldSetStepThreads({n}): {}", first_difference(&ours, &reference));
    }
}

#[test]
fn grouped_small_islands_in_parallel_match_debian_bit_for_bit() {
    require_reference();
    let name = "diff_quickstep_small_islands";
    let bin = build_c(name, &[&format!("{name}.c")], Headers::Debian, &[]);
    let reference = run_with(&bin, debian_lib_dir(), None, &[]);
    assert!(reference.lines().count() > 3000);
    for t in ["1", "2", "4"] {
        let ours = run_with(&bin, our_lib_dir(), Some(t), &[]);
        assert!(ours == reference, "ODE_THREADS={t}: {}", first_difference(&ours, &reference));
    }
}

#[test]
fn worlds_stepped_on_several_host_threads_match_serial_runs() {
    require_reference();
    let bin = build_c("t_pipeline_worlds_threads", &["t_pipeline_worlds_threads.c"], Headers::Debian, &["-lpthread"]);
    run_with(&bin, debian_lib_dir(), None, &[]);
    for t in [None, Some("2")] {
        for args in [&[][..], &["default"][..]] {
            let out = run_with(&bin, our_lib_dir(), t, args);
            assert!(out.contains("all worlds match"), "{args:?} ODE_THREADS={t:?}: {out}");
        }
    }
}
