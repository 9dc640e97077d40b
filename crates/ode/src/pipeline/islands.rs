//! Island building: the enabled bodies and active joints of a world,
//! gathered into flat arrays one connected group after another, in ODE's
//! traversal order (which fixes the solver's row order, hence rounding and
//! pivoting), plus the step's reusable working arrays.

use crate::dynamics::body::{world_bodies, BodyRef};
use crate::dynamics::world::{flags, World};
use crate::joints::{self, JointRef};
use crate::solver::{IslandRows, JointInfo, SolverScratch};

/// Per-step working arrays: the enabled bodies and active joints in
/// island order, island sizes, and the buffers of the island being
/// stepped (inverse inertia, joint infos, rows, solver scratch). Kept in
/// the world between steps, so a warm step does not allocate.
#[derive(Default)]
pub(crate) struct StepScratch {
    pub bodies: Vec<BodyRef>,
    /// Bodies per island, islands in processing order.
    pub island_sizes: Vec<usize>,
    pub joints: Vec<JointRef>,
    /// Joints per island (same islands as `island_sizes`).
    pub island_joints: Vec<usize>,
    /// Island search stack.
    pub stack: Vec<BodyRef>,
    /// Buffers of the island being stepped (serial stepping).
    pub work: IslandWork,
    /// Parallel stepping: one set of buffers per pool thread, and the
    /// islands' plan (where each starts, its first `dRand` state).
    pub workers: Vec<std::sync::Mutex<IslandWork>>,
    pub plan: Vec<IslandPlan>,
    /// Consecutive islands of `plan` stepped by one pool task each.
    pub tasks: Vec<std::ops::Range<usize>>,
    /// The order in which the step's threads take `tasks`.
    pub task_order: Vec<u32>,
    /// Contact λ of the previous fast QuickStep (warm start).
    pub contacts: crate::solver::contact_cache::ContactCache,
}

/// The working buffers one island step needs.
#[derive(Default)]
pub(crate) struct IslandWork {
    pub inv_i: Vec<[f64; 12]>,
    /// Joints with rows, island order, and in the stepper's order.
    pub infos: Vec<JointInfo>,
    pub ordered: Vec<JointInfo>,
    pub rows: IslandRows,
    pub step: crate::solver::step::StepBuffers,
    /// Buffers of the QuickStep solver.
    pub solver: SolverScratch,
    /// A group of small islands (`grouped`): bodies and joints with rows
    /// per island.
    pub group: Vec<(usize, usize)>,
}

/// One island of a parallel step: its bodies `b0..b0+nb`, joints
/// `j0..j0+nj` in the scratch lists, and the `dRand` state its QuickStep
/// shuffles start from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IslandPlan {
    pub b0: usize,
    pub nb: usize,
    pub j0: usize,
    pub nj: usize,
    pub seed: u32,
}

/// Partitions the enabled bodies into islands connected by active joints,
/// in ODE's traversal order: islands start from the world's bodies newest
/// first; from each body its joints are visited most recently attached
/// first, and newly reached bodies are stacked (last in, first visited).
/// A disabled body reached through an active joint is enabled (its idle
/// counters are left as they are); disabled bodies never start an island.
pub(crate) fn build_islands(world: &mut World, s: &mut StepScratch) {
    s.bodies.clear();
    s.island_sizes.clear();
    s.joints.clear();
    s.island_joints.clear();
    s.stack.clear();
    for b in world_bodies(world) {
        b.get_mut().tag = 0;
    }
    // A joint is reached once per search: its `visit` takes this search's
    // stamp. (ODE clears every joint's tag first instead: a pass over all
    // the contact joints, which have left the cache since the collision
    // made them.) Only when the stamp wraps are the joints cleared.
    world.island_stamp = world.island_stamp.wrapping_add(1);
    if world.island_stamp == 0 {
        for j in joints::object::world_joints(world) {
            j.get_mut().head.visit = 0;
        }
        world.island_stamp = 1;
    }
    let stamp = world.island_stamp;
    let world: &World = world;
    for root in world_bodies(world) {
        if root.get().tag != 0 {
            continue;
        }
        if !root.get().is_enabled() {
            root.get_mut().tag = -1;
            continue;
        }
        root.get_mut().tag = 1;
        let (nb0, nj0) = (s.bodies.len(), s.joints.len());
        s.bodies.push(root);
        let mut b = root;
        loop {
            for j in joints::object::body_joints(b.get()) {
                let head = &mut j.get_mut().head;
                if head.visit == stamp {
                    continue;
                }
                head.visit = stamp;
                if !head.is_active() {
                    head.tag = -1;
                    continue;
                }
                head.tag = 1;
                s.joints.push(j);
                if let Some(other) = joints::object::other_body(j, b) {
                    let ob = other.get_mut();
                    if ob.tag <= 0 {
                        ob.tag = 1;
                        ob.flags &= !flags::DISABLED;
                        s.stack.push(other);
                    }
                }
            }
            match s.stack.pop() {
                Some(next) => {
                    s.bodies.push(next);
                    b = next;
                }
                None => break,
            }
        }
        s.island_sizes.push(s.bodies.len() - nb0);
        s.island_joints.push(s.joints.len() - nj0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamics::body::create_body;
    use crate::dynamics::world::create_world;
    use crate::joints::null::Null;
    use crate::joints::object::{attach, create_joint, destroy_world};
    use crate::joints::JointKind;

    fn search(world: &mut World, s: &mut StepScratch) -> (Vec<usize>, Vec<usize>, Vec<BodyRef>, Vec<JointRef>) {
        build_islands(world, s);
        (s.island_sizes.clone(), s.island_joints.clone(), s.bodies.clone(), s.joints.clone())
    }

    /// Joints keep the stamp of the last search that reached them; when the
    /// stamp wraps, a joint holding the next value from long ago must not
    /// look reached already.
    #[test]
    fn a_wrapping_island_stamp_clears_the_joints_visits() {
        let w = create_world();
        let b: Vec<BodyRef> = (0..5).map(|_| create_body(w)).collect();
        let pairs = [(0, 1), (1, 2), (3, 4)];
        let joints: Vec<JointRef> = pairs
            .iter()
            .map(|&(x, y)| {
                let j = create_joint(w, None, JointKind::Null(Null));
                attach(j, Some(b[x]), Some(b[y]));
                j
            })
            .collect();
        let mut s = StepScratch::default();
        let first = search(w.get_mut(), &mut s);
        assert_eq!(first.0, vec![2, 3], "two islands, newest body first");
        assert_eq!(first.1, vec![1, 2]);
        assert_eq!(search(w.get_mut(), &mut s), first, "a second search");

        // The next search wraps to stamp 1; every joint claims to have been
        // reached by a search with stamp 1.
        w.get_mut().island_stamp = u32::MAX;
        for j in &joints {
            j.get_mut().head.visit = 1;
        }
        assert_eq!(search(w.get_mut(), &mut s), first, "the search after the wrap");
        assert_eq!(w.get().island_stamp, 1);
        assert_eq!(search(w.get_mut(), &mut s), first, "and the one after it");
        destroy_world(w);
    }
}
