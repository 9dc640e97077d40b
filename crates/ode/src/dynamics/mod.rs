//! Worlds, rigid bodies and their integration.
//!
//! - `world`: the `World` object (global parameters, body list in ODE order).
//! - `body`: the `Body` object (state, mass, per-body settings).
//! - `integrator`: one body's motion over a step (velocity and position
//!   update, damping, gyroscopic term, finite rotation); the step itself is
//!   the `pipeline` module.
//! - `autodisable`: idle detection that disables resting bodies.
pub mod autodisable;
pub mod body;
pub mod integrator;
pub mod world;

pub use body::{Body, BodyRef, BODIES};
pub use world::{World, WorldRef, WORLDS};
