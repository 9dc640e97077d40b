//! Stable object handles shared with C.
//!
//! Every ODE object (world, body, joint, geom/space, joint group, …) lives in
//! a `Cell<T>` allocated from a per-kind `Pool`. The address of the cell is the
//! handle given to C: it never moves while the object lives, so it can be
//! compared, hashed and used as a map key exactly like ODE's pointers, and
//! pointers into the object (e.g. the position returned by
//! `dBodyGetPosition`) stay valid for the object's life.
//!
//! Cells are carved from slabs, each cell on its own cache lines (see
//! [`Slab`]), and never returned to the system allocator. Destroying an object
//! drops its contents, stamps the cell dead and queues it for reuse by the
//! same kind only, so reading the tag of a destroyed object's cell is always
//! defined behaviour and a stale handle is reported instead of followed.
//! Reuse waits behind a quarantine, so a just-destroyed handle stays
//! detectably dead for a while even under churn: a pool's own list is
//! FIFO behind it; a private [`Stash`] (a joint group's) reuses the most
//! recently released cell past it first, the one likeliest to be cached.

use std::cell::UnsafeCell;
use std::collections::VecDeque;
use std::mem::MaybeUninit;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// Tag of a dead cell. Live tags are the pool's kind tag.
const DEAD: u32 = 0xDEAD_0DE0;
/// How many dead cells a pool keeps before it starts reusing the oldest.
const QUARANTINE: usize = 256;

/// Storage of one object plus its liveness tag. `repr(C)` keeps the tag at
/// offset 0 so that handles of different kinds that share a pool (a space is
/// a geom) can be told apart by the same read. Cells start on a cache line:
/// the tag and the object's first 56 bytes (where a body keeps what the
/// per-contact calls read) share one line, and a contact joint's cell spans
/// 6 lines, not 6 or 7.
#[repr(C)]
pub struct Cell<T> {
    tag: AtomicU32,
    /// How many objects this cell has held before the current one (see
    /// [`Handle::generation`]); fills the padding before the value. Atomic
    /// only so that a stale handle read on another thread is not a data
    /// race: relaxed loads and stores are plain moves.
    generation: AtomicU32,
    value: UnsafeCell<MaybeUninit<T>>,
}

// Objects are handed to C, which may move them between threads as ODE allows;
// synchronisation is the host's business, as with ODE.
unsafe impl<T> Sync for Cell<T> {}
unsafe impl<T> Send for Cell<T> {}

/// The dead cells of a pool (addresses, oldest first) and its current
/// slab, behind a spin lock.
///
/// Every critical section is one `VecDeque` push or pop or a slab bump (a
/// few dozen instructions; a call out only for a new slab, once per many
/// cells), and hosts create and destroy a contact joint
/// per contact point, so the lock is taken twice per contact. std's
/// `Mutex` costs two locked instructions plus poison bookkeeping (reads of
/// the global panic count) each time; this lock is one `xchg` to take and
/// a plain release store to give back. It is sound: the `Acquire` swap that
/// finds the flag clear is the only way in, the `Release` store the only
/// way out, so at most one thread touches the deque at a time and each
/// sees the previous holder's writes. Contention (worlds stepped on
/// several host threads share the pools) is brief; a waiter spins, then
/// yields its time slice so a preempted holder can finish.
struct FreeList {
    locked: AtomicBool,
    cells: UnsafeCell<Cells>,
}

/// What a pool's lock guards.
struct Cells {
    dead: VecDeque<usize>,
    slab: Slab,
}

/// Where a pool's new cells come from: slabs of about `SLAB_BYTES`, cut
/// into cells that each start on a cache line and fill whole lines.
/// Compared with a heap block per cell (16-byte aligned, with a malloc
/// header between cells), an object's first bytes share the line of its
/// tag (a body's world and joint list, read per contact), a contact
/// joint's cell spans 6 lines instead of 6 or 7, and cells created
/// together (a step's contact joints) lie side by side.
struct Slab {
    next: usize,
    left: usize,
}

