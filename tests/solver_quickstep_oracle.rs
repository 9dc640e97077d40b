//! The QuickStep solver against Debian's dWorldQuickStep, bit for bit.
//!
//! `ctests/diff_quickstep_ball_pendulum.c` and `ctests/diff_quickstep_box_contacts.c`
//! run one-body scenes (a ball joint to the static world; a box on four
//! contact joints, with friction scaled through findex and with constant
//! friction bounds) with Debian's libode and print every step. Here the
//! same scenes are stepped with `solver::quick::solve_island`, the rows
//! being assembled by hand the way ODE's ball and contact joints fill them
//! (these few formulas are exact copies of ODE's arithmetic order), and the
//! body moved by the integrator's `step_body`. Every printed number (state,
//! feedback, and the `dRand` seed, which checks the random reordering drew
//! exactly as often and used the draws the same way) must be identical.
//!
//! When the joint types land, the same C programs also run as ordinary
//! differential tests (`tests/solver_quickstep_differential.rs`).
mod common;
use common::*;

use ode::dynamics::body::create_body;
use ode::dynamics::body::BodyRef;
use ode::dynamics::integrator::step_body;
use ode::dynamics::world::{create_world, flags, World};
use ode::ffi::decl::common::dJointFeedback;
use ode::joints::object::destroy_world;
use ode::joints::{null::Null, Joint, JointHead, JointKind, JointRef, Row, JOINTS};
use ode::math::mass::Mass;
use ode::math::mat3::{mul0_331, mul1_331, rotate_tensor};
use ode::math::random;
use ode::math::vec::{cross3, plane_space};
use ode::solver::{quick, IslandInput, IslandRows, JointSlot, SolverScratch};
use std::sync::Mutex;

/// The dRand seed and the ordering switch are process-wide.
static GLOBAL: Mutex<()> = Mutex::new(());

fn new_joint(w: ode::dynamics::WorldRef, b: BodyRef, fb: *mut dJointFeedback) -> JointRef {
    JOINTS.alloc(Joint {
        head: JointHead {
            world: w,
            body: [Some(b), None],
            flags: 0,
            feedback: fb,
            data: std::ptr::null_mut(),
            group: None,
            lambda: [0.0; 6],
            tag: 0,
            visit: 0,
            world_destroyed: false,
        },
        kind: JointKind::Null(Null),
    })
}

/// One QuickStep of a one-body island whose joints (in ODE's island order)
/// have the given rows (findex relative to the joint).
fn quick_step(world: &World, b: BodyRef, joints: &[(JointRef, Vec<Row>)], h: f64, scratch: &mut SolverScratch) {
    {
        let body = b.get_mut();
        for (axis, &g) in world.gravity.iter().enumerate() {
            if g != 0.0 && body.flags & flags::NO_GRAVITY == 0 {
                body.facc[axis] += body.mass.mass * g;
            }
        }
    }
    let inv_i = [rotate_tensor(&b.get().inv_i, &b.get().r)];
    let mut island = IslandRows::default();
    for (j, rows) in joints {
        let row0 = island.rows.len();
        for r in rows {
            let mut r = *r;
            if r.findex != -1 {
                r.findex += row0 as i32;
            }
            island.rows.push(r);
        }
        island.joints.push(JointSlot { joint: *j, row0, m: rows.len(), nub: 0, b1: Some(0), b2: None });
    }
    let bodies = [b];
    let input = IslandInput { world, bodies: &bodies, inv_i: &inv_i, h };
    quick::solve_island(&input, &mut island, scratch);
    step_body(b, h);
    let body = b.get_mut();
    for k in 0..3 {
        body.facc[k] = 0.0;
        body.tacc[k] = 0.0;
    }
}

