//! The C API of drawstuff.h (the variadic dsError/dsDebug/dsPrint are in
//! `csrc/ds_messages.c`). Each function checks the life-cycle phase and,
//! on frames that are drawn, its pointers; misuse is reported once on
//! stderr and the call ignored, where ODE's drawstuff would exit or crash.
//! No panic crosses into C.
use crate::frame::Frame;
use crate::shapes::{DrawState, Placement, Tessellator};
use crate::viewer::{self, viewer, Callbacks, DsFunctions, Phase};
use libc::{c_char, c_float, c_int, c_uint};
use std::ffi::CStr;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

/// Runs `f`, turning a panic into a message.
fn guarded<R: Default>(name: &str, f: impl FnOnce() -> R) -> R {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
        eprintln!("drawstuff: internal error in {name}; call ignored");
        R::default()
    })
}

/// Reads `N` values of `p`, converted to f32.
///
/// # Safety
/// `p` is null or points to `N` readable values.
unsafe fn read<T: Copy + Into<f64>, const N: usize>(p: *const T) -> Option<[f32; N]> {
    if p.is_null() {
        return None;
    }
    // SAFETY: the caller's contract.
    let s = unsafe { std::slice::from_raw_parts(p, N) };
    Some(std::array::from_fn(|i| s[i].into() as f32))
}

/// Shared front of every drawing call: checks the life-cycle phase (misuse
/// is reported on every call) and, on frames that are drawn, hands the
/// tessellator, the frame and the drawing state to `draw`, which returns
/// the message for a bad argument. Frames nobody will see cost only the
/// phase check: arguments are read and converted inside `draw`.
fn drawing(
    name: &'static str,
    draw: impl FnOnce(&mut Tessellator, &mut Frame, &DrawState) -> Result<(), &'static str>,
) {
    guarded(name, || {
        let mut v = viewer();
        if v.phase != Phase::InFrame {
            v.report_once("drawing function called outside the simulation loop's step; ignored");
            return;
        }
        if !v.rendering {
            return;
        }
        let st = v.draw;
        let viewer::Viewer { tess, frame, .. } = &mut *v;
        if let Err(msg) = draw(tess, frame, &st) {
            v.report_once(msg);
        }
    })
}

/// [`drawing`] for a shape placed by `pos` and ODE's 3×4 rotation `r`.
///
/// # Safety
/// `pos`/`r` are null or point to 3/12 values.
unsafe fn shape<T: Copy + Into<f64>>(
    name: &'static str,
    pos: *const T,
    r: *const T,
    draw: impl FnOnce(&mut Tessellator, &mut Frame, &DrawState, &Placement) -> Result<(), &'static str>,
) {
    drawing(name, |tess, frame, st| {
        // SAFETY: the caller's contract.
        let (Some(pos), Some(r)) = (unsafe { read::<T, 3>(pos) }, unsafe { read::<T, 12>(r) }) else {
            return Err("dsDraw* called with a null position or rotation; ignored");
        };
        draw(tess, frame, st, &Placement { pos, r })
    })
}

/// `dsSimulationLoop`.
///
/// # Safety
/// `argv` holds `argc` C strings (or is null); `fn_` points to a `dsFunctions`.
#[no_mangle]
pub unsafe extern "C" fn dsSimulationLoop(
    argc: c_int,
    argv: *mut *mut c_char,
    window_width: c_int,
    window_height: c_int,
    fn_: *mut DsFunctions,
) {
    let Some(f) = (unsafe { fn_.as_ref() }) else {
        eprintln!("drawstuff: dsSimulationLoop called without a dsFunctions structure; ignored");
        return;
    };
    let mut args = Vec::new();
    if !argv.is_null() {
        for i in 0..argc.max(0) as usize {
            // SAFETY: argv has argc entries, each null or a C string.
            let a = unsafe { *argv.add(i) };
            if !a.is_null() {
                args.push(unsafe { CStr::from_ptr(a) }.to_string_lossy().into_owned());
            }
        }
    }
    if f.version > crate::DS_VERSION {
        eprintln!(
            "drawstuff: dsFunctions version {:#x} is newer than this library's {:#x}",
            f.version,
            crate::DS_VERSION
        );
    }
    let texture_dir = (f.version >= 2 && !f.path_to_textures.is_null())
        // SAFETY: a version-2 struct's path is a C string when not null.
        .then(|| PathBuf::from(unsafe { CStr::from_ptr(f.path_to_textures) }.to_string_lossy().into_owned()));
    let callbacks = Callbacks { start: f.start, step: f.step, command: f.command, stop: f.stop };
    let env = |k: &str| std::env::var(k).ok();
    let cfg = crate::config::parse(
        &args,
        &env,
        crate::x11_window::display_available(),
        window_width.max(1) as u32,
        window_height.max(1) as u32,
    );
    guarded("dsSimulationLoop", || viewer::run(cfg, callbacks, texture_dir));
}

