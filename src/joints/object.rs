//! (to be written by the joint object work.) Minimal stand-in so joint
//! creation compiles: allocates the joint with a default head.

use super::{flags, Joint, JointGroupRef, JointHead, JointKind, JointRef, JOINTS};
use crate::dynamics::world::WorldRef;

/// Creates a joint of the given kind in `world`, optionally in `group`.
pub fn create_joint(world: WorldRef, group: Option<JointGroupRef>, kind: JointKind) -> JointRef {
    let head = JointHead {
        world,
        body: [None, None],
        flags: if group.is_some() { flags::IN_GROUP } else { 0 },
        feedback: std::ptr::null_mut(),
        data: std::ptr::null_mut(),
        group,
        lambda: [0.0; 6],
        tag: 0,
    };
    JOINTS.alloc(Joint { head, kind })
}
