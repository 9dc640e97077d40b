//! The exact QuickStep's fused assembly (`quick::solve_joints`: contacts
//! packed into the sweep's records straight from their `info2`, other
//! joints filled first) against the generic path it replaces
//! (`solver::assemble_rows`, then `quick::solve_island`), bit for bit:
//! body velocities and accumulators, each joint's λ, the feedback and the
//! dRand state afterwards. Random islands of contacts with and without a
//! body 2 (and attached the other way round), feedback on some, every
//! surface mode flag (soft ERP/CFM, bounce, motion1/2/N, slip, approx,
//! mu2/axis-dependent, fdir1, rolling friction rows), infinite and zero
//! coefficients; among them powered hinges held at a stop (whose pushes
//! must reach the accumulators before any right-hand side is formed) and
//! ball joints; ODE's shuffled order, the deterministic order and warm
//! starting.
use ode::dynamics::body::create_body;
use ode::dynamics::body::{Body, BodyRef};
use ode::dynamics::world::{create_world, flags as bflags, WorldRef};
use ode::ffi::decl::common::dJointFeedback;
use ode::joints::ball::{bodies_of, Ball};
use ode::joints::contact::{mode, ContactJoint, ContactPoint, Surface};
use ode::joints::hinge::Hinge;
use ode::joints::limit_motor::Param;
use ode::joints::object::destroy_world;
use ode::joints::{flags, Joint, JointHead, JointKind, JointRef, JOINTS};
use ode::math::mass::Mass;
use ode::math::mat3::rotate_tensor;
use ode::math::random;
use ode::math::rotation::q_from_axis_and_angle;
use ode::solver::{assemble_rows, gather_info1, quick, IslandInput, IslandRows, JointInfo, SolverScratch};
use std::sync::Mutex;

/// The dRand state and the solver switches are process-wide.
static GLOBAL: Mutex<()> = Mutex::new(());

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn real(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next() as f64 / (1u64 << 31) as f64)
    }
    fn vec(&mut self, r: f64) -> [f64; 3] {
        [self.real(-r, r), self.real(-r, r), self.real(-r, r)]
    }
    /// A coefficient: mostly ordinary, sometimes 0, negative or infinite.
    fn coef(&mut self) -> f64 {
        match self.below(8) {
            0 => 0.0,
            1 => -0.5,
            2 => f64::INFINITY,
            _ => self.real(0.05, 2.0),
        }
    }
}

struct Island {
    w: WorldRef,
    bodies: Vec<BodyRef>,
    joints: Vec<JointRef>,
    // Boxed: the joints hold pointers to them.
    #[allow(clippy::vec_box)]
    feedback: Vec<Box<dJointFeedback>>,
}

impl Drop for Island {
    fn drop(&mut self) {
        destroy_world(self.w);
    }
}

fn joint(w: WorldRef, b1: Option<BodyRef>, b2: Option<BodyRef>, kind: JointKind) -> JointRef {
    let mut head = JointHead::new(w, None);
    // As dJointAttach normalises: body 2 alone becomes body 1, reversed.
    (head.body, head.flags) = match (b1, b2) {
        (None, b) => ([b, None], if b.is_some() { flags::REVERSE } else { 0 }),
        (a, b) => ([a, b], 0),
    };
    JOINTS.alloc(Joint { head, kind })
}

