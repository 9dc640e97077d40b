//! [`Body`]: a rigid body's state, mass, forces, frames and modes, and
//! [`BodyBuilder`] to make one in a single expression.
//!
//! ```
//! use ode::api::{BodyBuilder, DQuat, DVec3, Mass, World};
//!
//! let mut world = World::new();
//! let body = BodyBuilder::new()
//!     .position([0.0, 0.0, 1.0])
//!     .rotation(DQuat::from_rotation_z(0.5))
//!     .linear_vel([1.0, 0.0, 0.0])
//!     .mass(Mass::box_total(2.0, 1.0, 1.0, 1.0).unwrap())
//!     .build(&mut world)
//!     .unwrap();
//! assert_eq!(body.position(&world).unwrap(), DVec3::new(0.0, 0.0, 1.0));
//! // A point one unit along the body's x axis, in world coordinates.
//! let p = body.rel_point_pos(&world, DVec3::X).unwrap();
//! assert!((p - DVec3::new(0.5f64.cos(), 0.5f64.sin(), 1.0)).length() < 1e-12);
//! ```

use super::convert::{mat3_from_ode, mat3_to_ode, quat_from_ode, quat_to_ode};
use super::{arg, finite3, xyz, DMat3, DQuat, DVec3, Error, Mass, Mat3, Result, World};
use crate::dynamics::body::{self as core_body, BODIES};
use crate::dynamics::Body as CoreBody;

/// A rigid body of some [`World`]: a copyable id, checked on every use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Body {
    pub(super) h: core_body::BodyRef,
    /// Guards against the cell being reused by a later body.
    pub(super) serial: u64,
}

impl Body {
    pub(super) fn from_ref(h: core_body::BodyRef) -> Body {
        Body { h, serial: h.get().serial }
    }

