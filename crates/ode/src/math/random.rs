//! ODE's global pseudo-random generator (misc.h): a 32-bit linear
//! congruential generator whose exact sequence matters, because the solver
//! uses it to shuffle constraints and traces must match ODE's after
//! `dRandSetSeed`. The state is one process-wide atomic, as in ODE.

use std::sync::atomic::{AtomicU32, Ordering};

static SEED: AtomicU32 = AtomicU32::new(0);

const MUL: u32 = 1_664_525;
const INC: u32 = 1_013_904_223;

#[inline]
fn step(s: u32) -> u32 {
    s.wrapping_mul(MUL).wrapping_add(INC)
}

thread_local! {
    /// A private stretch of the sequence for the current thread (see
    /// `with_stream`), or `None` to use the global state.
    static STREAM: std::cell::Cell<Option<u32>> = const { std::cell::Cell::new(None) };
}

/// Advances the generator and returns the new 32-bit state.
pub fn rand() -> u32 {
    if let Some(s) = STREAM.with(|c| c.get()) {
        let next = step(s);
        STREAM.with(|c| c.set(Some(next)));
        return next;
    }
    // fetch_update retries on contention, so concurrent callers each get a
    // distinct element of the sequence.
    let prev = SEED.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |s| Some(step(s))).unwrap_or_else(|s| s);
    step(prev)
}

/// Reserves the next `n` draws at once (from this thread's stream, or with
/// one atomic update of the global state) and returns the state before
/// them: the draws are `next(s)`, `next(next(s))`, … — the numbers `n`
/// calls of `rand` would return, without a thread-local lookup each.
pub fn take(n: usize) -> u32 {
    if let Some(s) = STREAM.with(|c| c.get()) {
        STREAM.with(|c| c.set(Some(advance(s, n))));
        return s;
    }
    SEED.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |s| Some(advance(s, n))).unwrap_or_else(|s| s)
}

/// The generator's next state (the draw after state `s`).
#[inline]
pub fn next(s: u32) -> u32 {
    step(s)
}

/// The state after `n` draws from state `s`, in O(log n) steps: `n` steps
/// of the generator are again a map s ↦ a·s + c (mod 2³²), composed from
/// the maps of 1, 2, 4, … steps by squaring (powers of one map commute).
/// Exact: the same state as `n` single steps.
pub fn advance(s: u32, mut n: usize) -> u32 {
    let (mut m, mut c) = (MUL, INC);
    let (mut am, mut ac) = (1u32, 0u32);
    while n > 0 {
        if n & 1 != 0 {
            am = am.wrapping_mul(m);
            ac = ac.wrapping_mul(m).wrapping_add(c);
        }
        c = c.wrapping_mul(m).wrapping_add(c);
        m = m.wrapping_mul(m);
        n >>= 1;
    }
    am.wrapping_mul(s).wrapping_add(ac)
}

/// Two steps of the generator at once: `next2(s) == next(next(s))`.
#[inline]
pub fn next2(s: u32) -> u32 {
    const MUL2: u32 = MUL.wrapping_mul(MUL);
    const INC2: u32 = INC.wrapping_mul(MUL).wrapping_add(INC);
    s.wrapping_mul(MUL2).wrapping_add(INC2)
}