/// Approximate size of a slab.
const SLAB_BYTES: usize = 16 * 1024;
/// Cells start on this boundary (a cache line).
const LINE: usize = 64;

impl Slab {
    /// The address of a fresh cell of `layout` (whose size is a multiple
    /// of its alignment), starting a new slab if this one is used up.
    fn take(&mut self, layout: std::alloc::Layout) -> usize {
        if self.left == 0 {
            let per_slab = (SLAB_BYTES / layout.size()).max(1);
            let slab = std::alloc::Layout::from_size_align(layout.size() * per_slab, layout.align())
                .expect("slab layout");
            // SAFETY: the size is not zero (a cell holds at least its tag).
            let p = unsafe { std::alloc::alloc(slab) };
            if p.is_null() {
                std::alloc::handle_alloc_error(slab);
            }
            self.next = p as usize;
            self.left = per_slab;
        }
        let cell = self.next;
        self.next += layout.size();
        self.left -= 1;
        cell
    }
}

// The deque is only reached under `locked` (see `with`).
unsafe impl Sync for FreeList {}

/// Releases the lock when dropped, also if the critical section panics
/// (the deque's growth can only abort, but a poisoned free list must not
/// block every later alloc).
struct Unlock<'a>(&'a AtomicBool);

impl Drop for Unlock<'_> {
    #[inline]
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

impl FreeList {
    const fn new() -> Self {
        FreeList {
            locked: AtomicBool::new(false),
            cells: UnsafeCell::new(Cells { dead: VecDeque::new(), slab: Slab { next: 0, left: 0 } }),
        }
    }

    #[inline]
    fn with<R>(&self, f: impl FnOnce(&mut Cells) -> R) -> R {
        if self.locked.swap(true, Ordering::Acquire) {
            self.wait();
        }
        let _unlock = Unlock(&self.locked);
        // SAFETY: the lock is held (above) until `_unlock` drops.
        f(unsafe { &mut *self.cells.get() })
    }

    /// Takes the lock held by another thread.
    #[cold]
    #[inline(never)]
    fn wait(&self) {
        let mut spins = 0u32;
        loop {
            // Read-only spinning keeps the cache line shared until it frees.
            while self.locked.load(Ordering::Relaxed) {
                if spins < 100 {
                    spins += 1;
                    std::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
            }
            if !self.locked.swap(true, Ordering::Acquire) {
                return;
            }
        }
    }
}

/// A per-kind allocator of `Cell<T>` with deferred, same-kind reuse.
pub struct Pool<T> {
    tag: u32,
    free: FreeList,
    _marker: std::marker::PhantomData<fn() -> T>,
}

impl<T> Pool<T> {
    pub const fn new(tag: u32) -> Self {
        Pool { tag, free: FreeList::new(), _marker: std::marker::PhantomData }
    }

    /// Moves `value` into a cell and returns its stable address.
    pub fn alloc(&self, value: T) -> Handle<T> {
        self.alloc_with(|| value)
    }

    /// Builds the object with `make` directly in a cell (no move of a large
    /// value through the stack) and returns its stable address.
    #[inline]
    pub fn alloc_with(&self, make: impl FnOnce() -> T) -> Handle<T> {
        let layout = Self::cell_layout();
        let (cell, fresh) = self.free.with(|c| match c.dead.len() > QUARANTINE {
            true => (c.dead.pop_front().unwrap_or_default(), false),
            false => (c.slab.take(layout), true),
        });
        // SAFETY: a cell from this pool's free list is dead and of this
        // pool; a fresh one is unused memory of the cell's layout.
        unsafe { self.alloc_in(cell, fresh, make) }
    }

    /// `alloc_with` taking the cell from `stash`, a private free list (see
    /// [`Pool::free_many_into`]), when it holds a cell past the quarantine;
    /// from the pool otherwise. A stash owned by one thread at a time (a
    /// joint group, used as ODE requires) is reached without the pool's
    /// lock, whose atomic exchange cost about as much as the rest of a
    /// contact joint's creation.
    ///
    /// # Safety
    /// Every cell in `stash` must have been put there by `free_many_into`
    /// of this pool (dead, and of this pool's kind).
    #[inline]
    pub unsafe fn alloc_from(&self, stash: &mut Stash, make: impl FnOnce() -> T) -> Handle<T> {
        match stash.ready.pop() {
            Some(cell) => self.alloc_in(cell, false, make),
            None => self.alloc_with(make),
        }
    }

