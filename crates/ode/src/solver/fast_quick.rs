//! The fast QuickStep solver of one island (`dWorldQuickStep` in
//! `SolverMode::Fast`): the same projected Gauss–Seidel/SOR model as
//! `quick` (the rows `assemble_rows` would give, ERP/CFM, findex friction,
//! lo/hi, relaxation `w`, `num_iterations` sweeps) but not ODE's row order:
//!
//! - contacts that fit a `Block` lane and have no feedback are written
//!   straight into their lane from the contact (`fill_contact_lane`, four
//!   at a time in `fill_contact_block`) with `ContactJoint::info2`'s
//!   expressions, instead of through `Row`s; other joints are assembled
//!   as `assemble_rows` does (`assemble`);
//! - rows are coloured greedily so that the rows of one colour share no
//!   dynamic body (static and kinematic bodies have no inverse mass and
//!   receive nothing, so they do not constrain the colouring); rows without
//!   a friction index are coloured and swept first, then friction rows, as
//!   ODE sweeps its two groups;
//! - each colour is cut into batches of 4 rows stored structure-of-arrays
//!   (`Batch`: one `glam::DVec4` per Jacobian component), padded with
//!   inert rows that act on a dummy body, so one sweep is a flat loop over
//!   batches with no per-row branching on body presence or row kind;
//! - warm start: persistent joints from the λ they stored at the previous
//!   step; contact joints, which the host recreates every step, from
//!   `ContactCache`, the previous step's λ of the contact between the same
//!   two geoms at (nearly) the same position; `dRand` is never touched.
//!
//! Rows of one colour are independent, so a batch's four lanes can be
//! updated at once: the result is the same as sweeping them one by one in
//! batch order, and does not depend on any thread count.
//!
//! All buffers live in `FastScratch` (grown, never shrunk): a warm solve
//! allocates nothing.
//!
//! This module owns the row storage (`Batch`, `Single`, `Block`), the
//! colouring and the solve's order of work (`solve_rows`); `fill` writes
//! the rows into their lanes, `sweep` runs the SOR iterations over them,
//! `avx2` holds the block kernels' intrinsics, and the warm start's
//! contact λ come from `super::contact_cache`.

use super::{IslandInput, IslandRows, JointInfo, JointSlot};
use crate::joints::contact::{mode as cmode, ContactJoint};
use crate::joints::{JointHead, JointKind, Row, RowCtx};
use crate::math::mat3::mul0_331;
use crate::math::vec::{cross3, dot3, plane_space};
use glam::DVec4;

mod fill;
mod sweep;
/// The block sweep and the blocks' velocity gather and scatter with AVX2
/// and FMA intrinsics (the same bits as the portable fused sweep).
#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(test)]
mod tests;

use super::contact_cache::{CachedContact, ContactCache};
use fill::*;
use sweep::*;

/// Whether the AVX2 copies of the fill and the sweeps may run: they also
/// use FMA (the block sweep's fused multiply-adds; every AVX2 processor
/// but a few early VIA ones has it).
#[cfg(target_arch = "x86_64")]
fn has_avx2_fma() -> bool {
    std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
}

/// Colours available to the greedy colouring (bits of a `u64`); the last
/// one collects rows that found no free colour and is swept one row per
/// batch, which keeps Gauss–Seidel semantics for them.
const COLOURS: usize = 64;
const OVERFLOW: usize = COLOURS - 1;

/// Factor applied to the stored λ of persistent joints when warm starting
/// (as ODE's optional WARM_STARTING mode does, it damps stale impulses).
const WARM_FACTOR: f64 = 0.9;

