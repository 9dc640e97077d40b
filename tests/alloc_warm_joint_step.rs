//! Once warm, a whole `dWorldStep` / `dWorldQuickStep` of a joint
//! scene allocates nothing. The scene is built through the C API (as a C
//! host would): a hinge chain with stops, motors and feedback, a ball
//! chain, a slider with stops, motor and force, a fixed pair, and boxes on
//! hand-made contact joints (re-created in a joint group every step, with
//! friction, bounce, soft CFM, rolling, motion and slip). Only the stepper
//! calls are counted: creating contact joints between steps may allocate.
use ode::ffi::decl::common::*;
use ode::ffi::decl::contact::*;
use ode::ffi::decl::mass::dMass;
use ode::ffi::mass::dMassSetBoxTotal;
use ode::ffi::misc::dRandSetSeed;
use ode::ffi::objects_ball::*;
use ode::ffi::objects_body::*;
use ode::ffi::objects_contact::dJointCreateContact;
use ode::ffi::objects_fixed::*;
use ode::ffi::objects_hinge::*;
use ode::ffi::objects_joint::*;
use ode::ffi::objects_slider::*;
use ode::ffi::objects_world::*;
use ode::ffi::odeinit::dInitODE2;
use ode::ffi::{dBodyID, dJointGroupID, dWorldID};
use std::ffi::{c_char, c_int, c_void};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations_during;

#[global_allocator]
static A: counting_alloc::Counting = counting_alloc::Counting;

const HALF: [f64; 3] = [0.25, 0.2, 0.1];

struct Scene {
    w: dWorldID,
    group: dJointGroupID,
    boxes: Vec<(dBodyID, dSurfaceParameters)>,
    slider: ode::ffi::dJointID,
    bodies: Vec<dBodyID>,
    // Boxed: the library keeps pointers to these records, so they must not
    // move when the Vec grows.
    #[allow(clippy::vec_box)]
    _feedback: Vec<Box<dJointFeedback>>,
}

unsafe fn body(w: dWorldID, all: &mut Vec<dBodyID>, m: f64, x: f64, y: f64, z: f64) -> dBodyID {
    let mut mass = dMass::default();
    dMassSetBoxTotal(&mut mass, m, 2.0 * HALF[0], 2.0 * HALF[1], 2.0 * HALF[2]);
    let b = dBodyCreate(w);
    dBodySetMass(b, &mass);
    dBodySetPosition(b, x, y, z);
    all.push(b);
    b
}

fn surface(mode: i32) -> dSurfaceParameters {
    dSurfaceParameters {
        mode,
        mu: 0.6,
        mu2: 0.4,
        rho: 0.02,
        rho2: 0.01,
        rhoN: 0.005,
        bounce: 0.3,
        bounce_vel: 0.1,
        soft_erp: 0.4,
        soft_cfm: 1e-5,
        motion1: 0.1,
        motion2: -0.05,
        motionN: 0.0,
        slip1: 0.01,
        slip2: 0.02,
    }
}

