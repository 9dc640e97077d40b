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

use super::{IslandInput, IslandRows, JointInfo, JointSlot};
use crate::joints::contact::{mode as cmode, ContactJoint};
use crate::joints::{JointHead, JointKind, Row, RowCtx};
use crate::math::mat3::mul0_331;
use crate::math::vec::{cross3, dot3, plane_space};
use glam::DVec4;

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

/// Two contacts of the same geom pair at consecutive steps are taken to be
/// the same contact when their positions are closer than this.
pub const CONTACT_MATCH_DISTANCE: f64 = 1e-2;

/// One contact's λ (normal row, then the friction rows) at the end of a
/// step, keyed by its geoms and position.
#[derive(Clone, Copy, Debug)]
pub struct CachedContact {
    g1: usize,
    g2: usize,
    pos: [f64; 3],
    lambda: [f64; 3],
}

impl CachedContact {
    /// The contact between geoms `g1` and `g2` at `pos` and its λ (normal
    /// row, then the friction rows; 0 for rows it does not have).
    pub fn new(g1: usize, g2: usize, pos: [f64; 3], lambda: [f64; 3]) -> CachedContact {
        CachedContact { g1, g2, pos, lambda }
    }
}

/// The contacts' λ of a world's previous fast QuickStep, found by geom
/// pair through a hash table: `heads` (a power of two, at least twice the
/// entries) holds 1 + the last entry of each pair's chain, `next` links
/// the entries of one pair. A pair's contacts all come from one island,
/// stored in the island's order, so a chain's content and order do not
/// depend on which thread stepped which island; a lookup therefore finds
/// the same entry at any thread count.
#[derive(Default)]
pub struct ContactCache {
    entries: Vec<CachedContact>,
    next: Vec<u32>,
    heads: Vec<u32>,
}

/// Bucket of a geom pair (Fibonacci hashing of the two addresses).
#[inline]
fn pair_bucket(g1: usize, g2: usize, mask: usize) -> usize {
    let h = (g1 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (g2 as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (h >> 32) as usize & mask
}

impl ContactCache {
    /// The head of the chain holding pair (g1, g2)'s entries (0: none).
    /// A pair's contacts come one after another, so callers reuse it.
    fn chain(&self, g1: usize, g2: usize) -> u32 {
        if self.entries.is_empty() {
            return 0;
        }
        self.heads[pair_bucket(g1, g2, self.heads.len() - 1)]
    }

    /// The previous λ of the contact between `g1` and `g2` nearest to
    /// `pos`, within `CONTACT_MATCH_DISTANCE` (the first of equally near
    /// ones in chain order), along the chain starting at `head` (from
    /// `chain`).
    fn lookup_in(&self, head: u32, g1: usize, g2: usize, pos: &[f64; 3]) -> Option<[f64; 3]> {
        let mut best = None;
        let mut best_d2 = CONTACT_MATCH_DISTANCE * CONTACT_MATCH_DISTANCE;
        let mut k = head;
        while k != 0 {
            let e = &self.entries[k as usize - 1];
            if (e.g1, e.g2) == (g1, g2) {
                let d2 = (0..3).map(|c| (e.pos[c] - pos[c]) * (e.pos[c] - pos[c])).sum::<f64>();
                if d2 < best_d2 {
                    best_d2 = d2;
                    best = Some(e.lambda);
                }
            }
            k = self.next[k as usize - 1];
        }
        best
    }

    /// The previous λ of the contact between `g1` and `g2` nearest to
    /// `pos` (see `lookup_in`).
    pub fn lookup(&self, g1: usize, g2: usize, pos: &[f64; 3]) -> Option<[f64; 3]> {
        self.lookup_in(self.chain(g1, g2), g1, g2, pos)
    }

    /// Replaces the cache by the contacts the islands of this step stored
    /// in their scratch buffers (which are emptied).
    pub fn replace<'a>(&mut self, scratches: impl IntoIterator<Item = &'a mut FastScratch>) {
        self.replace_from(scratches.into_iter().map(|s| &mut s.fresh));
    }

    /// `replace` from lists of contacts (emptied).
    pub fn replace_from<'a>(&mut self, lists: impl IntoIterator<Item = &'a mut Vec<CachedContact>>) {
        self.entries.clear();
        for fresh in lists {
            if self.entries.is_empty() {
                // The first island buffer's contacts are taken whole (its
                // buffer gets the old, emptied one): no copy of ~2000
                // entries a step when one thread steps every island.
                std::mem::swap(&mut self.entries, fresh);
            } else {
                self.entries.append(fresh);
            }
        }
        let size = (2 * self.entries.len()).next_power_of_two().max(16);
        self.heads.clear();
        self.heads.resize(size, 0);
        self.next.clear();
        for (k, e) in self.entries.iter().enumerate() {
            let b = pair_bucket(e.g1, e.g2, size - 1);
            self.next.push(self.heads[b]);
            self.heads[b] = k as u32 + 1;
        }
    }
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

/// Sweep items per run of `shuffle_runs`: 64 singles are 16 kB, enough for
/// the hardware prefetcher to stream.
const RUN: usize = 64;

/// `LARGE_ISLAND_BYTES`, or `ODE_FAST_LARGE_ISLAND_BYTES` when set (read
/// once per process).
fn large_island_bytes() -> usize {
    static BYTES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *BYTES.get_or_init(|| {
        std::env::var("ODE_FAST_LARGE_ISLAND_BYTES").ok().and_then(|v| v.parse().ok()).unwrap_or(LARGE_ISLAND_BYTES)
    })
}

/// The large-island shuffle: `order` as runs of `RUN` consecutive items
/// (the last, partial run stays last), the runs shuffled with the
/// generator of the item shuffle. Runs start in memory order and move
/// whole, so each is always swept in memory order; the rows of one item
/// are independent and the items of a run are still swept one after the
/// other, so this is a Gauss–Seidel order like any other.
fn shuffle_runs(order: &mut [u32], rng: &mut u64) {
    let runs = order.len() / RUN;
    for i in 1..runs {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        let j = (*rng % (i as u64 + 1)) as usize;
        if j != i {
            let (a, b) = order.split_at_mut(i * RUN);
            a[j * RUN..(j + 1) * RUN].swap_with_slice(&mut b[..RUN]);
        }
    }
}

/// Start state of the batch shuffle (xorshift64).
const SHUFFLE_SEED: u64 = 0x9E37_79B9_7F4A_7C15;

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

/// What `fill_block_lane` and `fill_contact_lane` need of one block joint.
struct LaneFill {
    lane: usize,
    /// Island body indices, `dummy_body` for the static environment.
    bodies: [u32; 2],
    /// The lane's body indices in the sweep (lane dummies for bodies
    /// without inverse mass).
    lane_bodies: [u32; 2],
    hinv: f64,
    w: f64,
    prev: [f64; 6],
    /// λ slot of row 0 (rows k at + 4k).
    slot0: usize,
}

/// Inverse mass and world inverse inertia of each side's body (`None`:
/// the static environment).
type Sides<'a> = [Option<(f64, &'a [f64; 12])>; 2];

/// One row of a block joint: Jacobian (linear then angular part per
/// body), right-hand side, CFM and bounds, as `info2` gives them.
struct LaneRow {
    j1: [f64; 6],
    j2: [f64; 6],
    c: f64,
    cfm: f64,
    lo: f64,
    hi: f64,
}

/// Writes row `k` of a block joint into its lane, scaled as in `Batch`
/// (row 0 with its bounds, friction rows with fcoef = |hi|), and writes
/// its warm start λ (`fill_lanes` applies it to the velocities); the
/// arithmetic is the row batches', in the same order.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn fill_lane_row(
    f: &LaneFill,
    sides: &Sides<'_>,
    k: usize,
    row: &LaneRow,
    bk: &mut Block,
    tmp: &[[f64; 6]],
    lambda: &mut [f64],
) {
    let lane = f.lane & 3;
    let (t1, t2) = (&tmp[f.bodies[0] as usize], &tmp[f.bodies[1] as usize]);
    let (j1, j2) = (&row.j1, &row.j2);
    let mut m = [[0.0; 6]; 2];
    for (mm, (j, side)) in m.iter_mut().zip([(j1, sides[0]), (j2, sides[1])]) {
        if let Some((inv_mass, ii)) = side {
            for c in 0..3 {
                mm[c] = inv_mass * j[c];
            }
            mm[3..].copy_from_slice(&mul0_331(ii, &j[3..]));
        }
    }
    let [m1, m2] = m;
    let mut jmj = 0.0;
    let mut jt = 0.0;
    for c in 0..6 {
        jmj += j1[c] * m1[c] + j2[c] * m2[c];
        jt += j1[c] * t1[c] + j2[c] * t2[c];
    }
    let cfm = row.cfm * f.hinv;
    let ad = f.w / (jmj + cfm);
    for c in 0..3 {
        lanes(&mut bk.d[k][c])[lane] = j1[c];
        lanes(&mut bk.j1a[k][c])[lane] = j1[3 + c] * ad;
        lanes(&mut bk.j2a[k][c])[lane] = j2[3 + c] * ad;
        lanes(&mut bk.m1a[k][c])[lane] = m1[3 + c];
        lanes(&mut bk.m2a[k][c])[lane] = m2[3 + c];
    }
    lanes(&mut bk.im1)[lane] = sides[0].map_or(0.0, |s| s.0);
    lanes(&mut bk.im2)[lane] = sides[1].map_or(0.0, |s| s.0);
    lanes(&mut bk.ad[k])[lane] = ad;
    lanes(&mut bk.rhs[k])[lane] = (row.c * f.hinv + jt) * ad;
    lanes(&mut bk.cfm[k])[lane] = cfm * ad;
    if k == 0 {
        lanes(&mut bk.lo0)[lane] = row.lo;
        lanes(&mut bk.hi0)[lane] = row.hi;
    } else {
        lanes(&mut bk.fcoef[k - 1])[lane] = row.hi.abs();
    }
    // The warm start's velocity change follows, block by block
    // (`fill_lanes`).
    lambda[f.slot0 + 4 * k] = f.prev[k] * WARM_FACTOR;
}

/// Writes one block joint's rows into its lane (see `fill_lane_row`) and
/// makes its missing rows inert.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn fill_block_lane(
    f: &LaneFill,
    sides: &Sides<'_>,
    rows: &[Row],
    bk: &mut Block,
    tmp: &[[f64; 6]],
    lambda: &mut [f64],
) {
    for (k, row) in rows.iter().enumerate().take(3) {
        let lr = LaneRow {
            j1: [row.j1l[0], row.j1l[1], row.j1l[2], row.j1a[0], row.j1a[1], row.j1a[2]],
            j2: [row.j2l[0], row.j2l[1], row.j2l[2], row.j2a[0], row.j2a[1], row.j2a[2]],
            c: row.c,
            cfm: row.cfm,
            lo: row.lo,
            hi: row.hi,
        };
        fill_lane_row(f, sides, k, &lr, bk, tmp, lambda);
    }
    let lane = f.lane & 3;
    bk.b1[lane] = f.lane_bodies[0];
    bk.b2[lane] = f.lane_bodies[1];
    clear_rows(bk, lane, rows.len());
}