/// Four rows of one colour, structure of arrays, already scaled by
/// `Ad = w / (J·M⁻¹·Jᵀ + cfm/h)` as `quick` scales them.
#[derive(Clone, Copy, Default)]
pub struct Batch {
    j1: [DVec4; 6],
    j2: [DVec4; 6],
    /// M⁻¹·Jᵀ (unscaled), body 1 then body 2, per lane: the update of a
    /// lane's body is then one contiguous multiply-add of six values.
    m1: [[f64; 6]; 4],
    m2: [[f64; 6]; 4],
    rhs: DVec4,
    cfm: DVec4,
    /// Bounds: `[lo − fcoef·|λ_n|, hi + fcoef·|λ_n|]`, where λ_n is the
    /// λ at `fslot`; a friction lane has lo = hi = 0 and fcoef = |its hi|
    /// (ODE's `±|hi·λ_findex|`), other lanes fcoef = 0. Branch-free.
    lo: DVec4,
    hi: DVec4,
    fcoef: DVec4,
    /// Body indices (the dummy body `nb` for the static environment and
    /// for padding lanes).
    b1: [u32; 4],
    b2: [u32; 4],
    /// Slot (batch·4 + lane) of the normal row whose |λ| scales a friction
    /// lane's bounds; the dummy slot for other lanes.
    fslot: [u32; 4],
}

/// One row of the overflow colour (a row that found no free colour, swept
/// alone): the lane-0 values of its `Batch`, without the three inert
/// padding lanes. A large island can be almost all overflow (ODE's
/// `demo_space_stress`: 6 million rows, 95 % of them overflow), where a
/// 976-byte batch per row made the sweep stream four times the memory it
/// needs. To stream less again (160 bytes instead of 248), a single keeps
/// its Jacobian unscaled with `ad`, and its M⁻¹·Jᵀ is not stored: the sweep
/// forms both from `ad` and its bodies' `InvMass` with the operations of
/// the fill, so `sweep_single` gets the bits of the batch lane.
#[derive(Clone, Copy, Default)]
pub struct Single {
    j1: [f64; 6],
    j2: [f64; 6],
    /// The row's scale (ODE's Ad): the batch holds `j·ad`, `rhs` and
    /// `cfm` are stored scaled.
    ad: f64,
    rhs: f64,
    cfm: f64,
    lo: f64,
    hi: f64,
    fcoef: f64,
    b1: u32,
    b2: u32,
    fslot: u32,
    /// Its λ slot (batch·4, as if it had a batch).
    slot: u32,
}

/// A body's inverse mass and world-frame inverse inertia as the overflow
/// sweep reads them: the 3x4 padded inverse inertia with the inverse mass
/// in the first row's padding (one 96-byte record per body). Zero for the
/// lane dummies.
type InvMass = [f64; 12];

/// M⁻¹·Jᵀ of Jacobian `j` on a body, formed as the fill forms it (inverse
/// mass times the linear part, the inverse inertia times the angular
/// part).
#[inline(always)]
fn inv_mass_times(b: &InvMass, j: &[f64; 6]) -> [f64; 6] {
    let a = mul0_331(b, &j[3..]);
    [b[3] * j[0], b[3] * j[1], b[3] * j[2], a[0], a[1], a[2]]
}

