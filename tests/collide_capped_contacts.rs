//! Which contacts the colliders keep when the caller's contact limit (the
//! low 16 bits of dCollide's flags) is below the full set, against Debian's
//! ODE 0.16.2, for every collider pair and limits 1, 2, 3, 4, 8 and 64 (the
//! full set), and 1 and 4 with CONTACTS_UNIMPORTANT.
//!
//! - Primitive and heightfield pairs (`ctests/diff_collide_capped_contacts.c`):
//!   bit-identical traces, every contact in ODE's order; geoms with and
//!   without bodies (ODE's libccd glue reads a body's own quaternion) and
//!   in geom transforms on bodies (whose child ODE puts on the body).
//! - Trimesh pairs (`ctests/ref_collide_capped_trimesh.c`): our mesh tree
//!   and queries are OPCODE's, so the candidate triangles come in ODE's
//!   order and every pair keeps exactly ODE's contacts, bit for bit and in
//!   order, at every limit (convex with CONTACTS_UNIMPORTANT: the count
//!   only, as Debian leaves the rest unset). The checks written before
//!   that order was reproduced are kept:
//!   - box (ODE keeps the deepest: once the array is full a deeper contact
//!     replaces the shallowest): the same number of contacts with the same
//!     depths at every limit (the reproducer: limit 1 gave depth
//!     0.00849 where ODE gives 0.01069, limit 4 gave `0.00849 0 0 0`);
//!   - plane (triangles in index order in ODE too): identical contacts,
//!     preprocessed meshes included (ODE ignores the use flags there);
//!   - the contact count with CONTACTS_UNIMPORTANT (which does not stop the
//!     sphere and ray colliders at one contact);
//!   - on a two-triangle quad, where each shape meets one triangle only:
//!     bit-identical contacts for box, sphere, capsule, cylinder, plane and
//!     convex (the sphere's closest point in ODE's arithmetic; the cylinder
//!     and convex colliders read a body's own quaternion, as ODE's
//!     `dGeomGetQuaternion` gives it). Ray hits agree to 1e-6 only
//!     (OPCODE's single-precision hit distance), and mesh against mesh
//!     depends on the order of the other mesh's triangles.
//!
//!   The per pair and limit tallies are printed.
mod common;
use common::*;
use std::collections::BTreeMap;

#[test]
fn primitive_and_heightfield_pairs_keep_odes_contacts_at_every_limit() {
    differential("diff_collide_capped_contacts");
}

type C = [f64; 9];

struct Case {
    head: String,
    mesh: String,
    kind: String,
    /// (order, limit, unimportant) -> contacts
    runs: BTreeMap<(u8, u32, bool), Vec<C>>,
}

fn parse(out: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    let mut cur = (0, 0, false);
    for line in out.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.first().copied() {
            Some("case") => cases.push(Case {
                head: line.to_owned(),
                mesh: w[2].to_owned(),
                kind: w[4].to_owned(),
                runs: BTreeMap::new(),
            }),
            Some("n") => {
                cur = (w[1].parse().unwrap(), w[2].parse().unwrap(), w[3] == "u");
                cases.last_mut().unwrap().runs.insert(cur, Vec::new());
            }
            Some("c") => {
                let v: Vec<f64> = w[1..10].iter().map(|t| t.parse().unwrap()).collect();
                cases.last_mut().unwrap().runs.get_mut(&cur).unwrap().push(v.try_into().unwrap());
            }
            _ => {}
        }
    }
    cases
}

fn close(a: &C, b: &C, tol: f64) -> bool {
    (0..7).all(|i| (a[i] - b[i]).abs() <= tol)
}

fn same_set(a: &[C], b: &[C], tol: f64) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut used = vec![false; b.len()];
    a.iter().all(|x| match (0..b.len()).find(|&j| !used[j] && close(x, &b[j], tol)) {
        Some(j) => {
            used[j] = true;
            true
        }
        None => false,
    })
}

