//! The joint rows against Debian's ODE before our stepper handles joints:
//! `ctests/diff_joint_basic_one_step.c` takes one dWorldStep of small systems
//! whose rows are all active and independent, so ODE's constraint forces
//! are the unique solution of (J M⁻¹ Jᵀ + CFM/h) λ = c/h − J (v/h + M⁻¹ f).
//! This test builds the same systems through our exported functions
//! (attaching joints as ODE's dJointAttach does), asks our joints for their
//! rows, solves that system densely and applies the velocity update; the
//! velocities must match ODE's to 1e-10 relative / 1e-13 absolute (only
//! the elimination order differs). f includes gravity and ODE 0.16's
//! implicit gyroscopic torque.
mod common;
use common::*;

use ode::dynamics::body::{BodyRef, BODIES};
use ode::ffi::decl::contact::*;
use ode::ffi::mass::{dMass, dMassSetBoxTotal};
use ode::ffi::objects_ball::*;
use ode::ffi::objects_body::*;
use ode::ffi::objects_contact::dJointCreateContact;
use ode::ffi::objects_fixed::*;
use ode::ffi::objects_hinge::*;
use ode::ffi::objects_slider::*;
use ode::ffi::objects_world::*;
use ode::ffi::rotation::{dQFromAxisAndAngle, dRFromAxisAndAngle};
use ode::ffi::types::*;
use ode::joints::ball::bodies_of;
use ode::joints::{flags, Joint, JointRef, Row, RowCtx, JOINTS};
use ode::math::mat3::{cross_matrix, invert3, mul0_331, mul0_333, mul2_333};
use std::fmt::Write;
use std::ptr::null_mut;

const H: f64 = 0.01;

struct Scene {
    w: dWorldID,
    bodies: Vec<dBodyID>,
    joints: Vec<JointRef>,
}

impl Scene {
    unsafe fn attach(&mut self, j: dJointID, b1: dBodyID, b2: dBodyID) {
        let jr = JOINTS.check(j).unwrap();
        let joint: &mut Joint = jr.get_mut();
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
        self.joints.push(jr);
    }

    unsafe fn boxb(&mut self, x: f64, y: f64, z: f64, m: f64, lx: f64, ly: f64, lz: f64, angle: f64) -> dBodyID {
        let nb = self.bodies.len() as f64;
        let mut mass: dMass = std::mem::zeroed();
        let mut q = [0.0; 4];
        let b = dBodyCreate(self.w);
        dMassSetBoxTotal(&mut mass, m, lx, ly, lz);
        dBodySetMass(b, &mass);
        dBodySetPosition(b, x, y, z);
        dQFromAxisAndAngle(q.as_mut_ptr(), 0.3 + nb, 1.0, -0.4, angle);
        dBodySetQuaternion(b, q.as_ptr());
        dBodySetLinearVel(b, 0.1 * nb, -0.2, 0.05 * nb);
        dBodySetAngularVel(b, 0.3, 0.1 * nb, -0.2);
        self.bodies.push(b);
        b
    }

    unsafe fn contact(&mut self, b1: dBodyID, b2: dBodyID, p: [f64; 3], n: [f64; 3], depth: f64, mode: i32) {
        let mut c: dContact = std::mem::zeroed();
        c.surface.mode = mode;
        c.surface.mu = f64::INFINITY;
        c.surface.soft_erp = 0.5;
        c.surface.soft_cfm = 1e-6;
        c.geom.pos[..3].copy_from_slice(&p);
        c.geom.normal[..3].copy_from_slice(&n);
        c.geom.depth = depth;
        let j = dJointCreateContact(self.w, null_mut(), &c);
        self.attach(j, b1, b2);
    }
}

unsafe fn nudge(b: dBodyID, d: f64) {
    let p = std::slice::from_raw_parts(dBodyGetPosition(b), 3);
    let (x, y, z) = (p[0] + d, p[1] - 0.5 * d, p[2] + 0.25 * d);
    dBodySetPosition(b, x, y, z);
    let mut r = [0.0; 12];
    dRFromAxisAndAngle(r.as_mut_ptr(), 1.0, -1.0, 0.5, 4.0 * d);
    let cur: [f64; 12] = std::slice::from_raw_parts(dBodyGetRotation(b), 12).try_into().unwrap();
    let rn = mul0_333(&r, &cur);
    dBodySetRotation(b, rn.as_ptr());
}

