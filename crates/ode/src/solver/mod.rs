//! Constraint solvers of one island.
//!
//! The stepping code (`dynamics::integrator`) builds islands through
//! enabled joints, asks each joint for its rows (`joints::JointKind::info1`
//! / `info2`) into an `IslandRows`, and hands it to one of:
//! - `step::solve_island` (`dWorldStep`): A = J·M⁻¹·Jᵀ + CFM/h and the
//!   right-hand side assembled as ODE's step does, solved by the
//!   Dantzig-style BLCP of `lcp`;
//! - `quick::solve_island` (`dWorldQuickStep`): projected Gauss–Seidel with
//!   successive over-relaxation, warm started from each joint's last λ
//!   when asked; the pipeline calls `quick::solve_joints`, which asks the
//!   joints for their rows itself (contacts straight into the sweep's
//!   records) with the same results;
//! - `fast_quick::solve_island` (`dWorldQuickStep`, `SolverMode::Fast`):
//!   the same model swept by colour, four rows at a time;
//! - `fast_step::solve_island` (`dWorldStep`, `SolverMode::Fast`): the
//!   same LCP as `step`, with a sparse factor of the bilateral rows and a
//!   reduced LCP of the bounded ones.
//!
//! Both fast solvers warm start contacts from `contact_cache`. All update the island bodies' velocities (constraint forces plus the
//! accumulated external forces), write `dJointFeedback` where the host
//! asked for it, and store each joint's λ. Moving the bodies stays with
//! the integrator.
//!
//! Layout follows Box2D v3: flat arrays of rows and bodies, indices instead
//! of pointers, buffers kept in `SolverScratch` and reused across steps.

pub mod contact_cache;
pub mod fast_quick;
mod fast_kernels;
pub mod fast_step;
pub mod lcp;
pub mod quick;
pub mod sparse_ldl;
pub mod step;

use crate::dynamics::body::BodyRef;
use crate::dynamics::world::World;
use crate::joints::{JointRef, Row};

/// One joint's slice of an island's rows.
#[derive(Clone, Copy, Debug)]
pub struct JointSlot {
    pub joint: JointRef,
    /// Index of the joint's first row in `IslandRows::rows`.
    pub row0: usize,
    /// Number of rows (`Info1::m`).
    pub m: usize,
    /// Leading unbounded rows (`Info1::nub`).
    pub nub: usize,
    /// Indices into the island's body array of the joint's bodies (after
    /// REVERSE normalisation); `None` is the static environment.
    pub b1: Option<usize>,
    pub b2: Option<usize>,
}

impl JointSlot {
    /// The slot of joint `ji` (head `head`) whose rows start at `row0`; the
    /// bodies' tags hold their island indices.
    fn of(ji: &JointInfo, head: &crate::joints::JointHead, row0: usize) -> JointSlot {
        let index = |b: Option<BodyRef>| b.map(|b| b.get().tag as usize);
        JointSlot { joint: ji.joint, row0, m: ji.info.m, nub: ji.info.nub, b1: index(head.body[0]), b2: index(head.body[1]) }
    }
}

/// The constraint rows of one island, joint by joint, in ODE's joint order.
/// `Row::findex` is made absolute (index into `rows`) by the assembler.
#[derive(Default)]
pub struct IslandRows {
    pub rows: Vec<Row>,
    pub joints: Vec<JointSlot>,
}

impl IslandRows {
    pub fn clear(&mut self) {
        self.rows.clear();
        self.joints.clear();
    }
}

/// What a solver needs besides the rows.
pub struct IslandInput<'a> {
    pub world: &'a World,
    /// The island's bodies, in ODE's island order.
    pub bodies: &'a [BodyRef],
    /// World-frame inverse inertia of each body (3x4 padded), computed by
    /// the integrator before the solve.
    pub inv_i: &'a [[f64; 12]],
    /// Step size.
    pub h: f64,
}

/// Reusable buffers of the QuickStep solvers (exact and fast) and of the
/// fast Step (the exact Step's are `step::StepBuffers`), kept in the
/// world's step scratch.
#[derive(Default)]
pub struct SolverScratch {
    pub quick: quick::QuickScratch,
    pub fast: fast_quick::FastScratch,
    pub fast_step: fast_step::FastStepScratch,
}

// ---- row assembly shared by both steppers ------------------------------------

use crate::joints::{Info1, RowCtx};

/// A joint of an island with its current row counts (ODE's "joint with
/// info1").
#[derive(Clone, Copy, Debug)]
pub struct JointInfo {
    pub joint: JointRef,
    pub info: Info1,
}

/// Asks every joint of an island, in island order, for its row counts
/// (`info1`, which may update joint state such as which limit is active)
/// and keeps those with rows, in the same order. Joints without rows get
/// tag -1 (they still linked the island together). Returns the total
/// number of rows.
pub fn gather_info1(joints: &[JointRef], out: &mut Vec<JointInfo>) -> usize {
    out.clear();
    gather_info1_into(joints, out)
}

/// `gather_info1` appending to `out` (which keeps what it held).
pub fn gather_info1_into(joints: &[JointRef], out: &mut Vec<JointInfo>) -> usize {
    let mut m = 0;
    for &j in joints {
        let joint = j.get_mut();
        let info = joint.kind.info1(&joint.head, joint.head.bodies());
        debug_assert!(info.m <= 6 && info.nub <= info.m, "bad info1 {info:?}");
        if info.m > 0 {
            m += info.m;
            out.push(JointInfo { joint: j, info });
        } else {
            joint.head.tag = -1;
        }
    }
    m
}