/// `fill_block_lane` for a contact `direct_contact` accepted, its `m`
/// rows computed here from the contact as `ContactJoint::info2` computes
/// them (same expressions, so the same bits), without a `Row` in memory.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn fill_contact_lane(
    f: &LaneFill,
    sides: &Sides<'_>,
    cj: &ContactJoint,
    head: &JointHead,
    m: usize,
    world: &crate::dynamics::world::World,
    bk: &mut Block,
    tmp: &[[f64; 6]],
    lambda: &mut [f64],
) {
    let s = &cj.surface;
    let mode = s.mode;
    let (Some(b0), b1) = (head.body[0].map(|b| b.get()), head.body[1].map(|b| b.get())) else {
        return; // excluded by `direct_contact`
    };
    // Row 0, the normal (see `ContactJoint::info2`).
    let (mut c, motion_n) = cj.correction_speed(f.hinv, world.erp, world);
    let apply_bounce = mode & cmode::BOUNCE != 0 && s.bounce_vel >= 0.0;
    let g = &cj.geom;
    let n = cj.normal(head);
    let c1 = [g.pos[0] - b0.pos[0], g.pos[1] - b0.pos[1], g.pos[2] - b0.pos[2]];
    let c2 = b1.map_or([0.0; 3], |b| [g.pos[0] - b.pos[0], g.pos[1] - b.pos[1], g.pos[2] - b.pos[2]]);
    // Jacobian of a row along unit direction `d` at the contact point.
    let jac = |d: &[f64; 3]| {
        let a1 = cross3(&c1, d);
        let j1 = [d[0], d[1], d[2], a1[0], a1[1], a1[2]];
        let j2 = match b1 {
            Some(_) => {
                let a2 = cross3(d, &c2);
                [-d[0], -d[1], -d[2], a2[0], a2[1], a2[2]]
            }
            None => [0.0; 6],
        };
        (j1, j2)
    };
    let (j1, j2) = jac(&n);
    if apply_bounce {
        let mut outgoing = 0.0;
        if let Some(b) = b1 {
            outgoing = dot3(&j2[3..], &b.avel) - dot3(&n, &b.lvel);
        }
        outgoing += dot3(&j1[3..], &b0.avel) + dot3(&n, &b0.lvel);
        let negated_outgoing = motion_n - outgoing;
        if negated_outgoing > s.bounce_vel {
            let newc = s.bounce * negated_outgoing + motion_n;
            if newc > c {
                c = newc;
            }
        }
    }
    let cfm = if mode & cmode::SOFT_CFM != 0 { s.soft_cfm } else { world.cfm };
    let row = LaneRow { j1, j2, c, cfm, lo: 0.0, hi: f64::INFINITY };
    fill_lane_row(f, sides, 0, &row, bk, tmp, lambda);
    if m > 1 {
        let (t1, t2) = if mode & cmode::FDIR1 != 0 { (cj.fdir1, cross3(&n, &cj.fdir1)) } else { plane_space(&n) };
        let mu = s.mu;
        let mu2 = if mode & cmode::MU2 != 0 { s.mu2 } else { mu };
        let friction = [
            (mu, t1, cmode::MOTION1, s.motion1, cmode::SLIP1, s.slip1),
            (mu2, t2, cmode::MOTION2, s.motion2, cmode::SLIP2, s.slip2),
        ];
        let mut k = 1;
        for (mu, t, motion_bit, motion, slip_bit, slip) in friction {
            if !(mu > 0.0) || k >= m {
                continue;
            }
            let (j1, j2) = jac(&t);
            let c = if mode & motion_bit != 0 { motion } else { 0.0 };
            let cfm = if mode & slip_bit != 0 { slip } else { world.cfm };
            let row = LaneRow { j1, j2, c, cfm, lo: -mu, hi: mu };
            fill_lane_row(f, sides, k, &row, bk, tmp, lambda);
            k += 1;
        }
    }
    let lane = f.lane & 3;
    bk.b1[lane] = f.lane_bodies[0];
    bk.b2[lane] = f.lane_bodies[1];
    clear_rows(bk, lane, m);
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
            s.fresh.push(CachedContact {
                g1: g.g1 as usize,
                g2: g.g2 as usize,
                pos: g.pos,
                lambda: [lam[0], lam[1], lam[2]],
            });
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

/// One plain contact's own values (see `fill_contact_block`): row
/// directions, arms, per-row right-hand side and CFM, friction
/// coefficients, and its island bodies (`ba`, and `bb` = nb without a
/// second body).
#[derive(Clone, Copy, Default)]
struct PlainLane {
    n: [f64; 3],
    c1: [f64; 3],
    c2: [f64; 3],
    rc: [f64; 3],
    rcfm: [f64; 3],
    mu: [f64; 2],
    ba: usize,
    bb: usize,
    /// Inverse masses (0 without a second body).
    im1: f64,
    im2: f64,
}

/// `fill_contact_lane` for the four plain contacts (`FastScratch::plain`)
/// of one block at once, lane by lane the same operations in the same
/// order (so the same bits), four-wide; the contacts' own values (normal,
/// arms, tangents, bodies' data) are gathered lane by lane first. The
/// warm start is left to the caller. `js`: the lanes' joint slots.
///
/// `AVX2`: the caller runs with AVX2 enabled (only `fill_lanes_avx2`
/// passes true), so the bodies' inverse inertias and `tmp` rows are
/// gathered by `avx2::gather_inertia` and `avx2::gather_rows` (the same
/// values, fewer shuffles).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn fill_contact_block<const AVX2: bool>(
    input: &IslandInput,
    island: &IslandRows,
    js: [usize; 4],
    bk: &mut Block,
    tmp: &[[f64; 6]],
    hinv: f64,
    l: &mut [PlainLane; 4],
) {
    let world = input.world;
    let nb = input.bodies.len();
    let dummy_body = nb as u32;
    // Each lane's own values first (scalar stores, later read back as
    // scalars): filling per-lane columns of `[[f64; 4]; _]` arrays and
    // loading them as vectors stalled on store forwarding (four scalar
    // stores read by one 256-bit load) and needed the arrays zeroed.
    for (lane, pl) in l.iter_mut().enumerate() {
        let slot = &island.joints[js[lane]];
        let joint = slot.joint.get();
        let (JointKind::Contact(cj), Some(b0)) = (&joint.kind, joint.head.body[0]) else {
            unreachable!("plain contacts are attached contacts");
        };
        let (b0, b1) = (b0.get(), joint.head.body[1].map(|b| b.get()));
        let s = &cj.surface;
        let mode = s.mode;
        // As `fill_contact_lane` (no bounce).
        pl.rc[0] = cj.correction_speed(hinv, world.erp, world).0;
        pl.rc[1] = if mode & cmode::MOTION1 != 0 { s.motion1 } else { 0.0 };
        pl.rc[2] = if mode & cmode::MOTION2 != 0 { s.motion2 } else { 0.0 };
        pl.rcfm[0] = if mode & cmode::SOFT_CFM != 0 { s.soft_cfm } else { world.cfm };
        pl.rcfm[1] = if mode & cmode::SLIP1 != 0 { s.slip1 } else { world.cfm };
        pl.rcfm[2] = if mode & cmode::SLIP2 != 0 { s.slip2 } else { world.cfm };
        pl.mu[0] = s.mu;
        pl.mu[1] = if mode & cmode::MU2 != 0 { s.mu2 } else { s.mu };
        let g = &cj.geom;
        pl.n = cj.normal(&joint.head);
        pl.c1 = [g.pos[0] - b0.pos[0], g.pos[1] - b0.pos[1], g.pos[2] - b0.pos[2]];
        pl.c2 = b1.map_or([0.0; 3], |b| [g.pos[0] - b.pos[0], g.pos[1] - b.pos[1], g.pos[2] - b.pos[2]]);
        pl.ba = slot.b1.unwrap_or(nb);
        pl.bb = slot.b2.unwrap_or(nb);
        // Each body's inverse mass read once; a body without one is
        // swept as the lane's dummy (as `dynamic` in `solve_rows`).
        let im = |b: usize| if b < nb { input.bodies[b].get().inv_mass } else { 0.0 };
        (pl.im1, pl.im2) = (im(pl.ba), im(pl.bb));
        let lane_body = |b: usize, im: f64| if im > 0.0 { b as u32 } else { dummy_body + lane as u32 };
        bk.b1[lane] = lane_body(pl.ba, pl.im1);
        bk.b2[lane] = lane_body(pl.bb, pl.im2);
    }
    // A lane's four values as one vector (scalar loads and shuffles).
    macro_rules! v4 {
        (|$x:ident| $e:expr) => {{
            let f = |$x: &PlainLane| $e;
            DVec4::new(f(&l[0]), f(&l[1]), f(&l[2]), f(&l[3]))
        }};
    }
    let v = DVec4::from_array;
    let c1 = [v4!(|x| x.c1[0]), v4!(|x| x.c1[1]), v4!(|x| x.c1[2])];
    let c2 = [v4!(|x| x.c2[0]), v4!(|x| x.c2[1]), v4!(|x| x.c2[2])];
    // Body 2 absent: inverse mass and inertia 0 (as `fill_contact_lane`'s
    // `None` side gives zero products).
    const NO_INERTIA: [f64; 12] = [0.0; 12];
    let has2 = l.map(|x| x.bb < nb);
    let (im1, im2) = (v4!(|x| x.im1), v4!(|x| x.im2));
    let ii1p: [&[f64; 12]; 4] = std::array::from_fn(|k| &input.inv_i[l[k].ba]);
    let ii2p: [&[f64; 12]; 4] = std::array::from_fn(|k| if has2[k] { &input.inv_i[l[k].bb] } else { &NO_INERTIA });
    let mut vii1 = [DVec4::ZERO; 9];
    let mut vii2 = [DVec4::ZERO; 9];
    let mut tt1 = [DVec4::ZERO; 6];
    let mut tt2 = [DVec4::ZERO; 6];
    #[cfg(target_arch = "x86_64")]
    if AVX2 {
        let (ba, bb) = (l.map(|x| x.ba), l.map(|x| x.bb));
        assert!(ba.iter().chain(&bb).all(|&b| b < tmp.len()));
        // SAFETY: AVX2 is enabled (see above); every index is inside
        // `tmp` (asserted) and every pointer is a whole matrix.
        unsafe {
            vii1 = avx2::gather_inertia(ii1p);
            vii2 = avx2::gather_inertia(ii2p);
            tt1 = avx2::gather_rows(tmp.as_ptr(), ba);
            tt2 = avx2::gather_rows(tmp.as_ptr(), bb);
        }
    }
    if !(cfg!(target_arch = "x86_64") && AVX2) {
        for r in 0..3 {
            for c in 0..3 {
                let i = 4 * r + c;
                vii1[3 * r + c] = DVec4::new(ii1p[0][i], ii1p[1][i], ii1p[2][i], ii1p[3][i]);
                vii2[3 * r + c] = DVec4::new(ii2p[0][i], ii2p[1][i], ii2p[2][i], ii2p[3][i]);
            }
        }
        for c in 0..6 {
            tt1[c] = v4!(|x| tmp[x.ba][c]);
            tt2[c] = v4!(|x| tmp[x.bb][c]);
        }
    }
    // Lanes without a second body: all-ones bits where there is one.
    let keep2 = v(has2.map(|h| if h { f64::from_bits(u64::MAX) } else { 0.0 }));
    let and = |x: DVec4, m: DVec4| v([0, 1, 2, 3].map(|l| f64::from_bits(x.to_array()[l].to_bits() & m.to_array()[l].to_bits())));
    #[inline(always)]
    fn cross(a: &[DVec4; 3], b: &[DVec4; 3]) -> [DVec4; 3] {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    }
    // `mul0_331` lane-wise: row r of the inverse inertia times (x, y, z).
    #[inline(always)]
    fn mul(ii: &[DVec4; 9], x: DVec4, y: DVec4, z: DVec4) -> [DVec4; 3] {
        [
            ii[0] * x + ii[1] * y + ii[2] * z,
            ii[3] * x + ii[4] * y + ii[5] * z,
            ii[6] * x + ii[7] * y + ii[8] * z,
        ]
    }
    let w = DVec4::splat(input.world.qs.w);
    // Lanes without a second body have im2 = 0 (see above).
    (bk.im1, bk.im2) = (im1, im2);
    let n = [v4!(|x| x.n[0]), v4!(|x| x.n[1]), v4!(|x| x.n[2])];
    let (t1, t2) = plane_space4(&n);
    let dirs = [n, t1, t2];
    for (k, d) in dirs.iter().enumerate() {
        let a1 = cross(&c1, d);
        let a2 = cross(d, &c2);
        let j1 = [d[0], d[1], d[2], a1[0], a1[1], a1[2]];
        let j2 = [and(-d[0], keep2), and(-d[1], keep2), and(-d[2], keep2), and(a2[0], keep2), and(a2[1], keep2), and(a2[2], keep2)];
        let (r1, r2) = (mul(&vii1, j1[3], j1[4], j1[5]), mul(&vii2, j2[3], j2[4], j2[5]));
        let m1 = [im1 * j1[0], im1 * j1[1], im1 * j1[2], r1[0], r1[1], r1[2]];
        let m2 = [im2 * j2[0], im2 * j2[1], im2 * j2[2], r2[0], r2[1], r2[2]];
        let mut jmj = DVec4::ZERO;
        let mut jt = DVec4::ZERO;
        for c in 0..6 {
            jmj += j1[c] * m1[c] + j2[c] * m2[c];
            jt += j1[c] * tt1[c] + j2[c] * tt2[c];
        }
        let cfm = v4!(|x| x.rcfm[k]) * hinv;
        let ad = w / (jmj + cfm);
        for c in 0..3 {
            bk.d[k][c] = d[c];
            bk.j1a[k][c] = j1[3 + c] * ad;
            bk.j2a[k][c] = j2[3 + c] * ad;
            bk.m1a[k][c] = m1[3 + c];
            bk.m2a[k][c] = m2[3 + c];
        }
        bk.ad[k] = ad;
        bk.rhs[k] = (v4!(|x| x.rc[k]) * hinv + jt) * ad;
        bk.cfm[k] = cfm * ad;
        if k == 0 {
            bk.lo0 = DVec4::ZERO;
            bk.hi0 = DVec4::INFINITY;
        } else {
            bk.fcoef[k - 1] = v4!(|x| x.mu[k - 1]).abs();
        }
    }
}

