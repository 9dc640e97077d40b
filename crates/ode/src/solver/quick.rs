//! The QuickStep solver of one island (`dWorldQuickStep`): projected
//! Gauss–Seidel with successive over-relaxation (SOR) on the island's
//! constraint rows, reproducing ODE 0.16.2's single-threaded quickstep in
//! operation order so that trajectories agree with Debian's library.
//!
//! Per island, in ODE's order:
//! 1. the rows' right-hand side and CFM are scaled by 1/h, and
//!    `rhs = c/h − J·(v/h + M⁻¹·F)` is formed (F: the force and torque
//!    accumulators, gravity and gyroscopic torque already added);
//! 2. `iMJ = M⁻¹·Jᵀ` per row, then each row is scaled by
//!    `Ad = w / (J·iMJ + cfm/h)` (J, rhs and cfm all multiplied by Ad, so
//!    the iteration needs no division);
//! 3. λ starts at zero (ODE 0.16.2 is built without warm starting; see
//!    `set_warm_start` for the optional mode), `fc = M⁻¹·Jᵀ·λ` likewise;
//! 4. rows without a friction index are solved first, then the rows with
//!    one, each group in island order. Every 8th iteration from the 8th on,
//!    the whole order is shuffled (Fisher–Yates with ODE's global `dRand`
//!    generator, so after `dRandSetSeed` the same sequence is drawn); the
//!    shuffled order persists for later iterations. `set_deterministic_order`
//!    selects the same order without any shuffle (no `dRand` use);
//! 5. each row update: `δ = rhs − λ·cfm − J·fc`, `λ` clamped to
//!    `[lo, hi]` (friction rows: `±|hi·λ_findex|`), `fc += δ·iMJ`;
//! 6. velocities get `h·fc`, feedback gets `Jᵀ·λ` (unscaled J, world
//!    frame, body 2 only when present), each joint stores its λ, and
//!    finally the external forces are applied: `v += h·F/m`,
//!    torque accumulator scaled by h in place, `w += I⁻¹·(h·T)`.
//!
//! Small islands solved as a group (`solve_joint_islands`) run side by
//! side, each with its own bits: islands of one body in SIMD lanes
//! (`one_body_lanes`), the others interleaved.
//!
//! All buffers live in `SolverScratch` (resized, never shrunk), so a warm
//! solve performs no heap allocation.

use super::{push_joint_rows, IslandInput, IslandRows, JointInfo, SolverScratch};
use crate::dynamics::body::BodyRef;
use crate::joints::{JointKind, JointModel, JointRef, Row, RowCtx};
use crate::math::mat3::mul0_331;
use crate::math::random;
use std::sync::atomic::{AtomicU8, Ordering};

mod one_body_lanes;

/// Iterations between two random reorderings (ODE's
/// RANDOM_CONSTRAINTS_REORDERING_FREQUENCY).
pub const REORDER_FREQUENCY: usize = 8;

/// Environment variable read once (on first use, unless the host already
/// called `set_deterministic_order`): a value starting with `1`, `y`, `Y`,
/// `t` or `T` selects the deterministic order.
pub const DETERMINISTIC_ENV: &str = "ODE_QUICKSTEP_DETERMINISTIC";

/// Per body: linear then angular.
const BODY: usize = 6;

const UNSET: u8 = 0;
const ODE_ORDER: u8 = 1;
const DETERMINISTIC: u8 = 2;

static ORDER_MODE: AtomicU8 = AtomicU8::new(UNSET);
static WARM_START: AtomicU8 = AtomicU8::new(0);

/// Selects the row ordering of every QuickStep in the process: `false`
/// (the default) is ODE's, with its periodic random shuffles drawn from the
/// global `dRand` generator; `true` keeps ODE's initial order (unbounded
/// and normal rows first, then friction rows) for all iterations and never
/// touches the generator, so results do not depend on other users of
/// `dRand`. Overrides the environment variable `DETERMINISTIC_ENV`.
pub fn set_deterministic_order(on: bool) {
    ORDER_MODE.store(if on { DETERMINISTIC } else { ODE_ORDER }, Ordering::Relaxed);
}

/// Whether the deterministic ordering is selected (reads
/// `DETERMINISTIC_ENV` the first time if the host set nothing).
pub fn deterministic_order() -> bool {
    match ORDER_MODE.load(Ordering::Relaxed) {
        DETERMINISTIC => true,
        ODE_ORDER => false,
        _ => {
            let on = std::env::var_os(DETERMINISTIC_ENV)
                .and_then(|v| v.to_str().map(|s| matches!(s.chars().next(), Some('1' | 'y' | 'Y' | 't' | 'T'))))
                .unwrap_or(false);
            let mode = if on { DETERMINISTIC } else { ODE_ORDER };
            // A concurrent set_deterministic_order wins over the variable.
            match ORDER_MODE.compare_exchange(UNSET, mode, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => on,
                Err(current) => current == DETERMINISTIC,
            }
        }
    }
}

/// Warm starting (off by default, as in ODE 0.16.2, whose quickstep is
/// compiled without WARM_STARTING): when on, each row starts from 0.9 times
/// the λ its joint stored at the previous step, which is what ODE's
/// optional WARM_STARTING mode does. Joints store their λ in both modes
/// (in exact mode a contact joint without feedback only while this is on:
/// nothing else reads it).
pub fn set_warm_start(on: bool) {
    WARM_START.store(on as u8, Ordering::Relaxed);
}

pub fn warm_start() -> bool {
    WARM_START.load(Ordering::Relaxed) != 0
}

/// How many `dRand` draws one island solve makes in ODE's ordering mode:
/// `m − 1` per shuffle, one shuffle at each iteration 8, 16, 24, … below
/// `iterations`.
pub fn rand_draws(m: usize, iterations: i32) -> usize {
    if m < 2 || iterations <= 0 {
        return 0;
    }
    let n = iterations as usize;
    let shuffles = (n - 1) / REORDER_FREQUENCY;
    shuffles * (m - 1)
}

/// One scaled row as the SOR sweep reads it (ODE's J and iMJ rows side by
/// side). The two bodies' Jacobians are interleaved, `jj[k] = (J₁[k],
/// J₂[k])`, so that both dot products of the update run side by side in
/// the two lanes of one SSE2 register, each lane summing in ODE's order
/// (a row without a second body has J₂ = +0 and reads a zero force: its
/// second sum is +0, and subtracting +0 changes no value). The Jacobians
/// with rhs, cfm and the bounds fill the first two cache lines, M⁻¹Jᵀ of
/// each body one more each.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
pub struct SorRow {
    jj: [[f64; 2]; 6],
    rhs: f64,
    cfm: f64,
    lo: f64,
    hi: f64,
    im1: [f64; 6],
    _pad1: [f64; 2],
    im2: [f64; 6],
    _pad2: [f64; 2],
}

/// One entry of the sweep order: the row and what the update needs to know
/// before touching it (its bodies, the zero dummy body `nb` as body 2 of a
/// row without one, and its friction index, -1 for none). Shuffles move
/// whole entries.
#[derive(Clone, Copy, Default)]
#[repr(C)]
pub struct SorOrder {
    row: u32,
    b1: u32,
    b2: u32,
    findex: i32,
}

/// A body's constraint force accumulator `fc` (linear then angular), one
/// cache line per body.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
pub struct BodyForce {
    f: [f64; BODY],
    _pad: [f64; 2],
}

/// The QuickStep solver's buffers (resized, never shrunk).
#[derive(Default)]
pub struct QuickScratch {
    rows: Vec<SorRow>,
    order: Vec<SorOrder>,
    /// Order entries of the rows with a friction index, gathered apart and
    /// placed after the others once all rows are packed.
    tails: Vec<SorOrder>,
    slots: Vec<QSlot>,
    lambda: Vec<f64>,
    fc: Vec<BodyForce>,
    tmp: Vec<[f64; BODY]>,
    /// The islands of a group solved together (`solve_joint_islands`):
    /// each one's stretch of `order`.
    segs: Vec<Segment>,
    /// A group's sweep order: its islands' orders interleaved.
    merged: Vec<SorOrder>,
    /// The one-body islands' lane sweep.
    lanes: one_body_lanes::LaneScratch,
    /// A large island's sweep order before its first reordering,
    /// rearranged by `LevelSchedule`.
    leveled: Vec<SorOrder>,
    levels: LevelSchedule,
}

/// Rearranges a sweep order without changing any value the sweep
/// computes. A row's update reads and writes its bodies' accumulators and
/// its own λ, and reads the λ of its friction index; two rows that share
/// none of these may swap places, and rows that do keep their order. Each
/// row gets a level one above every earlier row it depends on, and the
/// rows are sorted by level, stably. Rows of one level are independent, so
/// the processor overlaps their updates; in the packing's order (ODE's
/// before its first reordering) the rows of one contact, and the contacts
/// of one geom pair, come one after the other, each waiting for the one
/// before. The dummy body (no body 2) is never written and links nothing.
#[derive(Default)]
struct LevelSchedule {
    /// Per body: one above the level of the last row on it so far.
    body: Vec<u32>,
    /// Per λ: one above the level of its row (0 before the row).
    written: Vec<u32>,
    /// Per λ: one above the highest level that read it as a friction index.
    read: Vec<u32>,
    /// Per entry of the order: its level.
    level: Vec<u32>,
    /// Entries per level, then where each level starts in the output.
    count: Vec<u32>,
}

