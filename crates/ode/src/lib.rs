//! A Rust re-implementation of the Open Dynamics Engine 0.16 (double
//! precision): the safe core and the Rust API ([`api`]).
//!
//! This crate exports no C symbol and declares no `links`: a Rust program
//! depends on it alone. The C library, binary compatible with Debian's
//! `libode.so.8`, is the workspace's root package (`libode-sys`): its
//! `extern "C"` layer (`ffi`, one file per ODE header) converts, validates
//! and delegates to the modules below.
//!
//! Layout:
//! - `abi`: the C-layout types and constants of ODE's headers (bottom layer).
//! - `handle`: stable, checkable object handles shared with C.
//! - `error`: ODE's error/debug/message channels.
//! - `math`: matrices, rotations, mass, random numbers (safe Rust).
//! - `dynamics`: worlds, bodies, one body's motion, auto-disable.
//! - `collision`: geoms, spaces, pair colliders, heightfields, trimeshes
//!   (beside `dynamics`: it reads bodies' poses; bodies reach their geoms
//!   only through hooks it registers).
//! - `joints`: the constraint row interface and every joint type.
//! - `solver`: Dantzig BLCP (`dWorldStep`) and PGS/SOR (`dWorldQuickStep`).
//! - `pipeline`: the time step, stage by stage (islands, forces, rows,
//!   solve, integrate).
//! - `threading`: ODE's threading and cooperative-call protocol.
//! - `export_dif`: `dWorldExportDIF`'s text writer.
//! - `api`: the safe Rust API.
//!
//! The core layers use only those listed before them: `handle`, `error`,
//! `math` and `abi` at the bottom, then `dynamics`, `collision`,
//! `joints`, `solver`, `pipeline`; `api` (and the C layer of `libode-sys`)
//! sit on top of all.
//! Only [`api`] is shown by `cargo doc`: the other modules stay public
//! for the C layer and the tests but are internal (`#[doc(hidden)]`; their
//! comments use math notation such as `[a]ₓ` that rustdoc would take for
//! links, hence the allowed link lints).
// Lints allowed for the whole workspace are listed, with reasons, in
// the top-level Cargo.toml's [workspace.lints] table.

/// Declares the internal modules: public for the C layer and the tests,
/// hidden from the docs, with the link lints their math notation trips.
macro_rules! internal_modules {
    ($($name:ident),* $(,)?) => {
        $(
            #[doc(hidden)]
            #[allow(rustdoc::broken_intra_doc_links, rustdoc::private_intra_doc_links)]
            pub mod $name;
        )*
    };
}

pub mod api;
#[cfg(test)]
mod test_rng;
internal_modules!(
    abi, collision, dynamics, error, export_dif, handle, joints, math, pipeline, solver, threading, timer
);
