//! dWorldStep's constraint solve on hand-made rows (no joint type needed):
//! the velocities it produces satisfy the constraints (J·v' = c − cfm·λ on
//! free rows, complementarity on bounded ones), coupling between joints
//! that share a body is accounted for, feedback is Jᵀλ per body, and warm
//! solves and warm world steps with joints do not allocate.
use ode::dynamics::body::create_body;
use ode::dynamics::body::BodyRef;
use ode::dynamics::world::{create_world, WorldRef};
use ode::ffi::decl::common::dJointFeedback;
use ode::joints::object::destroy_world;
use ode::joints::object::{attach, create_joint};
use ode::joints::{null::Null, JointKind, JointRef, Row};
use ode::math::mass::Mass;
use ode::math::mat3::rotate_tensor;
use ode::math::rotation::q_to_r;
use ode::pipeline::step_world;
use ode::solver::step::{solve_island, StepBuffers};
use ode::solver::{IslandInput, IslandRows, JointSlot};

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations_during;

#[global_allocator]
static A: counting_alloc::Counting = counting_alloc::Counting;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
    fn v3(&mut self) -> [f64; 3] {
        [self.next(), self.next(), self.next()]
    }
}

fn random_body(w: WorldRef, rng: &mut Rng) -> BodyRef {
    let b = create_body(w);
    let body = b.get_mut();
    let mut m = Mass::zero();
    m.mass = 1.5 + rng.next();
    let d = [1.0 + 0.5 * rng.next(), 1.2 + 0.5 * rng.next(), 0.8 + 0.5 * rng.next()];
    m.I = [d[0], 0.1, 0.0, 0.0, 0.1, d[1], 0.05, 0.0, 0.0, 0.05, d[2], 0.0];
    body.set_mass(&m);
    let mut q = [1.0, rng.next(), rng.next(), rng.next()];
    let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
    q.iter_mut().for_each(|v| *v /= n);
    body.q = q;
    body.r = q_to_r(&q);
    body.lvel[..3].copy_from_slice(&rng.v3());
    body.avel[..3].copy_from_slice(&rng.v3());
    body.facc[..3].copy_from_slice(&rng.v3());
    body.tacc[..3].copy_from_slice(&rng.v3());
    b
}

fn random_row(rng: &mut Rng, two: bool) -> Row {
    let mut r = Row::initial(1e-5);
    r.j1l = rng.v3();
    r.j1a = rng.v3();
    if two {
        r.j2l = rng.v3();
        r.j2a = rng.v3();
    }
    r.c = rng.next();
    r
}

/// J·v' of one row, with v' the velocities after the update.
fn row_velocity(r: &Row, v: &[[f64; 6]], b1: Option<usize>, b2: Option<usize>) -> f64 {
    let mut s = 0.0;
    if let Some(i) = b1 {
        for k in 0..3 {
            s += r.j1l[k] * v[i][k] + r.j1a[k] * v[i][3 + k];
        }
    }
    if let Some(i) = b2 {
        for k in 0..3 {
            s += r.j2l[k] * v[i][k] + r.j2a[k] * v[i][3 + k];
        }
    }
    s
}

