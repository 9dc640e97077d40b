//! The call scheduler of ODE's built-in threading implementations.
//!
//! A posted call ("job") carries a dependency count. It becomes ready when
//! the count reaches zero; ready jobs are taken last-in first-out, as ODE's
//! lock-free ready stack does. A job being run holds one extra count of its
//! own, so calls it posts with itself as dependent (after raising its count)
//! delay its completion: it completes when the count drops to zero after it
//! has run. Completion writes the accumulated fault (the job's own failure
//! or any failure of the calls it waited for) to the poster's variable,
//! signals its call wait, then releases its dependent job, passing the
//! fault on.
//!
//! The host keeps the counts: a call that names a dependent must be
//! counted in the dependent's count. A release the count does not hold
//! (ODE asserts on it) is reported on the debug channel and dropped, so a
//! miscounting host cannot complete a call that is still running or reach
//! a call that has already completed.
//!
//! Two flavours:
//! - self-threaded: posting only queues; a wait first runs every ready job
//!   on the waiting thread, then looks at its call wait (ODE's behaviour);
//!   its mutexes are flags, as nothing runs concurrently;
//! - multi-threaded: jobs are run by the threads that serve the
//!   implementation (`serve`, until `shutdown`); waits block.

use crate::handle::{Handle, Pool};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

pub static IMPLEMENTATIONS: Pool<Implementation> = Pool::new(0x5448_494D);
pub static CALL_WAITS: Pool<CallWait> = Pool::new(0x5448_5754);
pub static MUTEX_GROUPS: Pool<MutexGroup> = Pool::new(0x5448_4D47);

pub type ImplRef = Handle<Implementation>;

/// The body of a posted call: receives the call's own releasee, returns
/// success.
pub type CallBody = Box<dyn FnOnce(Releasee) -> bool + Send>;
/// Receives the summary fault of a completed call.
pub type FaultSink = Box<dyn FnOnce(bool) + Send>;

/// The identity of a posted call, as given to C (`dCallReleaseeID`): slot
/// index + 1 in the low 32 bits, the slot's generation above, so that a
/// stale releasee is recognised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Releasee(pub usize);

impl Releasee {
    fn new(slot: usize, gen: u32) -> Self {
        Releasee(((gen as usize) << 32) | (slot + 1))
    }
    fn slot(self) -> Option<(usize, u32)> {
        let idx = self.0 & 0xFFFF_FFFF;
        (idx != 0).then(|| (idx - 1, (self.0 >> 32) as u32))
    }
}

/// Why a scheduler request was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ThrError {
    StaleReleasee,
    ZeroChange,
    Underflow { count: usize, change: isize },
    Overflow,
    NotOwner,
    MutexIndex { index: u32, count: u32 },
    AlreadyLocked(u32),
    NotLocked(u32),
    NeverSignalled,
    Busy { threads: u32, queued: usize },
    SelfThreaded,
}

impl std::fmt::Display for ThrError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ThrError::StaleReleasee => write!(f, "is not a pending or running call of this implementation"),
            ThrError::ZeroChange => write!(f, "is zero"),
            ThrError::Underflow { count, change } => {
                write!(f, "{change} would take the dependency count {count} below zero")
            }
            ThrError::Overflow => write!(f, "overflows the dependency count"),
            ThrError::NotOwner => write!(f, "belongs to another threading implementation"),
            ThrError::MutexIndex { index, count } => write!(f, "{index} is out of range (group of {count} mutexes)"),
            ThrError::AlreadyLocked(i) => {
                write!(f, "mutex {i} is already locked (a self-threaded implementation would deadlock)")
            }
            ThrError::NotLocked(i) => write!(f, "mutex {i} is not locked"),
            ThrError::NeverSignalled => write!(
                f,
                "is not signalled once every ready call has run (self-threaded: nothing else could signal it)"
            ),
            ThrError::Busy { threads, queued } => {
                write!(f, "is still in use ({threads} serving threads, {queued} calls not yet started)")
            }
            ThrError::SelfThreaded => write!(f, "is self-threaded: it has no use for serving threads"),
        }
    }
}

struct Job {
    /// The host's count, plus one while the body runs.
    deps: usize,
    dependent: Option<Releasee>,
    /// The body is running (`deps` holds its extra count).
    running: bool,
    wait: Option<Arc<WaitState>>,
    fault: bool,
    started: bool,
    body: Option<CallBody>,
    sink: Option<FaultSink>,
}

struct Slot {
    gen: u32,
    job: Option<Job>,
}

