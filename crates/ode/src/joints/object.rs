//! Joint objects and joint groups: creation, destruction, attachment and
//! the lists that tie joints to worlds and bodies.
//!
//! ODE keeps three kinds of lists, and results (island order, hence
//! rounding and solver pivoting) depend on their order:
//! - the world's joint list, newest first (`World::joints` holds creation
//!   order; iterate it reversed);
//! - each body's joint list, most recently attached first
//!   (`Body::joints` holds attachment order);
//! - a group's joints in creation order, destroyed newest first.
//!
//! A joint attached as (0, b) is stored as (b, 0) with `flags::REVERSE`
//! set, so `head.body[0]` is set whenever any body is.
//!
//! Destruction follows ODE: a joint in a group is destroyed only with its
//! group (`destroy_joint` ignores it); destroying a body detaches every
//! joint attached to it completely; destroying a world frees its joints,
//! except grouped ones, which stay (inert) until their group is emptied.

use super::{flags, Bodies, Joint, JointGroup, JointGroupRef, JointHead, JointKind, JointRef, JOINTS, JOINT_GROUPS};
use crate::dynamics::body::{Body, BodyRef, BODIES};
use crate::dynamics::world::{World, WorldRef, WORLDS};
use crate::error;

/// Creates a joint of the given kind in world `w`, in `group` if given.
/// The joint is unattached and enabled.
pub fn create_joint(w: WorldRef, group: Option<JointGroupRef>, kind: JointKind) -> JointRef {
    create_joint_with(w, group, || kind)
}

/// `create_joint` with the kind built by `make` in the joint's cell (a
/// contact joint per contact point: no copy of the whole joint).
#[inline]
pub fn create_joint_with(w: WorldRef, group: Option<JointGroupRef>, make: impl FnOnce() -> JointKind) -> JointRef {
    let make = || {
        let kind = make();
        let mut head = JointHead::new(w, group);
        if kind_owns_nothing(&kind) {
            head.flags |= flags::OWNS_NOTHING;
        }
        Joint { head, kind }
    };
    let j = match group {
        // SAFETY: a group's stash holds only cells `empty_group` freed
        // into it from this pool.
        Some(g) => unsafe { JOINTS.alloc_from(&mut g.get_mut().stash, make) },
        None => JOINTS.alloc_with(make),
    };
    w.get_mut().joints.push(j.erase());
    if let Some(g) = group {
        g.get_mut().joints.push(j);
    }
    j
}

/// `dJointDestroy`: frees a joint that is not in a group. A grouped joint is
/// left alone (it goes with its group), as in ODE.
pub fn destroy_joint(j: JointRef) {
    if j.get().head.flags & flags::IN_GROUP != 0 {
        return;
    }
    finalize(j);
}

/// Detaches a joint from its bodies and its world (unless the world is
/// already gone) and frees it.
fn finalize(j: JointRef) {
    unlink(j);
    if owns_nothing(j.get()) {
        // SAFETY: see `owns_nothing`.
        unsafe { JOINTS.free_trivial(j) };
    } else {
        JOINTS.free(j);
    }
}

/// Detaches a joint from its bodies and its world (unless the world is
/// already gone), before it is freed.
#[inline]
fn unlink(j: JointRef) {
    if !j.get().head.world_destroyed {
        detach(j);
        let w = j.get().head.world;
        // Usually among the newest: search from the end.
        remove_newest(&mut w.get_mut().joints, j.erase());
    }
}

/// Whether dropping a joint of this kind is a no-op: a contact joint owns
/// nothing (checked at compile time below), so freeing it skips the drop
/// glue's dispatch on the kind, once per contact per step.
#[inline]
fn kind_owns_nothing(kind: &JointKind) -> bool {
    const _: () = assert!(
        !std::mem::needs_drop::<super::JointHead>() && !std::mem::needs_drop::<super::contact::ContactJoint>()
    );
    matches!(kind, JointKind::Contact(_))
}

/// `kind_owns_nothing` of the joint's kind, as its head recorded it at
/// creation (the head's cache line is read anyway to unlink the joint).
#[inline]
fn owns_nothing(j: &Joint) -> bool {
    j.head.flags & flags::OWNS_NOTHING != 0
}

