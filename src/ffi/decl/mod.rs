//! Declaration-only modules: the C types and constants of each ODE header,
//! declared here so cbindgen emits them into `include/ode/<header>.h`
//! whether or not a Rust function uses them. One file per header stem (build.rs reads them).
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
