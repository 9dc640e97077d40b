//! One time step of a world (`dWorldStep` / `dWorldQuickStep`), as a
//! pipeline of stages in ODE's order. This is the only module that knows
//! every layer below it: bodies and worlds (`dynamics`), joint rows
//! (`joints`), and the two solvers (`solver`).
//!
//! 1. **Auto-disable** bookkeeping over the bodies that have a joint
//!    (`dynamics::autodisable`).
//! 2. **Islands** (`islands::build_islands`): enabled bodies and active
//!    joints gathered into flat arrays, one connected group after another.
//! 3. Per island ([`step_island`]; small islands of contacts a few at a
//!    time in the QuickStep, their rows swept interleaved: `grouped`):
//!    1. **external forces**: gravity into the force accumulators, the
//!       inverse inertia rotated into the world frame, the implicit
//!       gyroscopic torque;
//!    2. **rows**: each joint's row counts (`solver::gather_info1`), then
//!       the rows themselves (`solver::assemble_rows`, for the Step in
//!       `solver::order_for_step`'s order; both QuickSteps assemble
//!       their own, contacts straight into the solver's records);
//!    3. **solve**: Dantzig BLCP (`solver::step`) or PGS/SOR
//!       (`solver::quick`, or `solver::fast_quick` in the fast solver
//!       mode), which yield the constraint forces;
//!    4. **integrate**: velocities, then positions and orientations
//!       (`dynamics::integrator`), and the accumulators are cleared;
//!    5. **guard** (`guard`): a body whose new position or orientation
//!       would not be finite keeps the old ones, at rest; its island is
//!       disabled and reported.
//!
//! Islands without rows take the free-body path, where the two steppers
//! differ only where ODE's do: the QuickStep scales the torque accumulator
//! by `h` in place (visible to a moved callback) and updates all velocities
//! of an island before moving its bodies, while the Step handles one body
//! at a time. Arithmetic is written in ODE's operation order so
//! trajectories agree bit for bit.
//!
//! Disabled bodies are skipped entirely (their accumulators keep
//! growing). Kinematic bodies (zero inverse mass and inertia) go through
//! the same arithmetic and are thereby moved by their velocity only; they
//! take part in islands like other bodies.

mod grouped;
mod guard;
mod islands;
mod parallel;

pub use parallel::{step_threads, THREADS_ENV};

use crate::dynamics::autodisable;
use crate::dynamics::body::BodyRef;
use crate::dynamics::integrator::{
    add_gyroscopic_torque, clear_accumulators, step_body, update_velocity, update_velocity_constrained,
    update_velocity_quick, after_move, FreeLanes, F4,
};
use crate::dynamics::world::{flags, SolverMode, World, WorldRef};
use crate::joints::JointRef;
use crate::math::mat3::rotate_tensor;
use crate::solver::contact_cache::ContactCache;
use crate::solver::{self, assemble_rows, gather_info1, order_for_step, IslandInput};
use islands::{build_islands, IslandWork, StepScratch};