/// Removes the last occurrence of `j` from a joint list, keeping the order
/// of the others. `dJointGroupEmpty` frees the newest joint first, which is
/// then the last of its bodies' and world's lists: that case is a `pop`
/// (`Vec::remove` would call `memmove` for nothing, three times per
/// contact joint).
#[inline]
fn remove_newest(list: &mut Vec<crate::handle::ErasedHandle>, j: crate::handle::ErasedHandle) {
    if list.last() == Some(&j) {
        list.pop();
    } else if let Some(i) = list.iter().rposition(|&x| x == j) {
        list.remove(i);
    }
}

/// `dJointGroupCreate` (ODE ignores the size argument).
pub fn create_group() -> JointGroupRef {
    JOINT_GROUPS.alloc(JointGroup::default())
}

/// `dJointGroupEmpty`: destroys the group's joints, newest first.
pub fn empty_group(g: JointGroupRef) {
    let mut members = std::mem::take(&mut g.get_mut().joints);
    for &j in members.iter().rev() {
        if j.is_live() {
            unlink(j);
        }
    }
    // Then freed in the same order, into the group's own free list.
    // SAFETY: `owns_nothing` holds only where dropping is a no-op.
    unsafe { JOINTS.free_many_into(members.iter().rev().copied(), owns_nothing, &mut g.get_mut().stash) };
    // Keep the allocation for the next batch (contact groups are refilled
    // every step).
    members.clear();
    g.get_mut().joints = members;
}

/// `dJointGroupDestroy`: empties then frees the group.
pub fn destroy_group(g: JointGroupRef) {
    empty_group(g);
    // SAFETY: the stash holds only cells freed into it from this pool.
    unsafe { JOINTS.release_stash(&mut g.get_mut().stash) };
    JOINT_GROUPS.free(g);
}

/// Removes `j` from its bodies' joint lists and clears its attachment
/// (flags are kept, as ODE does).
pub fn detach(j: JointRef) {
    let head = &mut j.get_mut().head;
    for b in head.body.iter_mut() {
        if let Some(bref) = b.take() {
            remove_newest(&mut bref.get_mut().joints, j.erase());
        }
    }
}

/// `dJointAttach(j, b1, b2)`: attaches if `check_attach` allows it, else
/// says why not (and changes nothing).
///
/// Hosts attach every contact joint right after creating it, thousands
/// per step, so that case is inlined into the caller: a contact joint
/// keeps nothing relative to its bodies and needs none of the geometric
/// checks, and a fresh one has no previous attachment to undo. Everything
/// else goes through `check_attach` and `attach`.
#[inline(always)]
pub fn check_and_attach(j: JointRef, b1: Option<BodyRef>, b2: Option<BodyRef>) -> Result<(), String> {
    let head = &mut j.get_mut().head;
    let in_world = |b: Option<BodyRef>| b.is_none_or(|b| b.get().world == head.world);
    if matches!(j.get().kind, JointKind::Contact(_))
        && head.body[0].is_none()
        && !head.world_destroyed
        && head.flags & flags::TWO_BODIES == 0
        && !(b1.is_some() && b1 == b2)
        && in_world(b1)
        && in_world(b2)
    {
        // `attach` without its `detach` (nothing attached) and without the
        // relative values (a contact has none).
        let (b1, b2) = match b1 {
            None => {
                head.flags |= flags::REVERSE;
                (b2, None)
            }
            Some(b) => {
                head.flags &= !flags::REVERSE;
                (Some(b), b2)
            }
        };
        head.body = [b1, b2];
        if let Some(b) = b1 {
            b.get_mut().joints.push(j.erase());
        }
        if let Some(b) = b2 {
            b.get_mut().joints.push(j.erase());
        }
        return Ok(());
    }
    check_and_attach_slow(j, b1, b2)
}

#[inline(never)]
fn check_and_attach_slow(j: JointRef, b1: Option<BodyRef>, b2: Option<BodyRef>) -> Result<(), String> {
    check_attach(j, b1, b2)?;
    attach(j, b1, b2);
    Ok(())
}

/// Why `dJointAttach(j, b1, b2)` must be refused, if it must.
pub fn check_attach(j: JointRef, b1: Option<BodyRef>, b2: Option<BodyRef>) -> Result<(), String> {
    // The usual case (hosts attach every contact joint) in a few compares;
    // `check_attach_slow` tells what is wrong, or checks the joint types
    // whose attachment needs their geometry.
    let joint = j.get();
    let head = &joint.head;
    let in_world = |b: Option<BodyRef>| b.is_none_or(|b| !head.world_destroyed && b.get().world == head.world);
    let plain = !matches!(joint.kind, JointKind::Hinge2(_) | JointKind::DBall(_) | JointKind::DHinge(_));
    if plain
        && !(b1.is_some() && b1 == b2)
        && in_world(b1)
        && in_world(b2)
        && (head.flags & flags::TWO_BODIES == 0 || b1.is_some() == b2.is_some())
    {
        return Ok(());
    }
    check_attach_slow(j, b1, b2)
}