    /// The layout of a cell in a slab: `Cell<T>` widened to whole cache
    /// lines, on a line boundary.
    fn cell_layout() -> std::alloc::Layout {
        let align = std::mem::align_of::<Cell<T>>().max(LINE);
        let size = std::mem::size_of::<Cell<T>>().next_multiple_of(align);
        std::alloc::Layout::from_size_align(size, align).expect("cell layout")
    }

    /// Where in its cell an object starts (cells start on a cache line):
    /// for laying out objects whose hot fields must share lines.
    pub const fn value_offset() -> usize {
        std::mem::offset_of!(Cell<T>, value)
    }

    /// # Safety
    /// `cell` is a dead cell of this pool, or (`fresh`) unused memory of
    /// `cell_layout` taken for this pool.
    #[inline]
    unsafe fn alloc_in(&self, cell: usize, fresh: bool, make: impl FnOnce() -> T) -> Handle<T> {
        let cell = cell as *mut Cell<T>;
        unsafe {
            if fresh {
                std::ptr::addr_of_mut!((*cell).tag).write(AtomicU32::new(DEAD));
                std::ptr::addr_of_mut!((*cell).generation).write(AtomicU32::new(0));
            }
            (*(*cell).value.get()).write(make());
            (*cell).tag.store(self.tag, Ordering::Release);
            Handle(NonNull::new_unchecked(cell))
        }
    }

    /// Drops the object and marks its cell dead. Returns false (and does
    /// nothing) if the handle was not live in this pool.
    pub fn free(&self, h: Handle<T>) -> bool {
        // SAFETY: the value is dropped.
        unsafe { self.release(h, true) }
    }

    /// `free` without dropping the value, for a value the caller knows owns
    /// nothing (a contact joint: its drop glue is an out-of-line match on
    /// the joint kind, a fifth of `dJointGroupEmpty` per joint).
    ///
    /// # Safety
    /// Dropping the value must be a no-op (else it leaks).
    pub unsafe fn free_trivial(&self, h: Handle<T>) -> bool {
        self.release(h, false)
    }

    /// # Safety
    /// With `drop` false, dropping the value must be a no-op.
    #[inline]
    unsafe fn release(&self, h: Handle<T>, drop: bool) -> bool {
        if !self.kill(h, drop) {
            return false;
        }
        self.free.with(|c| c.dead.push_back(h.0.as_ptr() as usize));
        true
    }

    /// Frees many objects in order, queueing their cells under one take of
    /// the free list's lock (each take is an atomic exchange; a step's
    /// contact group frees thousands). Each handle is freed as by `free`,
    /// or without dropping its value where `trivial` says so; handles not
    /// live in this pool are skipped. Dropping must not use this pool.
    ///
    /// # Safety
    /// For a handle `trivial` is true of, dropping its value must be a
    /// no-op (else it leaks).
    pub unsafe fn free_many(&self, hs: impl Iterator<Item = Handle<T>>, trivial: impl Fn(&T) -> bool) {
        self.free.with(|c| c.dead.extend(hs.filter_map(|h| self.kill_live(h, &trivial))));
    }

    /// Kills `h` as `free` does (without dropping its value where
    /// `trivial` says so) and gives its cell's address for a free list;
    /// None, touching nothing, if `h` is not live in this pool.
    ///
    /// # Safety
    /// As `free_many`.
    #[inline]
    unsafe fn kill_live(&self, h: Handle<T>, trivial: &impl Fn(&T) -> bool) -> Option<usize> {
        if (*h.0.as_ptr()).tag.load(Ordering::Acquire) != self.tag {
            return None; // not live here: nothing to read or free
        }
        let drop = !trivial(h.get());
        self.kill(h, drop).then_some(h.0.as_ptr() as usize)
    }

