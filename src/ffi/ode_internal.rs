//! Functions Debian's `libode.so.8` exports although no installed header
//! declares them, kept for programs that call them anyway (ODE's own
//! `demo_ode` calls `dTestSolveLCP`):
//! - `dGeomMoved`, `dGeomGetBodyNext`: ODE's internal geom calls;
//! - `dTestSolveLCP`, `dTestDataStructures`: ODE's self-tests, run on our
//!   LCP solver and our world/body/joint bookkeeping, printing what ODE's
//!   print;
//! - `Rand`, `SRand`, `Alignment`, `InitOpcode`, `CloseOpcode`: OPCODE's
//!   C-named utilities, with their trivial meaning.
//!
//! Not exported: the `g_*` globals (ODE's C++ memory-manager and collider
//! cache objects, whose layout means nothing outside ODE's own code).
#![allow(non_snake_case)]

use super::types::*;
use super::{call, misc, objects_ball, objects_body, objects_joint, objects_world};
use crate::math::random;
use std::ffi::{c_int, c_uint, c_void};

#[no_mangle]
pub unsafe extern "C" fn dGeomMoved(geom: dGeomID) {
    call("dGeomMoved", (), |cx| {
        let h = super::collision::geom_arg(cx, geom, "geom")?;
        crate::collision::geom::moved(h);
        Some(())
    })
}

/// The next geom attached to the same body (null at the end or without a
/// body), as `dBodyGetNextGeom`.
#[no_mangle]
pub unsafe extern "C" fn dGeomGetBodyNext(geom: dGeomID) -> dGeomID {
    call("dGeomGetBodyNext", std::ptr::null_mut(), |cx| {
        let h = super::collision::geom_arg(cx, geom, "geom")?;
        Some(crate::collision::geom::body_next(h).map_or(std::ptr::null_mut(), |n| n.as_raw()))
    })
}

/// ODE's LCP self-test: 1000 random positive definite problems of size
/// 100 (50 unbounded variables, random finite bounds on the others) drawn
/// from ODE's generator in ODE's order, solved, checked (A·x = b + w within
/// 1e-9, and each variable at its low bound with w ≥ 0, at its high bound
/// with w ≤ 0, or between with w = 0), with ODE's one-line report each.
/// A failed check is reported on the debug channel, as ODE does. Returns 1.
#[no_mangle]
pub unsafe extern "C" fn dTestSolveLCP() -> c_int {
    call("dTestSolveLCP", 0, |_| Some(test_solve_lcp()))
}