fn state(b: BodyRef, fb: &dJointFeedback) -> Vec<f64> {
    let b = b.get();
    let mut v = Vec::new();
    v.extend_from_slice(&b.pos[..3]);
    v.extend_from_slice(&b.q);
    v.extend_from_slice(&b.lvel[..3]);
    v.extend_from_slice(&b.avel[..3]);
    v.extend_from_slice(&fb.f1[..3]);
    v.extend_from_slice(&fb.t1[..3]);
    v.push(random::seed() as f64);
    v
}

/// Compares our numbers with one line of the reference trace (its numbers
/// after the label tokens, the step index dropped).
fn check_line(name: &str, line: &str, ours: &[f64]) {
    let nums: Vec<f64> = numbers(line);
    let theirs = &nums[1..]; // step index
    assert_eq!(theirs.len(), ours.len(), "{name}: shape of {line}");
    for (i, (a, b)) in ours.iter().zip(theirs).enumerate() {
        assert!(
            a.to_bits() == b.to_bits() || (*a == 0.0 && *b == 0.0),
            "{name}: value {i} differs: ours {a:e} vs ODE {b:e} (diff {:e})\n  ref: {line}\n ours: {ours:?}",
            a - b
        );
    }
}

fn reference(name: &str) -> String {
    require_reference();
    let bin = build_c(name, &[&format!("{name}.c")], Headers::Debian, &[]);
    run_ok(&bin, Lib::Debian, &[])
}

fn ball_pendulum() {
    let trace = reference("diff_quickstep_ball_pendulum");
    random::set_seed(0);
    let w = create_world();
    w.get_mut().gravity = [0.0, 0.0, -9.81];
    let b = create_body(w);
    {
        let body = b.get_mut();
        let mut m = Mass::zero();
        m.set_parameters(2.0, [0.0; 3], 0.1, 0.2, 0.15, 0.01, 0.0, 0.02);
        body.set_mass(&m);
        body.flags &= !flags::GYROSCOPIC;
        body.set_position([0.25, 0.0, -1.0]);
        body.set_linear_vel([0.5, 0.3, 0.0]);
        body.set_angular_vel([0.2, -0.4, 1.0]);
    }
    // dJointSetBallAnchor(0, 0, 0): anchors as ODE's setAnchors computes them.
    let anchor = [0.0, 0.0, 0.0];
    let anchor1 = {
        let body = b.get();
        let q = [anchor[0] - body.pos[0], anchor[1] - body.pos[1], anchor[2] - body.pos[2]];
        mul1_331(&body.r, &q)
    };
    let anchor2 = anchor;
    let mut fb = Box::new(dJointFeedback { f1: [0.0; 4], t1: [0.0; 4], f2: [0.0; 4], t2: [0.0; 4] });
    let j = new_joint(w, b, &mut *fb);
    let mut scratch = SolverScratch::default();
    let h = 0.01;
    let lines: Vec<&str> = trace.lines().collect();
    assert_eq!(lines.len(), 200);
    for line in lines {
        let rows = {
            let world = w.get();
            let body = b.get();
            let fps = 1.0 / h;
            let k = fps * world.erp;
            let a1 = mul0_331(&body.r, &anchor1);
            let mut rows = vec![Row::initial(world.cfm); 3];
            for (i, r) in rows.iter_mut().enumerate() {
                r.j1l[i] = 1.0;
                r.c = k * (anchor2[i] - a1[i] - body.pos[i]);
            }
            rows[0].j1a = [0.0, a1[2], -a1[1]];
            rows[1].j1a = [-a1[2], 0.0, a1[0]];
            rows[2].j1a = [a1[1], -a1[0], 0.0];
            rows
        };
        quick_step(w.get(), b, &[(j, rows)], h, &mut scratch);
        check_line("ball pendulum", line, &state(b, &fb));
    }
    JOINTS.free(j);
    destroy_world(w);
}

