//! Custom joints (our extension, `ode/ode_ext.h` and `api::CustomJoint`):
//! - the C examples in ctests/ (custom ball = built-in ball to round-off;
//!   slotted hinge held at both limits without chatter; bad input);
//! - the Rust trait: a ball written in Rust gives the built-in ball's
//!   trajectory bit for bit with both steppers, and a one-sided limit row
//!   rests in its tolerance band without switching.
mod common;
use common::*;

use ode::api::convert::quat_to_ode;
use ode::api::{CustomInfo1, CustomInfo2, CustomJoint, JointRow, Limit, LimitSide, Mass, World};
use ode::ffi::objects_ball::{dJointCreateBall, dJointSetBallAnchor};
use ode::ffi::objects_joint::{dJointAttach, dJointGetType};
use std::ptr::null_mut;

#[test]
fn c_custom_ball_matches_the_built_in_ball() {
    let bin = build_c("t_joint_custom_ball", &["t_joint_custom_ball.c"], Headers::Ours, &[]);
    let out = run_ok(&bin, Lib::Ours, &[]);
    assert!(out.trim_end().ends_with("ok"), "{out}");
    // The program prints the largest difference seen per stepper.
    assert_eq!(out.matches("over 400 steps = 0 ").count(), 2, "not bit-identical:\n{out}");
}

#[test]
fn c_slotted_hinge_limits_hold_without_chatter() {
    let bin = build_c("t_joint_custom_slot", &["t_joint_custom_slot.c"], Headers::Ours, &[]);
    let out = run_ok(&bin, Lib::Ours, &[]);
    assert!(out.trim_end().ends_with("ok"), "{out}");
}

#[test]
fn c_custom_bad_input_is_reported_and_ignored() {
    let bin = build_c("t_joint_custom_badinput", &["t_joint_custom_badinput.c"], Headers::Ours, &[]);
    let out = run_ok(&bin, Lib::Ours, &[]);
    assert!(out.trim_end().ends_with("ok"), "{out}");
}

/// The built-in ball's rows, written against the Rust API in the same
/// arithmetic order.
struct RustBall {
    anchor1: [f64; 3],
    anchor2: [f64; 3],
}

impl CustomJoint for RustBall {
    fn max_rows(&self) -> usize {
        3
    }

    fn info1(&mut self, _: &mut CustomInfo1<'_, '_>) -> (usize, usize) {
        (3, 3)
    }

    fn info2(&mut self, info: &mut CustomInfo2<'_, '_>, rows: &mut [JointRow]) {
        let b1 = info.body1().unwrap();
        let k = info.fps() * info.erp();
        let a1 = b1.vector_to_world(self.anchor1);
        let p1 = b1.position();
        for i in 0..3 {
            rows[i].j1l[i] = 1.0;
        }
        let cross = |a: &[f64; 3], s: f64, rows: &mut [JointRow], second: bool| {
            let m = [[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]];
            for i in 0..3 {
                for c in (0..3).filter(|&c| c != i) {
                    let dst = if second { &mut rows[i].j2a } else { &mut rows[i].j1a };
                    dst[c] = s * m[i][c];
                }
            }
        };
        cross(&a1.to_array(), -1.0, rows, false);
        match info.body2() {
            Some(b2) => {
                let a2 = b2.vector_to_world(self.anchor2);
                let p2 = b2.position();
                for i in 0..3 {
                    rows[i].j2l[i] = -1.0;
                }
                cross(&a2.to_array(), 1.0, rows, true);
                for i in 0..3 {
                    rows[i].c = k * (a2[i] + p2[i] - a1[i] - p1[i]);
                }
            }
            None => {
                for i in 0..3 {
                    rows[i].c = k * (self.anchor2[i] - a1[i] - p1[i]);
                }
            }
        }
    }
}

fn box_mass(total: f64, l: [f64; 3]) -> Mass {
    let mut m = Mass::zero();
    m.mass = total;
    m.I[0] = total / 12.0 * (l[1] * l[1] + l[2] * l[2]);
    m.I[5] = total / 12.0 * (l[0] * l[0] + l[2] * l[2]);
    m.I[10] = total / 12.0 * (l[0] * l[0] + l[1] * l[1]);
    m
}