#[derive(Default)]
struct State {
    slots: Vec<Slot>,
    free: Vec<usize>,
    /// Ready jobs, taken from the end.
    ready: Vec<usize>,
    /// Jobs posted and not yet started (ODE's job list).
    queued: usize,
    shutdown: bool,
    serving: u32,
}

/// A threading implementation.
pub struct Implementation {
    multi: bool,
    state: Mutex<State>,
    /// Multi-threaded: wakes serving threads (work or shutdown).
    work: Condvar,
}

/// Reports a host's miscounted release (on the debug channel, as ODE's
/// assertions), from whichever thread found it, with no lock held.
fn report_misuse(text: Option<String>) {
    if let Some(t) = text {
        crate::error::report(crate::error::Channel::Debug, crate::error::D_ERR_UASSERT, &t);
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Implementation {
    pub fn new(multi: bool) -> Self {
        Implementation { multi, state: Mutex::new(State::default()), work: Condvar::new() }
    }

    pub fn is_multi(&self) -> bool {
        self.multi
    }

    /// Threads serving the implementation (0 for self-threaded ones).
    pub fn thread_count(&self) -> u32 {
        if self.multi {
            lock(&self.state).serving
        } else {
            0
        }
    }

    /// Reserves room for that many simultaneous calls.
    pub fn preallocate(&self, calls: usize) -> bool {
        let mut st = lock(&self.state);
        let extra = calls.saturating_sub(st.slots.len());
        st.slots.try_reserve(extra).is_ok()
    }

    /// Validates a releasee of this implementation, live.
    fn check_releasee(st: &State, r: Releasee) -> Result<usize, ThrError> {
        let (i, gen) = r.slot().ok_or(ThrError::StaleReleasee)?;
        match st.slots.get(i) {
            Some(s) if s.gen == gen && s.job.is_some() => Ok(i),
            _ => Err(ThrError::StaleReleasee),
        }
    }

    /// Checks a releasee before posting (the dependent of a new call).
    pub fn releasee_is_live(&self, r: Releasee) -> bool {
        Self::check_releasee(&lock(&self.state), r).is_ok()
    }

    /// Posts a call. `dependent` must be live (see `releasee_is_live`).
    pub fn post(
        &self,
        deps: usize,
        dependent: Option<Releasee>,
        wait: Option<&CallWait>,
        body: CallBody,
        sink: Option<FaultSink>,
    ) -> Result<Releasee, ThrError> {
        self.post_with(deps, dependent, wait, body, sink, |_| {})
    }

    /// `post`, handing the new call's releasee to `posted` before the call
    /// can start.
    pub fn post_with(
        &self,
        deps: usize,
        dependent: Option<Releasee>,
        wait: Option<&CallWait>,
        body: CallBody,
        sink: Option<FaultSink>,
        posted: impl FnOnce(Releasee),
    ) -> Result<Releasee, ThrError> {
        let mut st = lock(&self.state);
        if let Some(r) = dependent {
            Self::check_releasee(&st, r)?;
        }
        let job = Job {
            deps,
            dependent,
            wait: wait.map(|w| w.state.clone()),
            running: false,
            fault: false,
            started: false,
            body: Some(body),
            sink,
        };
        let i = match st.free.pop() {
            Some(i) => i,
            None => {
                st.slots.push(Slot { gen: 0, job: None });
                st.slots.len() - 1
            }
        };
        let slot = &mut st.slots[i];
        slot.gen = slot.gen.wrapping_add(1);
        slot.job = Some(job);
        let r = Releasee::new(i, slot.gen);
        st.queued += 1;
        posted(r);
        if deps == 0 {
            st.ready.push(i);
            drop(st);
            self.work.notify_one();
        }
        Ok(r)
    }

    /// Adds `change` to the dependency count of a pending or running call.
    pub fn alter_dependencies(&self, target: Releasee, change: isize) -> Result<(), ThrError> {
        if change == 0 {
            return Err(ThrError::ZeroChange);
        }
        let mut st = lock(&self.state);
        let i = Self::check_releasee(&st, target)?;
        let job = st.slots[i].job.as_ref().unwrap();
        if !job.started && job.deps == 0 {
            // Already ready: ODE does not allow changes any more.
            return Err(ThrError::Underflow { count: 0, change });
        }
        // The host's own count: a running call's extra count is not its to
        // take away.
        let running = job.running as usize;
        let count = job.deps - running;
        let new = if change < 0 {
            count.checked_sub(change.unsigned_abs()).ok_or(ThrError::Underflow { count, change })?
        } else {
            count.checked_add(change as usize).ok_or(ThrError::Overflow)?
        };
        st.slots[i].job.as_mut().unwrap().deps = new + running;
        let misuse = if new + running == 0 { self.settle(&mut st, i) } else { None };
        drop(st);
        report_misuse(misuse);
        Ok(())
    }

    /// A job whose count reached zero: ready if not started, else complete
    /// (and release its dependents in turn). Returns the text of a release
    /// the dependent's count did not hold (dropped), to be reported once
    /// the state is unlocked.
    fn settle(&self, st: &mut State, mut i: usize) -> Option<String> {
        loop {
            let job = st.slots[i].job.as_mut().unwrap();
            if !job.started {
                st.ready.push(i);
                self.work.notify_one();
                return None;
            }
            let job = st.slots[i].job.take().unwrap();
            st.free.push(i);
            if let Some(sink) = job.sink {
                sink(job.fault);
            }
            if let Some(w) = &job.wait {
                w.signal();
            }
            let d = job.dependent?;
            let Ok(di) = Self::check_releasee(st, d) else {
                return Some(
                    "a completed call names a dependent call that has already completed: the dependent's \
                     count did not include this call, as ODE requires (ODE asserts); the release is dropped"
                        .to_string(),
                );
            };
            let dj = st.slots[di].job.as_mut().unwrap();
            if dj.deps == dj.running as usize {
                return Some(format!(
                    "a completed call releases its dependent call, whose dependency count is already 0 \
                     ({}): the count did not include this call, as ODE requires (ODE asserts); the release \
                     is dropped",
                    if dj.running { "running" } else { "ready to run" }
                ));
            }
            if job.fault {
                dj.fault = true;
            }
            dj.deps -= 1;
            if dj.deps != 0 {
                return None;
            }
            i = di;
        }
    }

    /// Takes the next ready job and runs it on this thread. Returns false
    /// when none is ready.
    fn run_one<'a>(&'a self, mut st: MutexGuard<'a, State>) -> (MutexGuard<'a, State>, bool) {
        let Some(i) = st.ready.pop() else { return (st, false) };
        st.queued -= 1;
        let gen = st.slots[i].gen;
        let job = st.slots[i].job.as_mut().unwrap();
        job.started = true;
        job.running = true;
        job.deps = 1;
        let body = job.body.take().unwrap();
        if !st.ready.is_empty() {
            self.work.notify_one();
        }
        drop(st);
        let ok = body(Releasee::new(i, gen));
        let mut st = lock(&self.state);
        let job = st.slots[i].job.as_mut().unwrap();
        if !ok {
            job.fault = true;
        }
        job.running = false;
        job.deps -= 1;
        if job.deps == 0 {
            if let Some(text) = self.settle(&mut st, i) {
                drop(st);
                report_misuse(Some(text));
                st = lock(&self.state);
            }
        }
        (st, true)
    }

    /// Waits for a call wait to be signalled. `timeout` None waits forever.
    /// Returns whether it was signalled.
    pub fn wait(&self, w: &CallWait, timeout: Option<Duration>) -> Result<bool, ThrError> {
        if !self.multi {
            let mut st = lock(&self.state);
            loop {
                let (g, ran) = self.run_one(st);
                st = g;
                if !ran {
                    break;
                }
            }
            drop(st);
            // Nothing else can signal it now: ODE asserts here, timeout or not.
            if !w.state.is_signalled() {
                return Err(ThrError::NeverSignalled);
            }
            return Ok(true);
        }
        Ok(w.state.wait(timeout))
    }

    /// Serves a multi-threaded implementation on the calling thread until
    /// shutdown is requested and no posted call is left unstarted.
    pub fn serve(&self, ready: impl FnOnce()) -> Result<(), ThrError> {
        if !self.multi {
            return Err(ThrError::SelfThreaded);
        }
        lock(&self.state).serving += 1;
        ready();
        let mut st = lock(&self.state);
        loop {
            if st.shutdown && st.queued == 0 {
                break;
            }
            let (g, ran) = self.run_one(st);
            st = g;
            if !ran {
                if st.shutdown && st.queued == 0 {
                    break;
                }
                st = self.work.wait(st).unwrap_or_else(|e| e.into_inner());
            }
        }
        st.serving -= 1;
        drop(st);
        // Let other servers re-check the exit condition.
        self.work.notify_all();
        Ok(())
    }

    /// Asks serving threads to return once the posted calls are done.
    pub fn shutdown(&self) {
        if self.multi {
            lock(&self.state).shutdown = true;
            self.work.notify_all();
        }
    }

    /// Clears the shutdown request so the implementation can be served again.
    pub fn cleanup_for_restart(&self) {
        if self.multi {
            lock(&self.state).shutdown = false;
        }
    }

    /// Whether the implementation may be freed now.
    pub fn check_idle(&self) -> Result<(), ThrError> {
        let st = lock(&self.state);
        if st.serving != 0 || st.queued != 0 {
            return Err(ThrError::Busy { threads: st.serving, queued: st.queued });
        }
        Ok(())
    }
}

/// A manual-reset event: set by the completion of calls, cleared by reset.
struct WaitState {
    signalled: Mutex<bool>,
    cv: Condvar,
}

impl WaitState {
    fn signal(&self) {
        *lock(&self.signalled) = true;
        self.cv.notify_all();
    }
    fn is_signalled(&self) -> bool {
        *lock(&self.signalled)
    }
    fn wait(&self, timeout: Option<Duration>) -> bool {
        let mut s = lock(&self.signalled);
        match timeout {
            None => {
                while !*s {
                    s = self.cv.wait(s).unwrap_or_else(|e| e.into_inner());
                }
                true
            }
            Some(t) => {
                let end = Instant::now().checked_add(t);
                while !*s {
                    let now = Instant::now();
                    let left = match end {
                        Some(e) if e > now => e - now,
                        Some(_) => return false,
                        None => Duration::from_secs(3600),
                    };
                    s = self.cv.wait_timeout(s, left).unwrap_or_else(|e| e.into_inner()).0;
                }
                true
            }
        }
    }
}

/// A call wait (`dCallWaitID`) of one implementation.
pub struct CallWait {
    owner: usize,
    state: Arc<WaitState>,
}

impl CallWait {
    pub fn new(owner: ImplRef) -> Self {
        CallWait {
            owner: owner.as_raw() as usize,
            state: Arc::new(WaitState { signalled: Mutex::new(false), cv: Condvar::new() }),
        }
    }
    pub fn check_owner(&self, owner: ImplRef) -> Result<(), ThrError> {
        if self.owner == owner.as_raw() as usize {
            Ok(())
        } else {
            Err(ThrError::NotOwner)
        }
    }
    pub fn reset(&self) {
        *lock(&self.state.signalled) = false;
    }
}

/// One mutex of a group: a flag and, for multi-threaded implementations,
/// a condition to block on.
struct GroupMutex {
    locked: Mutex<bool>,
    cv: Condvar,
}

/// A mutex group (`dMutexGroupID`).
pub struct MutexGroup {
    owner: usize,
    /// Self-threaded groups never block: locking a locked mutex is an error.
    blocking: bool,
    mutexes: Vec<GroupMutex>,
}

impl MutexGroup {
    pub fn new(owner: ImplRef, count: u32) -> Self {
        let blocking = owner.get().multi;
        let mutexes = (0..count).map(|_| GroupMutex { locked: Mutex::new(false), cv: Condvar::new() }).collect();
        MutexGroup { owner: owner.as_raw() as usize, blocking, mutexes }
    }
    pub fn check_owner(&self, owner: ImplRef) -> Result<(), ThrError> {
        if self.owner == owner.as_raw() as usize {
            Ok(())
        } else {
            Err(ThrError::NotOwner)
        }
    }
    fn mutex(&self, index: u32) -> Result<&GroupMutex, ThrError> {
        self.mutexes.get(index as usize).ok_or(ThrError::MutexIndex { index, count: self.mutexes.len() as u32 })
    }
    pub fn check_index(&self, index: u32) -> Result<(), ThrError> {
        self.mutex(index).map(|_| ())
    }
    pub fn lock(&self, index: u32) -> Result<(), ThrError> {
        let m = self.mutex(index)?;
        let mut l = lock(&m.locked);
        if *l && !self.blocking {
            return Err(ThrError::AlreadyLocked(index));
        }
        while *l {
            l = m.cv.wait(l).unwrap_or_else(|e| e.into_inner());
        }
        *l = true;
        Ok(())
    }
    pub fn unlock(&self, index: u32) -> Result<(), ThrError> {
        let m = self.mutex(index)?;
        let mut l = lock(&m.locked);
        if !*l {
            return Err(ThrError::NotLocked(index));
        }
        *l = false;
        drop(l);
        m.cv.notify_one();
        Ok(())
    }
}