    /// Checks that the body is alive and belongs to `w`.
    pub(super) fn resolve<'w>(&self, w: &'w World) -> Result<&'w CoreBody> {
        let live = BODIES.check(self.h.as_raw()).ok_or(Error::StaleBody)?;
        let b = live.get();
        if b.serial != self.serial {
            return Err(Error::StaleBody);
        }
        if b.world != w.h {
            return Err(Error::WrongWorld);
        }
        Ok(b)
    }

    pub(super) fn resolve_mut<'w>(&self, w: &'w mut World) -> Result<&'w mut CoreBody> {
        self.resolve(w)?;
        Ok(self.h.get_mut())
    }

    /// The C handle (`dBodyID`) of this body.
    pub fn as_raw(&self) -> *mut core::ffi::c_void {
        self.h.as_raw()
    }

    // ---- state ---------------------------------------------------------

    /// Position of the body's origin (its centre of mass) in world coordinates.
    pub fn position(&self, w: &World) -> Result<DVec3> {
        Ok(xyz(&self.resolve(w)?.pos))
    }

    /// Moves the body (and its geoms) to `p`.
    pub fn set_position(&self, w: &mut World, p: impl Into<DVec3>) -> Result<()> {
        let p = finite3("position", p)?;
        self.resolve_mut(w)?.set_position(p);
        Ok(())
    }

    /// Orientation as a rotation matrix.
    pub fn rotation(&self, w: &World) -> Result<DMat3> {
        Ok(mat3_from_ode(&self.resolve(w)?.r))
    }

    /// Sets the orientation from a matrix; ODE re-orthogonalises it.
    pub fn set_rotation(&self, w: &mut World, r: &DMat3) -> Result<()> {
        self.set_rotation_ode(w, &mat3_to_ode(r))
    }

    /// Orientation in ODE's 3x4 row-major padded layout, as `dBodyGetRotation`.
    pub fn rotation_ode(&self, w: &World) -> Result<Mat3> {
        Ok(self.resolve(w)?.r)
    }

    /// Sets the orientation from ODE's padded layout, exactly as
    /// `dBodySetRotation` does (ODE re-orthogonalises it).
    pub fn set_rotation_ode(&self, w: &mut World, r: &Mat3) -> Result<()> {
        let b = self.resolve_mut(w)?;
        let rq = arg("R", CoreBody::prepare_rotation(r))?;
        b.set_rotation_prepared(rq);
        Ok(())
    }

    /// Orientation quaternion.
    pub fn quaternion(&self, w: &World) -> Result<DQuat> {
        Ok(quat_from_ode(&self.resolve(w)?.q))
    }

    /// Sets the orientation from a quaternion of any non-zero length
    /// (normalised as ODE does).
    pub fn set_quaternion(&self, w: &mut World, q: DQuat) -> Result<()> {
        let b = self.resolve_mut(w)?;
        let rq = arg("q", CoreBody::prepare_quaternion(&quat_to_ode(q)))?;
        b.set_rotation_prepared(rq);
        Ok(())
    }

    /// Linear velocity of the centre of mass.
    pub fn linear_vel(&self, w: &World) -> Result<DVec3> {
        Ok(xyz(&self.resolve(w)?.lvel))
    }

    /// Sets the linear velocity.
    pub fn set_linear_vel(&self, w: &mut World, v: impl Into<DVec3>) -> Result<()> {
        let v = finite3("velocity", v)?;
        self.resolve_mut(w)?.set_linear_vel(v);
        Ok(())
    }

    /// Angular velocity in world axes.
    pub fn angular_vel(&self, w: &World) -> Result<DVec3> {
        Ok(xyz(&self.resolve(w)?.avel))
    }

    /// Sets the angular velocity (world axes).
    pub fn set_angular_vel(&self, w: &mut World, v: impl Into<DVec3>) -> Result<()> {
        let v = finite3("velocity", v)?;
        self.resolve_mut(w)?.set_angular_vel(v);
        Ok(())
    }

    // ---- mass ----------------------------------------------------------

    /// The body's mass parameters.
    pub fn mass(&self, w: &World) -> Result<Mass> {
        Ok(self.resolve(w)?.mass)
    }

    /// Sets the mass; it must pass ODE's mass check with the centre of mass
    /// at the body's origin. Makes a kinematic body dynamic.
    pub fn set_mass(&self, w: &mut World, m: &Mass) -> Result<()> {
        let b = self.resolve_mut(w)?;
        arg("mass", CoreBody::check_mass(m))?;
        b.set_mass(m);
        Ok(())
    }

    /// Kinematic bodies move by their velocity only and are not pushed; the
    /// mass is kept for [`Body::set_dynamic`].
    pub fn set_kinematic(&self, w: &mut World) -> Result<()> {
        self.resolve_mut(w)?.set_kinematic();
        Ok(())
    }

    /// Makes a kinematic body dynamic again, with its previous mass.
    pub fn set_dynamic(&self, w: &mut World) -> Result<()> {
        self.resolve_mut(w)?.set_dynamic();
        Ok(())
    }

    /// Is the body kinematic?
    pub fn is_kinematic(&self, w: &World) -> Result<bool> {
        Ok(self.resolve(w)?.is_kinematic())
    }

    // ---- forces --------------------------------------------------------

    /// Accumulated force (cleared by each step).
    pub fn force(&self, w: &World) -> Result<DVec3> {
        Ok(xyz(&self.resolve(w)?.facc))
    }

    /// Accumulated torque (cleared by each step).
    pub fn torque(&self, w: &World) -> Result<DVec3> {
        Ok(xyz(&self.resolve(w)?.tacc))
    }

    /// Replaces the accumulated force.
    pub fn set_force(&self, w: &mut World, f: impl Into<DVec3>) -> Result<()> {
        let f = finite3("force", f)?;
        self.resolve_mut(w)?.set_force(f);
        Ok(())
    }

    /// Replaces the accumulated torque.
    pub fn set_torque(&self, w: &mut World, t: impl Into<DVec3>) -> Result<()> {
        let t = finite3("torque", t)?;
        self.resolve_mut(w)?.set_torque(t);
        Ok(())
    }

    /// Adds a force given in world coordinates at the centre of mass.
    pub fn add_force(&self, w: &mut World, f: impl Into<DVec3>) -> Result<()> {
        let f = finite3("force", f)?;
        self.resolve_mut(w)?.add_force(f);
        Ok(())
    }

    /// Adds a torque given in world axes.
    pub fn add_torque(&self, w: &mut World, t: impl Into<DVec3>) -> Result<()> {
        let t = finite3("torque", t)?;
        self.resolve_mut(w)?.add_torque(t);
        Ok(())
    }

    /// Adds a force given in body coordinates.
    pub fn add_rel_force(&self, w: &mut World, f: impl Into<DVec3>) -> Result<()> {
        let f = finite3("force", f)?;
        self.resolve_mut(w)?.add_rel_force(f);
        Ok(())
    }

    /// Adds a torque given in body axes.
    pub fn add_rel_torque(&self, w: &mut World, t: impl Into<DVec3>) -> Result<()> {
        let t = finite3("torque", t)?;
        self.resolve_mut(w)?.add_rel_torque(t);
        Ok(())
    }

    /// World force at a world point.
    pub fn add_force_at_pos(&self, w: &mut World, f: impl Into<DVec3>, p: impl Into<DVec3>) -> Result<()> {
        let (f, p) = (finite3("force", f)?, finite3("pos", p)?);
        self.resolve_mut(w)?.add_force_at_pos(f, p);
        Ok(())
    }

    /// World force at a point given in body coordinates.
    pub fn add_force_at_rel_pos(&self, w: &mut World, f: impl Into<DVec3>, p: impl Into<DVec3>) -> Result<()> {
        let (f, p) = (finite3("force", f)?, finite3("pos", p)?);
        self.resolve_mut(w)?.add_force_at_rel_pos(f, p);
        Ok(())
    }

    /// Body-frame force at a world point.
    pub fn add_rel_force_at_pos(&self, w: &mut World, f: impl Into<DVec3>, p: impl Into<DVec3>) -> Result<()> {
        let (f, p) = (finite3("force", f)?, finite3("pos", p)?);
        self.resolve_mut(w)?.add_rel_force_at_pos(f, p);
        Ok(())
    }

    /// Body-frame force at a body-frame point.
    pub fn add_rel_force_at_rel_pos(&self, w: &mut World, f: impl Into<DVec3>, p: impl Into<DVec3>) -> Result<()> {
        let (f, p) = (finite3("force", f)?, finite3("pos", p)?);
        self.resolve_mut(w)?.add_rel_force_at_rel_pos(f, p);
        Ok(())
    }

    // ---- frames ----------------------------------------------------------

    /// A body point in world coordinates.
    pub fn rel_point_pos(&self, w: &World, p: impl Into<DVec3>) -> Result<DVec3> {
        let p = finite3("point", p)?;
        Ok(DVec3::from(self.resolve(w)?.rel_point_pos(p)))
    }

    /// World velocity of a body point.
    pub fn rel_point_vel(&self, w: &World, p: impl Into<DVec3>) -> Result<DVec3> {
        let p = finite3("point", p)?;
        Ok(DVec3::from(self.resolve(w)?.rel_point_vel(p)))
    }

    /// World velocity of the body's material point at a world position.
    pub fn point_vel(&self, w: &World, p: impl Into<DVec3>) -> Result<DVec3> {
        let p = finite3("point", p)?;
        Ok(DVec3::from(self.resolve(w)?.point_vel(p)))
    }

    /// A world point in body coordinates.
    pub fn pos_rel_point(&self, w: &World, p: impl Into<DVec3>) -> Result<DVec3> {
        let p = finite3("point", p)?;
        Ok(DVec3::from(self.resolve(w)?.pos_rel_point(p)))
    }

    /// A body-frame vector in world axes.
    pub fn vector_to_world(&self, w: &World, v: impl Into<DVec3>) -> Result<DVec3> {
        let v = finite3("vector", v)?;
        Ok(DVec3::from(self.resolve(w)?.vector_to_world(v)))
    }

    /// A world vector in body axes.
    pub fn vector_from_world(&self, w: &World, v: impl Into<DVec3>) -> Result<DVec3> {
        let v = finite3("vector", v)?;
        Ok(DVec3::from(self.resolve(w)?.vector_from_world(v)))
    }

    // ---- modes -----------------------------------------------------------

    /// Is the body enabled (simulated)?
    pub fn is_enabled(&self, w: &World) -> Result<bool> {
        Ok(self.resolve(w)?.is_enabled())
    }

    /// Enables the body and restarts its idle countdown.
    pub fn enable(&self, w: &mut World) -> Result<()> {
        self.resolve_mut(w)?.enable();
        Ok(())
    }

    /// Disables the body: it is not simulated until enabled again or hit.
    pub fn disable(&self, w: &mut World) -> Result<()> {
        self.resolve_mut(w)?.disable();
        Ok(())
    }

    /// Does gravity act on the body?
    pub fn gravity_mode(&self, w: &World) -> Result<bool> {
        Ok(self.resolve(w)?.gravity_mode())
    }

    /// Turns gravity on or off for this body.
    pub fn set_gravity_mode(&self, w: &mut World, on: bool) -> Result<()> {
        self.resolve_mut(w)?.set_gravity_mode(on);
        Ok(())
    }

    /// Is the gyroscopic term integrated?
    pub fn gyroscopic_mode(&self, w: &World) -> Result<bool> {
        Ok(self.resolve(w)?.gyroscopic_bits() != 0)
    }

    /// Turns the gyroscopic term on or off.
    pub fn set_gyroscopic_mode(&self, w: &mut World, on: bool) -> Result<()> {
        self.resolve_mut(w)?.set_gyroscopic_mode(on);
        Ok(())
    }

    /// Is the orientation integrated with finite rotations?
    pub fn finite_rotation_mode(&self, w: &World) -> Result<bool> {
        Ok(self.resolve(w)?.finite_rotation_mode())
    }

    /// Chooses finite (true) or infinitesimal (false) rotation updates.
    pub fn set_finite_rotation_mode(&self, w: &mut World, on: bool) -> Result<()> {
        self.resolve_mut(w)?.set_finite_rotation_mode(on);
        Ok(())
    }

    /// The axis of finite rotation updates (zero: none).
    pub fn finite_rotation_axis(&self, w: &World) -> Result<DVec3> {
        Ok(xyz(&self.resolve(w)?.finite_rot_axis))
    }

    /// Sets the finite rotation axis (normalised); zero means none.
    pub fn set_finite_rotation_axis(&self, w: &mut World, a: impl Into<DVec3>) -> Result<()> {
        let a = finite3("axis", a)?;
        self.resolve_mut(w)?.set_finite_rotation_axis(a);
        Ok(())
    }

    // ---- auto-disable ------------------------------------------------------

    /// Does the body disable itself when idle?
    pub fn auto_disable_flag(&self, w: &World) -> Result<bool> {
        Ok(self.resolve(w)?.auto_disable_flag())
    }

    /// Turning it off also enables the body and takes the world's idle
    /// steps, time and averaging window, as ODE does.
    pub fn set_auto_disable_flag(&self, w: &mut World, on: bool) -> Result<()> {
        self.resolve(w)?;
        let world = w.h.get();
        self.h.get_mut().set_auto_disable_flag(on, world);
        Ok(())
    }

    /// Copies the world's auto-disable settings.
    pub fn set_auto_disable_defaults(&self, w: &mut World) -> Result<()> {
        self.resolve(w)?;
        let world = w.h.get();
        self.h.get_mut().set_auto_disable_defaults(world);
        Ok(())
    }

    /// (linear, angular) speed thresholds below which the body is idle.
    pub fn auto_disable_thresholds(&self, w: &World) -> Result<(f64, f64)> {
        let a = &self.resolve(w)?.adis;
        Ok((a.linear_average_threshold.sqrt(), a.angular_average_threshold.sqrt()))
    }

    /// Sets the (linear, angular) idle speed thresholds, each >= 0.
    pub fn set_auto_disable_thresholds(&self, w: &mut World, linear: f64, angular: f64) -> Result<()> {
        arg("linear_average_threshold", core_body::check_threshold(linear))?;
        arg("angular_average_threshold", core_body::check_threshold(angular))?;
        let b = self.resolve_mut(w)?;
        b.adis.linear_average_threshold = linear * linear;
        b.adis.angular_average_threshold = angular * angular;
        Ok(())
    }

    /// Idle steps before auto-disable.
    pub fn auto_disable_steps(&self, w: &World) -> Result<i32> {
        Ok(self.resolve(w)?.adis.idle_steps)
    }

    /// Sets the idle steps before auto-disable.
    pub fn set_auto_disable_steps(&self, w: &mut World, steps: i32) -> Result<()> {
        arg("steps", core_body::check_idle_steps(steps))?;
        self.resolve_mut(w)?.adis.idle_steps = steps;
        Ok(())
    }

    /// Idle time before auto-disable.
    pub fn auto_disable_time(&self, w: &World) -> Result<f64> {
        Ok(self.resolve(w)?.adis.idle_time)
    }

    /// Sets the idle time before auto-disable (>= 0).
    pub fn set_auto_disable_time(&self, w: &mut World, time: f64) -> Result<()> {
        arg("time", core_body::check_idle_time(time))?;
        self.resolve_mut(w)?.adis.idle_time = time;
        Ok(())
    }

    /// Size of the velocity averaging window.
    pub fn auto_disable_average_samples(&self, w: &World) -> Result<u32> {
        Ok(self.resolve(w)?.adis.average_samples)
    }

    /// Resizes the velocity averaging window (restarting the averages).
    pub fn set_auto_disable_average_samples(&self, w: &mut World, n: u32) -> Result<()> {
        arg("average_samples_count", CoreBody::check_average_samples(n))?;
        self.resolve_mut(w)?.set_average_samples(n);
        Ok(())
    }

    // ---- damping -------------------------------------------------------------

    /// (linear, angular) damping scales.
    pub fn damping(&self, w: &World) -> Result<(f64, f64)> {
        let d = &self.resolve(w)?.dampingp;
        Ok((d.linear_scale, d.angular_scale))
    }

    /// Damping scales, each in [0, 1]; zero turns that damping off.
    pub fn set_damping(&self, w: &mut World, linear: f64, angular: f64) -> Result<()> {
        arg("linear_scale", core_body::check_damping_scale(linear))?;
        arg("angular_scale", core_body::check_damping_scale(angular))?;
        let b = self.resolve_mut(w)?;
        b.set_linear_damping(linear);
        b.set_angular_damping(angular);
        Ok(())
    }

    /// (linear, angular) speeds under which damping does not apply.
    pub fn damping_thresholds(&self, w: &World) -> Result<(f64, f64)> {
        let d = &self.resolve(w)?.dampingp;
        Ok((d.linear_threshold.sqrt(), d.angular_threshold.sqrt()))
    }

    /// Sets the (linear, angular) speeds under which damping does not apply.
    pub fn set_damping_thresholds(&self, w: &mut World, linear: f64, angular: f64) -> Result<()> {
        arg("linear threshold", core_body::check_threshold(linear))?;
        arg("angular threshold", core_body::check_threshold(angular))?;
        let b = self.resolve_mut(w)?;
        b.dampingp.linear_threshold = linear * linear;
        b.dampingp.angular_threshold = angular * angular;
        Ok(())
    }

    /// Copies the world's damping settings.
    pub fn set_damping_defaults(&self, w: &mut World) -> Result<()> {
        self.resolve(w)?;
        let world = w.h.get();
        self.h.get_mut().set_damping_defaults(world);
        Ok(())
    }

    /// The angular speed cap (infinity: none).
    pub fn max_angular_speed(&self, w: &World) -> Result<f64> {
        Ok(self.resolve(w)?.max_angular_speed)
    }

    /// Caps the angular speed; `f64::INFINITY` removes the cap.
    pub fn set_max_angular_speed(&self, w: &mut World, max: f64) -> Result<()> {
        arg("max_speed", core_body::check_max_angular_speed(max))?;
        self.resolve_mut(w)?.set_max_angular_speed(max);
        Ok(())
    }

    /// Number of joints attached to the body.
    pub fn num_joints(&self, w: &World) -> Result<usize> {
        Ok(self.resolve(w)?.num_joints())
    }
}

