//! Shared by the drawstuff tests that build C programs: the directory
//! holding fresh `libdrawstuff.so` and `libode.so`.
//!
//! `cargo test` leaves a package's cdylib in `target/<profile>/deps/` only
//! (`cargo build` copies it up), and does not build libode at all for
//! `-p drawstuff`; so the libraries are built here with `cargo build`, once
//! per test binary (cargo has released its lock while tests run).
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// target/<profile> with both libraries freshly built.
pub fn lib_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let exe = std::env::current_exe().unwrap();
        let dir = exe.parent().unwrap().parent().unwrap().to_path_buf();
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut cmd = Command::new(cargo);
        cmd.args(["build", "--lib", "-p", "libode-sys", "-p", "drawstuff", "--manifest-path"])
            .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.toml"));
        if !cfg!(debug_assertions) {
            cmd.arg("--release");
        }
        let st = cmd.status().expect("run cargo build");
        assert!(st.success(), "cargo build --lib -p libode-sys -p drawstuff failed");
        assert!(dir.join("libode.so").exists() && dir.join("libdrawstuff.so").exists(), "{}", dir.display());
        dir
    })
    .clone()
}
