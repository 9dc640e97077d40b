//! A warm QuickStep island solve does not allocate: every buffer lives in
//! the caller's `SolverScratch` and is reused (shuffled order, feedback and
//! warm starting included).
use ode::dynamics::body::create_body;
use ode::dynamics::body::BodyRef;
use ode::dynamics::world::create_world;
use ode::ffi::decl::common::dJointFeedback;
use ode::joints::object::destroy_world;
use ode::joints::{null::Null, Joint, JointHead, JointKind, Row, JOINTS};
use ode::math::mat3::rotate_tensor;
use ode::solver::{quick, IslandInput, IslandRows, JointSlot, SolverScratch};

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations_so_far;

#[global_allocator]
static A: counting_alloc::Counting = counting_alloc::Counting;

#[test]
fn warm_island_solves_do_not_allocate() {
    let w = create_world();
    w.get_mut().gravity = [0.0, 0.0, -9.81];
    let n = 12;
    let bodies: Vec<BodyRef> = (0..n)
        .map(|i| {
            let b = create_body(w);
            b.get_mut().set_position([0.2 * i as f64, 0.0, 0.0]);
            b.get_mut().set_linear_vel([0.0, 0.1 * i as f64, 0.0]);
            b
        })
        .collect();
    let mut fb = Box::new(dJointFeedback { f1: [0.0; 4], t1: [0.0; 4], f2: [0.0; 4], t2: [0.0; 4] });
    // A chain of point-to-point joints (3 rows each) plus a contact-like
    // joint with findex rows on the last body.
    let mut isl = IslandRows::default();
    for i in 0..n {
        let j = JOINTS.alloc(Joint {
            head: JointHead {
                world: w,
                body: [Some(bodies[i]), if i > 0 { Some(bodies[i - 1]) } else { None }],
                flags: 0,
                feedback: if i == 3 { &mut *fb } else { std::ptr::null_mut() },
                data: std::ptr::null_mut(),
                group: None,
                lambda: [0.0; 6],
                tag: 0,
                visit: 0,
                world_destroyed: false,
            },
            kind: JointKind::Null(Null),
        });
        let row0 = isl.rows.len();
        for k in 0..3 {
            let mut r = Row::initial(1e-10);
            r.j1l[k] = 1.0;
            r.j1a[(k + 1) % 3] = 0.1;
            if i > 0 {
                r.j2l[k] = -1.0;
                r.j2a[(k + 2) % 3] = 0.1;
            }
            if i == n - 1 && k > 0 {
                r.findex = row0 as i32;
                r.lo = -0.5;
                r.hi = 0.5;
            }
            isl.rows.push(r);
        }
        isl.joints.push(JointSlot {
            joint: j,
            row0,
            m: 3,
            nub: 3,
            b1: Some(i),
            b2: if i > 0 { Some(i - 1) } else { None },
        });
    }
    let inv_i: Vec<[f64; 12]> = bodies.iter().map(|b| rotate_tensor(&b.get().inv_i, &b.get().r)).collect();
    let mut scratch = SolverScratch::default();
    for warm in [false, true] {
        quick::set_warm_start(warm);
        let input = IslandInput { world: w.get(), bodies: &bodies, inv_i: &inv_i, h: 0.01 };
        quick::solve_island(&input, &mut isl, &mut scratch); // warm up
        let before = allocations_so_far();
        for _ in 0..50 {
            quick::solve_island(&input, &mut isl, &mut scratch);
        }
        assert_eq!(allocations_so_far() - before, 0, "warm start {warm}");
    }
    assert!(fb.f1[..3].iter().any(|&x| x != 0.0));
    for s in &isl.joints {
        JOINTS.free(s.joint);
    }
    destroy_world(w);
}