#[test]
fn synthetic_rows_are_satisfied_and_feedback_is_jt_lambda() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let w = create_world();
    let bodies: Vec<BodyRef> = (0..3).map(|_| random_body(w, &mut rng)).collect();
    // Joint 0: bodies 0-1, 3 free rows. Joint 1: bodies 1-2, 2 free rows +
    // 1 bounded. Joint 2: body 2 - static, 1 free + 1 row with lo = 0.
    let null = |w| create_joint(w, None, JointKind::Null(Null));
    let joints: Vec<JointRef> = (0..3).map(|_| null(w)).collect();
    attach(joints[0], Some(bodies[0]), Some(bodies[1]));
    attach(joints[1], Some(bodies[1]), Some(bodies[2]));
    attach(joints[2], None, Some(bodies[2])); // reversed: body[0] = 2
    let mut feedback = [dJointFeedback { f1: [9.0; 4], t1: [9.0; 4], f2: [9.0; 4], t2: [9.0; 4] }; 3];
    for (j, fb) in joints.iter().zip(feedback.iter_mut()) {
        j.get_mut().head.feedback = fb;
    }
    let layout = [(0usize, Some(1usize), 3usize, 3usize), (1, Some(2), 3, 2), (2, None, 2, 1)];
    let mut rows = IslandRows::default();
    for (slot, &(b1, b2, m, nub)) in layout.iter().enumerate() {
        let row0 = rows.rows.len();
        for k in 0..m {
            let mut r = random_row(&mut rng, b2.is_some());
            if k >= nub {
                r.lo = if slot == 1 { -0.3 } else { 0.0 };
                r.hi = if slot == 1 { 0.2 } else { f64::INFINITY };
                r.c *= 3.0; // make the bound matter in some rows
            }
            rows.rows.push(r);
        }
        joints[slot].get_mut().head.tag = slot as i32;
        rows.joints.push(JointSlot { joint: joints[slot], row0, m, nub, b1: Some(b1), b2 });
    }
    let h = 0.01;
    let inv_i: Vec<[f64; 12]> = bodies.iter().map(|b| rotate_tensor(&b.get().inv_i, &b.get().r)).collect();
    let input = IslandInput { world: w.get(), bodies: &bodies, inv_i: &inv_i, h };
    let mut buf = StepBuffers::default();
    solve_island(&input, &rows, 0, &mut buf);

    // Velocities after the update v' = v + h·M⁻¹(f + Jᵀλ).
    let mut v = Vec::new();
    for (i, b) in bodies.iter().enumerate() {
        let b = b.get();
        assert!(buf.has_cforce[i]);
        let c = buf.cforce[i];
        let mut out = [0.0; 6];
        for k in 0..3 {
            out[k] = b.lvel[k] + h * b.inv_mass * (c[k] + b.facc[k]);
        }
        for k in 0..3 {
            let mut s = 0.0;
            for j in 0..3 {
                s += inv_i[i][k * 4 + j] * (c[3 + j] + b.tacc[j]) * h;
            }
            out[3 + k] = b.avel[k] + s;
        }
        v.push(out);
    }
    let mut bounded_active = 0;
    for slot in &rows.joints {
        for r in slot.row0..slot.row0 + slot.m {
            let row = &rows.rows[r];
            let l = buf.lambda[r];
            let jv = row_velocity(row, &v, slot.b1, slot.b2);
            // w = (J·v' − c + cfm·λ)/h must be complementary with λ.
            let wr = (jv - row.c + row.cfm * l) / h;
            let tol = 1e-7;
            if l > row.lo + 1e-12 && l < row.hi - 1e-12 {
                assert!(wr.abs() < tol, "row {r}: λ = {l} interior but w = {wr}");
            } else if (l - row.lo).abs() <= 1e-12 {
                assert!(wr > -tol, "row {r}: λ at lo but w = {wr}");
                bounded_active += 1;
            } else {
                assert!(wr < tol, "row {r}: λ at hi but w = {wr}");
                bounded_active += 1;
            }
        }
    }
    assert!(bounded_active >= 1, "the test should exercise a bound");

    // Feedback: f1/t1 = J1ᵀλ (body[0] of the joint), f2/t2 = J2ᵀλ; not
    // written for the static side.
    for (slot, fb) in rows.joints.iter().zip(&feedback) {
        let mut f = [[0.0; 6]; 2];
        for r in slot.row0..slot.row0 + slot.m {
            let row = &rows.rows[r];
            let l = buf.lambda[r];
            for k in 0..3 {
                f[0][k] += row.j1l[k] * l;
                f[0][3 + k] += row.j1a[k] * l;
                f[1][k] += row.j2l[k] * l;
                f[1][3 + k] += row.j2a[k] * l;
            }
        }
        for k in 0..3 {
            assert!((fb.f1[k] - f[0][k]).abs() < 1e-12 && (fb.t1[k] - f[0][3 + k]).abs() < 1e-12);
            if slot.b2.is_some() {
                assert!((fb.f2[k] - f[1][k]).abs() < 1e-12 && (fb.t2[k] - f[1][3 + k]).abs() < 1e-12);
            } else {
                assert_eq!((fb.f2[k], fb.t2[k]), (9.0, 9.0), "the static side is left untouched");
            }
        }
    }

    // Solving again with warm buffers allocates nothing.
    let n = allocations_during(|| solve_island(&input, &rows, 0, &mut buf));
    assert_eq!(n, 0, "warm solve allocated {n} times");
    for j in joints {
        j.get_mut().head.feedback = std::ptr::null_mut();
    }
    destroy_world(w);
}

/// Chains of null joints (islands, tags, auto-disable bookkeeping): a warm
/// world step does not allocate.
#[test]
fn warm_steps_with_joints_do_not_allocate() {
    let mut rng = Rng(99);
    let w = create_world();
    w.get_mut().gravity = [0.0, 0.0, -9.81];
    w.get_mut().set_auto_disable_flag(true);
    let bodies: Vec<BodyRef> = (0..30).map(|_| random_body(w, &mut rng)).collect();
    for i in 0..29 {
        let j = create_joint(w, None, JointKind::Null(Null));
        attach(j, Some(bodies[i]), if i % 7 == 6 { None } else { Some(bodies[i + 1]) });
    }
    for quick in [false, true] {
        step_world(w, 0.01, quick);
        let n = allocations_during(|| {
            for _ in 0..50 {
                step_world(w, 0.01, quick);
            }
        });
        assert_eq!(n, 0, "quick={quick}: {n} allocations");
    }
    destroy_world(w);
}
