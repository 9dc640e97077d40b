//! A Rust re-implementation of the Open Dynamics Engine 0.16 (double
//! precision), binary compatible with Debian's `libode.so.8`.
//!
//! Layout:
//! - `handle`: stable, checkable object handles shared with C.
//! - `error`: ODE's error/debug/message channels.
//! - `math`: matrices, rotations, mass, random numbers (safe Rust).
//! - `dynamics`: world, bodies, integration, islands, auto-disable.
//! - `joints`: the constraint row interface and every joint type.
//! - `solver`: Dantzig BLCP (`dWorldStep`) and PGS/SOR (`dWorldQuickStep`).
//! - `collision`: geoms, spaces, pair colliders, heightfields, trimeshes.
//! - `threading`: ODE's threading and cooperative-call protocol.
//! - `export_dif`: `dWorldExportDIF`'s text writer.
//! - `api`: the safe Rust API.
//! - `ffi`: the `extern "C"` layer, one file per ODE header.
#![allow(clippy::too_many_arguments)]

pub mod error;
pub mod handle;
pub mod math;
pub mod timer;
pub mod dynamics;
pub mod collision;
pub mod joints;
pub mod solver;
pub mod threading;
pub mod api;
pub mod export_dif;
pub mod ffi;