#[cold]
#[inline(never)]
fn check_attach_slow(j: JointRef, b1: Option<BodyRef>, b2: Option<BodyRef>) -> Result<(), String> {
    let head = &j.get().head;
    if b1.is_some() && b1 == b2 {
        return Err("body1 and body2 are the same body (a joint needs two distinct bodies)".into());
    }
    for (name, b) in [("body1", b1), ("body2", b2)] {
        if let Some(b) = b {
            if head.world_destroyed || b.get().world != head.world {
                return Err(format!("'{name}' is not in the joint's world"));
            }
        }
    }
    if head.flags & flags::TWO_BODIES != 0 && b1.is_some() != b2.is_some() {
        return Err("this joint type cannot be attached to just one body (attach two bodies or none)".into());
    }
    // A hinge2 re-expresses its axes in the new bodies' frames; ODE asserts
    // when they come out exactly parallel there.
    if let (JointKind::Hinge2(h), Some(x), Some(y)) = (&j.get().kind, b1, b2) {
        if !h.attach_keeps_axes_independent(Bodies { b1: Some(x.get()), b2: Some(y.get()) }) {
            return Err("the hinge2 axes would be exactly parallel in these bodies' frames (ODE: axes must be linearly independent)".into());
        }
    }
    // A double ball or hinge measures its distance in the new bodies'
    // frames: bodies absurdly far apart overflow it, which ODE stores as
    // inf (its next step is NaN).
    let ball = match &j.get().kind {
        JointKind::DBall(d) => Some(d),
        JointKind::DHinge(h) => Some(&h.ball),
        _ => None,
    };
    if let Some(d) = ball {
        // Stored as (b1, b2), or (b2, none) when only the second is given.
        let (x, y) = if b1.is_none() { (b2, None) } else { (b1, b2) };
        if x.is_some() && !d.target_for(Bodies { b1: x.map(|b| b.get()), b2: y.map(|b| b.get()) }).is_finite() {
            return Err("the distance between the anchors would overflow in these bodies' frames".into());
        }
    }
    Ok(())
}

/// `dJointAttach` after `check_attach` accepted it: replaces any previous
/// attachment; (0, b) is stored as (b, 0) with REVERSE; each body gets the
/// joint at the head of its list; the joint type then recomputes its
/// body-relative values if any body is attached.
pub fn attach(j: JointRef, b1: Option<BodyRef>, b2: Option<BodyRef>) {
    detach(j);
    let (b1, b2, reverse) = match b1 {
        None => (b2, None, true),
        Some(b) => (Some(b), b2, false),
    };
    {
        let head = &mut j.get_mut().head;
        if reverse {
            head.flags |= flags::REVERSE;
        } else {
            head.flags &= !flags::REVERSE;
        }
        head.body = [b1, b2];
    }
    for b in [b1, b2].into_iter().flatten() {
        b.get_mut().joints.push(j.erase());
    }
    // A contact joint keeps nothing relative to its bodies; skipping the
    // dispatch matters, as hosts attach thousands of them per step.
    if b1.is_some() && !matches!(j.get().kind, JointKind::Contact(_)) {
        let joint = j.get_mut();
        joint.kind.set_relative_values(&joint.head, joint.head.bodies());
        if !joint.kind.relative_values_sane() {
            // A body near the end of the double range, or one whose
            // rotation holds a huge entry, now or when the values were
            // last taken: ODE keeps what overflowed or grew huge, and the
            // joint's getters and rows give inf or NaN. Attached as ODE
            // does, and said so.
            crate::error::suspicious_input(
                "dJointAttach",
                format_args!("an anchor, offset or axis the joint keeps in its bodies' frames is beyond ±1e100 or not finite (a body lies, or lay when the value was taken, near the end of the double range, or its rotation holds a huge entry); ODE keeps it, and the joint's getters and rows may give inf or NaN"),
            );
        }
    }
}

