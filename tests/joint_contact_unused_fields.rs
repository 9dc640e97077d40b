//! dJointCreateContact ignores surface fields the mode does not use, as
//! ODE does (hosts leave them uninitialised): NaN there must neither be
//! refused nor change the simulation (trace compared with Debian's).
mod common;
use common::*;

#[test]
fn unused_surface_fields_are_ignored_like_ode() {
    let reference = differential("diff_contact_unused_fields");
    assert!(reference.ends_with("done\n"));
    assert!(!reference.contains("nan"), "the reference itself went non-finite");
}