fn same_depths(a: &[C], b: &[C]) -> bool {
    let sorted = |v: &[C]| {
        let mut d: Vec<f64> = v.iter().map(|c| c[6]).collect();
        d.sort_by(f64::total_cmp);
        d
    };
    a.len() == b.len() && sorted(a).iter().zip(sorted(b)).all(|(x, y)| (x - y).abs() <= 1e-9)
}

#[derive(Default, Debug, Clone, Copy)]
struct Tally {
    cases: usize,
    count: usize,
    set: usize,
    depths: usize,
    exact: usize,
}

#[test]
fn trimesh_pairs_keep_odes_contacts_at_every_limit() {
    require_reference();
    let bin = build_c("ref_collide_capped_trimesh", &["ref_collide_capped_trimesh.c"], Headers::Debian, &[]);
    let deb = run_ok(&bin, Lib::Debian, &[]);
    let ours = run_ok(&bin, Lib::Ours, &[]);
    assert!(deb.ends_with("done\n") && ours.ends_with("done\n"));
    let (d, o) = (parse(&deb), parse(&ours));
    assert_eq!(d.len(), o.len());
    assert_eq!(d.len(), 6 * 2 * 8 * 40);
    let mut st: BTreeMap<(String, String), Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    for (dc, oc) in d.iter().zip(&o) {
        assert_eq!(dc.head, oc.head);
        for (key, a) in &dc.runs {
            let b = &oc.runs[key];
            let lim = format!("{}{}", key.1, if key.2 { "u" } else { "" });
            let t = st.entry((dc.kind.clone(), lim.clone())).or_default();
            t.cases += 1;
            t.count += (a.len() == b.len()) as usize;
            // Ray hits come from OPCODE's single-precision ray test.
            let tol = if dc.kind == "ray" { 1e-6 } else { 1e-9 };
            t.set += same_set(a, b, tol) as usize;
            t.depths += same_depths(a, b) as usize;
            t.exact += (a == b) as usize;
            let ctx = || format!("{} order {} limit {lim}\n ODE: {a:?}\n ours: {b:?}", dc.head, key.0);
            if dc.kind == "box" && !key.2 && !same_depths(a, b) {
                failures.push(format!("box keeps other depths than ODE: {}", ctx()));
            }
            if dc.kind == "plane" && a != b {
                failures.push(format!("plane contacts differ: {}", ctx()));
            }
            // On the two-triangle quad every shape meets one triangle, so
            // the visiting order plays no part: bit-identical contacts (in
            // any order) for the colliders whose arithmetic is ODE's.
            let bitwise = matches!(dc.kind.as_str(), "box" | "sphere" | "capsule" | "cylinder" | "plane")
                || (dc.kind == "convex" && !key.2);
            if dc.mesh == "quad" && bitwise && !same_set(a, b, 0.0) {
                failures.push(format!("contacts on one triangle are not ODE's bit for bit: {}", ctx()));
            }
        }
    }
    for ((kind, lim), t) in &st {
        eprintln!("{kind:8} limit {lim:3}: {t:?}");
    }
    let show = failures.iter().take(5).cloned().collect::<Vec<_>>().join("\n");
    assert!(failures.is_empty(), "{} cases differ, first ones:\n{show}", failures.len());
    // With OPCODE's candidate order reproduced, every trimesh pair keeps
    // exactly ODE's contacts, bit for bit and in ODE's order, at every
    // limit. The exception is convex with CONTACTS_UNIMPORTANT, where
    // Debian's libccd path leaves the position unset and bends the normal
    // from it: only the count is defined there.
    for ((kind, lim), t) in &st {
        if kind == "convex" && lim.ends_with('u') {
            assert_eq!(t.count, t.cases, "{kind} limit {lim}: contact counts differ from ODE's: {t:?}");
        } else {
            assert_eq!(t.exact, t.cases, "{kind} limit {lim}: contacts differ from ODE's: {t:?}");
        }
    }
}