/// `dsSetViewpoint`: either pointer may be null.
///
/// # Safety
/// Non-null pointers point to 3 floats.
#[no_mangle]
pub unsafe extern "C" fn dsSetViewpoint(xyz: *mut c_float, hpr: *mut c_float) {
    guarded("dsSetViewpoint", || {
        let mut v = viewer();
        if v.phase == Phase::Idle {
            v.report_once("dsSetViewpoint() called before the simulation started; ignored");
            return;
        }
        // SAFETY: the caller's contract.
        if let Some(p) = unsafe { read::<f32, 3>(xyz) } {
            if p.iter().all(|c| c.is_finite()) {
                v.view.xyz = p;
            }
        }
        if let Some(a) = unsafe { read::<f32, 3>(hpr) } {
            if a.iter().all(|c| c.is_finite()) {
                v.view.hpr = a;
                v.view.wrap_angles();
            }
        }
    })
}

/// `dsGetViewpoint`: either pointer may be null.
///
/// # Safety
/// Non-null pointers point to 3 writable floats.
#[no_mangle]
pub unsafe extern "C" fn dsGetViewpoint(xyz: *mut c_float, hpr: *mut c_float) {
    guarded("dsGetViewpoint", || {
        let v = viewer();
        // SAFETY: the caller's contract.
        unsafe {
            if !xyz.is_null() {
                std::ptr::copy_nonoverlapping(v.view.xyz.as_ptr(), xyz, 3);
            }
            if !hpr.is_null() {
                std::ptr::copy_nonoverlapping(v.view.hpr.as_ptr(), hpr, 3);
            }
        }
    })
}

/// `dsStop`: the loop ends after the current frame.
#[no_mangle]
pub extern "C" fn dsStop() {
    guarded("dsStop", || viewer().stop = true)
}

/// `dsElapsedTime`: seconds since the previous call, in (0, 1]; a fixed
/// 1/60 s when headless, so headless runs repeat exactly.
#[no_mangle]
pub extern "C" fn dsElapsedTime() -> f64 {
    guarded("dsElapsedTime", || {
        let mut v = viewer();
        if v.fixed_time {
            return 1.0 / 60.0;
        }
        let now = std::time::Instant::now();
        let dt = v.last_time.map_or(0.0, |t| (now - t).as_secs_f64());
        v.last_time = Some(now);
        dt.clamp(f64::EPSILON, 1.0)
    })
}

/// `dsSetTexture`.
#[no_mangle]
pub extern "C" fn dsSetTexture(texture_number: c_int) {
    guarded("dsSetTexture", || viewer().draw.texture = texture_number)
}

/// `dsSetColor`.
#[no_mangle]
pub extern "C" fn dsSetColor(red: c_float, green: c_float, blue: c_float) {
    dsSetColorAlpha(red, green, blue, 1.0)
}

/// `dsSetColorAlpha`.
#[no_mangle]
pub extern "C" fn dsSetColorAlpha(red: c_float, green: c_float, blue: c_float, alpha: c_float) {
    guarded("dsSetColorAlpha", || {
        let mut v = viewer();
        if v.phase != Phase::InFrame {
            v.report_once("dsSetColor called outside the simulation loop's step; ignored");
            return;
        }
        v.draw.color = [red, green, blue, alpha];
    })
}

