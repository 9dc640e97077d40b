//! Cooperative objects (cooperative.h): a cooperative names the threading
//! that cooperative calls may use; a requirements object accumulates what
//! the planned calls need (per operation: largest thread count and row
//! count, and what that implies: simultaneous calls, a stock call wait,
//! scratch memory); a container holds the resources acquired for them.
//!
//! The matrix operations of matrix_coop.h run the single-threaded kernels of
//! `math::matrix` on the calling thread, so their results equal dFactorLDLT,
//! dSolveLDLT, dSolveL1, dSolveL1T and dScaleVector bit for bit; the
//! resources are still acquired from the threading (call preallocation,
//! stock call wait) as ODE does, so a host's threading table sees the same
//! requests.

use crate::handle::Pool;

pub static COOPERATIVES: Pool<Cooperative> = Pool::new(0x434F_4F50);
pub static REQUIREMENTS: Pool<Requirements> = Pool::new(0x5245_5152);
pub static CONTAINERS: Pool<Container> = Pool::new(0x5243_4E54);

/// A threading table and its implementation, as addresses given by C.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threading {
    pub functions: usize,
    pub imp: usize,
}

pub struct Cooperative {
    pub threading: Threading,
}

/// The cooperative matrix operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    FactorLdlt = 0,
    SolveLdlt = 1,
    SolveL1Straight = 2,
    SolveL1Transposed = 3,
    ScaleVector = 4,
}

impl Op {
    pub fn name(self) -> &'static str {
        match self {
            Op::FactorLdlt => "dCooperativelyFactorLDLT",
            Op::SolveLdlt => "dCooperativelySolveLDLT",
            Op::SolveL1Straight => "dCooperativelySolveL1Straight",
            Op::SolveL1Transposed => "dCooperativelySolveL1Transposed",
            Op::ScaleVector => "dCooperativelyScaleVector",
        }
    }
}

/// The largest call of one operation planned for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpLimit {
    /// Largest allowed thread count (0 = unlimited) and row/element count.
    pub threads: u32,
    pub rows: u32,
    pub estimated: bool,
}

#[derive(Clone, Debug)]
pub struct Requirements {
    /// The cooperative the requirements were created for (its address).
    pub cooperative: usize,
    pub threading: Threading,
    /// Simultaneous calls to preallocate in the threading.
    pub calls: u32,
    /// A call wait the operations use to wait for their helpers.
    pub stock_wait: bool,
    /// Scratch memory, bytes.
    pub memory: usize,
    pub ops: [OpLimit; 5],
}

/// Threads an operation may use: the allowed count (0 = no limit) capped by
/// the threading's serving threads plus the caller.
pub fn effective_threads(allowed: u32, threading_threads: u32) -> u32 {
    let available = threading_threads.saturating_add(1);
    if allowed == 0 {
        available
    } else {
        allowed.min(available)
    }
}

impl Requirements {
    pub fn new(cooperative: usize, threading: Threading) -> Self {
        Requirements { cooperative, threading, calls: 0, stock_wait: false, memory: 0, ops: [OpLimit::default(); 5] }
    }

    /// Widens the requirements for a call of `op` with up to `threads`
    /// threads and `rows` rows, given the threading's current thread count.
    pub fn estimate(&mut self, op: Op, threads: u32, rows: u32, threading_threads: u32) {
        let l = &mut self.ops[op as usize];
        l.threads = if l.threads == 0 && l.estimated || threads == 0 { 0 } else { l.threads.max(threads) };
        l.rows = l.rows.max(rows);
        l.estimated = true;
        let n = effective_threads(threads, threading_threads);
        if n > 1 {
            self.calls = self.calls.max(n);
            self.stock_wait = true;
            if op == Op::FactorLdlt {
                // One progress counter per row block, as a cooperative
                // factorisation keeps.
                self.memory = self.memory.max(rows as usize * std::mem::size_of::<u64>());
            }
        }
    }

    /// Merges `other` in: every quantity becomes the larger of the two.
    pub fn merge(&mut self, other: &Requirements) {
        self.calls = self.calls.max(other.calls);
        self.stock_wait |= other.stock_wait;
        self.memory = self.memory.max(other.memory);
        for (a, b) in self.ops.iter_mut().zip(other.ops.iter()) {
            if !b.estimated {
                continue;
            }
            a.threads = if (a.estimated && a.threads == 0) || b.threads == 0 { 0 } else { a.threads.max(b.threads) };
            a.rows = a.rows.max(b.rows);
            a.estimated = true;
        }
    }
}

/// Resources acquired for a requirements object.
pub struct Container {
    pub threading: Threading,
    pub ops: [OpLimit; 5],
    /// The stock call wait allocated from the threading (0 if none).
    pub stock_wait: usize,
    /// The estimated scratch memory, reserved (capacity) and never written.
    pub memory: Vec<u8>,
}

impl Container {
    /// Is a call of `op` with these sizes within what was planned for? A
    /// call that would run on one thread needs nothing.
    pub fn covers(&self, op: Op, threads: u32, rows: u32, threading_threads: u32) -> bool {
        if effective_threads(threads, threading_threads) <= 1 {
            return true;
        }
        let l = self.ops[op as usize];
        l.estimated && rows <= l.rows && (l.threads == 0 || (threads != 0 && threads <= l.threads))
    }
}