/// The same island for the same seed.
fn build(seed: u64) -> Island {
    let mut g = Rng(seed);
    let w = create_world();
    {
        let world = w.get_mut();
        world.gravity = [0.0, 0.0, -9.81];
        if g.below(2) == 0 {
            world.contactp.max_vel = g.real(0.5, 5.0);
            world.contactp.min_depth = g.real(0.0, 0.02);
        }
        world.erp = g.real(0.1, 0.9);
        world.cfm = 10f64.powf(g.real(-9.0, -3.0));
        world.qs.num_iterations = 1 + g.below(30) as i32;
        world.qs.w = g.real(1.0, 1.5);
    }
    let nb = 2 + g.below(6) as usize;
    let mut bodies = Vec::new();
    for _ in 0..nb {
        let b = create_body(w);
        let body = b.get_mut();
        let mut m = Mass::zero();
        let i = [g.real(0.1, 2.0), g.real(0.1, 2.0), g.real(0.1, 2.0)];
        m.set_parameters(g.real(0.2, 5.0), [0.0; 3], i[0], i[1], i[2], g.real(-0.05, 0.05), 0.0, g.real(-0.05, 0.05));
        body.set_mass(&m);
        body.flags &= !bflags::GYROSCOPIC;
        body.set_position(g.vec(2.0));
        let a = g.vec(1.0);
        let q = q_from_axis_and_angle(a[0], a[1], a[2] + 0.1, g.real(-3.0, 3.0));
        body.set_rotation_prepared(Body::prepare_quaternion(&q).unwrap());
        body.set_linear_vel(g.vec(2.0));
        body.set_angular_vel(g.vec(3.0));
        let (f, t) = (g.vec(5.0), g.vec(2.0));
        body.facc[..3].copy_from_slice(&f);
        body.tacc[..3].copy_from_slice(&t);
        bodies.push(b);
    }
    let mut joints = Vec::new();
    let mut feedback = Vec::new();
    let nj = 1 + g.below(12) as usize;
    for _ in 0..nj {
        let i1 = g.below(nb as u64) as usize;
        let i2 = (i1 + 1 + g.below(nb as u64 - 1) as usize) % nb;
        let (b1, b2) = match g.below(5) {
            0 => (Some(bodies[i1]), None),
            1 => (None, Some(bodies[i1])),
            _ => (Some(bodies[i1]), Some(bodies[i2])),
        };
        let j = match g.below(8) {
            0 if b2.is_some() && b1.is_some() => {
                // A powered hinge at its low stop (angle 0 < 0.1): pushes.
                let h = joint(w, b1, b2, JointKind::Null(ode::joints::null::Null));
                let head = &h.get().head;
                let mut hinge = Hinge::new(w.get());
                let anchor = g.vec(1.0);
                let axis = g.vec(1.0);
                hinge.set_anchor(bodies_of(head), anchor);
                hinge.set_axis(bodies_of(head), [axis[0], axis[1], axis[2] + 0.2]);
                hinge.limot.set(Param::LoStop, 0.1);
                hinge.limot.set(Param::HiStop, 1.0);
                hinge.limot.set(Param::FMax, g.real(0.5, 5.0));
                hinge.limot.set(Param::Vel, g.real(-2.0, 2.0));
                h.get_mut().kind = JointKind::Hinge(Box::new(hinge));
                h
            }
            1 if b2.is_some() && b1.is_some() => {
                let h = joint(w, b1, b2, JointKind::Null(ode::joints::null::Null));
                let mut ball = Ball::new(w.get());
                ball.set_anchor(bodies_of(&h.get().head), g.vec(1.0));
                h.get_mut().kind = JointKind::Ball(ball);
                h
            }
            _ => {
                let all = [
                    mode::MU2,
                    mode::FDIR1,
                    mode::BOUNCE,
                    mode::SOFT_ERP,
                    mode::SOFT_CFM,
                    mode::MOTION1,
                    mode::MOTION2,
                    mode::MOTION_N,
                    mode::SLIP1,
                    mode::SLIP2,
                    mode::ROLLING,
                    mode::APPROX1_1,
                    mode::APPROX1_2,
                    mode::APPROX1_N,
                ];
                let mut bits = 0;
                for b in all {
                    if g.below(3) == 0 {
                        bits |= b;
                    }
                }
                let surface = Surface {
                    mode: bits,
                    mu: g.coef(),
                    mu2: g.coef(),
                    rho: g.coef(),
                    rho2: g.coef(),
                    rho_n: g.coef(),
                    bounce: g.real(0.0, 1.0),
                    bounce_vel: g.real(-0.1, 0.5),
                    soft_erp: g.real(0.1, 0.9),
                    soft_cfm: g.real(0.0, 0.01),
                    motion1: g.real(-1.0, 1.0),
                    motion2: g.real(-1.0, 1.0),
                    motion_n: g.real(-1.0, 1.0),
                    slip1: g.real(0.0, 0.01),
                    slip2: g.real(0.0, 0.01),
                };
                let n = g.vec(1.0);
                let l = (n[0] * n[0] + n[1] * n[1] + (n[2] + 1.5) * (n[2] + 1.5)).sqrt();
                let geom = ContactPoint {
                    pos: g.vec(2.0),
                    normal: [n[0] / l, n[1] / l, (n[2] + 1.5) / l],
                    depth: g.real(-0.01, 0.1),
                    g1: std::ptr::null_mut(),
                    g2: std::ptr::null_mut(),
                    side1: 0,
                    side2: 0,
                };
                let f = g.vec(1.0);
                let fl = (f[0] * f[0] + f[1] * f[1] + f[2] * f[2]).sqrt().max(1e-3);
                let fdir1 = [f[0] / fl, f[1] / fl, f[2] / fl];
                joint(w, b1, b2, JointKind::Contact(ContactJoint::new(surface, geom, fdir1)))
            }
        };
        if g.below(3) == 0 {
            // SAFETY: dJointFeedback is plain f64 arrays; all zeros is valid.
            let mut fb: Box<dJointFeedback> = Box::new(unsafe { std::mem::zeroed() });
            j.get_mut().head.feedback = &mut *fb;
            feedback.push(fb);
        }
        joints.push(j);
    }
    Island { w, bodies, joints, feedback }
}

