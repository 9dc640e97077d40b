//! Joint getters and setters against Debian's ODE before the generic joint
//! API exists in this branch: `ctests/diff_joint_basic_getters.c` prints its
//! trace with Debian's library; this test replays the same calls on our
//! exported functions, attaching joints the way ODE's `dJointAttach` does
//! (swap to (body, 0) with the REVERSE flag, then `set_relative_values`),
//! and requires identical numbers.
mod common;
use common::*;

use ode::dynamics::body::BODIES;
use ode::ffi::objects_ball::*;
use ode::ffi::objects_body::*;
use ode::ffi::objects_fixed::*;
use ode::ffi::objects_hinge::*;
use ode::ffi::objects_slider::*;
use ode::ffi::objects_world::*;
use ode::ffi::rotation::{dQFromAxisAndAngle, dRFromAxisAndAngle};
use ode::ffi::types::*;
use ode::joints::ball::bodies_of;
use ode::joints::{flags, Joint, JOINTS};
use ode::math::mat3::{mul0_331, mul0_333};
use std::ffi::c_int;
use std::fmt::Write;
use std::ptr::null_mut;

/// ODE's dJointAttach as far as the joint types are concerned.
fn attach(j: dJointID, b1: dBodyID, b2: dBodyID) {
    let joint: &mut Joint = JOINTS.check(j).unwrap().get_mut();
    let (mut x, mut y) = (BODIES.check(b1), BODIES.check(b2));
    joint.head.flags &= !flags::REVERSE;
    if x.is_none() {
        x = y;
        y = None;
        joint.head.flags |= flags::REVERSE;
    }
    joint.head.body = [x, y];
    let Joint { head, kind } = joint;
    kind.set_relative_values(head, bodies_of(head));
}

fn destroy(j: dJointID) {
    assert!(JOINTS.free(JOINTS.check(j).unwrap()));
}

struct Out(String);

impl Out {
    fn pv(&mut self, what: &str, v: &[f64]) {
        writeln!(self.0, "{what} {:?} {:?} {:?}", v[0], v[1], v[2]).unwrap();
    }
    fn pr(&mut self, what: &str, v: f64) {
        writeln!(self.0, "{what} {v:?}").unwrap();
    }
}

unsafe fn pose(b: dBodyID, x: f64, y: f64, z: f64, ax: f64, ay: f64, az: f64, angle: f64) {
    let mut q = [0.0; 4];
    dBodySetPosition(b, x, y, z);
    dQFromAxisAndAngle(q.as_mut_ptr(), ax, ay, az, angle);
    dBodySetQuaternion(b, q.as_ptr());
}

unsafe fn reset(b: &[dBodyID; 3]) {
    pose(b[0], 0.3, -0.2, 1.1, 0.3, 1.0, -0.5, 0.7);
    pose(b[1], 1.2, 0.4, 0.9, -0.6, 0.2, 1.0, 1.9);
    pose(b[2], -0.5, 0.8, 0.2, 1.0, 0.0, 0.0, 0.3);
    dBodySetLinearVel(b[0], 0.5, -1.5, 0.25);
    dBodySetAngularVel(b[0], 0.7, 0.2, -0.9);
    dBodySetLinearVel(b[1], -0.3, 0.8, 1.1);
    dBodySetAngularVel(b[1], -0.4, 1.3, 0.6);
    dBodySetForce(b[0], 0.0, 0.0, 0.0);
    dBodySetTorque(b[0], 0.0, 0.0, 0.0);
    dBodySetForce(b[1], 0.0, 0.0, 0.0);
    dBodySetTorque(b[1], 0.0, 0.0, 0.0);
}

unsafe fn move0(b: dBodyID, a: &[f64; 3], c: &[f64; 3], angle: f64, tx: f64, ty: f64, tz: f64) {
    let mut r = [0.0; 12];
    dRFromAxisAndAngle(r.as_mut_ptr(), a[0], a[1], a[2], angle);
    let p = std::slice::from_raw_parts(dBodyGetPosition(b), 3);
    let d = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
    let dn = mul0_331(&r, &d);
    dBodySetPosition(b, c[0] + dn[0] + tx, c[1] + dn[1] + ty, c[2] + dn[2] + tz);
    let cur: [f64; 12] = std::slice::from_raw_parts(dBodyGetRotation(b), 12).try_into().unwrap();
    let rn = mul0_333(&r, &cur);
    dBodySetRotation(b, rn.as_ptr());
}

type SetP = unsafe extern "C" fn(dJointID, c_int, dReal);
type GetP = unsafe extern "C" fn(dJointID, c_int) -> dReal;