/// Builds a body with its initial state in one call; nothing is created if
/// any value is refused.
///
/// ```
/// use ode::api::{BodyBuilder, DVec3, Mass, World};
/// let mut world = World::new();
/// let b = BodyBuilder::new()
///     .position([0.0, 0.0, 2.0])
///     .linear_vel(DVec3::X)
///     .mass(Mass::box_total(1.0, 1.0, 1.0, 1.0).unwrap())
///     .build(&mut world)
///     .unwrap();
/// assert_eq!(b.position(&world).unwrap().z, 2.0);
/// assert!(BodyBuilder::new().position([f64::NAN, 0.0, 0.0]).build(&mut world).is_err());
/// assert_eq!(world.bodies().len(), 1);
/// ```
#[derive(Clone, Debug, Default)]
pub struct BodyBuilder {
    position: Option<DVec3>,
    rotation: Option<DQuat>,
    linear_vel: Option<DVec3>,
    angular_vel: Option<DVec3>,
    mass: Option<Mass>,
    kinematic: bool,
    gravity: Option<bool>,
    auto_disable: Option<bool>,
}

impl BodyBuilder {
    /// A body at the origin with ODE's defaults.
    pub fn new() -> BodyBuilder {
        BodyBuilder::default()
    }

    /// Initial position.
    pub fn position(mut self, p: impl Into<DVec3>) -> Self {
        self.position = Some(p.into());
        self
    }