impl LevelSchedule {
    /// `out` = `order` sorted by level. `dummy` is the dummy body, `m` the
    /// number of λ (rows and friction indices are below it).
    fn arrange(&mut self, order: &[SorOrder], out: &mut [SorOrder], dummy: usize, m: usize) {
        assert_eq!(order.len(), out.len());
        self.body.clear();
        self.body.resize(dummy + 1, 0);
        self.written.clear();
        self.written.resize(m, 0);
        self.read.clear();
        self.read.resize(m, 0);
        self.level.clear();
        let mut top = 0;
        for o in order {
            let (b1, b2, r) = (o.b1 as usize, o.b2 as usize, o.row as usize);
            let mut lv = self.body[b1].max(self.read[r]);
            if b2 != dummy {
                lv = lv.max(self.body[b2]);
            }
            if o.findex >= 0 {
                lv = lv.max(self.written[o.findex as usize]);
            }
            self.level.push(lv);
            let next = lv + 1;
            self.body[b1] = next;
            if b2 != dummy {
                self.body[b2] = next;
            }
            self.written[r] = next;
            if o.findex >= 0 {
                let f = &mut self.read[o.findex as usize];
                *f = (*f).max(next);
            }
            top = top.max(next);
        }
        // A counting sort on the level.
        self.count.clear();
        self.count.resize(top as usize + 1, 0);
        for &lv in &self.level {
            self.count[lv as usize + 1] += 1;
        }
        // Running sum in a register: through memory each add waits for
        // the store before it (hundreds of levels, twice a step).
        let mut sum = 0;
        for c in &mut self.count {
            sum += *c;
            *c = sum;
        }
        for (o, &lv) in order.iter().zip(&self.level) {
            let at = &mut self.count[lv as usize];
            out[*at as usize] = *o;
            *at += 1;
        }
    }
}

/// One island's stretch `start..start + len` of the sweep order, and the
/// `dRand` state its next shuffle continues from.
#[derive(Clone, Copy, Default)]
struct Segment {
    start: usize,
    len: usize,
    rand: u32,
    /// Every row acts on one body, the same (and has no body 2).
    one_body: bool,
}

/// How many joints ahead the packing asks for a joint's cache lines.
const PACK_AHEAD: usize = 3;

/// No unscaled rows kept (`QSlot::rows_at`).
const NO_ROWS: u32 = u32::MAX;

/// One joint of the island as the solve keeps it: its first row among the
/// island's packed rows and its row count; its bodies as the sweep sees
/// them (a joint with body 2 only has it as `b1`, see `solve_rows_body`;
/// `b2` is the dummy `nb` when absent); whether the joint itself has a
/// body 2 (the feedback's second half); and where its unscaled rows are in
/// `IslandRows::rows` (`NO_ROWS` for a contact without feedback, whose
/// rows are packed straight from a local buffer and then dropped).
#[derive(Clone, Copy)]
struct QSlot {
    joint: JointRef,
    row0: u32,
    m: u32,
    b1: u32,
    b2: u32,
    swap: bool,
    has_b2: bool,
    rows_at: u32,
    /// A contact without feedback: nothing but the optional warm start
    /// reads its λ (see the results).
    quiet_contact: bool,
}

/// Grows `v` to at least `n` elements (never shrinks, so a warm solve does
/// not allocate) and returns its first `n`.
fn at_least<T: Default + Clone>(v: &mut Vec<T>, n: usize) -> &mut [T] {
    if v.len() < n {
        v.resize(n, T::default());
    }
    &mut v[..n]
}

/// Solves the island's rows, updates the island bodies' velocities
/// (constraint forces, then external forces), writes the joints' feedback
/// and stores each joint's λ. Islands without rows only get the external
/// force update. Positions are not touched.
pub fn solve_island(input: &IslandInput, rows: &mut IslandRows, scratch: &mut SolverScratch) {
    solve_island_with(input, rows, scratch, !deterministic_order());
}

/// `solve_island` in ODE's initial row order for every iteration, never
/// drawing from `dRand`: fast mode's solver for an island of one body,
/// whose rows all share that body, so that fast mode's colour batches
/// would hold one row each (four times the work of this scalar sweep).
pub fn solve_island_unshuffled(input: &IslandInput, rows: &mut IslandRows, scratch: &mut SolverScratch) {
    solve_island_with(input, rows, scratch, false);
}

fn solve_island_with(input: &IslandInput, rows: &mut IslandRows, scratch: &mut SolverScratch, shuffle: bool) {
    let m = rows.rows.len();
    if m > 0 {
        let joints = rows.joints.len();
        solve_rows(input, Source::Rows(rows), scratch, shuffle, &[(input.bodies.len(), joints)]);
    }
    apply_external_forces(input);
}

/// `super::assemble_rows` followed by `solve_island`, with the same bits,
/// but without holding every row twice: joints other than contacts are
/// filled first (their `info2` may push bodies, which the right-hand side
/// reads), in island order, into `rows`; then, joint by joint, each
/// joint's rows are packed into the sweep's records, a contact's straight
/// from its `info2` into a buffer on the stack (kept in `rows` only when
/// the contact has feedback). `rows` is left holding those unscaled rows
/// only (`rows.joints` empty). `infos` as for `assemble_rows`: body tags
/// hold the bodies' island indices; each joint's tag is set to its slot.
pub fn solve_joints(input: &IslandInput, infos: &[JointInfo], rows: &mut IslandRows, scratch: &mut SolverScratch) {
    solve_joints_with(input, infos, rows, scratch, !deterministic_order());
}

/// `solve_joints` in ODE's initial row order (as `solve_island_unshuffled`).
pub fn solve_joints_unshuffled(
    input: &IslandInput,
    infos: &[JointInfo],
    rows: &mut IslandRows,
    scratch: &mut SolverScratch,
) {
    solve_joints_with(input, infos, rows, scratch, false);
}

fn solve_joints_with(
    input: &IslandInput,
    infos: &[JointInfo],
    rows: &mut IslandRows,
    scratch: &mut SolverScratch,
    shuffle: bool,
) {
    if infos.iter().any(|ji| ji.info.m > 0) {
        solve_rows(input, Source::Joints(infos, rows), scratch, shuffle, &[(input.bodies.len(), infos.len())]);
    }
    apply_external_forces(input);
}

/// `solve_joints` for several islands at once, with each island's bits:
/// `input.bodies` holds the islands' bodies one island after the other
/// (tags: index in `input.bodies`), `infos` their joints likewise:
/// `islands[i]` is (bodies, joints) of island i. An island's joints all
/// have rows, and some island has joints; one without is a free body,
/// which gets only the final velocity update (no constraint force, not
/// even a zero one: adding +0 would turn a −0 velocity into +0). A small island's rows all
/// share one or two bodies, and each update waits for the one before it,
/// so the islands are solved side by side: those of one body four at a
/// time in SIMD lanes (`one_body_lanes`), the others with their row orders
/// interleaved in one sweep, which lets the processor overlap their
/// updates. Every value goes through the operations a solve of its own
/// island would do, in the same order; each island's shuffles draw what
/// they would draw island after island (reserved in island order before
/// the sweep).
/// `shuffle`: ODE's reorderings (`solve_joints`), or none
/// (`solve_joints_unshuffled`).
pub fn solve_joint_islands(
    input: &IslandInput,
    infos: &[JointInfo],
    islands: &[(usize, usize)],
    rows: &mut IslandRows,
    scratch: &mut SolverScratch,
    shuffle: bool,
) {
    debug_assert_eq!(islands.iter().map(|i| i.1).sum::<usize>(), infos.len());
    debug_assert_eq!(islands.iter().map(|i| i.0).sum::<usize>(), input.bodies.len());
    solve_rows(input, Source::Joints(infos, rows), scratch, shuffle, islands);
    apply_external_forces(input);
}

/// Where the rows come from: already assembled, or the joints themselves.
enum Source<'a, 'b> {
    Rows(&'b mut IslandRows),
    Joints(&'a [JointInfo], &'b mut IslandRows),
}

/// ODE's final velocity update with the accumulated forces (the torque
/// accumulator is scaled by h in place, as ODE does). Fast mode ends its
/// solve with the same update.
pub(super) fn apply_external_forces(input: &IslandInput) {
    let h = input.h;
    for (&b, ii) in input.bodies.iter().zip(input.inv_i.iter()) {
        let b = b.get_mut();
        let s = h * b.inv_mass;
        for k in 0..3 {
            b.lvel[k] += s * b.facc[k];
            b.tacc[k] *= h;
        }
        let dw = mul0_331(ii, &b.tacc);
        for k in 0..3 {
            b.avel[k] += dw[k];
        }
    }
}

/// `islands`: how many bodies and joints (slots) each island of the group
/// has, in order (one island: all of them).
fn solve_rows(input: &IslandInput, src: Source, scratch: &mut SolverScratch, shuffle: bool, islands: &[(usize, usize)]) {
    // With VEX encoding where the processor has AVX (as `sweep`): the same
    // operations per value, so the same bits.
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: the processor has AVX.
        unsafe { solve_rows_avx(input, src, scratch, shuffle, islands) };
        return;
    }
    solve_rows_body(input, src, scratch, shuffle, islands)
}

/// # Safety
/// The processor must have AVX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn solve_rows_avx(input: &IslandInput, src: Source, scratch: &mut SolverScratch, shuffle: bool, islands: &[(usize, usize)]) {
    solve_rows_body(input, src, scratch, shuffle, islands)
}

