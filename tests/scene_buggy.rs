//! The buggy of ODE's demo_buggy (hinge2 wheels with suspension, steering
//! and drive motors, soft slipping contacts from real colliders through
//! nested spaces): `ctests/diff_buggy.c` must give Debian's trace exactly,
//! compiled against either library's headers, and `ctests/t_buggy_drive.c`
//! checks the drive against closed-form mechanics. `ctests/demo_buggy.c`,
//! the same car as a drawstuff program, must print Debian's trace too.
mod common;
use common::*;

#[test]
fn buggy_drives_as_in_ode() {
    let reference = differential("diff_buggy");
    // 2 settings x 2 steppers x (51 samples x 6 lines + a header).
    assert_eq!(reference.lines().count(), 4 * (51 * 6 + 1), "unexpected reference trace shape");
    // Compiled against our headers, run against our library: the same text.
    let bin = build_c("diff_buggy", &["diff_buggy.c"], Headers::Ours, &[]);
    let ours = run_ok(&bin, Lib::Ours, &[]);
    if ours != reference {
        let (i, (a, b)) =
            ours.lines().zip(reference.lines()).enumerate().find(|(_, (a, b))| a != b).unwrap_or((0, ("<length>", "")));
        panic!("diff_buggy (our headers) differs first at line {i}:\n ours: {a}\n  ref: {b}");
    }
}

#[test]
fn buggy_drive_closed_form() {
    let bin = build_c("t_buggy_drive", &["t_buggy_drive.c"], Headers::Ours, &[]);
    let out = run_ok(&bin, Lib::Ours, &[]);
    assert!(out.trim_end().ends_with("ok"), "t_buggy_drive:\n{out}");
}

#[test]
fn demo_buggy_matches_debian() {
    // The quick-start demo (scripts/demo.sh), a drawstuff program run
    // headless: same text with either library.
    let reference = differential_drawstuff("demo_buggy");
    assert!(reference.contains("summary"), "demo_buggy did not finish:\n{reference}");
}