/// Four joints of at most three rows each, sharing no dynamic body (one
/// per lane), swept joint by joint: a contact's normal row and its two
/// friction rows act on the same two bodies, so their velocities are
/// gathered once, the rows solved one after the other (coupled through
/// `a`, see `sweep_block`) and the velocities written back once, instead
/// of once per row. Rows are scaled as in `Batch`; missing
/// rows are zero (inert). Row 0 has no friction index, rows 1 and 2 either
/// none or row 0 (`fcoef` = |hi|, lo = hi = 0, as in `Batch`).
///
/// Blocks take only joints whose body 2 linear Jacobian is the negation of
/// body 1's (every contact row; `block_eligible` checks other joints), so
/// a row keeps body 1's unscaled linear Jacobian `d` only: the scaled one
/// is `d·Ad`, formed in registers from the row's `Ad` (as the fill forms
/// it), and the linear parts of M⁻¹·Jᵀ are `d` times the lanes' inverse
/// masses: 16 vectors a row instead of 24. The sweep reads every block
/// once per iteration, and this is the memory it streams.
#[derive(Clone, Copy, Default)]
pub struct Block {
    /// Body 1's linear Jacobian per row, unscaled (body 2's is its
    /// negation).
    d: [[DVec4; 3]; 3],
    /// `Ad` per row: the scaled linear Jacobian is `d·Ad`.
    ad: [DVec4; 3],
    /// Angular Jacobians, scaled by `Ad`.
    j1a: [[DVec4; 3]; 3],
    j2a: [[DVec4; 3]; 3],
    /// Angular part of M⁻¹·Jᵀ (unscaled) per row.
    m1a: [[DVec4; 3]; 3],
    m2a: [[DVec4; 3]; 3],
    /// The lanes' inverse masses (0 for the static environment, padding
    /// and bodies without mass).
    im1: DVec4,
    im2: DVec4,
    rhs: [DVec4; 3],
    cfm: [DVec4; 3],
    /// Bounds of row 0; row k = 1, 2 is bounded by ±fcoef[k − 1]·|λ of
    /// row 0|.
    lo0: DVec4,
    hi0: DVec4,
    fcoef: [DVec4; 2],
    /// Couplings of the rows through the lane's two bodies (`couple`):
    /// `Ad_k·J_k·M⁻¹·J_jᵀ` for (k, j) = (2, 1), (0, 1), (0, 2), what a
    /// change of row j's λ adds to row k's scaled `J·v`. The sweep forms
    /// the three `J·v` once and carries them through the rows with these
    /// instead of recomputing each from the updated velocities.
    a: [DVec4; 3],
    /// Body indices; lane dummies for the static environment, padding and
    /// bodies without inverse mass (their fc stays zero, so reading the
    /// dummy's zero gives the same products).
    b1: [u32; 4],
    b2: [u32; 4],
}

/// Reusable buffers of the fast solver.
#[derive(Default)]
pub struct FastScratch {
    /// The batches of the non-overflow colours (`Layout::item`).
    batches: Vec<Batch>,
    /// The overflow rows, group 0's then group 1's.
    singles: Vec<Single>,
    /// Per body (lane dummies last): what the overflow sweep needs to form
    /// a single's M⁻¹·Jᵀ; filled only when the island has singles.
    inv_mass: Vec<InvMass>,
    layout: Layout,
    blocks: Vec<Block>,
    /// Per joint slot: swept as a `Block` lane (else row by row).
    is_block: Vec<bool>,
    /// Per joint slot: a contact whose lane is built straight from its
    /// contact geometry (`fill_contact_lane`); it has no rows in
    /// `IslandRows::rows`.
    direct: Vec<bool>,
    /// Per joint slot: a direct contact of three rows without `fdir1` or
    /// bounce, which `fill_contact_block` can fill four at a time.
    plain: Vec<bool>,
    /// Per block lane (block·4 + lane): its joint slot (`u32::MAX`:
    /// padding); per block: all four lanes plain contacts.
    block_joint: Vec<u32>,
    vec_block: Vec<bool>,
    /// Per joint slot: colour of its block, then its lane position
    /// (block·4 + lane).
    block_colour: Vec<u8>,
    block_pos: Vec<u32>,
    /// λ per slot (batch·4 + lane), plus the dummy slot at the end.
    lambda: Vec<f64>,
    /// fc = M⁻¹·Jᵀ·λ per body, plus one dummy body per lane at the end.
    fc: Vec<[f64; 6]>,
    /// −(v/h + M⁻¹·F) per body.
    tmp: Vec<[f64; 6]>,
    /// Colours used per body (bit set) while colouring one group.
    used: Vec<u64>,
    /// Colour of each row, then the slot of each row.
    colour: Vec<u8>,
    slot: Vec<u32>,
    /// Rows per colour and next free slot per colour.
    count: Vec<u32>,
    next: Vec<u32>,
    /// Sweep order: item codes (`Layout`), batches, singles, then blocks.
    order: Vec<u32>,
    /// Contacts solved since the last `ContactCache::replace`.
    fresh: Vec<CachedContact>,
}

impl FastScratch {
    /// The contacts solved since the world's cache was last replaced
    /// (`ContactCache::replace_from` empties it).
    pub fn fresh_contacts(&mut self) -> &mut Vec<CachedContact> {
        &mut self.fresh
    }
}

