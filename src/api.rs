//! Safe Rust API. (to be written)
