//! rotation.h and odemath.h against Debian's libode: bit-identical traces.
mod common;
use common::*;

#[test]
fn rotation_and_odemath_match_ode_bit_for_bit() {
    let reference = differential("diff_math_rotation");
    assert!(reference.lines().count() > 5000);
}