/// Advances world `w` by `h` (> 0, checked by the caller) with the Step
/// (`quick == false`) or the QuickStep stepper.
pub fn step_world(w: WorldRef, h: f64, quick: bool) {
    w.get_mut().step_settings.has_working_memory = true;

    // 1. Auto-disable. ODE never auto-disables a body without joints (it
    // would freeze in mid-air); any attached joint counts, enabled or not.
    autodisable::handle_auto_disabling(w, h, |b| !b.joints.is_empty());

    // The scratch buffers are taken out of the world while stepping, so
    // that host callbacks may use the world freely.
    let mut scratch = take_scratch(w);

    // 2. Islands.
    build_islands(w.get_mut(), &mut scratch);

    // 3. Each island: forces, rows, solve, integrate. Concurrently when
    // the host asked for threads (same bits: see `parallel`).
    let threads = parallel::step_threads(w.get());
    if threads > 1 && parallel::try_step_parallel(w.get(), &mut scratch, h, quick, threads) {
        keep_contacts(w.get(), &mut scratch, quick);
        w.get_mut().step_scratch = Some(scratch);
        return;
    }
    // Small islands of the QuickStep are solved a few at a time.
    let group = grouped::mode(w.get(), quick);
    let mut members = [(0, 0); grouped::MAX_GROUP];
    let mut b0 = 0;
    let mut j0 = 0;
    let mut k = 0;
    while k < scratch.island_sizes.len() {
        if !w.is_live() {
            return; // destroyed by a callback: nothing left to step
        }
        let s = &mut *scratch;
        if free_batch_enabled() && free_batch_at(s, k, b0) {
            // Four free bodies' forces and velocities at once; stops early
            // (the rest go on below) when something a host can see happened.
            let done = step_free_batch(w.get(), &s.bodies[b0..b0 + 4], h, quick);
            k += done;
            b0 += done;
            continue;
        }
        if let Some(mode) = group {
            let islands = s.island_sizes[k..].iter().copied().zip(s.island_joints[k..].iter().copied());
            let n = grouped::group_len(mode, &s.bodies[b0..], &s.joints[j0..], islands, &mut members);
            if n > 1 {
                let (nb, nj) = members[..n].iter().fold((0, 0), |(b, j), &(nb, nj)| (b + nb, j + nj));
                let (bodies, joints) = (&s.bodies[b0..b0 + nb], &s.joints[j0..j0 + nj]);
                grouped::step_quick_group(mode, w.get(), bodies, joints, &members[..n], &mut s.work, h);
                (k, b0, j0) = (k + n, b0 + nb, j0 + nj);
                continue;
            }
        }
        let (nb, nj) = (s.island_sizes[k], s.island_joints[k]);
        step_island(w.get(), &s.bodies[b0..b0 + nb], &s.joints[j0..j0 + nj], &mut s.work, &s.contacts, h, quick);
        b0 += nb;
        j0 += nj;
        k += 1;
    }
    if w.is_live() {
        keep_contacts(w.get(), &mut scratch, quick);
        w.get_mut().step_scratch = Some(scratch);
    }
}

/// After a fast step (QuickStep or Step): the contacts' λ, to warm start
/// the next one.
fn keep_contacts(world: &World, s: &mut StepScratch, quick: bool) {
    if world.solver_mode != SolverMode::Fast {
        return;
    }
    let workers = s.workers.iter_mut().map(|m| m.get_mut().unwrap_or_else(|e| e.into_inner()));
    if quick {
        let lists = std::iter::once(s.work.solver.fast.fresh_contacts()).chain(workers.map(|w| w.solver.fast.fresh_contacts()));
        s.contacts.replace_from(lists);
    } else {
        let lists = std::iter::once(s.work.solver.fast_step.fresh_contacts()).chain(workers.map(|w| w.solver.fast_step.fresh_contacts()));
        s.contacts.replace_from(lists);
    }
}

/// The world's step buffers, made on the first step. The world stores them
/// type-erased (it sits below this layer); the box is reused, not remade.
fn take_scratch(w: WorldRef) -> Box<StepScratch> {
    match w.get_mut().step_scratch.take().map(|s| s.downcast::<StepScratch>()) {
        Some(Ok(s)) => s,
        _ => Box::default(),
    }
}