/// `dJointGetBody`: index 0 or 1 in the caller's terms (REVERSE undone);
/// other indices give none.
pub fn get_body(j: JointRef, index: i32) -> Option<BodyRef> {
    let head = &j.get().head;
    match index {
        0 | 1 => {
            let i = index as usize;
            if head.flags & flags::REVERSE != 0 {
                head.body[1 - i]
            } else {
                head.body[i]
            }
        }
        _ => None,
    }
}

/// `dJointGetNumBodies`.
pub fn num_bodies(j: JointRef) -> i32 {
    let head = &j.get().head;
    match head.body {
        [None, _] => 0,
        [Some(_), None] => 1,
        _ => 2,
    }
}

/// The body at the other end of `j` as seen from `b` (None: the static
/// environment). `b` must be attached to `j`.
pub fn other_body(j: JointRef, b: BodyRef) -> Option<BodyRef> {
    let head = &j.get().head;
    if head.body[0] == Some(b) {
        head.body[1]
    } else {
        head.body[0]
    }
}

/// The bodies of a joint as the row interface sees them.
pub fn bodies_of<'a>(j: JointRef) -> Bodies<'a> {
    j.get().head.bodies()
}

/// Joints connecting `b1` and `b2` (either may be the environment, not
/// both), in `b1`'s list order (`b2`'s if `b1` is the environment), optionally
/// skipping one joint type. Calls `f` for each; stops when it returns false.
pub fn for_each_connecting(
    b1: Option<BodyRef>,
    b2: Option<BodyRef>,
    exclude_type: Option<i32>,
    mut f: impl FnMut(JointRef) -> bool,
) {
    let (from, to) = match b1 {
        Some(b) => (b, b2),
        None => match b2 {
            Some(b) => (b, None),
            None => return,
        },
    };
    for j in body_joints(from.get()) {
        // The other body first: it sits in the joint's first cache line and
        // usually settles it (hosts ask this of every colliding pair, whose
        // bodies carry that step's contacts); the type is further in.
        if other_body(j, from) != to {
            continue;
        }
        if exclude_type.is_some_and(|t| j.get().kind.type_code() == t) {
            continue;
        }
        if !f(j) {
            return;
        }
    }
}

/// `dConnectingJoint`: the first joint (in list order) connecting the two.
pub fn connecting_joint(b1: Option<BodyRef>, b2: Option<BodyRef>) -> Option<JointRef> {
    let mut found = None;
    for_each_connecting(b1, b2, None, |j| {
        found = Some(j);
        false
    });
    found
}

/// Whether some joint (not of type `exclude_type`) connects `b1` to `b2`.
pub fn are_connected(b1: BodyRef, b2: Option<BodyRef>, exclude_type: Option<i32>) -> bool {
    let mut any = false;
    for_each_connecting(Some(b1), b2, exclude_type, |_| {
        any = true;
        false
    });
    any
}

/// Detaches every joint attached to `b` (completely: both ends), as ODE's
/// `dBodyDestroy` does before freeing the body.
pub fn detach_all_from_body(b: BodyRef) {
    while let Some(&j) = b.get().joints.last() {
        detach(j.typed());
    }
}

/// Deals with the joints of world `w`, whose bodies are already destroyed:
/// grouped joints lose their world (and a warning goes to the message
/// channel, as ODE prints one), the others are freed.
pub fn world_destroyed(w: WorldRef) {
    let joints = std::mem::take(&mut w.get_mut().joints);
    for j in joints.iter().rev().map(|j| j.typed::<Joint>()) {
        if !j.is_live() {
            continue;
        }
        if j.get().head.flags & flags::IN_GROUP != 0 {
            detach(j);
            j.get_mut().head.world_destroyed = true;
            error::report(error::Channel::Message, 0, "warning: destroying world containing grouped joints");
        } else {
            detach(j);
            JOINTS.free(j);
        }
    }
}

/// A body's joints, most recently attached first (ODE's list order).
pub fn body_joints(b: &Body) -> impl DoubleEndedIterator<Item = JointRef> + '_ {
    b.joints.iter().rev().map(|j| j.typed())
}

/// A world's joints, newest first (ODE's list order).
pub fn world_joints(w: &World) -> impl DoubleEndedIterator<Item = JointRef> + '_ {
    w.joints.iter().rev().map(|j| j.typed())
}

