//! Safe numeric core: dense matrix routines (matrix.h), rotations
//! (rotation.h), mass properties (mass.h), vector helpers (odemath.h) and
//! ODE's random number generator (misc.h).
pub mod mass;
pub mod mat3;
pub mod matrix;
pub mod random;
pub mod rotation;
pub mod vec;