/// What packing a joint's rows reads of one of its bodies.
#[derive(Clone, Copy)]
struct PackBody<'a> {
    /// Inverse mass.
    k: f64,
    /// World-frame inverse inertia (3x4 padded).
    ii: &'a [f64; 12],
    /// −(v/h + M⁻¹F), linear then angular.
    t: &'a [f64; BODY],
}

/// Packs rows into the sweep's records and order entries.
struct Packer<'a> {
    srows: &'a mut [SorRow],
    order: &'a mut [SorOrder],
    tails: &'a mut [SorOrder],
    head: usize,
    ntail: usize,
    hinv: f64,
    w: f64,
}

impl Packer<'_> {
    /// Ends an island: its rows with a friction index follow the others.
    fn close_island(&mut self) {
        let n = self.ntail;
        self.order[self.head..self.head + n].copy_from_slice(&self.tails[..n]);
        self.head += n;
        self.ntail = 0;
    }

    /// Packs the rows of one joint (`rows`, body 1's and body 2's Jacobians
    /// exchanged when `slot.swap`), whose first row is `row0`; a row's friction
    /// index plus `fbase` is its index among the island's rows.
    #[inline(always)]
    fn joint(&mut self, rows: &[Row], slot: &QSlot, fbase: i32, p1: PackBody, p2: Option<PackBody>) {
        match p2 {
            Some(p2) => self.rows::<true>(rows, slot, fbase, p1, p2),
            None => self.rows::<false>(rows, slot, fbase, p1, p1),
        }
    }

    /// Per row: copy and 1/h scaling, rhs, iMJ, Ad scaling, order entry
    /// (ODE's operations in ODE's order). `B2`: the row has a body 2
    /// (`p2`; otherwise `p2` is unused and J₂, iMJ₂ are +0).
    #[inline(always)]
    fn rows<const B2: bool>(
        &mut self,
        rows: &[Row],
        slot: &QSlot,
        fbase: i32,
        p1: PackBody,
        p2: PackBody,
    ) {
        let (hinv, w) = (self.hinv, self.w);
        let m_all = self.srows.len() as i32;
        for (i, row) in rows.iter().enumerate() {
            let r = slot.row0 as usize + i;
            let (j1l, j1a, j2l, j2a) =
                if slot.swap { (&row.j2l, &row.j2a, &row.j1l, &row.j1a) } else { (&row.j1l, &row.j1a, &row.j2l, &row.j2a) };
            let mut j1 = [j1l[0], j1l[1], j1l[2], j1a[0], j1a[1], j1a[2]];
            // +0 without a body 2 (see `SorRow`).
            let mut j2 = if B2 { [j2l[0], j2l[1], j2l[2], j2a[0], j2a[1], j2a[2]] } else { [0.0; 6] };
            let mut rhs = row.c * hinv;
            let cfm = row.cfm * hinv;

            // rhs: c/h − J·(v/h + M⁻¹F)
            let mut sum = 0.0;
            for k in 0..6 {
                sum += j1[k] * p1.t[k];
            }
            if B2 {
                for k in 0..6 {
                    sum += j2[k] * p2.t[k];
                }
            }
            rhs += sum;

            // iMJ = M⁻¹·Jᵀ
            let im1 = inv_mass_times(&p1, &j1);
            let im2 = if B2 { inv_mass_times(&p2, &j2) } else { [0.0; 6] };

            // Ad = w / (J·iMJ + cfm/h) scales J, rhs and cfm.
            let mut sum = 0.0;
            for k in 0..6 {
                sum += im1[k] * j1[k];
            }
            if B2 {
                for k in 0..6 {
                    sum += im2[k] * j2[k];
                }
            }
            let ad = w / (sum + cfm);
            for k in 0..6 {
                j1[k] *= ad;
            }
            if B2 {
                for k in 0..6 {
                    j2[k] *= ad;
                }
            }
            let s = &mut self.srows[r];
            s.cfm = cfm * ad;
            s.rhs = rhs * ad;
            s.lo = row.lo;
            s.hi = row.hi;
            s.im1 = im1;
            s.im2 = im2;
            s.jj = std::array::from_fn(|i| [j1[PERM[i]], j2[PERM[i]]]);

            // Rows without a friction index go first in the order, then the
            // rows with one, each group in island order.
            let findex = if row.findex == -1 { -1 } else { row.findex + fbase };
            // The sweep indexes λ with the friction index unchecked.
            assert!(findex == -1 || (0..m_all).contains(&findex), "friction index out of range");
            let entry = SorOrder { row: r as u32, b1: slot.b1, b2: slot.b2, findex };
            if findex == -1 {
                self.order[self.head] = entry;
                self.head += 1;
            } else {
                self.tails[self.ntail] = entry;
                self.ntail += 1;
            }
        }
    }
}

/// The joint's bodies as the sweep sees them: a joint with body 2 only is
/// stored with it as body 1, so that the sweep does exactly the
/// operations it would do on body 2 (ODE always has a body 1; so does
/// every joint of an island). Returns (b1, b2 or `nb`, swapped, has body 2).
fn sweep_bodies(b1: Option<usize>, b2: Option<usize>, nb: usize) -> (u32, u32, bool, bool) {
    match (b1, b2) {
        (Some(b1), b2) => (b1 as u32, b2.unwrap_or(nb) as u32, false, b2.is_some()),
        (None, Some(b2)) => (b2 as u32, nb as u32, true, true),
        (None, None) => unreachable!("a joint of an island has a body"),
    }
}

