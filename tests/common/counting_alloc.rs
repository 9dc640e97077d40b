//! A global allocator that counts allocations (and reallocations) per
//! thread, for the "no allocation once warm" tests. Per thread, because
//! the test harness's own threads may allocate meanwhile (seen under load),
//! which is not the code under test. A test binary installs it with
//! `#[global_allocator] static A: counting_alloc::Counting = counting_alloc::Counting;`.
#![allow(dead_code)] // each test binary uses the part it needs

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The counting allocator (the system allocator underneath).
pub struct Counting;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    let _ = ALLOCS.try_with(|a| a.set(a.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        count();
        System.alloc(l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new_size: usize) -> *mut u8 {
        count();
        System.realloc(p, l, new_size)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
}

/// Allocations made on this thread so far.
pub fn allocations_so_far() -> usize {
    ALLOCS.with(|a| a.get())
}

/// Allocations made by `f` on this thread.
pub fn allocations_during(f: impl FnOnce()) -> usize {
    let before = allocations_so_far();
    f();
    allocations_so_far() - before
}