/// `dWorldDestroy`: its bodies (newest first, each detached from its
/// joints and freed, as ODE does), then its joints (grouped joints only
/// lose their world and wait for their group), then the world.
pub fn destroy_world(w: WorldRef) {
    let bodies = std::mem::take(&mut w.get_mut().bodies);
    for b in bodies.iter().rev().map(|b| b.typed::<Body>()) {
        detach_all_from_body(b);
        BODIES.free(b);
    }
    world_destroyed(w);
    WORLDS.free(w);
}

/// `dBodyDestroy`: detaches the body's joints (each is left attached to
/// nothing, as in ODE), then removes the body from its world and frees it.
pub fn destroy_body(b: BodyRef) {
    detach_all_from_body(b);
    crate::dynamics::body::free_body(b);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamics::body::create_body;
    use crate::dynamics::world::create_world;
    use crate::joints::null::Null;

    fn null(w: WorldRef, g: Option<JointGroupRef>) -> JointRef {
        create_joint(w, g, JointKind::Null(Null))
    }

    fn ode_order(b: BodyRef) -> Vec<JointRef> {
        body_joints(b.get()).collect()
    }

    /// `OWNS_NOTHING` marks exactly the joints whose kind owns nothing,
    /// from creation on, whatever happens to the head later; a group
    /// holding both kinds empties cleanly.
    #[test]
    fn owns_nothing_flag_follows_the_kind() {
        use crate::joints::contact::{ContactJoint, ContactPoint, Surface};
        let w = create_world();
        let g = create_group();
        let (a, b) = (create_body(w), create_body(w));
        let point = ContactPoint {
            pos: [0.0; 3],
            normal: [0.0, 0.0, 1.0],
            depth: 0.0,
            g1: std::ptr::null_mut(),
            g2: std::ptr::null_mut(),
            side1: 0,
            side2: 0,
        };
        let contact = create_joint(w, Some(g), JointKind::Contact(ContactJoint::new(Surface::default(), point, [0.0; 3])));
        let other = null(w, Some(g));
        for j in [contact, other] {
            attach(j, None, Some(a));
            attach(j, Some(a), Some(b));
            j.get_mut().head.flags |= flags::DISABLED;
            assert_eq!(owns_nothing(j.get()), kind_owns_nothing(&j.get().kind));
        }
        assert!(owns_nothing(contact.get()));
        assert!(!owns_nothing(other.get()));
        empty_group(g);
        assert!(!contact.is_live() && !other.is_live());
        assert_eq!(ode_order(a), vec![]);
        destroy_group(g);
    }

    #[test]
    fn attach_orders_lists_newest_first_and_reverses_zero_first() {
        let w = create_world();
        let (a, b) = (create_body(w), create_body(w));
        let (j1, j2) = (null(w, None), null(w, None));
        attach(j1, Some(a), Some(b));
        attach(j2, None, Some(a));
        assert_eq!(ode_order(a), vec![j2, j1]);
        assert_eq!(ode_order(b), vec![j1]);
        assert_eq!(j2.get().head.body, [Some(a), None]);
        assert_ne!(j2.get().head.flags & flags::REVERSE, 0);
        assert_eq!(get_body(j2, 0), None);
        assert_eq!(get_body(j2, 1), Some(a));
        assert_eq!(num_bodies(j2), 1);
        // Re-attaching moves the joint to the head of the new lists.
        attach(j1, Some(b), Some(a));
        assert_eq!(ode_order(a), vec![j1, j2]);
        assert_eq!(get_body(j1, 0), Some(b));
        assert_eq!(connecting_joint(Some(a), Some(b)), Some(j1));
        assert_eq!(connecting_joint(None, Some(a)), Some(j2));
        assert!(are_connected(a, None, None));
        assert!(!are_connected(a, None, Some(j2.get().kind.type_code())));
        destroy_body(a);
        assert_eq!(num_bodies(j1), 0);
        assert_eq!(num_bodies(j2), 0);
        assert!(b.get().joints.is_empty());
        destroy_world(w);
        assert!(!j1.is_live() && !j2.is_live());
    }

    #[test]
    fn groups_outlive_their_world() {
        let w = create_world();
        let g = create_group();
        let b = create_body(w);
        let j = null(w, Some(g));
        attach(j, Some(b), None);
        destroy_joint(j);
        assert!(j.is_live(), "a grouped joint is destroyed only with its group");
        destroy_world(w);
        assert!(j.is_live() && j.get().head.world_destroyed);
        destroy_group(g);
        assert!(!j.is_live());
    }
}
