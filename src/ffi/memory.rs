//! extern "C" functions of ODE's header (to be written)