/// Two-link pendulum; `custom` chooses the Rust ball or the built-in one.
fn pendulum(custom: bool) -> (World, [ode::api::Body; 2]) {
    let mut w = World::new();
    w.set_gravity([0.0, 0.0, -9.81]).unwrap();
    w.set_erp(0.3).unwrap();
    let a = w.create_body();
    let b = w.create_body();
    a.set_position(&mut w, [0.5, 0.1, 2.0]).unwrap();
    b.set_position(&mut w, [1.1, -0.2, 1.7]).unwrap();
    a.set_mass(&mut w, &box_mass(1.5, [0.4, 0.2, 0.3])).unwrap();
    b.set_mass(&mut w, &box_mass(0.8, [0.2, 0.5, 0.1])).unwrap();
    b.set_angular_vel(&mut w, [0.5, -1.0, 2.0]).unwrap();
    a.set_linear_vel(&mut w, [0.0, 0.7, 0.0]).unwrap();
    let (p1, p2) = ([0.0, 0.0, 2.1], [0.8, 0.0, 1.9]);
    if custom {
        // World anchor attached as (None, a): the joint sees (a, None).
        let j1 = w.create_custom_joint(RustBall { anchor1: [0.0; 3], anchor2: [0.0; 3] }).unwrap();
        w.attach(j1, None, Some(a)).unwrap();
        let an1 = a.pos_rel_point(&w, p1).unwrap();
        j1.with_custom(&mut w, |j: &mut RustBall| {
            j.anchor1 = an1.to_array();
            j.anchor2 = p1;
        })
        .unwrap();
        let j2 = w.create_custom_joint(RustBall { anchor1: [0.0; 3], anchor2: [0.0; 3] }).unwrap();
        w.attach(j2, Some(a), Some(b)).unwrap();
        let (an1, an2) = (a.pos_rel_point(&w, p2).unwrap(), b.pos_rel_point(&w, p2).unwrap());
        j2.with_custom(&mut w, |j: &mut RustBall| {
            j.anchor1 = an1.to_array();
            j.anchor2 = an2.to_array();
        })
        .unwrap();
        assert_eq!(unsafe { dJointGetType(j1.as_raw()) }, 1000);
    } else {
        unsafe {
            let j1 = dJointCreateBall(w.as_raw(), null_mut());
            dJointAttach(j1, null_mut(), a.as_raw());
            dJointSetBallAnchor(j1, p1[0], p1[1], p1[2]);
            let j2 = dJointCreateBall(w.as_raw(), null_mut());
            dJointAttach(j2, a.as_raw(), b.as_raw());
            dJointSetBallAnchor(j2, p2[0], p2[1], p2[2]);
        }
    }
    (w, [a, b])
}

fn state(w: &World, bodies: &[ode::api::Body; 2]) -> Vec<f64> {
    let mut v = Vec::new();
    for b in bodies {
        v.extend(b.position(w).unwrap().to_array());
        v.extend(quat_to_ode(b.quaternion(w).unwrap()));
        v.extend(b.linear_vel(w).unwrap().to_array());
        v.extend(b.angular_vel(w).unwrap().to_array());
    }
    v
}

#[test]
fn rust_custom_ball_matches_the_built_in_ball_bit_for_bit() {
    for quick in [false, true] {
        let (mut wr, br) = pendulum(false);
        let (mut wc, bc) = pendulum(true);
        for step in 0..300 {
            if quick {
                // QuickStep draws from ODE's global generator: same draws.
                let seed = unsafe { ode::ffi::misc::dRandGetSeed() };
                wr.quick_step(0.01).unwrap();
                unsafe { ode::ffi::misc::dRandSetSeed(seed) };
                wc.quick_step(0.01).unwrap();
            } else {
                wr.step(0.01).unwrap();
                wc.step(0.01).unwrap();
            }
            let (a, b) = (state(&wr, &br), state(&wc, &bc));
            assert_eq!(a, b, "quick={quick}: custom and built-in differ at step {step}");
        }
        // The scene moved (the comparison is not of two resting states).
        assert!(br[1].linear_vel(&wr).unwrap().to_array().iter().any(|v| v.abs() > 0.1));
    }
}

