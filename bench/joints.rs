//! Criterion bench of the constraint solvers: the scenes of
//! `bench/c/bench_joints.c` (a 200-link hinge chain with dWorldStep, a
//! 10-high box stack on hand-made contacts with dWorldQuickStep at 20
//! iterations, 50 independent hinge pendulums with both steppers), run
//! against our library and Debian's libode.so.8 side by side.
//!
//! Both libraries are opened with dlopen(RTLD_LOCAL) and driven through
//! their C entry points, as in `bench/step.rs`, so the numbers compare
//! what a C host gets. Our library is the cdylib cargo builds beside this
//! bench (target/<profile>/libode.so); a library that cannot be opened or
//! lacks a function is skipped with a note.
//!
//!   cargo bench --bench joints
//!   bash scripts/bench.sh          # C bench: ours vs ODE, one table
// The loader macro transmutes each symbol to its field's type, which it
// cannot spell: the field declaration is the annotation.
#![allow(clippy::missing_transmute_annotations)]
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use ode::ffi::decl::contact::{dContact, dContactApprox1, dContactGeom, dSurfaceParameters};
use ode::ffi::decl::mass::dMass;
use std::ffi::{c_char, c_int, c_uint, c_ulong, c_void, CStr, CString};
use std::path::PathBuf;
use std::time::Duration;

type Id = *mut c_void;

#[allow(non_snake_case)]
struct Ode {
    name: &'static str,
    dInitODE2: unsafe extern "C" fn(c_uint) -> c_int,
    dRandSetSeed: unsafe extern "C" fn(c_ulong),
    dWorldCreate: unsafe extern "C" fn() -> Id,
    dWorldDestroy: unsafe extern "C" fn(Id),
    dWorldSetGravity: unsafe extern "C" fn(Id, f64, f64, f64),
    dWorldSetQuickStepNumIterations: unsafe extern "C" fn(Id, c_int),
    dWorldStep: unsafe extern "C" fn(Id, f64) -> c_int,
    dWorldQuickStep: unsafe extern "C" fn(Id, f64) -> c_int,
    dBodyCreate: unsafe extern "C" fn(Id) -> Id,
    dBodySetPosition: unsafe extern "C" fn(Id, f64, f64, f64),
    dBodySetLinearVel: unsafe extern "C" fn(Id, f64, f64, f64),
    dBodySetMass: unsafe extern "C" fn(Id, *const dMass),
    dBodyGetPosition: unsafe extern "C" fn(Id) -> *const f64,
    dMassSetBoxTotal: unsafe extern "C" fn(*mut dMass, f64, f64, f64, f64),
    dJointGroupCreate: unsafe extern "C" fn(c_int) -> Id,
    dJointGroupEmpty: unsafe extern "C" fn(Id),
    dJointGroupDestroy: unsafe extern "C" fn(Id),
    dJointCreateContact: unsafe extern "C" fn(Id, Id, *const dContact) -> Id,
    dJointCreateHinge: unsafe extern "C" fn(Id, Id) -> Id,
    dJointAttach: unsafe extern "C" fn(Id, Id, Id),
    dJointSetHingeAnchor: unsafe extern "C" fn(Id, f64, f64, f64),
    dJointSetHingeAxis: unsafe extern "C" fn(Id, f64, f64, f64),
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
            dRandSetSeed,
            dWorldCreate,
            dWorldDestroy,
            dWorldSetGravity,
            dWorldSetQuickStepNumIterations,
            dWorldStep,
            dWorldQuickStep,
            dBodyCreate,
            dBodySetPosition,
            dBodySetLinearVel,
            dBodySetMass,
            dBodyGetPosition,
            dMassSetBoxTotal,
            dJointGroupCreate,
            dJointGroupEmpty,
            dJointGroupDestroy,
            dJointCreateContact,
            dJointCreateHinge,
            dJointAttach,
            dJointSetHingeAnchor,
            dJointSetHingeAxis
        ))
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Chain,
    Stack,
    Pendulums,
}

/// One scene in one library's world (the layouts of bench_joints.c).
struct Scene<'a> {
    ode: &'a Ode,
    kind: Kind,
    world: Id,
    group: Id,
    bodies: Vec<Id>,
}

impl<'a> Scene<'a> {
    fn new(ode: &'a Ode, kind: Kind) -> Self {
        unsafe {
            (ode.dRandSetSeed)(0);
            let world = (ode.dWorldCreate)();
            (ode.dWorldSetGravity)(world, 0.0, 0.0, -9.81);
            (ode.dWorldSetQuickStepNumIterations)(world, 20);
            let mut s = Scene { ode, kind, world, group: (ode.dJointGroupCreate)(0), bodies: Vec::new() };
            match kind {
                Kind::Chain => {
                    for i in 0..200 {
                        let x = 0.1 * i as f64;
                        let b = s.body(0.2, [0.1, 0.02, 0.02], [x + 0.05, 0.0, 30.0]);
                        let prev = if i > 0 { s.bodies[i - 1] } else { std::ptr::null_mut() };
                        let axis = [0.05 * (i % 5) as f64, 1.0, 0.03 * (i % 7) as f64];
                        s.hinge(prev, b, [x, 0.0, 30.0], axis);
                    }
                }
                Kind::Stack => {
                    for i in 0..10 {
                        let f = i as f64;
                        s.body(1.0, [1.0; 3], [0.002 * f, 0.001 * f, 0.5 + 0.999 * f]);
                    }
                }
                Kind::Pendulums => {
                    for i in 0..50 {
                        let x = 2.0 * i as f64;
                        let b = s.body(1.0, [0.1, 0.1, 1.0], [x, 0.0, 0.5]);
                        s.hinge(b, std::ptr::null_mut(), [x, 0.0, 1.0], [0.0, 1.0, 0.0]);
                        (ode.dBodySetLinearVel)(b, 0.5 + 0.05 * i as f64, 0.0, 0.0);
                    }
                }
            }
            s
        }
    }