    /// Initial orientation.
    pub fn rotation(mut self, q: DQuat) -> Self {
        self.rotation = Some(q);
        self
    }

    /// Initial linear velocity.
    pub fn linear_vel(mut self, v: impl Into<DVec3>) -> Self {
        self.linear_vel = Some(v.into());
        self
    }

    /// Initial angular velocity.
    pub fn angular_vel(mut self, v: impl Into<DVec3>) -> Self {
        self.angular_vel = Some(v.into());
        self
    }

    /// Mass (centre of mass at the body's origin).
    pub fn mass(mut self, m: Mass) -> Self {
        self.mass = Some(m);
        self
    }

    /// Makes the body kinematic (moved by its velocity only).
    pub fn kinematic(mut self) -> Self {
        self.kinematic = true;
        self
    }

    /// Whether gravity acts on the body (default true).
    pub fn gravity(mut self, on: bool) -> Self {
        self.gravity = Some(on);
        self
    }

    /// Whether the body disables itself when idle (default: the world's).
    pub fn auto_disable(mut self, on: bool) -> Self {
        self.auto_disable = Some(on);
        self
    }

    /// Checks every value, then creates the body in `w`.
    pub fn build(self, w: &mut World) -> Result<Body> {
        let p = self.position.map(|p| finite3("position", p)).transpose()?;
        let lv = self.linear_vel.map(|v| finite3("linear_vel", v)).transpose()?;
        let av = self.angular_vel.map(|v| finite3("angular_vel", v)).transpose()?;
        let rq = match self.rotation {
            Some(q) => Some(arg("q", CoreBody::prepare_quaternion(&quat_to_ode(q)))?),
            None => None,
        };
        if let Some(m) = &self.mass {
            arg("mass", CoreBody::check_mass(m))?;
        }
        let b = w.create_body();
        let cb = b.resolve_mut(w)?;
        if let Some(p) = p {
            cb.set_position(p);
        }
        if let Some(rq) = rq {
            cb.set_rotation_prepared(rq);
        }
        if let Some(v) = lv {
            cb.set_linear_vel(v);
        }
        if let Some(v) = av {
            cb.set_angular_vel(v);
        }
        if let Some(m) = &self.mass {
            cb.set_mass(m);
        }
        if self.kinematic {
            cb.set_kinematic();
        }
        if let Some(on) = self.gravity {
            cb.set_gravity_mode(on);
        }
        if let Some(on) = self.auto_disable {
            b.set_auto_disable_flag(w, on)?;
        }
        Ok(b)
    }
}