/// `dsSetSphereQuality` (subdivision level, clamped to 0…5 when drawing).
#[no_mangle]
pub extern "C" fn dsSetSphereQuality(n: c_int) {
    guarded("dsSetSphereQuality", || viewer().draw.sphere_quality = n)
}

/// `dsSetCapsuleQuality` (clamped to 1…16 when drawing).
#[no_mangle]
pub extern "C" fn dsSetCapsuleQuality(n: c_int) {
    guarded("dsSetCapsuleQuality", || viewer().draw.capsule_quality = n)
}

/// `dsSetDrawMode`: `DS_POLYFILL` (0) or `DS_WIREFRAME` (1).
#[no_mangle]
pub extern "C" fn dsSetDrawMode(mode: c_int) {
    guarded("dsSetDrawMode", || viewer().draw.wireframe = mode == 1)
}

macro_rules! box_fn {
    ($name:ident, $t:ty) => {
        /// `dsDrawBox` (float or double).
        ///
        /// # Safety
        /// `pos`, `r`, `sides` point to 3, 12 and 3 values.
        #[no_mangle]
        pub unsafe extern "C" fn $name(pos: *const $t, r: *const $t, sides: *const $t) {
            // SAFETY: the caller's contract.
            unsafe {
                shape(stringify!($name), pos, r, |t, f, st, at| {
                    let s = read::<$t, 3>(sides).ok_or("dsDrawBox called with null sides; ignored")?;
                    t.draw_box(f, st, at, s);
                    Ok(())
                })
            }
        }
    };
}
box_fn!(dsDrawBox, f32);
box_fn!(dsDrawBoxD, f64);

macro_rules! round_fn {
    ($name:ident, $t:ty, $method:ident) => {
        /// `dsDrawCylinder`/`dsDrawCapsule` (float or double placement).
        ///
        /// # Safety
        /// `pos`, `r` point to 3 and 12 values.
        #[no_mangle]
        pub unsafe extern "C" fn $name(pos: *const $t, r: *const $t, length: c_float, radius: c_float) {
            // SAFETY: the caller's contract.
            unsafe {
                shape(stringify!($name), pos, r, |t, f, st, at| {
                    t.$method(f, st, at, length, radius);
                    Ok(())
                })
            }
        }
    };
}
round_fn!(dsDrawCylinder, f32, draw_cylinder);
round_fn!(dsDrawCylinderD, f64, draw_cylinder);
round_fn!(dsDrawCapsule, f32, draw_capsule);
round_fn!(dsDrawCapsuleD, f64, draw_capsule);

macro_rules! sphere_fn {
    ($name:ident, $t:ty) => {
        /// `dsDrawSphere` (float or double placement).
        ///
        /// # Safety
        /// `pos`, `r` point to 3 and 12 values.
        #[no_mangle]
        pub unsafe extern "C" fn $name(pos: *const $t, r: *const $t, radius: c_float) {
            // SAFETY: the caller's contract.
            unsafe {
                shape(stringify!($name), pos, r, |t, f, st, at| {
                    t.draw_sphere(f, st, at, radius);
                    Ok(())
                })
            }
        }
    };
}
sphere_fn!(dsDrawSphere, f32);
sphere_fn!(dsDrawSphereD, f64);

