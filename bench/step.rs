//! Criterion bench of a world step with N free bodies (gravity, a force and
//! a torque on every body each step), for dWorldStep and dWorldQuickStep,
//! run against our library and against Debian's libode.so.8 side by side.
//!
//! Both libraries are opened with dlopen(RTLD_LOCAL) and driven through
//! their C entry points, so the numbers compare exactly what a C host gets
//! and the bench picks up our functions as soon as they are exported; while
//! one is missing, our half is skipped with a note. Our library is the
//! cdylib cargo builds beside this bench (target/<profile>/libode.so).
//!
//!   cargo bench --bench step            # ODE_BENCH_BODIES=1000 by default
//!   bash scripts/bench.sh               # C bench: ours vs ODE, one table
// The loader macro transmutes each symbol to its field's type, which it
// cannot spell: the field declaration is the annotation.
#![allow(clippy::missing_transmute_annotations)]
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};
use std::path::PathBuf;
use std::time::Duration;

type Id = *mut c_void;
/// ODE's dMass: mass, centre (dVector3), inertia (dMatrix3) = 17 doubles.
type Mass = [f64; 17];

#[allow(non_snake_case)]
struct Ode {
    name: &'static str,
    dInitODE2: unsafe extern "C" fn(c_uint) -> c_int,
    dWorldCreate: unsafe extern "C" fn() -> Id,
    dWorldDestroy: unsafe extern "C" fn(Id),
    dWorldSetGravity: unsafe extern "C" fn(Id, f64, f64, f64),
    dWorldStep: unsafe extern "C" fn(Id, f64) -> c_int,
    dWorldQuickStep: unsafe extern "C" fn(Id, f64) -> c_int,
    dBodyCreate: unsafe extern "C" fn(Id) -> Id,
    dBodySetPosition: unsafe extern "C" fn(Id, f64, f64, f64),
    dBodySetAngularVel: unsafe extern "C" fn(Id, f64, f64, f64),
    dBodySetMass: unsafe extern "C" fn(Id, *const Mass),
    dBodyAddForce: unsafe extern "C" fn(Id, f64, f64, f64),
    dBodyAddTorque: unsafe extern "C" fn(Id, f64, f64, f64),
    dMassSetBox: unsafe extern "C" fn(*mut Mass, f64, f64, f64, f64),
}

fn dlerror() -> String {
    let e = unsafe { libc::dlerror() };
    if e.is_null() {
        "unknown dlopen error".into()
    } else {
        unsafe { CStr::from_ptr(e as *const c_char) }.to_string_lossy().into_owned()
    }
}

impl Ode {
    /// Opens `path` privately; Err lists what is missing.
    #[allow(non_snake_case)]
    fn open(name: &'static str, path: &str) -> Result<Ode, String> {
        let c = CString::new(path).unwrap();
        let h = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        if h.is_null() {
            return Err(format!("cannot open {path}: {}", dlerror()));
        }
        let mut missing = Vec::new();
        let mut sym = |s: &str| -> *mut c_void {
            let cs = CString::new(s).unwrap();
            let p = unsafe { libc::dlsym(h, cs.as_ptr()) };
            if p.is_null() {
                missing.push(s.to_string());
            }
            p
        };
        macro_rules! load {
            ($($f:ident),*) => {{
                $(let $f = sym(stringify!($f));)*
                if !missing.is_empty() {
                    return Err(format!("{path} does not export {}", missing.join(", ")));
                }
                // SAFETY: each symbol is the ODE function of that name, whose
                // C signature the field type spells out.
                unsafe { Ode { name, $($f: std::mem::transmute::<*mut c_void, _>($f),)* } }
            }};
        }
        Ok(load!(
            dInitODE2,
            dWorldCreate,
            dWorldDestroy,
            dWorldSetGravity,
            dWorldStep,
            dWorldQuickStep,
            dBodyCreate,
            dBodySetPosition,
            dBodySetAngularVel,
            dBodySetMass,
            dBodyAddForce,
            dBodyAddTorque,
            dMassSetBox
        ))
    }
}

/// A world of `n` free boxes on a grid, spinning a little.
struct Scene<'a> {
    ode: &'a Ode,
    world: Id,
    bodies: Vec<Id>,
}

impl<'a> Scene<'a> {
    fn new(ode: &'a Ode, n: usize) -> Self {
        unsafe {
            let world = (ode.dWorldCreate)();
            (ode.dWorldSetGravity)(world, 0.0, 0.0, -9.81);
            let mut m: Mass = [0.0; 17];
            (ode.dMassSetBox)(&mut m, 1000.0, 0.1, 0.2, 0.3);
            let bodies = (0..n)
                .map(|i| {
                    let b = (ode.dBodyCreate)(world);
                    (ode.dBodySetMass)(b, &m);
                    (ode.dBodySetPosition)(b, (i % 32) as f64, ((i / 32) % 32) as f64, (i / 1024) as f64);
                    (ode.dBodySetAngularVel)(b, 0.1 * (i % 7) as f64, 0.2, 0.05 * (i % 3) as f64);
                    b
                })
                .collect();
            Scene { ode, world, bodies }
        }
    }

    fn push(&self) {
        for (i, &b) in self.bodies.iter().enumerate() {
            unsafe {
                (self.ode.dBodyAddForce)(b, 1.0, 0.5 * (i % 5) as f64, 9.0);
                (self.ode.dBodyAddTorque)(b, 0.01, 0.0, 0.02);
            }
        }
    }
}

impl Drop for Scene<'_> {
    fn drop(&mut self) {
        unsafe { (self.ode.dWorldDestroy)(self.world) }
    }
}

fn libraries() -> Vec<Ode> {
    // The bench binary is target/<profile>/deps/step-<hash>.
    let exe = std::env::current_exe().unwrap();
    let ours: PathBuf = exe.parent().unwrap().parent().unwrap().join("libode.so");
    let mut libs = Vec::new();
    for (name, path) in
        [("ode", "/usr/lib/x86_64-linux-gnu/libode.so.8".to_string()), ("ours", ours.display().to_string())]
    {
        match Ode::open(name, &path) {
            Ok(o) => {
                unsafe { (o.dInitODE2)(0) };
                libs.push(o)
            }
            Err(e) => eprintln!("step bench: skipping {name}: {e}"),
        }
    }
    libs
}

fn bench_steps(c: &mut Criterion) {
    let n: usize = std::env::var("ODE_BENCH_BODIES").ok().and_then(|s| s.parse().ok()).unwrap_or(1000);
    let libs = libraries();
    for (label, quick) in [("dWorldStep", false), ("dWorldQuickStep", true)] {
        let mut g = c.benchmark_group(format!("{label}/{n}_free_bodies"));
        for ode in &libs {
            let scene = Scene::new(ode, n);
            g.bench_function(BenchmarkId::from_parameter(ode.name), |b| {
                b.iter(|| {
                    scene.push();
                    unsafe {
                        if quick {
                            (ode.dWorldQuickStep)(scene.world, 0.001)
                        } else {
                            (ode.dWorldStep)(scene.world, 0.001)
                        }
                    }
                })
            });
        }
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    targets = bench_steps
}
criterion_main!(benches);