unsafe fn build(stack: bool) -> Scene {
    dInitODE2(0);
    dRandSetSeed(5);
    let w = dWorldCreate();
    dWorldSetGravity(w, 0.0, 0.0, -9.81);
    dWorldSetQuickStepNumIterations(w, 20);
    dWorldSetContactSurfaceLayer(w, 0.001);
    let mut all = Vec::new();
    let mut feedback: Vec<Box<dJointFeedback>> = Vec::new();
    let mut fb = |j| {
        let mut f = Box::new(dJointFeedback { f1: [0.0; 4], t1: [0.0; 4], f2: [0.0; 4], t2: [0.0; 4] });
        dJointSetFeedback(j, &mut *f);
        feedback.push(f);
    };
    // Hinge chain with stops and motors.
    let mut prev: dBodyID = std::ptr::null_mut();
    for i in 0..10 {
        let b = body(w, &mut all, 0.5, 0.5 * i as f64 + 0.25, 0.0, 5.0);
        let j = dJointCreateHinge(w, std::ptr::null_mut());
        dJointAttach(j, prev, b);
        dJointSetHingeAnchor(j, 0.5 * i as f64, 0.0, 5.0);
        dJointSetHingeAxis(j, 0.0, 1.0, 0.1 * i as f64);
        dJointSetHingeParam(j, dParamLoStop, -0.5);
        dJointSetHingeParam(j, dParamHiStop, 0.7);
        dJointSetHingeParam(j, dParamBounce, 0.2);
        if i % 3 == 1 {
            dJointSetHingeParam(j, dParamVel, 0.5);
            dJointSetHingeParam(j, dParamFMax, 2.0);
        }
        fb(j);
        prev = b;
    }
    // Ball chain.
    prev = std::ptr::null_mut();
    for i in 0..8 {
        let b = body(w, &mut all, 0.3, 0.0, 0.4 * i as f64 + 0.2, 8.0);
        let j = dJointCreateBall(w, std::ptr::null_mut());
        dJointAttach(j, prev, b);
        dJointSetBallAnchor(j, 0.0, 0.4 * i as f64, 8.0);
        if i == 4 {
            fb(j);
        }
        prev = b;
    }
    // Slider with stops and a motor, and a fixed pair hanging from it.
    let s = body(w, &mut all, 1.0, 3.0, 3.0, 3.0);
    let slider = dJointCreateSlider(w, std::ptr::null_mut());
    dJointAttach(slider, s, std::ptr::null_mut());
    dJointSetSliderAxis(slider, 0.0, 0.3, 1.0);
    dJointSetSliderParam(slider, dParamLoStop, -0.2);
    dJointSetSliderParam(slider, dParamHiStop, 0.3);
    dJointSetSliderParam(slider, dParamVel, 0.4);
    dJointSetSliderParam(slider, dParamFMax, 3.0);
    fb(slider);
    let f = body(w, &mut all, 0.5, 3.2, 3.0, 2.8);
    let fixed = dJointCreateFixed(w, std::ptr::null_mut());
    dJointAttach(fixed, s, f);
    dJointSetFixed(fixed);
    fb(fixed);
    // Boxes on contacts, and a box on a box.
    let modes = [
        dContactApprox1 | dContactSoftCFM | dContactBounce,
        dContactApprox1 | dContactRolling | dContactAxisDep,
        dContactMu2 | dContactFDir1 | dContactMotion1 | dContactMotion2 | dContactSlip1 | dContactSlip2,
        dContactSoftERP,
    ];
    let mut boxes = Vec::new();
    for (k, &mode) in modes.iter().enumerate() {
        let b = body(w, &mut all, 1.0, 2.0 * k as f64, -3.0, HALF[2] - 0.001);
        dBodySetLinearVel(b, 0.3, 0.1, 0.0);
        boxes.push((b, surface(mode)));
    }
    if stack {
        let top = body(w, &mut all, 0.5, 0.02, -3.0, 3.0 * HALF[2] - 0.002);
        boxes.push((top, surface(dContactApprox1)));
    }
    Scene { w, group: dJointGroupCreate(0), boxes, slider, bodies: all, _feedback: feedback }
}

/// Four corner contacts under each box (always created, depth clamped at
/// 0, so every step has the same rows); with `stack`, the last box sits on
/// the first.
unsafe fn contacts(sc: &Scene) {
    for (k, (b, sp)) in sc.boxes.iter().enumerate() {
        let below = if k == 4 { sc.boxes[0].0 } else { std::ptr::null_mut() };
        let floor = if below.is_null() { 0.0 } else { (*dBodyGetPosition(below).add(2)) + HALF[2] };
        for i in 0..4 {
            let mut p = [0.0; 4];
            let sx = if i & 1 != 0 { HALF[0] } else { -HALF[0] };
            let sy = if i & 2 != 0 { HALF[1] } else { -HALF[1] };
            dBodyGetRelPointPos(*b, sx, sy, -HALF[2], p.as_mut_ptr());
            let c = dContact {
                surface: *sp,
                geom: dContactGeom {
                    pos: p,
                    normal: [0.0, 0.0, 1.0, 0.0],
                    depth: (floor - p[2]).max(0.0),
                    g1: std::ptr::null_mut(),
                    g2: std::ptr::null_mut(),
                    side1: 0,
                    side2: 0,
                },
                fdir1: [1.0, 0.0, 0.0, 0.0],
            };
            let j = dJointCreateContact(sc.w, sc.group, &c);
            dJointAttach(j, *b, below);
        }
    }
}

unsafe fn step(sc: &Scene, quick: bool) -> usize {
    dJointGroupEmpty(sc.group);
    contacts(sc);
    dJointAddSliderForce(sc.slider, 1.5);
    allocations_during(|| {
        if quick {
            dWorldQuickStep(sc.w, 0.01);
        } else {
            dWorldStep(sc.w, 0.01);
        }
    })
}

type State = Vec<(dBodyID, [f64; 3], [f64; 4], [f64; 3], [f64; 3])>;

/// Position, quaternion and velocities of every body.
unsafe fn snapshot(sc: &Scene) -> State {
    let v3 = |p: *const f64| [*p, *p.add(1), *p.add(2)];
    sc.bodies
        .iter()
        .map(|&b| {
            let q = dBodyGetQuaternion(b);
            let q = [*q, *q.add(1), *q.add(2), *q.add(3)];
            (b, v3(dBodyGetPosition(b)), q, v3(dBodyGetLinearVel(b)), v3(dBodyGetAngularVel(b)))
        })
        .collect()
}

