//! Differential tests of the spaces against Debian's libode.so.8: the
//! pairs each space reports, in ODE's callback order (see
//! ctests/diff_space_*.c).
mod common;
use common::*;

#[test]
fn space_pairs_match_ode() {
    let reference = differential("diff_space_pairs");
    assert!(reference.ends_with("done\n"), "reference run incomplete");
}
