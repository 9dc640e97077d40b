//! The step's guard against non-finite results: what happens when a body
//! would leave a step with NaN or infinite state although every input was
//! finite (overflow from extreme velocities, forces or step sizes, a
//! degenerate constraint). ODE stores such a state, and Debian's build
//! aborts on the next quaternion normalisation; we keep the world finite.
//!
//! `integrator::step_body` tests the new position and orientation before
//! storing them and refuses a non-finite result (non-finite velocities
//! always make them non-finite). The policy (README, "Non-finite step
//! results") is applied here:
//! - a refused body keeps its position and orientation from before the
//!   step and is put at rest (its velocities caused the failure); its
//!   accumulators are cleared as after any step;
//! - every body of its island is disabled (the others keep their finite
//!   new state), so the failure does not repeat each step; the island's
//!   joints report zero feedback;
//! - one message on the message channel (number 1, ODE's d_ERR_IASSERT)
//!   names the first refused body and a joint attached to it.
//!
//! A normal step pays only the test in `step_body` (a few instructions on
//! values in registers): nothing is copied or allocated, and no number of a
//! finite step changes.

use crate::dynamics::body::BodyRef;
use crate::error::{self, StackText};
use crate::joints::JointRef;
use std::fmt::Write;

/// `step_body` refused island body `b` (index `i`): it is put at rest.
/// Called before its accumulators are cleared as usual.
#[cold]
pub(crate) fn refused(b: BodyRef, i: usize, first: &mut Option<usize>) {
    let body = b.get_mut();
    body.lvel = [0.0; 4];
    body.avel = [0.0; 4];
    first.get_or_insert(i);
}

/// After an island in which body `island[bad]` was refused: disables the
/// island, zeroes its joints' feedback and reports. `stepper` names the
/// entry point in the message.
#[cold]
pub(crate) fn contain(island: &[BodyRef], joints: &[JointRef], bad: usize, stepper: &str) {
    for &b in island {
        if b.is_live() {
            b.get_mut().disable();
        }
    }
    let mut culprit = None;
    for &j in joints {
        if !j.is_live() {
            continue; // destroyed by a moved callback
        }
        let joint = j.get_mut();
        joint.head.lambda = [0.0; 6];
        if !joint.head.feedback.is_null() {
            // SAFETY: a live host record registered with dJointSetFeedback.
            unsafe { *joint.head.feedback = std::mem::zeroed() };
        }
        if culprit.is_none() && joint.head.body.contains(&Some(island[bad])) {
            culprit = Some(j);
        }
    }
    report(stepper, island[bad], island.len(), culprit);
}

fn report(stepper: &str, body: BodyRef, island_size: usize, joint: Option<JointRef>) {
    let mut t = StackText::<320>::new();
    let _ = write!(t, "{stepper}: body {:p} would leave the step with a non-finite state", body.as_raw());
    if let Some(j) = joint {
        let _ = write!(t, " (through joint {:p} of type {})", j.as_raw(), j.get().kind.type_code());
    }
    let _ = write!(
        t,
        "; it keeps its last finite position and orientation, at rest, and its island ({island_size} bodies) is disabled"
    );
    error::message(error::D_ERR_IASSERT, t.as_str());
}
