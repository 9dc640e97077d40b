//! Build script: compiles the C-variadic shim, sets the SONAME and leaves a
//! `libode.so.8` link beside `libode.so` so hosts linked against Debian's
//! `libode.so.8` load ours through `LD_LIBRARY_PATH` alone.
use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());

    cc::Build::new().file(root.join("csrc/variadic.c")).compile("ode_variadic");
    println!("cargo:rerun-if-changed=csrc/variadic.c");
    println!("cargo:rerun-if-changed=csrc/variadic.map");
    // The variadic functions come from C, so rustc does not list them for
    // export; a second version script makes them global.
    for s in ["dError", "dDebug", "dMessage"] {
        println!("cargo:rustc-cdylib-link-arg=-Wl,--undefined={s}");
    }
    println!("cargo:rustc-cdylib-link-arg=-Wl,--version-script={}", root.join("csrc/variadic.map").display());
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libode.so.8");

    soname_link();
}

/// `target/<profile>/libode.so.8 -> libode.so` (the link may precede its target).
fn soname_link() {
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    // OUT_DIR = <target>/<profile>/build/ode-<hash>/out
    let Some(profile_dir) = out.ancestors().nth(3) else { return };
    let link = profile_dir.join("libode.so.8");
    if std::fs::symlink_metadata(&link).is_err() {
        let _ = std::os::unix::fs::symlink(Path::new("libode.so"), &link);
    }
}
