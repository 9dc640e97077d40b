//! Auto-disable: idle detection of bodies. (to be written)
