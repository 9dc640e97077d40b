//! Declaration-only modules: C types and constants of each ODE header that
//! no function body needs yet, kept here so cbindgen emits them into
//! `include/ode/<header>.h`. One file per header stem.