/// Steps one island (its bodies and joints) with the buffers `s`.
fn step_island(
    world: &World,
    island: &[BodyRef],
    island_joints: &[JointRef],
    s: &mut IslandWork,
    contacts: &ContactCache,
    h: f64,
    quick: bool,
) {
    // 3.1 External forces.
    s.inv_i.clear();
    apply_external_forces(world, island, &mut s.inv_i, h, 0);
    let mut refused = None;

    // 3.2 Rows: the island's joints' row counts (joints without rows only
    // linked the island together).
    let m = if island_joints.is_empty() { 0 } else { gather_info1(island_joints, &mut s.infos) };

    if m == 0 {
        integrate_free_island(island, &s.inv_i, h, quick, &mut refused);
    } else if quick {
        // 3.3 Solve: updates every island body's velocity (constraint and
        // external forces, torque accumulator scaled by h in place) and
        // the feedback.
        let input = IslandInput { world, bodies: island, inv_i: &s.inv_i, h };
        if world.solver_mode == SolverMode::Fast && island.len() > 1 {
            // Assembles the rows itself, contacts straight into its blocks.
            solver::fast_quick::solve_island(&input, &s.infos, &mut s.rows, &mut s.solver.fast, contacts);
        } else if world.solver_mode == SolverMode::Fast {
            // One body: every row shares it, nothing to sweep side by side.
            solver::quick::solve_joints_unshuffled(&input, &s.infos, &mut s.rows, &mut s.solver);
        } else {
            // Assembles the rows itself, contacts straight into the sweep's
            // records (what assemble_rows + solve_island would do).
            solver::quick::solve_joints(&input, &s.infos, &mut s.rows, &mut s.solver);
        }
        // 3.4 Integrate positions.
        for (i, &b) in island.iter().enumerate() {
            if b.is_live() {
                move_body(b, h, i, &mut refused);
                clear_accumulators(b);
            }
        }
    } else {
        let nub = order_for_step(&s.infos, &mut s.ordered);
        assemble_rows(world, &s.ordered, h, &mut s.rows);
        // 3.3 Solve: the constraint force on each body.
        let input = IslandInput { world, bodies: island, inv_i: &s.inv_i, h };
        if world.solver_mode == SolverMode::Fast {
            solver::fast_step::solve_island(&input, &s.rows, &mut s.step, &mut s.solver.fast_step, contacts);
        } else {
            solver::step::solve_island(&input, &s.rows, nub, &mut s.step);
        }
        // 3.4 Integrate: velocities with the constraint forces, then
        // positions, one body at a time as ODE's Step does.
        for (i, &b) in island.iter().enumerate() {
            if b.is_live() {
                if s.step.has_cforce[i] {
                    update_velocity_constrained(b.get_mut(), &s.inv_i[i], &s.step.cforce[i], h);
                } else {
                    update_velocity(b.get_mut(), &s.inv_i[i], h);
                }
                move_body(b, h, i, &mut refused);
                clear_accumulators(b);
            }
        }
    }
    // 3.5 Guard.
    if let Some(bad) = refused {
        let stepper = if quick { "dWorldQuickStep" } else { "dWorldStep" };
        guard::contain(island, island_joints, bad, stepper);
    }
}

/// `step_body`, with the guard taking over a body it refuses.
#[inline(always)]
fn move_body(b: BodyRef, h: f64, i: usize, refused: &mut Option<usize>) {
    if !step_body(b, h) {
        guard::refused(b, i, refused);
    }
}

/// Gravity into the force accumulators (one axis at a time and only for a
/// nonzero component, as ODE adds it), then each body's world-frame
/// inverse inertia (appended to `inv_i`) and implicit gyroscopic torque.
/// Also tags each body with `tag0` plus its index in the island, which the
/// row assembly reads.
fn apply_external_forces(world: &World, island: &[BodyRef], inv_i: &mut Vec<[f64; 12]>, h: f64, tag0: usize) {
    let gravity = world.gravity;
    for (axis, &g) in gravity.iter().enumerate() {
        if g != 0.0 {
            for &b in island {
                let b = b.get_mut();
                if b.flags & flags::NO_GRAVITY == 0 {
                    b.facc[axis] += b.mass.mass * g;
                }
            }
        }
    }

    // Four bodies at a time (no host code runs here, so nothing can see
    // the order), the rest one by one.
    let batched = island.len() / 4 * 4;
    for (c, chunk) in island[..batched].chunks_exact(4).enumerate() {
        let mut lanes = FreeLanes::default();
        for (l, &b) in chunk.iter().enumerate() {
            lanes.load(l, b.get());
        }
        let mut out = [[0.0; 12]; 4];
        lanes.island_inertia(h, &mut out);
        for (l, &b) in chunk.iter().enumerate() {
            let b = b.get_mut();
            b.tag = (tag0 + 4 * c + l) as i32;
            lanes.store_tacc(l, b);
        }
        inv_i.extend_from_slice(&out);
    }
    for (i, &b) in island.iter().enumerate().skip(batched) {
        let b = b.get_mut();
        b.tag = (tag0 + i) as i32;
        inv_i.push(rotate_tensor(&b.inv_i, &b.r));
        if b.flags & flags::GYROSCOPIC != 0 && b.inv_mass > 0.0 {
            add_gyroscopic_torque(b, h);
        }
    }
}

