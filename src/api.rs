//! Safe Rust API over the same core the C ABI uses.
//!
//! A [`World`] owns its simulation state and destroys it (with its bodies)
//! when dropped. A [`Body`] is a small copyable id; every method takes the
//! world it belongs to, `&World` to read and `&mut World` to change, so the
//! borrow checker rules out aliasing without any `unsafe` in user code.
//! Values ODE would reject (non-finite numbers, invalid masses or
//! rotations, out-of-range settings) and ids of destroyed bodies or of
//! another world give an [`Error`] and change nothing.
//!
//! ```
//! use ode::api::{Mass, World};
//!
//! let mut world = World::new();
//! world.set_gravity([0.0, 0.0, -9.81]).unwrap();
//! let ball = world.create_body();
//! ball.set_position(&mut world, [0.0, 0.0, 10.0]).unwrap();
//! let mut m = Mass::zero();
//! m.mass = 2.0;
//! m.I[0] = 0.8; m.I[5] = 0.8; m.I[10] = 0.8; // solid sphere of radius 1
//! ball.set_mass(&mut world, &m).unwrap();
//! ball.add_force(&mut world, [1.0, 0.0, 0.0]).unwrap();
//! assert_eq!(ball.force(&world).unwrap(), [1.0, 0.0, 0.0]);
//!
//! // One step of 0.01 s: v = (F/m + g) h, then x += v h.
//! world.step(0.01).unwrap();
//! let v = ball.linear_vel(&world).unwrap();
//! assert!((v[0] - 0.005).abs() < 1e-15 && (v[2] + 0.0981).abs() < 1e-15);
//! assert_eq!(ball.force(&world).unwrap(), [0.0; 3]); // accumulators are cleared
//!
//! // Bad input is refused and changes nothing.
//! let before = ball.position(&world).unwrap();
//! assert!(ball.set_position(&mut world, [f64::NAN, 0.0, 0.0]).is_err());
//! assert!(world.step(-1.0).is_err());
//! assert_eq!(ball.position(&world).unwrap(), before);
//!
//! world.destroy_body(ball).unwrap();
//! assert!(ball.position(&world).is_err());
//! ```

use crate::dynamics::body::{self as core_body, Invalid, BODIES};
use crate::pipeline;
use crate::dynamics::world::{self as core_world, flags, WorldRef};
use crate::dynamics::{Body as CoreBody, World as CoreWorld};

pub use crate::math::mass::Mass;
/// Rotation helpers (rotation.h): matrices are 3x4 row-major padded
/// (`[f64; 12]`), quaternions are (w, x, y, z).
pub use crate::math::rotation::{
    q_from_axis_and_angle, q_mult0, q_to_r, r_from_2_axes, r_from_axis_and_angle, r_from_euler_angles,
    r_from_z_axis, r_to_q, Mat3, Quat, IDENTITY, Q_IDENTITY,
};

/// Why a call was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The body was destroyed (or its world was).
    StaleBody,
    /// The body belongs to another world.
    WrongWorld,
    /// An argument is out of its domain; `arg` names it.
    InvalidArgument { arg: &'static str, reason: String },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::StaleBody => f.write_str("the body was destroyed"),
            Error::WrongWorld => f.write_str("the body belongs to another world"),
            Error::InvalidArgument { arg, reason } => write!(f, "argument '{arg}' {reason}"),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

fn arg<T>(name: &'static str, r: std::result::Result<T, Invalid>) -> Result<T> {
    r.map_err(|e| Error::InvalidArgument { arg: name, reason: e.0 })
}

fn finite(name: &'static str, v: f64) -> Result<f64> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(Error::InvalidArgument { arg: name, reason: format!("is {v} (must be finite)") })
    }
}

fn finite3(name: &'static str, v: [f64; 3]) -> Result<[f64; 3]> {
    for x in v {
        finite(name, x)?;
    }
    Ok(v)
}

fn xyz(v: &[f64; 4]) -> [f64; 3] {
    [v[0], v[1], v[2]]
}

/// A simulation world. Dropping it destroys its bodies.
pub struct World {
    h: WorldRef,
}

impl Default for World {
    fn default() -> Self {
        World::new()
    }
}

impl Drop for World {
    fn drop(&mut self) {
        if self.h.is_live() {
            joint_object::destroy_world(self.h);
        }
    }
}

