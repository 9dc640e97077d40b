//! Cylinder–cylinder through dCollide (ODE 0.16's near-parallel rim
//! contacts, else MPR), differential against Debian's libode.so.8 over
//! 4000 placements, half with nearly parallel axes: identical traces.
mod common;
use common::*;

#[test]
fn cylinder_cylinder_matches_ode_exactly() {
    let reference = differential("diff_collide_cylinder_cylinder");
    assert!(reference.ends_with("done\n"), "reference run incomplete");
    let count = |n: &str| {
        reference.lines().filter(|l| l.starts_with("F 12 ") && l.split_whitespace().nth(2) == Some(n)).count()
    };
    // Both paths are exercised: single MPR contacts and full rims.
    assert!(count("1") > 1000, "MPR contacts: {}", count("1"));
    assert!(count("8") > 200, "rim contacts: {}", count("8"));
}
