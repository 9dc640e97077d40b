//! Box and capsule against trimeshes, differential against Debian's ODE
//! (OPCODE build) with `ctests/ref_trimesh_collide_box_capsule.c`: meshes with use
//! flags (Preprocess2), boxes resting flat on a terrain and capsules lying
//! on it (zero-depth contacts), and three contact limits per case.
//!
//! Candidates come in OPCODE's tree order, as in ODE, so every limit gives
//! ODE's contacts bit for bit in ODE's order, side1 included. The older,
//! looser checks are kept:
//! - limit 64 (never reached here): the same contact SET, to 1e-9, in any
//!   order;
//! - limit 4: the same number of contacts, each one of ODE's limit-64
//!   contacts when ODE's full set comes from one triangle (order-free),
//!   else at the position of one of them (a box contact's depth may
//!   still grow by merging, a capsule's depends on which were kept);
//! - limit 1 | CONTACTS_UNIMPORTANT: a contact exactly when ODE gives one.
//!
//! The use flags Preprocess builds are ODE 0.16.2's (checked byte for
//! byte by tests/trimesh_preprocess_flags.rs), so meshes with flags agree like those
//! without.
mod common;
use common::*;

#[derive(Clone, Debug)]
struct C {
    v: [f64; 7],
    side1: i64,
}

#[derive(Debug, Default)]
struct Case {
    head: String,
    runs: [Vec<C>; 3],
}

fn parse(out: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    let mut cur = 0;
    for line in out.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.first().copied() {
            Some("case") => cases.push(Case { head: line.to_owned(), ..Default::default() }),
            Some("n") => cur = w[1].parse().unwrap(),
            Some("c") => {
                let v: Vec<f64> = w[1..8].iter().map(|t| t.parse().unwrap()).collect();
                cases.last_mut().unwrap().runs[cur].push(C { v: v.try_into().unwrap(), side1: w[8].parse().unwrap() });
            }
            _ => {}
        }
    }
    cases
}

fn close(a: &C, b: &C, tol: f64, with_depth: bool) -> bool {
    let k = if with_depth { 7 } else { 6 };
    (0..k).all(|i| (a.v[i] - b.v[i]).abs() <= tol)
}

fn same_set(a: &[C], b: &[C]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut used = vec![false; b.len()];
    a.iter().all(|x| match (0..b.len()).find(|&j| !used[j] && close(x, &b[j], 1e-9, true)) {
        Some(j) => {
            used[j] = true;
            true
        }
        None => false,
    })
}

#[test]
fn box_and_capsule_contacts_match_ode_with_use_flags_limits_and_resting_shapes() {
    require_reference();
    let bin = build_c("ref_trimesh_collide_box_capsule", &["ref_trimesh_collide_box_capsule.c"], Headers::Debian, &[]);
    let deb = run_ok(&bin, Lib::Debian, &["100"]);
    let ours = run_ok(&bin, Lib::Ours, &["100"]);
    assert!(deb.ends_with("done\n") && ours.ends_with("done\n"));
    let (d, o) = (parse(&deb), parse(&ours));
    assert_eq!(d.len(), o.len());
    assert_eq!(d.len(), 100 * 10);
    // kind -> [cases, with contacts, same set at 64, limit 4 ok, limit 1 ok]
    let mut st: std::collections::BTreeMap<String, [usize; 5]> = Default::default();
    for (dc, oc) in d.iter().zip(&o) {
        assert_eq!(dc.head, oc.head);
        let w: Vec<&str> = dc.head.split_whitespace().collect();
        // Meshes 0, 1, 3 carry use flags (Preprocess2), the terrain (2) not.
        let kind = format!("{}{}", w[2], if w[1] == "2" { "" } else { "+flags" });
        let s = st.entry(kind).or_default();
        s[0] += 1;
        let full = &dc.runs[0];
        assert!(full.len() < 64, "limit reached: {}", dc.head);
        s[1] += !full.is_empty() as usize;
        let ctx = || format!("{}\nODE: {:?}\nours: {:?}", dc.head, dc.runs, oc.runs);
        if same_set(full, &oc.runs[0]) {
            s[2] += 1;
            // side1 names a triangle (which one, for merged contacts,
            // depends on the visiting order).
            for c in &oc.runs[0] {
                assert!(c.side1 >= 0, "side1 {}: {}", c.side1, ctx());
            }
        } else {
            eprintln!("contact set differs: {}", dc.head);
        }
        let one_tri = full.iter().all(|c| c.side1 == full.first().map_or(0, |f| f.side1));
        let lim4 = dc.runs[1].len() == oc.runs[1].len()
            && oc.runs[1].iter().all(|c| full.iter().any(|f| close(c, f, 1e-9, one_tri)));
        if lim4 {
            s[3] += 1;
        } else {
            eprintln!("limit 4 differs: {}", dc.head);
        }
        if dc.runs[2].len() == oc.runs[2].len() {
            s[4] += 1;
        }
        // With OPCODE's candidate order: identical contacts in ODE's order,
        // side1 included, at every limit.
        let exact =
            |a: &[C], b: &[C]| a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.v == y.v && x.side1 == y.side1);
        assert!(exact(&dc.runs[0], &oc.runs[0]), "limit 64 not identical: {}", ctx());
        assert!(exact(&dc.runs[1], &oc.runs[1]), "limit 4 not identical: {}", ctx());
        assert!(exact(&dc.runs[2], &oc.runs[2]), "limit 1 | CONTACTS_UNIMPORTANT not identical: {}", ctx());
    }
    eprintln!("kind: [cases, ODE has contacts, same set, limit 4 agrees, limit 1 agrees] {st:?}");
    // Per kind, the percentages reached (this run), as lower bounds:
    // [same set, limit 4, limit 1]. Without use flags every case agrees
    // except where the limit cuts in at a different triangle (capsules
    // keep the first contacts found, in OPCODE's order vs ours). The same
    // holds with use flags, which equal ODE's.
    let bounds = |k: &str| -> [usize; 3] {
        match k {
            "capsule" => [99, 95, 100],
            "restcapsule" => [99, 90, 100],
            "capsule+flags" => [100, 99, 100],
            _ => [99, 99, 100],
        }
    };
    for (k, v) in &st {
        let b = bounds(k);
        assert!(v[1] * 5 >= v[0], "{k}: too few touching cases {v:?}");
        assert!(v[2] * 100 >= v[0] * b[0], "{k}: contact sets differ {v:?}");
        assert!(v[3] * 100 >= v[0] * b[1], "{k}: limited contacts differ {v:?}");
        assert!(v[4] * 100 >= v[0] * b[2], "{k}: CONTACTS_UNIMPORTANT counts differ {v:?}");
    }
}