unsafe fn build(s: &mut Scene, k: usize) {
    let n = null_mut();
    match k {
        0 => {
            let a = s.boxb(0.6, 0.0, 0.1, 1.5, 0.5, 0.1, 0.2, 0.3);
            let j = dJointCreateHinge(s.w, n);
            s.attach(j, a, n);
            dJointSetHingeAnchor(j, 0.0, 0.0, 0.1);
            dJointSetHingeAxis(j, 0.1, 1.0, 0.2);
            dJointSetHingeParam(j, 2, 1.0);
            dJointSetHingeParam(j, 5, 1000.0);
            nudge(a, 0.01);
        }
        1 => {
            let a = s.boxb(0.0, 0.0, 1.0, 2.0, 0.3, 0.3, 0.3, 0.5);
            let b = s.boxb(0.1, 0.2, 0.5, 1.0, 0.2, 0.2, 0.6, -0.4);
            let j = dJointCreateHinge(s.w, n);
            s.attach(j, n, a);
            dJointSetHingeAnchor(j, 0.0, 0.0, 1.2);
            dJointSetHingeAxis(j, 1.0, 0.0, 0.3);
            dJointSetHingeParam(j, 2, -0.5);
            dJointSetHingeParam(j, 5, 1000.0);
            let j = dJointCreateHinge(s.w, n);
            s.attach(j, a, b);
            dJointSetHingeAnchor(j, 0.05, 0.1, 0.8);
            dJointSetHingeAxisOffset(j, 0.2, 1.0, -0.1, 0.3);
            dJointSetHingeParam(j, 2, 2.0);
            dJointSetHingeParam(j, 5, 1000.0);
            nudge(b, -0.02);
        }
        2 => {
            let a = s.boxb(0.0, 0.0, 0.0, 1.0, 0.3, 0.1, 0.1, 0.2);
            let b = s.boxb(0.3, 0.1, 0.0, 0.5, 0.3, 0.1, 0.1, 0.7);
            let c = s.boxb(0.6, 0.0, 0.1, 0.8, 0.3, 0.1, 0.1, -0.3);
            let j = dJointCreateBall(s.w, n);
            s.attach(j, a, n);
            dJointSetBallAnchor(j, -0.15, 0.0, 0.0);
            dJointSetBallParam(j, 13, 0.6);
            let j = dJointCreateBall(s.w, n);
            s.attach(j, a, b);
            dJointSetBallAnchor(j, 0.15, 0.05, 0.0);
            let j = dJointCreateBall(s.w, n);
            s.attach(j, b, c);
            dJointSetBallAnchor(j, 0.45, 0.05, 0.05);
            dJointSetBallParam(j, 8, 1e-3);
            let d = s.boxb(1.5, 0.5, 0.2, 0.6, 0.3, 0.2, 0.1, 0.5);
            let j = dJointCreateBall(s.w, n);
            s.attach(j, n, d);
            dJointSetBallAnchor(j, 1.6, 0.55, 0.25);
            dJointSetBallParam(j, 13, 0.7);
            nudge(b, 0.015);
            nudge(c, -0.01);
            nudge(d, 0.02);
        }
        3 => {
            let a = s.boxb(0.0, 0.0, 1.0, 1.2, 0.3, 0.2, 0.2, 0.3);
            let b = s.boxb(0.4, 0.3, 0.8, 0.6, 0.2, 0.2, 0.2, -0.2);
            let c = s.boxb(-1.0, 0.5, 0.5, 0.7, 0.2, 0.2, 0.2, 0.9);
            let j = dJointCreateSlider(s.w, n);
            s.attach(j, a, n);
            dJointSetSliderAxis(j, 0.3, 0.0, 1.0);
            dJointSetSliderParam(j, 2, -0.5);
            dJointSetSliderParam(j, 5, 1000.0);
            let j = dJointCreateSlider(s.w, n);
            s.attach(j, a, b);
            dJointSetSliderAxis(j, 1.0, 0.2, -0.3);
            let j = dJointCreateSlider(s.w, n);
            s.attach(j, n, c);
            dJointSetSliderAxisDelta(j, 0.0, 0.6, 0.8, 0.1, -0.05, 0.02);
            dJointSetSliderParam(j, 2, 0.7);
            dJointSetSliderParam(j, 5, 1000.0);
            nudge(a, 0.01);
            nudge(b, -0.01);
            nudge(c, 0.02);
        }
        4 => {
            let a = s.boxb(0.0, 0.0, 2.0, 1.0, 0.3, 0.4, 0.5, 0.4);
            let b = s.boxb(0.3, -0.2, 2.1, 0.5, 0.2, 0.2, 0.2, -0.6);
            let c = s.boxb(1.0, 1.0, 1.0, 0.9, 0.2, 0.3, 0.2, 1.1);
            let j = dJointCreateFixed(s.w, n);
            s.attach(j, a, n);
            dJointSetFixed(j);
            dJointSetFixedParam(j, 13, 0.5);
            let j = dJointCreateFixed(s.w, n);
            s.attach(j, a, b);
            dJointSetFixed(j);
            dJointSetFixedParam(j, 8, 1e-4);
            let j = dJointCreateFixed(s.w, n);
            s.attach(j, n, c);
            dJointSetFixed(j);
            nudge(a, 0.01);
            nudge(b, 0.02);
            nudge(c, -0.015);
        }
        5 => {
            let a = s.boxb(0.0, 0.0, 0.1, 1.0, 0.2, 0.2, 0.2, 0.0);
            let b = s.boxb(0.05, 0.0, 0.3, 0.5, 0.2, 0.2, 0.2, 0.0);
            let c = s.boxb(2.0, 0.0, 0.1, 0.8, 0.2, 0.2, 0.2, 0.0);
            s.contact(a, n, [0.02, -0.01, 0.0], [0.0, 0.0, 1.0], 0.01, dContactSoftERP);
            s.contact(b, a, [0.05, 0.02, 0.2], [0.0, 0.0, 1.0], 0.005, 0);
            s.contact(n, c, [2.01, 0.03, 0.0], [0.0, 0.0, -1.0], 0.003, dContactSoftCFM);
        }
        6 => {
            let a = s.boxb(0.5, 0.0, 0.0, 1.0, 0.4, 0.1, 0.1, 0.2);
            let j = dJointCreateHinge(s.w, n);
            s.attach(j, a, n);
            dJointSetHingeAnchor(j, 0.3, 0.0, 0.0);
            dJointSetHingeAxis(j, 0.0, 1.0, 0.0);
            dJointSetHingeParam(j, 1, -0.05);
            dJointSetHingeParam(j, 7, 0.4);
            dJointSetHingeParam(j, 9, 0.6);
            dJointSetHingeParam(j, 10, 1e-6);
            dJointSetHingeParam(j, 2, 2.0);
            dJointSetHingeParam(j, 5, 5.0);
            dBodySetAngularVel(a, 0.0, 1.5, 0.0);
            let b = s.boxb(1.0, 1.0, 1.0, 1.2, 0.2, 0.2, 0.2, 0.4);
            let j = dJointCreateSlider(s.w, n);
            s.attach(j, b, n);
            dJointSetSliderAxis(j, 0.1, 0.2, 1.0);
            dJointSetSliderParam(j, 0, 0.02);
            dJointSetSliderParam(j, 7, 0.5);
            dJointSetSliderParam(j, 2, -1.0);
            dJointSetSliderParam(j, 5, 3.0);
            dBodySetLinearVel(b, 0.0, 0.0, -1.0);
            let c = s.boxb(2.0, 0.0, 1.0, 1.0, 0.2, 0.2, 0.2, 0.1);
            let d = s.boxb(2.3, 0.1, 1.2, 0.5, 0.2, 0.2, 0.2, -0.3);
            let j = dJointCreateSlider(s.w, n);
            s.attach(j, c, d);
            dJointSetSliderAxis(j, 1.0, 0.0, 0.5);
            dJointSetSliderParam(j, 0, 0.0);
            dJointSetSliderParam(j, 1, 0.0);
            dJointSetSliderParam(j, 2, 1.0);
            dJointSetSliderParam(j, 5, 2.0);
            let e = s.boxb(3.0, 0.0, 1.0, 1.0, 0.3, 0.1, 0.1, 0.2);
            let f = s.boxb(3.4, 0.0, 1.0, 0.7, 0.3, 0.1, 0.1, 0.5);
            dBodySetGravityMode(e, 0);
            dBodySetGravityMode(f, 0);
            let j = dJointCreateHinge(s.w, n);
            s.attach(j, e, f);
            dJointSetHingeAnchor(j, 3.2, 0.0, 1.0);
            dJointSetHingeAxis(j, 0.0, 0.0, 1.0);
            dJointSetHingeParam(j, 1, -0.02);
            dJointSetHingeParam(j, 2, -1.0);
            dJointSetHingeParam(j, 5, 4.0);
            dJointSetHingeParam(j, 6, 0.3);
            dBodySetAngularVel(e, 0.0, 0.0, 2.5);
            dBodySetAngularVel(f, 0.0, 0.0, -2.5);
            let g = s.boxb(4.0, 0.0, 1.0, 0.9, 0.2, 0.2, 0.2, 0.3);
            let hh = s.boxb(4.3, 0.2, 0.9, 0.6, 0.2, 0.2, 0.2, -0.5);
            dBodySetGravityMode(g, 0);
            dBodySetGravityMode(hh, 0);
            let j = dJointCreateSlider(s.w, n);
            s.attach(j, g, hh);
            dJointSetSliderAxis(j, 1.0, 0.0, 0.5);
            dJointSetSliderParam(j, 1, -0.03);
            dJointSetSliderParam(j, 2, 1.0);
            dJointSetSliderParam(j, 5, 2.0);
            dBodySetLinearVel(g, 1.0, 0.0, 0.5);
            dBodySetLinearVel(hh, -1.0, 0.0, -0.5);
        }
        7 => {
            let a = s.boxb(0.0, 0.0, 0.1, 1.0, 0.2, 0.2, 0.2, 0.0);
            let b = s.boxb(0.02, 0.01, 0.3, 0.5, 0.2, 0.2, 0.2, 0.0);
            let c = s.boxb(2.0, 0.0, 0.1, 0.8, 0.2, 0.2, 0.2, 0.0);
            dBodySetLinearVel(a, 0.1, 0.2, -1.0);
            let mut k: dContact = std::mem::zeroed();
            k.surface.mode = dContactMu2
                | dContactFDir1
                | dContactApprox1
                | dContactMotion1
                | dContactMotion2
                | dContactMotionN
                | dContactSlip1
                | dContactSlip2
                | dContactBounce
                | dContactRolling
                | dContactSoftERP;
            k.surface.mu = 50.0;
            k.surface.mu2 = 40.0;
            k.surface.rho = 5.0;
            k.surface.rho2 = 4.0;
            k.surface.rhoN = 3.0;
            k.surface.bounce = 0.5;
            k.surface.bounce_vel = 0.1;
            k.surface.soft_erp = 0.4;
            k.surface.motion1 = 0.3;
            k.surface.motion2 = -0.2;
            k.surface.motionN = 0.05;
            k.surface.slip1 = 1e-3;
            k.surface.slip2 = 2e-3;
            k.geom.pos[0] = 0.01;
            k.geom.pos[1] = -0.01;
            k.geom.normal[2] = 1.0;
            k.geom.depth = 0.01;
            k.fdir1[0] = 0.6;
            k.fdir1[1] = 0.8;
            let j = dJointCreateContact(s.w, n, &k);
            s.attach(j, a, n);
            let mut k: dContact = std::mem::zeroed();
            k.surface.mode = dContactRolling | dContactSoftCFM;
            k.surface.mu = 100.0;
            k.surface.rho = 100.0;
            k.surface.soft_cfm = 1e-5;
            k.geom.pos[0] = 0.02;
            k.geom.pos[1] = 0.01;
            k.geom.pos[2] = 0.2;
            k.geom.normal[2] = 1.0;
            k.geom.depth = 0.004;
            let j = dJointCreateContact(s.w, n, &k);
            s.attach(j, b, a);
            let mut k: dContact = std::mem::zeroed();
            k.surface.mode = dContactAxisDep | dContactApprox1_2;
            k.surface.mu = 0.0;
            k.surface.mu2 = 30.0;
            k.geom.pos[0] = 2.0;
            k.geom.normal[2] = -1.0;
            k.geom.depth = 0.02;
            let j = dJointCreateContact(s.w, n, &k);
            s.attach(j, n, c);
        }
        _ => unreachable!(),
    }
}

