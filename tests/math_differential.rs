//! Differential tests of the math headers (matrix.h, misc.h, mass.h, …):
//! each `ctests/diff_math_*.c` program is compiled once against Debian's
//! headers and run with Debian's `libode.so.8` and with ours; the traces must
//! agree within the tolerance on the program's first line
//! (`/* DIFF-TOL rel=R abs=A */`; rel=0 abs=0 means identical text).
mod common;
use common::*;

fn diff(name: &str) {
    differential(name);
}

#[test]
fn matrix_routines_match_ode() {
    diff("diff_math_matrix");
}

#[test]
fn mass_functions_match_ode() {
    diff("diff_math_mass");
}

#[test]
fn random_sequences_match_ode() {
    diff("diff_math_random");
}
