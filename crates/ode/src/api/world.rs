//! [`World`]: creation, settings (gravity, ERP/CFM, damping, auto-disable,
//! QuickStep, contact correction, solver mode, step threads) and stepping
//! with both of ODE's steppers.
//!
//! ```
//! use ode::api::{SolverMode, World};
//!
//! let mut world = World::new();
//! world.set_gravity([0.0, 0.0, -9.81]).unwrap();
//! world.set_erp(0.2).unwrap();
//! world.set_quick_step_num_iterations(40).unwrap();
//! world.set_step_threads(1);
//! assert_eq!(world.solver_mode(), SolverMode::Exact);
//! let body = world.create_body();
//! world.quick_step(0.01).unwrap(); // dWorldQuickStep
//! world.step(0.01).unwrap(); // dWorldStep
//! assert!(body.position(&world).unwrap().z < 0.0);
//! // Out-of-range settings are refused and change nothing.
//! assert!(world.set_erp(f64::NAN).is_err());
//! assert_eq!(world.erp(), 0.2);
//! ```

use super::{arg, finite, finite3, Body, DVec3, Error, Result, SolverMode};
use crate::dynamics::body as core_body;
use crate::dynamics::world::{self as core_world, flags, WorldRef};
use crate::dynamics::World as CoreWorld;
use crate::joints::object as joint_object;
use crate::pipeline;