/// Where the overflow rows sit among the batches. Batch numbers (a batch's
/// λ slots are 4·its number) run over group 0's colours, group 0's
/// overflow (one number per row), group 1's colours, then group 1's
/// overflow; the overflow rows are stored as `Single`s, the others as
/// `Batch`es. Sweep items are coded `[0, batches)` a batch (its index in
/// `batches`), `[batches, batches + singles)` a single, then the blocks;
/// the codes follow the batch numbers, so the sweep order (and the shuffle)
/// is that of the batch numbers.
#[derive(Clone, Copy, Default)]
struct Layout {
    /// First batch number of group 0's overflow, and its row count.
    ovf0: usize,
    n0: usize,
    /// First batch number of group 1's overflow.
    ovf1: usize,
    /// Batches stored (non-overflow).
    nbatch: usize,
}

impl Layout {
    /// The sweep item code of batch number `bi`.
    #[inline]
    fn code(&self, bi: usize) -> usize {
        if bi < self.ovf0 {
            bi
        } else if bi < self.ovf0 + self.n0 {
            self.nbatch + bi - self.ovf0
        } else if bi < self.ovf1 {
            bi - self.n0
        } else {
            self.nbatch + self.n0 + bi - self.ovf1
        }
    }

    /// The batch number of stored batch `c` (its λ slots are 4× that).
    #[inline(always)]
    fn batch_number(&self, c: usize) -> usize {
        if c < self.ovf0 {
            c
        } else {
            c + self.n0
        }
    }
}

/// Islands whose sweep items (batches, singles, blocks) take more bytes
/// than this are shuffled in runs (`shuffle_runs`): beyond the caches a
/// fully shuffled sweep waits on every item's first load (ODE's
/// `demo_space_stress`: 6 million items, 1.5 GB). The pyramid's items take
/// about 1 MB, so islands that fit in cache keep the item shuffle (and
/// their results). `ODE_FAST_LARGE_ISLAND_BYTES` overrides it, for tests.
const LARGE_ISLAND_BYTES: usize = 8 << 20;

/// `LARGE_ISLAND_BYTES`, or `ODE_FAST_LARGE_ISLAND_BYTES` when set (read
/// once per process).
fn large_island_bytes() -> usize {
    static BYTES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *BYTES.get_or_init(|| {
        std::env::var("ODE_FAST_LARGE_ISLAND_BYTES").ok().and_then(|v| v.parse().ok()).unwrap_or(LARGE_ISLAND_BYTES)
    })
}

/// Solves the island's rows, updates the island bodies' velocities
/// (constraint forces, then external forces), writes the joints' feedback
/// and stores each joint's λ, as `quick::solve_island` does.
///
/// `infos` are the island's joints with their row counts (`gather_info1`);
/// the rows are assembled here (`assemble`), contacts straight into their
/// block lanes.
pub fn solve_island(
    input: &IslandInput,
    infos: &[JointInfo],
    rows: &mut IslandRows,
    scratch: &mut FastScratch,
    cache: &ContactCache,
) {
    assemble(input, infos, rows, scratch);
    if !rows.joints.is_empty() {
        solve_rows(input, rows, scratch, cache);
    }
    super::quick::apply_external_forces(input);
}

/// `super::assemble_rows` for the fast solver: the same joint slots, tags
/// and rows, except that a contact `direct_contact` accepts gets no rows
/// (its block lane is computed from the contact itself in `solve_rows`):
/// writing ~6000 rows of 104 bytes a step and reading them back cost the
/// pyramid a tenth of its step.
fn assemble(input: &IslandInput, infos: &[JointInfo], rows: &mut IslandRows, s: &mut FastScratch) {
    let world = input.world;
    rows.clear();
    s.direct.clear();
    s.plain.clear();
    let ctx = RowCtx { fps: 1.0 / input.h, erp: world.erp, world };
    for (slot, ji) in infos.iter().enumerate() {
        let joint = ji.joint.get_mut();
        joint.head.tag = slot as i32;
        let row0 = rows.rows.len();
        let m = ji.info.m;
        let direct = match &joint.kind {
            JointKind::Contact(c) => direct_contact(c, &joint.head, m),
            _ => false,
        };
        if !direct {
            super::push_joint_rows(joint, m, &ctx, &mut rows.rows);
        }
        s.direct.push(direct);
        let plain = direct
            && m == 3
            && matches!(&joint.kind, JointKind::Contact(c) if c.surface.mode & (cmode::FDIR1 | cmode::BOUNCE) == 0);
        s.plain.push(plain);
        rows.joints.push(JointSlot::of(ji, &joint.head, row0));
    }
}

