//! The C library of ode-rs: ODE 0.16's C API on top of the safe core (the
//! `ode` crate of `crates/ode`), built as `libode.so.8` and `libode.a`,
//! binary compatible with Debian's ODE 0.16.2.
//!
//! This crate owns only the `extern "C"` layer (`ffi`, one file per ODE
//! header: it converts, validates and delegates), the C variadic shim
//! (`csrc/variadic.c`) and the generated headers (`include/ode`, see
//! build.rs). It re-exports the whole core, so the paths `ode::api`,
//! `ode::math`, `ode::dynamics`... of the tests and benches name the same
//! items as in the core crate, beside `ode::ffi`.
// Lints allowed for the whole workspace are listed, with reasons, in
// Cargo.toml's [workspace.lints] table.

pub use ode_core::*;

#[doc(hidden)]
#[allow(rustdoc::broken_intra_doc_links, rustdoc::private_intra_doc_links)]
pub mod ffi;