    /// `free_many`, but the cells go to `stash`, a private free list that
    /// `alloc_from` reuses behind the same quarantine, so a destroyed
    /// handle stays detectably dead as long as with the pool's own list.
    /// No lock is taken, and a cell is marked dead with a plain store
    /// instead of `free`'s compare-exchange (a locked instruction, a third
    /// of `dJointGroupEmpty`'s time per contact joint). The stash's cells
    /// must come back to the pool with `release_stash` before it is
    /// dropped (else they are never reused; their memory stays readable).
    ///
    /// # Safety
    /// As `free_many`; and no other thread frees any of `hs` meanwhile (a
    /// joint group's members are freed only by the group, which one thread
    /// uses at a time).
    pub unsafe fn free_many_into(
        &self,
        hs: impl Iterator<Item = Handle<T>>,
        trivial: impl Fn(&T) -> bool,
        stash: &mut Stash,
    ) {
        for h in hs {
            let cell = h.0.as_ptr();
            if (*cell).tag.load(Ordering::Acquire) != self.tag {
                continue; // not live here: nothing to read or free
            }
            let drop = !trivial(h.get());
            (*cell).tag.store(DEAD, Ordering::Release);
            self.bury(cell, drop);
            stash.push(cell as usize);
        }
    }

    /// Hands a stash's cells to the pool's free list (those past the
    /// quarantine first, then the held ones oldest first, so the last
    /// freed are still the last reused).
    ///
    /// # Safety
    /// As `alloc_from`.
    pub unsafe fn release_stash(&self, stash: &mut Stash) {
        if !stash.is_empty() {
            self.free.with(|c| stash.drain_into(&mut c.dead));
        }
    }

    /// Marks `h`'s cell dead (dropping the value if `drop`) and bumps its
    /// generation; false if `h` was not live in this pool.
    ///
    /// # Safety
    /// With `drop` false, dropping the value must be a no-op.
    #[inline]
    unsafe fn kill(&self, h: Handle<T>, drop: bool) -> bool {
        let cell = h.0.as_ptr();
        if (*cell).tag.compare_exchange(self.tag, DEAD, Ordering::AcqRel, Ordering::Acquire).is_err() {
            return false;
        }
        self.bury(cell, drop);
        true
    }

    /// After the tag of `cell` turned dead: drops the value if `drop` and
    /// bumps the generation.
    ///
    /// # Safety
    /// The caller made the cell dead and owns it until it is queued; with
    /// `drop` false, dropping the value must be a no-op.
    #[inline]
    unsafe fn bury(&self, cell: *mut Cell<T>, drop: bool) {
        if drop {
            (*(*cell).value.get()).assume_init_drop();
        }
        // The one that killed the cell owns it until it is queued (no
        // read-modify-write needed); the queue's lock, or the stash's
        // single owner, publishes the new count to the next allocator.
        let g = &(*cell).generation;
        g.store(g.load(Ordering::Relaxed).wrapping_add(1), Ordering::Relaxed);
    }

    /// Turns a raw pointer from C into a handle if it names a live object of
    /// this pool. Null and dead handles give `None`.
    ///
    /// The pointer must be null or have been produced by some `Pool::alloc`
    /// (of any kind, since all cells begin with the tag); arbitrary garbage
    /// cannot be detected, as with any C library.
    pub fn check(&self, raw: *mut core::ffi::c_void) -> Option<Handle<T>> {
        let cell = NonNull::new(raw as *mut Cell<T>)?;
        if !(raw as usize).is_multiple_of(std::mem::align_of::<Cell<T>>()) {
            return None;
        }
        let tag = unsafe { (*cell.as_ptr()).tag.load(Ordering::Acquire) };
        (tag == self.tag).then_some(Handle(cell))
    }