impl World {
    /// A world with ODE's defaults (no gravity, ERP 0.2, CFM 1e-10, …).
    pub fn new() -> World {
        World { h: core_world::create_world() }
    }

    fn w(&self) -> &CoreWorld {
        self.h.get()
    }

    fn w_mut(&mut self) -> &mut CoreWorld {
        self.h.get_mut()
    }

    /// The C handle (`dWorldID`) of this world, for mixing with C code.
    pub fn as_raw(&self) -> *mut core::ffi::c_void {
        self.h.as_raw()
    }

    /// Advances the simulation by `h` seconds with ODE's Step stepper
    /// (`dWorldStep`).
    pub fn step(&mut self, h: f64) -> Result<()> {
        self.checked_step(h, false)
    }

    /// Advances the simulation by `h` seconds with ODE's iterative
    /// QuickStep stepper (`dWorldQuickStep`).
    pub fn quick_step(&mut self, h: f64) -> Result<()> {
        self.checked_step(h, true)
    }

    fn checked_step(&mut self, h: f64, quick: bool) -> Result<()> {
        if !(h.is_finite() && h > 0.0) {
            return Err(Error::InvalidArgument { arg: "stepsize", reason: format!("= {h} (must be finite and > 0)") });
        }
        pipeline::step_world(self.h, h, quick);
        Ok(())
    }

    /// Creates a body with ODE's initial state and this world's defaults.
    pub fn create_body(&mut self) -> Body {
        let h = core_world::create_body(self.h);
        Body { h, serial: h.get().serial }
    }

    /// Destroys a body of this world.
    pub fn destroy_body(&mut self, b: Body) -> Result<()> {
        b.resolve(self)?;
        joint_object::destroy_body(b.h);
        Ok(())
    }

    /// The bodies, in ODE's list order (newest first).
    pub fn bodies(&self) -> Vec<Body> {
        self.w().bodies_in_ode_order().map(|h| Body { h, serial: h.get().serial }).collect()
    }

    pub fn gravity(&self) -> [f64; 3] {
        self.w().gravity
    }

    pub fn set_gravity(&mut self, g: [f64; 3]) -> Result<()> {
        self.w_mut().gravity = finite3("gravity", g)?;
        Ok(())
    }

    pub fn erp(&self) -> f64 {
        self.w().erp
    }

    pub fn set_erp(&mut self, erp: f64) -> Result<()> {
        self.w_mut().erp = finite("erp", erp)?;
        Ok(())
    }

    pub fn cfm(&self) -> f64 {
        self.w().cfm
    }

    pub fn set_cfm(&mut self, cfm: f64) -> Result<()> {
        self.w_mut().cfm = finite("cfm", cfm)?;
        Ok(())
    }

    pub fn quick_step_num_iterations(&self) -> i32 {
        self.w().qs.num_iterations
    }

    pub fn set_quick_step_num_iterations(&mut self, n: i32) -> Result<()> {
        if n < 1 {
            return Err(Error::InvalidArgument { arg: "num", reason: format!("= {n} (must be >= 1)") });
        }
        self.w_mut().qs.num_iterations = n;
        Ok(())
    }

    pub fn quick_step_w(&self) -> f64 {
        self.w().qs.w
    }

    pub fn set_quick_step_w(&mut self, w: f64) -> Result<()> {
        self.w_mut().qs.w = finite("over_relaxation", w)?;
        Ok(())
    }

    /// Default auto-disable flag for new bodies.
    pub fn auto_disable_flag(&self) -> bool {
        self.w().body_flags & flags::AUTO_DISABLE != 0
    }

    pub fn set_auto_disable_flag(&mut self, on: bool) {
        self.w_mut().set_auto_disable_flag(on);
    }

    /// Default linear and angular damping scales for new bodies.
    pub fn damping(&self) -> (f64, f64) {
        (self.w().dampingp.linear_scale, self.w().dampingp.angular_scale)
    }

    pub fn set_damping(&mut self, linear: f64, angular: f64) -> Result<()> {
        arg("linear_scale", core_body::check_damping_scale(linear))?;
        arg("angular_scale", core_body::check_damping_scale(angular))?;
        let w = self.w_mut();
        w.set_linear_damping(linear);
        w.set_angular_damping(angular);
        Ok(())
    }