/// `plane_space` of four unit normals, lane by lane the same operations
/// (both branches formed, each lane taking its own): the same bits
/// without a data-dependent branch and a scalar square root and division
/// per lane.
#[inline(always)]
fn plane_space4(n: &[DVec4; 3]) -> ([DVec4; 3], [DVec4; 3]) {
    let yz = n[2].abs().cmpgt(DVec4::splat(std::f64::consts::FRAC_1_SQRT_2));
    let a = DVec4::select(yz, n[1] * n[1] + n[2] * n[2], n[0] * n[0] + n[1] * n[1]);
    // glam's DVec4 has no square root; this compiles to one vsqrtpd.
    let k = DVec4::ONE / DVec4::from_array(a.to_array().map(f64::sqrt));
    let zero = DVec4::ZERO;
    let p = [
        DVec4::select(yz, zero, -n[1] * k),
        DVec4::select(yz, -n[2] * k, n[0] * k),
        DVec4::select(yz, n[1] * k, zero),
    ];
    let q = [
        DVec4::select(yz, a * k, -n[2] * p[1]),
        DVec4::select(yz, -n[0] * p[2], n[2] * p[0]),
        DVec4::select(yz, n[0] * p[1], a * k),
    ];
    (p, q)
}

/// How many blocks ahead `fill_lanes` prefetches the joints of.
#[cfg(target_arch = "x86_64")]
const PREFETCH_BLOCKS: usize = 2;