/// Puts every body back into a snapshot's state, so the same steps (and
/// the same peak row counts) happen again.
unsafe fn rewind(state: &State) {
    for (b, p, q, v, w) in state {
        dBodySetPosition(*b, p[0], p[1], p[2]);
        dBodySetQuaternion(*b, q.as_ptr());
        dBodySetLinearVel(*b, v[0], v[1], v[2]);
        dBodySetAngularVel(*b, w[0], w[1], w[2]);
        dBodySetForce(*b, 0.0, 0.0, 0.0);
        dBodySetTorque(*b, 0.0, 0.0, 0.0);
    }
}

static MESSAGES: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn on_message(_num: c_int, _msg: *const c_char, _ap: *mut c_void) {
    MESSAGES.fetch_add(1, Ordering::Relaxed);
}

/// Runs the scene for 600 steps (every working buffer reaches its peak
/// size; ODE's arena grows the same way), rewinds it to its state after
/// the first two steps, and returns the allocations of each of the next
/// `n` steps of the replay and the number of messages (LCP stall reports)
/// seen meanwhile.
unsafe fn replay(stack: bool, quick: bool, n: usize) -> (Vec<usize>, usize) {
    let sc = build(stack);
    if FAST.load(Ordering::Relaxed) {
        ode::ffi::ode_ext::odexWorldSetSolverMode(sc.w, ode::ffi::ode_ext::ODEX_SOLVER_FAST);
    }
    step(&sc, quick);
    step(&sc, quick);
    let state = snapshot(&sc);
    for _ in 0..600 {
        step(&sc, quick);
    }
    rewind(&state);
    let before = MESSAGES.load(Ordering::Relaxed);
    let per_step: Vec<usize> = (0..n).map(|_| step(&sc, quick)).collect();
    let messages = MESSAGES.load(Ordering::Relaxed) - before;
    // The scene really is constrained: the boxes rest on their contacts.
    let z = *dBodyGetPosition(sc.boxes[1].0).add(2);
    assert!((z - HALF[2]).abs() < 0.01, "box z {z}");
    dJointGroupDestroy(sc.group);
    dWorldDestroy(sc.w);
    (per_step, messages)
}

/// The tests share the message handler: one at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Whether `replay` puts its world in the fast solver mode (set under
/// `SERIAL`).
static FAST: AtomicBool = AtomicBool::new(false);

fn check(stack: bool, quick: bool) -> usize {
    check_mode(stack, quick, false)
}

fn check_mode(stack: bool, quick: bool, fast: bool) -> usize {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    FAST.store(fast, Ordering::Relaxed);
    unsafe { ode::ffi::error::dSetMessageHandler(Some(on_message)) };
    let (per_step, messages) = unsafe { replay(stack, quick, 300) };
    unsafe { ode::ffi::error::dSetMessageHandler(None) };
    let total: usize = per_step.iter().sum();
    assert_eq!(
        total, 0,
        "stack={stack} quick={quick} fast={fast}: {total} allocations in 300 warm steps with {messages} messages: {per_step:?}"
    );
    messages
}

/// Joints and boxes on the ground (a regular LCP: no stall), both steppers.
#[test]
fn warm_joint_steps_do_not_allocate() {
    assert_eq!(check(false, false), 0, "dWorldStep was not meant to stall here");
    assert_eq!(check(false, true), 0);
}

/// QuickStep with a box stacked on another (PGS never stalls).
#[test]
fn warm_quickstep_with_a_stack_does_not_allocate() {
    check(true, true);
}

/// dWorldStep with a box on a box: the four coplanar two-body contacts
/// with friction make the Dantzig solver stall (s <= 0) in the first ~50
/// steps, as ODE's does (49 reports with Debian's library as with ours),
/// which reports it on the message channel. Reporting must not allocate.
#[test]
fn warm_steps_with_stalling_contacts_do_not_allocate() {
    assert!(check(true, false) > 0, "the scene was meant to stall the LCP");
}

/// QuickStep in the fast solver mode (colouring, batches, contact cache),
/// with and without the stack.
#[test]
fn warm_fast_quickstep_does_not_allocate() {
    check_mode(false, true, true);
    check_mode(true, true, true);
}

/// dWorldStep in the fast solver mode (sparse LDLᵀ of the bilateral rows,
/// the reduced boxed LCP of the bounded ones), with and without the stack.
#[test]
fn warm_fast_step_does_not_allocate() {
    check_mode(false, false, true);
    check_mode(true, false, true);
}
