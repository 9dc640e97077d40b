//! `dJointCreateContact` first tests sums of the contact's values and only
//! runs the exact field-by-field test when a sum is not finite (or NaN). The
//! rule itself is unchanged (README, "Exact mode, one thread"): a valid
//! contact whose sums overflow or meet +inf and -inf must still be
//! accepted without a report, and every invalid one refused with one
//! report naming the field. Dead-joint use after the group is emptied is
//! refused too (the handle's tag).
use ode::ffi::decl::contact::*;
use ode::ffi::objects_body::dBodyCreate;
use ode::ffi::objects_contact::dJointCreateContact;
use ode::ffi::objects_joint::*;
use ode::ffi::objects_world::{dWorldCreate, dWorldDestroy};
use std::ffi::{c_char, c_int, c_void};
use std::sync::atomic::{AtomicUsize, Ordering};

static REFUSED: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn on_debug(_num: c_int, _fmt: *const c_char, _ap: *mut c_void) {
    REFUSED.fetch_add(1, Ordering::Relaxed);
}

fn base() -> dContact {
    // Every field set: none of the cases below depends on leftover bits.
    let mut c: dContact = unsafe { std::mem::zeroed() };
    c.surface.mode = dContactApprox1 as c_int;
    c.surface.mu = 0.7;
    c.geom.normal = [0.0, 0.0, 1.0, 0.0];
    c.geom.depth = 0.01;
    c
}

#[test]
fn sums_only_pick_the_exact_test_never_the_answer() {
    unsafe {
        ode::ffi::error::dSetDebugHandler(Some(on_debug));
        let w = dWorldCreate();
        let (b1, b2) = (dBodyCreate(w), dBodyCreate(w));
        let g = dJointGroupCreate(0);

        // (what, change, accepted?)
        type Edit = fn(&mut dContact);
        let cases: Vec<(&str, Edit, bool)> = vec![
            ("plain", |_| {}, true),
            ("mu = +inf", |c| c.surface.mu = f64::INFINITY, true),
            // Unused parameters: +inf and -inf sum to NaN, NaN itself is
            // ignored as ODE ignores it.
            ("unused +inf/-inf", |c| (c.surface.mu2, c.surface.bounce) = (f64::INFINITY, f64::NEG_INFINITY), true),
            ("unused NaN", |c| c.surface.slip2 = f64::NAN, true),
            ("mu +inf, unused mu2 -inf", |c| (c.surface.mu, c.surface.mu2) = (f64::INFINITY, f64::NEG_INFINITY), true),
            // Finite values whose sum overflows.
            ("huge position", |c| c.geom.pos = [f64::MAX, f64::MAX, 0.0, 0.0], true),
            (
                "huge fdir1",
                |c| {
                    c.surface.mode |= dContactFDir1 as c_int;
                    c.fdir1 = [f64::MAX, f64::MAX, 0.0, 0.0];
                },
                true,
            ),
            ("unused fdir1 NaN", |c| c.fdir1 = [f64::NAN; 4], true),
            // Refused.
            ("mu NaN", |c| c.surface.mu = f64::NAN, false),
            (
                "used mu2 NaN",
                |c| {
                    c.surface.mode |= dContactMu2 as c_int;
                    c.surface.mu2 = f64::NAN;
                },
                false,
            ),
            (
                "used soft_cfm NaN beside +inf mu",
                |c| {
                    c.surface.mode |= dContactSoftCFM as c_int;
                    (c.surface.mu, c.surface.soft_cfm) = (f64::INFINITY, f64::NAN);
                },
                false,
            ),
            // With a rolling, motion or slip bit the sums take another
            // path: the same answers.
            (
                "used slip1 NaN",
                |c| {
                    c.surface.mode |= dContactSlip1 as c_int;
                    c.surface.slip1 = f64::NAN;
                },
                false,
            ),
            (
                "used rhoN NaN",
                |c| {
                    c.surface.mode |= dContactRolling as c_int;
                    c.surface.rhoN = f64::NAN;
                },
                false,
            ),
            (
                "used mu2 NaN beside slip2",
                |c| {
                    c.surface.mode |= (dContactMu2 | dContactSlip2) as c_int;
                    c.surface.mu2 = f64::NAN;
                },
                false,
            ),
            (
                "used motionN +inf, unused slip1 NaN",
                |c| {
                    c.surface.mode |= dContactMotionN as c_int;
                    (c.surface.motionN, c.surface.slip1) = (f64::INFINITY, f64::NAN);
                },
                true,
            ),
            (
                "unused rho NaN beside motion1",
                |c| {
                    c.surface.mode |= dContactMotion1 as c_int;
                    c.surface.rho = f64::NAN;
                },
                true,
            ),
            ("pos inf", |c| c.geom.pos[1] = f64::INFINITY, false),
            ("normal NaN", |c| c.geom.normal[2] = f64::NAN, false),
            ("depth -inf", |c| c.geom.depth = f64::NEG_INFINITY, false),
            (
                "used fdir1 inf",
                |c| {
                    c.surface.mode |= dContactFDir1 as c_int;
                    c.fdir1[0] = f64::INFINITY;
                },
                false,
            ),
        ];
        for (what, edit, ok) in cases {
            let mut c = base();
            edit(&mut c);
            let before = REFUSED.load(Ordering::Relaxed);
            let j = dJointCreateContact(w, g, &c);
            let reports = REFUSED.load(Ordering::Relaxed) - before;
            if ok {
                assert!(!j.is_null(), "{what}: refused");
                assert_eq!(reports, 0, "{what}: reported");
                dJointAttach(j, b1, b2);
                assert_eq!(REFUSED.load(Ordering::Relaxed) - before, 0, "{what}: attach reported");
                assert_eq!(dJointGetBody(j, 0), b1);
                assert_eq!(dJointGetBody(j, 1), b2);
            } else {
                assert!(j.is_null(), "{what}: accepted");
                assert_eq!(reports, 1, "{what}: one report");
            }
        }

        // The inlined attach of a fresh contact still refuses what
        // `check_attach` refuses, and re-attaching takes the general path.
        let j = dJointCreateContact(w, g, &base());
        let before = REFUSED.load(Ordering::Relaxed);
        dJointAttach(j, b1, b1);
        assert_eq!(REFUSED.load(Ordering::Relaxed) - before, 1, "same body twice");
        assert_eq!(dJointGetNumBodies(j), 0, "a refused attach changes nothing");
        dJointAttach(j, std::ptr::null_mut(), b2);
        assert_eq!(dJointGetBody(j, 0), std::ptr::null_mut());
        assert_eq!(dJointGetBody(j, 1), b2);
        dJointAttach(j, b2, b1);
        assert_eq!((dJointGetBody(j, 0), dJointGetBody(j, 1)), (b2, b1));
        let w2 = dWorldCreate();
        let other = dBodyCreate(w2);
        let k = dJointCreateContact(w, g, &base());
        dJointAttach(k, b1, other);
        assert_eq!(REFUSED.load(Ordering::Relaxed) - before, 2, "body of another world");
        assert_eq!(dJointGetNumBodies(k), 0);

        // Emptying the group kills its joints: their handles are refused.
        dJointGroupEmpty(g);
        let before = REFUSED.load(Ordering::Relaxed);
        dJointAttach(j, b1, b2);
        assert_eq!(REFUSED.load(Ordering::Relaxed) - before, 1, "destroyed joint");

        dJointGroupDestroy(g);
        dWorldDestroy(w2);
        dWorldDestroy(w);
        ode::ffi::error::dSetDebugHandler(None);
    }
}