/// Fills every joint's rows into its batch lanes or block lane, scaled,
/// with its warm start applied to `lambda` and `fc` (see `solve_rows`).
/// Compiled a second time for AVX2 and FMA (`fill_lanes_avx2`), where the
/// six-wide loops take 4-wide vectors; both do the same operations, but
/// for the blocks' warm start, fused only in the AVX2 copy (see `fma4`).
///
/// `AVX2`: the caller runs with AVX2 enabled (only `fill_lanes_avx2`
/// passes true), so the warm start moves the blocks' velocities with
/// `avx2::gather`/`scatter`.
#[inline(always)]
fn fill_lanes<const AVX2: bool>(input: &IslandInput, island: &IslandRows, s: &mut FastScratch, cache: &ContactCache, block_base: usize) {
    let rows = &island.rows;
    let dummy_body = input.bodies.len() as u32;
    let dummy_slot = (block_base - 1) as u32;
    let hinv = 1.0 / input.h;
    let w = input.world.qs.w;
    let dynamic = |b: Option<usize>| b.filter(|&i| input.bodies[i].get().inv_mass > 0.0);
    // The last geom pair looked up and its chain in the contact cache.
    let mut last_pair: Option<((usize, usize), u32)> = None;
    // `fill_contact_block`'s per-lane values, every field rewritten per
    // block (a fresh default array cost a memset per block).
    let mut plain_lanes = [PlainLane::default(); 4];
    for (bi, &v) in s.vec_block.iter().enumerate() {
        // The blocks take their joints in colour order, scattered over
        // the joint pool (a few MB in the pyramid): fetch the next
        // blocks' joints early instead of stalling on each.
        #[cfg(target_arch = "x86_64")]
        if let Some(next) = s.block_joint.get(4 * (bi + PREFETCH_BLOCKS)..4 * (bi + PREFETCH_BLOCKS) + 4) {
            for &j in next {
                if let Some(slot) = island.joints.get(j as usize) {
                    crate::joints::prefetch(slot.joint.get());
                }
            }
        }
        if v {
            let js = std::array::from_fn(|l| s.block_joint[4 * bi + l] as usize);
            fill_contact_block::<AVX2>(input, island, js, &mut s.blocks[bi], &s.tmp, hinv, &mut plain_lanes);
        }
    }
    for (j, slot) in island.joints.iter().enumerate() {
        let b1 = slot.b1.map_or(dummy_body, |i| i as u32);
        let b2 = slot.b2.map_or(dummy_body, |i| i as u32);
        let joint = slot.joint.get();
        let prev = match &joint.kind {
            JointKind::Contact(c) => {
                let g = &c.geom;
                let pair = (g.g1 as usize, g.g2 as usize);
                let head = match last_pair {
                    Some((p, head)) if p == pair => head,
                    _ => cache.chain(pair.0, pair.1),
                };
                last_pair = Some((pair, head));
                let l = cache.lookup_in(head, pair.0, pair.1, &g.pos).unwrap_or_default();
                [l[0], l[1], l[2], 0.0, 0.0, 0.0]
            }
            _ => joint.head.lambda,
        };
        if s.is_block[j] && s.vec_block[s.block_pos[j] as usize / 4] {
            // Filled by `fill_contact_block`; its warm start λ here, their
            // velocity change below, block by block (as `fill_lane_row`).
            let pos = s.block_pos[j] as usize;
            let slot0 = block_base + 12 * (pos / 4) + pos % 4;
            for k in 0..3 {
                s.lambda[slot0 + 4 * k] = prev[k] * WARM_FACTOR;
            }
            continue;
        }
        if s.is_block[j] {
            let pos = s.block_pos[j] as usize;
            let side = |b: u32| {
                (b != dummy_body).then(|| (input.bodies[b as usize].get().inv_mass, &input.inv_i[b as usize]))
            };
            let lane = pos % 4;
            let lane_body = |b: Option<usize>| dynamic(b).map_or(dummy_body + lane as u32, |i| i as u32);
            let lf = LaneFill {
                lane,
                bodies: [b1, b2],
                lane_bodies: [lane_body(slot.b1), lane_body(slot.b2)],
                hinv,
                w,
                prev,
                slot0: block_base + 12 * (pos / 4) + lane,
            };
            let sides = [side(b1), side(b2)];
            let bk = &mut s.blocks[pos / 4];
            match &joint.kind {
                JointKind::Contact(c) if s.direct[j] => {
                    let world = input.world;
                    fill_contact_lane(&lf, &sides, c, &joint.head, slot.m, world, bk, &s.tmp, &mut s.lambda)
                }
                _ => {
                    let rs = &rows[slot.row0..slot.row0 + slot.m];
                    fill_block_lane(&lf, &sides, rs, bk, &s.tmp, &mut s.lambda)
                }
            }
            continue;
        }
        for (k, row) in rows[slot.row0..slot.row0 + slot.m].iter().enumerate() {
            let r = slot.row0 + k;
            let sl = s.slot[r] as usize;
            let (bi, lane) = (sl / 4, sl % 4);
            let j1 = [row.j1l[0], row.j1l[1], row.j1l[2], row.j1a[0], row.j1a[1], row.j1a[2]];
            let j2 = [row.j2l[0], row.j2l[1], row.j2l[2], row.j2a[0], row.j2a[1], row.j2a[2]];
            let mut m1 = [0.0; 6];
            let mut m2 = [0.0; 6];
            for (mm, j, b) in [(&mut m1, &j1, b1), (&mut m2, &j2, b2)] {
                if b != dummy_body {
                    let body = input.bodies[b as usize].get();
                    for c in 0..3 {
                        mm[c] = body.inv_mass * j[c];
                    }
                    mm[3..].copy_from_slice(&mul0_331(&input.inv_i[b as usize], &j[3..]));
                }
            }
            let (t1, t2) = (&s.tmp[b1 as usize], &s.tmp[b2 as usize]);
            let mut jmj = 0.0;
            let mut jt = 0.0;
            for c in 0..6 {
                jmj += j1[c] * m1[c] + j2[c] * m2[c];
                jt += j1[c] * t1[c] + j2[c] * t2[c];
            }
            let cfm = row.cfm * hinv;
            let ad = w / (jmj + cfm);
            // Each lane has its own dummy body, so that lanes acting on the
            // static environment do not chain through one memory cell.
            let lane_body = |b: u32| if b == dummy_body { dummy_body + lane as u32 } else { b };
            let code = s.layout.code(bi);
            if code >= s.layout.nbatch {
                // An overflow row: its batch's lane 0 (see `Single`).
                let (fcoef, fslot, lo, hi) = if row.findex != -1 {
                    (row.hi.abs(), s.slot[row.findex as usize], 0.0, 0.0)
                } else {
                    (0.0, dummy_slot, row.lo, row.hi)
                };
                s.singles[code - s.layout.nbatch] = Single {
                    j1,
                    j2,
                    ad,
                    rhs: (row.c * hinv + jt) * ad,
                    cfm: cfm * ad,
                    lo,
                    hi,
                    fcoef,
                    b1: lane_body(b1),
                    b2: lane_body(b2),
                    fslot,
                    slot: sl as u32,
                };
            } else {
                let bt = &mut s.batches[code];
                for c in 0..6 {
                    lanes(&mut bt.j1[c])[lane & 3] = j1[c] * ad;
                    lanes(&mut bt.j2[c])[lane & 3] = j2[c] * ad;
                    bt.m1[lane][c] = m1[c];
                    bt.m2[lane][c] = m2[c];
                }
                lanes(&mut bt.rhs)[lane & 3] = (row.c * hinv + jt) * ad;
                lanes(&mut bt.cfm)[lane & 3] = cfm * ad;
                bt.b1[lane] = lane_body(b1);
                bt.b2[lane] = lane_body(b2);
                if row.findex != -1 {
                    lanes(&mut bt.fcoef)[lane & 3] = row.hi.abs();
                    bt.fslot[lane] = s.slot[row.findex as usize];
                } else {
                    lanes(&mut bt.lo)[lane & 3] = row.lo;
                    lanes(&mut bt.hi)[lane & 3] = row.hi;
                }
            }
            if prev[k] != 0.0 {
                let l = prev[k] * WARM_FACTOR;
                s.lambda[sl] = l;
                for (b, mm) in [(b1, &m1), (b2, &m2)] {
                    let f = &mut s.fc[b as usize];
                    for c in 0..6 {
                        f[c] += mm[c] * l;
                    }
                }
            }
        }
    }
    // The warm start of the blocks: the velocity change of their λ, four
    // lanes at once (as a sweep applies its λ changes; the lanes' dynamic
    // bodies are distinct), after the other joints', whichever way the
    // blocks were filled (so a contact's bits do not depend on the path).
    for bi in 0..s.vec_block.len() {
        let slot0 = block_base + 12 * bi;
        let l = &s.lambda[slot0..slot0 + 12];
        if l.iter().any(|&x| x != 0.0) {
            let dl = [0, 1, 2].map(|k| DVec4::from_slice(&l[4 * k..]));
            let bk = &s.blocks[bi];
            #[cfg(target_arch = "x86_64")]
            if AVX2 {
                debug_assert!(bk.b1.iter().chain(&bk.b2).all(|&b| (b as usize) < s.fc.len()));
                // SAFETY: AVX2 and FMA are enabled (see above); the body indices
                // are in range by construction in `solve_rows`.
                unsafe { avx2::add_impulse_block(bk, &dl, s.fc.as_mut_ptr()) };
                continue;
            }
            let (mut v1, mut v2) = gather_block(bk, &s.fc);
            add_impulse::<false>(bk, &dl, &mut v1, &mut v2);
            scatter_block(bk, &mut s.fc, &v1, &v2);
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn fill_lanes_avx2(input: &IslandInput, island: &IslandRows, s: &mut FastScratch, cache: &ContactCache, block_base: usize) {
    fill_lanes::<true>(input, island, s, cache, block_base);
}

/// `iterations` SOR sweeps over the batches. On x86-64 processors with
/// AVX2 and FMA the same code is compiled a second time for 256-bit lanes
/// (one instruction per `DVec4` operation instead of two); both versions
/// do the same IEEE operations in the same order, but for the blocks'
/// multiply-adds, fused only in the AVX2 copy (see `fma4`).
fn sweeps(s: Sweep<'_>, order: &mut [u32], lambda: &mut [f64], fc: &mut [[f64; 6]], iterations: usize) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2_fma() {
        // SAFETY: the processor supports AVX2 and FMA (checked just above).
        unsafe { sweeps_avx2(s, order, lambda, fc, iterations) };
        return;
    }
    sweeps_generic::<false>(s, order, lambda, fc, iterations);
}

/// `x` clamped to `[lo, hi]` as x86's `maxpd(lo, x)` then `minpd(hi, ·)`
/// do it (`x < lo ? lo : x`, then `· > hi ? hi : ·`), so that the scalar
/// and the AVX2 block sweeps give the same bits, signed zeros included.
#[inline(always)]
fn clamp(x: DVec4, lo: DVec4, hi: DVec4) -> DVec4 {
    let y = DVec4::select(x.cmplt(lo), lo, x);
    DVec4::select(y.cmpgt(hi), hi, y)
}

/// What the sweeps read: the row batches, the overflow rows, the blocks
/// and the first slot of the blocks' λ. Sweep items are coded as
/// `Layout` says.
#[derive(Clone, Copy)]
struct Sweep<'a> {
    batches: &'a [Batch],
    singles: &'a [Single],
    /// Per body, for the singles (`InvMass`).
    inv_mass: &'a [InvMass],
    blocks: &'a [Block],
    block_base: usize,
    layout: Layout,
    /// Shuffle in runs (`LARGE_ISLAND_BYTES`).
    large: bool,
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn sweeps_avx2(s: Sweep<'_>, order: &mut [u32], lambda: &mut [f64], fc: &mut [[f64; 6]], iterations: usize) {
    sweeps_generic::<true>(s, order, lambda, fc, iterations);
}

/// `AVX2`: the caller runs with AVX2 enabled (only `sweeps_avx2` passes
/// true), so blocks are swept by `avx2::sweep_block`.
#[inline(always)]
fn sweeps_generic<const AVX2: bool>(s: Sweep<'_>, order: &mut [u32], lambda: &mut [f64], fc: &mut [[f64; 6]], iterations: usize) {
    // A fixed sweep order biases the solution towards the rows solved last,
    // which makes stacks creep sideways; ODE breaks that bias by shuffling
    // its rows every 8th iteration with `dRand`. Here the batches are
    // shuffled at the same iterations with a private generator seeded the
    // same way at every solve, so results stay reproducible and `dRand`
    // is never touched.
    let nbatch = order.len();
    let mut rng = SHUFFLE_SEED;
    for iteration in 0..iterations {
        if iteration >= super::quick::REORDER_FREQUENCY && iteration % super::quick::REORDER_FREQUENCY == 0 {
            if s.large {
                shuffle_runs(order, &mut rng);
            } else {
                for i in 1..nbatch {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    order.swap(i, (rng % (i as u64 + 1)) as usize);
                }
            }
        }
        for &bi in order.iter() {
            let bi = bi as usize;
            if bi < s.batches.len() {
                sweep_batch(&s.batches[bi], lambda, s.layout.batch_number(bi) * 4, fc);
            } else if bi < s.batches.len() + s.singles.len() {
                sweep_single(&s.singles[bi - s.batches.len()], s.inv_mass, lambda, fc);
            } else {
                let k = bi - s.batches.len() - s.singles.len();
                let slot0 = s.block_base + 12 * k;
                #[cfg(target_arch = "x86_64")]
                if AVX2 {
                    let bk = &s.blocks[k];
                    debug_assert!(bk.b1.iter().chain(&bk.b2).all(|&b| (b as usize) < fc.len()));
                    assert!(slot0 + 12 <= lambda.len());
                    // SAFETY: AVX2 and FMA are enabled (see above); the body
                    // indices are in range by construction in `solve_rows`
                    // and the λ range was just checked.
                    unsafe { avx2::sweep_block(bk, lambda.as_mut_ptr().add(slot0), fc.as_mut_ptr()) };
                    continue;
                }
                sweep_block::<false>(&s.blocks[k], lambda, slot0, fc);
            }
        }
    }
}

/// One projected SOR update of the four independent rows of a batch.
///
/// Body indices (`b1`, `b2`: island bodies `< nb` or lane dummies
/// `nb..nb + 4`) and friction slots (`< 4·batches + 1`) are all in range by
/// construction in `solve_rows` (checked in debug builds); indexing
/// without bounds checks removes about a tenth of the sweep's instructions.
#[inline(always)]
fn sweep_batch(bt: &Batch, lambda: &mut [f64], slot0: usize, fc: &mut [[f64; 6]]) {
    debug_assert!(bt.b1.iter().chain(&bt.b2).all(|&b| (b as usize) < fc.len()));
    debug_assert!(bt.fslot.iter().all(|&f| (f as usize) < lambda.len()) && slot0 + 4 <= lambda.len());
    let n = fc.len();
    let fcp = fc.as_mut_ptr();
    // SAFETY: every index below is < n (see above), and `fc` is borrowed
    // mutably for the whole function, so no other reference aliases it.
    let body = |b: u32| -> &mut [f64; 6] {
        debug_assert!((b as usize) < n);
        unsafe { &mut *fcp.add(b as usize) }
    };
    let gather = |b: &[u32; 4], c: usize| DVec4::new(body(b[0])[c], body(b[1])[c], body(b[2])[c], body(b[3])[c]);
    let lp = lambda.as_mut_ptr();
    // SAFETY: slot0 + 4 <= lambda.len() (see above); the four λ of the
    // batch are contiguous.
    let old = unsafe { DVec4::new(*lp.add(slot0), *lp.add(slot0 + 1), *lp.add(slot0 + 2), *lp.add(slot0 + 3)) };
    let mut delta = bt.rhs - old * bt.cfm;
    for c in 0..6 {
        delta -= bt.j1[c] * gather(&bt.b1, c) + bt.j2[c] * gather(&bt.b2, c);
    }
    // SAFETY: friction slots are < lambda.len() by construction.
    let normal = unsafe {
        DVec4::new(
            *lp.add(bt.fslot[0] as usize),
            *lp.add(bt.fslot[1] as usize),
            *lp.add(bt.fslot[2] as usize),
            *lp.add(bt.fslot[3] as usize),
        )
    };
    let f = bt.fcoef * normal.abs();
    let (lo, hi) = (bt.lo - f, bt.hi + f);
    let new = clamp(old + delta, lo, hi);
    let delta = new - old;
    // SAFETY: as for `old`.
    unsafe {
        *lp.add(slot0) = new.x;
        *lp.add(slot0 + 1) = new.y;
        *lp.add(slot0 + 2) = new.z;
        *lp.add(slot0 + 3) = new.w;
    }
    let d = delta.to_array();
    for (lane, &dl) in d.iter().enumerate() {
        let (f, m) = (body(bt.b1[lane]), &bt.m1[lane]);
        for c in 0..6 {
            f[c] += dl * m[c];
        }
        let (f, m) = (body(bt.b2[lane]), &bt.m2[lane]);
        for c in 0..6 {
            f[c] += dl * m[c];
        }
    }
}

/// `sweep_batch` for one overflow row: lane 0's operations, in the same
/// order (the padding lanes of its batch only ever add zeros to the dummy
/// body, which stays +0).
#[inline(always)]
fn sweep_single(r: &Single, inv_mass: &[InvMass], lambda: &mut [f64], fc: &mut [[f64; 6]]) {
    let (f1, f2) = (fc[r.b1 as usize], fc[r.b2 as usize]);
    let old = lambda[r.slot as usize];
    let mut delta = r.rhs - old * r.cfm;
    for c in 0..6 {
        delta -= (r.j1[c] * r.ad) * f1[c] + (r.j2[c] * r.ad) * f2[c];
    }
    let f = r.fcoef * lambda[r.fslot as usize].abs();
    let (lo, hi) = (r.lo - f, r.hi + f);
    let x = old + delta;
    // `clamp`'s selects, scalar.
    let x = if x < lo { lo } else { x };
    let new = if x > hi { hi } else { x };
    lambda[r.slot as usize] = new;
    let dl = new - old;
    // A lane dummy's record is zero: its products are ±0, which leave its
    // velocity change at +0, as the batch's exact zeros do.
    for (b, j) in [(r.b1, &r.j1), (r.b2, &r.j2)] {
        let m = inv_mass_times(&inv_mass[b as usize], j);
        let f = &mut fc[b as usize];
        for c in 0..6 {
            f[c] += dl * m[c];
        }
    }
}

/// M⁻¹·Jᵀ (unscaled) of row `k`, lane `lane`, body `side` (0 or 1), as
/// the rows were filled: the inverse mass times the linear Jacobian
/// (`−d` for body 2), then the stored angular part.
#[cfg(test)]
fn lane_m(bk: &Block, k: usize, lane: usize, side: usize) -> [f64; 6] {
    let l = lane & 3;
    let (im, ma) = if side == 0 { (bk.im1, &bk.m1a[k]) } else { (bk.im2, &bk.m2a[k]) };
    let im = im.to_array()[l];
    let d = bk.d[k].map(|v| if side == 0 { v.to_array()[l] } else { -v.to_array()[l] });
    [im * d[0], im * d[1], im * d[2], ma[0].to_array()[l], ma[1].to_array()[l], ma[2].to_array()[l]]
}

/// Makes rows `from..3` of a block lane inert (zero Jacobian, right-hand
/// side, bounds).
fn clear_rows(bk: &mut Block, lane: usize, from: usize) {
    let lane = lane & 3;
    for k in from..3 {
        for c in 0..3 {
            lanes(&mut bk.d[k][c])[lane] = 0.0;
            lanes(&mut bk.j1a[k][c])[lane] = 0.0;
            lanes(&mut bk.j2a[k][c])[lane] = 0.0;
            lanes(&mut bk.m1a[k][c])[lane] = 0.0;
            lanes(&mut bk.m2a[k][c])[lane] = 0.0;
        }
        lanes(&mut bk.ad[k])[lane] = 0.0;
        lanes(&mut bk.rhs[k])[lane] = 0.0;
        lanes(&mut bk.cfm[k])[lane] = 0.0;
        if k > 0 {
            lanes(&mut bk.fcoef[k - 1])[lane] = 0.0;
        }
    }
}

/// Makes a whole block lane inert (see `clear_rows`) and points its bodies
/// at the lane's dummy (`dummy_body + lane`).
fn clear_lane(bk: &mut Block, lane: usize, dummy_body: u32) {
    clear_rows(bk, lane, 0);
    bk.im1.as_mut()[lane & 3] = 0.0;
    bk.im2.as_mut()[lane & 3] = 0.0;
    bk.lo0.as_mut()[lane & 3] = 0.0;
    bk.hi0.as_mut()[lane & 3] = 0.0;
    bk.b1[lane & 3] = dummy_body + lane as u32;
    bk.b2[lane & 3] = dummy_body + lane as u32;
}

/// The row pairs (k, j) of `Block::a`: row j's λ change moves row k's
/// `J·v` (rows are swept 1, 2, 0).
const COUPLED: [(usize, usize); 3] = [(2, 1), (0, 1), (0, 2)];

/// Fills `bk.a` from the block's rows: `Ad_k·J_k·M⁻¹·J_jᵀ` with the
/// scaled Jacobian of row k and the unscaled M⁻¹·Jᵀ of row j as the sweep
/// applies them (linear parts `d·Ad` and `−d·Ad` against `im·d` and
/// `−im·d`). Inert rows and lanes give zero.
fn couple(bk: &mut Block) {
    for (a, &(k, j)) in bk.a.iter_mut().zip(&COUPLED) {
        let dd = (bk.d[k][0] * bk.d[j][0] + bk.d[k][1] * bk.d[j][1]) + bk.d[k][2] * bk.d[j][2];
        let mut x = bk.ad[k] * (bk.im1 * dd + bk.im2 * dd);
        for c in 0..3 {
            x += bk.j1a[k][c] * bk.m1a[j][c] + bk.j2a[k][c] * bk.m2a[j][c];
        }
        *a = x;
    }
}

/// a·b + c per lane: rounded once when `FUSED` (glam's `mul_add`, lane by
/// lane `f64::mul_add`), as the AVX2/FMA block sweep computes it, else as
/// a product and a sum. A fused chain is a third shorter than separate
/// products and sums, and the sweep is bound by their count (the block
/// sweep took 0.82 of the time without). The portable sweep, which runs on
/// processors without FMA, is unfused: `mul_add` is a libm call there, a
/// hundred times slower than a product and a sum. So the last bits of fast
/// mode's blocks differ between processors with and without FMA, as the
/// fast Step's do; the fused portable form exists to check the AVX2 sweep
/// bit for bit.
#[inline(always)]
fn fma4<const FUSED: bool>(a: DVec4, b: DVec4, c: DVec4) -> DVec4 {
    if FUSED {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

/// Row k's scaled `J·v` on lane velocities `v1`, `v2`, with `dv` the
/// linear velocity difference v₁ − v₂ (body 2's linear Jacobian is the
/// negation of body 1's): the linear part, then each angular term fused
/// onto the sum in turn.
#[inline(always)]
fn block_jv<const FUSED: bool>(bk: &Block, k: usize, dv: &[DVec4; 3], v1: &[DVec4; 6], v2: &[DVec4; 6]) -> DVec4 {
    let fma = fma4::<FUSED>;
    let d = &bk.d[k];
    let mut s = bk.ad[k] * fma(d[2], dv[2], fma(d[1], dv[1], d[0] * dv[0]));
    for c in 0..3 {
        s = fma(bk.j1a[k][c], v1[3 + c], s);
    }
    for c in 0..3 {
        s = fma(bk.j2a[k][c], v2[3 + c], s);
    }
    s
}

/// One projected SOR update of the four independent joints of a block:
/// rows 1 and 2 (friction, bounded by the normal λ of the previous sweep)
/// then row 0 of every lane, as Gauss–Seidel over the three rows.
///
/// The rows of a lane act on the same two bodies, so instead of updating
/// the velocities after each row and forming the next row's `J·v` from
/// them, the three `J·v` are formed once (independent of each other) and a
/// row's λ change is carried to the rows after it through the couplings
/// `Block::a`; the velocities take the three λ changes at the end. In
/// exact arithmetic this is the row-by-row update; it shortens the chain
/// of dependent operations per block from three dot products to one.
///
/// Body indices (island bodies `< nb` or lane dummies `nb..nb + 4`) are in
/// range by construction in `solve_rows`, and the lanes' dynamic bodies
/// are distinct (the colouring); a lane dummy and a body without inverse
/// mass receive only zero products. So the lanes' velocities are gathered
/// once, updated in registers and written back once.
#[inline(always)]
fn sweep_block<const FUSED: bool>(bk: &Block, lambda: &mut [f64], slot0: usize, fc: &mut [[f64; 6]]) {
    debug_assert!(bk.b1.iter().chain(&bk.b2).all(|&b| (b as usize) < fc.len()));
    debug_assert!(slot0 + 12 <= lambda.len());
    let (mut v1, mut v2) = gather_block(bk, fc);
    let lp = lambda.as_mut_ptr();
    // SAFETY: slot0 + 12 <= lambda.len() (see above).
    let row_ptr = |k: usize| unsafe { lp.add(slot0 + 4 * k) as *mut [f64; 4] };
    let dv = [v1[0] - v2[0], v1[1] - v2[1], v1[2] - v2[2]];
    let mut jv = [0, 1, 2].map(|k| block_jv::<FUSED>(bk, k, &dv, &v1, &v2));
    // SAFETY: as `row_ptr`.
    let old = [0, 1, 2].map(|k| DVec4::from_array(unsafe { *row_ptr(k) }));
    // Friction rows first, bounded by the normal λ of the previous sweep,
    // then the normal row (as Box2D orders a contact): with the normal row
    // first, a 5-box stack crept 1.4 cm in 10 s against ODE's 0.7 cm,
    // with this order 0.3 cm.
    let normal = old[0].abs();
    let mut dl = [DVec4::ZERO; 3];
    for k in [1, 2, 0] {
        let (lo, hi) = if k == 0 {
            (bk.lo0, bk.hi0)
        } else {
            let f = bk.fcoef[k - 1] * normal;
            (-f, f)
        };
        let delta = fma4::<FUSED>(-old[k], bk.cfm[k], bk.rhs[k]) - jv[k];
        let new = clamp(old[k] + delta, lo, hi);
        dl[k] = new - old[k];
        // SAFETY: as `row_ptr`.
        unsafe { *row_ptr(k) = new.to_array() };
        for (a, &(i, j)) in bk.a.iter().zip(&COUPLED) {
            if j == k {
                jv[i] = fma4::<FUSED>(*a, dl[k], jv[i]);
            }
        }
    }
    add_impulse::<FUSED>(bk, &dl, &mut v1, &mut v2);
    scatter_block(bk, fc, &v1, &v2);
}

/// The velocities of a block's lanes, body 1 and body 2, component by
/// component (lanes' body indices `< fc.len()` by construction).
#[inline(always)]
fn gather_block(bk: &Block, fc: &[[f64; 6]]) -> ([DVec4; 6], [DVec4; 6]) {
    let gather = |b: &[u32; 4], c: usize| DVec4::new(fc[b[0] as usize][c], fc[b[1] as usize][c], fc[b[2] as usize][c], fc[b[3] as usize][c]);
    (std::array::from_fn(|c| gather(&bk.b1, c)), std::array::from_fn(|c| gather(&bk.b2, c)))
}

/// The inverse of `gather_block`, body 1 then body 2 (a lane whose two
/// bodies are both its dummy keeps body 2's values).
#[inline(always)]
fn scatter_block(bk: &Block, fc: &mut [[f64; 6]], v1: &[DVec4; 6], v2: &[DVec4; 6]) {
    for c in 0..6 {
        let (a, b) = (v1[c].to_array(), v2[c].to_array());
        for lane in 0..4 {
            fc[bk.b1[lane] as usize][c] = a[lane];
        }
        for lane in 0..4 {
            fc[bk.b2[lane] as usize][c] = b[lane];
        }
    }
}

/// Adds M⁻¹·Jᵀ·dl to the lanes' velocities, `dl` the λ changes of rows
/// 0, 1, 2 (fused as `block_jv`).
#[inline(always)]
fn add_impulse<const FUSED: bool>(bk: &Block, dl: &[DVec4; 3], v1: &mut [DVec4; 6], v2: &mut [DVec4; 6]) {
    let fma = fma4::<FUSED>;
    for c in 0..3 {
        let p = fma(bk.d[2][c], dl[2], fma(bk.d[1][c], dl[1], bk.d[0][c] * dl[0]));
        v1[c] = fma(bk.im1, p, v1[c]);
        v2[c] = fma(-bk.im2, p, v2[c]);
        for (v, m) in [(&mut v1[3 + c], &bk.m1a), (&mut v2[3 + c], &bk.m2a)] {
            *v = fma(m[2][c], dl[2], fma(m[1][c], dl[1], fma(m[0][c], dl[0], *v)));
        }
    }
}

/// `sweep_block` with AVX2 and FMA intrinsics. The lanes' velocities are
/// gathered with 128-bit loads and in-lane unpacks (`gather`) and
/// scattered back the same way, instead of 24 scalar loads and inserts
/// (extracts and stores) per side. The arithmetic is the fused portable
/// sweep's (`sweep_block::<true>`), operation for operation (`clamp` as
/// `maxpd`/`minpd`), so the result equals it bit for bit.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::Block;
    use core::arch::x86_64::*;
    use glam::DVec4;

    /// Component c of bodies `b[0..4]` in lanes 0..4 of element c. Each
    /// register first takes a pair of components of lanes 0 and 2 (or 1
    /// and 3) as two 128-bit loads, which the processor joins without its
    /// shuffle unit; one in-lane unpack per component then finishes the
    /// transpose (6 shuffles a side instead of 14: the block sweep with
    /// fused multiply-adds is bound by its shuffles).
    #[inline(always)]
    unsafe fn gather(fc: *const [f64; 6], b: &[u32; 4]) -> [__m256d; 6] {
        let p = |l: usize| fc.add(b[l] as usize) as *const f64;
        let pair = |c: usize, l: usize| halves(p(l).add(c), p(l + 2).add(c));
        let mut v = [_mm256_setzero_pd(); 6];
        for c in [0, 2, 4] {
            // Lanes (0, 2) and (1, 3), components c and c + 1.
            let (even, odd) = (pair(c, 0), pair(c, 1));
            v[c] = _mm256_unpacklo_pd(even, odd);
            v[c + 1] = _mm256_unpackhi_pd(even, odd);
        }
        v
    }

    /// Two 128-bit loads, from `lo` into lanes 0-1 and from `hi` into
    /// lanes 2-3 (joined without the shuffle unit).
    #[inline(always)]
    unsafe fn halves(lo: *const f64, hi: *const f64) -> __m256d {
        _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(lo)), _mm_loadu_pd(hi), 1)
    }

    #[inline(always)]
    fn dvec(v: __m256d) -> DVec4 {
        // SAFETY: both are four f64.
        DVec4::from_array(unsafe { core::mem::transmute::<__m256d, [f64; 4]>(v) })
    }

    /// `gather` from a read-only array, as `DVec4`s (the fill's `tmp`).
    ///
    /// # Safety
    /// AVX2 is enabled; every `b[l]` indexes the array.
    #[inline(always)]
    pub(super) unsafe fn gather_rows(t: *const [f64; 6], b: [usize; 4]) -> [DVec4; 6] {
        gather(t, &b.map(|x| x as u32)).map(dvec)
    }

    /// The 3×3 parts of four padded 3×4 matrices (rows of four, the
    /// fourth unused): element 3r + c holds entry (r, c) of the four.
    ///
    /// # Safety
    /// AVX2 is enabled.
    #[inline(always)]
    pub(super) unsafe fn gather_inertia(m: [&[f64; 12]; 4]) -> [DVec4; 9] {
        let p = |l: usize| m[l].as_ptr();
        let mut v = [DVec4::ZERO; 9];
        for r in 0..3 {
            let at = |l: usize, c: usize| p(l).add(4 * r + c);
            // Columns 0 and 1, then 2 (and the unused 3).
            let (even, odd) = (halves(at(0, 0), at(2, 0)), halves(at(1, 0), at(3, 0)));
            v[3 * r] = dvec(_mm256_unpacklo_pd(even, odd));
            v[3 * r + 1] = dvec(_mm256_unpackhi_pd(even, odd));
            let (even, odd) = (halves(at(0, 2), at(2, 2)), halves(at(1, 2), at(3, 2)));
            v[3 * r + 2] = dvec(_mm256_unpacklo_pd(even, odd));
        }
        v
    }

    /// The inverse of `gather` (the lanes' bodies are distinct, see
    /// `sweep_block`, so the order of the stores does not matter).
    #[inline(always)]
    unsafe fn scatter(fc: *mut [f64; 6], b: &[u32; 4], v: &[__m256d; 6]) {
        let p = |l: usize| fc.add(b[l] as usize) as *mut f64;
        for c in [0, 2, 4] {
            let even = _mm256_unpacklo_pd(v[c], v[c + 1]);
            let odd = _mm256_unpackhi_pd(v[c], v[c + 1]);
            _mm_storeu_pd(p(0).add(c), _mm256_castpd256_pd128(even));
            _mm_storeu_pd(p(2).add(c), _mm256_extractf128_pd(even, 1));
            _mm_storeu_pd(p(1).add(c), _mm256_castpd256_pd128(odd));
            _mm_storeu_pd(p(3).add(c), _mm256_extractf128_pd(odd, 1));
        }
    }

    #[inline(always)]
    unsafe fn ld(v: &DVec4) -> __m256d {
        _mm256_loadu_pd(v as *const DVec4 as *const f64)
    }

    /// `super::block_jv`.
    #[inline(always)]
    unsafe fn jv(bk: &Block, k: usize, dv: &[__m256d; 3], v1: &[__m256d; 6], v2: &[__m256d; 6]) -> __m256d {
        let d = &bk.d[k];
        let lin = _mm256_fmadd_pd(ld(&d[1]), dv[1], _mm256_mul_pd(ld(&d[0]), dv[0]));
        let mut s = _mm256_mul_pd(ld(&bk.ad[k]), _mm256_fmadd_pd(ld(&d[2]), dv[2], lin));
        for c in 0..3 {
            s = _mm256_fmadd_pd(ld(&bk.j1a[k][c]), v1[3 + c], s);
        }
        for c in 0..3 {
            s = _mm256_fmadd_pd(ld(&bk.j2a[k][c]), v2[3 + c], s);
        }
        s
    }

    /// `super::add_impulse` on the velocities of the block's bodies in
    /// `fc` (the fill's warm start), gathered and scattered as the sweep
    /// does: the same values as `gather_block`/`scatter_block`.
    ///
    /// # Safety
    /// AVX2 must be available; every body index of the block a valid
    /// element of the array at `fc`.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    pub unsafe fn add_impulse_block(bk: &Block, dl: &[DVec4; 3], fc: *mut [f64; 6]) {
        // SAFETY (transmutes): `__m256d` and `[f64; 4]` are 32 bytes of
        // four f64 lanes in order.
        let to = |v: [__m256d; 6]| v.map(|x| DVec4::from_array(core::mem::transmute::<__m256d, [f64; 4]>(x)));
        let from = |v: &[DVec4; 6]| v.map(|x| core::mem::transmute::<[f64; 4], __m256d>(x.to_array()));
        let mut v1 = to(gather(fc, &bk.b1));
        let mut v2 = to(gather(fc, &bk.b2));
        super::add_impulse::<true>(bk, dl, &mut v1, &mut v2);
        scatter(fc, &bk.b1, &from(&v1));
        scatter(fc, &bk.b2, &from(&v2));
    }

    /// `super::sweep_block` for the block whose 12 λ start at `lp`.
    ///
    /// # Safety
    /// AVX2 must be available; `lp..lp + 12` must be valid, and every body
    /// index of the block a valid element of the array at `fc` (lanes'
    /// dynamic bodies distinct, as the colouring makes them).
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    pub unsafe fn sweep_block(bk: &Block, lp: *mut f64, fc: *mut [f64; 6]) {
        let (add, sub, mul) = (|a, b| _mm256_add_pd(a, b), |a, b| _mm256_sub_pd(a, b), |a, b| _mm256_mul_pd(a, b));
        let fma = |a, b, c| _mm256_fmadd_pd(a, b, c);
        let mut v1 = gather(fc, &bk.b1);
        let mut v2 = gather(fc, &bk.b2);
        let dv = [sub(v1[0], v2[0]), sub(v1[1], v2[1]), sub(v1[2], v2[2])];
        let mut j = [0, 1, 2].map(|k| jv(bk, k, &dv, &v1, &v2));
        let old = [0, 1, 2].map(|k| _mm256_loadu_pd(lp.add(4 * k)));
        let sign = _mm256_set1_pd(-0.0);
        let normal = _mm256_andnot_pd(sign, old[0]);
        let mut dl = [_mm256_setzero_pd(); 3];
        for k in [1, 2, 0] {
            let (lo, hi) = if k == 0 {
                (ld(&bk.lo0), ld(&bk.hi0))
            } else {
                let f = mul(ld(&bk.fcoef[k - 1]), normal);
                (_mm256_xor_pd(f, sign), f)
            };
            let delta = sub(_mm256_fnmadd_pd(old[k], ld(&bk.cfm[k]), ld(&bk.rhs[k])), j[k]);
            let new = _mm256_min_pd(hi, _mm256_max_pd(lo, add(old[k], delta)));
            dl[k] = sub(new, old[k]);
            _mm256_storeu_pd(lp.add(4 * k), new);
            for (a, &(i, jj)) in bk.a.iter().zip(&super::COUPLED) {
                if jj == k {
                    j[i] = fma(ld(a), dl[k], j[i]);
                }
            }
        }
        let (im1, im2) = (ld(&bk.im1), ld(&bk.im2));
        // `super::add_impulse`.
        let comb = |m: &[[DVec4; 3]; 3], c: usize, acc| fma(ld(&m[2][c]), dl[2], fma(ld(&m[1][c]), dl[1], acc));
        for c in 0..3 {
            let p = comb(&bk.d, c, mul(ld(&bk.d[0][c]), dl[0]));
            v1[c] = fma(im1, p, v1[c]);
            v2[c] = _mm256_fnmadd_pd(im2, p, v2[c]);
            v1[3 + c] = comb(&bk.m1a, c, fma(ld(&bk.m1a[0][c]), dl[0], v1[3 + c]));
            v2[3 + c] = comb(&bk.m2a, c, fma(ld(&bk.m2a[0][c]), dl[0], v2[3 + c]));
        }
        scatter(fc, &bk.b1, &v1);
        scatter(fc, &bk.b2, &v2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xorshift64 values in [-1, 1).
    fn uniform(state: &mut u64) -> f64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        (*state >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }

    /// Random Jacobians, scales, M⁻¹·Jᵀ angular parts and inverse masses
    /// for every row and lane of `bk`.
    /// `x` equals `reference` to rounding: the block sweep carries the
    /// rows' `J·v` through the couplings instead of recomputing them from
    /// the velocities, the same update in exact arithmetic.
    fn assert_close(x: &[f64], reference: &[f64], what: &str) {
        let scale = reference.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        for (i, (a, b)) in x.iter().zip(reference).enumerate() {
            assert!((a - b).abs() <= 1e-12 * scale, "{what}: element {i}: {a} against {b}");
        }
        assert_eq!(x.len(), reference.len(), "{what}");
    }

    /// Distinct dynamic bodies (of `nb`) for a block's lanes, shuffled;
    /// lane l's body 1 on its dummy (`nb + l`) when `(case + l)` is a
    /// multiple of `every[0]`, body 2 when of `every[1]`, and lane 3 a
    /// padding lane (inert rows on the dummy) when `case` is a multiple of
    /// `every[2]`.
    fn random_lane_bodies(bk: &mut Block, r: &mut u64, nb: usize, case: usize, every: [usize; 3]) {
        let mut perm: Vec<u32> = (0..nb as u32).collect();
        for i in (1..perm.len()).rev() {
            let j = ((uniform(r) + 1.0) * 0.5 * (i + 1) as f64) as usize % (i + 1);
            perm.swap(i, j);
        }
        for lane in 0..4 {
            let dummy = nb as u32 + lane as u32;
            bk.b1[lane] = if (case + lane).is_multiple_of(every[0]) { dummy } else { perm[2 * lane] };
            bk.b2[lane] = if (case + lane).is_multiple_of(every[1]) { dummy } else { perm[2 * lane + 1] };
            if case.is_multiple_of(every[2]) && lane == 3 {
                clear_lane(bk, lane, nb as u32);
            }
        }
    }

    fn random_rows(bk: &mut Block, r: &mut u64) {
        for k in 0..3 {
            for c in 0..3 {
                for lane in 0..4 {
                    lanes(&mut bk.d[k][c])[lane] = uniform(r);
                    lanes(&mut bk.j1a[k][c])[lane] = uniform(r);
                    lanes(&mut bk.j2a[k][c])[lane] = uniform(r);
                    lanes(&mut bk.m1a[k][c])[lane] = uniform(r);
                    lanes(&mut bk.m2a[k][c])[lane] = uniform(r);
                }
            }
        }
        for k in 0..3 {
            for lane in 0..4 {
                lanes(&mut bk.ad[k])[lane] = uniform(r).abs() + 0.1;
            }
        }
        for lane in 0..4 {
            lanes(&mut bk.im1)[lane] = uniform(r).abs();
            lanes(&mut bk.im2)[lane] = uniform(r).abs();
        }
    }

    /// The compact block row (body 2's linear Jacobian and both linear
    /// M⁻¹·Jᵀ parts not stored) is the projected Gauss–Seidel update with
    /// the full rows J₁ = (d·ad, j1a), J₂ = (−d·ad, j2a), M⁻¹Jᵀ = (m₁·d, m1a),
    /// (m₂·(−d), m2a), friction rows then the normal row, each lane on its
    /// own bodies: a plain scalar sweep over the full 12-element rows gives
    /// the same values to rounding (the full rows are what the blocks held
    /// before; the block carries `J·v` through `Block::a`).
    #[test]
    fn compact_block_sweep_is_the_full_row_update() {
        let mut rng = 0x0DDB_1A5E_5BAD_5EEDu64;
        for case in 0..500 {
            let r = &mut rng;
            let mut bk = Block::default();
            random_rows(&mut bk, r);
            couple(&mut bk);
            for k in 0..3 {
                for lane in 0..4 {
                    lanes(&mut bk.rhs[k])[lane] = 5.0 * uniform(r);
                    lanes(&mut bk.cfm[k])[lane] = uniform(r).abs() * 0.1;
                    if k > 0 {
                        lanes(&mut bk.fcoef[k - 1])[lane] = uniform(r).abs();
                    }
                }
            }
            for lane in 0..4 {
                lanes(&mut bk.lo0)[lane] = if case % 2 == 0 { 0.0 } else { -uniform(r).abs() };
                lanes(&mut bk.hi0)[lane] = if case % 3 == 0 { f64::INFINITY } else { uniform(r).abs() * 3.0 };
                bk.b1[lane] = 2 * lane as u32;
                bk.b2[lane] = 2 * lane as u32 + 1;
            }
            let mut lambda: Vec<f64> = (0..12).map(|_| uniform(r)).collect();
            let mut fc: Vec<[f64; 6]> = (0..8).map(|_| std::array::from_fn(|_| uniform(r))).collect();
            let (mut lambda_ref, mut fc_ref) = (lambda.clone(), fc.clone());
            let (mut lambda_fused, mut fc_fused) = (lambda.clone(), fc.clone());
            for _ in 0..2 {
                sweep_block::<false>(&bk, &mut lambda, 0, &mut fc);
                sweep_block::<true>(&bk, &mut lambda_fused, 0, &mut fc_fused);
                // Reference: lane by lane, rows 1, 2 then 0, full rows.
                for lane in 0..4 {
                    let at = |v: DVec4| v.to_array()[lane];
                    let normal = lambda_ref[lane].abs();
                    for k in [1, 2, 0] {
                        let jl = bk.d[k].map(|d| at(d * bk.ad[k]));
                        let (j1a, j2a) = (bk.j1a[k].map(at), bk.j2a[k].map(at));
                        let j1 = [jl[0], jl[1], jl[2], j1a[0], j1a[1], j1a[2]];
                        let j2 = [-jl[0], -jl[1], -jl[2], j2a[0], j2a[1], j2a[2]];
                        let (m1, m2) = (lane_m(&bk, k, lane, 0), lane_m(&bk, k, lane, 1));
                        let (b1, b2) = (bk.b1[lane] as usize, bk.b2[lane] as usize);
                        let slot = 4 * k + lane;
                        let old = lambda_ref[slot];
                        let mut delta = at(bk.rhs[k]) - old * at(bk.cfm[k]);
                        for c in 0..6 {
                            delta -= j1[c] * fc_ref[b1][c] + j2[c] * fc_ref[b2][c];
                        }
                        let (lo, hi) = if k == 0 {
                            (at(bk.lo0), at(bk.hi0))
                        } else {
                            let f = at(bk.fcoef[k - 1]) * normal;
                            (-f, f)
                        };
                        let new = (old + delta).clamp(lo, hi);
                        lambda_ref[slot] = new;
                        for c in 0..6 {
                            fc_ref[b1][c] += m1[c] * (new - old);
                            fc_ref[b2][c] += m2[c] * (new - old);
                        }
                    }
                }
            }
            assert_close(&lambda, &lambda_ref, &format!("λ, case {case}"));
            assert_close(fc.as_flattened(), fc_ref.as_flattened(), &format!("velocities, case {case}"));
            assert_close(&lambda_fused, &lambda_ref, &format!("fused λ, case {case}"));
            assert_close(fc_fused.as_flattened(), fc_ref.as_flattened(), &format!("fused velocities, case {case}"));
        }
    }

    /// The AVX2 block sweep gives the fused portable sweep's bits (λ and every
    /// body velocity, dummies included) on random blocks: rows clamped at
    /// both bounds, friction bounds of either sign of the normal λ, exact
    /// zeros (λ at 0 meeting lo = −0), lanes on the static dummy or padding.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_block_sweep_matches_portable_bits() {
        if !has_avx2_fma() {
            return;
        }
        let mut rng = 0x1234_5678_9ABC_DEF1u64;
        let nb = 9; // bodies 0..8, lane dummies 9..12
        for case in 0..2000 {
            let mut bk = Block::default();
            let r = &mut rng;
            random_rows(&mut bk, r);
            couple(&mut bk);
            for k in 0..3 {
                for lane in 0..4 {
                    lanes(&mut bk.rhs[k])[lane] = 10.0 * uniform(r);
                    lanes(&mut bk.cfm[k])[lane] = uniform(r).abs() * 0.1;
                    if k > 0 {
                        lanes(&mut bk.fcoef[k - 1])[lane] = uniform(r).abs();
                    }
                }
            }
            for lane in 0..4 {
                lanes(&mut bk.lo0)[lane] = if case % 3 == 0 { -0.0 } else { -uniform(r).abs() };
                lanes(&mut bk.hi0)[lane] = if case % 5 == 0 { 0.0 } else { uniform(r).abs() * 5.0 };
            }
            random_lane_bodies(&mut bk, r, nb, case, [7, 3, 11]);
            let mut lambda: Vec<f64> = (0..12).map(|i| if i % 4 == case % 4 { 0.0 } else { uniform(r) }).collect();
            let mut fc: Vec<[f64; 6]> = (0..nb + 4).map(|_| [0.0; 6]).collect();
            for f in fc.iter_mut().take(nb) {
                for v in f.iter_mut() {
                    *v = uniform(r);
                }
            }
            let (mut lambda2, mut fc2) = (lambda.clone(), fc.clone());
            for _ in 0..3 {
                sweep_block::<true>(&bk, &mut lambda, 0, &mut fc);
                // SAFETY: AVX2 and FMA checked above; 12 λ; body indices < nb + 4.
                unsafe { avx2::sweep_block(&bk, lambda2.as_mut_ptr(), fc2.as_mut_ptr()) };
            }
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&lambda), bits(&lambda2), "λ, case {case}");
            assert_eq!(bits(fc.as_flattened()), bits(fc2.as_flattened()), "velocities, case {case}");
        }
    }

    /// The fill's AVX2 warm start of a block (`avx2::add_impulse_block`)
    /// gives the bits of the portable `gather_block`, `add_impulse`,
    /// `scatter_block` on every body, dummies included: lanes on their
    /// dummy on one side or both (padding), λ changes of either sign and
    /// exact zeros.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_block_warm_start_matches_portable_bits() {
        if !has_avx2_fma() {
            return;
        }
        let mut rng = 0x5DEE_CE66_D1CE_4E5Bu64;
        let nb = 9; // bodies 0..8, lane dummies 9..12
        for case in 0..500 {
            let mut bk = Block::default();
            let r = &mut rng;
            random_rows(&mut bk, r);
            random_lane_bodies(&mut bk, r, nb, case, [5, 3, 7]);
            let dl = [0, 1, 2].map(|_| DVec4::from_array([0, 1, 2, 3].map(|l| if (case + l) % 6 == 0 { 0.0 } else { uniform(r) })));
            let fc: Vec<[f64; 6]> = (0..nb + 4).map(|_| std::array::from_fn(|_| uniform(r))).collect();
            let mut portable = fc.clone();
            let (mut v1, mut v2) = gather_block(&bk, &portable);
            add_impulse::<true>(&bk, &dl, &mut v1, &mut v2);
            scatter_block(&bk, &mut portable, &v1, &v2);
            let mut vector = fc;
            // SAFETY: AVX2 and FMA checked above; body indices < nb + 4.
            unsafe { avx2::add_impulse_block(&bk, &dl, vector.as_mut_ptr()) };
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(vector.as_flattened()), bits(portable.as_flattened()), "case {case}");
        }
    }

    /// A block filled from `Row`s (`fill_block_lane`) and swept, with the
    /// scaled linear Jacobian formed in the sweep as `d·Ad`, gives (to
    /// rounding; the AVX2 sweep bit for bit the fused portable one) the values
    /// of the projected Gauss–Seidel update over the rows as the blocks
    /// stored them before: every Jacobian scaled by `Ad = w / (J·M⁻¹·Jᵀ +
    /// cfm/h)` at fill time, right-hand side and CFM scaled, M⁻¹·Jᵀ from the
    /// inverse mass and inertia; friction rows (bounded by the normal λ)
    /// then the normal row; one lane on the static environment.
    #[test]
    fn block_from_rows_sweeps_as_the_scaled_rows() {
        let mut r = 0x5EED_0FB1_0C5E_ED0F_u64;
        let nb = 8;
        let dummy = nb as u32;
        for case in 0..300 {
            let r = &mut r;
            let inv_mass: Vec<f64> = (0..nb).map(|_| 0.2 + uniform(r).abs()).collect();
            let inv_i: Vec<[f64; 12]> = (0..nb).map(|_| std::array::from_fn(|_| uniform(r))).collect();
            let mut tmp: Vec<[f64; 6]> = (0..nb).map(|_| std::array::from_fn(|_| 3.0 * uniform(r))).collect();
            tmp.push([0.0; 6]);
            let (hinv, w) = (100.0, 1.3);
            // Lane l: bodies 2l and 2l + 1; lane 3 on the static environment.
            let bodies: [[u32; 2]; 4] = std::array::from_fn(|l| [2 * l as u32, if l == 3 { dummy } else { 2 * l as u32 + 1 }]);
            let rows: Vec<[Row; 3]> = (0..4)
                .map(|l| {
                    std::array::from_fn(|k| {
                        let j1l = [uniform(r), uniform(r), uniform(r)];
                        let no2 = bodies[l][1] == dummy;
                        Row {
                            j1l,
                            j1a: [uniform(r), uniform(r), uniform(r)],
                            j2l: if no2 { [0.0; 3] } else { j1l.map(|x| -x) },
                            j2a: if no2 { [0.0; 3] } else { [uniform(r), uniform(r), uniform(r)] },
                            c: uniform(r),
                            cfm: 1e-3 * uniform(r).abs(),
                            lo: if k == 0 { -0.1 * uniform(r).abs() } else { -0.6 },
                            hi: if k == 0 { f64::INFINITY } else { 0.6 + 0.1 * k as f64 },
                            findex: if k == 0 { -1 } else { 0 },
                        }
                    })
                })
                .collect();
            let mut bk = Block::default();
            let mut lambda = vec![0.0; 12];
            for (lane, rs) in rows.iter().enumerate() {
                let f = LaneFill {
                    lane,
                    bodies: bodies[lane],
                    lane_bodies: bodies[lane].map(|b| if b == dummy { dummy + lane as u32 } else { b }),
                    hinv,
                    w,
                    prev: [0.0; 6],
                    slot0: lane,
                };
                let side = |b: u32| (b != dummy).then(|| (inv_mass[b as usize], &inv_i[b as usize]));
                let sides = [side(f.bodies[0]), side(f.bodies[1])];
                fill_block_lane(&f, &sides, rs, &mut bk, &tmp, &mut lambda);
            }
            couple(&mut bk);
            // Start from random λ and velocities (the dummies at zero).
            let mut lambda: Vec<f64> = (0..12).map(|i| if (i + case) % 5 == 0 { 0.0 } else { uniform(r) }).collect();
            let mut fc: Vec<[f64; 6]> = (0..nb + 4).map(|b| if b < nb { std::array::from_fn(|_| uniform(r)) } else { [0.0; 6] }).collect();
            let (mut lambda_ref, mut fc_ref) = (lambda.clone(), fc.clone());
            // The rows as stored before: full, scaled at fill time.
            struct Scaled {
                j1: [f64; 6],
                j2: [f64; 6],
                m1: [f64; 6],
                m2: [f64; 6],
                rhs: f64,
                cfm: f64,
            }
            let scaled: Vec<Vec<Scaled>> = rows
                .iter()
                .enumerate()
                .map(|(lane, rs)| {
                    rs.iter()
                        .map(|row| {
                            let j1 = [row.j1l[0], row.j1l[1], row.j1l[2], row.j1a[0], row.j1a[1], row.j1a[2]];
                            let j2 = [row.j2l[0], row.j2l[1], row.j2l[2], row.j2a[0], row.j2a[1], row.j2a[2]];
                            let m = |j: &[f64; 6], b: u32| {
                                if b == dummy {
                                    return [0.0; 6];
                                }
                                let (im, a) = (inv_mass[b as usize], mul0_331(&inv_i[b as usize], &j[3..]));
                                [im * j[0], im * j[1], im * j[2], a[0], a[1], a[2]]
                            };
                            let (m1, m2) = (m(&j1, bodies[lane][0]), m(&j2, bodies[lane][1]));
                            let (t1, t2) = (&tmp[bodies[lane][0] as usize], &tmp[bodies[lane][1] as usize]);
                            let (mut jmj, mut jt) = (0.0, 0.0);
                            for c in 0..6 {
                                jmj += j1[c] * m1[c] + j2[c] * m2[c];
                                jt += j1[c] * t1[c] + j2[c] * t2[c];
                            }
                            let cfm = row.cfm * hinv;
                            let ad = w / (jmj + cfm);
                            Scaled { j1: j1.map(|x| x * ad), j2: j2.map(|x| x * ad), m1, m2, rhs: (row.c * hinv + jt) * ad, cfm: cfm * ad }
                        })
                        .collect()
                })
                .collect();
            #[cfg(target_arch = "x86_64")]
            let avx2 = has_avx2_fma();
            let (mut lambda2, mut fc2) = (lambda.clone(), fc.clone());
            let (mut lambda_fused, mut fc_fused) = (lambda.clone(), fc.clone());
            for _ in 0..2 {
                sweep_block::<false>(&bk, &mut lambda, 0, &mut fc);
                sweep_block::<true>(&bk, &mut lambda_fused, 0, &mut fc_fused);
                #[cfg(target_arch = "x86_64")]
                if avx2 {
                    // SAFETY: AVX2 and FMA checked above; 12 λ; body indices < nb + 4.
                    unsafe { avx2::sweep_block(&bk, lambda2.as_mut_ptr(), fc2.as_mut_ptr()) };
                }
                for lane in 0..4 {
                    let b = bk.b1[lane] as usize;
                    let b2 = bk.b2[lane] as usize;
                    let normal = lambda_ref[lane].abs();
                    for k in [1, 2, 0] {
                        let (s, row) = (&scaled[lane][k], &rows[lane][k]);
                        let slot = 4 * k + lane;
                        let old = lambda_ref[slot];
                        let mut delta = s.rhs - old * s.cfm;
                        for c in 0..6 {
                            delta -= s.j1[c] * fc_ref[b][c] + s.j2[c] * fc_ref[b2][c];
                        }
                        let (lo, hi) = if k == 0 { (row.lo, row.hi) } else { (-(row.hi.abs() * normal), row.hi.abs() * normal) };
                        let new = (old + delta).clamp(lo, hi);
                        lambda_ref[slot] = new;
                        for c in 0..6 {
                            fc_ref[b][c] += s.m1[c] * (new - old);
                            fc_ref[b2][c] += s.m2[c] * (new - old);
                        }
                    }
                }
            }
            assert_close(&lambda, &lambda_ref, &format!("λ, case {case}"));
            assert_close(fc.as_flattened(), fc_ref.as_flattened(), &format!("velocities, case {case}"));
            assert_close(&lambda_fused, &lambda_ref, &format!("fused λ, case {case}"));
            assert_close(fc_fused.as_flattened(), fc_ref.as_flattened(), &format!("fused velocities, case {case}"));
            #[cfg(target_arch = "x86_64")]
            if avx2 {
                let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&lambda2), bits(&lambda_fused), "AVX2 λ, case {case}");
                assert_eq!(bits(fc2.as_flattened()), bits(fc_fused.as_flattened()), "AVX2 velocities, case {case}");
            }
        }
    }

    /// Every value of a block, as bits.
    fn block_bits(bk: &Block) -> Vec<u64> {
        let mut v: Vec<DVec4> = Vec::new();
        for a in [&bk.d, &bk.j1a, &bk.j2a, &bk.m1a, &bk.m2a] {
            v.extend(a.iter().flatten());
        }
        v.extend(bk.ad);
        v.extend([bk.im1, bk.im2, bk.lo0, bk.hi0]);
        v.extend(bk.rhs.iter().chain(&bk.cfm).chain(&bk.fcoef));
        let mut out: Vec<u64> = v.iter().flat_map(|x| x.to_array().map(f64::to_bits)).collect();
        out.extend(bk.b1.iter().chain(&bk.b2).map(|&b| b as u64));
        out
    }

    /// `fill_contact_block` (four plain contacts at once) writes the same
    /// bits into a block as `fill_contact_lane` does lane by lane: contacts
    /// between two bodies, on one body (attached either way round), with a
    /// body without inverse mass, with soft ERP/CFM, motion and slip.
    #[test]
    fn contact_block_fill_matches_lane_fill_bit_for_bit() {
        use crate::dynamics::body::create_body;
        use crate::dynamics::world::create_world;
        use crate::joints::contact::{ContactPoint, Surface};
        use crate::joints::object::{attach, create_joint, destroy_world};
        let mut r = 0x2545_f491_4f6c_dd1d_u64;
        let w = create_world();
        let nb = 5;
        let bodies: Vec<_> = (0..nb).map(|_| create_body(w)).collect();
        for (i, b) in bodies.iter().enumerate() {
            let b = b.get_mut();
            for c in 0..3 {
                b.pos[c] = 3.0 * uniform(&mut r);
            }
            b.inv_mass = if i == 4 { 0.0 } else { 1.5 + uniform(&mut r) };
        }
        let inv_i: Vec<[f64; 12]> = (0..nb).map(|_| std::array::from_fn(|_| uniform(&mut r))).collect();
        let mut tmp: Vec<[f64; 6]> = (0..nb).map(|_| std::array::from_fn(|_| 4.0 * uniform(&mut r))).collect();
        tmp.push([0.0; 6]);
        let approx = cmode::APPROX1_1 | cmode::APPROX1_2;
        // (body 1, body 2, mode, mu, mu2) per lane.
        let lanes_in = [
            (Some(0), Some(1), approx | cmode::MU2, 0.5, 0.7),
            (None, Some(2), approx | cmode::SOFT_CFM, 1.0, 0.0),
            (Some(3), Some(4), approx | cmode::MOTION1 | cmode::MOTION2 | cmode::SLIP1 | cmode::SLIP2, 0.3, 0.0),
            (Some(1), None, approx | cmode::SOFT_ERP | cmode::MOTION_N, 2.0, 0.0),
        ];
        let mut island = IslandRows::default();
        for &(b1, b2, mode, mu, mu2) in &lanes_in {
            let mut n = [uniform(&mut r), uniform(&mut r), uniform(&mut r)];
            let len = dot3(&n, &n).sqrt();
            n.iter_mut().for_each(|x| *x /= len);
            let surface = Surface {
                mode,
                mu,
                mu2,
                soft_erp: 0.3,
                soft_cfm: 1e-4,
                motion1: 0.1,
                motion2: -0.2,
                motion_n: 0.05,
                slip1: 1e-3,
                slip2: 2e-3,
                ..Surface::default()
            };
            let point = ContactPoint {
                pos: [uniform(&mut r), uniform(&mut r), uniform(&mut r)],
                normal: n,
                depth: 0.01 + 0.01 * uniform(&mut r),
                g1: std::ptr::null_mut(),
                g2: std::ptr::null_mut(),
                side1: 0,
                side2: 0,
            };
            let j = create_joint(w, None, JointKind::Contact(ContactJoint::new(surface, point, [0.0; 3])));
            attach(j, b1.map(|i: usize| bodies[i]), b2.map(|i: usize| bodies[i]));
            // Island indices after REVERSE normalisation (body 1 set
            // whenever any body is).
            let index = |b: Option<crate::dynamics::body::BodyRef>| b.map(|b| bodies.iter().position(|&x| x == b).unwrap());
            let head = &j.get().head;
            island.joints.push(JointSlot { joint: j, row0: 0, m: 3, nub: 1, b1: index(head.body[0]), b2: index(head.body[1]) });
        }
        let world = w.get();
        let input = IslandInput { world, bodies: &bodies, inv_i: &inv_i, h: 0.01 };
        let hinv = 1.0 / input.h;
        let mut four = Block::default();
        fill_contact_block::<false>(&input, &island, [0, 1, 2, 3], &mut four, &tmp, hinv, &mut [PlainLane::default(); 4]);
        // The AVX2 form gathers the bodies' data differently: the same
        // bits.
        #[cfg(target_arch = "x86_64")]
        if has_avx2_fma() {
            #[target_feature(enable = "avx2,fma")]
            unsafe fn fill_avx2(input: &IslandInput, island: &IslandRows, bk: &mut Block, tmp: &[[f64; 6]], hinv: f64) {
                fill_contact_block::<true>(input, island, [0, 1, 2, 3], bk, tmp, hinv, &mut [PlainLane::default(); 4]);
            }
            let mut avx = Block::default();
            // SAFETY: the processor has AVX2 and FMA (checked just above).
            unsafe { fill_avx2(&input, &island, &mut avx, &tmp, hinv) };
            assert_eq!(block_bits(&avx), block_bits(&four));
        }
        let mut one = Block::default();
        let dummy = nb as u32;
        let mut lambda = vec![0.0; 12];
        for (lane, slot) in island.joints.iter().enumerate() {
            let ix = |b: Option<usize>| b.map_or(dummy, |i| i as u32);
            let lane_body = |b: Option<usize>| {
                b.filter(|&i| bodies[i].get().inv_mass > 0.0).map_or(dummy + lane as u32, |i| i as u32)
            };
            let side = |b: u32| (b != dummy).then(|| (bodies[b as usize].get().inv_mass, &inv_i[b as usize]));
            let f = LaneFill {
                lane,
                bodies: [ix(slot.b1), ix(slot.b2)],
                lane_bodies: [lane_body(slot.b1), lane_body(slot.b2)],
                hinv,
                w: world.qs.w,
                prev: [0.0; 6],
                slot0: lane,
            };
            let sides = [side(f.bodies[0]), side(f.bodies[1])];
            let joint = slot.joint.get();
            let JointKind::Contact(cj) = &joint.kind else { unreachable!() };
            fill_contact_lane(&f, &sides, cj, &joint.head, 3, world, &mut one, &tmp, &mut lambda);
        }
        assert_eq!(block_bits(&four), block_bits(&one));
        // The case is not degenerate: every lane has rows.
        let nonzero = |v: &DVec4| v.to_array().iter().all(|&x| x != 0.0);
        assert!(four.j1a.iter().flatten().all(nonzero) && four.rhs.iter().all(nonzero));
        destroy_world(w);
    }

    /// An overflow row swept as a `Single` gives the bits of the same row
    /// swept as lane 0 of a batch whose other lanes are padding (as the
    /// overflow rows were stored before), the batch holding j·Ad and M⁻¹·Jᵀ
    /// as the fill computes them: λ and every body's velocity, over
    /// repeated sweeps, with both bounds, friction bounds scaled by
    /// another slot's λ, exact zeros, a kinematic body (zero inverse mass
    /// and inertia) and the static dummy on either side.
    #[test]
    fn single_sweep_matches_padded_batch_bits() {
        let mut rng = 0x0DDB_1A5E_5BAD_5EEDu64;
        let nb = 6; // bodies 0..5 (5 kinematic), lane dummies 6..9
        let dummy_slot = 4u32; // λ: the batch's 4 slots, the dummy slot, another row's λ
        let mut inv_mass: Vec<InvMass> = (0..nb)
            .map(|_| {
                let mut rec: InvMass = std::array::from_fn(|_| uniform(&mut rng));
                rec[3] = uniform(&mut rng).abs() + 0.1;
                rec
            })
            .collect();
        inv_mass[5] = [0.0; 12];
        inv_mass.resize(nb + 4, [0.0; 12]);
        for case in 0..3000u32 {
            let r = &mut rng;
            let (b1, b2) = if case % 5 == 0 { (nb as u32, 2) } else { (case % 3, 3 + case % 3) };
            let b2 = if case % 7 == 0 { nb as u32 } else { b2 };
            let (lo, hi, fcoef, fslot) = if case % 2 == 1 {
                (0.0, 0.0, uniform(r).abs(), 5)
            } else if case % 4 == 0 {
                (-0.0, uniform(r).abs() * 2.0, 0.0, dummy_slot)
            } else {
                (-uniform(r).abs(), if case % 8 == 2 { 0.0 } else { uniform(r).abs() }, 0.0, dummy_slot)
            };
            let single = Single {
                j1: std::array::from_fn(|_| uniform(r)),
                j2: std::array::from_fn(|_| uniform(r)),
                ad: uniform(r).abs() + 0.01,
                rhs: 5.0 * uniform(r),
                cfm: uniform(r).abs() * 0.1,
                lo,
                hi,
                fcoef,
                b1,
                b2,
                fslot,
                slot: 0,
            };
            // The fill's M⁻¹·Jᵀ: exact zeros for the dummy.
            let m_of = |b: u32, j: &[f64; 6]| {
                if b == nb as u32 {
                    return [0.0; 6];
                }
                let rec = &inv_mass[b as usize];
                let mut m = [0.0; 6];
                for c in 0..3 {
                    m[c] = rec[3] * j[c];
                }
                m[3..].copy_from_slice(&mul0_331(rec, &j[3..]));
                m
            };
            let mut bt = Batch { b1: [nb as u32; 4], b2: [nb as u32; 4], fslot: [dummy_slot; 4], ..Batch::default() };
            for c in 0..6 {
                lanes(&mut bt.j1[c])[0] = single.j1[c] * single.ad;
                lanes(&mut bt.j2[c])[0] = single.j2[c] * single.ad;
            }
            bt.m1[0] = m_of(b1, &single.j1);
            bt.m2[0] = m_of(b2, &single.j2);
            lanes(&mut bt.rhs)[0] = single.rhs;
            lanes(&mut bt.cfm)[0] = single.cfm;
            lanes(&mut bt.lo)[0] = lo;
            lanes(&mut bt.hi)[0] = hi;
            lanes(&mut bt.fcoef)[0] = fcoef;
            (bt.b1[0], bt.b2[0], bt.fslot[0]) = (b1, b2, fslot);
            let mut lambda = vec![0.0; 6];
            lambda[0] = if case % 3 == 0 { 0.0 } else { uniform(r) };
            lambda[5] = 3.0 * uniform(r);
            let mut fc: Vec<[f64; 6]> = (0..nb + 4).map(|_| [0.0; 6]).collect();
            for f in fc.iter_mut().take(nb) {
                *f = std::array::from_fn(|_| uniform(r));
            }
            let (mut lambda2, mut fc2) = (lambda.clone(), fc.clone());
            for _ in 0..3 {
                sweep_batch(&bt, &mut lambda, 0, &mut fc);
                sweep_single(&single, &inv_mass, &mut lambda2, &mut fc2);
            }
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&lambda), bits(&lambda2), "λ, case {case}");
            assert_eq!(bits(fc.as_flattened()), bits(fc2.as_flattened()), "velocities, case {case}");
        }
    }

    /// `Layout::code` maps batch numbers one to one onto stored batches
    /// (in order, `batch_number` inverting it) then singles (group 0's
    /// overflow, then group 1's), with or without either overflow range.
    /// The four-wide plane space gives `plane_space`'s bits lane by lane,
    /// on both sides of its branch (|n_z| against 1/√2) and on the axes.
    #[test]
    fn plane_space4_matches_plane_space_bits() {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let mut normals = vec![
            [0.0, 0.0, 1.0],
            [0.0, 0.0, -1.0],
            [1.0, 0.0, 0.0],
            [0.0, -1.0, 0.0],
            [h, 0.0, h],
            [0.0, h, -h],
            [-0.6, 0.0, 0.8],
            [0.8, 0.0, -0.6],
        ];
        let mut r = 0x2545_F491_4F6C_DD1D;
        while normals.len() < 400 {
            let v = [uniform(&mut r), uniform(&mut r), uniform(&mut r)];
            let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            if l > 1e-3 {
                normals.push(v.map(|x| x / l));
            }
        }
        for four in normals.chunks_exact(4) {
            let n = [0, 1, 2].map(|c| DVec4::from_array([0, 1, 2, 3].map(|l| four[l][c])));
            let (p4, q4) = plane_space4(&n);
            for (l, nl) in four.iter().enumerate() {
                let (p, q) = plane_space(nl);
                for c in 0..3 {
                    assert_eq!(p4[c].to_array()[l].to_bits(), p[c].to_bits(), "p[{c}] of {nl:?}");
                    assert_eq!(q4[c].to_array()[l].to_bits(), q[c].to_bits(), "q[{c}] of {nl:?}");
                }
            }
        }
    }

    #[test]
    fn layout_codes_are_a_bijection_in_batch_order() {
        for (g0, n0, g1, n1) in [(3, 4, 2, 5), (0, 0, 5, 3), (4, 2, 3, 0), (6, 0, 0, 0), (0, 7, 0, 0)] {
            let total = g0 + n0 + g1 + n1;
            let l = Layout { ovf0: g0, n0, ovf1: if n1 > 0 { g0 + n0 + g1 } else { total }, nbatch: g0 + g1 };
            let codes: Vec<usize> = (0..total).map(|bi| l.code(bi)).collect();
            let mut sorted = codes.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..total).collect::<Vec<_>>());
            let batches: Vec<usize> = (0..total).filter(|&bi| codes[bi] < l.nbatch).collect();
            let ovf: Vec<usize> = (0..total).filter(|&bi| codes[bi] >= l.nbatch).collect();
            assert_eq!(ovf, (g0..g0 + n0).chain(g0 + n0 + g1..total).collect::<Vec<_>>());
            for (c, &bi) in batches.iter().enumerate() {
                assert_eq!((codes[bi], l.batch_number(c)), (c, bi));
            }
            for (k, &bi) in ovf.iter().enumerate() {
                assert_eq!(codes[bi], l.nbatch + k);
            }
        }
    }

    /// `shuffle_runs` permutes whole runs of `RUN` consecutive items: the
    /// result is a permutation, every run is still consecutive ascending,
    /// the partial tail run stays last, and the runs do move.
    #[test]
    fn run_shuffle_moves_whole_runs() {
        let n = 10 * RUN + 17;
        let mut order: Vec<u32> = (0..n as u32).collect();
        let mut rng = SHUFFLE_SEED;
        for _ in 0..3 {
            shuffle_runs(&mut order, &mut rng);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..n as u32).collect::<Vec<_>>());
            for run in order.chunks(RUN) {
                assert_eq!(run[0] as usize % RUN, 0);
                assert!(run.windows(2).all(|w| w[1] == w[0] + 1));
            }
            assert_eq!(order[10 * RUN], 10 * RUN as u32);
        }
        assert_ne!(order[..10 * RUN], (0..10 * RUN as u32).collect::<Vec<_>>()[..]);
    }
}