    /// Reads the tag of any cell without asserting its kind (used to tell a
    /// destroyed object from a wrong kind in messages).
    pub fn raw_tag(raw: *mut core::ffi::c_void) -> Option<u32> {
        let cell = NonNull::new(raw as *mut AtomicU32)?;
        Some(unsafe { (*cell.as_ptr()).load(Ordering::Acquire) })
    }

    pub fn tag(&self) -> u32 {
        self.tag
    }
}

/// A private free list of dead cells of one pool, owned by one thread at
/// a time (a joint group's; see [`Pool::free_many_into`]).
///
/// The last `QUARANTINE` cells released wait in a ring; each cell pushed
/// out of it (so released before `QUARANTINE` others) becomes ready, and
/// the ready ones are reused last in first out. A destroyed handle thus
/// stays detectably dead for at least `QUARANTINE` later releases, as with
/// the pool's own FIFO list, while the cell reused is the one released
/// most recently past the quarantine: with a contact group emptied and
/// refilled every step, the one `dJointGroupEmpty` touched last, likelier
/// cached than the oldest.
#[derive(Default)]
pub struct Stash {
    /// The most recently released cells; once full, `held[oldest]` is the
    /// oldest of them.
    held: Vec<usize>,
    oldest: usize,
    /// Cells past the quarantine, the last pushed reused first.
    ready: Vec<usize>,
}

impl Stash {
    #[inline]
    fn push(&mut self, cell: usize) {
        if self.held.len() < QUARANTINE {
            self.held.push(cell);
            return;
        }
        let out = std::mem::replace(&mut self.held[self.oldest], cell);
        self.oldest = if self.oldest + 1 == QUARANTINE { 0 } else { self.oldest + 1 };
        self.ready.push(out);
    }

    /// How many cells it holds (quarantined or ready).
    pub fn len(&self) -> usize {
        self.held.len() + self.ready.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Moves every cell to the back of `free`: the ready ones first, then
    /// the held ones oldest first.
    fn drain_into(&mut self, free: &mut VecDeque<usize>) {
        free.extend(self.ready.drain(..));
        let (newer, older) = self.held.split_at(self.oldest);
        free.extend(older.iter().chain(newer).copied());
        self.held.clear();
        self.oldest = 0;
    }
}

/// Is this the tag of a destroyed object?
pub fn is_dead_tag(tag: u32) -> bool {
    tag == DEAD
}

/// A typed, copyable reference to a live pooled object. Equality and hashing
/// are by address, like ODE's pointers.
pub struct Handle<T>(NonNull<Cell<T>>);

impl<T> Clone for Handle<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Handle<T> {}
impl<T> PartialEq for Handle<T> {
    fn eq(&self, o: &Self) -> bool {
        self.0 == o.0
    }
}
impl<T> Eq for Handle<T> {}
impl<T> std::hash::Hash for Handle<T> {
    fn hash<H: std::hash::Hasher>(&self, s: &mut H) {
        self.0.hash(s)
    }
}
impl<T> std::fmt::Debug for Handle<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Handle({:p})", self.0)
    }
}
unsafe impl<T> Send for Handle<T> {}
unsafe impl<T> Sync for Handle<T> {}

impl<T> Handle<T> {
    /// The address handed to C.
    pub fn as_raw(self) -> *mut core::ffi::c_void {
        self.0.as_ptr() as *mut core::ffi::c_void
    }

    /// Is the object still alive (tag not dead)?
    pub fn is_live(self) -> bool {
        !is_dead_tag(unsafe { (*self.0.as_ptr()).tag.load(Ordering::Acquire) })
    }

    /// Tells this object from later ones reusing its cell: a per-cell count
    /// of destroyed objects, so a saved (handle, generation) pair names one
    /// object for good (until 2^32 objects have come and gone in that one
    /// cell). Unlike a global serial number it costs no atomic operation
    /// per creation. Only meaningful while the object is live.
    pub fn generation(self) -> u32 {
        unsafe { (*self.0.as_ptr()).generation.load(Ordering::Relaxed) }
    }

