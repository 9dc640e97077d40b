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
//! Between steps the pool's threads stay awake for up to `LINGER` (300 µs),
//! yielding the processor, before they sleep, so that the next step does
//! not wait for them to wake; not when there are more threads than
//! processors. A step waits only for the runners that started (`StepGate`).
//!
//! Islands are stepped serially when parallelism could be observed
//! differently: a body with a moved callback (host code that may look at
//! or change other bodies, or destroy the world) or a custom joint (host
//! callbacks).

use super::islands::{IslandPlan, IslandWork, StepScratch};
use super::{grouped, step_island};
use crate::dynamics::body;
use crate::dynamics::world::{SolverMode, World};
use crate::joints::JointKind;
use crate::math::random;
use crate::solver::{gather_info1, quick};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

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

/// A rayon pool of `n` threads (the serving threads beside a step's
/// caller), made once per distinct `n`.
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

/// Bumped as a parallel step hands out its tasks; a lingering pool thread
/// returns to the pool (and takes them) when it changes.
static STEP_EPOCH: AtomicU64 = AtomicU64::new(0);

/// How long a pool thread stays awake after a step, waiting for the next
/// one: the host's collision between two steps usually takes less.
const LINGER: Duration = Duration::from_micros(300);

/// How long the caller spins for the runners still at work before it
/// yields between checks.
const JOIN_SPIN: Duration = Duration::from_micros(20);

/// Waits until `done()` or `limit` has passed: spinning for the first
/// `spin_for`, then yielding the processor between checks, so that other
/// threads that want it (the host's, another process's) still get it.
fn spin_until(done: impl Fn() -> bool, spin_for: Duration, limit: Duration) {
    let t0 = Instant::now();
    while !done() {
        for _ in 0..64 {
            std::hint::spin_loop();
        }
        let t = t0.elapsed();
        if t > limit {
            return;
        }
        if t > spin_for {
            std::thread::yield_now();
        }
    }
}

