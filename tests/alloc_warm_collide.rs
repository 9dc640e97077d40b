//! A warm collide pass does not allocate: each space keeps its working
//! buffers (hash table, sort arrays, dirty lists) and reuses them, also
//! when every geom moved since the last pass.
use ode::ffi::collision::*;
use ode::ffi::collision_space::*;
use ode::ffi::decl::collision_space::dSAP_AXES_XZY;
use ode::ffi::objects_body::*;
use ode::ffi::objects_world::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::ffi::c_void;

struct Counting;
thread_local! {
    // Counted per thread: the test harness's own threads may allocate
    // meanwhile (seen under load), which is not the code under test.
    static ALLOCS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|a| a.set(a.get() + 1));
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
}

#[global_allocator]
static A: Counting = Counting;

unsafe extern "C" fn near(data: *mut c_void, a: *mut c_void, b: *mut c_void) {
    *(data as *mut usize) += 1;
    let mut c: [ode::ffi::decl::contact::dContactGeom; 4] = std::mem::zeroed();
    dCollide(a, b, 4, c.as_mut_ptr(), std::mem::size_of_val(&c[0]) as i32);
}

#[test]
fn warm_collide_passes_do_not_allocate() {
    unsafe {
        let w = dWorldCreate();
        let c = [0.0f64; 4];
        let e = [20.0f64, 20.0, 20.0, 0.0];
        let spaces = [
            ("simple", dSimpleSpaceCreate(std::ptr::null_mut())),
            ("hash", dHashSpaceCreate(std::ptr::null_mut())),
            ("sap", dSweepAndPruneSpaceCreate(std::ptr::null_mut(), dSAP_AXES_XZY)),
            ("quadtree", dQuadTreeSpaceCreate(std::ptr::null_mut(), c.as_ptr(), e.as_ptr(), 4)),
        ];
        for (name, s) in spaces {
            let nested = dSimpleSpaceCreate(s);
            let mut geoms = Vec::new();
            for i in 0..600 {
                let target = if i % 10 == 0 { nested } else { s };
                // Spheres, boxes and cylinders: every pair among them is exercised.
                let g = match i % 3 {
                    0 => dCreateSphere(target, 0.8),
                    1 => dCreateBox(target, 1.0, 0.5, 1.5),
                    _ => dCreateCylinder(target, 0.6, 1.2),
                };
                if i % 4 == 1 {
                    dGeomSetBody(g, dBodyCreate(w));
                }
                geoms.push(g);
            }
            let mut pairs = 0usize;
            let shake = |k: usize| {
                for (i, &g) in geoms.iter().enumerate() {
                    let t = (i * 7 + k * 13) as f64;
                    dGeomSetPosition(g, (t * 0.37).sin() * 15.0, (t * 0.11).cos() * 15.0, (t * 0.05).sin() * 15.0);
                }
            };
            for k in 0..3 {
                shake(k);
                dSpaceCollide(s, &mut pairs as *mut usize as *mut c_void, Some(near));
            }
            let before = ALLOCS.with(|a| a.get());
            for k in 3..23 {
                shake(k);
                dSpaceCollide(s, &mut pairs as *mut usize as *mut c_void, Some(near));
                dSpaceCollide2(nested, s, &mut pairs as *mut usize as *mut c_void, Some(near));
            }
            assert_eq!(ALLOCS.with(|a| a.get()) - before, 0, "{name}: warm passes allocated");
            assert!(pairs > 100, "{name}: scene too sparse ({pairs} pairs)");
            dSpaceDestroy(s);
        }
        dWorldDestroy(w);
    }
}