macro_rules! triangles_fn {
    ($one:ident, $many:ident, $t:ty) => {
        /// `dsDrawTriangle` (float or double).
        ///
        /// # Safety
        /// `pos`, `r` point to 3 and 12 values, `v0`…`v2` to 3 each.
        #[no_mangle]
        pub unsafe extern "C" fn $one(
            pos: *const $t,
            r: *const $t,
            v0: *const $t,
            v1: *const $t,
            v2: *const $t,
            solid: c_int,
        ) {
            // SAFETY: the caller's contract.
            unsafe {
                shape(stringify!($one), pos, r, |t, f, st, at| {
                    let (Some(a), Some(b), Some(c)) = (read::<$t, 3>(v0), read::<$t, 3>(v1), read::<$t, 3>(v2)) else {
                        return Err("dsDrawTriangle called with a null vertex; ignored");
                    };
                    let tri = [a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]];
                    t.draw_triangles(f, st, at, &[tri], solid != 0);
                    Ok(())
                })
            }
        }

        /// `dsDrawTriangles` (float or double): `n` triangles of 9 values.
        ///
        /// # Safety
        /// `pos`, `r` point to 3 and 12 values, `vs` to `9 n` values.
        #[no_mangle]
        pub unsafe extern "C" fn $many(pos: *const $t, r: *const $t, vs: *const $t, n: c_int, solid: c_int) {
            // SAFETY: the caller's contract.
            unsafe {
                shape(stringify!($many), pos, r, |t, f, st, at| {
                    if vs.is_null() || n <= 0 {
                        return Ok(());
                    }
                    let s = std::slice::from_raw_parts(vs, 9 * n as usize);
                    let tris: Vec<[f32; 9]> = s.chunks_exact(9).map(|c| std::array::from_fn(|i| c[i] as f32)).collect();
                    t.draw_triangles(f, st, at, &tris, solid != 0);
                    Ok(())
                })
            }
        }
    };
}
triangles_fn!(dsDrawTriangle, dsDrawTriangles, f32);
triangles_fn!(dsDrawTriangleD, dsDrawTrianglesD, f64);

macro_rules! line_fn {
    ($name:ident, $t:ty) => {
        /// `dsDrawLine` (float or double), in world coordinates.
        ///
        /// # Safety
        /// `a`, `b` point to 3 values.
        #[no_mangle]
        pub unsafe extern "C" fn $name(a: *const $t, b: *const $t) {
            drawing(stringify!($name), |t, f, st| {
                // SAFETY: the caller's contract.
                let (Some(a), Some(b)) = (unsafe { read::<$t, 3>(a) }, unsafe { read::<$t, 3>(b) }) else {
                    return Err("dsDrawLine called with a null point; ignored");
                };
                t.draw_line(f, st, a, b);
                Ok(())
            })
        }
    };
}
line_fn!(dsDrawLine, f32);
line_fn!(dsDrawLineD, f64);

macro_rules! convex_fn {
    ($name:ident, $t:ty) => {
        /// `dsDrawConvex` (float or double), in ODE's convex format.
        ///
        /// # Safety
        /// `planes` holds `4 planecount` values, `points` `3 pointcount`, and
        /// `polygons` a count and that many indices per plane.
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            pos: *const $t,
            r: *const $t,
            planes: *const $t,
            planecount: c_uint,
            points: *const $t,
            pointcount: c_uint,
            polygons: *const c_uint,
        ) {
            // SAFETY: the caller's contract.
            unsafe {
                shape(stringify!($name), pos, r, |t, f, st, at| {
                    if planes.is_null() || points.is_null() || polygons.is_null() {
                        return Err("dsDrawConvex called with a null array; ignored");
                    }
                    let pl: Vec<[f32; 4]> = std::slice::from_raw_parts(planes, 4 * planecount as usize)
                        .chunks_exact(4)
                        .map(|c| std::array::from_fn(|i| c[i] as f32))
                        .collect();
                    let pt: Vec<[f32; 3]> = std::slice::from_raw_parts(points, 3 * pointcount as usize)
                        .chunks_exact(3)
                        .map(|c| std::array::from_fn(|i| c[i] as f32))
                        .collect();
                    // The polygon list's length follows from its own counts.
                    let mut polys = Vec::new();
                    let mut k = 0usize;
                    for _ in 0..planecount {
                        let count = *polygons.add(k) as usize;
                        polys.extend_from_slice(std::slice::from_raw_parts(polygons.add(k), count + 1));
                        k += count + 1;
                    }
                    t.draw_convex(f, st, at, &pl, &pt, &polys);
                    Ok(())
                })
            }
        }
    };
}
convex_fn!(dsDrawConvex, f32);
convex_fn!(dsDrawConvexD, f64);
