//! Small islands of the exact QuickStep stepped as a group: their rows
//! swept in one interleaved pass (`solver::quick::solve_joint_islands`).
//!
//! An island of a body or two resting on static geometry (a box on the
//! ground, a sphere on a mesh) has a handful of rows that all share its
//! bodies, so each SOR update waits for the one before it; stepping such
//! islands one after another leaves the processor idle for most of each
//! update. Solving many of them side by side (islands of one body in SIMD
//! lanes, the others interleaved) lets it overlap their independent
//! updates. Every value still goes through the operations of its own
//! island's step in the same order, so the bits are ODE's.
//!
//! The fast QuickStep groups its islands of one body the same way (it
//! solves those with this sweep, unshuffled).
//!
//! Only islands whose joints are all contacts are grouped, and none of
//! whose bodies has a moved callback: host code runs between the islands
//! of a serial step only there, and a group moves its islands after
//! solving them all. A free body (an island without joints) may sit among
//! them: its step is the same velocity update and move either way, and it
//! draws no `dRand`, so it no longer cuts a group short (bodies falling
//! between resting ones left groups of one or two).

use super::{apply_external_forces, clear_accumulators, guard, move_body};
use crate::dynamics::body::BodyRef;
use crate::dynamics::world::{SolverMode, World};
use crate::joints::{JointKind, JointRef};
use crate::solver::{self, gather_info1_into, IslandInput};

use super::islands::IslandWork;

/// Most islands solved as a group: the islands of one body go through the
/// lane sweep in sets of eight (`solver::quick`), the others interleaved,
/// where four are enough to hide an update's latency. On the trimesh
/// terrain 64 was 1 % faster than 32 and 3 % faster than 16.
pub(super) const MAX_GROUP: usize = 64;

/// Most free bodies a group may start with (see `group_len`).
const FREE_LEAD: usize = 4;

/// Largest island grouped, in joints: a larger island has rows enough on
/// different bodies to overlap its own updates.
const MAX_JOINTS: usize = 16;

/// Whether the island of `bodies` and `joints` may join a group
/// (`one_body`: only an island of one body may).
fn groupable(bodies: &[BodyRef], joints: &[JointRef], one_body: bool) -> bool {
    joints.len() <= MAX_JOINTS
        && (!one_body || bodies.len() == 1)
        && joints.iter().all(|j| matches!(j.get().kind, JointKind::Contact(_)))
        && bodies.iter().all(|b| b.get().moved_callback.is_none())
}

/// Where small islands are grouped: the exact QuickStep (every small
/// island), and the fast one's islands of one body, which it solves with
/// the exact sweep in ODE's initial order (`solve_joints_unshuffled`).
/// `None`: the stepper groups nothing.
pub(super) fn mode(world: &World, quick: bool) -> Option<GroupMode> {
    match (quick, world.solver_mode) {
        (false, _) => None,
        (true, SolverMode::Exact) => Some(GroupMode { one_body: false, shuffle: !solver::quick::deterministic_order() }),
        (true, _) => Some(GroupMode { one_body: true, shuffle: false }),
    }
}

/// Which islands a stepper groups and how their rows are ordered.
#[derive(Clone, Copy)]
pub(super) struct GroupMode {
    one_body: bool,
    shuffle: bool,
}

/// The first islands of `islands` (bodies and joints per island, from
/// `bodies[0]` and `joints[0]`) that form a group, at most `MAX_GROUP`,
/// copied into `out`; returns how many (0 or 1: step the first alone; 0
/// also when none of them has joints). A group whose first
/// `FREE_LEAD` islands are all free bodies is not formed, so that a run
/// of free bodies is not scanned again from each of its bodies.
pub(super) fn group_len(
    mode: GroupMode,
    bodies: &[BodyRef],
    joints: &[JointRef],
    islands: impl Iterator<Item = (usize, usize)>,
    out: &mut [(usize, usize); MAX_GROUP],
) -> usize {
    let (mut b0, mut j0, mut n) = (0, 0, 0);
    for (nb, nj) in islands.take(MAX_GROUP) {
        if (n == FREE_LEAD && j0 == 0) || !groupable(&bodies[b0..b0 + nb], &joints[j0..j0 + nj], mode.one_body) {
            break;
        }
        out[n] = (nb, nj);
        n += 1;
        b0 += nb;
        j0 += nj;
    }
    if j0 == 0 {
        return 0;
    }
    n
}

/// Steps a group of islands (as `group_len` chose them) with the exact
/// QuickStep's sweep: `bodies` and `joints` hold the islands' one after
/// another, `islands` their bodies and joints per island. The same bits as
/// stepping each island alone, in order (`step_island`).
pub(super) fn step_quick_group(
    mode: GroupMode,
    world: &World,
    bodies: &[BodyRef],
    joints: &[JointRef],
    islands: &[(usize, usize)],
    s: &mut IslandWork,
    h: f64,
) {
    // Forces and row counts island by island, in the serial step's order;
    // body tags count from the group's first body.
    s.inv_i.clear();
    s.infos.clear();
    s.group.clear();
    let (mut b0, mut j0) = (0, 0);
    for &(nb, nj) in islands {
        apply_external_forces(world, &bodies[b0..b0 + nb], &mut s.inv_i, h, b0);
        let before = s.infos.len();
        gather_info1_into(&joints[j0..j0 + nj], &mut s.infos);
        s.group.push((nb, s.infos.len() - before));
        b0 += nb;
        j0 += nj;
    }

    let input = IslandInput { world, bodies: &bodies[..b0], inv_i: &s.inv_i, h };
    solver::quick::solve_joint_islands(&input, &s.infos, &s.group, &mut s.rows, &mut s.solver, mode.shuffle);

    // Positions, then the guard, island by island.
    let (mut b0, mut j0) = (0, 0);
    for &(nb, nj) in islands {
        let island = &bodies[b0..b0 + nb];
        let mut refused = None;
        for (i, &b) in island.iter().enumerate() {
            if b.is_live() {
                move_body(b, h, i, &mut refused);
                clear_accumulators(b);
            }
        }
        if let Some(bad) = refused {
            guard::contain(island, &joints[j0..j0 + nj], bad, "dWorldQuickStep");
        }
        b0 += nb;
        j0 += nj;
    }
}