/// Whether a contact of `m` rows (its `info1`) can be built straight into
/// a block lane: attached, no feedback (which reads the rows), no rolling
/// friction, and each friction row it has scaled by the normal force
/// (`dContactApprox1_1` / `_2`, i.e. a findex) as blocks require.
fn direct_contact(c: &ContactJoint, head: &JointHead, m: usize) -> bool {
    let s = &c.surface;
    if head.body[0].is_none() || !head.feedback.is_null() || s.mode & cmode::ROLLING != 0 || m > 3 {
        return false;
    }
    let mu2 = if s.mode & cmode::MU2 != 0 { s.mu2 } else { s.mu };
    let mut row = 1;
    for (mu, bit) in [(s.mu, cmode::APPROX1_1), (mu2, cmode::APPROX1_2)] {
        if mu > 0.0 && row < m {
            if s.mode & bit == 0 {
                return false;
            }
            row += 1;
        }
    }
    row == m
}


/// Whether a joint's rows can be swept as one `Block` lane: at most three
/// rows, the first without a friction index, the others without one or
/// with the first (a contact's normal and friction rows); and where body 2
/// is dynamic (`body2_moves`), each row's body 2 linear Jacobian the
/// negation of body 1's (see `Block`).
fn block_eligible(island: &IslandRows, slot: &super::JointSlot, body2_moves: bool) -> bool {
    let rows = &island.rows[slot.row0..slot.row0 + slot.m];
    (1..=3).contains(&slot.m)
        && rows[0].findex == -1
        && rows[1..].iter().all(|r| r.findex as usize == slot.row0)
        && (!body2_moves || rows.iter().all(|r| (0..3).all(|c| r.j2l[c] == -r.j1l[c])))
}

/// Assigns each row of one group (`friction` selects which) a colour such
/// that rows of one colour share no dynamic body; counts rows per colour
/// into `count[base..base + COLOURS]`. Rows of block joints are skipped.
/// Returns the set of colours used (bit c: colour c).
fn colour_group(
    island: &IslandRows,
    dynamic: impl Fn(Option<usize>) -> Option<usize>,
    friction: bool,
    s: &mut FastScratch,
    base: usize,
) -> u64 {
    s.used.fill(0);
    let mut colours = 0u64;
    for (j, slot) in island.joints.iter().enumerate() {
        if s.is_block[j] {
            continue;
        }
        let (b1, b2) = (dynamic(slot.b1), dynamic(slot.b2));
        for r in slot.row0..slot.row0 + slot.m {
            if (island.rows[r].findex != -1) != friction {
                continue;
            }
            let c = take_colour(&mut s.used, b1, b2);
            s.colour[r] = c as u8;
            s.count[base + c] += 1;
            colours |= 1 << c;
        }
    }
    colours
}

/// The lowest colour neither dynamic body uses yet, marked used for both;
/// `OVERFLOW` (marking nothing) when all are taken.
#[inline]
fn take_colour(used: &mut [u64], b1: Option<usize>, b2: Option<usize>) -> usize {
    let taken = b1.map_or(0, |b| used[b]) | b2.map_or(0, |b| used[b]);
    let c = ((!taken).trailing_zeros() as usize).min(OVERFLOW);
    if c != OVERFLOW {
        for b in [b1, b2].into_iter().flatten() {
            used[b] |= 1 << c;
        }
    }
    c
}