/// Runs `f` with this thread's draws taken from a private copy of the
/// sequence starting at state `start` instead of the global state. Parallel
/// island solves use it to draw exactly the numbers they would have drawn
/// serially (the caller computes each island's `start` with `advance`).
pub fn with_stream<R>(start: u32, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<u32>);
    impl Drop for Restore {
        fn drop(&mut self) {
            STREAM.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(STREAM.with(|c| c.replace(Some(start))));
    f()
}

pub fn seed() -> u32 {
    SEED.load(Ordering::Relaxed)
}

/// Sets the state; like ODE, only the low 32 bits are kept.
pub fn set_seed(s: u64) {
    SEED.store(s as u32, Ordering::Relaxed);
}

/// Checks the generator against the first outputs of seed 0, leaving the
/// state as it was (when nobody else draws meanwhile).
pub fn self_test() -> bool {
    const EXPECTED: [u32; 5] = [0x3c6e_f35f, 0x4750_2932, 0xd1cc_f6e9, 0xaaf9_5334, 0x6252_e503];
    let old = SEED.swap(0, Ordering::Relaxed);
    let ok = EXPECTED.iter().all(|&e| rand() == e);
    SEED.store(old, Ordering::Relaxed);
    ok
}

/// Maps one draw `r` to `0..n` the way ODE does: fold the high bits into
/// the low ones, then scale by `n` with a shift instead of a modulus. `n` is
/// taken as unsigned (a negative `n` gives ODE's odd but defined results).
#[inline]
pub fn int_from_draw(mut r: u32, n: i32) -> i32 {
    let un = n as u32;
    if un <= 0x10 {
        r ^= r >> 16;
        r ^= r >> 8;
        r ^= r >> 4;
        if un <= 2 {
            r ^= r >> 2;
            r ^= r >> 1;
            (r & (un >> 1)) as i32
        } else if un <= 4 {
            r ^= r >> 2;
            (((r & 0x3).wrapping_mul(un)) >> 2) as i32
        } else {
            (((r & 0xF).wrapping_mul(un)) >> 4) as i32
        }
    } else if un <= 0x100 {
        r ^= r >> 16;
        r ^= r >> 8;
        (((r & 0xFF).wrapping_mul(un)) >> 8) as i32
    } else if un <= 0x1_0000 {
        r ^= r >> 16;
        (((r & 0xFFFF).wrapping_mul(un)) >> 16) as i32
    } else {
        (((r as u64) * (un as u64)) >> 32) as u32 as i32
    }
}

/// A pseudo-random integer in `0..n` (ODE's dRandInt).
pub fn rand_int(n: i32) -> i32 {
    int_from_draw(rand(), n)
}

/// A pseudo-random real in `[0, 1]` (ODE's dRandReal).
pub fn rand_real() -> f64 {
    rand() as f64 / 0xffff_ffffu32 as f64
}

/// One element of ODE's dMakeRandomVector/Matrix: uniform in `[-range, range]`.
pub fn rand_symmetric(range: f64) -> f64 {
    (rand_real() * 2.0 - 1.0) * range
}

#[cfg(test)]
mod tests {
    use super::*;

    // The generator is global; tests that draw from it serialise here.
    pub(crate) static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

    /// `take(n)` and `next` give the numbers of `n` calls of `rand` and
    /// leave the state where those calls would (global state and a
    /// thread's stream).
    #[test]
    fn take_reserves_the_draws_rand_would_make() {
        let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
        for n in [0usize, 1, 2, 7, 100] {
            set_seed(12345);
            let want: Vec<u32> = (0..n).map(|_| rand()).collect();
            let after = seed();
            set_seed(12345);
            let mut s = take(n);
            let got: Vec<u32> = (0..n)
                .map(|_| {
                    s = next(s);
                    s
                })
                .collect();
            assert_eq!((got, seed()), (want.clone(), after));
            let (got, end) = with_stream(12345, || {
                let mut s = take(n);
                let got: Vec<u32> = (0..n)
                    .map(|_| {
                        s = next(s);
                        s
                    })
                    .collect();
                (got, rand())
            });
            assert_eq!(got, want);
            assert_eq!(end, next(after), "the stream continues after the n draws");
        }
    }

    /// `advance` and `next2` against single steps.
    #[test]
    fn advance_jumps_to_the_state_single_steps_reach() {
        for s0 in [0u32, 1, 0xdead_beef, u32::MAX] {
            let mut s = s0;
            for n in 0..3000usize {
                assert_eq!(advance(s0, n), s, "{s0} {n}");
                assert_eq!(next2(s), step(step(s)));
                s = step(s);
            }
            // A long jump: 2^20 + 12345 steps.
            let n = (1usize << 20) + 12345;
            let mut t = s0;
            for _ in 0..n {
                t = step(t);
            }
            assert_eq!(advance(s0, n), t);
        }
    }

    #[test]
    fn known_sequence_from_zero() {
        let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
        set_seed(0);
        assert_eq!(rand(), 1_013_904_223);
        assert_eq!(rand(), 1_013_904_223u32.wrapping_mul(MUL).wrapping_add(INC));
        assert!(self_test());
    }

    #[test]
    fn seed_keeps_low_bits() {
        let _g = LOCK.lock().unwrap_or_else(|e| e.into_inner());
        set_seed(0x0123_4567_89ab_cdef);
        assert_eq!(seed(), 0x89ab_cdef);
    }

    #[test]
    fn rand_int_is_in_range() {
        for n in [1, 2, 3, 4, 5, 16, 17, 255, 256, 257, 65536, 65537, 1 << 30] {
            for r in [0u32, 1, 0xffff_ffff, 0x8000_0000, 0x1234_5678, 0xdead_beef] {
                let v = int_from_draw(r, n);
                assert!((0..n).contains(&v), "n={n} r={r:#x} -> {v}");
            }
        }
        assert_eq!(int_from_draw(0xffff_ffff, 0), 0);
    }
}