/// The processors this process may run on (1 if unknown), read once.
fn processors() -> usize {
    static N: OnceLock<usize> = OnceLock::new();
    *N.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Waits (yielding) until a step after `epoch` starts (or `LINGER`
/// passes), so that the pool thread is awake to take that step's tasks:
/// on the 2-core VM a sleeping thread started its first task 20-25 µs
/// (median) after the caller, a lingering one 1-2 µs, on a two-thread
/// ragdoll step of about 300 µs; the caller's spawn also skips the
/// wake-up call (8-9 µs). Touches no world data.
///
/// `epoch` is the step the job was spawned for. If a later step has
/// already started, its job is queued behind this one: returning at once
/// lets the thread take it. (Waiting for the step after the current one
/// instead kept a thread that had fallen behind, as at start-up while
/// the pool's thread is created, one stale job behind for good: each
/// stale job waited a whole step. On the two-thread ragdolls the pool's
/// thread then ran its jobs 3-4 ms late and the caller stepped 100-200
/// of the 600 steps alone.)
fn linger(epoch: u64) {
    // Yielding from the start: on an idle processor a yield returns at
    // once, on a busy one the lingering thread gives way.
    spin_until(|| STEP_EPOCH.load(Ordering::Acquire) != epoch, Duration::ZERO, LINGER);
}

/// The caller's `run` closure, shared with the pool's runners.
#[derive(Clone, Copy)]
struct RunPtr(*const (dyn Fn(usize) + Sync + 'static));
// SAFETY: the closure is `Sync`; `StepGate` decides when it may be called.
unsafe impl Send for RunPtr {}

/// Who may still run a parallel step's tasks. The caller opens the gate
/// (a new generation), spawns the pool's runners, takes tasks itself,
/// then closes the gate and waits only for the runners that entered
/// before: a runner that starts after that returns at once, and so does
/// one left over from an earlier step (another generation). Gates are
/// reused from `GATES`, so a warm step allocates no gate.
struct StepGate {
    /// Generation (high 32 bits), `CLOSED`, runners inside (low 31 bits).
    state: AtomicU64,
    /// A runner's panic, re-raised on the caller.
    panic: Mutex<Option<Box<dyn std::any::Any + Send>>>,
}

const CLOSED: u64 = 1 << 31;
const INSIDE: u64 = CLOSED - 1;

static GATES: Mutex<Vec<Arc<StepGate>>> = Mutex::new(Vec::new());

impl StepGate {
    fn take() -> Arc<StepGate> {
        let mut gates = GATES.lock().unwrap_or_else(|e| e.into_inner());
        gates.pop().unwrap_or_else(|| {
            Arc::new(StepGate { state: AtomicU64::new(CLOSED), panic: Mutex::new(None) })
        })
    }

    fn put_back(gate: Arc<StepGate>) {
        GATES.lock().unwrap_or_else(|e| e.into_inner()).push(gate);
    }

    /// Starts a new generation, open, nobody inside; returns it.
    fn open(&self) -> u64 {
        let generation = (self.state.load(Ordering::Acquire) >> 32).wrapping_add(1) & 0xffff_ffff;
        self.state.store(generation << 32, Ordering::Release);
        generation
    }

    /// Enters if the gate is open in `generation`.
    fn enter(&self, generation: u64) -> bool {
        let mut s = self.state.load(Ordering::Acquire);
        loop {
            if s >> 32 != generation || s & CLOSED != 0 {
                return false;
            }
            match self.state.compare_exchange_weak(s, s + 1, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return true,
                Err(now) => s = now,
            }
        }
    }

    fn leave(&self, panic: Option<Box<dyn std::any::Any + Send>>) {
        if let Some(p) = panic {
            *self.panic.lock().unwrap_or_else(|e| e.into_inner()) = Some(p);
        }
        self.state.fetch_sub(1, Ordering::Release);
    }

    /// Closes the gate and waits until every runner inside has left. They
    /// are running tasks taken before the close, so the wait is short:
    /// spun for `JOIN_SPIN` where threads have processors of their own,
    /// yielding after that (and from the start otherwise).
    fn close_and_wait(&self, spin: bool) {
        let inside = |s: u64| s & INSIDE != 0;
        if !inside(self.state.fetch_or(CLOSED, Ordering::AcqRel)) {
            return;
        }
        let spin_for = if spin { JOIN_SPIN } else { Duration::ZERO };
        spin_until(|| !inside(self.state.load(Ordering::Acquire)), spin_for, Duration::MAX);
    }

    fn take_panic(&self) -> Option<Box<dyn std::any::Any + Send>> {
        self.panic.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// Closes the gate when the caller's own share of the step ends, also
/// when it unwinds (runners inside use the caller's stack).
struct CloseOnDrop<'a> {
    gate: &'a StepGate,
    spin: bool,
}

impl Drop for CloseOnDrop<'_> {
    fn drop(&mut self) {
        self.gate.close_and_wait(self.spin);
    }
}

/// Least work worth a task of its own, in free-body steps (a few hundred
/// instructions each): below this the pool's hand-off costs more than the
/// islands' step.
const MIN_TASK_COST: usize = 256;

/// An island's work in free-body steps: a joint's rows cost far more than
/// a body's integration (and the Step's LCP grows faster than linearly),
/// so a jointed island of the Step is its own task unless it is tiny. The
/// QuickStep's rows are cheaper, and its small islands are solved a few
/// at a time (`grouped`): a task holds about fifteen islands of a body and
/// two contacts (with two per task, the trimesh terrain ran 1.24 times
/// slower on two threads than on one; 1.15 with bigger tasks).
fn island_cost(p: &IslandPlan, quick: bool) -> usize {
    p.nb + if quick { 8 } else { 64 } * p.nj
}

/// Groups consecutive islands of `plan` into pool tasks: an island worth
/// `MIN_TASK_COST` is a task of its own (work stealing balances those);
/// smaller ones are gathered until they are worth one. Which thread steps
/// an island never changes its bits, so any grouping is exact.
fn plan_tasks(plan: &[IslandPlan], tasks: &mut Vec<std::ops::Range<usize>>, quick: bool) {
    tasks.clear();
    let (mut start, mut acc) = (0, 0);
    for (k, p) in plan.iter().enumerate() {
        let cost = island_cost(p, quick);
        if cost >= MIN_TASK_COST {
            if start < k {
                tasks.push(start..k);
            }
            tasks.push(k..k + 1);
            (start, acc) = (k + 1, 0);
            continue;
        }
        acc += cost;
        if acc >= MIN_TASK_COST {
            tasks.push(start..k + 1);
            (start, acc) = (k + 1, 0);
        }
    }
    if start < plan.len() {
        tasks.push(start..plan.len());
    }
}

/// Whether at least two tasks hold jointed islands. Free bodies alone are
/// not worth a second thread however many there are: their step is a few
/// hundred instructions on a body the host has just written (forces), so
/// moving it to another core costs more in cache-line transfers than it
/// saves (1000 free bodies ran 1.07-1.23x slower at two threads).
fn worth_parallel(plan: &[IslandPlan], tasks: &[std::ops::Range<usize>]) -> bool {
    tasks.iter().filter(|t| plan[(*t).clone()].iter().any(|p| p.nj > 0)).count() >= 2
}

/// Steps every island of `s` on `threads` threads if that is safe and
/// worth it; returns false (having done nothing) otherwise.
pub fn try_step_parallel(world: &World, s: &mut StepScratch, h: f64, quick: bool, threads: usize) -> bool {
    if threads < 2 || s.island_sizes.len() < 2 {
        return false;
    }
    // `worth_parallel` asks for two tasks with jointed islands, so at
    // least two jointed islands: checked first, so that a world of free
    // bodies pays nothing for the thread setting (it walked the bodies,
    // built the plan and started the pool every step to step serially,
    // 5 % of the free-body bench's step at two threads).
    if s.island_joints.iter().filter(|&&nj| nj > 0).nth(1).is_none() {
        return false;
    }
    if s.bodies.iter().any(|b| b.get().moved_callback.is_some())
        || s.joints.iter().any(|j| matches!(j.get().kind, JointKind::Custom(_)))
    {
        return false;
    }
    let Some(pool) = pool(threads - 1) else { return false };

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
    plan_tasks(&s.plan, &mut s.tasks, quick);
    if !worth_parallel(&s.plan, &s.tasks) {
        return false;
    }

    // Costliest tasks first, each taken by whichever thread is free next
    // (the caller included): greedy list scheduling, which balances the
    // ragdolls' unequal islands where rayon's halving of the task range
    // did not. Which thread steps an island never changes its bits.
    s.task_order.clear();
    s.task_order.extend(0..s.tasks.len() as u32);
    {
        let (tasks, plan) = (&s.tasks, &s.plan);
        let cost = |t: u32| plan[tasks[t as usize].clone()].iter().map(|p| island_cost(p, quick)).sum::<usize>();
        s.task_order.sort_unstable_by_key(|&t| (std::cmp::Reverse(cost(t)), t));
    }

    let group = grouped::mode(world, quick);
    let (bodies, joints, workers, contacts) = (&s.bodies[..], &s.joints[..], &s.workers[..], &s.contacts);
    let (plan, tasks, task_order) = (&s.plan[..], &s.tasks[..], &s.task_order[..]);
    let shared = SharedWorld(world);
    // Captured whole (a reference to it), not its non-`Sync` field.
    let shared = &shared;
    let next = AtomicUsize::new(0);
    // Runner `w` (its own buffers) takes tasks until none is left.
    let run = |w: usize| {
        let world = shared.0;
        let mut work = workers[w].lock().unwrap_or_else(|e| e.into_inner());
        body::with_geoms_moved_deferred(|| {
            while let Some(&t) = task_order.get(next.fetch_add(1, Ordering::Relaxed)) {
                let islands = &plan[tasks[t as usize].clone()];
                let mut members = [(0, 0); grouped::MAX_GROUP];
                let mut k = 0;
                while k < islands.len() {
                    let p = islands[k];
                    // A group draws its islands' numbers one island after
                    // another, from the first one's state on.
                    let with_seed = |f: &mut dyn FnMut()| {
                        if shuffles {
                            random::with_stream(p.seed, f)
                        } else {
                            f()
                        }
                    };
                    if let Some(mode) = group {
                        let rest = islands[k..].iter().map(|q| (q.nb, q.nj));
                        let n = grouped::group_len(mode, &bodies[p.b0..], &joints[p.j0..], rest, &mut members);
                        if n > 1 {
                            let last = islands[k + n - 1];
                            let (bs, js) = (&bodies[p.b0..last.b0 + last.nb], &joints[p.j0..last.j0 + last.nj]);
                            with_seed(&mut || grouped::step_quick_group(mode, world, bs, js, &members[..n], &mut work, h));
                            k += n;
                            continue;
                        }
                    }
                    let island = &bodies[p.b0..p.b0 + p.nb];
                    let island_joints = &joints[p.j0..p.j0 + p.nj];
                    with_seed(&mut || step_island(world, island, island_joints, &mut work, contacts, h, quick));
                    k += 1;
                }
            }
        });
    };
    // The pool's threads serve beside the caller, which works too (as
    // ODE's threading implementations do) instead of sleeping until the
    // pool is done. A pool thread that has not started by the time the
    // caller has taken every task is not waited for (see `StepGate`): on a
    // busy machine it may not get a processor for hundreds of µs.
    // Lingering, and spinning for the runners at work, only while every
    // thread has a processor of its own: with more threads than
    // processors (4 on the 2-core VM) spinners took the processors from
    // the threads with work, and the ragdolls ran twice as slowly.
    let spin = threads <= processors();
    // Lingering pool threads (see `linger`) stop waiting and take these.
    let epoch = STEP_EPOCH.fetch_add(1, Ordering::Release).wrapping_add(1);
    let gate = StepGate::take();
    let generation = gate.open();
    {
        let run: &(dyn Fn(usize) + Sync) = &run;
        // SAFETY: the pointer outlives its uses: a runner calls it only
        // after `enter` succeeded, and `close_and_wait` (below, also on
        // unwinding) returns only once every runner that entered has left.
        let ptr = RunPtr(unsafe {
            std::mem::transmute::<*const (dyn Fn(usize) + Sync + '_), *const (dyn Fn(usize) + Sync + 'static)>(run)
        });
        // Before any runner can enter: closes the gate when the caller's
        // share ends, also by unwinding.
        let closer = CloseOnDrop { gate: &gate, spin };
        for w in 1..threads {
            let gate = gate.clone();
            pool.spawn(move || {
                let ptr = ptr;
                if gate.enter(generation) {
                    // SAFETY: entered, so the caller is still waiting.
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| unsafe { (*ptr.0)(w) }));
                    gate.leave(r.err());
                }
                // Stay awake for the next step (after leaving: the caller
                // does not wait for this). The same job, so a step spawns
                // one job per pool thread, as before.
                if spin {
                    linger(epoch);
                }
            });
        }
        run(0);
        drop(closer);
    }
    let panic = gate.take_panic();
    StepGate::put_back(gate);
    if let Some(p) = panic {
        std::panic::resume_unwind(p);
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A runner of an earlier generation, or one that comes after the
    /// close, never enters; the caller waits for a runner inside until it
    /// leaves, and gets its panic.
    #[test]
    fn step_gate_admits_only_the_open_generation() {
        let gate = Arc::new(StepGate { state: AtomicU64::new(CLOSED), panic: Mutex::new(None) });
        let g1 = gate.open();
        assert!(gate.enter(g1));
        gate.leave(None);
        let g2 = gate.open();
        assert_ne!(g1, g2);
        assert!(!gate.enter(g1), "a runner left over from the previous step entered");
        assert!(gate.enter(g2));
        // The runner inside leaves 20 ms later, on another thread, with a
        // panic; the caller's close must wait for it.
        let left = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let t = {
            let (gate, left) = (gate.clone(), left.clone());
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(20));
                left.store(true, Ordering::SeqCst);
                gate.leave(Some(Box::new("runner panicked")));
            })
        };
        gate.close_and_wait(true);
        assert!(left.load(Ordering::SeqCst), "close returned while a runner was inside");
        assert!(!gate.enter(g2), "a runner entered after the close");
        let p = gate.take_panic().expect("the runner's panic");
        assert_eq!(*p.downcast::<&str>().unwrap(), "runner panicked");
        t.join().unwrap();
        // Generations wrap within their 32 bits.
        gate.state.store((0xffff_ffffu64 << 32) | CLOSED, Ordering::SeqCst);
        let g = gate.open();
        assert_eq!(g, 0);
        assert!(gate.enter(g));
        gate.leave(None);
        gate.close_and_wait(false);
    }

    /// A job that runs after a later step has started (its thread fell
    /// behind) does not wait for yet another step: the newer job queued
    /// behind it is taken at once. The fastest of five tries, so that a
    /// preempted try cannot fail the test; a lingering job takes at least
    /// `LINGER` every time (unless another test starts a step meanwhile).
    #[test]
    fn a_stale_job_does_not_linger() {
        let fastest = (0..5)
            .map(|_| {
                let stale = STEP_EPOCH.fetch_add(1, Ordering::Release);
                let t = Instant::now();
                linger(stale);
                t.elapsed()
            })
            .min()
            .unwrap();
        assert!(fastest < LINGER, "a stale job lingered {fastest:?}");
    }

    fn plan(sizes: &[(usize, usize)]) -> Vec<IslandPlan> {
        let (mut b0, mut j0) = (0, 0);
        sizes
            .iter()
            .map(|&(nb, nj)| {
                let p = IslandPlan { b0, nb, j0, nj, seed: 0 };
                b0 += nb;
                j0 += nj;
                p
            })
            .collect()
    }

    /// Tasks cover every island once, in order, contiguously.
    fn check_cover(p: &[IslandPlan], tasks: &[std::ops::Range<usize>]) {
        let mut next = 0;
        for t in tasks {
            assert_eq!(t.start, next);
            assert!(t.end > t.start);
            next = t.end;
        }
        assert_eq!(next, p.len());
    }

    #[test]
    fn free_bodies_are_grouped_into_a_few_tasks() {
        let p = plan(&[(1, 0); 1000]);
        let mut tasks = Vec::new();
        plan_tasks(&p, &mut tasks, false);
        check_cover(&p, &tasks);
        // 1000 one-body islands: 3 tasks of 256, then the rest.
        assert_eq!(tasks.len(), 4);
        assert!(tasks[..3].iter().all(|t| t.len() == MIN_TASK_COST));
    }

    #[test]
    fn jointed_islands_keep_a_task_each() {
        // Ten ragdoll-like islands (15 bodies, 14 joints).
        let p = plan(&[(15, 14); 10]);
        let mut tasks = Vec::new();
        plan_tasks(&p, &mut tasks, false);
        check_cover(&p, &tasks);
        assert_eq!(tasks.len(), 10);
    }

    #[test]
    fn free_bodies_alone_stay_serial() {
        let mut tasks = Vec::new();
        let free = plan(&[(1, 0); 1000]);
        plan_tasks(&free, &mut tasks, false);
        assert!(!worth_parallel(&free, &tasks));
        // One jointed island among them: still one task with joints.
        let mut sizes = vec![(1, 0); 600];
        sizes.push((15, 14));
        let one = plan(&sizes);
        plan_tasks(&one, &mut tasks, false);
        assert!(!worth_parallel(&one, &tasks));
        let two = plan(&[(15, 14), (1, 0), (15, 14)]);
        plan_tasks(&two, &mut tasks, false);
        assert!(worth_parallel(&two, &tasks));
    }

    #[test]
    fn small_quickstep_islands_share_tasks() {
        // 200 islands of a body and two contacts: the Step gives each pair
        // a task, the QuickStep gathers about fifteen.
        let p = plan(&[(1, 2); 200]);
        let mut tasks = Vec::new();
        plan_tasks(&p, &mut tasks, false);
        check_cover(&p, &tasks);
        assert_eq!(tasks.len(), 100);
        plan_tasks(&p, &mut tasks, true);
        check_cover(&p, &tasks);
        assert!(tasks[..tasks.len() - 1].iter().all(|t| t.len() == 16), "{tasks:?}");
        assert!(worth_parallel(&p, &tasks));
    }

    #[test]
    fn small_islands_between_large_ones_join_a_neighbour() {
        let p = plan(&[(40, 60), (1, 0), (1, 0), (2, 1), (40, 60), (1, 0)]);
        let mut tasks = Vec::new();
        plan_tasks(&p, &mut tasks, false);
        check_cover(&p, &tasks);
        assert_eq!(tasks, vec![0..1, 1..4, 4..5, 5..6]);
    }
}