/// The same colouring for block joints, one colour per joint, counted into
/// `count[base..base + COLOURS]`; returns the set of colours used.
fn colour_blocks(island: &IslandRows, dynamic: impl Fn(Option<usize>) -> Option<usize>, s: &mut FastScratch, base: usize) -> u64 {
    s.used.fill(0);
    let mut colours = 0u64;
    for (j, slot) in island.joints.iter().enumerate() {
        if !s.is_block[j] {
            continue;
        }
        let (b1, b2) = (dynamic(slot.b1), dynamic(slot.b2));
        let c = take_colour(&mut s.used, b1, b2);
        s.block_colour[j] = c as u8;
        s.count[base + c] += 1;
        colours |= 1 << c;
    }
    colours
}

/// The four lanes of a `DVec4` as an array (glam's indexing branches on
/// the lane).
#[inline(always)]
fn lanes(v: &mut DVec4) -> &mut [f64; 4] {
    v.as_mut()
}

fn solve_rows(input: &IslandInput, island: &IslandRows, s: &mut FastScratch, cache: &ContactCache) {
    let rows = &island.rows;
    let m = rows.len();
    let nb = input.bodies.len();
    let h = input.h;
    let hinv = 1.0 / h;
    let dummy_body = nb as u32;

    // ---- colouring: group 0 (no findex), group 1 (friction), blocks ----
    s.used.clear();
    s.used.resize(nb, 0);
    s.colour.clear();
    s.colour.resize(m, 0);
    s.count.clear();
    s.count.resize(3 * COLOURS, 0);
    let nj = island.joints.len();
    let dynamic = |b: Option<usize>| b.filter(|&i| input.bodies[i].get().inv_mass > 0.0);
    s.is_block.clear();
    s.is_block.extend(
        island.joints.iter().zip(&s.direct).map(|(slot, &d)| d || block_eligible(island, slot, dynamic(slot.b2).is_some())),
    );
    s.block_colour.clear();
    s.block_colour.resize(nj, 0);
    s.block_pos.clear();
    s.block_pos.resize(nj, 0);
    // Colours used per group: the loops below visit only these (an
    // island typically uses a few of the 3 × 64, and the container steps
    // about 40 islands).
    let used = [
        colour_group(island, dynamic, false, s, 0),
        colour_group(island, dynamic, true, s, COLOURS),
        colour_blocks(island, dynamic, s, 2 * COLOURS),
    ];
    // Indices k = group·COLOURS + colour of the colours used, ascending.
    let used_k = |g: usize| {
        let mut bits = used[g];
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let c = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                g * COLOURS + c
            })
        })
    };

    // Batches (blocks) per colour: ceil(count / 4), overflow rows (joints)
    // one per batch (block). `next` counts in lanes.
    s.next.clear();
    s.next.resize(3 * COLOURS, 0);
    let (mut nbatch, mut nblock) = (0u32, 0u32);
    for k in (0..3).flat_map(used_k) {
        let n = if k % COLOURS == OVERFLOW { s.count[k] } else { s.count[k].div_ceil(4) };
        let total = if k < 2 * COLOURS { &mut nbatch } else { &mut nblock };
        s.next[k] = *total * 4;
        *total += n;
    }
    let (nbatch, nblock) = (nbatch as usize, nblock as usize);
    let dummy_slot = (nbatch * 4) as u32;
    // Block λ follow the batches' slots and the dummy slot: block b, row
    // k, lane l at block_base + 12·b + 4·k + l.
    let block_base = nbatch * 4 + 1;
    // `next` of an overflow colour now holds its first lane (0 and
    // unused when it has no rows).
    let (n0, n1) = (s.count[OVERFLOW] as usize, s.count[COLOURS + OVERFLOW] as usize);
    s.layout = Layout {
        ovf0: s.next[OVERFLOW] as usize / 4,
        n0,
        ovf1: if n1 > 0 { s.next[COLOURS + OVERFLOW] as usize / 4 } else { nbatch },
        nbatch: nbatch - n0 - n1,
    };
    let pad = Batch { b1: [dummy_body; 4], b2: [dummy_body; 4], fslot: [dummy_slot; 4], ..Batch::default() };
    s.batches.clear();
    s.batches.resize(nbatch - n0 - n1, pad);
    // Every field of every single is written by the fill.
    if s.singles.len() < n0 + n1 {
        s.singles.resize(n0 + n1, Single::default());
    }
    // Every lane of every block is written below (rows, missing rows and
    // padding lanes alike), so old contents need no clearing: copying a
    // cleared 2.8 kB block per block cost a fifth of the step.
    if s.blocks.len() < nblock {
        s.blocks.resize(nblock, Block::default());
    }
    // Padding lanes: the last block of a colour, lanes 1..4 of each
    // overflow block.
    for k in used_k(2) {
        let (start, count) = (s.next[k] as usize, s.count[k] as usize);
        if k % COLOURS == OVERFLOW {
            for b in 0..count {
                for lane in 1..4 {
                    clear_lane(&mut s.blocks[start / 4 + b], lane, dummy_body);
                }
            }
        } else {
            for pos in start + count..start + 4 * count.div_ceil(4) {
                clear_lane(&mut s.blocks[pos / 4], pos % 4, dummy_body);
            }
        }
    }
    s.slot.clear();
    s.slot.resize(m, 0);
    s.block_joint.clear();
    s.block_joint.resize(4 * nblock, u32::MAX);
    for (j, slot) in island.joints.iter().enumerate() {
        if s.is_block[j] {
            let c = s.block_colour[j] as usize;
            let k = 2 * COLOURS + c;
            let pos = s.next[k];
            s.next[k] += if c == OVERFLOW { 4 } else { 1 };
            // Block rows need no `slot`: no batch row refers to them, and
            // their λ are found from `block_pos`.
            s.block_pos[j] = pos;
            s.block_joint[pos as usize] = j as u32;
            continue;
        }
        for r in slot.row0..slot.row0 + slot.m {
            let group = if rows[r].findex != -1 { COLOURS } else { 0 };
            let k = group + s.colour[r] as usize;
            s.slot[r] = s.next[k];
            s.next[k] += if s.colour[r] as usize == OVERFLOW { 4 } else { 1 };
        }
    }

    // Blocks whose four lanes are plain contacts are filled four at a time.
    s.vec_block.clear();
    for lanes in s.block_joint.chunks_exact(4) {
        s.vec_block.push(lanes.iter().all(|&j| j != u32::MAX && s.plain[j as usize]));
    }

    // ---- −(v/h + M⁻¹F) per body ------------------------------------------
    s.tmp.clear();
    for (&b, ii) in input.bodies.iter().zip(input.inv_i) {
        let b = b.get();
        let a = mul0_331(ii, &b.tacc);
        let mut t = [0.0; 6];
        for k in 0..3 {
            t[k] = -(b.facc[k] * b.inv_mass + b.lvel[k] * hinv);
            t[3 + k] = -(b.avel[k] * hinv) - a[k];
        }
        s.tmp.push(t);
    }
    s.tmp.push([0.0; 6]);
    s.inv_mass.clear();
    if n0 + n1 > 0 {
        for (&b, ii) in input.bodies.iter().zip(input.inv_i) {
            let mut rec = *ii;
            rec[3] = b.get().inv_mass;
            s.inv_mass.push(rec);
        }
        s.inv_mass.resize(nb + 4, [0.0; 12]);
    }

    // ---- rows into their lanes, scaled; λ warm start; fc -------------------
    s.lambda.clear();
    s.lambda.resize(block_base + 12 * nblock, 0.0);
    s.fc.clear();
    s.fc.resize(nb + 4, [0.0; 6]);
    #[cfg(target_arch = "x86_64")]
    if has_avx2_fma() {
        // SAFETY: the processor supports AVX2 and FMA (checked just above).
        unsafe { fill_lanes_avx2(input, island, s, cache, block_base) };
    } else {
        fill_lanes::<false>(input, island, s, cache, block_base);
    }
    #[cfg(not(target_arch = "x86_64"))]
    fill_lanes::<false>(input, island, s, cache, block_base);
    // The dummy bodies receive only zero products; keep them exactly zero.
    s.fc[nb..].fill([0.0; 6]);
    for bk in &mut s.blocks[..nblock] {
        couple(bk);
    }

    // ---- SOR sweeps --------------------------------------------------------
    let iterations = input.world.qs.num_iterations.max(0) as usize;
    s.order.clear();
    let layout = s.layout;
    s.order.extend((0..nbatch).map(|bi| layout.code(bi) as u32));
    s.order.extend((nbatch..nbatch + nblock).map(|i| i as u32));
    let item_bytes = (nbatch - n0 - n1) * std::mem::size_of::<Batch>()
        + (n0 + n1) * std::mem::size_of::<Single>()
        + nblock * std::mem::size_of::<Block>();
    let sw = Sweep {
        batches: &s.batches,
        singles: &s.singles[..n0 + n1],
        inv_mass: &s.inv_mass,
        blocks: &s.blocks[..nblock],
        block_base,
        layout,
        large: item_bytes > large_island_bytes(),
    };
    sweeps(sw, &mut s.order, &mut s.lambda, &mut s.fc, iterations);

    // ---- results -------------------------------------------------------------
    for (&b, f) in input.bodies.iter().zip(s.fc.iter()) {
        let b = b.get_mut();
        for k in 0..3 {
            b.lvel[k] += h * f[k];
            b.avel[k] += h * f[3 + k];
        }
    }
    for (j, slot) in island.joints.iter().enumerate() {
        let head = &mut slot.joint.get_mut().head;
        let mut lam = [0.0; 6];
        if s.is_block[j] {
            let pos = s.block_pos[j] as usize;
            let slot0 = block_base + 12 * (pos / 4) + pos % 4;
            for (k, l) in lam.iter_mut().enumerate().take(slot.m) {
                *l = s.lambda[slot0 + 4 * k];
            }
        } else {
            for (k, l) in lam.iter_mut().enumerate().take(slot.m) {
                *l = s.lambda[s.slot[slot.row0 + k] as usize];
            }
        }
        // Rows beyond m keep their λ (a limit row that comes back later
        // warm-starts from it). Element-wise selects: the variable-length
        // copy compiled to a libc memmove call per joint (2 % of the fast
        // pyramid's samples).
        let n = slot.m;
        for (k, (dst, &l)) in head.lambda.iter_mut().zip(&lam).enumerate() {
            *dst = if k < n { l } else { *dst };
        }
        if let crate::joints::JointKind::Contact(c) = &slot.joint.get().kind {
            let g = &c.geom;
            s.fresh.push(CachedContact::new(g.g1 as usize, g.g2 as usize, g.pos, [lam[0], lam[1], lam[2]]));
        }
        let fb = head.feedback;
        if !fb.is_null() {
            let rs = &rows[slot.row0..slot.row0 + slot.m];
            let (mut f1, mut t1, mut f2, mut t2) = ([0.0; 3], [0.0; 3], [0.0; 3], [0.0; 3]);
            for (row, &l) in rs.iter().zip(lam.iter()) {
                for k in 0..3 {
                    f1[k] += row.j1l[k] * l;
                    t1[k] += row.j1a[k] * l;
                    f2[k] += row.j2l[k] * l;
                    t2[k] += row.j2a[k] * l;
                }
            }
            // SAFETY: the host registered this dJointFeedback with
            // dJointSetFeedback and must keep it valid while the joint
            // exists; nothing else accesses it during the step.
            let fb = unsafe { &mut *fb };
            if slot.b2.is_some() {
                fb.f2[..3].copy_from_slice(&f2);
                fb.t2[..3].copy_from_slice(&t2);
            }
            fb.f1[..3].copy_from_slice(&f1);
            fb.t1[..3].copy_from_slice(&t1);
        }
    }
}

/// The row pairs (k, j) of `Block::a`: row j's λ change moves row k's
/// `J·v` (rows are swept 1, 2, 0).
const COUPLED: [(usize, usize); 3] = [(2, 1), (0, 1), (0, 2)];
