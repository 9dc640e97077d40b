//! A warm step does not allocate: the step's working arrays live in the
//! world and are reused.
use ode::dynamics::world::{create_body, create_world, flags};
use ode::joints::object::destroy_world;
use ode::pipeline::step_world;
use std::alloc::{GlobalAlloc, Layout, System};

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

#[test]
fn warm_steps_do_not_allocate() {
    let w = create_world();
    w.get_mut().gravity = [0.0, 0.0, -9.81];
    w.get_mut().set_auto_disable_flag(true);
    for i in 0..20 {
        let b = create_body(w).get_mut();
        b.avel[..3].copy_from_slice(&[1.0, 0.5 * i as f64, -0.25]);
        b.flags |= flags::GYROSCOPIC;
        if i % 3 == 0 {
            b.flags |= flags::FINITE_ROTATION;
        }
    }
    for quick in [false, true] {
        step_world(w, 0.01, quick); // warm up
        let before = ALLOCS.with(|a| a.get());
        for _ in 0..100 {
            step_world(w, 0.01, quick);
        }
        assert_eq!(ALLOCS.with(|a| a.get()) - before, 0, "quick={quick}");
    }
    destroy_world(w);
}
