//! Stepping a world's islands concurrently, with the serial result bit for
//! bit: each island is stepped by exactly the code and in exactly the
//! order the serial loop uses; only different islands overlap in time.
//!
//! Owns how many threads a step uses (`odexWorldSetStepThreads`, else ODE's
//! threading API, else `ODE_THREADS`, else 1), the rayon pools, and the
//! serial pre-pass that hands every QuickStep island the `dRand` state it
//! would have started from serially (its draw count is known from its row
//! count and the iteration count), so the generator ends where ODE's does.
//!
//! The bodies' geoms are told they moved after the parallel phase, in the
//! serial order (spaces are shared by all islands).
//!
//! Islands are stepped serially when parallelism could be observed
//! differently: a body with a moved callback (host code that may look at
//! or change other bodies, or destroy the world) or a custom joint (host
//! callbacks).

use super::islands::{IslandPlan, IslandWork, StepScratch};
use super::step_island;
use crate::dynamics::body;
use crate::dynamics::world::{SolverMode, World};
use crate::joints::JointKind;
use crate::math::random;
use crate::solver::{gather_info1, quick};
use rayon::prelude::*;
use std::sync::{Arc, Mutex, OnceLock};

/// The environment variable read once for the default thread count.
pub const THREADS_ENV: &str = "ODE_THREADS";

/// `ODE_THREADS` (a positive integer), read the first time it is needed.
fn env_threads() -> usize {
    static N: OnceLock<usize> = OnceLock::new();
    *N.get_or_init(|| {
        std::env::var(THREADS_ENV).ok().and_then(|v| v.trim().parse::<usize>().ok()).filter(|&n| n > 0).unwrap_or(1)
    })
}

/// Most threads a step may use (a sanity cap on host-given counts).
const MAX_THREADS: usize = 64;

/// How many threads step this world's islands.
pub fn step_threads(world: &World) -> usize {
    let n = if world.step_threads > 0 {
        world.step_threads as usize
    } else if let Some(imp) = world.step_threads_impl.filter(|i| i.is_live()) {
        // ODE's API: the caller plus the implementation's serving threads,
        // at most the world's islands thread limit (0 = unlimited).
        let n = imp.get().thread_count() as usize + 1;
        match world.islands_max_threads {
            0 => n,
            max => n.min(max as usize),
        }
    } else {
        env_threads()
    };
    n.clamp(1, MAX_THREADS)
}

/// The world as the island steps see it: read only (gravity, solver and
/// joint parameters) while islands run, so sharing it is sound even though
/// it holds host pointers and type-erased buffers that are not `Sync`.
struct SharedWorld<'a>(&'a World);
// SAFETY: nothing writes to the world during the parallel phase (the step
// holds it; callbacks that could reach it force the serial path).
unsafe impl Sync for SharedWorld<'_> {}

/// A rayon pool of `n` threads, made once per distinct `n`.
fn pool(n: usize) -> Option<Arc<rayon::ThreadPool>> {
    static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
    let mut pools = POOLS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = pools.iter().find(|(k, _)| *k == n) {
        return Some(p.clone());
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new().num_threads(n).thread_name(|i| format!("ode-island-{i}")).build().ok()?,
    );
    pools.push((n, p.clone()));
    Some(p)
}

/// Steps every island of `s` on `threads` threads if that is safe and
/// worth it; returns false (having done nothing) otherwise.
pub fn try_step_parallel(world: &World, s: &mut StepScratch, h: f64, quick: bool, threads: usize) -> bool {
    if threads < 2 || s.island_sizes.len() < 2 {
        return false;
    }
    if s.bodies.iter().any(|b| b.get().moved_callback.is_some())
        || s.joints.iter().any(|j| matches!(j.get().kind, JointKind::Custom(_)))
    {
        return false;
    }
    let Some(pool) = pool(threads) else { return false };

    // Plan: island extents and, for the QuickStep with ODE's shuffles, each
    // island's first dRand state (row counts from the joints' info1, which
    // only reads the island's own bodies; the island step asks again).
    let shuffles = quick && world.solver_mode == SolverMode::Exact && !quick::deterministic_order();
    let iterations = world.qs.num_iterations;
    let mut seed = random::seed();
    s.plan.clear();
    let (mut b0, mut j0) = (0, 0);
    for k in 0..s.island_sizes.len() {
        let (nb, nj) = (s.island_sizes[k], s.island_joints[k]);
        s.plan.push(IslandPlan { b0, nb, j0, nj, seed });
        if shuffles && nj > 0 {
            let m = gather_info1(&s.joints[j0..j0 + nj], &mut s.work.infos);
            seed = random::advance(seed, quick::rand_draws(m, iterations));
        }
        b0 += nb;
        j0 += nj;
    }
    while s.workers.len() < threads {
        s.workers.push(Mutex::new(IslandWork::default()));
    }

    let (bodies, joints, workers, contacts) = (&s.bodies[..], &s.joints[..], &s.workers[..], &s.contacts);
    let shared = SharedWorld(world);
    pool.install(|| {
        let shared = &shared;
        s.plan.par_iter().with_max_len(1).for_each(|p| {
            let world = shared.0;
            let t = rayon::current_thread_index().unwrap_or(0) % workers.len();
            let mut work = workers[t].lock().unwrap_or_else(|e| e.into_inner());
            let island = &bodies[p.b0..p.b0 + p.nb];
            let island_joints = &joints[p.j0..p.j0 + p.nj];
            body::with_geoms_moved_deferred(|| {
                if shuffles {
                    random::with_stream(p.seed, || {
                        step_island(world, island, island_joints, &mut work, contacts, h, quick)
                    });
                } else {
                    step_island(world, island, island_joints, &mut work, contacts, h, quick);
                }
            });
        });
    });
    if shuffles {
        random::set_seed(seed as u64);
    }
    // The geoms' notifications, in the order the serial step gives them
    // (island by island, body by body), so the spaces' lists match.
    for &b in &s.bodies {
        if b.is_live() {
            b.get().geoms_moved();
        }
    }
    true
}
