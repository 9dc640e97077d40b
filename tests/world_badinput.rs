//! Rejected dWorld* calls: each is reported once on the debug channel,
//! returns the neutral value and changes nothing (ODE would abort on most
//! of them, so there is no reference to compare with). Also the working
//! memory rules ODE enforces (sharing into a world that has its own).

use ode::error::report_count;
use ode::ffi::objects_world::*;
use std::ptr::null_mut;

/// Runs `f` and asserts it made exactly `n` reports.
fn reports<R>(n: u64, what: &str, f: impl FnOnce() -> R) -> R {
    let before = report_count();
    let r = f();
    assert_eq!(report_count() - before, n, "{what}: wrong number of reports");
    r
}

#[test]
fn bad_world_calls_are_rejected_without_effect() {
    unsafe {
        let w = dWorldCreate();
        let dead = dWorldCreate();
        dWorldDestroy(dead);
        let mut g = [9.0; 4];

        reports(1, "null world", || dWorldSetGravity(null_mut(), 0.0, 0.0, -1.0));
        reports(1, "destroyed world", || dWorldSetGravity(dead, 0.0, 0.0, -1.0));
        reports(1, "NaN gravity", || dWorldSetGravity(w, 0.0, f64::NAN, -1.0));
        reports(0, "get gravity", || dWorldGetGravity(w, g.as_mut_ptr()));
        assert_eq!(&g[..3], &[0.0, 0.0, 0.0]);
        reports(1, "null out", || dWorldGetGravity(w, null_mut()));
        assert_eq!(reports(1, "get erp of null", || dWorldGetERP(null_mut())), 0.0);
        reports(1, "NaN erp", || dWorldSetERP(w, f64::NAN));
        assert_eq!(dWorldGetERP(w), 0.2);
        reports(1, "inf cfm", || dWorldSetCFM(w, f64::INFINITY));
        assert_eq!(dWorldGetCFM(w), 1e-10);
        reports(1, "NaN damping", || dWorldSetDamping(w, 0.1, f64::NAN));
        assert_eq!((dWorldGetLinearDamping(w), dWorldGetAngularDamping(w)), (0.0, 0.0));
        reports(1, "NaN max speed", || dWorldSetMaxAngularSpeed(w, f64::NAN));
        assert!(dWorldGetMaxAngularSpeed(w).is_infinite());
        reports(0, "inf max speed", || dWorldSetMaxAngularSpeed(w, f64::INFINITY));
        reports(1, "NaN threshold", || dWorldSetAutoDisableLinearThreshold(w, f64::NAN));
        assert_eq!(dWorldGetAutoDisableLinearThreshold(w), 0.01);
        reports(1, "huge sample count", || dWorldSetAutoDisableAverageSamplesCount(w, u32::MAX));
        assert_eq!(dWorldGetAutoDisableAverageSamplesCount(w), 1);
        reports(1, "null force", || dWorldImpulseToForce(w, 0.01, 1.0, 2.0, 3.0, null_mut()));
        reports(1, "zero stepsize", || dWorldImpulseToForce(w, 0.0, 1.0, 2.0, 3.0, g.as_mut_ptr()));

        for h in [0.0, -0.01, f64::NAN, f64::INFINITY] {
            assert_eq!(reports(1, "bad stepsize", || dWorldStep(w, h)), 0);
            assert_eq!(reports(1, "bad stepsize", || dWorldQuickStep(w, h)), 0);
        }
        assert_eq!(reports(1, "step dead world", || dWorldStep(dead, 0.01)), 0);

        // Working memory: a fresh world may share another's; one that
        // already has its own (here: allocated by stepping) may not.
        let w2 = dWorldCreate();
        let w3 = dWorldCreate();
        assert_eq!(dWorldUseSharedWorkingMemory(w2, w3), 1);
        assert_eq!(reports(1, "share twice", || dWorldUseSharedWorkingMemory(w2, w3)), 0);
        assert_eq!(dWorldUseSharedWorkingMemory(w2, null_mut()), 1);
        assert_eq!(dWorldUseSharedWorkingMemory(w2, w3), 1);
        assert_eq!(reports(0, "step", || dWorldStep(w, 0.01)), 1);
        assert_eq!(reports(1, "share into stepped world", || dWorldUseSharedWorkingMemory(w, w3)), 0);
        assert_eq!(reports(1, "share from dead", || dWorldUseSharedWorkingMemory(w2, dead)), 0);

        let bad = dWorldStepReserveInfo { struct_size: 12, reserve_factor: 0.5, reserve_minimum: 10 };
        let small = dWorldStepReserveInfo { struct_size: 4, reserve_factor: 2.0, reserve_minimum: 10 };
        let good = dWorldStepReserveInfo { struct_size: 12, reserve_factor: 1.0, reserve_minimum: 10 };
        assert_eq!(reports(1, "factor < 1", || dWorldSetStepMemoryReservationPolicy(w, &bad)), 0);
        assert_eq!(reports(1, "short struct", || dWorldSetStepMemoryReservationPolicy(w, &small)), 0);
        assert_eq!(reports(0, "good policy", || dWorldSetStepMemoryReservationPolicy(w3, &good)), 1);
        let mf =
            dWorldStepMemoryFunctionsInfo { struct_size: 4, alloc_block: None, shrink_block: None, free_block: None };
        assert_eq!(reports(1, "short memfuncs", || dWorldSetStepMemoryManager(w, &mf)), 0);

        let fake = [8u32; 32];
        let fp = fake.as_ptr() as *const std::ffi::c_void;
        reports(1, "short threading info", || dWorldSetStepThreadingImplementation(w, fp.cast(), fp as *mut _));
        let mut big = [0u32; 32];
        big[0] = 104;
        let bp = big.as_ptr() as *const std::ffi::c_void;
        reports(1, "impl without info", || dWorldSetStepThreadingImplementation(w, std::ptr::null(), bp as *mut _));
        reports(0, "info and impl", || dWorldSetStepThreadingImplementation(w, bp.cast(), bp as *mut _));
        reports(0, "reset threading", || dWorldSetStepThreadingImplementation(w, std::ptr::null(), null_mut()));

        reports(1, "destroy dead", || dWorldDestroy(dead));
        dWorldDestroy(w3);
        dWorldDestroy(w2);
        dWorldDestroy(w);
    }
}