/// Dense Gaussian elimination with partial pivoting.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs())).unwrap();
        a.swap(c, p);
        b.swap(c, p);
        for r in c + 1..n {
            let f = a[r][c] / a[c][c];
            for k in c..n {
                a[r][k] -= f * a[c][k];
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|k| a[r][k] * x[k]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    x
}

/// One dWorldStep velocity update with every row active.
fn step_velocities(s: &Scene) -> Vec<[f64; 6]> {
    let bodies: Vec<BodyRef> = s.bodies.iter().map(|&b| BODIES.check(b).unwrap()).collect();
    let world = BODIES.check(s.bodies[0]).unwrap().get().world.get();
    let g = world.gravity;
    // Rows, with the (up to two) body indices of each.
    let mut rows: Vec<(Row, [Option<usize>; 2])> = Vec::new();
    // Index of each row's joint's first row (for friction indices).
    let mut first = Vec::new();
    // Rows first: a powered joint at a stop adds to the accumulators, which
    // the right-hand side then includes (as in ODE).
    let ctx = RowCtx { fps: 1.0 / H, erp: world.erp, world };
    for jr in &s.joints {
        let Joint { head, kind } = jr.get_mut();
        let bs = bodies_of(head);
        let i1 = kind.info1(head, bs);
        let mut r = vec![Row::initial(world.cfm); i1.m];
        kind.info2(head, bs, &ctx, &mut r);
        kind.apply_body_push(head);
        let idx = head.body.map(|b| b.map(|b| bodies.iter().position(|x| *x == b).unwrap()));
        first.extend(std::iter::repeat_n(rows.len(), r.len()));
        rows.extend(r.into_iter().map(|row| (row, idx)));
    }
    // Per body: inverse mass, world inverse inertia, external force/torque.
    let mut inv = Vec::new();
    let mut fe = Vec::new();
    for b in &bodies {
        let b = b.get();
        let i_w = mul0_333(&b.r, &mul2_333(&b.mass.I, &b.r));
        let inv_i = mul0_333(&b.r, &mul2_333(&b.inv_i, &b.r));
        // ODE 0.16's implicit gyroscopic torque: (I·(I + h·[L]ₓᵀ)⁻¹ − 1)·L/h
        // with L = I·w.
        let l = mul0_331(&i_w, &b.avel);
        let mut m = i_w;
        let lx = cross_matrix(&l);
        for k in 0..12 {
            m[k] -= H * lx[k];
        }
        let mut kk = mul0_333(&i_w, &invert3(&m).unwrap());
        kk[0] -= 1.0;
        kk[5] -= 1.0;
        kk[10] -= 1.0;
        let t0 = mul0_331(&kk, &l);
        let gyro = [-t0[0] / H, -t0[1] / H, -t0[2] / H];
        let m = if b.flags & ode::dynamics::world::flags::NO_GRAVITY != 0 { 0.0 } else { b.mass.mass };
        let f = [b.facc[0] + m * g[0], b.facc[1] + m * g[1], b.facc[2] + m * g[2]];
        let t = [b.tacc[0] - gyro[0], b.tacc[1] - gyro[1], b.tacc[2] - gyro[2]];
        inv.push((b.inv_mass, inv_i));
        fe.push([f, t]);
    }
    let n = rows.len();
    // J_r as (body, lin, ang) blocks; M⁻¹ J_rᵀ likewise.
    let blocks = |r: &(Row, [Option<usize>; 2])| -> Vec<(usize, [f64; 3], [f64; 3])> {
        let mut v = Vec::new();
        if let Some(i) = r.1[0] {
            v.push((i, r.0.j1l, r.0.j1a));
        }
        if let Some(i) = r.1[1] {
            v.push((i, r.0.j2l, r.0.j2a));
        }
        v
    };
    let dot = |a: &[f64; 3], b: &[f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let minv = |i: usize, l: &[f64; 3], a: &[f64; 3]| -> ([f64; 3], [f64; 3]) {
        let (im, ii) = &inv[i];
        ([im * l[0], im * l[1], im * l[2]], mul0_331(ii, a))
    };
    let mut a = vec![vec![0.0; n]; n];
    let mut rhs = vec![0.0; n];
    for r in 0..n {
        for (i, l, an) in blocks(&rows[r]) {
            let (ml, ma) = minv(i, &l, &an);
            for c in 0..n {
                for (k, l2, a2) in blocks(&rows[c]) {
                    if k == i {
                        a[r][c] += dot(&ml, &l2) + dot(&ma, &a2);
                    }
                }
            }
        }
        a[r][r] += rows[r].0.cfm / H;
        let mut jv = 0.0;
        for (i, l, an) in blocks(&rows[r]) {
            let b = bodies[i].get();
            let (mf, mt) = minv(i, &fe[i][0], &fe[i][1]);
            let v = [b.lvel[0] / H + mf[0], b.lvel[1] / H + mf[1], b.lvel[2] / H + mf[2]];
            let w = [b.avel[0] / H + mt[0], b.avel[1] / H + mt[1], b.avel[2] / H + mt[2]];
            jv += dot(&l, &v) + dot(&an, &w);
        }
        rhs[r] = rows[r].0.c / H - jv;
    }
    let lambda = solve(a, rhs);
    for (i, (r, l)) in rows.iter().zip(&lambda).enumerate() {
        let (lo, hi) = if r.0.findex >= 0 {
            let ln = lambda[first[i] + r.0.findex as usize].abs();
            (r.0.lo * ln, r.0.hi * ln)
        } else {
            (r.0.lo, r.0.hi)
        };
        assert!(*l >= lo && *l <= hi, "row {i} force {l} outside [{lo}, {hi}]: scene invalid");
    }
    let mut out = Vec::new();
    for (i, b) in bodies.iter().enumerate() {
        let mut f = fe[i];
        for (r, l) in rows.iter().zip(&lambda) {
            for (k, lin, ang) in blocks(r) {
                if k == i {
                    for d in 0..3 {
                        f[0][d] += lin[d] * l;
                        f[1][d] += ang[d] * l;
                    }
                }
            }
        }
        let (dv, dw) = minv(i, &f[0], &f[1]);
        let b = b.get();
        out.push([
            b.lvel[0] + H * dv[0],
            b.lvel[1] + H * dv[1],
            b.lvel[2] + H * dv[2],
            b.avel[0] + H * dw[0],
            b.avel[1] + H * dw[1],
            b.avel[2] + H * dw[2],
        ]);
    }
    out
}

unsafe fn run() -> String {
    let mut out = String::new();
    for k in 0..8 {
        let w = dWorldCreate();
        dWorldSetGravity(w, 0.5, -0.3, -9.81);
        dWorldSetERP(w, 0.3);
        dWorldSetCFM(w, 1e-8);
        dWorldSetContactMaxCorrectingVel(w, 0.4);
        dWorldSetContactSurfaceLayer(w, 0.002);
        let mut s = Scene { w, bodies: Vec::new(), joints: Vec::new() };
        build(&mut s, k);
        for (i, v) in step_velocities(&s).iter().enumerate() {
            writeln!(out, "scene {k} body {i} v {:?} {:?} {:?} w {:?} {:?} {:?}", v[0], v[1], v[2], v[3], v[4], v[5])
                .unwrap();
        }
        for j in &s.joints {
            JOINTS.free(*j);
        }
        dWorldDestroy(w);
    }
    out
}

#[test]
fn one_step_with_our_rows_matches_ode() {
    require_reference();
    let bin = build_c("diff_joint_basic_one_step", &["diff_joint_basic_one_step.c"], Headers::Debian, &[]);
    let reference = run_ok(&bin, Lib::Debian, &[]);
    let ours = unsafe { run() };
    let worst = compare_traces(&ours, &reference, 1e-10, 1e-13);
    eprintln!("worst relative difference {worst:e}");
}