#[inline(always)]
fn solve_rows_body(input: &IslandInput, src: Source, scratch: &mut SolverScratch, shuffle: bool, islands: &[(usize, usize)]) {
    let nb = input.bodies.len();
    let h = input.h;
    let hinv = 1.0 / h;
    let qs = input.world.qs;
    let QuickScratch { rows: srows, order, tails, slots, lambda, fc, tmp, segs, merged, lanes, leveled, levels } = &mut scratch.quick;

    // ---- the joints' slots; rows of joints other than contacts --------------
    slots.clear();
    let mut m = 0usize;
    let ctx = RowCtx { fps: 1.0 / h, erp: input.world.erp, world: input.world };
    let island: &mut IslandRows = match src {
        Source::Rows(island) => {
            for js in &island.joints {
                let (b1, b2, swap, has_b2) = sweep_bodies(js.b1, js.b2, nb);
                let (row0, m) = (js.row0 as u32, js.m as u32);
                let head = &js.joint.get().head;
                let quiet_contact = head.feedback.is_null() && matches!(js.joint.get().kind, JointKind::Contact(_));
                slots.push(QSlot { joint: js.joint, row0, m, b1, b2, swap, has_b2, rows_at: row0, quiet_contact });
            }
            m = island.rows.len();
            island
        }
        Source::Joints(infos, island) => {
            island.clear();
            for (slot, ji) in infos.iter().enumerate() {
                let joint = ji.joint.get_mut();
                joint.head.tag = slot as i32;
                let index = |b: Option<BodyRef>| b.map(|b| b.get().tag as usize);
                let (b1, b2, swap, has_b2) = sweep_bodies(index(joint.head.body[0]), index(joint.head.body[1]), nb);
                // In island order, as assemble_rows: these joints' info2
                // may push bodies (a powered joint at a stop), and every
                // push must be in before the right-hand side reads the
                // accumulators. A contact's info2 pushes nothing and reads
                // no accumulator, so it can wait for the packing.
                let rows_at = if matches!(joint.kind, JointKind::Contact(_)) {
                    NO_ROWS
                } else {
                    let at = island.rows.len();
                    push_joint_rows(joint, ji.info.m, &ctx, &mut island.rows);
                    at as u32
                };
                let (row0, sm) = (m as u32, ji.info.m as u32);
                // Known once the contact is packed (`rows_at` stays NO_ROWS).
                let quiet_contact = false;
                slots.push(QSlot { joint: ji.joint, row0, m: sm, b1, b2, swap, has_b2, rows_at, quiet_contact });
                m += ji.info.m;
            }
            island
        }
    };

    // ---- scratch ------------------------------------------------------------
    // Every element used below is written before it is read, except λ and
    // fc, which are zeroed explicitly; so the buffers are only grown.
    let srows = at_least(srows, m);
    let order = at_least(order, m);
    let tails = at_least(tails, m);
    let lambda = at_least(lambda, m);
    // One more accumulator: the dummy body 2 of single-body rows, which
    // stays zero (the sweep never adds to it).
    let fc = at_least(fc, nb + 1);
    let tmp = at_least(tmp, nb);
    lambda.fill(0.0);
    fc.fill(BodyForce::default());

    // ---- v/h + M⁻¹F per body (negated) ------------------------------------
    for ((t, &b), ii) in tmp.iter_mut().zip(input.bodies).zip(input.inv_i) {
        let b = b.get();
        let im = b.inv_mass;
        for k in 0..3 {
            t[k] = -(b.facc[k] * im + b.lvel[k] * hinv);
        }
        let a = mul0_331(ii, &b.tacc);
        for k in 0..3 {
            t[3 + k] = -(b.avel[k] * hinv) - a[k];
        }
    }

    // ---- per joint: its rows packed ------------------------------------------
    let mut pack = Packer { srows, order, tails, head: 0, ntail: 0, hinv, w: qs.w };
    let pack_body = |b: u32| {
        let b = b as usize;
        PackBody { k: input.bodies[b].get().inv_mass, ii: &input.inv_i[b], t: &tmp[b] }
    };
    let world_cfm = input.world.cfm;
    // A contact's rows (at most 6) between its info2 and the packing.
    let mut local = [Row::initial(world_cfm); 6];
    // Island by island: its rows without a friction index, then those with
    // one, each group in island order.
    segs.clear();
    let mut first = 0;
    for &(_, n) in islands {
        let start = pack.head;
        pack.ntail = 0;
        for k in first..first + n {
            if let Some(ahead) = slots.get(k + PACK_AHEAD) {
                crate::joints::prefetch(ahead.joint.get());
            }
            let slot = &mut slots[k];
            let (row0, sm) = (slot.row0 as usize, slot.m as usize);
            let joint = slot.joint.get_mut();
            let p1 = pack_body(slot.b1);
            let p2 = (slot.b2 as usize != nb).then(|| pack_body(slot.b2));
            if slot.rows_at == NO_ROWS {
                let rs = &mut local[..sm];
                rs.fill(Row::initial(world_cfm));
                if let JointKind::Contact(c) = &mut joint.kind {
                    c.info2(&joint.head, joint.head.bodies(), &ctx, rs);
                }
                if !joint.head.feedback.is_null() {
                    // Kept for the feedback (Jᵀλ with the unscaled J).
                    slot.rows_at = island.rows.len() as u32;
                    island.rows.extend_from_slice(rs);
                } else {
                    slot.quiet_contact = true;
                }
                pack.joint(rs, slot, row0 as i32, p1, p2);
            } else {
                let at = slot.rows_at as usize;
                // push_joint_rows made the friction indices absolute in `rows`.
                pack.joint(&island.rows[at..at + sm], slot, row0 as i32 - at as i32, p1, p2);
            }
        }
        pack.close_island();
        let own = &slots[first..first + n];
        // (An island without joints, a free body in the group, has no rows.)
        let one_body = n > 0 && own.iter().all(|s| s.b1 == own[0].b1 && s.b2 as usize == nb);
        segs.push(Segment { start, len: pack.head - start, rand: 0, one_body });
        first += n;
    }
    debug_assert_eq!(pack.head, m);

    // ---- λ and fc start values -------------------------------------------
    if warm_start() {
        for slot in slots.iter() {
            let prev = &slot.joint.get().head.lambda;
            let r0 = slot.row0 as usize;
            for (k, l) in lambda[r0..r0 + slot.m as usize].iter_mut().enumerate() {
                *l = prev.get(k).copied().unwrap_or(0.0) * 0.9;
            }
        }
        for slot in slots.iter() {
            let (b1, b2) = (slot.b1 as usize, slot.b2 as usize);
            let r0 = slot.row0 as usize;
            for r in r0..r0 + slot.m as usize {
                let (s, l) = (&srows[r], lambda[r]);
                for k in 0..6 {
                    fc[b1].f[k] += s.im1[k] * l;
                }
                if b2 != nb {
                    for k in 0..6 {
                        fc[b2].f[k] += s.im2[k] * l;
                    }
                }
            }
        }
    }

    // ---- SOR iterations ----------------------------------------------------
    let iterations = qs.num_iterations.max(0) as usize;
    let reorder = |iteration: usize| shuffle && iteration >= REORDER_FREQUENCY && iteration.is_multiple_of(REORDER_FREQUENCY);
    if let [_] = segs[..] {
        // Until the first reordering the order is the packing's: the rows
        // without a friction index, then those with one.
        let split = order.iter().position(|o| o.findex != -1).unwrap_or(m);
        let mut partitioned = order[split..].iter().all(|o| o.findex != -1);
        // Swept by dependency level until the first reordering (after it
        // the shuffled order has few dependent rows close together).
        let leveled = at_least(leveled, m);
        if partitioned && iterations > 0 {
            levels.arrange(&order[..split], &mut leveled[..split], nb, m);
            levels.arrange(&order[split..], &mut leveled[split..], nb, m);
        }
        for iteration in 0..iterations {
            if reorder(iteration) {
                // ODE's dRandInt(index + 1) for index = 1, 2, …, m − 1: the
                // m − 1 draws reserved at once.
                shuffle_order(order, random::take(m - 1));
                partitioned = false;
            }
            if partitioned {
                // SAFETY: checked above (and the order is unchanged since);
                // each part was rearranged within itself.
                unsafe { sweep_partitioned(srows, leveled, split, lambda, fc, nb) };
            } else {
                sweep(srows, order, lambda, fc, nb, false);
            }
        }
    } else {
        if shuffle {
            for seg in segs.iter_mut() {
                seg.rand = random::take(rand_draws(seg.len, iterations as i32));
            }
        }
        // The one-body islands in SIMD lanes where there are enough of
        // them, the others interleaved.
        let mut lane_islands = 0;
        if one_body_lanes::available() {
            segs.sort_unstable_by_key(|s| !s.one_body);
            lane_islands = segs.iter().take_while(|s| s.one_body).count();
            if lane_islands >= one_body_lanes::MIN_ISLANDS {
                // SAFETY: AVX is present; the packing put every row,
                // friction index and body of these islands in range, and
                // each island's rows on its one body.
                unsafe {
                    one_body_lanes::solve(&mut segs[..lane_islands], order, srows, lambda, fc, iterations, shuffle, lanes);
                }
            } else {
                lane_islands = 0;
            }
        }
        let rest = &mut segs[lane_islands..];
        let merged = at_least(merged, rest.iter().map(|s| s.len).sum());
        if !merged.is_empty() {
            interleave(order, rest, merged);
        }
        for iteration in 0..iterations {
            if merged.is_empty() {
                break;
            }
            if reorder(iteration) {
                for seg in rest.iter_mut() {
                    seg.rand = shuffle_order(&mut order[seg.start..seg.start + seg.len], seg.rand);
                }
                interleave(order, rest, merged);
            }
            sweep(srows, merged, lambda, fc, nb, true);
        }
    }

    // ---- results -------------------------------------------------------------
    // The constraint forces, to the bodies of islands with rows (as ODE's
    // step of an island without rows, a free body's velocity gets none).
    let (mut b0, mut first) = (0, 0);
    for &(nb, n) in islands {
        if slots[first..first + n].iter().any(|s| s.m > 0) {
            for (&b, f) in input.bodies[b0..b0 + nb].iter().zip(&fc[b0..b0 + nb]) {
                let b = b.get_mut();
                for k in 0..3 {
                    b.lvel[k] += h * f.f[k];
                    b.avel[k] += h * f.f[3 + k];
                }
            }
        }
        (b0, first) = (b0 + nb, first + n);
    }
    // A contact without feedback has its λ read only by the optional warm
    // start: unless that is on, its joint is not touched again (after the
    // sweeps it has left the cache, and a pyramid has thousands).
    let store_contact_lambda = warm_start();
    for slot in slots.iter() {
        if slot.quiet_contact && !store_contact_lambda {
            continue;
        }
        let r0 = slot.row0 as usize;
        let lam = &lambda[r0..r0 + slot.m as usize];
        let head = &mut slot.joint.get_mut().head;
        // Element by element: a copy_from_slice of these few values was a
        // memcpy call per joint.
        for (d, &l) in head.lambda.iter_mut().zip(lam) {
            *d = l;
        }
        let fb = head.feedback;
        if !fb.is_null() {
            // Every joint with feedback kept its unscaled rows.
            let at = slot.rows_at as usize;
            let rs = &island.rows[at..at + lam.len()];
            let (f1, t1) = feedback_sum(rs, lam, |r| (&r.j1l, &r.j1a));
            // SAFETY: the host registered this dJointFeedback with
            // dJointSetFeedback and must keep it valid while the joint
            // exists; nothing else accesses it during the step.
            let fb = unsafe { &mut *fb };
            if slot.has_b2 {
                let (f2, t2) = feedback_sum(rs, lam, |r| (&r.j2l, &r.j2a));
                fb.f2[..3].copy_from_slice(&f2);
                fb.t2[..3].copy_from_slice(&t2);
            }
            fb.f1[..3].copy_from_slice(&f1);
            fb.t1[..3].copy_from_slice(&t1);
        }
    }
}

/// M⁻¹·Jᵀ of one body's Jacobian block (linear, then angular).
#[inline(always)]
fn inv_mass_times(p: &PackBody, j: &[f64; 6]) -> [f64; 6] {
    let k = p.k;
    let a = mul0_331(p.ii, &j[3..6]);
    [k * j[0], k * j[1], k * j[2], a[0], a[1], a[2]]
}

/// ODE's reordering of one island's rows: Fisher–Yates from the back,
/// `dRandInt(index + 1)` for index = 1, 2, …, m − 1, drawn from state `s`.
/// Returns the state after the draws.
fn shuffle_order(order: &mut [SorOrder], s: u32) -> u32 {
    // The draws of odd and even indices as two chains two steps apart, so
    // that a draw does not wait for the one before it (the generator's
    // multiply is the loop's longest dependency); the same draws.
    let n = order.len();
    if n < 2 {
        return s;
    }
    let mut a = random::next(s);
    let mut b = random::next(a);
    let mut index = 1;
    let mut last = s;
    while index + 1 < n {
        let swap = random::int_from_draw(a, index as i32 + 1) as usize;
        order.swap(index, swap);
        let swap = random::int_from_draw(b, index as i32 + 2) as usize;
        order.swap(index + 1, swap);
        last = b;
        a = random::next2(a);
        b = random::next2(b);
        index += 2;
    }
    if index < n {
        // An odd number of draws: the last is `a`.
        let swap = random::int_from_draw(a, index as i32 + 1) as usize;
        order.swap(index, swap);
        return a;
    }
    last
}

