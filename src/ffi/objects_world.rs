//! extern "C" functions of objects.h for worlds (`dWorld*`).
//!
//! Values ODE accepts are accepted, except NaN (and infinity where it has
//! no meaning), which is reported and ignored. Squared thresholds are
//! stored as ODE stores them, so getters return |value|.

use super::{call, dReal, dThreadingImplementationID, dWorldID, write_reals, Cx};
use crate::dynamics::world::{self as wm, WorldRef, WORLDS};
use crate::pipeline;
use std::ffi::{c_int, c_uint, c_void};

pub use super::decl::objects::{dWorldStepMemoryFunctionsInfo, dWorldStepReserveInfo};

/// sizeof(dThreadingFunctionsInfo) in ODE's threading.h: a size field and
/// twelve function pointers.
const THREADING_FUNCTIONS_INFO_SIZE: usize = 8 + 12 * std::mem::size_of::<usize>();

/// Largest auto-disable sample count accepted: every body allocates two
/// buffers of that many vectors.
const MAX_AVERAGE_SAMPLES: c_uint = 1 << 24;

/// The world argument `w`, checked.
pub(super) fn world(cx: &Cx, w: dWorldID) -> Option<WorldRef> {
    cx.handle(&WORLDS, w, "w", "world")
}

#[no_mangle]
pub unsafe extern "C" fn dWorldCreate() -> dWorldID {
    call("dWorldCreate", std::ptr::null_mut(), |_cx| Some(wm::create_world().as_raw()))
}

