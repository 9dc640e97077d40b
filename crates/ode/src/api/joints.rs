//! Joints: the untyped [`Joint`] id (attach, enable, feedback, destroy),
//! typed handles for the built-in types ([`HingeJoint`], [`BallJoint`],
//! [`SliderJoint`], [`FixedJoint`], [`Hinge2Joint`], [`UniversalJoint`],
//! [`PistonJoint`], [`PrJoint`], [`PuJoint`], [`AMotorJoint`],
//! [`LMotorJoint`], [`Plane2DJoint`], [`DBallJoint`], [`DHingeJoint`],
//! [`NullJoint`], [`TransmissionJoint`]),
//! contact joints built from a [`Contact`] with a [`Surface`] builder, and
//! [`JointGroup`]s, which own joints made per step (contacts) and free them
//! together.
//!
//! A typed handle derefs to [`Joint`], so the generic calls work on it too.
//! Like bodies, joints are checked on every use: a destroyed joint gives
//! [`Error::Stale`], one of another world [`Error::WrongWorld`].
//!
//! ```
//! use ode::api::{Mass, Param, World};
//!
//! let mut world = World::new();
//! world.set_gravity([0.0, 0.0, -9.81]).unwrap();
//! let arm = world.create_body();
//! arm.set_mass(&mut world, &Mass::box_total(1.0, 1.0, 0.1, 0.1).unwrap()).unwrap();
//! arm.set_position(&mut world, [0.5, 0.0, 0.0]).unwrap();
//! let hinge = world.create_hinge();
//! world.attach(*hinge, Some(arm), None).unwrap();
//! hinge.set_anchor(&mut world, [0.0, 0.0, 0.0]).unwrap();
//! hinge.set_axis(&mut world, [0.0, 1.0, 0.0]).unwrap();
//! hinge.set_param(&mut world, Param::Vel, 1.0).unwrap();
//! hinge.set_param(&mut world, Param::FMax, 100.0).unwrap();
//! for _ in 0..10 {
//!     world.step(0.01).unwrap();
//! }
//! assert!((hinge.angle_rate(&world).unwrap() - 1.0).abs() < 1e-6);
//! // The anchor on the arm stays at the pivot up to the constraint error.
//! assert!(hinge.anchor(&world).unwrap().length() < 1e-3);
//! ```

use super::collision::ContactGeom;
use super::{finite3, Body, DVec3, Error, Result, World};
use crate::abi::common::dJointFeedback;
use crate::joints::ball::{bodies_of, Ball};
use crate::joints::contact::{mode, ContactJoint, ContactPoint, Surface as CoreSurface};
use crate::joints::fixed::Fixed;
use crate::joints::hinge::{axis_ok, Hinge};
use crate::joints::hinge2::Hinge2;
use crate::joints::limit_motor::{Param as CoreParam, GROUP};
use crate::joints::object as joint_object;
use crate::joints::slider::Slider;
use crate::joints::transmission::{Transmission, MODE_CHAIN, MODE_INTERSECTING, MODE_PARALLEL};
use crate::joints::universal::Universal;
use crate::joints::{
    amotor::AMotor, dball::DBall, dhinge::DHinge, lmotor::LMotor, null::Null, piston::Piston, plane2d::Plane2D, pr::Pr,
    pu::Pu,
};
use crate::joints::{flags as jflags, JointGroupRef, JointHead, JointKind, JointRef, JOINTS, JOINT_GROUPS};

/// A joint of some [`World`]: a copyable id, checked on use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Joint {
    pub(super) h: JointRef,
    /// The cell's generation when the joint was made (see
    /// `Handle::generation`): a later joint in the same cell is not this one.
    generation: u32,
}

/// Forces and torques a joint applied in the last step (`dJointFeedback`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Feedback {
    /// Force on body 1.
    pub f1: DVec3,
    /// Torque on body 1.
    pub t1: DVec3,
    /// Force on body 2.
    pub f2: DVec3,
    /// Torque on body 2.
    pub t2: DVec3,
}

impl Joint {
    pub(super) fn new(h: JointRef) -> Joint {
        Joint { h, generation: h.generation() }
    }

    pub(super) fn resolve(&self, w: &World) -> Result<()> {
        let live = JOINTS.check(self.h.as_raw()).ok_or(Error::Stale("joint"))?;
        let head = &live.get().head;
        if live.generation() != self.generation {
            return Err(Error::Stale("joint"));
        }
        if head.world_destroyed || head.world != w.h {
            return Err(Error::WrongWorld);
        }
        Ok(())
    }

    /// The C handle (`dJointID`), for the generic `dJoint*` functions.
    pub fn as_raw(&self) -> *mut core::ffi::c_void {
        self.h.as_raw()
    }

    /// Is the joint enabled?
    pub fn is_enabled(&self, w: &World) -> Result<bool> {
        self.resolve(w)?;
        Ok(self.h.get().head.flags & jflags::DISABLED == 0)
    }

    /// Enables or disables the joint (a disabled joint adds no rows).
    pub fn set_enabled(&self, w: &mut World, on: bool) -> Result<()> {
        self.resolve(w)?;
        let f = &mut self.h.get_mut().head.flags;
        if on {
            *f &= !jflags::DISABLED;
        } else {
            *f |= jflags::DISABLED;
        }
        Ok(())
    }

    /// Number of attached bodies (0, 1 or 2).
    pub fn num_bodies(&self, w: &World) -> Result<usize> {
        self.resolve(w)?;
        Ok(joint_object::num_bodies(self.h) as usize)
    }

    /// Turns feedback on or off. With it on, each step records the forces
    /// and torques the joint applied, read with [`Joint::feedback`].
    pub fn set_feedback(&self, w: &mut World, on: bool) -> Result<()> {
        self.resolve(w)?;
        let head = &mut self.h.get_mut().head;
        if on {
            if head.feedback.is_null() {
                head.feedback = w.feedback_slot(self.h);
            }
        } else {
            head.feedback = std::ptr::null_mut();
        }
        Ok(())
    }

    /// The forces of the last step if feedback is on.
    pub fn feedback(&self, w: &World) -> Result<Option<Feedback>> {
        self.resolve(w)?;
        let p = self.h.get().head.feedback;
        if p.is_null() || !w.owns_feedback(p) {
            return Ok(None);
        }
        // SAFETY: the slot is one of this world's boxed feedback records,
        // alive as long as the world.
        let f = unsafe { &*p };
        let v = |a: &[f64; 4]| DVec3::new(a[0], a[1], a[2]);
        Ok(Some(Feedback { f1: v(&f.f1), t1: v(&f.t1), f2: v(&f.f2), t2: v(&f.t2) }))
    }
}

// ---- joint parameters ---------------------------------------------------------------

/// A limit or motor parameter (ODE's `dParam*`, first axis; see
/// [`HingeJoint::set_param`] and the `*_axis` variants for other axes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    /// Low stop (angle or position); -inf: none.
    LoStop,
    /// High stop; +inf: none.
    HiStop,
    /// Motor target velocity.
    Vel,
    /// Lower bound of the motor velocity (ODE 0.16 extension).
    LoVel,
    /// Upper bound of the motor velocity.
    HiVel,
    /// Most force or torque the motor may use (0: motor off).
    FMax,
    /// Fudge factor on the motor's effect near stops.
    FudgeFactor,
    /// Bounciness of the stops (0..1).
    Bounce,
    /// Constraint force mixing when not at a stop.
    Cfm,
    /// ERP at the stops.
    StopErp,
    /// CFM at the stops.
    StopCfm,
    /// Suspension ERP (hinge2).
    SuspensionErp,
    /// Suspension CFM (hinge2).
    SuspensionCfm,
    /// ERP of the joint's own rows (where supported).
    Erp,
}