    /// Default maximum angular speed for new bodies (infinity: no limit).
    pub fn max_angular_speed(&self) -> f64 {
        self.w().max_angular_speed
    }

    pub fn set_max_angular_speed(&mut self, max: f64) -> Result<()> {
        arg("max_speed", core_body::check_max_angular_speed(max))?;
        self.w_mut().set_max_angular_speed(max);
        Ok(())
    }
}

/// A rigid body of some [`World`]: a copyable id, checked on every use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Body {
    h: core_body::BodyRef,
    /// Guards against the cell being reused by a later body.
    serial: u64,
}

impl Body {
    /// Checks that the body is alive and belongs to `w`.
    fn resolve<'w>(&self, w: &'w World) -> Result<&'w CoreBody> {
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

    fn resolve_mut<'w>(&self, w: &'w mut World) -> Result<&'w mut CoreBody> {
        self.resolve(w)?;
        Ok(self.h.get_mut())
    }

    /// The C handle (`dBodyID`) of this body.
    pub fn as_raw(&self) -> *mut core::ffi::c_void {
        self.h.as_raw()
    }

    // ---- state ---------------------------------------------------------

    pub fn position(&self, w: &World) -> Result<[f64; 3]> {
        Ok(xyz(&self.resolve(w)?.pos))
    }

    pub fn set_position(&self, w: &mut World, p: [f64; 3]) -> Result<()> {
        let p = finite3("position", p)?;
        self.resolve_mut(w)?.set_position(p);
        Ok(())
    }

    /// Orientation as a 3x4 row-major padded matrix.
    pub fn rotation(&self, w: &World) -> Result<Mat3> {
        Ok(self.resolve(w)?.r)
    }

    /// Sets the orientation from a matrix; ODE re-orthogonalises it.
    pub fn set_rotation(&self, w: &mut World, r: &Mat3) -> Result<()> {
        let b = self.resolve_mut(w)?;
        let rq = arg("R", CoreBody::prepare_rotation(r))?;
        b.set_rotation_prepared(rq);
        Ok(())
    }

    /// Orientation quaternion (w, x, y, z).
    pub fn quaternion(&self, w: &World) -> Result<Quat> {
        Ok(self.resolve(w)?.q)
    }

    /// Sets the orientation from a quaternion of any non-zero length.
    pub fn set_quaternion(&self, w: &mut World, q: &Quat) -> Result<()> {
        let b = self.resolve_mut(w)?;
        let rq = arg("q", CoreBody::prepare_quaternion(q))?;
        b.set_rotation_prepared(rq);
        Ok(())
    }

    pub fn linear_vel(&self, w: &World) -> Result<[f64; 3]> {
        Ok(xyz(&self.resolve(w)?.lvel))
    }

    pub fn set_linear_vel(&self, w: &mut World, v: [f64; 3]) -> Result<()> {
        let v = finite3("velocity", v)?;
        self.resolve_mut(w)?.set_linear_vel(v);
        Ok(())
    }

    pub fn angular_vel(&self, w: &World) -> Result<[f64; 3]> {
        Ok(xyz(&self.resolve(w)?.avel))
    }

    pub fn set_angular_vel(&self, w: &mut World, v: [f64; 3]) -> Result<()> {
        let v = finite3("velocity", v)?;
        self.resolve_mut(w)?.set_angular_vel(v);
        Ok(())
    }

    // ---- mass ----------------------------------------------------------

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

    pub fn set_dynamic(&self, w: &mut World) -> Result<()> {
        self.resolve_mut(w)?.set_dynamic();
        Ok(())
    }

    pub fn is_kinematic(&self, w: &World) -> Result<bool> {
        Ok(self.resolve(w)?.is_kinematic())
    }

    // ---- forces --------------------------------------------------------

    /// Accumulated force (cleared by each step).
    pub fn force(&self, w: &World) -> Result<[f64; 3]> {
        Ok(xyz(&self.resolve(w)?.facc))
    }

    pub fn torque(&self, w: &World) -> Result<[f64; 3]> {
        Ok(xyz(&self.resolve(w)?.tacc))
    }

    pub fn set_force(&self, w: &mut World, f: [f64; 3]) -> Result<()> {
        let f = finite3("force", f)?;
        self.resolve_mut(w)?.set_force(f);
        Ok(())
    }

    pub fn set_torque(&self, w: &mut World, t: [f64; 3]) -> Result<()> {
        let t = finite3("torque", t)?;
        self.resolve_mut(w)?.set_torque(t);
        Ok(())
    }

    /// Adds a force given in world coordinates at the centre of mass.
    pub fn add_force(&self, w: &mut World, f: [f64; 3]) -> Result<()> {
        let f = finite3("force", f)?;
        self.resolve_mut(w)?.add_force(f);
        Ok(())
    }

    pub fn add_torque(&self, w: &mut World, t: [f64; 3]) -> Result<()> {
        let t = finite3("torque", t)?;
        self.resolve_mut(w)?.add_torque(t);
        Ok(())
    }

    /// Adds a force given in body coordinates.
    pub fn add_rel_force(&self, w: &mut World, f: [f64; 3]) -> Result<()> {
        let f = finite3("force", f)?;
        self.resolve_mut(w)?.add_rel_force(f);
        Ok(())
    }

    pub fn add_rel_torque(&self, w: &mut World, t: [f64; 3]) -> Result<()> {
        let t = finite3("torque", t)?;
        self.resolve_mut(w)?.add_rel_torque(t);
        Ok(())
    }

    /// World force at a world point.
    pub fn add_force_at_pos(&self, w: &mut World, f: [f64; 3], p: [f64; 3]) -> Result<()> {
        let (f, p) = (finite3("force", f)?, finite3("pos", p)?);
        self.resolve_mut(w)?.add_force_at_pos(f, p);
        Ok(())
    }

    /// World force at a point given in body coordinates.
    pub fn add_force_at_rel_pos(&self, w: &mut World, f: [f64; 3], p: [f64; 3]) -> Result<()> {
        let (f, p) = (finite3("force", f)?, finite3("pos", p)?);
        self.resolve_mut(w)?.add_force_at_rel_pos(f, p);
        Ok(())
    }

    /// Body-frame force at a world point.
    pub fn add_rel_force_at_pos(&self, w: &mut World, f: [f64; 3], p: [f64; 3]) -> Result<()> {
        let (f, p) = (finite3("force", f)?, finite3("pos", p)?);
        self.resolve_mut(w)?.add_rel_force_at_pos(f, p);
        Ok(())
    }

    /// Body-frame force at a body-frame point.
    pub fn add_rel_force_at_rel_pos(&self, w: &mut World, f: [f64; 3], p: [f64; 3]) -> Result<()> {
        let (f, p) = (finite3("force", f)?, finite3("pos", p)?);
        self.resolve_mut(w)?.add_rel_force_at_rel_pos(f, p);
        Ok(())
    }

    // ---- frames ----------------------------------------------------------

    /// A body point in world coordinates.
    pub fn rel_point_pos(&self, w: &World, p: [f64; 3]) -> Result<[f64; 3]> {
        let p = finite3("point", p)?;
        Ok(self.resolve(w)?.rel_point_pos(p))
    }

    /// World velocity of a body point.
    pub fn rel_point_vel(&self, w: &World, p: [f64; 3]) -> Result<[f64; 3]> {
        let p = finite3("point", p)?;
        Ok(self.resolve(w)?.rel_point_vel(p))
    }

    /// World velocity of the body's material point at a world position.
    pub fn point_vel(&self, w: &World, p: [f64; 3]) -> Result<[f64; 3]> {
        let p = finite3("point", p)?;
        Ok(self.resolve(w)?.point_vel(p))
    }

    /// A world point in body coordinates.
    pub fn pos_rel_point(&self, w: &World, p: [f64; 3]) -> Result<[f64; 3]> {
        let p = finite3("point", p)?;
        Ok(self.resolve(w)?.pos_rel_point(p))
    }

    pub fn vector_to_world(&self, w: &World, v: [f64; 3]) -> Result<[f64; 3]> {
        let v = finite3("vector", v)?;
        Ok(self.resolve(w)?.vector_to_world(v))
    }

    pub fn vector_from_world(&self, w: &World, v: [f64; 3]) -> Result<[f64; 3]> {
        let v = finite3("vector", v)?;
        Ok(self.resolve(w)?.vector_from_world(v))
    }

    // ---- modes -----------------------------------------------------------

    pub fn is_enabled(&self, w: &World) -> Result<bool> {
        Ok(self.resolve(w)?.is_enabled())
    }

    /// Enables the body and restarts its idle countdown.
    pub fn enable(&self, w: &mut World) -> Result<()> {
        self.resolve_mut(w)?.enable();
        Ok(())
    }

    pub fn disable(&self, w: &mut World) -> Result<()> {
        self.resolve_mut(w)?.disable();
        Ok(())
    }

    pub fn gravity_mode(&self, w: &World) -> Result<bool> {
        Ok(self.resolve(w)?.gravity_mode())
    }

    pub fn set_gravity_mode(&self, w: &mut World, on: bool) -> Result<()> {
        self.resolve_mut(w)?.set_gravity_mode(on);
        Ok(())
    }

    pub fn gyroscopic_mode(&self, w: &World) -> Result<bool> {
        Ok(self.resolve(w)?.gyroscopic_bits() != 0)
    }

    pub fn set_gyroscopic_mode(&self, w: &mut World, on: bool) -> Result<()> {
        self.resolve_mut(w)?.set_gyroscopic_mode(on);
        Ok(())
    }

    pub fn finite_rotation_mode(&self, w: &World) -> Result<bool> {
        Ok(self.resolve(w)?.finite_rotation_mode())
    }

    pub fn set_finite_rotation_mode(&self, w: &mut World, on: bool) -> Result<()> {
        self.resolve_mut(w)?.set_finite_rotation_mode(on);
        Ok(())
    }

    pub fn finite_rotation_axis(&self, w: &World) -> Result<[f64; 3]> {
        Ok(xyz(&self.resolve(w)?.finite_rot_axis))
    }

    /// Sets the finite rotation axis (normalised); zero means none.
    pub fn set_finite_rotation_axis(&self, w: &mut World, a: [f64; 3]) -> Result<()> {
        let a = finite3("axis", a)?;
        self.resolve_mut(w)?.set_finite_rotation_axis(a);
        Ok(())
    }

    // ---- auto-disable ------------------------------------------------------

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

    pub fn set_auto_disable_thresholds(&self, w: &mut World, linear: f64, angular: f64) -> Result<()> {
        arg("linear_average_threshold", core_body::check_threshold(linear))?;
        arg("angular_average_threshold", core_body::check_threshold(angular))?;
        let b = self.resolve_mut(w)?;
        b.adis.linear_average_threshold = linear * linear;
        b.adis.angular_average_threshold = angular * angular;
        Ok(())
    }

    pub fn auto_disable_steps(&self, w: &World) -> Result<i32> {
        Ok(self.resolve(w)?.adis.idle_steps)
    }

    pub fn set_auto_disable_steps(&self, w: &mut World, steps: i32) -> Result<()> {
        arg("steps", core_body::check_idle_steps(steps))?;
        self.resolve_mut(w)?.adis.idle_steps = steps;
        Ok(())
    }

    pub fn auto_disable_time(&self, w: &World) -> Result<f64> {
        Ok(self.resolve(w)?.adis.idle_time)
    }

    pub fn set_auto_disable_time(&self, w: &mut World, time: f64) -> Result<()> {
        arg("time", core_body::check_idle_time(time))?;
        self.resolve_mut(w)?.adis.idle_time = time;
        Ok(())
    }

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

