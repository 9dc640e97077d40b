//! Worlds, rigid bodies and their integration. (to be written)
