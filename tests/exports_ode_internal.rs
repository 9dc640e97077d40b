//! The functions Debian's libode.so.8 exports beyond its headers
//! (`ctests/diff_ode_internal_exports.c`, exact against Debian's):
//! dGeomMoved, dGeomGetBodyNext, OPCODE's Rand/SRand/Alignment/InitOpcode/
//! CloseOpcode, dTestSolveLCP (the same 1000 random LCPs, each solved with
//! the same count of variables at the low bound, the high bound and
//! between) and dTestDataStructures (endless and silent, like ODE's).
//! Before they were exported, ODE's demo_ode failed to load.
mod common;
use common::*;

#[test]
fn internal_exports_match_ode() {
    let reference = differential("diff_ode_internal_exports");
    assert!(reference.contains("dTestSolveLCP returned 1, 1001 lines"));
    assert!(reference.contains("dTestDataStructures: still running after 1 s"));
    assert!(reference.ends_with("done\n"));
}
