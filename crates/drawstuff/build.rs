//! Build script: compiles the C shim for the variadic message functions
//! (dsError, dsDebug, dsPrint), which stable Rust cannot define, and sets
//! the shared library's SONAME.
fn main() {
    cc::Build::new().file("csrc/ds_messages.c").compile("ds_messages");
    println!("cargo:rerun-if-changed=csrc/ds_messages.c");
    println!("cargo:rerun-if-changed=csrc/ds_messages.map");
    for s in ["dsError", "dsDebug", "dsPrint"] {
        println!("cargo:rustc-cdylib-link-arg=-Wl,--undefined={s}");
    }
    let map = std::path::Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("csrc/ds_messages.map");
    println!("cargo:rustc-cdylib-link-arg=-Wl,--version-script={}", map.display());
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libdrawstuff.so");
}