/// An island without constraint rows: external forces only.
fn integrate_free_island(bodies: &[BodyRef], inv_i: &[[f64; 12]], h: f64, quick: bool, refused: &mut Option<usize>) {
    if quick {
        for (&b, ii) in bodies.iter().zip(inv_i.iter()) {
            update_velocity_quick(b.get_mut(), ii, h);
        }
        for (i, &b) in bodies.iter().enumerate() {
            if b.is_live() {
                move_body(b, h, i, refused);
                clear_accumulators(b);
            }
        }
    } else {
        for (i, (&b, ii)) in bodies.iter().zip(inv_i.iter()).enumerate() {
            if b.is_live() {
                update_velocity(b.get_mut(), ii, h);
                move_body(b, h, i, refused);
                clear_accumulators(b);
            }
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Tests turn the batch off to get the one-island-at-a-time reference.
    static NO_FREE_BATCH: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[inline(always)]
fn free_batch_enabled() -> bool {
    #[cfg(test)]
    return !NO_FREE_BATCH.with(|c| c.get());
    #[cfg(not(test))]
    true
}

/// Islands `k..k + 4` are each one body without joints (bodies from
/// `b0`), and none of the first three bodies has a moved callback: only
/// that host code could read or change a later body of the batch between
/// its precomputed stages and its move.
#[inline]
fn free_batch_at(s: &StepScratch, k: usize, b0: usize) -> bool {
    k + 4 <= s.island_sizes.len()
        && s.island_sizes[k..k + 4].iter().all(|&n| n == 1)
        && s.island_joints[k..k + 4].iter().all(|&n| n == 0)
        && s.bodies[b0..b0 + 3].iter().all(|b| b.get().moved_callback.is_none())
}

/// Four one-body islands without joints, as four `step_island` calls
/// would step them: the forces and velocities of all four are computed
/// at once (`FreeLanes`) from their states before the batch, then each
/// body in turn gets its results, moves and is cleared, with the guard
/// after it, exactly where the scalar path does each. Nothing between
/// the computing and the storing can see or change those bodies unless
/// a message goes to the host (a refused or huge body): then the batch
/// stops after that body and the rest are stepped afresh by the caller.
/// Returns how many islands were stepped.
fn step_free_batch(world: &World, bodies: &[BodyRef], h: f64, quick: bool) -> usize {
    let mut lanes = FreeLanes::default();
    let mut pos = [F4::default(); 3];
    let mut q = [F4::default(); 4];
    let mut plain = [false; 4];
    for (l, &b) in bodies.iter().enumerate() {
        let b = b.get();
        lanes.load(l, b);
        for k in 0..3 {
            pos[k][l] = b.pos[k];
        }
        for k in 0..4 {
            q[k][l] = b.q[k];
        }
        plain[l] = b.flags & (flags::FINITE_ROTATION | flags::MAX_ANGULAR_SPEED) == 0;
    }
    let mv = lanes.forces_and_velocity(&world.gravity, h, quick, &pos, &q, plain);
    for (l, &b) in bodies.iter().enumerate() {
        lanes.store(l, b.get_mut());
        let huge = b.get().flags & flags::HUGE_REPORTED;
        let mut refused = None;
        if mv.ok[l] {
            // What step_body would store; the rest of it (geoms, callback,
            // damping) as it does.
            mv.store(l, b.get_mut());
            if !after_move(b) {
                guard::refused(b, 0, &mut refused);
            }
        } else {
            move_body(b, h, 0, &mut refused);
        }
        clear_accumulators(b);
        if let Some(bad) = refused {
            let stepper = if quick { "dWorldQuickStep" } else { "dWorldStep" };
            guard::contain(std::slice::from_ref(&bodies[l]), &[], bad, stepper);
            return l + 1;
        }
        if !b.is_live() || b.get().flags & flags::HUGE_REPORTED != huge {
            return l + 1;
        }
    }
    bodies.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamics::body::{create_body, free_world};
    use crate::dynamics::world::create_world;
    use crate::math::rotation::q_to_r;
    use std::cell::RefCell;
    use std::ffi::c_void;

    thread_local! {
        static LOG: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
        static ALL: RefCell<Vec<BodyRef>> = const { RefCell::new(Vec::new()) };
    }

    /// A moved callback that logs which body moved and what every body's
    /// state is at that moment, and pushes its neighbours.
    unsafe extern "C" fn moved(raw: *mut c_void) {
        ALL.with(|all| {
            let all = all.borrow();
            let i = all.iter().position(|b| b.as_raw() == raw).unwrap();
            LOG.with(|log| {
                let mut log = log.borrow_mut();
                log.push(i as u64);
                for b in all.iter() {
                    let b = b.get();
                    log.extend(b.lvel.iter().chain(&b.avel).chain(&b.facc).chain(&b.tacc).map(|v| v.to_bits()));
                }
            });
            // Both neighbours: one of them moves after this body.
            for n in [i.wrapping_sub(1), i + 1] {
                if let Some(b) = all.get(n) {
                    b.get_mut().facc[1] += 0.5;
                    b.get_mut().tacc[0] -= 0.25;
                }
            }
        });
    }

    /// Steps a world of free bodies with every flag and oddity (moved
    /// callbacks reading and pushing other bodies, a non-finite body the
    /// guard refuses, disabled, kinematic, finite rotation, damping, speed
    /// cap) with and without the four-body batch: the same bits and the
    /// same callback log.
    fn run(batch: bool, quick: bool) -> Vec<u64> {
        NO_FREE_BATCH.with(|c| c.set(!batch));
        LOG.with(|l| l.borrow_mut().clear());
        let w = create_world();
        w.get_mut().gravity = [0.3, 0.0, -9.81];
        let mut seed = 0x1234_5678_9abc_def1u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let bodies: Vec<BodyRef> = (0..37).map(|_| create_body(w)).collect();
        ALL.with(|a| *a.borrow_mut() = bodies.clone());
        for (i, &br) in bodies.iter().enumerate() {
            let b = br.get_mut();
            let mut m = crate::math::mass::Mass::zero();
            m.mass = 1.0 + rnd().abs();
            m.I = [0.3 + rnd().abs(), 0.01, 0.0, 0.0, 0.01, 0.4 + rnd().abs(), 0.02, 0.0, 0.0, 0.02, 0.2, 0.0];
            b.set_mass(&m);
            let mut q = [rnd(), rnd(), rnd(), rnd()];
            let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
            q.iter_mut().for_each(|v| *v /= n);
            b.q = q;
            b.r = q_to_r(&q);
            b.pos = [rnd() * 10.0, rnd() * 10.0, rnd() * 10.0, 0.0];
            b.lvel = [rnd(), rnd(), rnd(), 0.0];
            b.avel = [rnd() * 5.0, rnd() * 5.0, rnd() * 5.0, 0.0];
            b.facc = [rnd(), rnd(), rnd(), 0.0];
            b.tacc = [rnd(), rnd(), rnd(), 0.0];
            b.set_gyroscopic_mode(i % 5 != 1);
            b.set_gravity_mode(i % 7 != 2);
            b.set_linear_damping(0.01 * (i % 3) as f64);
            b.set_angular_damping(0.02 * (i % 2) as f64);
            match i {
                2 | 13 | 14 | 27 => b.moved_callback = Some(moved),
                9 => b.disable(),
                11 => b.set_kinematic(),
                17 => b.set_finite_rotation_mode(true),
                19 => {
                    b.max_angular_speed = 1.0;
                    b.flags |= flags::MAX_ANGULAR_SPEED;
                }
                22 => b.lvel[1] = f64::NAN,
                _ => {}
            }
        }
        for _ in 0..6 {
            step_world(w, 0.01, quick);
            for &br in &bodies {
                br.get_mut().facc[2] += 0.125;
            }
        }
        let mut out = LOG.with(|l| l.borrow().clone());
        for &br in &bodies {
            let b = br.get();
            let v = b.pos.iter().chain(&b.q).chain(&b.r).chain(&b.lvel).chain(&b.avel).chain(&b.facc).chain(&b.tacc);
            out.extend(v.map(|x| x.to_bits()));
            out.push(b.flags as u64);
        }
        free_world(w);
        NO_FREE_BATCH.with(|c| c.set(false));
        out
    }

    #[test]
    fn free_batch_steps_like_one_island_at_a_time() {
        for quick in [false, true] {
            let (a, b) = (run(true, quick), run(false, quick));
            assert!(a.len() > 37 * 40, "the callbacks ran");
            assert!(a == b, "quick {quick}");
        }
    }
}
