//! dCollide's class table against Debian's (`ctests/diff_collide_class_pairs.c`,
//! exact): every built-in class against every other, both orders, with
//! overlapping geoms; only contact counts are printed, so the test checks
//! that we collide exactly the pairs ODE 0.16.2 registers (OPCODE trimesh,
//! libccd), heightfield–trimesh included, whatever the colliders' details.
mod common;
use common::*;

#[test]
fn every_class_pair_collides_when_ode_does() {
    let reference = differential("diff_collide_class_pairs");
    assert!(reference.ends_with("done\n"));
    // The placements must make every registered pair touch, so that a
    // zero count means "no collider" in ODE: the only zero pairs are those
    // ODE has no collider for.
    let mut zero: Vec<String> = reference
        .lines()
        .filter(|l| !l.starts_with("class ") && l.ends_with(" 0"))
        .map(|l| l.trim_end_matches(" 0").to_string())
        .collect();
    zero.sort();
    assert_eq!(zero, ["heightfield heightfield", "heightfield plane", "plane heightfield", "plane plane", "ray ray"]);
    assert_eq!(reference.lines().filter(|l| !l.starts_with("class ") && *l != "done").count(), 121);
}
