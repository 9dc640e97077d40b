//! Custom joints: a joint whose rows come from a [`CustomJoint`]
//! implementation, the Rust face of the C custom-joint API of
//! `ode/ode_ext.h` (same core, same stepping). See the README section
//! "Custom joints".
//!
//! ```
//! use ode::api::{CustomInfo1, CustomInfo2, CustomJoint, JointRow, Mass, World};
//!
//! /// Keeps the body's z velocity at zero (one equality row).
//! struct NoVerticalMotion;
//!
//! impl CustomJoint for NoVerticalMotion {
//!     fn info1(&mut self, _: &mut CustomInfo1<'_, '_>) -> (usize, usize) {
//!         (1, 1) // one row, unbounded
//!     }
//!     fn info2(&mut self, _: &mut CustomInfo2<'_, '_>, rows: &mut [JointRow]) {
//!         rows[0].j1l = [0.0, 0.0, 1.0];
//!     }
//! }
//!
//! let mut world = World::new();
//! world.set_gravity([0.0, 0.0, -9.81]).unwrap();
//! let body = world.create_body();
//! body.set_mass(&mut world, &Mass::sphere_total(1.0, 0.1).unwrap()).unwrap();
//! let j = world.create_custom_joint(NoVerticalMotion).unwrap();
//! world.attach(j, Some(body), None).unwrap();
//! for _ in 0..10 {
//!     world.step(0.01).unwrap();
//! }
//! assert!(body.position(&world).unwrap().z.abs() < 1e-9);
//! ```

use super::convert::{mat3_from_ode, quat_from_ode};
use super::{xyz, DMat3, DQuat, DVec3, Error, Joint, Mat3, Result, World};
use crate::dynamics::Body as CoreBody;
use crate::joints::custom::{self as core_custom, CustomModel, Info1Cx, Info2Cx};
use crate::joints::{object as joint_object, JointKind};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Settings of a one-sided limit row (see [`CustomInfo1::limit`]).
pub use crate::joints::custom::Limit;
/// Which boundary an engaged limit row acts at.
pub use crate::joints::custom::Side as LimitSide;
/// One constraint row: `j1l·v1 + j1a·ω1 + j2l·v2 + j2a·ω2 = c + cfm·λ`,
/// `lo ≤ λ ≤ hi`; `findex ≥ 0` makes it a friction row bounded by
/// `lo·|λ_findex|, hi·|λ_findex|` (index within the joint's rows).
pub use crate::joints::Row as JointRow;
/// Most rows a custom joint may have.
pub const MAX_CUSTOM_ROWS: usize = core_custom::MAX_ROWS;

/// Read access to a body's state from inside a custom joint's callbacks.
#[derive(Clone, Copy)]
pub struct BodyState<'a>(&'a CoreBody);

impl BodyState<'_> {
    /// Position of the body's centre of mass.
    pub fn position(&self) -> DVec3 {
        xyz(&self.0.pos)
    }

    /// Orientation as a rotation matrix.
    pub fn rotation(&self) -> DMat3 {
        mat3_from_ode(&self.0.r)
    }

    /// Orientation in ODE's 3x4 row-major padded layout.
    pub fn rotation_ode(&self) -> Mat3 {
        self.0.r
    }

    /// Orientation quaternion.
    pub fn quaternion(&self) -> DQuat {
        quat_from_ode(&self.0.q)
    }

    /// Linear velocity.
    pub fn linear_vel(&self) -> DVec3 {
        xyz(&self.0.lvel)
    }

    /// Angular velocity (world axes).
    pub fn angular_vel(&self) -> DVec3 {
        xyz(&self.0.avel)
    }

    /// A body point in world coordinates.
    pub fn rel_point_pos(&self, p: impl Into<DVec3>) -> DVec3 {
        DVec3::from(self.0.rel_point_pos((p).into().to_array()))
    }

    /// A world point in body coordinates.
    pub fn pos_rel_point(&self, p: impl Into<DVec3>) -> DVec3 {
        DVec3::from(self.0.pos_rel_point((p).into().to_array()))
    }

    /// A body-frame vector in world axes.
    pub fn vector_to_world(&self, v: impl Into<DVec3>) -> DVec3 {
        DVec3::from(self.0.vector_to_world((v).into().to_array()))
    }
}

/// What [`CustomJoint::info1`] sees. `body1` is set whenever the joint has
/// a body (attached as (None, b) it sees (b, None), and `reversed()`).
pub struct CustomInfo1<'a, 'b> {
    cx: &'a mut Info1Cx<'b>,
}

impl CustomInfo1<'_, '_> {
    /// The first body (set whenever the joint has a body).
    pub fn body1(&self) -> Option<BodyState<'_>> {
        self.cx.bodies.b1.map(BodyState)
    }

    /// The second body, if any.
    pub fn body2(&self) -> Option<BodyState<'_>> {
        self.cx.bodies.b2.map(BodyState)
    }

    /// Was the joint attached as (None, body), so the bodies are swapped?
    pub fn reversed(&self) -> bool {
        self.cx.reversed
    }

    /// Decides limit row `slot` (0 ≤ slot < max rows) for the coordinate
    /// value `value`: true if the row is needed this step. Count it in `m`
    /// (not in `nub`) and complete it in `info2` with
    /// [`CustomInfo2::limit_row`]. The joint keeps the slot's engagement
    /// state between steps.
    pub fn limit(&mut self, slot: usize, value: f64, limit: &Limit) -> Result<bool> {
        self.cx.limit(slot, value, limit).map_err(|reason| Error::InvalidArgument { arg: "limit", reason })
    }
}

