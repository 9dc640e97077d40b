//! Heightfield against trimesh through dCollide, against Debian's
//! libode.so.8: `ctests/ref_collide_heightfield_trimesh.c` places four
//! meshes at random over six heightfields (callback, byte, short, single,
//! double and wrapped double data; placeable and not), collides them with
//! limits 1, 3, 8, 64 and 64|CONTACTS_UNIMPORTANT and in both argument
//! orders, then drops a cube mesh body on rolling heightfields with both
//! steppers. It runs once with each library.
//!
//! ODE collides a trimesh with a heightfield as it does a primitive: the
//! mesh's plane collider against each group of coplanar terrain triangles,
//! then a ray from each remaining terrain vertex (`collision/heightfield`).
//! What is compared:
//! - the plane-pass contacts (those naming a mesh triangle) bit for bit and
//!   in order, in every collision: they come first and do not depend on a
//!   tree;
//! - the whole contact list bit for bit, in every collision: a vertex
//!   contact exists when the mesh's ray query finds a triangle, and that
//!   query is culled by the mesh's tree with a backwards segment (ODE
//!   passes a negative length), which our OPCODE-shaped tree and walk
//!   reproduce (before they did, 75 % of the lists agreed);
//! - the dropped cube: every 100 steps exactly at Debian's position,
//!   resting on the surface.
mod common;
use common::*;

#[derive(Debug, PartialEq)]
struct Collision {
    tag: String,
    contacts: Vec<Vec<f64>>,
}

struct Case {
    head: String,
    collisions: Vec<Collision>,
}

fn parse(out: &str) -> (Vec<Case>, Vec<(String, [f64; 3])>) {
    let mut cases: Vec<Case> = Vec::new();
    let mut steps = Vec::new();
    for line in out.lines() {
        if let Some(rest) = line.strip_prefix("P ") {
            cases.push(Case { head: rest.to_string(), collisions: Vec::new() });
        } else if line.starts_with("F ") || line.starts_with("R ") {
            let t: Vec<&str> = line.split_whitespace().collect();
            cases
                .last_mut()
                .unwrap()
                .collisions
                .push(Collision { tag: format!("{} {}", t[0], t[1]), contacts: Vec::new() });
        } else if line.starts_with("  ") {
            let c = cases.last_mut().unwrap().collisions.last_mut().unwrap();
            c.contacts.push(numbers(line));
        } else if line.starts_with("S ") {
            let v = numbers(line);
            let n = v.len();
            let key = line.split_whitespace().take(9).collect::<Vec<_>>().join(" ");
            steps.push((key, [v[n - 3], v[n - 2], v[n - 1]]));
        }
    }
    (cases, steps)
}

/// Contacts naming a mesh triangle (side1 or side2 >= 0): the plane pass.
fn plane_pass(c: &[Vec<f64>]) -> Vec<&Vec<f64>> {
    c.iter().filter(|x| x[7] >= 0.0 || x[8] >= 0.0).collect()
}

#[test]
fn heightfield_trimesh_matches_ode() {
    require_reference();
    let bin = build_c("ref_collide_heightfield_trimesh", &["ref_collide_heightfield_trimesh.c"], Headers::Debian, &[]);
    let reference = run_ok(&bin, Lib::Debian, &[]);
    let ours = run_ok(&bin, Lib::Ours, &[]);
    assert!(reference.ends_with("done\n") && ours.ends_with("done\n"), "a run is incomplete");
    let (rc, rs) = parse(&reference);
    let (oc, os) = parse(&ours);
    assert_eq!(rc.len(), oc.len());
    assert!(rc.len() >= 1200, "only {} placements", rc.len());

    let (mut total, mut exact, mut same_vertex_count, mut touching, mut vertex_contacts) = (0, 0, 0, 0, 0);
    for (r, o) in rc.iter().zip(&oc) {
        assert_eq!(r.head, o.head);
        assert_eq!(r.collisions.len(), o.collisions.len());
        for (rcol, ocol) in r.collisions.iter().zip(&o.collisions) {
            assert_eq!(rcol.tag, ocol.tag);
            total += 1;
            if !rcol.contacts.is_empty() {
                touching += 1;
            }
            let (rp, op) = (plane_pass(&rcol.contacts), plane_pass(&ocol.contacts));
            assert!(rp == op, "plane-pass contacts differ: {} {}\n ODE:  {rp:?}\n ours: {op:?}", r.head, rcol.tag);
            let rv = rcol.contacts.len() - rp.len();
            vertex_contacts += rv;
            if rv == ocol.contacts.len() - op.len() {
                same_vertex_count += 1;
            }
            if rcol.contacts == ocol.contacts {
                exact += 1;
            }
            // The mesh's ray query walks OPCODE's tree as ODE's does.
            assert!(
                rcol.contacts == ocol.contacts,
                "contacts differ: {} {}\n ODE:  {:?}\n ours: {:?}",
                r.head,
                rcol.tag,
                rcol.contacts,
                ocol.contacts
            );
        }
    }
    let pct = |n: usize| 100.0 * n as f64 / total as f64;
    eprintln!(
        "heightfield-trimesh: {total} collisions ({touching} touching), plane pass identical in all, \
         whole list identical in {:.1}%, same vertex-contact count in {:.1}% ({vertex_contacts} vertex contacts in ODE's)",
        pct(exact),
        pct(same_vertex_count)
    );
    assert!(touching * 2 > total, "too few touching placements: {touching} of {total}");
    assert!(vertex_contacts > 300, "the vertex pass is hardly exercised: {vertex_contacts}");
    assert_eq!(exact, total, "whole contact lists identical in only {:.1}%", pct(exact));
    assert_eq!(same_vertex_count, total);

    // The dropped cube rests where ODE's does (it fell through before).
    assert_eq!(rs.len(), os.len());
    assert!(rs.len() >= 80);
    for ((rk, rp), (ok, op)) in rs.iter().zip(&os) {
        assert_eq!(rk, ok);
        // Exactly: every contact and its order are ODE's.
        assert_eq!(rp, op, "{rk}: ours {op:?}, ODE {rp:?}");
    }
    for (k, p) in rs.iter().filter(|(k, _)| k.ends_with("step 2000")) {
        assert!(p[1] > 0.5 && p[1] < 1.5, "{k}: ODE's cube is not resting on the terrain: {p:?}");
    }
}