// ---- custom joints --------------------------------------------------------------
//
// A joint whose rows come from a [`CustomJoint`] implementation: the Rust
// face of the C custom-joint API of `ode/ode_ext.h` (same core, same
// stepping). See the README section "Custom joints".

use crate::joints::custom::{self as core_custom, CustomModel, Info1Cx, Info2Cx};
use crate::joints::{object as joint_object, JointKind, JointRef, JOINTS};

/// One constraint row: `j1l·v1 + j1a·ω1 + j2l·v2 + j2a·ω2 = c + cfm·λ`,
/// `lo ≤ λ ≤ hi`; `findex ≥ 0` makes it a friction row bounded by
/// `lo·|λ_findex|, hi·|λ_findex|` (index within the joint's rows).
pub use crate::joints::Row as JointRow;
/// Settings of a one-sided limit row (see [`CustomInfo1::limit`]).
pub use crate::joints::custom::Limit;
/// Which boundary an engaged limit row acts at.
pub use crate::joints::custom::Side as LimitSide;
/// Most rows a custom joint may have.
pub const MAX_CUSTOM_ROWS: usize = core_custom::MAX_ROWS;

/// Read access to a body's state from inside a custom joint's callbacks.
#[derive(Clone, Copy)]
pub struct BodyState<'a>(&'a CoreBody);