/// The rows of one of the C program's contacts (ODE's contact joint with
/// world ERP/CFM, no softness, bounce or motion; friction with `mu` in both
/// directions, scaled by the normal force when `approx1`).
fn contact_rows(world: &World, bpos: &[f64], cpos: [f64; 3], depth: f64, mu: f64, approx1: bool, h: f64) -> Vec<Row> {
    let normal = [0.0, 0.0, 1.0];
    let fps = 1.0 / h;
    let k = fps * world.erp;
    let mut depth = depth - world.contactp.min_depth;
    if depth < 0.0 {
        depth = 0.0;
    }
    let pushout = k * depth + 0.0;
    let c = if pushout > world.contactp.max_vel { world.contactp.max_vel } else { pushout };
    let c1 = [cpos[0] - bpos[0], cpos[1] - bpos[1], cpos[2] - bpos[2]];
    let mut rows = vec![Row::initial(world.cfm); 3];
    rows[0].j1l = normal;
    rows[0].j1a = cross3(&c1, &normal);
    rows[0].c = c;
    rows[0].lo = 0.0;
    rows[0].hi = f64::INFINITY;
    let (t1, t2) = plane_space(&normal);
    for (r, t) in rows[1..].iter_mut().zip([t1, t2]) {
        r.j1l = t;
        r.j1a = cross3(&c1, &t);
        r.lo = -mu;
        r.hi = mu;
        if approx1 {
            r.findex = 0;
        }
    }
    rows
}

fn box_contacts() {
    let trace = reference("diff_quickstep_box_contacts");
    let mut lines = trace.lines();
    random::set_seed(0);
    for (tag, approx1, mu) in [("approx1", true, 0.6), ("box", false, 2.0)] {
        let w = create_world();
        w.get_mut().gravity = [0.0, 0.0, -9.81];
        let b = create_body(w);
        {
            let body = b.get_mut();
            let mut m = Mass::zero();
            m.set_parameters(1.5, [0.0; 3], 0.25, 0.25, 0.25, 0.0, 0.0, 0.0);
            body.set_mass(&m);
            body.flags &= !flags::GYROSCOPIC;
            body.set_position([0.0, 0.0, 0.49]);
            body.set_linear_vel([1.5, 0.4, 0.0]);
            body.set_angular_vel([0.0, 0.0, 0.3]);
        }
        let mut fb = Box::new(dJointFeedback { f1: [0.0; 4], t1: [0.0; 4], f2: [0.0; 4], t2: [0.0; 4] });
        let mut scratch = SolverScratch::default();
        let h = 0.01;
        for _ in 0..150 {
            let line = lines.next().expect("reference trace too short");
            assert!(line.starts_with(tag), "unexpected line {line}");
            let mut joints = Vec::new();
            {
                let world = w.get();
                let p = b.get().pos;
                for k in 0..4 {
                    let cpos =
                        [p[0] + if k & 1 != 0 { 0.5 } else { -0.5 }, p[1] + if k & 2 != 0 { 0.5 } else { -0.5 }, 0.0];
                    let fbp: *mut dJointFeedback = if k == 0 { &mut *fb } else { std::ptr::null_mut() };
                    let j = new_joint(w, b, fbp);
                    joints.push((j, contact_rows(world, &p, cpos, 0.5 - p[2], mu, approx1, h)));
                }
            }
            // A body lists its joints most recently attached first.
            joints.reverse();
            quick_step(w.get(), b, &joints, h, &mut scratch);
            for (j, _) in joints {
                JOINTS.free(j);
            }
            check_line(tag, line, &state(b, &fb));
        }
        destroy_world(w);
    }
    assert!(lines.next().is_none());
}

#[test]
fn ball_pendulum_matches_ode_bit_for_bit() {
    let _g = GLOBAL.lock().unwrap_or_else(|e| e.into_inner());
    quick::set_deterministic_order(false);
    quick::set_warm_start(false);
    ball_pendulum();
}

#[test]
fn box_on_contacts_matches_ode_bit_for_bit() {
    let _g = GLOBAL.lock().unwrap_or_else(|e| e.into_inner());
    quick::set_deterministic_order(false);
    quick::set_warm_start(false);
    box_contacts();
}
