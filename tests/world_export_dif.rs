//! `dWorldExportDIF`: the text must match Debian's byte for byte on a scene
//! with every body state, geom class and joint type (ctests/diff_world_export_dif.c),
//! and rejected calls (NULL or stale world, NULL file or name) are reported
//! once and write nothing.

mod common;
use common::*;
use ode::error::report_count;
use ode::ffi::export_dif::dWorldExportDIF;
use ode::ffi::objects_body::dBodyCreate;
use ode::ffi::objects_world::{dWorldCreate, dWorldDestroy, dWorldSetGravity};
use std::ptr::null_mut;

#[test]
fn export_matches_debian_byte_for_byte() {
    let reference = differential("diff_world_export_dif");
    // The scene really exercises what it claims: every named joint type,
    // an unknown one, the three prefixes, geoms and body flags.
    for needle in [
        "dynamics.ball_joint",
        "dynamics.hinge_joint",
        "dynamics.slider_joint",
        "dynamics.contact_joint",
        "dynamics.universal_joint",
        "dynamics.ODE_hinge2_joint",
        "dynamics.fixed_joint",
        "dynamics.null_joint",
        "dynamics.ODE_angular_motor_joint",
        "dynamics.ODE_linear_motor_joint",
        "dynamics.PR_joint",
        "dynamics.PU_joint",
        "dynamics.piston_joint",
        "dynamics.unknown_joint",
        "\tmode = 0,",
        "\tmode = 1,",
        "scene_joint[",
        "q.body[",
        "\tbody = {}",
        "type = \"heightfield\"",
        "category_bits = 5",
        "time_left = ",
        "finite_rotation_axis = ",
        "friction_approximation = 3",
        "lvel = {-0,4.94065645841247e-324,1e+16}",
    ] {
        assert!(reference.contains(needle), "reference lacks {needle:?}");
    }
    assert_eq!(reference.matches("-- Dynamics Interchange Format v0.1").count(), 4);
}

/// Reads what was written to a `tmpfile()`.
unsafe fn contents(f: *mut libc::FILE) -> Vec<u8> {
    libc::fflush(f);
    let len = libc::ftell(f);
    libc::rewind(f);
    let mut buf = vec![0u8; len.max(0) as usize];
    let n = libc::fread(buf.as_mut_ptr().cast(), 1, buf.len(), f);
    buf.truncate(n);
    libc::fseek(f, 0, libc::SEEK_END);
    buf
}

fn reports<R>(n: u64, what: &str, f: impl FnOnce() -> R) -> R {
    let before = report_count();
    let r = f();
    assert_eq!(report_count() - before, n, "{what}: wrong number of reports");
    r
}

#[test]
fn bad_input_is_reported_and_writes_nothing() {
    unsafe {
        let f = libc::tmpfile();
        assert!(!f.is_null());
        let w = dWorldCreate();
        let b = dBodyCreate(w);
        let dead = dWorldCreate();
        dWorldDestroy(dead);
        let name = c"w_".as_ptr();

        reports(1, "null world", || dWorldExportDIF(null_mut(), f, name));
        reports(1, "destroyed world", || dWorldExportDIF(dead, f, name));
        reports(1, "body as world", || dWorldExportDIF(b, f, name));
        reports(1, "null name", || dWorldExportDIF(w, f, std::ptr::null()));
        reports(1, "null file", || dWorldExportDIF(w, null_mut(), name));
        assert!(contents(f).is_empty(), "a rejected call wrote something");

        dWorldSetGravity(w, 0.0, 0.0, -9.5);
        reports(0, "valid call", || dWorldExportDIF(w, f, name));
        let text = String::from_utf8(contents(f)).unwrap();
        assert!(text.starts_with("-- Dynamics Interchange Format v0.1\n\nw_world = dynamics.world {\n"), "{text}");
        assert!(text.contains("\tgravity = {0,0,-9.5},\n"), "{text}");
        assert!(text.contains("w_body[0] = dynamics.body {\n\tworld = w_world,\n"), "{text}");
        assert!(text.ends_with("w_joint = {}\n"), "{text}");

        dWorldDestroy(w);
        libc::fclose(f);
    }
}