impl BodyState<'_> {
    pub fn position(&self) -> [f64; 3] {
        xyz(&self.0.pos)
    }

    /// Orientation, 3x4 row-major padded.
    pub fn rotation(&self) -> Mat3 {
        self.0.r
    }

    pub fn quaternion(&self) -> Quat {
        self.0.q
    }

    pub fn linear_vel(&self) -> [f64; 3] {
        xyz(&self.0.lvel)
    }

    pub fn angular_vel(&self) -> [f64; 3] {
        xyz(&self.0.avel)
    }

    /// A body point in world coordinates.
    pub fn rel_point_pos(&self, p: [f64; 3]) -> [f64; 3] {
        self.0.rel_point_pos(p)
    }

    /// A world point in body coordinates.
    pub fn pos_rel_point(&self, p: [f64; 3]) -> [f64; 3] {
        self.0.pos_rel_point(p)
    }

    /// A body-frame vector in world axes.
    pub fn vector_to_world(&self, v: [f64; 3]) -> [f64; 3] {
        self.0.vector_to_world(v)
    }
}

/// What [`CustomJoint::info1`] sees. `body1` is set whenever the joint has
/// a body (attached as (None, b) it sees (b, None), and `reversed()`).
pub struct CustomInfo1<'a, 'b> {
    cx: &'a mut Info1Cx<'b>,
}