/// A group's sweep order: the islands' orders (`segs` of `order`) taken
/// one entry of each in turn.
fn interleave(order: &[SorOrder], segs: &[Segment], out: &mut [SorOrder]) {
    let longest = segs.iter().map(|s| s.len).max().unwrap_or(0);
    let mut k = 0;
    for i in 0..longest {
        for seg in segs {
            if i < seg.len {
                out[k] = order[seg.start + i];
                k += 1;
            }
        }
    }
    debug_assert_eq!(k, out.len());
}

/// How a sweep finds a row's bounds: `ANY_BOUNDS` from the row's friction
/// index (`bounds`), or known for every row of the order: `PLAIN` (no
/// friction index: the row's `lo`, `hi`) or `FRICTION` (±|hi·λ_findex|).
const ANY_BOUNDS: u8 = 0;
const PLAIN: u8 = 1;
const FRICTION: u8 = 2;

/// `sweep` of an order whose first `split` rows have no friction index
/// and the others have one (an island's order before ODE's first
/// reordering: its rows without, then those with a friction index), each
/// part with its bounds known (`PLAIN`, `FRICTION`): the same values,
/// without choosing them per row.
///
/// # Safety
/// `order[..split]` have no friction index and `order[split..]` have one
/// (the caller checks it once; the friction part reads λ at its index).
unsafe fn sweep_partitioned(rows: &[SorRow], order: &[SorOrder], split: usize, lambda: &mut [f64], fc: &mut [BodyForce], dummy: usize) {
    assert!(rows.len() == order.len() && lambda.len() == rows.len() && fc.len() == dummy + 1);
    let (plain, friction) = order.split_at(split);
    debug_assert!(plain.iter().all(|o| o.findex == -1) && friction.iter().all(|o| o.findex != -1));
    let lam = lambda.as_mut_ptr();
    let fcp = fc.as_mut_ptr();
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: the processor has AVX; the indices as in `sweep`.
        unsafe {
            sweep_avx_known::<PLAIN>(rows, plain, lam, fcp, dummy as u32);
            sweep_avx_known::<FRICTION>(rows, friction, lam, fcp, dummy as u32);
        }
        return;
    }
    // SAFETY: as in `sweep`.
    unsafe {
        sweep_rows::<false, false, PLAIN>(rows, plain, lam, fcp, dummy as u32);
        sweep_rows::<false, false, FRICTION>(rows, friction, lam, fcp, dummy as u32);
    }
}

/// `sweep_avx` of rows whose bounds are known (`BOUNDS`).
///
/// # Safety
/// As `sor_update` for every entry of `order`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn sweep_avx_known<const BOUNDS: u8>(rows: &[SorRow], order: &[SorOrder], lam: *mut f64, fcp: *mut BodyForce, dummy: u32) {
    sweep_rows::<true, false, BOUNDS>(rows, order, lam, fcp, dummy)
}

/// One SOR pass over the rows in `order`; `fc[dummy]` is the zero force
/// of the absent body 2.
///
/// `interleaved`: `order` alternates between independent small islands,
/// whose updates the processor can overlap as long as it does not stall
/// on a mispredicted branch, so the update selects its results by masks
/// (`sor_update`'s `SELECT`).
fn sweep(rows: &[SorRow], order: &[SorOrder], lambda: &mut [f64], fc: &mut [BodyForce], dummy: usize, interleaved: bool) {
    // Every index was checked when the order was built: rows and λ by
    // construction (`row < m`, `findex` asserted in 0..m), bodies by the
    // `tmp[b]` lookups (`b < nb`, or the dummy `nb`); `rows` holds m
    // entries (`order` all of them or some), `fc` nb + 1. The unchecked
    // accesses below stay in those ranges.
    assert!(order.len() <= rows.len() && lambda.len() == rows.len() && fc.len() == dummy + 1);
    let lam = lambda.as_mut_ptr();
    let fcp = fc.as_mut_ptr();
    // The same code with VEX encoding (three-operand forms, 256-bit force
    // updates) where the processor has AVX: the same operations per value
    // (no fused multiply-add), so the same bits.
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: the processor has AVX; the indices as below.
        unsafe {
            if interleaved {
                sweep_avx_select(rows, order, lam, fcp, dummy as u32)
            } else {
                sweep_avx(rows, order, lam, fcp, dummy as u32)
            }
        };
        return;
    }
    // SAFETY: see above.
    unsafe {
        if interleaved {
            sweep_rows::<false, true, ANY_BOUNDS>(rows, order, lam, fcp, dummy as u32)
        } else {
            sweep_rows::<false, false, ANY_BOUNDS>(rows, order, lam, fcp, dummy as u32)
        }
    }
}

/// # Safety
/// As `sor_update` for every entry of `order`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn sweep_avx(rows: &[SorRow], order: &[SorOrder], lam: *mut f64, fcp: *mut BodyForce, dummy: u32) {
    sweep_rows::<true, false, ANY_BOUNDS>(rows, order, lam, fcp, dummy)
}

/// `sweep_avx` for an interleaved order.
///
/// # Safety
/// As `sor_update` for every entry of `order`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn sweep_avx_select(rows: &[SorRow], order: &[SorOrder], lam: *mut f64, fcp: *mut BodyForce, dummy: u32) {
    sweep_rows::<true, true, ANY_BOUNDS>(rows, order, lam, fcp, dummy)
}

/// `AVX`: inlined into `sweep_avx` (the processor has AVX), whose dot
/// products use 256-bit lanes.
///
/// # Safety
/// As `sor_update` for every entry of `order`; `AVX` only where the
/// processor has AVX.
#[inline(always)]
unsafe fn sweep_rows<const AVX: bool, const SELECT: bool, const BOUNDS: u8>(
    rows: &[SorRow],
    order: &[SorOrder],
    lam: *mut f64,
    fcp: *mut BodyForce,
    dummy: u32,
) {
    // The rows are visited in ODE's shuffled order, which the hardware
    // prefetcher cannot follow, and a large island's rows (256 bytes each)
    // do not fit the L2 cache: the four lines of the row a few updates
    // ahead are requested now. (Reads only; no value changes.) A group of
    // small islands (`SELECT`) fits the cache.
    const AHEAD: usize = 6;
    for (k, o) in order.iter().enumerate() {
        #[cfg(target_arch = "x86_64")]
        if let (false, Some(a)) = (SELECT, order.get(k + AHEAD)) {
            use std::arch::x86_64::*;
            let p = rows.as_ptr().add(a.row as usize) as *const i8;
            _mm_prefetch::<_MM_HINT_T0>(p);
            _mm_prefetch::<_MM_HINT_T0>(p.add(64));
            _mm_prefetch::<_MM_HINT_T0>(p.add(128));
            _mm_prefetch::<_MM_HINT_T0>(p.add(192));
        }
        // SAFETY: see `sweep`; b1 != b2 (a joint never connects a body to
        // itself, and b1 is never the dummy), so the two accumulators are
        // distinct.
        sor_update::<AVX, SELECT, BOUNDS>(rows.get_unchecked(o.row as usize), *o, lam, fcp, dummy)
    }
}

/// One projected SOR update of a row (ODE's iteration step, same
/// operations in the same order).
///
/// # Safety
/// `o.row` and (if not -1) `o.findex` index `lambda`; `o.b1` and `o.b2`
/// index `fc` and differ; `fc[dummy]` is zero; `AVX` as `sweep_rows`.
/// `SELECT`: the projection and the skip of a zero δ chosen by masks
/// rather than branches (same values; x86_64 only).
#[inline(always)]
unsafe fn sor_update<const AVX: bool, const SELECT: bool, const BOUNDS: u8>(
    j: &SorRow,
    o: SorOrder,
    lambda: *mut f64,
    fc: *mut BodyForce,
    dummy: u32,
) {
    let r = o.row as usize;
    let old = *lambda.add(r);
    let mut delta = j.rhs - old * j.cfm;
    let f1 = &(*fc.add(o.b1 as usize)).f;
    let f2 = &(*fc.add(o.b2 as usize)).f;
    #[cfg(target_arch = "x86_64")]
    let (s1, s2) = if AVX { jacobian_dots_avx(&j.jj, f1, f2) } else { jacobian_dots(&j.jj, f1, f2) };
    #[cfg(not(target_arch = "x86_64"))]
    let (s1, s2) = jacobian_dots(&j.jj, f1, f2);
    delta -= s1;
    delta -= s2;

    let (lo, hi) = match BOUNDS {
        PLAIN => (j.lo, j.hi),
        FRICTION => {
            let hf = (j.hi * *lambda.add(o.findex as usize)).abs();
            (-hf, hf)
        }
        _ => bounds(j, o.findex, lambda),
    };
    let new = old + delta;
    #[cfg(target_arch = "x86_64")]
    if SELECT {
        let (l, d) = clamp_selected::<AVX>(old, new, delta, lo, hi);
        *lambda.add(r) = l;
        add_selected(&mut (*fc.add(o.b1 as usize)).f, d, &j.im1);
        if o.b2 != dummy {
            add_selected(&mut (*fc.add(o.b2 as usize)).f, d, &j.im2);
        }
        return;
    }
    if new < lo {
        delta = lo - old;
        *lambda.add(r) = lo;
    } else if new > hi {
        delta = hi - old;
        *lambda.add(r) = hi;
    } else {
        *lambda.add(r) = new;
    }

    if delta != 0.0 {
        let f = &mut (*fc.add(o.b1 as usize)).f;
        for k in 0..6 {
            f[k] += delta * j.im1[k];
        }
        if o.b2 != dummy {
            let f = &mut (*fc.add(o.b2 as usize)).f;
            for k in 0..6 {
                f[k] += delta * j.im2[k];
            }
        }
    }
}