/// A simulation world. Dropping it destroys its bodies.
pub struct World {
    pub(super) h: WorldRef,
    /// Feedback records handed to joints (see `Joint::set_feedback`).
    pub(super) feedback: Vec<(crate::joints::JointRef, Box<crate::abi::common::dJointFeedback>)>,
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
        World { h: core_world::create_world(), feedback: Vec::new() }
    }

    pub(super) fn w(&self) -> &CoreWorld {
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
    /// (`dWorldStep`). If a [`CustomJoint`](super::CustomJoint) callback
    /// panics, that joint adds no rows, the step completes, and the panic
    /// is returned as [`Error::CallbackPanicked`].
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
        super::callback_panic::clear_panic();
        pipeline::step_world(self.h, h, quick);
        // A custom joint whose callback panicked added no rows this step.
        super::callback_panic::take_panic()
    }

    /// Creates a body with ODE's initial state and this world's defaults.
    pub fn create_body(&mut self) -> Body {
        let h = core_body::create_body(self.h);
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
        core_body::world_bodies(self.w()).map(|h| Body { h, serial: h.get().serial }).collect()
    }

    /// Gravity acceleration.
    pub fn gravity(&self) -> DVec3 {
        DVec3::from(self.w().gravity)
    }

    /// Sets gravity.
    pub fn set_gravity(&mut self, g: impl Into<DVec3>) -> Result<()> {
        self.w_mut().gravity = finite3("gravity", g)?;
        Ok(())
    }

    /// Global error reduction parameter.
    pub fn erp(&self) -> f64 {
        self.w().erp
    }

    /// Sets the global ERP (typically 0.1..0.8).
    pub fn set_erp(&mut self, erp: f64) -> Result<()> {
        self.w_mut().erp = finite("erp", erp)?;
        Ok(())
    }

    /// Global constraint force mixing.
    pub fn cfm(&self) -> f64 {
        self.w().cfm
    }

    /// Sets the global CFM (typically 1e-9..1).
    pub fn set_cfm(&mut self, cfm: f64) -> Result<()> {
        self.w_mut().cfm = finite("cfm", cfm)?;
        Ok(())
    }

    /// QuickStep's iteration count.
    pub fn quick_step_num_iterations(&self) -> i32 {
        self.w().qs.num_iterations
    }

    /// Sets QuickStep's iteration count (>= 1).
    pub fn set_quick_step_num_iterations(&mut self, n: i32) -> Result<()> {
        if n < 1 {
            return Err(Error::InvalidArgument { arg: "num", reason: format!("= {n} (must be >= 1)") });
        }
        self.w_mut().qs.num_iterations = n;
        Ok(())
    }

    /// QuickStep's over-relaxation factor.
    pub fn quick_step_w(&self) -> f64 {
        self.w().qs.w
    }

    /// Sets QuickStep's over-relaxation factor.
    pub fn set_quick_step_w(&mut self, w: f64) -> Result<()> {
        self.w_mut().qs.w = finite("over_relaxation", w)?;
        Ok(())
    }

    /// Default auto-disable flag for new bodies.
    pub fn auto_disable_flag(&self) -> bool {
        self.w().body_flags & flags::AUTO_DISABLE != 0
    }

    /// Sets the default auto-disable flag for new bodies.
    pub fn set_auto_disable_flag(&mut self, on: bool) {
        self.w_mut().set_auto_disable_flag(on);
    }

    /// Default linear and angular damping scales for new bodies.
    pub fn damping(&self) -> (f64, f64) {
        (self.w().dampingp.linear_scale, self.w().dampingp.angular_scale)
    }

    /// Sets the default damping scales for new bodies, each in [0, 1].
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

    /// Sets the default angular speed cap for new bodies.
    pub fn set_max_angular_speed(&mut self, max: f64) -> Result<()> {
        arg("max_speed", core_body::check_max_angular_speed(max))?;
        self.w_mut().set_max_angular_speed(max);
        Ok(())
    }

    /// Most speed at which contacts correct penetration (infinity: no cap).
    pub fn contact_max_correcting_vel(&self) -> f64 {
        self.w().contactp.max_vel
    }

    /// Caps the speed at which contacts correct penetration (not NaN;
    /// `f64::INFINITY` removes the cap).
    pub fn set_contact_max_correcting_vel(&mut self, vel: f64) -> Result<()> {
        if vel.is_nan() {
            return Err(Error::InvalidArgument { arg: "vel", reason: "is NaN".into() });
        }
        self.w_mut().contactp.max_vel = vel;
        Ok(())
    }

    /// Depth contacts may sink before being corrected.
    pub fn contact_surface_layer(&self) -> f64 {
        self.w().contactp.min_depth
    }

    /// Sets the depth contacts may sink before being corrected.
    pub fn set_contact_surface_layer(&mut self, depth: f64) -> Result<()> {
        self.w_mut().contactp.min_depth = finite("depth", depth)?;
        Ok(())
    }

    /// Default (linear, angular) idle speed thresholds for new bodies.
    pub fn auto_disable_thresholds(&self) -> (f64, f64) {
        let a = &self.w().adis;
        (a.linear_average_threshold.sqrt(), a.angular_average_threshold.sqrt())
    }

    /// Sets the default idle speed thresholds for new bodies, each >= 0.
    pub fn set_auto_disable_thresholds(&mut self, linear: f64, angular: f64) -> Result<()> {
        arg("linear_average_threshold", core_body::check_threshold(linear))?;
        arg("angular_average_threshold", core_body::check_threshold(angular))?;
        let a = &mut self.w_mut().adis;
        a.linear_average_threshold = linear * linear;
        a.angular_average_threshold = angular * angular;
        Ok(())
    }

    /// Default idle steps before auto-disable for new bodies.
    pub fn auto_disable_steps(&self) -> i32 {
        self.w().adis.idle_steps
    }

    /// Sets the default idle steps before auto-disable.
    pub fn set_auto_disable_steps(&mut self, steps: i32) -> Result<()> {
        arg("steps", core_body::check_idle_steps(steps))?;
        self.w_mut().adis.idle_steps = steps;
        Ok(())
    }

    /// Default idle time before auto-disable for new bodies.
    pub fn auto_disable_time(&self) -> f64 {
        self.w().adis.idle_time
    }

    /// Sets the default idle time before auto-disable (>= 0).
    pub fn set_auto_disable_time(&mut self, time: f64) -> Result<()> {
        arg("time", core_body::check_idle_time(time))?;
        self.w_mut().adis.idle_time = time;
        Ok(())
    }

    /// Most threads the step may use for islands (ODE's setting, accepted
    /// and echoed as ODE does; it does not change results).
    pub fn step_islands_max_threads(&self) -> u32 {
        self.w().islands_max_threads
    }

    /// Sets the most threads the step may use for islands.
    pub fn set_step_islands_max_threads(&mut self, count: u32) {
        self.w_mut().islands_max_threads = count;
    }

    /// Sets how many threads step this world's islands
    /// (`odexWorldSetStepThreads`): islands are stepped concurrently, each
    /// exactly as in a serial step, so results are bit-identical at any
    /// count. 1 steps serially; 0 returns to the default (ODE's threading
    /// API, else the `ODE_THREADS` environment variable, else 1). At most 64
    /// threads are used.
    pub fn set_step_threads(&mut self, threads: u32) {
        self.w_mut().step_threads = threads;
    }

    /// The number of threads the next step may use for islands
    /// (`odexWorldGetStepThreads`).
    pub fn step_threads(&self) -> usize {
        crate::pipeline::step_threads(self.w())
    }

    /// Chooses the solver algorithms from the next step on
    /// (`odexWorldSetSolverMode`): [`SolverMode::Exact`] (ODE's bits, the
    /// default unless `ODE_SOLVER=fast`) or [`SolverMode::Fast`].
    ///
    /// ```
    /// use ode::api::{SolverMode, World};
    ///
    /// let mut world = World::new();
    /// world.set_solver_mode(SolverMode::Fast);
    /// assert_eq!(world.solver_mode(), SolverMode::Fast);
    /// ```
    pub fn set_solver_mode(&mut self, mode: SolverMode) {
        self.w_mut().solver_mode = mode;
    }

    /// The solver mode.
    pub fn solver_mode(&self) -> SolverMode {
        self.w().solver_mode
    }
}
