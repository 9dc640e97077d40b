//! mass.h: the C name of the mass record. The header spells `struct dMass`
//! by hand (C++ gives it member functions); in Rust it is the safe core's
//! `Mass`, which has the same `repr(C)` layout (checked by tests/headers_abi_layout.rs).

pub use crate::math::mass::Mass as dMass;