/// Everything the solve writes, as bits.
fn outcome(isl: &Island) -> Vec<u64> {
    let mut out = Vec::new();
    for b in &isl.bodies {
        let b = b.get();
        for v in [&b.lvel[..3], &b.avel[..3], &b.facc[..3], &b.tacc[..3]] {
            out.extend(v.iter().map(|x| x.to_bits()));
        }
    }
    for j in &isl.joints {
        out.extend(j.get().head.lambda.iter().map(|x| x.to_bits()));
    }
    for fb in &isl.feedback {
        for v in [&fb.f1[..3], &fb.t1[..3], &fb.f2[..3], &fb.t2[..3]] {
            out.extend(v.iter().map(|x| x.to_bits()));
        }
    }
    out.push(random::seed() as u64);
    out
}

/// One island solve by either path; returns the outcome and the number of
/// rows.
fn solve(seed: u64, fused: bool, scratch: &mut SolverScratch, rows: &mut IslandRows) -> (Vec<u64>, usize) {
    let isl = build(seed);
    let world = isl.w.get();
    for (i, b) in isl.bodies.iter().enumerate() {
        b.get_mut().tag = i as i32;
        let body = b.get_mut();
        for k in 0..3 {
            body.facc[k] += body.mass.mass * world.gravity[k];
        }
    }
    let inv_i: Vec<[f64; 12]> = isl.bodies.iter().map(|b| rotate_tensor(&b.get().inv_i, &b.get().r)).collect();
    let mut infos: Vec<JointInfo> = Vec::new();
    let m = gather_info1(&isl.joints, &mut infos);
    let input = IslandInput { world, bodies: &isl.bodies, inv_i: &inv_i, h: 0.01 + (seed % 7) as f64 * 0.005 };
    random::set_seed(seed.wrapping_mul(2654435761));
    if m > 0 {
        if fused {
            quick::solve_joints(&input, &infos, rows, scratch);
        } else {
            assemble_rows(world, &infos, input.h, rows);
            quick::solve_island(&input, rows, scratch);
        }
    }
    (outcome(&isl), m)
}

#[test]
fn fused_assembly_matches_assemble_rows_and_solve_island_bit_for_bit() {
    let _g = GLOBAL.lock().unwrap_or_else(|e| e.into_inner());
    // Scratch reused across islands of different sizes, as in a world.
    let (mut s1, mut s2) = (SolverScratch::default(), SolverScratch::default());
    let (mut r1, mut r2) = (IslandRows::default(), IslandRows::default());
    let mut total_rows = 0;
    for (deterministic, warm) in [(false, false), (true, false), (false, true)] {
        quick::set_deterministic_order(deterministic);
        quick::set_warm_start(warm);
        for seed in 0..400u64 {
            let (a, m) = solve(seed, false, &mut s1, &mut r1);
            let (b, _) = solve(seed, true, &mut s2, &mut r2);
            assert_eq!(a, b, "seed {seed}, deterministic {deterministic}, warm {warm}");
            total_rows += m;
        }
    }
    quick::set_deterministic_order(false);
    quick::set_warm_start(false);
    assert!(total_rows > 3000, "the islands have rows ({total_rows})");
}

/// The test above must see what it is meant to: pushes from hinges at a
/// stop, feedback on contacts with and without body 2, friction-indexed
/// and rolling rows.
#[test]
fn the_random_islands_cover_the_cases() {
    let _g = GLOBAL.lock().unwrap_or_else(|e| e.into_inner());
    let (mut hinges, mut fb_contacts, mut one_body, mut reversed, mut rolling, mut approx) = (0, 0, 0, 0, 0, 0);
    for seed in 0..400u64 {
        let isl = build(seed);
        for j in &isl.joints {
            let j = j.get();
            match &j.kind {
                JointKind::Hinge(_) => hinges += 1,
                JointKind::Contact(c) => {
                    fb_contacts += !j.head.feedback.is_null() as usize;
                    one_body += j.head.body[1].is_none() as usize;
                    reversed += (j.head.flags & flags::REVERSE != 0) as usize;
                    rolling += (c.surface.mode & mode::ROLLING != 0) as usize;
                    approx += (c.surface.mode & mode::APPROX1_1 != 0) as usize;
                }
                _ => {}
            }
        }
    }
    assert!(hinges > 50 && fb_contacts > 100 && one_body > 100 && reversed > 50 && rolling > 100 && approx > 100);
}