/// `dWorldStep`'s joint order: joints with only unbounded rows first, then
/// mixed ones, then those with only bounded rows, each group placed exactly
/// where ODE's single-pass two-ended partition puts it (the order inside
/// the groups matters for round-off and pivoting). `src` is in island
/// order; the result goes to `out`. Returns the number of purely unbounded
/// joints, which ODE hands to its LCP solver as `nub` (the solver then
/// finds every unbounded row by itself).
pub fn order_for_step(src: &[JointInfo], out: &mut Vec<JointInfo>) -> usize {
    out.clear();
    let n = src.len();
    if n == 0 {
        return 0;
    }
    // Slots -1 ..= 2n of ODE's work array, shifted by one.
    let base = 1isize;
    out.resize(2 * n + 2, src[0]);
    let at = |k: isize| (k + base) as usize;
    let (mut unb_start, mut mix_start, mut mix_end) = (n as isize, n as isize, n as isize);
    let mut lcp_end: isize;
    let mut cur = n as isize;
    let mut next = 0;
    loop {
        // Growing towards the end: bounded joints are appended, mixed ones
        // inserted between the unbounded and bounded groups.
        let mut mixend = mix_end;
        let mut finished = false;
        loop {
            if next == n {
                lcp_end = cur;
                finished = true;
                break;
            }
            let ji = src[next];
            next += 1;
            let (m, nub) = (ji.info.m, ji.info.nub);
            if nub == 0 {
                out[at(cur)] = ji;
                cur += 1;
            } else if nub < m {
                if unb_start == mix_start {
                    mix_start -= 1;
                    unb_start = mix_start;
                    out[at(mix_start)] = ji;
                } else if mixend != cur {
                    out[at(cur)] = out[at(mixend)];
                    out[at(mixend)] = ji;
                    mixend += 1;
                    cur += 1;
                } else {
                    out[at(cur)] = ji;
                    cur += 1;
                    mixend = cur;
                }
            } else {
                unb_start -= 1;
                out[at(unb_start)] = ji;
                lcp_end = cur;
                mix_end = mixend;
                cur = unb_start - 1;
                break;
            }
        }
        if finished {
            break;
        }
        // Growing towards the front: unbounded joints are prepended.
        let mut mixstart = mix_start - 1;
        loop {
            if next == n {
                unb_start = cur + 1;
                mix_start = mixstart + 1;
                finished = true;
                break;
            }
            let ji = src[next];
            next += 1;
            let (m, nub) = (ji.info.m, ji.info.nub);
            if nub == m {
                out[at(cur)] = ji;
                cur -= 1;
            } else if nub != 0 {
                if mix_end == lcp_end {
                    out[at(mix_end)] = ji;
                    mix_end += 1;
                    lcp_end = mix_end;
                } else if mixstart != cur {
                    out[at(cur)] = out[at(mixstart)];
                    out[at(mixstart)] = ji;
                    mixstart -= 1;
                    cur -= 1;
                } else {
                    out[at(cur)] = ji;
                    cur -= 1;
                    mixstart = cur;
                }
            } else {
                out[at(lcp_end)] = ji;
                lcp_end += 1;
                unb_start = cur + 1;
                mix_start = mixstart + 1;
                cur = lcp_end;
                break;
            }
        }
        if finished {
            break;
        }
    }
    let (first, last) = (at(unb_start), at(lcp_end));
    out.copy_within(first..last, 0);
    out.truncate(last - first);
    (mix_start - unb_start) as usize
}

/// Appends the `m` rows of `joint` to `rows`: pre-set with
/// `Row::initial(world CFM)`, then the joint's `info2`; a motor held at a
/// stop pushes the bodies directly, as ODE does while filling rows (now,
/// before any accumulator is read); friction indices are made absolute.
pub(crate) fn push_joint_rows(joint: &mut crate::joints::Joint, m: usize, ctx: &RowCtx, rows: &mut Vec<Row>) {
    let row0 = rows.len();
    rows.resize(row0 + m, Row::initial(ctx.world.cfm));
    let bodies = joint.head.bodies();
    joint.kind.info2(&joint.head, bodies, ctx, &mut rows[row0..row0 + m]);
    joint.kind.apply_body_push(&joint.head);
    for r in &mut rows[row0..row0 + m] {
        if r.findex != -1 {
            r.findex += row0 as i32;
        }
    }
}

/// Fills the rows of `joints` (in the given order) into `rows`: each joint
/// gets `m` rows pre-set with `Row::initial(world CFM)`, then its `info2`
/// with fps = 1/h and the world ERP; friction indices are made absolute.
/// Body tags must hold the bodies' island indices (set by the integrator);
/// each joint's tag is set to its slot index.
pub fn assemble_rows(world: &World, joints: &[JointInfo], h: f64, rows: &mut IslandRows) {
    rows.clear();
    let ctx = RowCtx { fps: 1.0 / h, erp: world.erp, world };
    for (slot, ji) in joints.iter().enumerate() {
        let joint = ji.joint.get_mut();
        joint.head.tag = slot as i32;
        let row0 = rows.rows.len();
        let m = ji.info.m;
        push_joint_rows(joint, m, &ctx, &mut rows.rows);
        rows.joints.push(JointSlot::of(ji, &joint.head, row0));
    }
}
