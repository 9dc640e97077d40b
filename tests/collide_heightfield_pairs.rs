//! Heightfield colliders (heightfield against sphere, box, capsule,
//! cylinder, ray and convex) through dCollide, differential against
//! Debian's libode.so.8: 1500 random placements per pair over six
//! heightfields (double/byte/short/single/callback data, wrapped and
//! finite, flat and stepped, placeable and not), four contact limits and
//! both argument orders. The traces must be identical.

mod common;
use common::*;

#[test]
fn heightfield_pairs_match_ode_exactly() {
    let reference = differential("diff_collide_heightfield_pairs");
    assert!(reference.ends_with("done\n"), "reference run incomplete");
    // The placements must exercise the colliders, not just miss.
    let touching = reference.lines().filter(|l| l.starts_with("F 16 ") && !l.starts_with("F 16 0")).count();
    assert!(touching > 4000, "only {touching} touching placements");
    for kind in ["sphere", "box", "capsule", "cylinder", "ray", "convex"] {
        let mut cur = "";
        let many = reference
            .lines()
            .filter(|l| {
                if let Some(rest) = l.strip_prefix("P ") {
                    cur = rest.split_whitespace().next().unwrap_or("");
                }
                cur == kind
                    && l.starts_with("F 16 ")
                    && l.split_whitespace().nth(2).is_some_and(|n| n.parse::<u32>().unwrap_or(0) >= 2)
            })
            .count();
        if kind != "ray" {
            assert!(many > 20, "{kind}: only {many} placements with several contacts");
        }
    }
}