/// A floor as a one-sided limit on a body's height z ≥ 0.
struct Floor {
    limit: Limit,
}

impl CustomJoint for Floor {
    fn max_rows(&self) -> usize {
        1
    }

    fn info1(&mut self, info: &mut CustomInfo1<'_, '_>) -> (usize, usize) {
        let z = info.body1().unwrap().position()[2];
        let on = info.limit(0, z, &self.limit).unwrap();
        (on as usize, 0)
    }

    fn info2(&mut self, info: &mut CustomInfo2<'_, '_>, rows: &mut [JointRow]) {
        rows[0].j1l = [0.0, 0.0, 1.0];
        info.limit_row(0, &mut rows[0]).unwrap();
    }
}

#[test]
fn rust_limit_row_rests_in_its_tolerance_band() {
    let tol = 0.02;
    for quick in [false, true] {
        let mut w = World::new();
        w.set_gravity([0.0, 0.0, -9.81]).unwrap();
        let b = w.create_body();
        b.set_position(&mut w, [0.0, 0.0, 0.3]).unwrap();
        let limit = Limit { lo: 0.0, hi: f64::INFINITY, erp: 0.5, cfm: 0.0, tolerance: tol, hold_steps: 2 };
        let j = w.create_custom_joint(Floor { limit }).unwrap();
        w.attach(j, Some(b), None).unwrap();
        let mut prev = LimitSide::Free;
        let mut switches_late = 0;
        for step in 0..300 {
            if quick {
                w.quick_step(0.01).unwrap();
            } else {
                w.step(0.01).unwrap();
            }
            let s = j.limit_state(&w, 0).unwrap();
            if s != prev && step >= 150 {
                switches_late += 1;
            }
            prev = s;
        }
        let z = b.position(&w).unwrap()[2];
        assert_eq!(prev, LimitSide::Lower);
        assert_eq!(switches_late, 0, "quick={quick}: the floor row switched after settling");
        // Rest: the row corrects to lo − tol; with cfm 0 exactly there up
        // to the solver's round-off.
        assert!((z - (0.0 - tol)).abs() < 1e-9, "quick={quick}: rests at z = {z}, expected {}", -tol);
        assert!(b.linear_vel(&w).unwrap()[2].abs() < 1e-9);
        // Destroying the joint lets the body fall again.
        w.destroy_joint(j).unwrap();
        assert!(j.limit_state(&w, 0).is_err());
        w.step(0.01).unwrap();
        assert!(b.linear_vel(&w).unwrap()[2] < -0.09);
    }
}

#[test]
fn custom_joints_join_islands_and_auto_disable() {
    // A body resting on the floor row goes to sleep with auto-disable; a
    // second body tied to it by a custom ball is in the same island, so a
    // push on the second wakes the first (ODE's island rule).
    let mut w = World::new();
    w.set_gravity([0.0, 0.0, -9.81]).unwrap();
    w.set_auto_disable_flag(true);
    let a = w.create_body();
    let b = w.create_body();
    a.set_position(&mut w, [0.0, 0.0, 0.05]).unwrap();
    b.set_position(&mut w, [1.0, 0.0, 0.05]).unwrap();
    let limit = Limit { lo: 0.0, hi: f64::INFINITY, erp: 0.5, cfm: 0.0, tolerance: 0.01, hold_steps: 2 };
    for body in [a, b] {
        let f = w.create_custom_joint(Floor { limit }).unwrap();
        w.attach(f, Some(body), None).unwrap();
    }
    let j = w.create_custom_joint(RustBall { anchor1: [0.0; 3], anchor2: [0.0; 3] }).unwrap();
    w.attach(j, Some(a), Some(b)).unwrap();
    let (an1, an2) = (a.pos_rel_point(&w, [0.5, 0.0, 0.05]).unwrap(), b.pos_rel_point(&w, [0.5, 0.0, 0.05]).unwrap());
    j.with_custom(&mut w, |r: &mut RustBall| {
        r.anchor1 = an1.to_array();
        r.anchor2 = an2.to_array();
    })
    .unwrap();
    for _ in 0..200 {
        w.step(0.01).unwrap();
    }
    assert!(!a.is_enabled(&w).unwrap() && !b.is_enabled(&w).unwrap(), "resting bodies were not auto-disabled");
    b.enable(&mut w).unwrap();
    b.add_force(&mut w, [0.0, 50.0, 0.0]).unwrap();
    w.step(0.01).unwrap();
    assert!(a.is_enabled(&w).unwrap(), "the custom joint did not link the island");
    assert!(a.linear_vel(&w).unwrap()[1] > 0.0, "the ball row did not pull the first body");
}

