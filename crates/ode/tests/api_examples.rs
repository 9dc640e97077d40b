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

/// `--gif DIR`: the example draws its scene with drawstuff's headless
/// recording; the pictures exist, are not blank and change as the stack
/// settles, and the GIF holds them.
#[test]
fn api_examples_write_pictures_with_gif() {
    let dir = examples_dir();
    if !dir.join("box_stack").exists() {
        build_examples();
    }
    let out_dir = std::env::temp_dir().join(format!("ode_example_gif_{}", std::process::id()));
    let out = Command::new(dir.join("box_stack")).arg("--gif").arg(&out_dir).output().expect("run box_stack");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    // 600 steps, every 4th recorded: 150 pictures.
    assert!(stdout.contains("150 pictures and animation.gif written"), "{stdout}");
    let first = std::fs::read(out_dir.join("frame0001.png")).expect("first picture");
    let last = std::fs::read(out_dir.join("frame0597.png")).expect("last picture");
    assert!(first.len() > 10_000 && first != last, "pictures blank or unchanged");
    let gif = std::fs::read(out_dir.join("animation.gif")).expect("animation.gif");
    assert!(gif.starts_with(b"GIF89a") && gif.len() > 100_000, "GIF of {} bytes", gif.len());
    std::fs::remove_dir_all(&out_dir).ok();
}
