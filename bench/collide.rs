//! Criterion bench of the broad phase: `dSpaceCollide` over N mixed geoms
//! (spheres, boxes, capsules; every geom moved before each pass) in a hash,
//! a sweep-and-prune and a quadtree space, against our library and Debian's
//! libode.so.8 side by side, both opened with dlopen(RTLD_LOCAL) and driven
//! through their C entry points (our half is skipped while a function is
//! missing). Our library is the cdylib beside this bench.
//!
//!   cargo bench --bench collide          # ODE_BENCH_GEOMS=5000 by default
//!   cc -O2 bench/c/bench_collide.c -ldl  # the C bench: one table with ratios
// The loader macro transmutes each symbol to its field's type, which it
// cannot spell: the field declaration is the annotation.
#![allow(clippy::missing_transmute_annotations)]
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};
use std::path::PathBuf;
use std::time::Duration;

type Id = *mut c_void;
type Near = unsafe extern "C" fn(*mut c_void, Id, Id);

#[allow(non_snake_case)]
struct Ode {
    name: &'static str,
    dInitODE2: unsafe extern "C" fn(c_uint) -> c_int,
    dHashSpaceCreate: unsafe extern "C" fn(Id) -> Id,
    dSweepAndPruneSpaceCreate: unsafe extern "C" fn(Id, c_int) -> Id,
    dQuadTreeSpaceCreate: unsafe extern "C" fn(Id, *const f64, *const f64, c_int) -> Id,
    dSpaceDestroy: unsafe extern "C" fn(Id),
    dSpaceCollide: unsafe extern "C" fn(Id, *mut c_void, Near),
    dCreateSphere: unsafe extern "C" fn(Id, f64) -> Id,
    dCreateBox: unsafe extern "C" fn(Id, f64, f64, f64) -> Id,
    dCreateCapsule: unsafe extern "C" fn(Id, f64, f64) -> Id,
    dGeomSetPosition: unsafe extern "C" fn(Id, f64, f64, f64),
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
            dHashSpaceCreate,
            dSweepAndPruneSpaceCreate,
            dQuadTreeSpaceCreate,
            dSpaceDestroy,
            dSpaceCollide,
            dCreateSphere,
            dCreateBox,
            dCreateCapsule,
            dGeomSetPosition
        ))
    }
}

struct Rng(u64);
impl Rng {
    fn u(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / 9007199254740992.0
    }
}

struct Scene<'a> {
    ode: &'a Ode,
    space: Id,
    geoms: Vec<Id>,
    pos: Vec<[f64; 3]>,
    rng: Rng,
}

impl<'a> Scene<'a> {
    fn new(ode: &'a Ode, kind: usize, n: usize) -> Self {
        unsafe {
            let (c, e) = ([0.0f64; 4], [32.0f64, 32.0, 32.0, 0.0]);
            let space = match kind {
                0 => (ode.dHashSpaceCreate)(std::ptr::null_mut()),
                1 => (ode.dSweepAndPruneSpaceCreate)(std::ptr::null_mut(), 2 << 2 | 1 << 4),
                _ => (ode.dQuadTreeSpaceCreate)(std::ptr::null_mut(), c.as_ptr(), e.as_ptr(), 6),
            };
            let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
            let mut geoms = Vec::new();
            let mut pos = Vec::new();
            for i in 0..n {
                let g = match i % 3 {
                    0 => (ode.dCreateSphere)(space, 0.2 + 0.6 * rng.u()),
                    1 => (ode.dCreateBox)(space, 0.2 + rng.u(), 0.2 + rng.u(), 0.2 + rng.u()),
                    _ => (ode.dCreateCapsule)(space, 0.1 + 0.3 * rng.u(), 0.5 + rng.u()),
                };
                let p = [60.0 * rng.u() - 30.0, 60.0 * rng.u() - 30.0, 60.0 * rng.u() - 30.0];
                (ode.dGeomSetPosition)(g, p[0], p[1], p[2]);
                geoms.push(g);
                pos.push(p);
            }
            Scene { ode, space, geoms, pos, rng }
        }
    }

    fn jiggle(&mut self) {
        for (g, p) in self.geoms.iter().zip(self.pos.iter_mut()) {
            for v in p.iter_mut() {
                *v += 0.05 * (self.rng.u() - 0.5);
            }
            unsafe { (self.ode.dGeomSetPosition)(*g, p[0], p[1], p[2]) };
        }
    }
}

impl Drop for Scene<'_> {
    fn drop(&mut self) {
        unsafe { (self.ode.dSpaceDestroy)(self.space) }
    }
}

unsafe extern "C" fn count(data: *mut c_void, _a: Id, _b: Id) {
    *(data as *mut u64) += 1;
}

fn libraries() -> Vec<Ode> {
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
            Err(e) => eprintln!("collide bench: skipping {name}: {e}"),
        }
    }
    libs
}

fn bench_spaces(c: &mut Criterion) {
    let n: usize = std::env::var("ODE_BENCH_GEOMS").ok().and_then(|s| s.parse().ok()).unwrap_or(5000);
    let libs = libraries();
    for (kind, label) in ["hash", "sap", "quadtree"].iter().enumerate() {
        let mut g = c.benchmark_group(format!("dSpaceCollide/{label}/{n}_geoms"));
        for ode in &libs {
            let mut scene = Scene::new(ode, kind, n);
            g.bench_function(BenchmarkId::from_parameter(ode.name), |b| {
                b.iter(|| {
                    scene.jiggle();
                    let mut pairs = 0u64;
                    unsafe { (ode.dSpaceCollide)(scene.space, &mut pairs as *mut u64 as *mut c_void, count) };
                    pairs
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
    targets = bench_spaces
}
criterion_main!(benches);