    unsafe fn body(&mut self, m: f64, side: [f64; 3], p: [f64; 3]) -> Id {
        let mut mass = dMass::default();
        (self.ode.dMassSetBoxTotal)(&mut mass, m, side[0], side[1], side[2]);
        let b = (self.ode.dBodyCreate)(self.world);
        (self.ode.dBodySetMass)(b, &mass);
        (self.ode.dBodySetPosition)(b, p[0], p[1], p[2]);
        self.bodies.push(b);
        b
    }

    unsafe fn hinge(&self, a: Id, b: Id, anchor: [f64; 3], axis: [f64; 3]) {
        let j = (self.ode.dJointCreateHinge)(self.world, std::ptr::null_mut());
        (self.ode.dJointAttach)(j, a, b);
        (self.ode.dJointSetHingeAnchor)(j, anchor[0], anchor[1], anchor[2]);
        (self.ode.dJointSetHingeAxis)(j, axis[0], axis[1], axis[2]);
    }

    /// Four corner contacts under every box of the stack.
    unsafe fn contacts(&self) {
        for (i, &top) in self.bodies.iter().enumerate() {
            let below = if i > 0 { self.bodies[i - 1] } else { std::ptr::null_mut() };
            let p = (self.ode.dBodyGetPosition)(top);
            let floor = if below.is_null() { 0.0 } else { *(self.ode.dBodyGetPosition)(below).add(2) + 0.5 };
            for k in 0..4 {
                let c = dContact {
                    surface: dSurfaceParameters {
                        mode: dContactApprox1,
                        mu: 0.5,
                        mu2: 0.0,
                        rho: 0.0,
                        rho2: 0.0,
                        rhoN: 0.0,
                        bounce: 0.0,
                        bounce_vel: 0.0,
                        soft_erp: 0.0,
                        soft_cfm: 0.0,
                        motion1: 0.0,
                        motion2: 0.0,
                        motionN: 0.0,
                        slip1: 0.0,
                        slip2: 0.0,
                    },
                    geom: dContactGeom {
                        pos: [
                            *p + if k & 1 != 0 { 0.5 } else { -0.5 },
                            *p.add(1) + if k & 2 != 0 { 0.5 } else { -0.5 },
                            floor,
                            0.0,
                        ],
                        normal: [0.0, 0.0, 1.0, 0.0],
                        depth: floor - (*p.add(2) - 0.5),
                        g1: std::ptr::null_mut(),
                        g2: std::ptr::null_mut(),
                        side1: 0,
                        side2: 0,
                    },
                    fdir1: [0.0; 4],
                };
                (self.ode.dJointAttach)((self.ode.dJointCreateContact)(self.world, self.group, &c), top, below);
            }
        }
    }

    fn step(&self, quick: bool) {
        unsafe {
            if self.kind == Kind::Stack {
                self.contacts();
            }
            if quick {
                (self.ode.dWorldQuickStep)(self.world, 0.01);
            } else {
                (self.ode.dWorldStep)(self.world, 0.01);
            }
            if self.kind == Kind::Stack {
                (self.ode.dJointGroupEmpty)(self.group);
            }
        }
    }
}

impl Drop for Scene<'_> {
    fn drop(&mut self) {
        unsafe {
            (self.ode.dJointGroupDestroy)(self.group);
            (self.ode.dWorldDestroy)(self.world);
        }
    }
}

fn libraries() -> Vec<Ode> {
    // The bench binary is target/<profile>/deps/joints-<hash>.
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
            Err(e) => eprintln!("joints bench: skipping {name}: {e}"),
        }
    }
    libs
}

fn bench_joints(c: &mut Criterion) {
    let libs = libraries();
    for (label, kind, quick) in [
        ("chain200/dWorldStep", Kind::Chain, false),
        ("stack10/dWorldQuickStep", Kind::Stack, true),
        ("pend50/dWorldStep", Kind::Pendulums, false),
        ("pend50/dWorldQuickStep", Kind::Pendulums, true),
    ] {
        let mut g = c.benchmark_group(label);
        for ode in &libs {
            g.bench_function(BenchmarkId::from_parameter(ode.name), |b| {
                // A fresh scene per batch of samples: the stack stays a
                // stack and the chain keeps swinging for the whole run.
                let mut scene = Scene::new(ode, kind);
                let mut steps = 0;
                b.iter(|| {
                    if steps == 300 {
                        scene = Scene::new(ode, kind);
                        steps = 0;
                    }
                    steps += 1;
                    scene.step(quick)
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
    targets = bench_joints
}
criterion_main!(benches);