    /// Shared access to the object.
    ///
    /// # Safety contract (internal)
    /// The object must be live and not mutably borrowed elsewhere. ODE's
    /// object graph (world ↔ bodies ↔ joints) is a web of mutual references;
    /// the core follows ODE's single-threaded-per-world rule and never holds
    /// two overlapping `&mut` to the same object.
    #[allow(clippy::mut_from_ref)]
    pub fn get<'a>(self) -> &'a T {
        debug_assert!(self.is_live());
        unsafe { (*self.0.as_ptr()).value.get().cast::<T>().as_ref().unwrap_unchecked() }
    }

    /// Exclusive access to the object; same contract as [`Handle::get`].
    #[allow(clippy::mut_from_ref)]
    pub fn get_mut<'a>(self) -> &'a mut T {
        debug_assert!(self.is_live());
        unsafe { &mut *(*self.0.as_ptr()).value.get().cast::<T>() }
    }

    /// Reinterprets the handle as another kind sharing the same cell layout
    /// (only valid where the pool stores that type).
    pub fn from_raw_unchecked(raw: *mut core::ffi::c_void) -> Option<Self> {
        NonNull::new(raw as *mut Cell<T>).map(Handle)
    }
}

/// A handle whose object kind belongs to a higher layer. A lower layer keeps
/// lists of such objects (a body's joints, a world's joints) without naming
/// their type; the layer that owns the kind turns them back into typed
/// handles with [`ErasedHandle::typed`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ErasedHandle(NonNull<core::ffi::c_void>);

unsafe impl Send for ErasedHandle {}
unsafe impl Sync for ErasedHandle {}

impl<T> Handle<T> {
    /// Forgets the object kind (see [`ErasedHandle`]).
    pub fn erase(self) -> ErasedHandle {
        ErasedHandle(self.0.cast())
    }
}

impl ErasedHandle {
    /// The address handed to C.
    pub fn as_raw(self) -> *mut core::ffi::c_void {
        self.0.as_ptr()
    }

