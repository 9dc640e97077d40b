//! A warm step does not allocate: the step's working arrays live in the
//! world and are reused.
use ode::dynamics::body::create_body;
use ode::dynamics::world::{create_world, flags};
use ode::joints::object::destroy_world;
use ode::pipeline::step_world;

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations_so_far;

#[global_allocator]
static A: counting_alloc::Counting = counting_alloc::Counting;

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
        let before = allocations_so_far();
        for _ in 0..100 {
            step_world(w, 0.01, quick);
        }
        assert_eq!(allocations_so_far() - before, 0, "quick={quick}");
    }
    destroy_world(w);
}
