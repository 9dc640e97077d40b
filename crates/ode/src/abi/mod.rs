//! The C-layout types and constants of ODE's headers (`dContactGeom`,
//! `dJointFeedback`, `dGeomClass`, the handle typedefs, …): the bottom layer
//! that both the safe core and the `extern "C"` layer use, so the core never
//! imports `ffi`. One file per header stem; build.rs reads them so that
//! cbindgen emits each into `include/ode/<header>.h`. `types` holds the
//! scalar and handle typedefs that `common.h` spells by hand.
pub mod collision;
pub mod collision_space;
pub mod collision_trimesh;
pub mod common;
pub mod contact;
pub mod mass;
pub mod objects;
pub mod odeconfig;
pub mod odeinit;
pub mod threading;
pub mod timer;
pub mod types;
