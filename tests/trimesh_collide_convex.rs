//! Convex against trimesh, differential against Debian's ODE (libccd +
//! OPCODE build) with `ctests/ref_trimesh_collide_convex.c`: a box-shaped convex at
//! random placements on six meshes preprocessed with face angles, limits
//! 64, 4 and 1 | CONTACTS_UNIMPORTANT, and both argument orders.
//!
//! Every run gives ODE's contacts bit for bit in ODE's order, sides
//! included (OPCODE's candidate order is reproduced); the older per-mesh
//! agreement figures (same contact set to 1e-9 in any order, same deepest
//! depth, same normal at the deepest contact) are kept at 100 %, and exact
//! invariants are asserted on every case.
mod common;
use common::*;

#[derive(Clone, Debug)]
struct C {
    v: [f64; 7],
    side1: i64,
    side2: i64,
}

#[derive(Debug, Default)]
struct Case {
    mesh: usize,
    head: String,
    runs: [Vec<C>; 4],
}

fn parse(out: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    let mut cur = 0;
    for line in out.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.first().copied() {
            Some("case") => {
                cases.push(Case { mesh: w[1].parse().unwrap(), head: line.to_owned(), ..Default::default() })
            }
            Some("n") => cur = w[1].parse().unwrap(),
            Some("c") => {
                let v: Vec<f64> = w[1..8].iter().map(|t| t.parse().unwrap()).collect();
                cases.last_mut().unwrap().runs[cur].push(C {
                    v: v.try_into().unwrap(),
                    side1: w[8].parse().unwrap(),
                    side2: w[9].parse().unwrap(),
                });
            }
            _ => {}
        }
    }
    cases
}

fn close(a: &C, b: &C, tol: f64) -> bool {
    (0..7).all(|i| (a.v[i] - b.v[i]).abs() <= tol)
}

fn same_set(a: &[C], b: &[C]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut used = vec![false; b.len()];
    a.iter().all(|x| match (0..b.len()).find(|&j| !used[j] && close(x, &b[j], 1e-9)) {
        Some(j) => {
            used[j] = true;
            true
        }
        None => false,
    })
}

fn deepest(a: &[C]) -> Option<&C> {
    a.iter().fold(None, |m: Option<&C>, c| if m.is_none_or(|m| c.v[6] > m.v[6]) { Some(c) } else { m })
}

const TRIS: [i64; 6] = [1, 2, 12, 80, 288, 128];

#[test]
fn convex_trimesh_contacts_match_ode() {
    require_reference();
    let bin = build_c("ref_trimesh_collide_convex", &["ref_trimesh_collide_convex.c"], Headers::Debian, &[]);
    let deb = run_ok(&bin, Lib::Debian, &["60"]);
    let ours = run_ok(&bin, Lib::Ours, &["60"]);
    assert!(deb.ends_with("done\n") && ours.ends_with("done\n"));
    let (d, o) = (parse(&deb), parse(&ours));
    assert_eq!(d.len(), o.len());
    assert_eq!(d.len(), 60 * 5);
    // mesh -> [cases, ODE touching, same set, same max depth, same deepest normal, limit-1 count agrees]
    let mut st = [[0usize; 6]; 6];
    for (dc, oc) in d.iter().zip(&o) {
        assert_eq!(dc.head, oc.head);
        let ctx = || format!("{}\nODE: {:?}\nours: {:?}", dc.head, dc.runs, oc.runs);
        // Invariants of our output.
        for (r, c) in oc.runs.iter().enumerate().flat_map(|(r, v)| v.iter().map(move |c| (r, c))) {
            let n = &c.v[3..6];
            let l = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            assert!((l - 1.0).abs() < 1e-9, "normal not unit: {}", ctx());
            assert!(c.v[6] >= 0.0 && c.v[6].is_finite(), "depth: {}", ctx());
            // The mesh side names a triangle (as in ODE, its position in
            // the candidate list); the convex side is -1.
            let (sc, sm) = if r == 3 { (c.side2, c.side1) } else { (c.side1, c.side2) };
            assert!(sc == -1 && sm >= 0 && sm < TRIS[dc.mesh], "sides: {}", ctx());
            // The correction never turns a normal below a flat mesh's face.
            if dc.mesh <= 1 {
                let up = if r == 3 { -n[2] } else { n[2] };
                assert!(up >= -1e-12, "normal below the face: {}", ctx());
            }
        }
        assert!(oc.runs[0].len() <= 64 && oc.runs[1].len() <= 4 && oc.runs[2].len() <= 1, "{}", ctx());
        // Reversed arguments: the same contacts with negated normals.
        assert_eq!(oc.runs[3].len(), oc.runs[0].len(), "{}", ctx());
        for (a, b) in oc.runs[0].iter().zip(&oc.runs[3]) {
            assert!((0..3).all(|k| a.v[k] == b.v[k] && a.v[3 + k] == -b.v[3 + k]) && a.v[6] == b.v[6], "{}", ctx());
            assert!(a.side1 == b.side2 && a.side2 == b.side1, "{}", ctx());
        }
        // With OPCODE's candidate order, every run gives ODE's contacts bit
        // for bit, in ODE's order, sides included.
        // (With CONTACTS_UNIMPORTANT, Debian's libccd path leaves the
        // position unset and then bends the normal from it: only the
        // count and the triangle are defined there.)
        for r in 0..4 {
            let (a, b) = (&dc.runs[r], &oc.runs[r]);
            let same = |x: &C, y: &C| {
                if r == 2 {
                    x.side2 == y.side2
                } else {
                    x.v == y.v && x.side1 == y.side1 && x.side2 == y.side2
                }
            };
            assert!(a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y)), "run {r} not identical: {}", ctx());
        }
        let s = &mut st[dc.mesh];
        s[0] += 1;
        let (full, ofull) = (&dc.runs[0], &oc.runs[0]);
        s[1] += !full.is_empty() as usize;
        if same_set(full, ofull) {
            s[2] += 1;
        } else {
            eprintln!("contact set differs: {}", ctx());
        }
        match (deepest(full), deepest(ofull)) {
            (None, None) => {
                s[3] += 1;
                s[4] += 1;
            }
            (Some(a), Some(b)) => {
                s[3] += ((a.v[6] - b.v[6]).abs() <= 1e-9) as usize;
                s[4] += (0..3).all(|k| (a.v[3 + k] - b.v[3 + k]).abs() <= 1e-9) as usize;
            }
            _ => {}
        }
        s[5] += (dc.runs[2].len() == oc.runs[2].len()) as usize;
    }
    eprintln!("mesh: [cases, ODE touching, same set, same max depth, same deepest normal, limit 1 count] {st:?}");
    // Every mesh agrees fully (before OPCODE's candidate order was
    // reproduced: cube 62/73/73/100 %, icosphere 68/97/95/100, terrain
    // 47/80/55/100, as ODE takes a contact's position in the candidate
    // list as the triangle whose face angles bend its normal).
    let bounds: [[usize; 4]; 6] = [[0; 4], [100; 4], [100; 4], [100; 4], [100; 4], [100; 4]];
    for (m, s) in st.iter().enumerate().skip(1) {
        assert!(s[1] * 3 >= s[0], "mesh {m}: too few touching cases {s:?}");
        for k in 0..4 {
            assert!(s[2 + k] * 100 >= s[0] * bounds[m][k], "mesh {m}: agreement below bound {s:?}");
        }
    }
}
