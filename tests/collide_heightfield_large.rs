//! Heightfields against geoms far larger than a cell (zones of up to
//! ~600 x 600 samples, past the size the library builds triangles for)
//! and moderate geoms cutting uneven terrain: contacts and the number of
//! height callback calls must match Debian's libode.so.8 exactly (see
//! ctests/diff_collide_heightfield_large.c).
mod common;
use common::*;

#[test]
fn large_geoms_over_heightfields_match_ode_exactly() {
    let reference = differential("diff_collide_heightfield_large");
    assert!(reference.ends_with("done\n"), "reference run incomplete");
    // Both the cheap answers and real terrain contacts must be exercised.
    let below = reference.lines().filter(|l| l.starts_with("P ") && l.split_whitespace().nth(2) == Some("1")).count();
    let touching = reference.lines().filter(|l| l.starts_with("F ") && !l.starts_with("F 0")).count();
    let several = reference
        .lines()
        .filter(|l| {
            l.starts_with("F ") && l.split_whitespace().nth(1).is_some_and(|n| n.parse::<u32>().unwrap_or(0) >= 2)
        })
        .count();
    // The callback field is read over more than 2^14 samples at least once.
    let big_scans = reference
        .lines()
        .filter(|l| l.strip_prefix("C ").is_some_and(|n| n.parse::<u64>().unwrap_or(0) > 1 << 14))
        .count();
    assert!(
        below > 20 && touching > 60 && several > 20 && big_scans > 0,
        "below {below}, touching {touching}, several {several}, big scans {big_scans}"
    );
}