/// Holds body 1's height with one row: declared unbounded (nub = 1) or
/// not, with bounds lo..hi and friction index `findex`.
struct HeightPin {
    nub: usize,
    lo: f64,
    hi: f64,
    findex: i32,
}

impl CustomJoint for HeightPin {
    fn max_rows(&self) -> usize {
        1
    }

    fn info1(&mut self, _: &mut CustomInfo1<'_, '_>) -> (usize, usize) {
        (1, self.nub)
    }

    fn info2(&mut self, _: &mut CustomInfo2<'_, '_>, rows: &mut [JointRow]) {
        rows[0].j1l = [0.0, 0.0, 1.0];
        rows[0].lo = self.lo;
        rows[0].hi = self.hi;
        rows[0].findex = self.findex;
    }
}

/// Body 1's vertical speed after five steps under gravity, held by `pin`
/// alone.
fn vz_after_five_steps(mode: ode::api::SolverMode, quick: bool, pin: HeightPin) -> f64 {
    let mut w = World::new();
    w.set_solver_mode(mode);
    w.set_gravity([0.0, 0.0, -9.81]).unwrap();
    let b = w.create_body();
    let j = w.create_custom_joint(pin).unwrap();
    w.attach(j, Some(b), None).unwrap();
    for _ in 0..5 {
        if quick {
            w.quick_step(0.01).unwrap();
        } else {
            w.step(0.01).unwrap();
        }
    }
    b.linear_vel(&w).unwrap()[2]
}

/// A friction index outside the joint's rows (found by the fuzzer: the
/// exact Step's LCP indexed past its rows and the QuickStep stopped on
/// "friction index out of range", panics inside the step) is reported and
/// the row kept as an ordinary bounded row, in both steppers and both
/// solver modes.
#[test]
fn rust_custom_row_with_a_bad_friction_index_is_a_bounded_row() {
    use ode::api::SolverMode;
    for mode in [SolverMode::Exact, SolverMode::Fast] {
        for quick in [false, true] {
            for findex in [1, 5, -7] {
                let vz = vz_after_five_steps(mode, quick, HeightPin { nub: 0, lo: -1e9, hi: 1e9, findex });
                assert!(vz.abs() < 1e-6, "{mode:?} quick={quick} findex={findex}: the row did not hold (vz = {vz})");
            }
        }
    }
}

/// A row below nub is unbounded as declared, in every stepper: before, the
/// exact Step ignored its bounds (the body held) while the QuickStep and
/// the fast Step applied them (the body fell). The bounds, |λ| <= 0.5, are
/// too weak to hold the body against gravity.
#[test]
fn rust_custom_bounds_below_nub_are_taken_as_unbounded_in_every_stepper() {
    use ode::api::SolverMode;
    for mode in [SolverMode::Exact, SolverMode::Fast] {
        for quick in [false, true] {
            let vz = vz_after_five_steps(mode, quick, HeightPin { nub: 1, lo: -0.5, hi: 0.5, findex: -1 });
            assert!(vz.abs() < 1e-6, "{mode:?} quick={quick}: the row below nub did not hold (vz = {vz})");
        }
    }
}
