//! Constraint solvers of one island.
//!
//! The stepping code (`dynamics::integrator`) builds islands through
//! enabled joints, asks each joint for its rows (`joints::JointKind::info1`
//! / `info2`) into an `IslandRows`, and hands it to one of:
//! - `step::solve_island` (`dWorldStep`): A = J·M⁻¹·Jᵀ + CFM/h and the
//!   right-hand side assembled as ODE's step does, solved by the
//!   Dantzig-style BLCP of `lcp`;
//! - `quick::solve_island` (`dWorldQuickStep`): projected Gauss–Seidel with
//!   successive over-relaxation, warm started from each joint's last λ.
//! Both update the island bodies' velocities (constraint forces plus the
//! accumulated external forces), write `dJointFeedback` where the host
//! asked for it, and store each joint's λ. Moving the bodies stays with
//! the integrator.
//!
//! Layout follows Box2D v3: flat arrays of rows and bodies, indices instead
//! of pointers, buffers kept in `SolverScratch` and reused across steps.

pub mod lcp;
pub mod quick;
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

/// Reusable buffers of both solvers (kept in the world's step scratch).
#[derive(Default)]
pub struct SolverScratch {
    pub f64s: Vec<f64>,
    pub i32s: Vec<i32>,
}