fn test_solve_lcp() -> c_int {
    use crate::solver::lcp::{solve_lcp, LcpScratch};
    const N: usize = 100;
    const NUB: usize = 50;
    const TOL: f64 = 1e-9;
    let s = crate::math::matrix::pad(N);
    let mut a = vec![0.0; N * s];
    let mut a2 = vec![0.0; N * s];
    let (mut x, mut b, mut w, mut lo, mut hi) = (vec![0.0; N], vec![0.0; N], vec![0.0; N], vec![0.0; N], vec![0.0; N]);
    let (mut xs, mut bs, mut los, mut his) = (vec![0.0; N], vec![0.0; N], vec![0.0; N], vec![0.0; N]);
    let (mut tmp1, mut tmp2) = (vec![0.0; N], vec![0.0; N]);
    let mut sc = LcpScratch::default();
    let n = N as c_int;
    c_print("dTestSolveLCP()\n");
    let mut total = 0.0f64;
    for count in 0..1000 {
        // SAFETY: the buffers have the padded sizes the functions expect.
        unsafe {
            misc::dMakeRandomMatrix(a2.as_mut_ptr(), n, n, 1.0);
            super::matrix::dMultiply2(a.as_mut_ptr(), a2.as_ptr(), a2.as_ptr(), n, n, n);
            misc::dMakeRandomMatrix(x.as_mut_ptr(), n, 1, 1.0);
            super::matrix::dMultiply0(b.as_mut_ptr(), a.as_ptr(), x.as_ptr(), n, n, 1);
        }
        for v in b.iter_mut() {
            *v += random::rand_real() * 0.2 - 0.1;
        }
        for i in 0..NUB {
            lo[i] = f64::NEG_INFINITY;
            hi[i] = f64::INFINITY;
        }
        for v in lo[NUB..].iter_mut() {
            *v = -(random::rand_real() * 1.0) - 0.01;
        }
        for v in hi[NUB..].iter_mut() {
            *v = random::rand_real() * 1.0 + 0.01;
        }
        // The solver works on copies (it permutes and overwrites), with the
        // upper triangle cleared so that reading it would show.
        a2.copy_from_slice(&a);
        // SAFETY: as above.
        unsafe { misc::dClearUpperTriangle(a2.as_mut_ptr(), n) };
        bs.copy_from_slice(&b);
        los.copy_from_slice(&lo);
        his.copy_from_slice(&hi);
        xs.fill(0.0);
        w.fill(0.0);
        let t0 = std::time::Instant::now();
        solve_lcp(N, &mut a2, &mut xs, &mut bs, Some(&mut w), NUB, &mut los, &mut his, None, &mut sc);
        let time = t0.elapsed().as_secs_f64();
        total += time;
        let average = total / (count + 1) as f64 * 1000.0;
        // SAFETY: as above.
        let diff = unsafe {
            super::matrix::dMultiply0(tmp1.as_mut_ptr(), a.as_ptr(), xs.as_ptr(), n, n, 1);
            for i in 0..N {
                tmp2[i] = b[i] + w[i];
            }
            misc::dMaxDifference(tmp1.as_ptr(), tmp2.as_ptr(), n, 1)
        };
        if diff > TOL {
            debug(&format!("A*x = b+w, maximum difference = {}", c_exp6(diff)));
        }
        let (mut n1, mut n2, mut n3) = (0, 0, 0);
        for i in 0..N {
            if xs[i] == lo[i] && w[i] >= 0.0 {
                n1 += 1;
            } else if xs[i] == hi[i] && w[i] <= 0.0 {
                n2 += 1;
            } else if xs[i] >= lo[i] && xs[i] <= hi[i] && w[i] == 0.0 {
                n3 += 1;
            } else {
                debug(&format!(
                    "FAILED: i={i} x={} w={} lo={} hi={}",
                    c_exp4(xs[i]),
                    c_exp4(w[i]),
                    c_exp4(lo[i]),
                    c_exp4(hi[i])
                ));
            }
        }
        c_print(&format!(
            "passed: NL={n1:3} NH={n2:3} C={n3:3}   time={:10.3} ms  avg={average:10.4}\n",
            time * 1000.0
        ));
    }
    1
}

/// Writes through C's stdio, so that the text stays in order with the
/// host's own printf output (they share C's stdout buffer).
fn c_print(text: &str) {
    if let Ok(t) = std::ffi::CString::new(text) {
        // SAFETY: a NUL-terminated string and a constant "%s" format.
        unsafe { printf(c"%s".as_ptr(), t.as_ptr()) };
    }
}

/// ODE's `dDebug(0, ...)` from inside the library: the debug channel.
fn debug(text: &str) {
    crate::error::report(crate::error::Channel::Debug, 0, text);
}

/// printf's "%.4e".
fn c_exp4(v: f64) -> String {
    let mut s = String::new();
    let _ = crate::error::write_c_exp4(&mut s, v);
    s
}

/// printf's "%.6e".
fn c_exp6(v: f64) -> String {
    let t = format!("{v:.6e}");
    // Rust writes 1.5e-7; C writes 1.500000e-07.
    match t.split_once('e') {
        Some((m, e)) => {
            let (sign, digits) = if let Some(d) = e.strip_prefix('-') { ('-', d) } else { ('+', e) };
            format!("{m}e{sign}{digits:0>2}")
        }
        None => t,
    }
}

/// ODE's data-structure self-test: an endless random sequence (drawn from
/// ODE's generator in ODE's order) of body creations, ball-joint creations
/// and attachments, re-attachments, and body and joint destructions in one
/// world, the world's bookkeeping checked after each change; an
/// inconsistency is reported on the debug channel. Like ODE's, it never
/// returns.
#[no_mangle]
pub unsafe extern "C" fn dTestDataStructures() {
    call("dTestDataStructures", (), |_| {
        test_data_structures();
        Some(())
    })
}