/// ODE's projection of `new = old + delta` on `[lo, hi]`: `(λ, δ)` is
/// `(lo, lo − old)` if `new < lo`, else `(hi, hi − old)` if `new > hi`,
/// else `(new, delta)`; the same values as the branches (the comparisons
/// are false on NaN as theirs are), chosen by masks. `AVX`: with blends.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn clamp_selected<const AVX: bool>(old: f64, new: f64, delta: f64, lo: f64, hi: f64) -> (f64, f64) {
    use std::arch::x86_64::*;
    let (vnew, vlo, vhi) = (_mm_set_sd(new), _mm_set_sd(lo), _mm_set_sd(hi));
    let below = _mm_cmplt_sd(vnew, vlo);
    let above = _mm_cmplt_sd(vhi, vnew);
    let (to_lo, to_hi) = (_mm_set_sd(lo - old), _mm_set_sd(hi - old));
    let pick = |a: __m128d, b: __m128d, mask: __m128d| {
        if AVX {
            _mm_blendv_pd(a, b, mask)
        } else {
            _mm_or_pd(_mm_and_pd(mask, b), _mm_andnot_pd(mask, a))
        }
    };
    let l = pick(pick(vnew, vhi, above), vlo, below);
    let d = pick(pick(_mm_set_sd(delta), to_hi, above), to_lo, below);
    (_mm_cvtsd_f64(l), _mm_cvtsd_f64(d))
}

/// `f += δ·im` unless δ is zero (ODE skips the update then, which keeps a
/// −0 in `f`), the old or new values chosen by a mask. Two lanes at a time
/// and without blends: on the trimesh terrain, a 256-bit store here (which
/// the next update's 256-bit load of `f` waits for) cost 10-15 %, and
/// `blendv` 15 %.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn add_selected(f: &mut [f64; BODY], delta: f64, im: &[f64; 6]) {
    use std::arch::x86_64::*;
    let d = _mm_set1_pd(delta);
    // All ones where δ ≠ 0 (NaN included, as `!=` is).
    let update = _mm_cmpneq_pd(d, _mm_setzero_pd());
    for k in (0..6).step_by(2) {
        let old = _mm_loadu_pd(f.as_ptr().add(k));
        let new = _mm_add_pd(old, _mm_mul_pd(d, _mm_loadu_pd(im.as_ptr().add(k))));
        let v = _mm_or_pd(_mm_and_pd(update, new), _mm_andnot_pd(update, old));
        _mm_storeu_pd(f.as_mut_ptr().add(k), v);
    }
}

/// The row's bounds: `(lo, hi)`, or `±|hi·λ_findex|` for a row with a
/// friction index (ODE's operations). Selected without a branch: after the
/// shuffles, friction and other rows alternate at random, and the branch
/// mispredicted on about a third of the updates. A row without a friction
/// index reads λ₀ (in range: the island has rows) and discards it.
///
/// # Safety
/// `findex` is -1 or indexes `lambda`.
#[inline(always)]
unsafe fn bounds(j: &SorRow, findex: i32, lambda: *const f64) -> (f64, f64) {
    let hf = (j.hi * *lambda.add(findex.max(0) as usize)).abs();
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of x86_64; `lo`, `hi` are adjacent fields
        // (repr(C)), read through a pointer to the whole record.
        let lohi = _mm_loadu_pd(std::ptr::addr_of!(j.lo));
        let f = _mm_set_pd(hf, -hf);
        let mask = _mm_castsi128_pd(_mm_set1_epi64x(-((findex != -1) as i64)));
        let b = _mm_or_pd(_mm_and_pd(mask, f), _mm_andnot_pd(mask, lohi));
        (_mm_cvtsd_f64(b), _mm_cvtsd_f64(_mm_unpackhi_pd(b, b)))
    }
    #[cfg(not(target_arch = "x86_64"))]
    if findex != -1 {
        (-hf, hf)
    } else {
        (j.lo, j.hi)
    }
}

/// The slot in `SorRow::jj` of Jacobian column k (its own inverse): columns
/// 0, 2 and 1, 3 side by side, as `jacobian_dots_avx` loads them.
const PERM: [usize; 6] = [0, 2, 1, 3, 4, 5];

/// `(J₁·f₁, J₂·f₂)`, each summed from the first product on, in index
/// order (ODE's `f[0]*J[0] + f[1]*J[1] + … + f[5]*J[5]`). The reference.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn jacobian_dots_scalar(jj: &[[f64; 2]; 6], f1: &[f64; BODY], f2: &[f64; BODY]) -> (f64, f64) {
    let mut s1 = f1[0] * jj[PERM[0]][0];
    let mut s2 = f2[0] * jj[PERM[0]][1];
    for k in 1..6 {
        s1 += f1[k] * jj[PERM[k]][0];
        s2 += f2[k] * jj[PERM[k]][1];
    }
    (s1, s2)
}

/// `jacobian_dots_scalar` with body 1 in lane 0 and body 2 in lane 1 of
/// SSE2 registers: the same products and the same additions in the same
/// order per lane (no fused multiply-add), so the same bits.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn jacobian_dots(jj: &[[f64; 2]; 6], f1: &[f64; BODY], f2: &[f64; BODY]) -> (f64, f64) {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of x86_64; unaligned loads of in-bounds arrays.
    unsafe {
        let mut pairs = [_mm_setzero_pd(); 6];
        for h in 0..3 {
            let a = _mm_loadu_pd(f1.as_ptr().add(2 * h));
            let b = _mm_loadu_pd(f2.as_ptr().add(2 * h));
            pairs[2 * h] = _mm_unpacklo_pd(a, b);
            pairs[2 * h + 1] = _mm_unpackhi_pd(a, b);
        }
        let p = |k: usize| _mm_mul_pd(pairs[k], _mm_loadu_pd(jj[PERM[k]].as_ptr()));
        let mut s = _mm_add_pd(p(0), p(1));
        for k in 2..6 {
            s = _mm_add_pd(s, p(k));
        }
        (_mm_cvtsd_f64(s), _mm_cvtsd_f64(_mm_unpackhi_pd(s, s)))
    }
}

/// `jacobian_dots` on 256-bit lanes: columns 0..4 of both forces as two
/// 4-wide loads, interleaved into (column 0, column 2) and (column 1,
/// column 3) pairs, which meet `jj`'s slots 0..2 and 2..4 (`PERM`); the
/// products are the same, and the pair sums are added in column order, so
/// the bits are the same.
///
/// # Safety
/// The processor has AVX (inlined into `sweep_avx` only).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn jacobian_dots_avx(jj: &[[f64; 2]; 6], f1: &[f64; BODY], f2: &[f64; BODY]) -> (f64, f64) {
    use std::arch::x86_64::*;
    let a1 = _mm256_loadu_pd(f1.as_ptr());
    let a2 = _mm256_loadu_pd(f2.as_ptr());
    // (p0 | p2) and (p1 | p3).
    let even = _mm256_mul_pd(_mm256_unpacklo_pd(a1, a2), _mm256_loadu_pd(jj[0].as_ptr()));
    let odd = _mm256_mul_pd(_mm256_unpackhi_pd(a1, a2), _mm256_loadu_pd(jj[2].as_ptr()));
    let b1 = _mm_loadu_pd(f1.as_ptr().add(4));
    let b2 = _mm_loadu_pd(f2.as_ptr().add(4));
    let p4 = _mm_mul_pd(_mm_unpacklo_pd(b1, b2), _mm_loadu_pd(jj[4].as_ptr()));
    let p5 = _mm_mul_pd(_mm_unpackhi_pd(b1, b2), _mm_loadu_pd(jj[5].as_ptr()));
    let mut s = _mm_add_pd(_mm256_castpd256_pd128(even), _mm256_castpd256_pd128(odd));
    s = _mm_add_pd(s, _mm256_extractf128_pd(even, 1));
    s = _mm_add_pd(s, _mm256_extractf128_pd(odd, 1));
    s = _mm_add_pd(s, p4);
    s = _mm_add_pd(s, p5);
    (_mm_cvtsd_f64(s), _mm_cvtsd_f64(_mm_unpackhi_pd(s, s)))
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn jacobian_dots(jj: &[[f64; 2]; 6], f1: &[f64; BODY], f2: &[f64; BODY]) -> (f64, f64) {
    jacobian_dots_scalar(jj, f1, f2)
}