#[no_mangle]
pub unsafe extern "C" fn dWorldDestroy(w: dWorldID) {
    call("dWorldDestroy", (), |cx| {
        let w = world(cx, w)?;
        crate::joints::object::destroy_world(w);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetData(w: dWorldID, data: *mut c_void) {
    call("dWorldSetData", (), |cx| {
        world(cx, w)?.get_mut().data = data;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldGetData(w: dWorldID) -> *mut c_void {
    call("dWorldGetData", std::ptr::null_mut(), |cx| Some(world(cx, w)?.get().data))
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetGravity(w: dWorldID, x: dReal, y: dReal, z: dReal) {
    call("dWorldSetGravity", (), |cx| {
        let w = world(cx, w)?;
        cx.finite("x", x)?;
        cx.finite("y", y)?;
        cx.finite("z", z)?;
        w.get_mut().gravity = [x, y, z];
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldGetGravity(w: dWorldID, gravity: *mut dReal) {
    call("dWorldGetGravity", (), |cx| {
        let w = world(cx, w)?;
        let g = cx.ptr_mut("gravity", gravity)?;
        write_reals(g, &w.get().gravity);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetERP(w: dWorldID, erp: dReal) {
    call("dWorldSetERP", (), |cx| {
        let w = world(cx, w)?;
        w.get_mut().erp = cx.finite("erp", erp)?;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldGetERP(w: dWorldID) -> dReal {
    call("dWorldGetERP", 0.0, |cx| Some(world(cx, w)?.get().erp))
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetCFM(w: dWorldID, cfm: dReal) {
    call("dWorldSetCFM", (), |cx| {
        let w = world(cx, w)?;
        w.get_mut().cfm = cx.finite("cfm", cfm)?;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldGetCFM(w: dWorldID) -> dReal {
    call("dWorldGetCFM", 0.0, |cx| Some(world(cx, w)?.get().cfm))
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetStepIslandsProcessingMaxThreadCount(w: dWorldID, count: c_uint) {
    call("dWorldSetStepIslandsProcessingMaxThreadCount", (), |cx| {
        world(cx, w)?.get_mut().islands_max_threads = count;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldGetStepIslandsProcessingMaxThreadCount(w: dWorldID) -> c_uint {
    call("dWorldGetStepIslandsProcessingMaxThreadCount", 0, |cx| Some(world(cx, w)?.get().islands_max_threads))
}

#[no_mangle]
pub unsafe extern "C" fn dWorldUseSharedWorkingMemory(w: dWorldID, from_world: dWorldID) -> c_int {
    call("dWorldUseSharedWorkingMemory", 0, |cx| {
        let w = world(cx, w)?;
        let from = cx.opt_handle(&WORLDS, from_world, "from_world", "world")?;
        match wm::use_shared_working_memory(w, from) {
            Ok(()) => Some(1),
            Err(why) => cx.fail(format_args!("{why}")),
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldCleanupWorkingMemory(w: dWorldID) {
    call("dWorldCleanupWorkingMemory", (), |cx| {
        // Step buffers are small and kept for reuse; there is nothing the
        // host could observe being released.
        world(cx, w)?;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetStepMemoryReservationPolicy(
    w: dWorldID,
    policyinfo: *const dWorldStepReserveInfo,
) -> c_int {
    call("dWorldSetStepMemoryReservationPolicy", 0, |cx| {
        let w = world(cx, w)?;
        let settings = &mut w.get_mut().step_settings;
        if policyinfo.is_null() {
            settings.reserve = None;
            return Some(1);
        }
        let info = &*policyinfo;
        let size_ok = info.struct_size as usize >= std::mem::size_of::<dWorldStepReserveInfo>();
        cx.require(
            size_ok && info.reserve_factor >= 1.0,
            format_args!(
                "argument 'policyinfo' is bad (struct_size must be at least {} and reserve_factor at least 1)",
                std::mem::size_of::<dWorldStepReserveInfo>()
            ),
        )?;
        settings.has_working_memory = true;
        settings.reserve = Some((info.reserve_factor, info.reserve_minimum));
        Some(1)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetStepMemoryManager(
    w: dWorldID,
    memfuncs: *const dWorldStepMemoryFunctionsInfo,
) -> c_int {
    call("dWorldSetStepMemoryManager", 0, |cx| {
        let w = world(cx, w)?;
        let settings = &mut w.get_mut().step_settings;
        if memfuncs.is_null() {
            settings.memory_manager = None;
            return Some(1);
        }
        let info = &*memfuncs;
        let need = std::mem::size_of::<dWorldStepMemoryFunctionsInfo>();
        cx.require(
            info.struct_size as usize >= need,
            format_args!("argument 'memfuncs' is bad (struct_size {} < {need})", info.struct_size),
        )?;
        // The functions are recorded but not called: the library manages
        // its own step buffers, which does not change results.
        settings.has_working_memory = true;
        settings.memory_manager = Some([
            info.alloc_block.map_or(0, |f| f as usize),
            info.shrink_block.map_or(0, |f| f as usize),
            info.free_block.map_or(0, |f| f as usize),
        ]);
        Some(1)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetStepThreadingImplementation(
    w: dWorldID,
    functions_info: *const super::decl::threading::dThreadingFunctionsInfo,
    threading_impl: dThreadingImplementationID,
) {
    call("dWorldSetStepThreadingImplementation", (), |cx| {
        let w = world(cx, w)?;
        if !functions_info.is_null() {
            let size = *(functions_info as *const c_uint) as usize;
            cx.require(
                size >= THREADING_FUNCTIONS_INFO_SIZE,
                format_args!("argument 'functions_info' is bad (struct_size {size} < {THREADING_FUNCTIONS_INFO_SIZE})"),
            )?;
        }
        cx.require(
            functions_info.is_null() == threading_impl.is_null(),
            format_args!("arguments 'functions_info' and 'threading_impl' must be both NULL or both set"),
        )?;
        // Our own multi-threaded implementation lends its serving threads'
        // count to the island stepping (pipeline::parallel); any other
        // implementation is recorded only and islands stay on the caller.
        let ours = std::ptr::eq(functions_info, &super::threading_impl::BUILTIN_FUNCTIONS);
        // With our table the implementation must be one of ours, alive (a
        // host's own implementation is opaque and only recorded).
        let imp = if ours {
            Some(super::threading_impl::implementation(cx, threading_impl, "threading_impl")?)
        } else {
            None
        };
        w.get_mut().step_threads_impl = imp.filter(|i| i.get().is_multi());
        w.get_mut().step_settings.threading =
            (!functions_info.is_null()).then_some((functions_info as usize, threading_impl as usize));
        Some(())
    })
}

/// Common checks of dWorldStep/dWorldQuickStep.
fn checked_step(cx: &Cx, w: dWorldID, stepsize: dReal, quick: bool) -> Option<c_int> {
    let w = world(cx, w)?;
    cx.check_real("stepsize", stepsize, stepsize > 0.0, "must be > 0")?;
    // Below about 5.6e-309 the reciprocal ODE steps with overflows and the
    // step turns the velocities into NaN (ODE then asserts normalising the
    // orientations).
    cx.require(
        (1.0 / stepsize).is_finite(),
        format_args!(
            "argument 'stepsize' = {stepsize:?} is so small that its reciprocal overflows (ODE's step turns into NaN)"
        ),
    )?;
    pipeline::step_world(w, stepsize, quick);
    Some(1)
}

#[no_mangle]
pub unsafe extern "C" fn dWorldStep(w: dWorldID, stepsize: dReal) -> c_int {
    call("dWorldStep", 0, |cx| checked_step(cx, w, stepsize, false))
}

#[no_mangle]
pub unsafe extern "C" fn dWorldQuickStep(w: dWorldID, stepsize: dReal) -> c_int {
    call("dWorldQuickStep", 0, |cx| checked_step(cx, w, stepsize, true))
}

#[no_mangle]
pub unsafe extern "C" fn dWorldImpulseToForce(
    w: dWorldID,
    stepsize: dReal,
    ix: dReal,
    iy: dReal,
    iz: dReal,
    force: *mut dReal,
) {
    call("dWorldImpulseToForce", (), |cx| {
        world(cx, w)?;
        cx.check_real("stepsize", stepsize, stepsize != 0.0, "must be nonzero")?;
        cx.finite("ix", ix)?;
        cx.finite("iy", iy)?;
        cx.finite("iz", iz)?;
        let f = cx.ptr_mut("force", force)?;
        // Only three components are written, as in ODE.
        let r = 1.0 / stepsize;
        write_reals(f, &[r * ix, r * iy, r * iz]);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetQuickStepNumIterations(w: dWorldID, num: c_int) {
    call("dWorldSetQuickStepNumIterations", (), |cx| {
        let w = world(cx, w)?;
        // Stored as in ODE (the getter returns it). ODE's QuickStep loops
        // over the count as unsigned, -5 meaning 4294967291 iterations per
        // island and step, a hang; ours makes no iteration.
        if num < 0 {
            cx.warn(format_args!(
                "argument 'num' = {num} is negative: no iteration is made (ODE would make 2^32 - {})",
                num.unsigned_abs()
            ));
        }
        w.get_mut().qs.num_iterations = num;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldGetQuickStepNumIterations(w: dWorldID) -> c_int {
    call("dWorldGetQuickStepNumIterations", 0, |cx| Some(world(cx, w)?.get().qs.num_iterations))
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetQuickStepW(w: dWorldID, over_relaxation: dReal) {
    call("dWorldSetQuickStepW", (), |cx| {
        let w = world(cx, w)?;
        w.get_mut().qs.w = cx.finite("over_relaxation", over_relaxation)?;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldGetQuickStepW(w: dWorldID) -> dReal {
    call("dWorldGetQuickStepW", 0.0, |cx| Some(world(cx, w)?.get().qs.w))
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetContactMaxCorrectingVel(w: dWorldID, vel: dReal) {
    call("dWorldSetContactMaxCorrectingVel", (), |cx| {
        let w = world(cx, w)?;
        // dInfinity (the default) means no limit.
        w.get_mut().contactp.max_vel = cx.not_nan("vel", vel)?;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldGetContactMaxCorrectingVel(w: dWorldID) -> dReal {
    call("dWorldGetContactMaxCorrectingVel", 0.0, |cx| Some(world(cx, w)?.get().contactp.max_vel))
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetContactSurfaceLayer(w: dWorldID, depth: dReal) {
    call("dWorldSetContactSurfaceLayer", (), |cx| {
        let w = world(cx, w)?;
        w.get_mut().contactp.min_depth = cx.finite("depth", depth)?;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldGetContactSurfaceLayer(w: dWorldID) -> dReal {
    call("dWorldGetContactSurfaceLayer", 0.0, |cx| Some(world(cx, w)?.get().contactp.min_depth))
}

// --- auto-disable defaults (given to bodies created afterwards)

#[no_mangle]
pub unsafe extern "C" fn dWorldGetAutoDisableLinearThreshold(w: dWorldID) -> dReal {
    call("dWorldGetAutoDisableLinearThreshold", 0.0, |cx| {
        Some(world(cx, w)?.get().adis.linear_average_threshold.sqrt())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetAutoDisableLinearThreshold(w: dWorldID, linear_average_threshold: dReal) {
    call("dWorldSetAutoDisableLinearThreshold", (), |cx| {
        let w = world(cx, w)?;
        let t = cx.not_nan("linear_average_threshold", linear_average_threshold)?;
        w.get_mut().adis.linear_average_threshold = t * t;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldGetAutoDisableAngularThreshold(w: dWorldID) -> dReal {
    call("dWorldGetAutoDisableAngularThreshold", 0.0, |cx| {
        Some(world(cx, w)?.get().adis.angular_average_threshold.sqrt())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetAutoDisableAngularThreshold(w: dWorldID, angular_average_threshold: dReal) {
    call("dWorldSetAutoDisableAngularThreshold", (), |cx| {
        let w = world(cx, w)?;
        let t = cx.not_nan("angular_average_threshold", angular_average_threshold)?;
        w.get_mut().adis.angular_average_threshold = t * t;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldGetAutoDisableAverageSamplesCount(w: dWorldID) -> c_int {
    call("dWorldGetAutoDisableAverageSamplesCount", 0, |cx| Some(world(cx, w)?.get().adis.average_samples as c_int))
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetAutoDisableAverageSamplesCount(w: dWorldID, average_samples_count: c_uint) {
    call("dWorldSetAutoDisableAverageSamplesCount", (), |cx| {
        let w = world(cx, w)?;
        cx.require(
            average_samples_count <= MAX_AVERAGE_SAMPLES,
            format_args!("argument 'average_samples_count' = {average_samples_count} is too large (at most {MAX_AVERAGE_SAMPLES})"),
        )?;
        w.get_mut().adis.average_samples = average_samples_count;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldGetAutoDisableSteps(w: dWorldID) -> c_int {
    call("dWorldGetAutoDisableSteps", 0, |cx| Some(world(cx, w)?.get().adis.idle_steps))
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetAutoDisableSteps(w: dWorldID, steps: c_int) {
    call("dWorldSetAutoDisableSteps", (), |cx| {
        // A negative count is stored as in ODE and acts as 0 (the countdown
        // is already at or below zero).
        world(cx, w)?.get_mut().adis.idle_steps = steps;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldGetAutoDisableTime(w: dWorldID) -> dReal {
    call("dWorldGetAutoDisableTime", 0.0, |cx| Some(world(cx, w)?.get().adis.idle_time))
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetAutoDisableTime(w: dWorldID, time: dReal) {
    call("dWorldSetAutoDisableTime", (), |cx| {
        let w = world(cx, w)?;
        w.get_mut().adis.idle_time = cx.not_nan("time", time)?;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldGetAutoDisableFlag(w: dWorldID) -> c_int {
    call("dWorldGetAutoDisableFlag", 0, |cx| Some(world(cx, w)?.get().auto_disable_flag()))
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetAutoDisableFlag(w: dWorldID, do_auto_disable: c_int) {
    call("dWorldSetAutoDisableFlag", (), |cx| {
        world(cx, w)?.get_mut().set_auto_disable_flag(do_auto_disable != 0);
        Some(())
    })
}

// --- damping defaults (given to bodies created afterwards)

#[no_mangle]
pub unsafe extern "C" fn dWorldGetLinearDampingThreshold(w: dWorldID) -> dReal {
    call("dWorldGetLinearDampingThreshold", 0.0, |cx| Some(world(cx, w)?.get().dampingp.linear_threshold.sqrt()))
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetLinearDampingThreshold(w: dWorldID, threshold: dReal) {
    call("dWorldSetLinearDampingThreshold", (), |cx| {
        let w = world(cx, w)?;
        let t = cx.not_nan("threshold", threshold)?;
        w.get_mut().dampingp.linear_threshold = t * t;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldGetAngularDampingThreshold(w: dWorldID) -> dReal {
    call("dWorldGetAngularDampingThreshold", 0.0, |cx| Some(world(cx, w)?.get().dampingp.angular_threshold.sqrt()))
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetAngularDampingThreshold(w: dWorldID, threshold: dReal) {
    call("dWorldSetAngularDampingThreshold", (), |cx| {
        let w = world(cx, w)?;
        let t = cx.not_nan("threshold", threshold)?;
        w.get_mut().dampingp.angular_threshold = t * t;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldGetLinearDamping(w: dWorldID) -> dReal {
    call("dWorldGetLinearDamping", 0.0, |cx| Some(world(cx, w)?.get().dampingp.linear_scale))
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetLinearDamping(w: dWorldID, scale: dReal) {
    call("dWorldSetLinearDamping", (), |cx| {
        let w = world(cx, w)?;
        let s = cx.finite("scale", scale)?;
        w.get_mut().set_linear_damping(s);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldGetAngularDamping(w: dWorldID) -> dReal {
    call("dWorldGetAngularDamping", 0.0, |cx| Some(world(cx, w)?.get().dampingp.angular_scale))
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetAngularDamping(w: dWorldID, scale: dReal) {
    call("dWorldSetAngularDamping", (), |cx| {
        let w = world(cx, w)?;
        let s = cx.finite("scale", scale)?;
        w.get_mut().set_angular_damping(s);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetDamping(w: dWorldID, linear_scale: dReal, angular_scale: dReal) {
    call("dWorldSetDamping", (), |cx| {
        let w = world(cx, w)?;
        let l = cx.finite("linear_scale", linear_scale)?;
        let a = cx.finite("angular_scale", angular_scale)?;
        let world = w.get_mut();
        world.set_linear_damping(l);
        world.set_angular_damping(a);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dWorldGetMaxAngularSpeed(w: dWorldID) -> dReal {
    call("dWorldGetMaxAngularSpeed", 0.0, |cx| Some(world(cx, w)?.get().max_angular_speed))
}

#[no_mangle]
pub unsafe extern "C" fn dWorldSetMaxAngularSpeed(w: dWorldID, max_speed: dReal) {
    call("dWorldSetMaxAngularSpeed", (), |cx| {
        let w = world(cx, w)?;
        // dInfinity (the default) removes the limit.
        let s = cx.not_nan("max_speed", max_speed)?;
        w.get_mut().set_max_angular_speed(s);
        Some(())
    })
}
