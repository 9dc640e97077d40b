//! The step's guard against non-finite results: what happens when an
//! island's bodies would leave a step with NaN or infinite state although
//! every input was finite (overflow from extreme velocities or step sizes,
//! a degenerate constraint). ODE lets the NaN through (and Debian's build
//! aborts on the next quaternion normalisation); we keep the world finite.
//!
//! Policy (README, "Non-finite step results"): the state of every body of
//! the island (position, orientation, velocities) is put back as it was
//! before this step, its accumulators are cleared as after any step, the
//! island's joints report zero feedback, and every body of the island is
//! disabled, so the failure does not repeat each step. One message names
//! the first failing body and a joint attached to it.
//!
//! A normal step pays one copy of the island's body states and one
//! finiteness test per body; nothing is allocated once warm, and no number
//! of a finite step changes.

use crate::dynamics::body::{Body, BodyRef};
use crate::error::{self, StackText};
use crate::joints::JointRef;
use std::fmt::Write;

/// The part of a body's state that a step changes.
#[derive(Clone, Copy)]
pub(crate) struct SavedState {
    pos: [f64; 4],
    q: [f64; 4],
    r: [f64; 12],
    lvel: [f64; 4],
    avel: [f64; 4],
}

/// Records the island's body states before the step (`saved` is reused).
pub(crate) fn save(island: &[BodyRef], saved: &mut Vec<SavedState>) {
    saved.clear();
    saved.extend(island.iter().map(|&b| {
        let b = b.get();
        SavedState { pos: b.pos, q: b.q, r: b.r, lvel: b.lvel, avel: b.avel }
    }));
}

/// After the island's step: when a live body's state is not finite, puts
/// the island back as saved, disables it and reports. `stepper` names the
/// entry point in the message.
pub(crate) fn check(island: &[BodyRef], joints: &[JointRef], saved: &[SavedState], stepper: &str) {
    let Some(bad) = island.iter().position(|&b| b.is_live() && !state_is_finite(b.get())) else {
        return;
    };
    for (&b, s) in island.iter().zip(saved) {
        if !b.is_live() {
            continue;
        }
        let body = b.get_mut();
        body.pos = s.pos;
        body.q = s.q;
        body.r = s.r;
        body.lvel = s.lvel;
        body.avel = s.avel;
        body.facc = [0.0; 4];
        body.tacc = [0.0; 4];
        body.disable();
        body.geoms_moved();
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

/// Position, orientation and velocities all finite. `x * 0.0` is 0 for a
/// finite `x` and NaN otherwise, so one sum tests every component.
fn state_is_finite(b: &Body) -> bool {
    let mut z = 0.0;
    for k in 0..3 {
        z += b.pos[k] * 0.0 + b.lvel[k] * 0.0 + b.avel[k] * 0.0;
    }
    for v in b.q.iter().chain(b.r.iter()) {
        z += v * 0.0;
    }
    z == 0.0
}

fn report(stepper: &str, body: BodyRef, island_size: usize, joint: Option<JointRef>) {
    let mut t = StackText::<320>::new();
    let _ = write!(t, "{stepper}: body {:p} would leave the step with a non-finite state", body.as_raw());
    if let Some(j) = joint {
        let _ = write!(t, " (through joint {:p} of type {})", j.as_raw(), j.get().kind.type_code());
    }
    let _ = write!(
        t,
        "; its island ({island_size} bodies) keeps its state from before the step and is disabled"
    );
    error::message(error::D_ERR_IASSERT, t.as_str());
}
