//! The integrator against Debian's ODE, without going through the dBody*
//! API: `ctests/t_world_integrator_twin.c` sets up bodies with ODE's functions and
//! prints their trajectories; this test builds the same bodies by setting
//! `Body` fields as those functions do, steps them with
//! `pipeline::step_world` and requires an identical trace (both
//! steppers; forces, damping, gyroscopic term, finite rotation, maximum
//! angular speed, kinematic and disabled bodies, moved callback order).
mod common;
use common::*;

use ode::dynamics::body::create_body;
use ode::dynamics::body::BodyRef;
use ode::dynamics::world::{create_world, flags, WorldRef};
use ode::joints::object::destroy_world;
use ode::math::mass::Mass;
use ode::math::rotation::q_to_r;
use ode::math::vec::{normalize3, normalize4};
use ode::pipeline::step_world;
use std::fmt::Write;
use std::sync::Mutex;

/// Trace being written and the bodies in creation order (for callbacks).
static OUT: Mutex<String> = Mutex::new(String::new());
static ORDER: Mutex<Vec<usize>> = Mutex::new(Vec::new());

unsafe extern "C" fn moved(b: *mut std::ffi::c_void) {
    let i = ORDER.lock().unwrap().iter().position(|&x| x == b as usize).unwrap();
    writeln!(OUT.lock().unwrap(), "moved b{i}").unwrap();
}

/// A body as dBodyCreate + dMassSetParameters(diagonal) + dBodySetMass +
/// dBodySetQuaternion leave it. The inertia entries are powers of four,
/// whose inverse ODE computes exactly.
fn make(w: WorldRef, m: f64, i: [f64; 3], q: [f64; 4]) -> BodyRef {
    let b = create_body(w);
    let body = b.get_mut();
    let mut mass = Mass::zero();
    mass.mass = m;
    let mut inv = [0.0; 12];
    for k in 0..3 {
        mass.I[5 * k] = i[k];
        inv[5 * k] = 1.0 / i[k];
    }
    body.mass = mass;
    body.inv_i = inv;
    body.inv_mass = 1.0 / m;
    body.q = q;
    normalize4(&mut body.q);
    body.r = q_to_r(&body.q);
    body.flags |= flags::GYROSCOPIC; // ODE creates bodies with it
    ORDER.lock().unwrap().push(b.as_raw() as usize);
    b
}

fn dump(out: &mut String, s: usize, i: usize, b: BodyRef) {
    let b = b.get();
    write!(out, "s{s} b{i} p").unwrap();
    for v in &b.pos[..3] {
        write!(out, " {v:?}").unwrap();
    }
    write!(out, " q").unwrap();
    for v in &b.q {
        write!(out, " {v:?}").unwrap();
    }
    write!(out, " v").unwrap();
    for v in &b.lvel[..3] {
        write!(out, " {v:?}").unwrap();
    }
    write!(out, " w").unwrap();
    for v in &b.avel[..3] {
        write!(out, " {v:?}").unwrap();
    }
    writeln!(out).unwrap();
}