impl CustomInfo1<'_, '_> {
    pub fn body1(&self) -> Option<BodyState<'_>> {
        self.cx.bodies.b1.map(BodyState)
    }

    pub fn body2(&self) -> Option<BodyState<'_>> {
        self.cx.bodies.b2.map(BodyState)
    }

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
    pub fn body1(&self) -> Option<BodyState<'_>> {
        self.cx.bodies.b1.map(BodyState)
    }

    pub fn body2(&self) -> Option<BodyState<'_>> {
        self.cx.bodies.b2.map(BodyState)
    }

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
    fn info1(&mut self, cx: &mut Info1Cx<'_>) -> crate::joints::Info1 {
        let (m, nub) = self.0.info1(&mut CustomInfo1 { cx });
        crate::joints::Info1 { m, nub }
    }

    fn info2(&mut self, cx: &mut Info2Cx<'_>, rows: &mut [JointRow]) {
        self.0.info2(&mut CustomInfo2 { cx }, rows);
    }

    fn as_any_mut(&mut self) -> Option<&mut dyn std::any::Any> {
        Some(&mut self.0)
    }
}

/// A joint of some [`World`] (copyable id, checked on use).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Joint {
    h: JointRef,
}

impl World {
    /// Creates a custom joint (unattached) from `joint`.
    pub fn create_custom_joint<T: CustomJoint>(&mut self, joint: T) -> Result<Joint> {
        let max = joint.max_rows();
        if !(1..=MAX_CUSTOM_ROWS).contains(&max) {
            return Err(Error::InvalidArgument { arg: "max_rows", reason: format!("= {max} (must be 1..={MAX_CUSTOM_ROWS})") });
        }
        let c = core_custom::Custom::new(Box::new(RustModel(joint)), max)
            .map_err(|reason| Error::InvalidArgument { arg: "max_rows", reason })?;
        Ok(Joint { h: joint_object::create_joint(self.h, None, JointKind::Custom(c)) })
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

    /// Destroys a joint of this world.
    pub fn destroy_joint(&mut self, j: Joint) -> Result<()> {
        j.resolve(self)?;
        joint_object::destroy_joint(j.h);
        Ok(())
    }
}

impl Joint {
    fn resolve(&self, w: &World) -> Result<()> {
        let stale = || Error::InvalidArgument { arg: "joint", reason: "was destroyed".into() };
        let live = JOINTS.check(self.h.as_raw()).ok_or_else(stale)?;
        let head = &live.get().head;
        if head.world_destroyed || head.world != w.h {
            return Err(Error::WrongWorld);
        }
        Ok(())
    }

    /// The C handle (`dJointID`), for the generic `dJoint*` functions.
    pub fn as_raw(&self) -> *mut core::ffi::c_void {
        self.h.as_raw()
    }

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