fn test_data_structures() {
    const NUM: usize = 100;
    let mut body: Vec<dBodyID> = Vec::with_capacity(NUM);
    let mut joint: Vec<dJointID> = Vec::with_capacity(NUM);
    // SAFETY: every handle passed was made here and is alive.
    unsafe {
        let w = objects_world::dWorldCreate();
        check_world(&body, &joint);
        loop {
            if body.len() < NUM && random::rand_real() > 0.5 {
                body.push(objects_body::dBodyCreate(w));
                check_world(&body, &joint);
            }
            if joint.len() < NUM && body.len() > 2 && random::rand_real() > 0.5 {
                let b1 = body[random::rand() as usize % body.len()];
                let b2 = body[random::rand() as usize % body.len()];
                if b1 != b2 {
                    let j = objects_ball::dJointCreateBall(w, std::ptr::null_mut());
                    check_world(&body, &joint);
                    objects_joint::dJointAttach(j, b1, b2);
                    joint.push(j);
                    check_world(&body, &joint);
                }
            }
            if !joint.is_empty() && body.len() > 2 && random::rand_real() > 0.5 {
                let b1 = body[random::rand() as usize % body.len()];
                let b2 = body[random::rand() as usize % body.len()];
                if b1 != b2 {
                    let k = random::rand() as usize % joint.len();
                    objects_joint::dJointAttach(joint[k], b1, b2);
                    check_world(&body, &joint);
                }
            }
            if !body.is_empty() && random::rand_real() > 0.5 {
                let k = random::rand() as usize % body.len();
                objects_body::dBodyDestroy(body.remove(k));
                check_world(&body, &joint);
            }
            if !joint.is_empty() && random::rand_real() > 0.5 {
                let k = random::rand() as usize % joint.len();
                objects_joint::dJointDestroy(joint.remove(k));
                check_world(&body, &joint);
            }
        }
    }
}

/// Every joint's bodies are live bodies of the test (or none), distinct,
/// and each body lists exactly the joints attached to it.
unsafe fn check_world(body: &[dBodyID], joint: &[dJointID]) {
    for &j in joint {
        let (b0, b1) = (objects_joint::dJointGetBody(j, 0), objects_joint::dJointGetBody(j, 1));
        for b in [b0, b1] {
            if !b.is_null() && !body.contains(&b) {
                debug("bad body pointer in joint");
            }
        }
        if !b0.is_null() && b0 == b1 {
            debug("non-distinct body pointers in joint");
        }
    }
    for &b in body {
        let n = objects_body::dBodyGetNumJoints(b);
        let attached = joint
            .iter()
            .filter(|&&j| objects_joint::dJointGetBody(j, 0) == b || objects_joint::dJointGetBody(j, 1) == b)
            .count();
        if n as usize != attached {
            debug("joint not in joint list of attached body");
        }
        for i in 0..n {
            if !joint.contains(&objects_body::dBodyGetJoint(b, i)) {
                debug("bad joint node pointer in body");
            }
        }
    }
}

/// OPCODE's `SRand`: seeds the C library's `rand`.
#[no_mangle]
pub unsafe extern "C" fn SRand(seed: c_uint) {
    srand(seed)
}

/// OPCODE's `Rand`: the C library's `rand`.
#[no_mangle]
pub unsafe extern "C" fn Rand() -> c_uint {
    rand() as c_uint
}

/// OPCODE's `Alignment`: the largest power of two (up to 2^31) dividing a
/// 32-bit address; 0 for 0.
#[no_mangle]
pub extern "C" fn Alignment(address: c_uint) -> c_uint {
    if address == 0 {
        0
    } else {
        1 << address.trailing_zeros()
    }
}

/// OPCODE's abort handler, kept as OPCODE keeps it (nothing calls it).
static OPCODE_ABORT: std::sync::atomic::AtomicPtr<c_void> = std::sync::atomic::AtomicPtr::new(std::ptr::null_mut());

/// OPCODE's `InitOpcode(handler)`: stores the handler; true.
#[no_mangle]
pub extern "C" fn InitOpcode(abort_handler: *mut c_void) -> bool {
    OPCODE_ABORT.store(abort_handler, std::sync::atomic::Ordering::Relaxed);
    true
}

/// OPCODE's `CloseOpcode()`: true.
#[no_mangle]
pub extern "C" fn CloseOpcode() -> bool {
    true
}

extern "C" {
    fn printf(fmt: *const std::ffi::c_char, ...) -> c_int;
    fn srand(seed: c_uint);
    fn rand() -> c_int;
}