impl Param {
    fn core(self) -> CoreParam {
        match self {
            Param::LoStop => CoreParam::LoStop,
            Param::HiStop => CoreParam::HiStop,
            Param::Vel => CoreParam::Vel,
            Param::LoVel => CoreParam::LoVel,
            Param::HiVel => CoreParam::HiVel,
            Param::FMax => CoreParam::FMax,
            Param::FudgeFactor => CoreParam::FudgeFactor,
            Param::Bounce => CoreParam::Bounce,
            Param::Cfm => CoreParam::Cfm,
            Param::StopErp => CoreParam::StopErp,
            Param::StopCfm => CoreParam::StopCfm,
            Param::SuspensionErp => CoreParam::SuspensionErp,
            Param::SuspensionCfm => CoreParam::SuspensionCfm,
            Param::Erp => CoreParam::Erp,
        }
    }

    /// ODE's code for this parameter of axis `axis` (0-based).
    fn code(self, axis: usize) -> i32 {
        self.core() as i32 + GROUP * axis as i32
    }
}

fn not_nan(name: &'static str, v: f64) -> Result<f64> {
    if v.is_nan() {
        Err(Error::InvalidArgument { arg: name, reason: "is NaN".into() })
    } else {
        Ok(v)
    }
}

fn axis_index(axis: usize, n: usize) -> Result<usize> {
    if axis < n {
        Ok(axis)
    } else {
        Err(Error::InvalidArgument { arg: "axis", reason: format!("= {axis} (the joint has {n} axes)") })
    }
}

// ---- typed handles ---------------------------------------------------------------------

macro_rules! typed_joint {
    ($(#[$doc:meta])* $name:ident, $variant:ident, $model:ty, $what:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct $name(Joint);

        impl std::ops::Deref for $name {
            type Target = Joint;
            fn deref(&self) -> &Joint {
                &self.0
            }
        }

        impl From<$name> for Joint {
            fn from(j: $name) -> Joint {
                j.0
            }
        }

        impl $name {
            /// The joint's head and model, checked.
            #[allow(dead_code)]
            fn parts<'w>(&self, w: &'w World) -> Result<(&'w JointHead, &'w mut $model)> {
                self.0.resolve(w)?;
                let j = self.0.h.get_mut();
                match &mut j.kind {
                    JointKind::$variant(m) => Ok((&j.head, m)),
                    _ => Err(Error::InvalidArgument { arg: "joint", reason: concat!("is not a ", $what).into() }),
                }
            }
        }
    };
}

typed_joint!(
    /// A hinge (revolute) joint: one rotation axis, with limits and a motor.
    HingeJoint, Hinge, Hinge, "hinge joint"
);
typed_joint!(
    /// A ball-and-socket joint.
    BallJoint, Ball, Ball, "ball joint"
);
typed_joint!(
    /// A slider (prismatic) joint: one translation axis, with limits and a motor.
    SliderJoint, Slider, Slider, "slider joint"
);
typed_joint!(
    /// A fixed joint: keeps the relative pose it had when [`FixedJoint::set_fixed`] was called.
    FixedJoint, Fixed, Fixed, "fixed joint"
);
typed_joint!(
    /// A hinge-2 joint (a wheel: steering axis 1 on body 1, axle axis 2 on
    /// body 2, suspension along axis 1).
    Hinge2Joint, Hinge2, Hinge2, "hinge2 joint"
);
typed_joint!(
    /// A universal joint: two perpendicular rotation axes.
    UniversalJoint, Universal, Universal, "universal joint"
);
typed_joint!(
    /// A piston joint: slides along and turns about one axis.
    PistonJoint, Piston, Piston, "piston joint"
);
typed_joint!(
    /// An angular motor: drives or limits up to three rotation axes.
    AMotorJoint, AMotor, AMotor, "angular motor joint"
);
typed_joint!(
    /// A linear motor: drives or limits translation along up to three axes.
    LMotorJoint, LMotor, LMotor, "linear motor joint"
);
typed_joint!(
    /// A plane-2D joint: keeps a body in the z = 0 plane, upright.
    Plane2DJoint, Plane2D, Plane2D, "plane-2D joint"
);
typed_joint!(
    /// A null joint: no constraint (for testing and placeholders).
    NullJoint, Null, Null, "null joint"
);
typed_joint!(
    /// A prismatic-rotoide joint: slides along axis 1, turns about axis 2.
    PrJoint, Pr, Pr, "PR joint"
);
typed_joint!(
    /// A prismatic-universal joint: slides along axis P, turns about axes 1 and 2.
    PuJoint, Pu, Pu, "PU joint"
);
typed_joint!(
    /// A double-ball joint: keeps two anchor points at a set distance.
    DBallJoint, DBall, DBall, "double ball joint"
);

/// The frame a motor axis is given in (ODE's `rel` argument).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AxisFrame {
    /// Fixed in the world (0).
    World,
    /// Fixed to body 1 (1).
    Body1,
    /// Fixed to body 2 (2).
    Body2,
}

impl AxisFrame {
    fn code(self) -> i32 {
        match self {
            AxisFrame::World => 0,
            AxisFrame::Body1 => 1,
            AxisFrame::Body2 => 2,
        }
    }
}

fn unattached() -> Error {
    Error::InvalidArgument { arg: "joint", reason: "is not attached".into() }
}

fn opt3(v: Option<[f64; 3]>) -> Result<DVec3> {
    v.map(DVec3::from).ok_or_else(unattached)
}

/// A finite axis, non-zero when the joint is attached (ODE aborts on a
/// zero axis then; unattached, it ignores the axis).
fn checked_axis(head: &JointHead, a: impl Into<DVec3>) -> Result<[f64; 3]> {
    let a = finite3("axis", a)?;
    if head.body[0].is_some() && !axis_ok(a) {
        return Err(Error::InvalidArgument { arg: "axis", reason: format!("{a:?} cannot be normalised") });
    }
    Ok(a)
}