fn run(quick: bool) -> String {
    OUT.lock().unwrap().clear();
    ORDER.lock().unwrap().clear();
    let w = create_world();
    w.get_mut().gravity = [0.3, -0.2, -9.81];
    let q0 = [0.9, 0.1, -0.3, 0.2];
    let q1 = [0.2, 0.7, 0.1, -0.4];
    let q2 = [1.0, 0.0, 0.0, 0.0];

    let b0 = make(w, 2.0, [0.25, 1.0, 4.0], q0);
    {
        let b = b0.get_mut();
        b.lvel[..3].copy_from_slice(&[1.0, 2.0, 3.0]);
        b.avel[..3].copy_from_slice(&[0.5, -1.0, 2.0]);
        b.flags |= flags::LINEAR_DAMPING | flags::ANGULAR_DAMPING;
        b.dampingp.linear_scale = 0.01;
        b.dampingp.angular_scale = 0.02;
        b.dampingp.linear_threshold = 0.5 * 0.5;
        b.dampingp.angular_threshold = 0.25 * 0.25;
    }
    let b1 = make(w, 0.5, [1.0, 4.0, 16.0], q1);
    {
        let b = b1.get_mut();
        b.flags |= flags::NO_GRAVITY;
        b.avel[..3].copy_from_slice(&[3.0, 0.2, -0.1]);
    }
    let b2 = make(w, 0.5, [1.0, 4.0, 16.0], q1);
    {
        let b = b2.get_mut();
        b.flags &= !flags::GYROSCOPIC;
        b.avel[..3].copy_from_slice(&[3.0, 0.2, -0.1]);
        b.flags |= flags::MAX_ANGULAR_SPEED;
        b.max_angular_speed = 2.5;
    }
    let b3 = make(w, 1.0, [4.0, 1.0, 0.25], q0);
    {
        let b = b3.get_mut();
        b.flags |= flags::FINITE_ROTATION;
        b.avel[..3].copy_from_slice(&[-1.0, 4.0, 0.5]);
    }
    let b4 = make(w, 1.0, [4.0, 1.0, 0.25], q0);
    {
        let b = b4.get_mut();
        b.finite_rot_axis[..3].copy_from_slice(&[1.0, 2.0, 2.0]);
        normalize3(&mut b.finite_rot_axis[..3]);
        b.flags |= flags::FINITE_ROTATION | flags::FINITE_ROTATION_AXIS;
        b.avel[..3].copy_from_slice(&[-1.0, 4.0, 0.5]);
    }
    let b5 = make(w, 3.0, [1.0, 1.0, 1.0], q2);
    {
        let b = b5.get_mut();
        b.inv_i = [0.0; 12];
        b.inv_mass = 0.0;
        b.lvel[..3].copy_from_slice(&[-1.0, 0.5, 0.25]);
        b.avel[..3].copy_from_slice(&[0.1, 0.2, 0.3]);
    }
    let b6 = make(w, 1.0, [1.0, 1.0, 1.0], q2);
    {
        let b = b6.get_mut();
        b.lvel[..3].copy_from_slice(&[1.0, 1.0, 1.0]);
        b.flags |= flags::DISABLED;
    }
    for b in [b0, b5, b6] {
        b.get_mut().moved_callback = Some(moved);
    }
    let all = [b0, b1, b2, b3, b4, b5, b6];

    for s in 0..1000usize {
        {
            let b = b0.get_mut();
            b.facc[0] += 0.5 * (s % 7) as f64;
            b.facc[1] += -1.0;
            b.facc[2] += 0.25;
            b.tacc[0] += 0.01;
            b.tacc[1] += 0.02 * (s % 3) as f64;
            b.tacc[2] += -0.03;
        }
        b1.get_mut().tacc[0] += 0.001;
        b6.get_mut().facc[0] += 0.5;
        step_world(w, if s < 500 { 0.01 } else { 0.004 }, quick);
        if s < 5 || s % 50 == 49 {
            let mut out = OUT.lock().unwrap();
            for (i, &b) in all.iter().enumerate() {
                dump(&mut out, s, i, b);
            }
        }
    }
    let mut out = OUT.lock().unwrap();
    for (i, &b) in all.iter().enumerate() {
        write!(out, "R b{i}").unwrap();
        for v in &b.get().r {
            write!(out, " {v:?}").unwrap();
        }
        writeln!(out).unwrap();
    }
    let f = b6.get().facc;
    writeln!(out, "force b6 {:?} {:?} {:?}", f[0], f[1], f[2]).unwrap();
    drop(out);
    destroy_world(w);
    OUT.lock().unwrap().clone()
}

#[test]
fn free_body_steps_match_ode_bit_for_bit() {
    require_reference();
    let bin = build_c("t_world_integrator_twin", &["t_world_integrator_twin.c"], Headers::Debian, &[]);
    for (arg, quick) in [("step", false), ("quick", true)] {
        let reference = run_ok(&bin, Lib::Debian, &[arg]);
        let ours = run(quick);
        assert!(reference.lines().count() > 2000, "{arg}: short reference trace");
        compare_traces(&ours, &reference, 0.0, 0.0);
    }
}
