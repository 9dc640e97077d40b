//! Trimesh contacts in ODE's order: `ctests/ref_trimesh_collide_order.c`
//! collides eight meshes (cube, icosphere, strided terrain, bowl, a
//! 320-triangle rock, a 2048-triangle noisy double-precision terrain, the
//! terrain with use flags, a single triangle) against sphere, box,
//! capsule, cylinder, ray (every flag combination), plane, convex (both
//! argument orders) and a trimesh (both orders) at random placements, and
//! prints the tree's leaf order, the candidate list OPCODE hands each
//! collider (array callback) and every contact in dCollide's order.
//!
//! Run with Debian's library and ours, the outputs must be identical line
//! for line: same candidate triangles in the same order, the same contacts
//! bit for bit (printed with 17 digits) in the same order, side1 and side2
//! included, at limits 64, 4 and 1 (where ODE keeps the first contacts in
//! candidate order, or for the box its deepest ones).
mod common;
use common::*;

#[derive(Debug)]
struct Case {
    head: String,
    cand: Vec<String>,
    contacts: Vec<String>,
    count: usize,
}

fn parse(out: &str) -> (Vec<String>, Vec<Case>) {
    let mut leaves = Vec::new();
    let mut cases: Vec<Case> = Vec::new();
    let mut mesh = String::new();
    for line in out.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.first().copied() {
            Some("leaves") => leaves.push(line.to_owned()),
            Some("cand") if cases.is_empty() => leaves.push(line.to_owned()),
            Some("mesh") => mesh = line.to_owned(),
            Some("case") => {
                cases.push(Case { head: format!("{mesh} | {line}"), cand: Vec::new(), contacts: Vec::new(), count: 0 })
            }
            Some("cand") => cases.last_mut().unwrap().cand.push(line.to_owned()),
            Some("n") => cases.last_mut().unwrap().count = w[1].parse().unwrap(),
            Some("c") => cases.last_mut().unwrap().contacts.push(line.to_owned()),
            _ => {}
        }
    }
    (leaves, cases)
}

fn pair(c: &Case) -> &str {
    c.head.split(" | case ").nth(1).unwrap().split_whitespace().next().unwrap()
}

fn compare(rounds: &str, limit: usize) {
    let bin = build_c("ref_trimesh_collide_order", &["ref_trimesh_collide_order.c"], Headers::Debian, &[]);
    let lim = limit.to_string();
    let deb = run_ok(&bin, Lib::Debian, &[rounds, &lim]);
    let ours = run_ok(&bin, Lib::Ours, &[rounds, &lim]);
    assert!(deb.ends_with("done\n") && ours.ends_with("done\n"));
    let ((dl, dc), (ol, oc)) = (parse(&deb), parse(&ours));
    // The whole tree's leaf order, mesh by mesh.
    assert_eq!(dl.len(), 16);
    assert_eq!(dl, ol, "leaf order");
    assert_eq!(dc.len(), oc.len());
    let mut stats: std::collections::BTreeMap<String, [usize; 3]> = Default::default();
    for (d, o) in dc.iter().zip(&oc) {
        assert_eq!(d.head, o.head);
        let st = stats.entry(pair(d).to_owned()).or_default();
        st[0] += 1;
        assert_eq!(d.cand, o.cand, "candidates differ: {}", d.head);
        st[1] += 1;
        assert_eq!(
            d.contacts,
            o.contacts,
            "contacts differ: {}\nODE:\n{}\nours:\n{}",
            d.head,
            d.contacts.join("\n"),
            o.contacts.join("\n")
        );
        st[2] += 1;
    }
    for (p, s) in &stats {
        eprintln!("limit {limit:3} {p:9} cases {:5}  same candidates {:5}  identical contacts {:5}", s[0], s[1], s[2]);
    }
    // Every pair was exercised with contacts.
    for p in ["sphere", "box", "capsule", "cylinder", "ray", "plane", "convex", "convex2", "mesh", "mesh2"] {
        assert!(stats.contains_key(p), "{p}");
    }
    assert!(dc.iter().filter(|c| pair(c) == "mesh" && c.count > 0).count() > 10);
}

// One test: the runs share the compiled program.
#[test]
fn every_trimesh_pair_matches_ode_in_order_bit_for_bit() {
    require_reference();
    compare("60", 64);
    compare("40", 4);
    compare("30", 1);
}
