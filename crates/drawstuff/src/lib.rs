//! libdrawstuff: the viewer ODE's sample programs are written against
//! (`drawstuff/drawstuff.h`), so they build unchanged against this project
//! and can be watched or recorded.
//!
//! - [`api`]: the `ds*` C functions.
//! - [`viewer`]: the simulation loop and the shared state.
//! - [`config`]: flags and environment variables of a run.
//! - [`camera`], [`shapes`], [`frame`]: from calls to world-space triangles.
//! - [`renderer`]: OpenGL 3.3 drawing (glow), [`egl_context`]: contexts
//!   (EGL: X11 window or Mesa surfaceless), [`x11_window`]: the window.
//! - [`recorder`]: PNG frames and the animated GIF; [`textures`].
//! - [`recording`]: pictures from Rust programs that step their own world
//!   ([`Recording`], [`Pen`]).
//!
//! The library does not link ODE: shapes arrive as positions, rotations
//! and sizes, as in ODE's drawstuff.
#![allow(clippy::missing_safety_doc)]

pub mod api;
pub mod camera;
pub mod config;
pub mod egl_context;
pub mod frame;
pub mod recorder;
pub mod recording;
pub mod renderer;
pub mod shapes;
pub mod textures;
pub mod viewer;
pub mod x11_window;

pub use recording::{Pen, Recording, Texture};

/// `DS_VERSION` of drawstuff/version.h.
pub const DS_VERSION: i32 = 0x0002;
