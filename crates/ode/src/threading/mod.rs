//! ODE's built-in threading: the call scheduler behind `dThreadingFunctionsInfo`
//! (`engine`), the thread pools that donate threads to it (`pool`) and the
//! cooperative resource objects of cooperative.h / matrix_coop.h (`coop`).
//!
//! The library's own steppers do not use any of this: islands are stepped
//! on the calling thread, in a fixed order, so a world gives the same
//! trajectory with or without a threading implementation assigned. These
//! objects exist for hosts that use ODE's scheduler for their own work and
//! for code that assigns them to worlds.

pub mod coop;
pub mod engine;
pub mod pool;