/// Σ_rows Jᵀ·λ for one body's Jacobian blocks (force, torque), each sum
/// starting at zero and running over the rows in order, as ODE does.
fn feedback_sum<'a>(
    rows: &'a [crate::joints::Row],
    lambda: &[f64],
    side: impl Fn(&'a crate::joints::Row) -> (&'a [f64; 3], &'a [f64; 3]),
) -> ([f64; 3], [f64; 3]) {
    let mut f = [0.0; 3];
    let mut t = [0.0; 3];
    for (row, &l) in rows.iter().zip(lambda) {
        let (jl, ja) = side(row);
        for k in 0..3 {
            f[k] += jl[k] * l;
            t[k] += ja[k] * l;
        }
    }
    (f, t)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tests' generator: one LCG step, returning the new state.
    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        *seed
    }

    /// Values that stress rounding and the special cases: signed zeros,
    /// infinities, NaN, subnormals, large and small magnitudes.
    fn awkward(seed: &mut u64) -> f64 {
        let x = lcg(seed) >> 11;
        match x % 16 {
            0 => 0.0,
            1 => -0.0,
            2 => f64::INFINITY,
            3 => f64::NEG_INFINITY,
            4 => f64::NAN,
            5 => f64::MIN_POSITIVE / 3.0,
            6 => 1e300,
            7 => -1e-300,
            _ => ((x >> 4) as f64 / (1u64 << 49) as f64 - 0.5) * 10f64.powi((x % 13) as i32 - 6),
        }
    }

    fn same(a: f64, b: f64) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    /// A row's unpermuted Jacobians and its body 2, as `random_rows`
    /// drew them.
    type Drawn = ([f64; 6], [f64; 6], Option<usize>);

    /// `m` random rows on `nb` bodies (about a third without body 2, about
    /// half with a friction index at a random row), their values from
    /// `val`, and an order of them shuffled as by ODE's reorderings (the
    /// dummy body is `nb`).
    fn random_rows(nb: usize, m: usize, next: &mut dyn FnMut(u64) -> u64, val: &mut dyn FnMut() -> f64) -> (Vec<SorRow>, Vec<SorOrder>, Vec<Drawn>) {
        let mut rows = vec![SorRow::default(); m];
        let mut order = Vec::new();
        let mut drawn = Vec::new();
        for (r, row) in rows.iter_mut().enumerate() {
            let b1 = next(nb as u64) as usize;
            let b2 = if nb > 1 && next(3) != 0 { Some((b1 + 1 + next(nb as u64 - 1) as usize) % nb) } else { None };
            let findex = if r > 0 && next(2) == 0 { next(m as u64) as i32 } else { -1 };
            let j1: [f64; 6] = std::array::from_fn(|_| val());
            let j2: [f64; 6] = if b2.is_some() { std::array::from_fn(|_| val()) } else { [0.0; 6] };
            row.jj = std::array::from_fn(|i| [j1[PERM[i]], j2[PERM[i]]]);
            row.im1 = std::array::from_fn(|_| val());
            row.im2 = if b2.is_some() { std::array::from_fn(|_| val()) } else { [0.0; 6] };
            row.rhs = val();
            row.cfm = val().abs() * 1e-3;
            let (a, b) = (val(), val());
            (row.lo, row.hi) = if next(2) == 0 { (-a.abs(), b.abs()) } else { (a, b) };
            order.push(SorOrder { row: r as u32, b1: b1 as u32, b2: b2.unwrap_or(nb) as u32, findex });
            drawn.push((j1, j2, b2));
        }
        for i in 1..m {
            order.swap(i, next(i as u64 + 1) as usize);
        }
        (rows, order, drawn)
    }

    /// Sweeping an order rearranged by `LevelSchedule` gives every λ and
    /// accumulator the bits of the order itself: random rows on a few
    /// bodies (many rows in a row share one), friction indices anywhere
    /// (the packing's point at a row of the same joint; elsewhere, the
    /// reads and writes of λ must keep their order too), ordinary and
    /// awkward values, in the packing's partitioned order and shuffled.
    #[test]
    fn level_schedule_keeps_every_value() {
        let mut rng = 99u64;
        let mut next = |n: u64| (lcg(&mut rng) >> 33) % n;
        let mut vseed = 17u64;
        let mut levels = LevelSchedule::default();
        let mut reordered = 0;
        for case in 0..600 {
            let nb = 1 + next(8) as usize;
            let m = 1 + next(48) as usize;
            let val = |vs: &mut u64| {
                let x = awkward(vs);
                if case % 5 == 4 || x.is_finite() {
                    x
                } else {
                    -0.25
                }
            };
            let (rows, order, _) = random_rows(nb, m, &mut next, &mut || val(&mut vseed));
            let part: Vec<SorOrder> =
                order.iter().filter(|o| o.findex == -1).chain(order.iter().filter(|o| o.findex != -1)).copied().collect();
            let split = part.iter().filter(|o| o.findex == -1).count();
            let mut leveled = vec![SorOrder::default(); m];
            levels.arrange(&part[..split], &mut leveled[..split], nb, m);
            levels.arrange(&part[split..], &mut leveled[split..], nb, m);
            let mut shuffled = vec![SorOrder::default(); m];
            levels.arrange(&order, &mut shuffled, nb, m);
            for (a, b) in [(&part, &leveled), (&order, &shuffled)] {
                let key = |o: &SorOrder| o.row;
                let (mut x, mut y) = (a.clone(), b.clone());
                x.sort_by_key(key);
                y.sort_by_key(key);
                assert!(x.iter().zip(&y).all(|(p, q)| p.row == q.row && p.b1 == q.b1 && p.b2 == q.b2 && p.findex == q.findex));
                reordered += a.iter().zip(b.iter()).filter(|(p, q)| p.row != q.row).count();
            }
            let lambda: Vec<f64> = (0..m).map(|_| val(&mut vseed)).collect();
            let mut fc = vec![BodyForce::default(); nb + 1];
            for f in &mut fc[..nb] {
                f.f = std::array::from_fn(|_| val(&mut vseed));
            }
            let (mut pl, mut pf) = (lambda.clone(), fc.clone());
            let (mut ll, mut lf) = (lambda.clone(), fc.clone());
            let (mut sl, mut sf) = (lambda.clone(), fc.clone());
            let (mut ql, mut qf) = (lambda.clone(), fc.clone());
            for _ in 0..3 {
                // SAFETY: `part` and `leveled` are partitioned at `split`;
                // every index is in range by construction.
                unsafe {
                    sweep_partitioned(&rows, &part, split, &mut pl, &mut pf, nb);
                    sweep_partitioned(&rows, &leveled, split, &mut ll, &mut lf, nb);
                }
                sweep(&rows, &order, &mut sl, &mut sf, nb, false);
                sweep(&rows, &shuffled, &mut ql, &mut qf, nb, false);
                for (l, f, rl, rf, what) in [(&ll, &lf, &pl, &pf, "partitioned"), (&ql, &qf, &sl, &sf, "shuffled")] {
                    assert!(l.iter().zip(rl).all(|(a, b)| same(*a, *b)), "case {case}: {what} λ");
                    assert!(f.iter().zip(rf).all(|(x, y)| (0..6).all(|k| same(x.f[k], y.f[k]))), "case {case}: {what} fc");
                }
            }
        }
        // The schedule did move rows (the test compares something).
        assert!(reordered > 1000, "{reordered}");
    }

    /// `jacobian_dots_avx` compiled with AVX enabled, as in `sweep_avx`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    unsafe fn dots_avx(jj: &[[f64; 2]; 6], f1: &[f64; BODY], f2: &[f64; BODY]) -> (f64, f64) {
        jacobian_dots_avx(jj, f1, f2)
    }

    #[test]
    fn jacobian_dots_match_scalar_bit_for_bit() {
        let mut seed = 12345u64;
        for _ in 0..200_000 {
            let jj: [[f64; 2]; 6] = std::array::from_fn(|_| [awkward(&mut seed), awkward(&mut seed)]);
            let f1: [f64; 6] = std::array::from_fn(|_| awkward(&mut seed));
            let f2: [f64; 6] = std::array::from_fn(|_| awkward(&mut seed));
            let (a1, a2) = jacobian_dots(&jj, &f1, &f2);
            let (r1, r2) = jacobian_dots_scalar(&jj, &f1, &f2);
            assert!(same(a1, r1) && same(a2, r2), "{jj:?} {f1:?} {f2:?}: ({a1}, {a2}) vs ({r1}, {r2})");
            // ODE's expression, written out, for body 1.
            let c = |k: usize| jj[PERM[k]][0];
            let ode = f1[0] * c(0) + f1[1] * c(1) + f1[2] * c(2) + f1[3] * c(3) + f1[4] * c(4) + f1[5] * c(5);
            assert!(same(a1, ode));
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx") {
                // SAFETY: the processor has AVX.
                let (v1, v2) = unsafe { dots_avx(&jj, &f1, &f2) };
                assert!(same(v1, r1) && same(v2, r2), "avx {jj:?} {f1:?} {f2:?}: ({v1}, {v2}) vs ({r1}, {r2})");
            }
        }
        // A row without body 2 (J₂ = +0, zero force) subtracts +0, which
        // leaves every delta as it was, -0 and NaN included.
        let jj: [[f64; 2]; 6] = std::array::from_fn(|k| [k as f64 - 2.5, 0.0]);
        let (_, s2) = jacobian_dots(&jj, &[1.0; 6], &[0.0; 6]);
        assert_eq!(s2.to_bits(), 0.0f64.to_bits());
        for d in [-0.0, 0.0, 1.5, -3.0, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!((d - s2).to_bits(), d.to_bits());
        }
        assert!((f64::NAN - s2).is_nan());
    }

    /// The branch-free bounds against ODE's branch, bit for bit: friction
    /// rows (±|hi·λ_findex|) and the others, whose discarded λ₀ may be
    /// anything (NaN, ±inf, -0), with awkward lo, hi and λ.
    #[test]
    fn bounds_match_the_branch_bit_for_bit() {
        let mut seed = 777u64;
        let mut pick = 1u64;
        for _ in 0..100_000 {
            let (lo, hi) = (awkward(&mut seed), awkward(&mut seed));
            let row = SorRow { lo, hi, ..Default::default() };
            let lambda: [f64; 4] = std::array::from_fn(|_| awkward(&mut seed));
            let findex = (lcg(&mut pick) >> 33) as i32 % 5 - 1;
            // SAFETY: findex is -1 or in 0..4.
            let (lo, hi) = unsafe { bounds(&row, findex, lambda.as_ptr()) };
            let (rlo, rhi) = if findex != -1 {
                let h = (row.hi * lambda[findex as usize]).abs();
                (-h, h)
            } else {
                (row.lo, row.hi)
            };
            // Bits, NaN included: the selected value itself is returned.
            assert_eq!((lo.to_bits(), hi.to_bits()), (rlo.to_bits(), rhi.to_bits()), "{findex} {lambda:?}");
        }
    }

    /// ODE's row update written out plainly (separate J₁ and J₂, body 2
    /// only when present), the reference for `sweep`.
    #[allow(clippy::too_many_arguments)]
    fn reference_update(
        j1: &[f64; 6],
        j2: Option<&[f64; 6]>,
        im1: &[f64; 6],
        im2: &[f64; 6],
        (rhs, cfm, lo, hi): (f64, f64, f64, f64),
        (r, b1, b2, findex): (usize, usize, Option<usize>, i32),
        lambda: &mut [f64],
        fc: &mut [[f64; 6]],
    ) {
        let old = lambda[r];
        let mut delta = rhs - old * cfm;
        let f = &fc[b1];
        delta -= f[0] * j1[0] + f[1] * j1[1] + f[2] * j1[2] + f[3] * j1[3] + f[4] * j1[4] + f[5] * j1[5];
        if let (Some(b2), Some(j2)) = (b2, j2) {
            let f = &fc[b2];
            delta -= f[0] * j2[0] + f[1] * j2[1] + f[2] * j2[2] + f[3] * j2[3] + f[4] * j2[4] + f[5] * j2[5];
        }
        let (lo, hi) = if findex != -1 {
            let h = (hi * lambda[findex as usize]).abs();
            (-h, h)
        } else {
            (lo, hi)
        };
        let new = old + delta;
        if new < lo {
            delta = lo - old;
            lambda[r] = lo;
        } else if new > hi {
            delta = hi - old;
            lambda[r] = hi;
        } else {
            lambda[r] = new;
        }
        if delta != 0.0 {
            for k in 0..6 {
                fc[b1][k] += delta * im1[k];
            }
            if let Some(b2) = b2 {
                for k in 0..6 {
                    fc[b2][k] += delta * im2[k];
                }
            }
        }
    }

    /// `sweep` (with whichever kernels this processor selects) against the
    /// plain reference, bit for bit, over random islands with one- and
    /// two-body rows, friction indices and awkward values.
    #[test]
    fn sweep_matches_reference_bit_for_bit() {
        let mut seed = 987654321u64;
        let mut next = |n: u64| (lcg(&mut seed) >> 33) % n;
        let mut vseed = 5u64;
        for case in 0..400 {
            let nb = 1 + next(6) as usize;
            let m = 1 + next(24) as usize;
            // Mostly ordinary values; every 4th case with awkward ones.
            let val = |vs: &mut u64| {
                if case % 4 == 3 {
                    awkward(vs)
                } else {
                    let x = awkward(vs);
                    if x.is_finite() {
                        x
                    } else {
                        0.5
                    }
                }
            };
            // A shuffled order, as after ODE's reorderings.
            let (rows, order, plain) = random_rows(nb, m, &mut next, &mut || val(&mut vseed));
            let mut lambda: Vec<f64> = (0..m).map(|_| val(&mut vseed)).collect();
            let mut fc = vec![BodyForce::default(); nb + 1];
            for f in &mut fc[..nb] {
                f.f = std::array::from_fn(|_| val(&mut vseed));
            }
            // The packing's order (the rows without a friction index, then
            // those with one): the partitioned sweep, both builds, against
            // the generic one on that order.
            let part: Vec<SorOrder> =
                order.iter().filter(|o| o.findex == -1).chain(order.iter().filter(|o| o.findex != -1)).copied().collect();
            let split = part.iter().filter(|o| o.findex == -1).count();
            let (mut gl, mut gf) = (lambda.clone(), fc.clone());
            let (mut pl, mut pf) = (lambda.clone(), fc.clone());
            let (mut bl, mut bf) = (lambda.clone(), fc.clone());
            for _ in 0..3 {
                sweep(&rows, &part, &mut gl, &mut gf, nb, false);
                // SAFETY: `part` is partitioned at `split`; indices as above.
                unsafe {
                    sweep_partitioned(&rows, &part, split, &mut pl, &mut pf, nb);
                    sweep_rows::<false, false, PLAIN>(&rows, &part[..split], bl.as_mut_ptr(), bf.as_mut_ptr(), nb as u32);
                    sweep_rows::<false, false, FRICTION>(&rows, &part[split..], bl.as_mut_ptr(), bf.as_mut_ptr(), nb as u32);
                }
                for (l, f, what) in [(&pl, &pf, "partitioned"), (&bl, &bf, "baseline partitioned")] {
                    assert!(l.iter().zip(&gl).all(|(a, b)| same(*a, *b)), "case {case}: {what} λ");
                    assert!(f.iter().zip(&gf).all(|(x, y)| (0..6).all(|k| same(x.f[k], y.f[k]))), "case {case}: {what} fc");
                }
            }
            let mut ref_lambda = lambda.clone();
            let mut ref_fc: Vec<[f64; 6]> = fc[..nb].iter().map(|f| f.f).collect();
            // The baseline (SSE2) build of the loop too, whatever `sweep`
            // dispatches to on this processor.
            // And the selecting update of interleaved sweeps, both builds.
            let (mut base_lambda, mut base_fc) = (lambda.clone(), fc.clone());
            let (mut sel_lambda, mut sel_fc) = (lambda.clone(), fc.clone());
            let (mut bsel_lambda, mut bsel_fc) = (lambda.clone(), fc.clone());
            for _ in 0..3 {
                sweep(&rows, &order, &mut lambda, &mut fc, nb, false);
                sweep(&rows, &order, &mut sel_lambda, &mut sel_fc, nb, true);
                // SAFETY: indices in range as in `sweep` (same data).
                unsafe {
                    sweep_rows::<false, false, ANY_BOUNDS>(&rows, &order, base_lambda.as_mut_ptr(), base_fc.as_mut_ptr(), nb as u32);
                    sweep_rows::<false, true, ANY_BOUNDS>(&rows, &order, bsel_lambda.as_mut_ptr(), bsel_fc.as_mut_ptr(), nb as u32);
                }
                for (other, other_fc, what) in [
                    (&base_lambda, &base_fc, "baseline"),
                    (&sel_lambda, &sel_fc, "selecting"),
                    (&bsel_lambda, &bsel_fc, "baseline selecting"),
                ] {
                    for (a, b) in other.iter().zip(&lambda) {
                        assert!(same(*a, *b), "case {case}: {what} λ {a} vs {b}");
                    }
                    for (f, g) in other_fc.iter().zip(&fc) {
                        for k in 0..6 {
                            assert!(same(f.f[k], g.f[k]), "case {case}: {what} fc");
                        }
                    }
                }
                for o in &order {
                    let r = o.row as usize;
                    let (j1, j2, b2) = &plain[r];
                    let row = &rows[r];
                    reference_update(
                        j1,
                        b2.map(|_| j2),
                        &row.im1,
                        &row.im2,
                        (row.rhs, row.cfm, row.lo, row.hi),
                        (r, o.b1 as usize, *b2, o.findex),
                        &mut ref_lambda,
                        &mut ref_fc,
                    );
                }
                for (a, b) in lambda.iter().zip(&ref_lambda) {
                    assert!(same(*a, *b), "case {case}: λ {a} vs {b}");
                }
                for (f, g) in fc.iter().zip(&ref_fc) {
                    for k in 0..6 {
                        assert!(same(f.f[k], g[k]), "case {case}: fc {} vs {}", f.f[k], g[k]);
                    }
                }
                assert!(fc[nb].f.iter().all(|v| v.to_bits() == 0), "the dummy body stays +0");
            }
        }
    }

    /// `shuffle_order` (two chains of draws) against ODE's loop, one
    /// `dRandInt(index + 1)` after the other: the same order and the same
    /// state after, for every length from 0 to 600 and several states.
    #[test]
    fn shuffle_order_matches_odes_loop() {
        for s0 in [0u32, 7, 0x9e37_79b9, u32::MAX] {
            for n in 0..600usize {
                let mut ours: Vec<SorOrder> = (0..n as u32).map(|row| SorOrder { row, ..Default::default() }).collect();
                let mut odes = ours.clone();
                let mut s = s0;
                for index in 1..n {
                    s = random::next(s);
                    let swap = random::int_from_draw(s, index as i32 + 1) as usize;
                    odes.swap(index, swap);
                }
                assert_eq!(shuffle_order(&mut ours, s0), s, "{s0} {n}");
                assert!(ours.iter().zip(&odes).all(|(a, b)| a.row == b.row), "{s0} {n}");
            }
        }
    }

    #[test]
    fn draws_per_solve() {
        assert_eq!(rand_draws(12, 20), 2 * 11);
        assert_eq!(rand_draws(12, 8), 0);
        assert_eq!(rand_draws(12, 9), 11);
        assert_eq!(rand_draws(1, 100), 0);
        assert_eq!(rand_draws(5, 0), 0);
        assert_eq!(rand_draws(5, -3), 0);
        assert_eq!(rand_draws(3, 17), 2 * 2);
    }
}
