//! Free-body integration of one time step. (to be written)