    /// The typed handle again. Only the layer that erased handles of kind
    /// `T` into a list calls this on that list's entries.
    pub fn typed<T>(self) -> Handle<T> {
        Handle(self.0.cast())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static P: Pool<Vec<u32>> = Pool::new(0x7E57_0001);

    #[test]
    fn alloc_check_free() {
        let h = P.alloc(vec![1, 2, 3]);
        assert_eq!(P.check(h.as_raw()), Some(h));
        assert_eq!(h.get().len(), 3);
        assert!(P.free(h));
        assert_eq!(P.check(h.as_raw()), None, "destroyed handle must be rejected");
        assert!(!P.free(h), "double free is refused");
        assert_eq!(P.check(std::ptr::null_mut()), None);
    }

    /// A private stash (`free_many_into`, `alloc_from`): freed handles are
    /// dead at once and stay dead until more than the quarantine have been
    /// freed after them; cells past it are then reused most recently
    /// released first, only from the stash, and `release_stash` hands the
    /// rest to the pool.
    #[test]
    fn stash_keeps_the_quarantine_and_reuses_the_latest_first() {
        static S: Pool<u64> = Pool::new(0x7E57_0007);
        let mut stash = Stash::default();
        let first: Vec<_> = (0..QUARANTINE as u64 + 3).map(|i| S.alloc(i)).collect();
        let gens: Vec<_> = first.iter().map(|h| h.generation()).collect();
        unsafe { S.free_many_into(first.iter().copied(), |_| true, &mut stash) };
        for (h, g) in first.iter().zip(&gens) {
            assert_eq!(S.check(h.as_raw()), None, "destroyed handle must be rejected");
            assert_ne!(h.generation(), *g);
        }
        assert_eq!(stash.len(), QUARANTINE + 3);
        // Three cells are past the quarantine: the latest of them first.
        for k in 0..3 {
            let h = unsafe { S.alloc_from(&mut stash, || 100 + k as u64) };
            assert_eq!(h, first[2 - k]);
            assert_eq!(*h.get(), 100 + k as u64);
            assert_eq!(S.check(h.as_raw()), Some(h));
        }
        // The quarantine holds: the next one is a fresh cell, not first[3].
        let fresh = unsafe { S.alloc_from(&mut stash, || 7) };
        assert!(!first.contains(&fresh));
        assert_eq!(S.check(first[3].as_raw()), None);
        // Freeing a dead handle into a stash is refused, as `free` refuses it.
        unsafe { S.free_many_into(std::iter::once(first[3]), |_| true, &mut stash) };
        assert_eq!(stash.len(), QUARANTINE);
        unsafe { S.release_stash(&mut stash) };
        assert!(stash.is_empty());
        assert_eq!(S.check(first[3].as_raw()), None);
    }

    /// Whatever the pattern of batches, a cell comes out of a stash only
    /// after at least `QUARANTINE` other cells were released into it after
    /// it, and never while live; within that, the most recently released
    /// cell past the quarantine comes first.
    #[test]
    fn stash_never_reuses_a_quarantined_or_live_cell() {
        static R: Pool<u64> = Pool::new(0x7E57_0008);
        let mut stash = Stash::default();
        let mut released = 0usize; // releases into the stash so far
        let mut released_at = std::collections::HashMap::new(); // cell -> release number
        let mut live: Vec<Handle<u64>> = Vec::new();
        let mut reused = 0;
        let mut seed = 12345u64;
        let mut rand = |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        for round in 0..400 {
            for _ in 0..rand(600) {
                let expect_ready = released_at
                    .iter()
                    .filter(|(_, &at)| released - at >= QUARANTINE)
                    .max_by_key(|(_, &at)| at)
                    .map(|(&c, _)| c);
                let h = unsafe { R.alloc_from(&mut stash, || round) };
                if let Some(at) = released_at.remove(&(h.as_raw() as usize)) {
                    assert!(released - at >= QUARANTINE, "cell reused after {} releases", released - at);
                    assert_eq!(Some(h.as_raw() as usize), expect_ready, "the latest ready cell first");
                    reused += 1;
                } else {
                    assert_eq!(expect_ready, None, "a fresh cell while the stash had a ready one");
                }
                assert!(!live.contains(&h), "a live cell handed out again");
                live.push(h);
            }
            // Free a random suffix, newest first (as `empty_group` does).
            let keep = rand(live.len() + 1);
            let gone: Vec<_> = live.drain(keep..).rev().collect();
            unsafe { R.free_many_into(gone.iter().copied(), |_| true, &mut stash) };
            for h in gone {
                assert_eq!(R.check(h.as_raw()), None);
                released += 1;
                released_at.insert(h.as_raw() as usize, released);
            }
            assert_eq!(stash.len(), released_at.len());
        }
        assert!(reused > 10_000, "the pattern reuses cells ({reused})");
        unsafe { R.release_stash(&mut stash) };
        for h in live {
            assert!(R.free(h));
        }
    }

    /// Fresh cells start on a cache line and fill whole lines, so no two
    /// objects share one.
    #[test]
    fn fresh_cells_start_on_a_line() {
        static L: Pool<[u8; 100]> = Pool::new(0x7E57_0009);
        let hs: Vec<_> = (0..300).map(|_| L.alloc([7; 100])).collect();
        let mut addrs: Vec<usize> = hs.iter().map(|h| h.as_raw() as usize).collect();
        assert!(addrs.iter().all(|a| a % LINE == 0));
        addrs.sort();
        assert!(addrs.windows(2).all(|w| w[1] - w[0] >= 128), "8 + 100 bytes take two lines");
        for h in hs {
            assert_eq!(*h.get(), [7; 100]);
            assert!(L.free(h));
        }
    }

    /// `free_trivial` kills the handle exactly as `free` does.
    #[test]
    fn free_trivial_marks_dead() {
        static T: Pool<[u64; 3]> = Pool::new(0x7E57_0005);
        let h = T.alloc([1, 2, 3]);
        let g = h.generation();
        assert!(unsafe { T.free_trivial(h) });
        assert_eq!(T.check(h.as_raw()), None, "destroyed handle must be rejected");
        assert!(!unsafe { T.free_trivial(h) }, "double free is refused");
        assert!(!T.free(h), "double free is refused");
        assert_ne!(h.generation(), g);
    }

    /// `free_many` frees as `free` and `free_trivial` one by one would:
    /// dead handles skipped, values dropped unless trivial, generations
    /// bumped, and the cells queued in the handles' order (reused in that
    /// order once past the quarantine).
    #[test]
    fn free_many_frees_in_order_and_drops_what_owns_something() {
        use std::sync::atomic::AtomicUsize;
        static DROPS: AtomicUsize = AtomicUsize::new(0);
        struct Counted(bool);
        impl Drop for Counted {
            fn drop(&mut self) {
                DROPS.fetch_add(1, Ordering::SeqCst);
            }
        }
        static M: Pool<Counted> = Pool::new(0x7E57_0006);
        let hs: Vec<_> = (0..QUARANTINE + 8).map(|i| M.alloc(Counted(i % 2 == 0))).collect();
        let gens: Vec<_> = hs.iter().map(|h| h.generation()).collect();
        assert!(M.free(hs[3]));
        DROPS.store(0, Ordering::SeqCst);
        // Trivial: the even ones (never dropped). hs[3] is already dead.
        unsafe { M.free_many(hs.iter().copied(), |c| c.0) };
        let odd_live = (0..hs.len()).filter(|&i| i % 2 == 1 && i != 3).count();
        assert_eq!(DROPS.load(Ordering::SeqCst), odd_live, "only the non-trivial live values are dropped");
        for (h, g) in hs.iter().zip(&gens) {
            assert_eq!(M.check(h.as_raw()), None);
            assert_ne!(h.generation(), *g);
        }
        // Queue: hs[3] first (freed alone), then the others in order.
        let order: Vec<_> = std::iter::once(hs[3]).chain(hs.iter().copied().filter(|&h| h != hs[3])).collect();
        for &expect in order.iter().take(8) {
            let again = M.alloc(Counted(true));
            assert_eq!(again, expect, "cells are reused in the order they were freed");
        }
    }

    /// A cell's next object has another generation, so the safe API's
    /// (handle, generation) ids tell it from the destroyed one.
    #[test]
    fn reused_cell_has_a_new_generation() {
        static G: Pool<u32> = Pool::new(0x7E57_0004);
        let h = G.alloc(1);
        let g = h.generation();
        let others: Vec<_> = (0..QUARANTINE + 1).map(|i| G.alloc(i as u32)).collect();
        assert!(G.free(h));
        for x in others {
            G.free(x);
        }
        // FIFO behind the quarantine: the oldest dead cell, `h`'s, comes first.
        let again = G.alloc(2);
        assert_eq!(again, h, "the cell is reused");
        assert_ne!(again.generation(), g);
        assert_eq!(*again.get(), 2);
    }

    /// The free list under contention: threads allocating and
    /// freeing from one pool never get a cell that is live elsewhere (each
    /// reads back its own value), and every freed cell is refused after.
    #[test]
    fn concurrent_alloc_free_keeps_cells_apart() {
        static C: Pool<(usize, u64)> = Pool::new(0x7E57_0003);
        std::thread::scope(|s| {
            for t in 0..4usize {
                s.spawn(move || {
                    let mut live = Vec::new();
                    for i in 0..4000u64 {
                        live.push((C.alloc((t, i)), i));
                        if live.len() > 50 {
                            for (h, v) in live.drain(..25) {
                                assert_eq!(*h.get(), (t, v));
                                assert!(C.free(h));
                                assert!(!C.free(h), "a freed cell stays dead");
                            }
                        }
                    }
                    for (h, v) in live {
                        assert_eq!(*h.get(), (t, v));
                        assert!(C.free(h));
                    }
                });
            }
        });
    }

    #[test]
    fn wrong_kind_is_rejected() {
        static Q: Pool<u64> = Pool::new(0x7E57_0002);
        let h = Q.alloc(5);
        assert_eq!(P.check(h.as_raw()), None);
        Q.free(h);
    }
}
