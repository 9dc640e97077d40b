//! rotation.h and odemath.h against Debian's libode: bit-identical traces.
mod common;
use common::*;

#[test]
fn rotation_and_odemath_match_ode_bit_for_bit() {
    require_reference();
    let bin = build_c("diff_rotation", &["diff_rotation.c"], Headers::Debian, &[]);
    let reference = run_ok(&bin, Lib::Debian, &[]);
    let ours = run_ok(&bin, Lib::Ours, &[]);
    assert!(reference.lines().count() > 5000);
    compare_traces(&ours, &reference, 0.0, 0.0);
}