/// What [`CustomJoint::info2`] sees.
pub struct CustomInfo2<'a, 'b> {
    cx: &'a mut Info2Cx<'b>,
}

impl CustomInfo2<'_, '_> {
    /// The first body (set whenever the joint has a body).
    pub fn body1(&self) -> Option<BodyState<'_>> {
        self.cx.bodies.b1.map(BodyState)
    }

    /// The second body, if any.
    pub fn body2(&self) -> Option<BodyState<'_>> {
        self.cx.bodies.b2.map(BodyState)
    }

    /// Was the joint attached as (None, body), so the bodies are swapped?
    pub fn reversed(&self) -> bool {
        self.cx.reversed
    }

    /// 1 / step size.
    pub fn fps(&self) -> f64 {
        self.cx.fps
    }

    /// The world's ERP.
    pub fn erp(&self) -> f64 {
        self.cx.erp
    }

    /// The world's CFM (every row starts with it).
    pub fn cfm(&self) -> f64 {
        self.cx.cfm
    }

    /// Completes `row` as limit row `slot`: write its Jacobian as the
    /// coordinate's rate first; this sets `c`, `cfm`, `lo`, `hi`.
    pub fn limit_row(&self, slot: usize, row: &mut JointRow) -> Result<()> {
        self.cx.limit_row(slot, row).map_err(|reason| Error::InvalidArgument { arg: "slot", reason })
    }
}

/// A joint defined in Rust. Each step, for an enabled joint with a dynamic
/// body, the stepper calls `info1` then `info2`.
pub trait CustomJoint: Send + 'static {
    /// Most rows `info1` will report (1..=[`MAX_CUSTOM_ROWS`]).
    fn max_rows(&self) -> usize {
        MAX_CUSTOM_ROWS
    }

    /// `(m, nub)`: the number of rows now and how many of the first are
    /// unbounded.
    fn info1(&mut self, info: &mut CustomInfo1<'_, '_>) -> (usize, usize);

    /// Fills `rows` (length m), which arrive zeroed with the world's CFM,
    /// unbounded and without friction index.
    fn info2(&mut self, info: &mut CustomInfo2<'_, '_>, rows: &mut [JointRow]);
}

struct RustModel<T>(T);

impl<T: CustomJoint> CustomModel for RustModel<T> {
    // A panic must not unwind through the step: the joint then adds no
    // rows (info1) or keeps its initial rows (info2), and the step returns
    // the panic as an error.
    fn info1(&mut self, cx: &mut Info1Cx<'_>) -> crate::joints::Info1 {
        match catch_unwind(AssertUnwindSafe(|| self.0.info1(&mut CustomInfo1 { cx }))) {
            Ok((m, nub)) => crate::joints::Info1 { m, nub },
            Err(p) => {
                super::callback_panic::record_panic(p);
                crate::joints::Info1 { m: 0, nub: 0 }
            }
        }
    }

    fn info2(&mut self, cx: &mut Info2Cx<'_>, rows: &mut [JointRow]) {
        if let Err(p) = catch_unwind(AssertUnwindSafe(|| self.0.info2(&mut CustomInfo2 { cx }, rows))) {
            super::callback_panic::record_panic(p);
        }
    }

    fn as_any_mut(&mut self) -> Option<&mut dyn std::any::Any> {
        Some(&mut self.0)
    }
}

impl World {
    /// Creates a custom joint (unattached) from `joint`.
    pub fn create_custom_joint<T: CustomJoint>(&mut self, joint: T) -> Result<Joint> {
        let max = joint.max_rows();
        if !(1..=MAX_CUSTOM_ROWS).contains(&max) {
            return Err(Error::InvalidArgument {
                arg: "max_rows",
                reason: format!("= {max} (must be 1..={MAX_CUSTOM_ROWS})"),
            });
        }
        let c = core_custom::Custom::new(Box::new(RustModel(joint)), max)
            .map_err(|reason| Error::InvalidArgument { arg: "max_rows", reason })?;
        Ok(Joint::new(joint_object::create_joint(self.h, None, JointKind::Custom(c))))
    }
}

impl Joint {
    /// Engagement state of limit slot `slot` of a custom joint.
    pub fn limit_state(&self, w: &World, slot: usize) -> Result<LimitSide> {
        self.resolve(w)?;
        match &self.h.get().kind {
            JointKind::Custom(c) => c
                .limit_slots()
                .get(slot)
                .map(|s| s.side)
                .ok_or_else(|| Error::InvalidArgument { arg: "slot", reason: format!("= {slot} (out of range)") }),
            _ => Err(Error::InvalidArgument { arg: "joint", reason: "is not a custom joint".into() }),
        }
    }

    /// Runs `f` on the custom joint's own value (of type `T`).
    pub fn with_custom<T: CustomJoint, R>(&self, w: &mut World, f: impl FnOnce(&mut T) -> R) -> Result<R> {
        self.resolve(w)?;
        let wrong = || Error::InvalidArgument { arg: "joint", reason: "is not a custom joint of this type".into() };
        match &mut self.h.get_mut().kind {
            JointKind::Custom(c) => {
                let t = c.model_mut().as_any_mut().and_then(|a| a.downcast_mut::<T>()).ok_or_else(wrong)?;
                Ok(f(t))
            }
            _ => Err(wrong()),
        }
    }
}