/// Generates typed-handle methods from one-line specs, so each joint lists
/// only what is its own: the core call and the kind of argument. Every
/// generated method checks the handle (stale, foreign, wrong type) and its
/// arguments before changing anything.
///
/// `|head, j, b|` names the joint's head, its model and its bodies for the
/// expressions. Forms (each ends with `;`):
/// - `fn name(point p) => expr` sets a finite point (checked first);
/// - `fn name(axis a) => expr` sets a finite axis, non-zero when attached;
/// - `fn name(real x) => expr` takes a finite number;
/// - `fn name() -> vec expr` reads an `Option<[f64; 3]>` (None: unattached);
/// - `fn name() -> point expr` reads a `[f64; 3]`;
/// - `fn name() -> real expr` reads an `f64`; `opt_real` an `Option<f64>`;
/// - `params(n) { set(axis, p, v) => expr; get(axis, p) => expr; }`:
///   `set_param`/`param` (axis 0) and, for n > 1, `set_param_axis`/`param_axis`.
macro_rules! joint_fns {
    ($ty:ident |$head:ident, $j:ident, $b:ident| { $($items:tt)* }) => {
        impl $ty {
            joint_fns!(@ $head $j $b; $($items)*);
        }
    };
    (@ $head:ident $j:ident $b:ident;) => {};
    (@ $head:ident $j:ident $b:ident; $(#[$d:meta])* fn $name:ident(point $p:ident) => $e:expr; $($rest:tt)*) => {
        $(#[$d])*
        #[allow(unused_variables)]
        pub fn $name(&self, w: &mut World, $p: impl Into<DVec3>) -> Result<()> {
            let $p = finite3(stringify!($p), $p)?;
            let ($head, $j) = self.parts(w)?;
            let $b = bodies_of($head);
            $e;
            Ok(())
        }
        joint_fns!(@ $head $j $b; $($rest)*);
    };
    (@ $head:ident $j:ident $b:ident; $(#[$d:meta])* fn $name:ident(axis $a:ident) => $e:expr; $($rest:tt)*) => {
        $(#[$d])*
        #[allow(unused_variables)]
        pub fn $name(&self, w: &mut World, $a: impl Into<DVec3>) -> Result<()> {
            let ($head, $j) = self.parts(w)?;
            let $a = checked_axis($head, $a)?;
            let $b = bodies_of($head);
            $e;
            Ok(())
        }
        joint_fns!(@ $head $j $b; $($rest)*);
    };
    (@ $head:ident $j:ident $b:ident; $(#[$d:meta])* fn $name:ident(real $x:ident) => $e:expr; $($rest:tt)*) => {
        $(#[$d])*
        #[allow(unused_variables)]
        pub fn $name(&self, w: &mut World, $x: f64) -> Result<()> {
            let $x = super::finite(stringify!($x), $x)?;
            let ($head, $j) = self.parts(w)?;
            let $b = bodies_of($head);
            $e;
            Ok(())
        }
        joint_fns!(@ $head $j $b; $($rest)*);
    };
    (@ $head:ident $j:ident $b:ident; $(#[$d:meta])* fn $name:ident() -> $kind:ident $e:expr; $($rest:tt)*) => {
        $(#[$d])*
        #[allow(unused_variables)]
        pub fn $name(&self, w: &World) -> Result<joint_fns!(@type $kind)> {
            let ($head, $j) = self.parts(w)?;
            let $b = bodies_of($head);
            joint_fns!(@wrap $kind $e)
        }
        joint_fns!(@ $head $j $b; $($rest)*);
    };
    (@ $head:ident $j:ident $b:ident; params(1) {
        set($sa:ident, $sp:ident, $sv:ident) => $set:expr; get($ga:ident, $gp:ident) => $get:expr;
    } $($rest:tt)*) => {
        /// Sets a limit/motor parameter (a NaN value is refused).
        #[allow(unused_variables)]
        pub fn set_param(&self, w: &mut World, p: Param, v: f64) -> Result<()> {
            let ($sa, $sp, $sv) = (0usize, p, not_nan("value", v)?);
            let ($head, $j) = self.parts(w)?;
            $set;
            Ok(())
        }

        /// A limit/motor parameter.
        #[allow(unused_variables)]
        pub fn param(&self, w: &World, p: Param) -> Result<f64> {
            let ($ga, $gp) = (0usize, p);
            let ($head, $j) = self.parts(w)?;
            Ok($get)
        }
        joint_fns!(@ $head $j $b; $($rest)*);
    };
    (@ $head:ident $j:ident $b:ident; params($n:literal) {
        set($sa:ident, $sp:ident, $sv:ident) => $set:expr; get($ga:ident, $gp:ident) => $get:expr;
    } $($rest:tt)*) => {
        #[doc = concat!("Sets a limit/motor parameter of axis `axis` (0..", stringify!($n), ").")]
        #[allow(unused_variables)]
        pub fn set_param_axis(&self, w: &mut World, axis: usize, p: Param, v: f64) -> Result<()> {
            let ($sa, $sp) = (axis_index(axis, $n)?, p);
            let $sv = not_nan("value", v)?;
            let ($head, $j) = self.parts(w)?;
            $set;
            Ok(())
        }

        /// A limit/motor parameter of axis `axis`.
        #[allow(unused_variables)]
        pub fn param_axis(&self, w: &World, axis: usize, p: Param) -> Result<f64> {
            let ($ga, $gp) = (axis_index(axis, $n)?, p);
            let ($head, $j) = self.parts(w)?;
            Ok($get)
        }

        /// Sets a parameter of axis 0 (see [`Self::set_param_axis`]).
        pub fn set_param(&self, w: &mut World, p: Param, v: f64) -> Result<()> {
            self.set_param_axis(w, 0, p, v)
        }

        /// A parameter of axis 0.
        pub fn param(&self, w: &World, p: Param) -> Result<f64> {
            self.param_axis(w, 0, p)
        }
        joint_fns!(@ $head $j $b; $($rest)*);
    };
    (@type vec) => { DVec3 };
    (@type point) => { DVec3 };
    (@type real) => { f64 };
    (@type opt_real) => { f64 };
    (@wrap vec $e:expr) => { opt3($e) };
    (@wrap point $e:expr) => { Ok(DVec3::from($e)) };
    (@wrap real $e:expr) => { Ok($e) };
    (@wrap opt_real $e:expr) => { $e.ok_or_else(unattached) };
}

joint_fns!(HingeJoint |head, h, b| {
    /// Sets the anchor point, in world coordinates.
    fn set_anchor(point anchor) => h.set_anchor(b, anchor);
    /// The anchor on body 1, in world coordinates.
    fn anchor() -> vec h.anchor(head, b);
    /// The anchor on body 2 (differs from [`HingeJoint::anchor`] when the
    /// joint is pulled apart).
    fn anchor2() -> vec h.anchor2(head, b);
    /// Sets the axis, in world coordinates.
    fn set_axis(axis axis) => h.set_axis(b, axis);
    /// The axis in world coordinates.
    fn axis() -> vec h.axis(b);
    /// The hinge angle (0 at attachment), in (-pi, pi].
    fn angle() -> real h.angle(head, b);
    /// The angle's time derivative.
    fn angle_rate() -> real h.angle_rate(head, b);
    /// Applies a torque about the axis to the bodies (`dJointAddHingeTorque`).
    fn add_torque(real torque) => h.torque_push(head, b, torque).apply(head);
    params(1) { set(_a, p, v) => h.limot.set(p.core(), v); get(_a, p) => h.limot.get(p.core()); }
});

joint_fns!(BallJoint |head, j, b| {
    /// Sets the anchor point, in world coordinates.
    fn set_anchor(point anchor) => j.set_anchor(b, anchor);
    /// The anchor on body 1, in world coordinates.
    fn anchor() -> vec j.anchor(head, b);
    /// The anchor on body 2, in world coordinates.
    fn anchor2() -> vec j.anchor2(head, b);
    params(1) { set(_a, p, v) => j.set_param(p.core(), v); get(_a, p) => j.param(p.core()); }
});

joint_fns!(SliderJoint |head, s, b| {
    /// Sets the axis, in world coordinates.
    fn set_axis(axis axis) => s.set_axis(b, axis);
    /// The axis in world coordinates.
    fn axis() -> vec s.axis(b);
    /// The slider position (0 at attachment).
    fn position() -> opt_real s.position(head, b);
    /// The position's time derivative.
    fn position_rate() -> opt_real s.position_rate(head, b);
    /// Applies a force along the axis to the bodies (`dJointAddSliderForce`).
    fn add_force(real force) => s.force_push(head, b, force).apply(head);
    params(1) { set(_a, p, v) => s.limot.set(p.core(), v); get(_a, p) => s.limot.get(p.core()); }
});

joint_fns!(FixedJoint |head, f, b| {
    params(1) { set(_a, p, v) => f.set_param(p.core(), v); get(_a, p) => f.param(p.core()); }
});

impl FixedJoint {
    /// Records the current relative pose of the attached bodies as the one
    /// to keep (`dJointSetFixed`); call after attaching.
    pub fn set_fixed(&self, w: &mut World) -> Result<()> {
        let (head, f) = self.parts(w)?;
        f.set_fixed(bodies_of(head));
        Ok(())
    }
}

joint_fns!(Hinge2Joint |head, h, b| {
    /// Sets the anchor point, in world coordinates.
    fn set_anchor(point anchor) => h.set_anchor(b, anchor);
    /// The anchor on body 1, in world coordinates.
    fn anchor() -> vec h.anchor(head, b);
    /// The anchor on body 2, in world coordinates.
    fn anchor2() -> vec h.anchor2(head, b);
    /// Axis 1 (steering) in world coordinates.
    fn axis1() -> vec h.axis1_world(b);
    /// Axis 2 (axle) in world coordinates.
    fn axis2() -> vec h.axis2_world(b);
    /// The angle about axis 1.
    fn angle1() -> real h.angle1(b);
    /// The angle about axis 2.
    fn angle2() -> real h.angle2(b);
    /// The rate about axis 1.
    fn angle1_rate() -> real h.angle1_rate(b);
    /// The rate about axis 2 (the wheel's spin).
    fn angle2_rate() -> real h.angle2_rate(b);
    params(2) { set(a, p, v) => h.set_param(p.code(a), v); get(a, p) => h.param(p.code(a)); }
});

impl Hinge2Joint {
    /// Sets both axes in world coordinates (`dJointSetHinge2Axes`); either
    /// may be None to keep it. The joint must be attached to two bodies and
    /// the axes must not be parallel.
    pub fn set_axes(&self, w: &mut World, axis1: Option<DVec3>, axis2: Option<DVec3>) -> Result<()> {
        let (head, h) = self.parts(w)?;
        if axis1.is_none() && axis2.is_none() {
            return Err(Error::InvalidArgument { arg: "axis1", reason: "and axis2 are both None".into() });
        }
        if head.body[0].is_none() || head.body[1].is_none() {
            return Err(Error::InvalidArgument { arg: "joint", reason: "is not attached to two bodies".into() });
        }
        let mut a = [None, None];
        for (i, (name, v)) in [("axis1", axis1), ("axis2", axis2)].into_iter().enumerate() {
            if let Some(v) = v {
                let v = finite3(name, v)?;
                if !axis_ok(v) {
                    return Err(Error::InvalidArgument { arg: name, reason: format!("{v:?} cannot be normalised") });
                }
                a[i] = Some(v);
            }
        }
        let b = bodies_of(head);
        if !h.axes_independent(b, a[0], a[1]) {
            return Err(Error::InvalidArgument { arg: "axis2", reason: "is parallel to axis1".into() });
        }
        h.set_axes(b, a[0], a[1]);
        Ok(())
    }

    /// Applies torques about axis 1 and axis 2 (`dJointAddHinge2Torques`).
    pub fn add_torques(&self, w: &mut World, torque1: f64, torque2: f64) -> Result<()> {
        let torque1 = super::finite("torque1", torque1)?;
        let torque2 = super::finite("torque2", torque2)?;
        let (head, h) = self.parts(w)?;
        h.torque_push(bodies_of(head), torque1, torque2).apply(head);
        Ok(())
    }
}

joint_fns!(UniversalJoint |head, u, b| {
    /// Sets the anchor point, in world coordinates.
    fn set_anchor(point anchor) => u.set_anchor(b, anchor);
    /// The anchor on body 1, in world coordinates.
    fn anchor() -> vec u.anchor(head, b);
    /// The anchor on body 2, in world coordinates.
    fn anchor2() -> vec u.anchor2(head, b);
    /// Sets axis 1 (on body 1), in world coordinates.
    fn set_axis1(axis axis) => u.set_axis(head, b, true, axis);
    /// Sets axis 2 (on body 2), in world coordinates.
    fn set_axis2(axis axis) => u.set_axis(head, b, false, axis);
    /// Axis 1 in world coordinates.
    fn axis1() -> vec u.ax.user_axis1(head, b);
    /// Axis 2 in world coordinates.
    fn axis2() -> vec u.ax.user_axis2(head, b);
    /// The angle about axis 1.
    fn angle1() -> real u.user_angle1(head, b);
    /// The angle about axis 2.
    fn angle2() -> real u.user_angle2(head, b);
    /// The rate about axis 1.
    fn angle1_rate() -> real u.angle_rate(head, b, true);
    /// The rate about axis 2.
    fn angle2_rate() -> real u.angle_rate(head, b, false);
    params(2) { set(a, p, v) => u.limot(a).set(p.core(), v); get(a, p) => u.limot(a).get(p.core()); }
});

impl UniversalJoint {
    /// Applies torques about axis 1 and axis 2 (`dJointAddUniversalTorques`).
    pub fn add_torques(&self, w: &mut World, torque1: f64, torque2: f64) -> Result<()> {
        let torque1 = super::finite("torque1", torque1)?;
        let torque2 = super::finite("torque2", torque2)?;
        let (head, u) = self.parts(w)?;
        u.torque_push(head, bodies_of(head), torque1, torque2).apply(head);
        Ok(())
    }
}

joint_fns!(PistonJoint |head, j, b| {
    /// Sets the anchor point, in world coordinates.
    fn set_anchor(point anchor) => j.set_anchor_at(b, anchor, None);
    /// The anchor on body 1, in world coordinates.
    fn anchor() -> vec j.anchor(head, b);
    /// The anchor on body 2, in world coordinates.
    fn anchor2() -> vec j.anchor2(head, b);
    /// Sets the axis, in world coordinates.
    fn set_axis(axis axis) => j.set_axis(b, axis);
    /// The axis in world coordinates.
    fn axis() -> vec j.axis(b);
    /// The position along the axis.
    fn position() -> real j.position(head, b);
    /// The position's time derivative.
    fn position_rate() -> opt_real j.position_rate(head, b);
    /// The angle about the axis.
    fn angle() -> real j.angle(head, b);
    /// The angle's time derivative.
    fn angle_rate() -> real j.angle_rate(head, b);
    /// Applies a force along the axis (`dJointAddPistonForce`).
    fn add_force(real force) => j.force_push(head, b, force).apply(head);
    params(2) { set(a, p, v) => j.set_param(p.code(a), v); get(a, p) => j.param(p.code(a)); }
});

joint_fns!(PrJoint |head, j, b| {
    /// Sets the anchor point, in world coordinates.
    fn set_anchor(point anchor) => j.set_anchor(b, anchor);
    /// The anchor on body 1, in world coordinates.
    fn anchor() -> point j.anchor(b);
    /// Sets the prismatic axis (1), in world coordinates.
    fn set_axis1(axis axis) => j.set_axis1(b, axis);
    /// Sets the rotoide axis (2), in world coordinates.
    fn set_axis2(axis axis) => j.set_axis2(b, axis);
    /// The prismatic axis in world coordinates.
    fn axis1() -> vec j.axis1(b);
    /// The rotoide axis in world coordinates.
    fn axis2() -> vec j.axis2(b);
    /// The position along axis 1.
    fn position() -> opt_real j.position(head, b);
    /// The position's time derivative.
    fn position_rate() -> opt_real j.position_rate(head, b);
    /// The angle about axis 2.
    fn angle() -> real j.angle(head, b);
    /// The angle's time derivative.
    fn angle_rate() -> real j.angle_rate(head, b);
    /// Applies a torque about the rotoide axis (`dJointAddPRTorque`).
    fn add_torque(real torque) => j.torque_push(head, b, torque).apply(head);
    params(2) { set(a, p, v) => j.set_param(p.code(a), v); get(a, p) => j.param(p.code(a)); }
});

joint_fns!(PuJoint |head, j, b| {
    /// Sets the anchor point, in world coordinates.
    fn set_anchor(point anchor) => j.set_anchor_at(b, anchor, None);
    /// The anchor on body 1, in world coordinates.
    fn anchor() -> point j.anchor(b);
    /// Sets rotation axis 1 (on body 1), in world coordinates.
    fn set_axis1(axis axis) => j.set_axis(head, b, true, axis);
    /// Sets rotation axis 2 (on body 2), in world coordinates.
    fn set_axis2(axis axis) => j.set_axis(head, b, false, axis);
    /// Sets the prismatic axis, in world coordinates.
    fn set_axis_p(axis axis) => j.set_axis_p(b, axis);
    /// Rotation axis 1 in world coordinates.
    fn axis1() -> vec j.ax.user_axis1(head, b);
    /// Rotation axis 2 in world coordinates.
    fn axis2() -> vec j.ax.user_axis2(head, b);
    /// The prismatic axis in world coordinates.
    fn axis_p() -> vec j.axis_p(b);
    /// The position along the prismatic axis.
    fn position() -> opt_real j.position(head, b);
    /// The position's time derivative.
    fn position_rate() -> real j.position_rate(head, b);
    /// The angle about axis 1.
    fn angle1() -> real j.user_angle(head, b, true);
    /// The angle about axis 2.
    fn angle2() -> real j.user_angle(head, b, false);
    /// The rate about axis 1.
    fn angle1_rate() -> real j.angle_rate(head, b, true);
    /// The rate about axis 2.
    fn angle2_rate() -> real j.angle_rate(head, b, false);
    /// Applies a torque (`dJointAddPUTorque`).
    fn add_torque(real torque) => j.torque_push(head, b, torque).apply(head);
    params(3) { set(a, p, v) => j.set_param(p.code(a), v); get(a, p) => j.param(p.code(a)); }
});

typed_joint!(
    /// A double-hinge joint: a double-ball joint whose two bodies also keep
    /// a common axis.
    DHingeJoint, DHinge, DHinge, "double hinge joint"
);

typed_joint!(
    /// A transmission joint: couples the rotation of two bodies as gears
    /// ([`TransmissionMode::Parallel`] or [`TransmissionMode::Intersecting`]
    /// axes) or as a chain drive ([`TransmissionMode::Chain`]).
    TransmissionJoint, Transmission, Transmission, "transmission joint"
);

/// The anchor index argument (0 on body 1, 1 on body 2).
fn which_index(which: usize) -> Result<usize> {
    axis_index(which, 2).map_err(|_| Error::InvalidArgument { arg: "which", reason: format!("= {which} (0 or 1)") })
}

impl DHingeJoint {
    /// Sets the axis, in world coordinates (the joint must be attached).
    pub fn set_axis(&self, w: &mut World, a: impl Into<DVec3>) -> Result<()> {
        let a = finite3("axis", a)?;
        let (head, h) = self.parts(w)?;
        if head.body[0].is_none() {
            return Err(unattached());
        }
        if !axis_ok(a) {
            return Err(Error::InvalidArgument { arg: "axis", reason: format!("{a:?} cannot be normalised") });
        }
        h.set_axis(bodies_of(head), a);
        Ok(())
    }

    /// The axis in world coordinates.
    pub fn axis(&self, w: &World) -> Result<DVec3> {
        let (head, h) = self.parts(w)?;
        opt3(h.axis(bodies_of(head)))
    }

    /// Sets anchor `which` (0 on body 1, 1 on body 2), in world coordinates.
    pub fn set_anchor(&self, w: &mut World, which: usize, p: impl Into<DVec3>) -> Result<()> {
        let which = which_index(which)?;
        let p = finite3("anchor", p)?;
        let (head, h) = self.parts(w)?;
        h.ball.set_anchor(head, bodies_of(head), which, p);
        Ok(())
    }

    /// Anchor `which` in world coordinates.
    pub fn anchor(&self, w: &World, which: usize) -> Result<DVec3> {
        let which = which_index(which)?;
        let (head, h) = self.parts(w)?;
        Ok(DVec3::from(h.ball.anchor(head, bodies_of(head), which)))
    }

    /// The distance kept between the anchors (set when the second anchor is).
    pub fn distance(&self, w: &World) -> Result<f64> {
        Ok(self.parts(w)?.1.ball.target)
    }
}

joint_fns!(DHingeJoint |head, h, b| {
    params(1) { set(_a, p, v) => h.ball.set_param(Some(p.core()), v); get(_a, p) => h.ball.param(Some(p.core())); }
});

impl DBallJoint {
    /// Sets anchor `which` (0 on body 1, 1 on body 2), in world coordinates.
    pub fn set_anchor(&self, w: &mut World, which: usize, p: impl Into<DVec3>) -> Result<()> {
        let which = which_index(which)?;
        let p = finite3("anchor", p)?;
        let (head, d) = self.parts(w)?;
        d.set_anchor(head, bodies_of(head), which, p);
        Ok(())
    }

    /// Anchor `which` in world coordinates.
    pub fn anchor(&self, w: &World, which: usize) -> Result<DVec3> {
        let which = which_index(which)?;
        let (head, d) = self.parts(w)?;
        Ok(DVec3::from(d.anchor(head, bodies_of(head), which)))
    }

    /// Sets the distance to keep (>= 0).
    pub fn set_distance(&self, w: &mut World, dist: f64) -> Result<()> {
        if !(dist.is_finite() && dist >= 0.0) {
            return Err(Error::InvalidArgument { arg: "dist", reason: format!("= {dist} (must be finite and >= 0)") });
        }
        self.parts(w)?.1.target = dist;
        Ok(())
    }

    /// The distance kept between the anchors.
    pub fn distance(&self, w: &World) -> Result<f64> {
        Ok(self.parts(w)?.1.target)
    }
}

joint_fns!(DBallJoint |head, d, b| {
    params(1) { set(_a, p, v) => d.set_param(Some(p.core()), v); get(_a, p) => d.param(Some(p.core())); }
});

/// How a [`TransmissionJoint`] couples its bodies (`dTransmission*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransmissionMode {
    /// Gears on parallel axes; the ratio is set with
    /// [`TransmissionJoint::set_ratio`] (ODE's default mode).
    Parallel,
    /// Bevel gears on intersecting axes; the ratio follows from the anchors.
    Intersecting,
    /// A chain drive between two sprockets of the given radii.
    Chain,
}

impl TransmissionMode {
    fn code(self) -> i32 {
        match self {
            TransmissionMode::Parallel => MODE_PARALLEL,
            TransmissionMode::Intersecting => MODE_INTERSECTING,
            TransmissionMode::Chain => MODE_CHAIN,
        }
    }

    fn from_code(code: i32) -> TransmissionMode {
        match code {
            MODE_INTERSECTING => TransmissionMode::Intersecting,
            MODE_CHAIN => TransmissionMode::Chain,
            _ => TransmissionMode::Parallel,
        }
    }
}

impl TransmissionJoint {
    /// The joint in a mode among `modes`, else an error naming `what`.
    fn in_mode<'w>(
        &self,
        w: &'w World,
        modes: &[TransmissionMode],
        what: &'static str,
    ) -> Result<(&'w JointHead, &'w mut Transmission)> {
        let (head, t) = self.parts(w)?;
        let mode = TransmissionMode::from_code(t.mode);
        if !modes.contains(&mode) {
            return Err(Error::InvalidArgument { arg: what, reason: format!("cannot be used in mode {mode:?}") });
        }
        Ok((head, t))
    }

    /// A finite axis that can be normalised in the frame of the wheels `wheels`.
    fn wheel_axis(head: &JointHead, wheels: &[usize], a: impl Into<DVec3>) -> Result<[f64; 3]> {
        let a = finite3("axis", a)?;
        if !wheels.iter().all(|&i| Transmission::axis_acceptable(bodies_of(head), i, a)) {
            return Err(Error::InvalidArgument { arg: "axis", reason: format!("{a:?} cannot be normalised") });
        }
        Ok(a)
    }

    /// Sets the mode.
    pub fn set_mode(&self, w: &mut World, mode: TransmissionMode) -> Result<()> {
        self.parts(w)?.1.mode = mode.code();
        Ok(())
    }

    /// The mode.
    pub fn mode(&self, w: &World) -> Result<TransmissionMode> {
        Ok(TransmissionMode::from_code(self.parts(w)?.1.mode))
    }

    /// Sets the common axis of both wheels, in world coordinates (parallel
    /// and chain modes).
    pub fn set_axis(&self, w: &mut World, a: impl Into<DVec3>) -> Result<()> {
        let (head, t) = self.in_mode(w, &[TransmissionMode::Parallel, TransmissionMode::Chain], "axis")?;
        let a = Self::wheel_axis(head, &[0, 1], a)?;
        let b = bodies_of(head);
        t.set_axis(b, 0, a);
        t.set_axis(b, 1, a);
        Ok(())
    }

    /// Sets the axis of wheel `which` (0 or 1), in world coordinates
    /// (intersecting mode).
    pub fn set_wheel_axis(&self, w: &mut World, which: usize, a: impl Into<DVec3>) -> Result<()> {
        let which = which_index(which)?;
        let (head, t) = self.in_mode(w, &[TransmissionMode::Intersecting], "axis")?;
        let a = Self::wheel_axis(head, &[which], a)?;
        t.set_axis(bodies_of(head), which, a);
        Ok(())
    }

    /// The axis of wheel `which`, in world coordinates.
    pub fn wheel_axis_of(&self, w: &World, which: usize) -> Result<DVec3> {
        let which = which_index(which)?;
        let (head, t) = self.parts(w)?;
        opt3(t.axis(bodies_of(head), which))
    }

    /// Sets the anchor of wheel `which` (0 or 1), in world coordinates.
    pub fn set_anchor(&self, w: &mut World, which: usize, p: impl Into<DVec3>) -> Result<()> {
        let which = which_index(which)?;
        let p = finite3("anchor", p)?;
        let (head, t) = self.parts(w)?;
        t.set_anchor(bodies_of(head), which, p);
        Ok(())
    }

    /// The anchor of wheel `which`, in world coordinates.
    pub fn anchor(&self, w: &World, which: usize) -> Result<DVec3> {
        let which = which_index(which)?;
        let (head, t) = self.parts(w)?;
        opt3(t.anchor(bodies_of(head), which))
    }

    /// The contact point on wheel `which` found by the last step.
    pub fn contact_point(&self, w: &World, which: usize) -> Result<DVec3> {
        let which = which_index(which)?;
        Ok(DVec3::from(self.parts(w)?.1.contacts[which]))
    }

    /// Sets the gear ratio (parallel mode; > 0).
    pub fn set_ratio(&self, w: &mut World, ratio: f64) -> Result<()> {
        if !(ratio.is_finite() && ratio > 0.0) {
            return Err(Error::InvalidArgument { arg: "ratio", reason: format!("= {ratio} (must be finite and > 0)") });
        }
        self.in_mode(w, &[TransmissionMode::Parallel], "ratio")?.1.ratio = ratio;
        Ok(())
    }

    /// The gear ratio.
    pub fn ratio(&self, w: &World) -> Result<f64> {
        Ok(self.parts(w)?.1.ratio)
    }

    /// Sets the radius of wheel `which` (chain mode).
    pub fn set_radius(&self, w: &mut World, which: usize, radius: f64) -> Result<()> {
        let which = which_index(which)?;
        let radius = super::finite("radius", radius)?;
        self.in_mode(w, &[TransmissionMode::Chain], "radius")?.1.radii[which] = radius;
        Ok(())
    }

    /// The radius of wheel `which`.
    pub fn radius(&self, w: &World, which: usize) -> Result<f64> {
        let which = which_index(which)?;
        Ok(self.parts(w)?.1.radii[which])
    }

    /// Sets the backlash (play between the teeth; NaN refused).
    pub fn set_backlash(&self, w: &mut World, backlash: f64) -> Result<()> {
        let backlash = not_nan("backlash", backlash)?;
        self.parts(w)?.1.backlash = backlash;
        Ok(())
    }

    /// The backlash.
    pub fn backlash(&self, w: &World) -> Result<f64> {
        Ok(self.parts(w)?.1.backlash)
    }

    /// The rotation angle of wheel `which` tracked by the joint.
    pub fn angle(&self, w: &World, which: usize) -> Result<f64> {
        let which = which_index(which)?;
        Ok(self.parts(w)?.1.phase[which])
    }
}

joint_fns!(TransmissionJoint |head, t, b| {
    params(1) { set(_a, p, v) => t.set_param(Some(p.core()), v); get(_a, p) => t.param(Some(p.core())); }
});

impl AMotorJoint {
    /// Number of axes in use (0..=3).
    pub fn set_num_axes(&self, w: &mut World, n: usize) -> Result<()> {
        let n = axis_index(n, 4)
            .map_err(|_| Error::InvalidArgument { arg: "num", reason: format!("= {n} (must be 0..=3)") })?;
        self.parts(w)?.1.set_num_axes(n);
        Ok(())
    }

    /// Number of axes in use.
    pub fn num_axes(&self, w: &World) -> Result<usize> {
        Ok(self.parts(w)?.1.num)
    }

    /// Chooses Euler mode (true: axes 0 and 2 given, angles computed) or
    /// user mode (false, default: angles set by the caller).
    pub fn set_euler_mode(&self, w: &mut World, euler: bool) -> Result<()> {
        let (head, m) = self.parts(w)?;
        let mode = if euler { crate::joints::amotor::MODE_EULER } else { crate::joints::amotor::MODE_USER };
        m.set_mode(head, bodies_of(head), mode);
        Ok(())
    }

    /// Is the motor in Euler mode?
    pub fn is_euler_mode(&self, w: &World) -> Result<bool> {
        Ok(self.parts(w)?.1.euler())
    }

    /// Sets axis `anum` (0..3), given in `frame`.
    pub fn set_axis(&self, w: &mut World, anum: usize, frame: AxisFrame, v: impl Into<DVec3>) -> Result<()> {
        let anum = axis_index(anum, 3)?;
        let v = finite3("axis", v)?;
        let (head, m) = self.parts(w)?;
        if let Some(why) = m.axis_problem(head, bodies_of(head), anum, frame.code(), v) {
            return Err(Error::InvalidArgument { arg: "axis", reason: why.into() });
        }
        m.set_axis(head, bodies_of(head), anum, frame.code(), v);
        Ok(())
    }

    /// Axis `anum` in world coordinates.
    pub fn axis(&self, w: &World, anum: usize) -> Result<DVec3> {
        let anum = axis_index(anum, 3)?;
        let (head, m) = self.parts(w)?;
        opt3(m.axis_value(head, bodies_of(head), anum))
    }

    /// Tells the motor the current angle about axis `anum` (user mode only:
    /// Euler mode computes the angles).
    pub fn set_angle(&self, w: &mut World, anum: usize, angle: f64) -> Result<()> {
        let anum = axis_index(anum, 3)?;
        let angle = super::finite("angle", angle)?;
        let m = self.parts(w)?.1;
        if m.euler() {
            return Err(Error::InvalidArgument { arg: "angle", reason: "cannot be set in Euler mode".into() });
        }
        m.set_angle(anum, angle);
        Ok(())
    }

    /// The angle about axis `anum` (as set, or computed in Euler mode).
    pub fn angle(&self, w: &World, anum: usize) -> Result<f64> {
        let anum = axis_index(anum, 3)?;
        Ok(self.parts(w)?.1.angle[anum])
    }

    /// The rate about axis `anum`.
    pub fn angle_rate(&self, w: &World, anum: usize) -> Result<f64> {
        let anum = axis_index(anum, 3)?;
        let (head, m) = self.parts(w)?;
        m.angle_rate(head, bodies_of(head), anum).ok_or_else(unattached)
    }

    /// Applies torques about the three axes (`dJointAddAMotorTorques`).
    pub fn add_torques(&self, w: &mut World, torques: impl Into<DVec3>) -> Result<()> {
        let t = finite3("torques", torques)?;
        let (head, m) = self.parts(w)?;
        m.torque_push(head, bodies_of(head), t).ok_or_else(unattached)?.apply(head);
        Ok(())
    }
}

joint_fns!(AMotorJoint |head, m, b| {
    params(3) { set(a, p, v) => m.limot[a].set(p.core(), v); get(a, p) => m.limot[a].get(p.core()); }
});

impl LMotorJoint {
    /// Number of axes in use (0..=3).
    pub fn set_num_axes(&self, w: &mut World, n: usize) -> Result<()> {
        let n = axis_index(n, 4)
            .map_err(|_| Error::InvalidArgument { arg: "num", reason: format!("= {n} (must be 0..=3)") })?;
        self.parts(w)?.1.num = n;
        Ok(())
    }

    /// Number of axes in use.
    pub fn num_axes(&self, w: &World) -> Result<usize> {
        Ok(self.parts(w)?.1.num)
    }

    /// Sets axis `anum` (0..3), given in `frame`.
    pub fn set_axis(&self, w: &mut World, anum: usize, frame: AxisFrame, v: impl Into<DVec3>) -> Result<()> {
        let anum = axis_index(anum, 3)?;
        let v = finite3("axis", v)?;
        let (head, m) = self.parts(w)?;
        if let Some(why) = LMotor::axis_problem(head, bodies_of(head), frame.code(), v) {
            return Err(Error::InvalidArgument { arg: "axis", reason: why.into() });
        }
        m.set_axis(head, bodies_of(head), anum, frame.code(), v);
        Ok(())
    }

    /// Axis `anum` as stored, in the frame it was given in (as ODE returns it).
    pub fn axis(&self, w: &World, anum: usize) -> Result<DVec3> {
        let anum = axis_index(anum, 3)?;
        Ok(DVec3::from(self.parts(w)?.1.axis[anum]))
    }
}

joint_fns!(LMotorJoint |head, m, b| {
    params(3) { set(a, p, v) => m.limot[a].set(p.core(), v); get(a, p) => m.limot[a].get(p.core()); }
});

// Plane-2D: axis 0 is the motor along x, 1 along y, 2 about z (only
// motors act, as in ODE: stops are stored but never tested).
joint_fns!(Plane2DJoint |head, m, b| {
    params(3) { set(a, p, v) => m.motor[a].set(p.core(), v); get(a, p) => m.motor[a].get(p.core()); }
});

impl World {
    fn new_joint(
        &mut self,
        group: Option<&JointGroup>,
        make: impl FnOnce(&crate::dynamics::World) -> JointKind,
    ) -> Result<Joint> {
        let g = match group {
            Some(g) => Some(g.live()?),
            None => None,
        };
        let kind = make(self.h.get());
        Ok(Joint::new(joint_object::create_joint(self.h, g, kind)))
    }

    /// Creates a hinge joint (unattached).
    pub fn create_hinge(&mut self) -> HingeJoint {
        HingeJoint(self.new_joint(None, |w| JointKind::Hinge(Box::new(Hinge::new(w)))).expect("no group"))
    }

    /// Creates a ball joint (unattached).
    pub fn create_ball(&mut self) -> BallJoint {
        BallJoint(self.new_joint(None, |w| JointKind::Ball(Ball::new(w))).expect("no group"))
    }

    /// Creates a slider joint (unattached).
    pub fn create_slider(&mut self) -> SliderJoint {
        SliderJoint(self.new_joint(None, |w| JointKind::Slider(Box::new(Slider::new(w)))).expect("no group"))
    }

    /// Creates a fixed joint (unattached).
    pub fn create_fixed(&mut self) -> FixedJoint {
        FixedJoint(self.new_joint(None, |w| JointKind::Fixed(Fixed::new(w))).expect("no group"))
    }

    /// Creates a hinge-2 joint (unattached; it needs two bodies).
    pub fn create_hinge2(&mut self) -> Hinge2Joint {
        let j = self.new_joint(None, |w| JointKind::Hinge2(Box::new(Hinge2::new(w)))).expect("no group");
        j.h.get_mut().head.flags |= jflags::TWO_BODIES;
        Hinge2Joint(j)
    }

    /// Creates a piston joint (unattached).
    pub fn create_piston(&mut self) -> PistonJoint {
        PistonJoint(self.new_joint(None, |w| JointKind::Piston(Box::new(Piston::new(w)))).expect("no group"))
    }

    /// Creates an angular motor (unattached).
    pub fn create_amotor(&mut self) -> AMotorJoint {
        AMotorJoint(self.new_joint(None, |w| JointKind::AMotor(Box::new(AMotor::new(w)))).expect("no group"))
    }

    /// Creates a linear motor (unattached).
    pub fn create_lmotor(&mut self) -> LMotorJoint {
        LMotorJoint(self.new_joint(None, |w| JointKind::LMotor(Box::new(LMotor::new(w)))).expect("no group"))
    }

    /// Creates a plane-2D joint (unattached).
    pub fn create_plane2d(&mut self) -> Plane2DJoint {
        Plane2DJoint(self.new_joint(None, |w| JointKind::Plane2D(Box::new(Plane2D::new(w)))).expect("no group"))
    }

    /// Creates a PR joint (unattached).
    pub fn create_pr(&mut self) -> PrJoint {
        PrJoint(self.new_joint(None, |w| JointKind::Pr(Box::new(Pr::new(w)))).expect("no group"))
    }

    /// Creates a PU joint (unattached).
    pub fn create_pu(&mut self) -> PuJoint {
        PuJoint(self.new_joint(None, |w| JointKind::Pu(Box::new(Pu::new(w)))).expect("no group"))
    }

    /// Creates a double-ball joint (unattached).
    pub fn create_dball(&mut self) -> DBallJoint {
        DBallJoint(self.new_joint(None, |w| JointKind::DBall(DBall::new(w))).expect("no group"))
    }

    /// Creates a double-hinge joint (unattached).
    pub fn create_dhinge(&mut self) -> DHingeJoint {
        DHingeJoint(self.new_joint(None, |w| JointKind::DHinge(DHinge::new(w))).expect("no group"))
    }

    /// Creates a null joint (unattached).
    pub fn create_null(&mut self) -> NullJoint {
        NullJoint(self.new_joint(None, |_| JointKind::Null(Null)).expect("no group"))
    }

    /// Creates a universal joint (unattached).
    pub fn create_universal(&mut self) -> UniversalJoint {
        UniversalJoint(self.new_joint(None, |w| JointKind::Universal(Box::new(Universal::new(w)))).expect("no group"))
    }

    /// Creates a transmission joint (unattached; it needs two bodies).
    pub fn create_transmission(&mut self) -> TransmissionJoint {
        let j = self.new_joint(None, |w| JointKind::Transmission(Box::new(Transmission::new(w)))).expect("no group");
        j.h.get_mut().head.flags |= jflags::TWO_BODIES;
        TransmissionJoint(j)
    }

    /// Creates a contact joint in `group` (`dJointCreateContact`); attach
    /// it to the bodies of the contact's geoms with [`World::attach`].
    pub fn create_contact(&mut self, group: &JointGroup, contact: &Contact) -> Result<Joint> {
        let (surface, point, fdir1) = contact.checked()?;
        self.new_joint(Some(group), |_| JointKind::Contact(ContactJoint::new(surface, point, fdir1)))
    }

    /// Attaches `j` to `b1` and `b2` (None: the static environment),
    /// replacing any previous attachment.
    pub fn attach(&mut self, j: Joint, b1: Option<Body>, b2: Option<Body>) -> Result<()> {
        j.resolve(self)?;
        for b in [b1, b2].into_iter().flatten() {
            b.resolve(self)?;
        }
        let (r1, r2) = (b1.map(|b| b.h), b2.map(|b| b.h));
        joint_object::check_attach(j.h, r1, r2).map_err(|reason| Error::InvalidArgument { arg: "bodies", reason })?;
        joint_object::attach(j.h, r1, r2);
        Ok(())
    }

    /// Destroys a joint of this world (a joint in a group goes with its
    /// group instead, as in ODE).
    pub fn destroy_joint(&mut self, j: impl Into<Joint>) -> Result<()> {
        let j = j.into();
        j.resolve(self)?;
        self.drop_feedback(j.h);
        joint_object::destroy_joint(j.h);
        Ok(())
    }

    /// Number of joints in the world.
    pub fn num_joints(&self) -> usize {
        self.h.get().joints.len()
    }
}

// ---- groups ------------------------------------------------------------------------------

/// A joint group: owns the joints created in it (contacts, typically) and
/// destroys them all at once with [`JointGroup::empty`] or when dropped.
pub struct JointGroup {
    h: JointGroupRef,
}

impl Default for JointGroup {
    fn default() -> Self {
        JointGroup::new()
    }
}

impl Drop for JointGroup {
    fn drop(&mut self) {
        if self.h.is_live() {
            joint_object::destroy_group(self.h);
        }
    }
}

impl JointGroup {
    /// An empty group.
    pub fn new() -> JointGroup {
        JointGroup { h: joint_object::create_group() }
    }

    fn live(&self) -> Result<JointGroupRef> {
        JOINT_GROUPS.check(self.h.as_raw()).ok_or(Error::Stale("joint group"))
    }

    /// Destroys every joint of the group (`dJointGroupEmpty`).
    pub fn empty(&mut self) {
        joint_object::empty_group(self.h);
    }

    /// Number of joints in the group.
    pub fn len(&self) -> usize {
        self.h.get().joints.len()
    }

    /// Is the group empty?
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

// ---- contacts -------------------------------------------------------------------------------

/// Surface properties of a contact (`dSurfaceParameters`), built from
/// Coulomb friction `mu` with optional extras; each call sets the matching
/// `dContact*` mode bit.
///
/// ```
/// use ode::api::Surface;
/// let s = Surface::new(0.8).bounce(0.5, 0.1).soft_cfm(1e-5);
/// assert_eq!(s.mu(), 0.8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Surface(CoreSurface);

impl Default for Surface {
    fn default() -> Self {
        Surface::new(f64::INFINITY)
    }
}

impl Surface {
    /// Friction `mu` in both directions (f64::INFINITY: no slipping, 0: frictionless).
    pub fn new(mu: f64) -> Surface {
        Surface(CoreSurface { mu, ..CoreSurface::default() })
    }

    /// Friction coefficient (direction 1, or both without `mu2`).
    pub fn mu(&self) -> f64 {
        self.0.mu
    }

    /// The mode bits (`dContact*`) set so far.
    pub fn mode(&self) -> i32 {
        self.0.mode
    }

    /// A different friction `mu2` in direction 2 (`dContactMu2`).
    pub fn mu2(mut self, mu2: f64) -> Surface {
        self.0.mode |= mode::MU2;
        self.0.mu2 = mu2;
        self
    }

    /// Restitution (0..1) above the speed `min_vel` (`dContactBounce`).
    pub fn bounce(mut self, restitution: f64, min_vel: f64) -> Surface {
        self.0.mode |= mode::BOUNCE;
        self.0.bounce = restitution;
        self.0.bounce_vel = min_vel;
        self
    }

    /// Contact ERP (`dContactSoftERP`).
    pub fn soft_erp(mut self, erp: f64) -> Surface {
        self.0.mode |= mode::SOFT_ERP;
        self.0.soft_erp = erp;
        self
    }

    /// Contact CFM, making it soft (`dContactSoftCFM`).
    pub fn soft_cfm(mut self, cfm: f64) -> Surface {
        self.0.mode |= mode::SOFT_CFM;
        self.0.soft_cfm = cfm;
        self
    }

    /// Surface velocity in friction direction 1 (`dContactMotion1`).
    pub fn motion1(mut self, v: f64) -> Surface {
        self.0.mode |= mode::MOTION1;
        self.0.motion1 = v;
        self
    }

    /// Surface velocity in friction direction 2 (`dContactMotion2`).
    pub fn motion2(mut self, v: f64) -> Surface {
        self.0.mode |= mode::MOTION2;
        self.0.motion2 = v;
        self
    }

    /// Surface velocity along the normal (`dContactMotionN`).
    pub fn motion_n(mut self, v: f64) -> Surface {
        self.0.mode |= mode::MOTION_N;
        self.0.motion_n = v;
        self
    }

    /// Force-dependent slip in direction 1 (`dContactSlip1`).
    pub fn slip1(mut self, v: f64) -> Surface {
        self.0.mode |= mode::SLIP1;
        self.0.slip1 = v;
        self
    }

    /// Force-dependent slip in direction 2 (`dContactSlip2`).
    pub fn slip2(mut self, v: f64) -> Surface {
        self.0.mode |= mode::SLIP2;
        self.0.slip2 = v;
        self
    }

    /// Rolling friction (`dContactRolling`): about the two tangent axes
    /// (`rho`, `rho2`, the second used with [`Surface::mu2`]) and the normal.
    pub fn rolling(mut self, rho: f64, rho2: f64, rho_n: f64) -> Surface {
        self.0.mode |= mode::ROLLING;
        self.0.rho = rho;
        self.0.rho2 = rho2;
        self.0.rho_n = rho_n;
        self
    }

    /// Friction pyramid approximation in both directions
    /// (`dContactApprox1`: bounds scale with the normal force).
    pub fn approx1(mut self) -> Surface {
        self.0.mode |= mode::APPROX1_1 | mode::APPROX1_2 | mode::APPROX1_N;
        self
    }

    /// Sets raw `dContact*` mode bits in addition (e.g. one approximation
    /// direction only).
    pub fn with_mode_bits(mut self, bits: i32) -> Surface {
        self.0.mode |= bits;
        self
    }
}

/// A contact to turn into a joint (`dContact`): surface, geometry, and an
/// optional first friction direction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Surface properties.
    pub surface: Surface,
    /// Where and how deep.
    pub geom: ContactGeom,
    /// First friction direction (`dContactFDir1`), else ODE picks one.
    pub fdir1: Option<DVec3>,
}

impl Contact {
    /// A contact with the given surface at `geom`.
    pub fn new(surface: Surface, geom: ContactGeom) -> Contact {
        Contact { surface, geom, fdir1: None }
    }

    /// Same checks as `dJointCreateContact`'s in this library: finite
    /// geometry, no NaN in the surface values the mode uses.
    fn checked(&self) -> Result<(CoreSurface, ContactPoint, [f64; 3])> {
        let s = &self.surface.0;
        if let Some(name) = s.first_nan_in_use() {
            return Err(Error::InvalidArgument { arg: name, reason: "is NaN".into() });
        }
        let pos = finite3("pos", self.geom.pos)?;
        let normal = finite3("normal", self.geom.normal)?;
        let depth = super::finite("depth", self.geom.depth)?;
        let mut surface = *s;
        let mut fdir1 = [0.0; 3];
        if let Some(d) = self.fdir1 {
            fdir1 = finite3("fdir1", d)?;
            surface.mode |= mode::FDIR1;
        }
        let raw = self.geom.to_raw();
        let point = ContactPoint { pos, normal, depth, g1: raw.g1, g2: raw.g2, side1: raw.side1, side2: raw.side2 };
        Ok((surface, point, fdir1))
    }
}

// ---- feedback storage ------------------------------------------------------------------------

impl World {
    /// A feedback record owned by this world for joint `j` (boxed so that
    /// its address, which the stepper writes through, never moves).
    fn feedback_slot(&mut self, j: JointRef) -> *mut dJointFeedback {
        let zero = dJointFeedback { f1: [0.0; 4], t1: [0.0; 4], f2: [0.0; 4], t2: [0.0; 4] };
        let mut b = Box::new(zero);
        let p: *mut dJointFeedback = &mut *b;
        self.feedback.push((j, b));
        p
    }

    fn owns_feedback(&self, p: *mut dJointFeedback) -> bool {
        self.feedback.iter().any(|(_, b)| std::ptr::eq(&**b, p))
    }

    fn drop_feedback(&mut self, j: JointRef) {
        self.feedback.retain(|(k, _)| *k != j);
    }
}
