//! The C entry points reject bad arguments (reporting them on the debug
//! channel) without touching their outputs, where ODE would abort or
//! corrupt memory.
use ode::error::report_count;
use ode::ffi::mass::*;
use ode::ffi::matrix::*;
use ode::ffi::misc::*;
use ode::math::mass::Mass;
use std::sync::Mutex;

// report_count is global: run the counting tests one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

fn rejected(f: impl FnOnce()) {
    let before = report_count();
    f();
    assert_eq!(report_count(), before + 1, "the call should have been reported once");
}

#[test]
fn matrix_calls_with_bad_sizes_change_nothing() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut a = [1.0f64; 16];
    let mut d = [2.0f64; 4];
    unsafe {
        rejected(|| dSetZero(a.as_mut_ptr(), -1));
        rejected(|| dFactorLDLT(a.as_mut_ptr(), d.as_mut_ptr(), 3, 2));
        rejected(|| dFactorLDLT(a.as_mut_ptr(), a.as_mut_ptr().add(4), 3, 4)); // outputs overlap
        rejected(|| dSolveL1(a.as_ptr(), d.as_mut_ptr(), 0, 4));
        rejected(|| dRemoveRowCol(a.as_mut_ptr(), 3, 4, 3));
        rejected(|| dMultiply0(a.as_mut_ptr(), a.as_ptr(), a.as_ptr(), 0, 1, 1));
        assert_eq!(dFactorCholesky(std::ptr::null_mut(), 2), 0);
        let mut rows = [a.as_mut_ptr(); 4];
        let p = [0, 5, 1, 2];
        rejected(|| dLDLTRemove(rows.as_mut_ptr(), p.as_ptr(), a.as_mut_ptr(), d.as_mut_ptr(), 4, 4, 0, 4));
        assert!(a.iter().all(|&x| x == 1.0) && d.iter().all(|&x| x == 2.0));
        // n = 0 is a legal no-op where ODE allows it.
        let before = report_count();
        dSetZero(std::ptr::null_mut(), 0);
        dFactorLDLT(a.as_mut_ptr(), d.as_mut_ptr(), 0, 0);
        assert_eq!(dDot(a.as_ptr(), a.as_ptr(), 0), 0.0);
        assert_eq!(report_count(), before);
    }
}

#[test]
fn aliased_inputs_are_read_before_writing() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // dInvertPDMatrix(A, A, n) works in ODE (A is copied first).
    let mut a = [4.0, 1.0, 0.0, 0.0, 1.0, 3.0, 0.0, 0.0];
    unsafe { assert_eq!(dInvertPDMatrix(a.as_ptr(), a.as_mut_ptr(), 2), 1) };
    let det = 11.0;
    let expect = [3.0 / det, -1.0 / det, 0.0, 0.0, -1.0 / det, 4.0 / det, 0.0, 0.0];
    for (x, e) in a.iter().zip(expect) {
        assert!((x - e).abs() < 1e-15);
    }
    // dScaleVector(a, a, n) squares a.
    let mut v = [1.0, -2.0, 3.0, 0.5, 7.0];
    unsafe { dScaleVector(v.as_mut_ptr(), v.as_ptr(), 5) };
    assert_eq!(v, [1.0, 4.0, 9.0, 0.25, 49.0]);
}

#[test]
fn mass_calls_with_bad_arguments_change_nothing() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let mut m = Mass::default();
    unsafe {
        dMassSetBox(&mut m, 1.0, 1.0, 2.0, 3.0);
        let before = m;
        rejected(|| dMassSetCapsule(&mut m, 1.0, 0, 1.0, 1.0));
        rejected(|| dMassSetCylinderTotal(&mut m, 1.0, 4, 1.0, 1.0));
        rejected(|| dMassSetCappedCylinderTotal(&mut m, 1.0, -1, 1.0, 1.0));
        rejected(|| dMassSetSphere(&mut m, f64::NAN, 1.0));
        rejected(|| dMassTranslate(&mut m, 0.0, f64::INFINITY, 0.0));
        let mut r = [0.0; 12];
        r[0] = f64::NAN;
        rejected(|| dMassRotate(&mut m, r.as_ptr()));
        rejected(|| dMassSetZero(std::ptr::null_mut()));
        assert_eq!(m, before);
        // Self-addition doubles the mass, as in ODE.
        dMassAdd(&mut m, &m);
        assert_eq!(m.mass, 2.0 * before.mass);
        assert_eq!(m.I[0], 2.0 * before.I[0]);
    }
}

#[test]
fn rand_int_matches_known_ode_values() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // Values printed by Debian's libode8 after dRandSetSeed(12345), drawing
    // eight values each for n = 1, 2 and 3 in turn.
    unsafe {
        dRandSetSeed(12345);
        let got: Vec<i32> = (0..8).map(|_| dRandInt(1)).collect();
        assert_eq!(got, [0; 8]);
        let got: Vec<i32> = (0..8).map(|_| dRandInt(2)).collect();
        assert_eq!(got, [0, 0, 0, 1, 1, 1, 0, 1]);
        let got: Vec<i32> = (0..8).map(|_| dRandInt(3)).collect();
        assert_eq!(got, [1, 2, 0, 1, 0, 1, 1, 0]);
    }
}
