//! Runs every example of `examples/` (the scenes the issue asks for, as a
//! new user would run them with `cargo run -p ode --example NAME`) and checks each
//! finishes successfully and prints its summary line.
//!
//! `cargo test -p ode` builds the examples before running the tests; a targeted
//! `cargo test -p ode --test api_examples` does not, so the test builds them then.

use std::path::PathBuf;
use std::process::Command;

/// Each example and a word its summary line contains.
const EXAMPLES: &[(&str, &str)] = &[
    ("box_stack", "box stack:"),
    ("hinge_pendulum", "hinge holds the bob"),
    ("vehicle", "vehicle: drove"),
    ("mesh_on_terrain", "mesh on terrain:"),
    ("custom_joint", "custom joint:"),
    ("falling_body", "ground reached"),
];

/// target/<profile>/examples, next to this test's deps directory.
fn examples_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    exe.parent().and_then(|d| d.parent()).expect("target/<profile>").join("examples")
}

fn build_examples() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "--examples", "--manifest-path"]).arg(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"));
    if !cfg!(debug_assertions) {
        cmd.arg("--release");
    }
    let status = cmd.status().expect("run cargo build --examples");
    assert!(status.success(), "cargo build --examples failed");
}

#[test]
fn api_examples_run_and_print_summaries() {
    let dir = examples_dir();
    if EXAMPLES.iter().any(|(name, _)| !dir.join(name).exists()) {
        build_examples();
    }
    for (name, summary) in EXAMPLES {
        let out = Command::new(dir.join(name)).output().unwrap_or_else(|e| panic!("run example {name}: {e}"));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "example {name} failed: {}\n{stdout}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains(summary), "example {name} did not print its summary ({summary:?}):\n{stdout}");
    }
}