unsafe fn params(o: &mut Out, tag: &str, j: dJointID, set: SetP, get: GetP) {
    let groups = [0, 0x100, 0x200];
    for (g, base) in groups.iter().enumerate() {
        for p in 0..14 {
            let before = get(j, base + p);
            set(j, base + p, 0.125 * (p + 1) as f64 + g as f64);
            writeln!(o.0, "{tag} param {g} {p} {before:?} {:?}", get(j, base + p)).unwrap();
        }
    }
    set(j, 5, -3.0);
    set(j, 6, 1.5);
    set(j, 6, -0.5);
    writeln!(o.0, "{tag} param fmax {:?} fudge {:?}", get(j, 5), get(j, 6)).unwrap();
}

unsafe fn vec(f: unsafe extern "C" fn(dJointID, *mut dReal), j: dJointID, v: &mut [f64; 4]) -> [f64; 4] {
    f(j, v.as_mut_ptr());
    *v
}

unsafe fn body3(p: *const dReal) -> [f64; 3] {
    [*p, *p.add(1), *p.add(2)]
}

unsafe fn scene() -> String {
    let names = ["b0b1", "b0", "0b0"];
    let mut o = Out(String::new());
    let mut v = [0.0f64; 4];
    let w = dWorldCreate();
    dWorldSetERP(w, 0.35);
    dWorldSetCFM(w, 2e-6);
    let b = [dBodyCreate(w), dBodyCreate(w), dBodyCreate(w)];
    for k in 0..3 {
        let first = if k == 2 { null_mut() } else { b[0] };
        let second = if k == 0 {
            b[1]
        } else if k == 1 {
            null_mut()
        } else {
            b[0]
        };
        let anchor = [0.5, 0.1, 1.0];
        let axis = [0.2, 0.9, -0.4];
        let other = [-0.7, 0.1, 0.3];
        writeln!(o.0, "== attach {}", names[k]).unwrap();

        reset(&b);
        let j = dJointCreateBall(w, null_mut());
        attach(j, first, second);
        o.pv("ball anchor fresh", &vec(dJointGetBallAnchor, j, &mut v));
        dJointSetBallAnchor(j, anchor[0], anchor[1], anchor[2]);
        o.pv("ball anchor", &vec(dJointGetBallAnchor, j, &mut v));
        o.pv("ball anchor2", &vec(dJointGetBallAnchor2, j, &mut v));
        move0(b[0], &other, &anchor, 0.4, 0.05, -0.1, 0.02);
        o.pv("ball anchor moved", &vec(dJointGetBallAnchor, j, &mut v));
        o.pv("ball anchor2 moved", &vec(dJointGetBallAnchor2, j, &mut v));
        attach(j, b[2], first);
        o.pv("ball anchor reattached", &vec(dJointGetBallAnchor, j, &mut v));
        o.pv("ball anchor2 reattached", &vec(dJointGetBallAnchor2, j, &mut v));
        dJointSetBallAnchor2(j, 0.25, -0.5, 0.75);
        o.pv("ball anchor2 set", &vec(dJointGetBallAnchor2, j, &mut v));
        params(&mut o, "ball", j, dJointSetBallParam, dJointGetBallParam);
        destroy(j);

        reset(&b);
        let j = dJointCreateHinge(w, null_mut());
        attach(j, first, second);
        o.pv("hinge axis fresh", &vec(dJointGetHingeAxis, j, &mut v));
        o.pr("hinge angle fresh", dJointGetHingeAngle(j));
        dJointSetHingeAnchor(j, anchor[0], anchor[1], anchor[2]);
        dJointSetHingeAxis(j, axis[0], axis[1], axis[2]);
        o.pv("hinge anchor", &vec(dJointGetHingeAnchor, j, &mut v));
        o.pv("hinge anchor2", &vec(dJointGetHingeAnchor2, j, &mut v));
        o.pv("hinge axis", &vec(dJointGetHingeAxis, j, &mut v));
        o.pr("hinge angle", dJointGetHingeAngle(j));
        o.pr("hinge rate", dJointGetHingeAngleRate(j));
        for i in 0..5 {
            move0(b[0], &axis, &anchor, 0.45 + 0.6 * i as f64, 0.0, 0.0, 0.0);
            write!(o.0, "hinge turn {i}: ").unwrap();
            o.pr("angle", dJointGetHingeAngle(j));
            o.pv("hinge anchor turned", &vec(dJointGetHingeAnchor, j, &mut v));
            o.pv("hinge anchor2 turned", &vec(dJointGetHingeAnchor2, j, &mut v));
        }
        move0(b[0], &other, &anchor, 0.2, 0.1, 0.2, 0.3);
        o.pr("hinge angle off-axis", dJointGetHingeAngle(j));
        o.pr("hinge rate off-axis", dJointGetHingeAngleRate(j));
        o.pv("hinge axis off-axis", &vec(dJointGetHingeAxis, j, &mut v));
        dJointAddHingeTorque(j, 2.5);
        o.pv("hinge torque b0", &body3(dBodyGetTorque(b[0])));
        o.pv("hinge torque b1", &body3(dBodyGetTorque(b[1])));
        o.pv("hinge force b0", &body3(dBodyGetForce(b[0])));
        dJointSetHingeAxisOffset(j, other[0], other[1], other[2], 0.6);
        o.pr("hinge angle after offset", dJointGetHingeAngle(j));
        o.pv("hinge axis after offset", &vec(dJointGetHingeAxis, j, &mut v));
        dJointSetHingeAnchorDelta(j, 0.1, 0.2, 0.3, 0.5, -0.25, 0.125);
        o.pv("hinge anchor delta", &vec(dJointGetHingeAnchor, j, &mut v));
        o.pv("hinge anchor2 delta", &vec(dJointGetHingeAnchor2, j, &mut v));
        o.pr("hinge angle delta", dJointGetHingeAngle(j));
        move0(b[0], &axis, &anchor, -0.3, 0.0, 0.0, 0.0);
        attach(j, b[2], first);
        o.pr("hinge angle reattached", dJointGetHingeAngle(j));
        o.pv("hinge axis reattached", &vec(dJointGetHingeAxis, j, &mut v));
        o.pv("hinge anchor reattached", &vec(dJointGetHingeAnchor, j, &mut v));
        o.pv("hinge anchor2 reattached", &vec(dJointGetHingeAnchor2, j, &mut v));
        params(&mut o, "hinge", j, dJointSetHingeParam, dJointGetHingeParam);
        destroy(j);

        reset(&b);
        let j = dJointCreateSlider(w, null_mut());
        attach(j, first, second);
        o.pr("slider position fresh", dJointGetSliderPosition(j));
        dJointSetSliderAxis(j, axis[0], axis[1], axis[2]);
        o.pv("slider axis", &vec(dJointGetSliderAxis, j, &mut v));
        o.pr("slider position", dJointGetSliderPosition(j));
        o.pr("slider rate", dJointGetSliderPositionRate(j));
        move0(b[0], &axis, &anchor, 0.0, 0.2, 0.9, -0.4);
        o.pr("slider position moved", dJointGetSliderPosition(j));
        move0(b[0], &other, &anchor, 0.3, -0.3, 0.1, 0.2);
        o.pr("slider position moved off-axis", dJointGetSliderPosition(j));
        o.pr("slider rate moved off-axis", dJointGetSliderPositionRate(j));
        o.pv("slider axis moved", &vec(dJointGetSliderAxis, j, &mut v));
        dJointAddSliderForce(j, -1.75);
        o.pv("slider force b0", &body3(dBodyGetForce(b[0])));
        o.pv("slider force b1", &body3(dBodyGetForce(b[1])));
        o.pv("slider torque b0", &body3(dBodyGetTorque(b[0])));
        o.pv("slider torque b1", &body3(dBodyGetTorque(b[1])));
        dJointSetSliderAxisDelta(j, other[0], other[1], other[2], 0.5, 0.25, -0.125);
        o.pr("slider position delta", dJointGetSliderPosition(j));
        o.pv("slider axis delta", &vec(dJointGetSliderAxis, j, &mut v));
        move0(b[0], &other, &anchor, 0.0, 0.5, 0.5, 0.5);
        o.pr("slider position delta moved", dJointGetSliderPosition(j));
        attach(j, b[2], first);
        o.pr("slider position reattached", dJointGetSliderPosition(j));
        o.pv("slider axis reattached", &vec(dJointGetSliderAxis, j, &mut v));
        params(&mut o, "slider", j, dJointSetSliderParam, dJointGetSliderParam);
        destroy(j);

        reset(&b);
        let j = dJointCreateFixed(w, null_mut());
        attach(j, first, second);
        dJointSetFixed(j);
        params(&mut o, "fixed", j, dJointSetFixedParam, dJointGetFixedParam);
        destroy(j);
    }
    dWorldDestroy(w);
    o.0
}

#[test]
fn joint_getters_match_ode_bit_for_bit() {
    require_reference();
    let bin = build_c("diff_joint_basic_getters", &["diff_joint_basic_getters.c"], Headers::Debian, &[]);
    let reference = run_ok(&bin, Lib::Debian, &[]);
    assert!(reference.lines().count() > 600, "short reference trace");
    let ours = unsafe { scene() };
    compare_traces(&ours, &reference, 0.0, 0.0);
}
