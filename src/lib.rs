//! A Rust re-implementation of the Open Dynamics Engine 0.16 (double
//! precision), binary compatible with Debian's `libode.so.8`.
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
//! - `ffi`: the `extern "C"` layer, one file per ODE header.
//!
//! The core layers use only those listed before them: `handle`, `error`,
//! `math` and `abi` at the bottom, then `dynamics`, `collision`,
//! `joints`, `solver`, `pipeline`; `api` and `ffi` sit on top of all.
// Lints allowed for the whole package are listed, with reasons, in
// Cargo.toml's [lints] table.

pub mod abi;
pub mod api;
pub mod collision;
pub mod dynamics;
pub mod error;
pub mod export_dif;
pub mod ffi;
pub mod handle;
pub mod joints;
pub mod math;
pub mod pipeline;
pub mod solver;
pub mod threading;
pub mod timer;
