//! Differential tests of the universal, hinge2, PR, PU and piston joints
//! against Debian's libode: each `ctests/diff_j5a_*.c` runs with both
//! libraries and the traces must agree to the tolerance on its first line.
mod common;
use common::*;

#[test]
fn getters_on_random_configurations() {
    let reference = differential("diff_j5a_getters");
    assert!(reference.lines().count() > 300, "short reference trace");
}
