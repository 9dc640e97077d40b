//! A rigid body: state (position, orientation, velocities), mass, force
//! accumulators and per-body settings (auto-disable, damping, rotation
//! mode). Vectors are stored padded to 4 reals like ODE's `dVector3`, so
//! pointers handed to C (`dBodyGetPosition`, …) have ODE's layout.
//!
//! Every mutation is a method that cannot fail once its inputs passed the
//! matching `check_*`/`prepare_*` function; the C layer and the safe API
//! validate first and then apply, so a rejected call changes nothing.
//! Arithmetic follows ODE's operation order so results are bit-identical.

use super::world::{flags, AutoDisable, Damping, World, WorldRef, WORLDS};
use crate::handle::{ErasedHandle, Handle, Pool};
use crate::math::mass::Mass;
use crate::math::mat3::{mul0_331, mul1_331};
use crate::math::matrix::invert_pd;
use crate::math::rotation::{q_to_r, r_to_q, IDENTITY};
use crate::math::vec::{cross3, dot3, orthogonalize_r, safe_normalize3, safe_normalize4};
use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

pub type BodyRef = Handle<Body>;

/// All bodies. Tag spells "BODY".
pub static BODIES: Pool<Body> = Pool::new(0x424F_4459);

/// Host callback invoked when a step moved the body.
pub type MovedCallback = unsafe extern "C" fn(body: *mut c_void);

/// Largest averaging window accepted for auto-disable: the C argument is
/// unsigned but the getter returns `int`, so larger values would read back
/// negative (they are what a negative count becomes when passed unsigned).
pub const MAX_AVERAGE_SAMPLES: u32 = i32::MAX as u32;

/// ODE's `dEpsilon` for double precision: tolerance on the centre of mass.
const EPSILON: f64 = f64::EPSILON;

/// Source of `Body::serial` (0 is never used).
static NEXT_SERIAL: AtomicU64 = AtomicU64::new(1);

/// `repr(C)`, so that what the per-contact calls read of a body (its
/// world, joint list and first geom, flags and tag: `dJointAttach`,
/// `dAreConnectedExcluding`, `dJointGroupEmpty`, the step's moved test)
/// shares the cache line of its cell's tag (cells start on a line, see
/// `handle`), and each 4-vector and 3x4 row the step loads whole starts
/// 32 bytes into a line or on one (offset 56 here is 64 in the cell), so
/// that no such load straddles two lines. `layout_keeps_hot_fields_together`
/// checks both.
#[repr(C)]
pub struct Body {
    pub world: WorldRef,
    /// Joints attached to this body, in attachment order (oldest first).
    /// ODE's per-body list is newest first: use `joint(i)` /
    /// `joints::object::body_joints` for that order (joints belong to the layer above, which maintains this list).
    pub joints: Vec<ErasedHandle>,
    /// `geoms[0]`, null when there is none: with one geom (the usual
    /// case) the step tells it that the body moved without loading the
    /// list's buffer, a cache miss per body.
    first_geom: *mut c_void,
    /// `flags::*` bits.
    pub flags: u32,
    /// Scratch used while stepping: island membership, then the body's
    /// index in its island (ODE's body tag).
    pub tag: i32,
    /// Unique id of this body over the process lifetime, so that a stale
    /// handle whose cell was reused is never mistaken for the new body.
    pub serial: u64,
    pub pos: [f64; 4],
    /// 3x4 row-major padded rotation matrix, kept in sync with `q`.
    pub r: [f64; 12],
    /// Orientation quaternion (w, x, y, z).
    pub q: [f64; 4],
    pub lvel: [f64; 4],
    pub avel: [f64; 4],
    pub facc: [f64; 4],
    pub tacc: [f64; 4],
    /// Finite rotation axis (unit length) or zero.
    pub finite_rot_axis: [f64; 4],
    /// Inverse of `mass.I` (3x4 padded); zero for kinematic bodies.
    pub inv_i: [f64; 12],
    /// 1/mass; 0 for kinematic bodies.
    pub inv_mass: f64,
    /// Mass parameters about the point of reference (centre of mass at
    /// `mass.c`, which must be the origin). Kept while kinematic so that
    /// `set_dynamic` restores them.
    pub mass: Mass,
    /// Ring buffers of recent velocities for auto-disable averaging.
    pub average_lvel: Vec<[f64; 3]>,
    pub average_avel: Vec<[f64; 3]>,
    /// Geoms attached to this body, in ODE's list order. Filled by the
    /// collision module; empty until geoms exist.
    /// Read it with `geoms()`, change it with `add_geom_front` and
    /// `remove_geom` (they keep `first_geom`).
    geoms: Vec<*mut c_void>,
    pub adis: AutoDisable,
    pub adis_timeleft: f64,
    pub moved_callback: Option<MovedCallback>,
    pub dampingp: Damping,
    pub max_angular_speed: f64,
    pub data: *mut c_void,
    pub adis_stepsleft: i32,
    pub average_counter: u32,
    pub average_ready: bool,
}

unsafe impl Send for Body {}

/// Why an argument was refused (the caller names function and argument).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid(pub String);

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn invalid<T>(s: impl Into<String>) -> Result<T, Invalid> {
    Err(Invalid(s.into()))
}

impl Body {
    /// A body as ODE creates it: unit mass with unit inertia, identity
    /// orientation, at rest, enabled, with the world's auto-disable and
    /// damping defaults, its maximum angular speed, and the gyroscopic term
    /// on.
    pub fn new(wref: WorldRef, world: &World) -> Body {
        let mut mass = Mass::zero();
        mass.mass = 1.0;
        mass.I[0] = 1.0;
        mass.I[5] = 1.0;
        mass.I[10] = 1.0;
        let ident = IDENTITY;
        let mut b = Body {
            world: wref,
            flags: 0,
            mass,
            inv_i: ident,
            inv_mass: 1.0,
            pos: [0.0; 4],
            r: ident,
            q: [1.0, 0.0, 0.0, 0.0],
            lvel: [0.0; 4],
            avel: [0.0; 4],
            facc: [0.0; 4],
            tacc: [0.0; 4],
            finite_rot_axis: [0.0; 4],
            adis: world.adis,
            adis_timeleft: 0.0,
            adis_stepsleft: 0,
            average_lvel: Vec::new(),
            average_avel: Vec::new(),
            average_counter: 0,
            average_ready: false,
            moved_callback: None,
            dampingp: world.dampingp,
            max_angular_speed: world.max_angular_speed,
            data: std::ptr::null_mut(),
            joints: Vec::new(),
            tag: 0,
            geoms: Vec::new(),
            first_geom: std::ptr::null_mut(),
            serial: NEXT_SERIAL.fetch_add(1, Ordering::Relaxed),
        };
        b.set_auto_disable_defaults(world);
        b.adis_stepsleft = b.adis.idle_steps;
        b.adis_timeleft = b.adis.idle_time;
        // Fresh, empty averaging buffers of the world's window size.
        b.set_average_samples(b.adis.average_samples);
        b.set_damping_defaults(world);
        b.flags |= world.body_flags & flags::MAX_ANGULAR_SPEED;
        b.flags |= flags::GYROSCOPIC;
        b
    }

    // ---- position and orientation -------------------------------------

    #[inline]
    pub fn set_position(&mut self, p: [f64; 3]) {
        self.pos[..3].copy_from_slice(&p);
        self.geoms_moved();
    }

    /// Tells the attached geoms that the body moved (ODE's dGeomMoved for
    /// each), so their spaces refresh them.
    pub fn geoms_moved(&self) {
        // The thread-local is read only while some thread defers: in a
        // shared library each read is a call to __tls_get_addr, and this
        // runs for every body with geoms at every step and position set.
        // (LLVM hoists an inlined thread-local read above the count test,
        // hence the out-of-line read.)
        let deferred = || DEFERRING.load(Ordering::Relaxed) != 0 && this_thread_defers();
        if !self.geoms.is_empty() && !deferred() {
            if let Some(hooks) = GEOM_HOOKS.get() {
                let geoms = if self.geoms.len() == 1 { std::slice::from_ref(&self.first_geom) } else { &self.geoms[..] };
                (hooks.moved)(geoms);
            }
        }
    }

    /// Orientation ODE derives from a user matrix: the matrix is
    /// orthogonalised (ODE's row Gram-Schmidt, which leaves a corrected row 1
    /// as given and rebuilds row 2), while the quaternion is computed from the matrix
    /// as given and normalised. Fails where ODE asserts.
    pub fn prepare_rotation(r_in: &[f64; 12]) -> Result<([f64; 12], [f64; 4]), Invalid> {
        if let Some(i) = r_in.iter().enumerate().position(|(i, v)| i % 4 != 3 && !v.is_finite()) {
            return invalid(format!("element {i} is {} (must be finite)", r_in[i]));
        }
        let mut r = *r_in;
        if !orthogonalize_r(&mut r) || !rows_stay_orthogonal(r_in) {
            return invalid("is not a rotation matrix (rows 0 and 1 must be non-zero and not parallel)");
        }
        let mut q = r_to_q(r_in);
        if !safe_normalize4(&mut q) {
            return invalid("does not define an orientation (its quaternion cannot be normalised)");
        }
        if r.iter().chain(q.iter()).any(|v| !v.is_finite()) {
            return invalid("is too large to be orthogonalised");
        }
        Ok((r, q))
    }

    /// Applies a result of `prepare_rotation`.
    pub fn set_rotation_prepared(&mut self, rq: ([f64; 12], [f64; 4])) {
        self.r = rq.0;
        self.q = rq.1;
        self.geoms_moved();
    }

    /// Normalised quaternion and its matrix, or why `q` cannot be used.
    /// ODE asserts only when the squared length is not positive (zero, or
    /// underflowing). A squared length that overflows makes ODE scale by
    /// 1/inf: it stores the zero quaternion with the identity matrix, and
    /// so do we.
    pub fn prepare_quaternion(q_in: &[f64; 4]) -> Result<([f64; 12], [f64; 4]), Invalid> {
        if let Some(i) = q_in.iter().position(|v| !v.is_finite()) {
            return invalid(format!("element {i} is {} (must be finite)", q_in[i]));
        }
        let mut q = *q_in;
        if !safe_normalize4(&mut q) {
            return invalid("cannot be normalised (zero, or its squared length underflows)");
        }
        Ok((q_to_r(&q), q))
    }

    #[inline]
    pub fn set_linear_vel(&mut self, v: [f64; 3]) {
        self.lvel[..3].copy_from_slice(&v);
    }

    #[inline]
    pub fn set_angular_vel(&mut self, v: [f64; 3]) {
        self.avel[..3].copy_from_slice(&v);
    }

    // ---- mass ----------------------------------------------------------

    /// ODE's requirements on a mass given to a body (`dMassCheck` plus the
    /// centre of mass at the origin), with every value finite.
    pub fn check_mass(m: &Mass) -> Result<(), Invalid> {
        if !m.mass.is_finite() {
            return invalid(format!("has mass {} (must be finite)", m.mass));
        }
        for i in 0..3 {
            if !m.c[i].is_finite() {
                return invalid(format!("has c[{i}] = {} (must be finite)", m.c[i]));
            }
            for j in 0..3 {
                let v = m.I[i * 4 + j];
                if !v.is_finite() {
                    return invalid(format!("has I[{}] = {v} (must be finite)", i * 4 + j));
                }
            }
        }
        if let Err(p) = m.validate() {
            return invalid(format!("fails ODE's mass check: {} (mass {})", p.message(), m.mass));
        }
        if m.c[0].abs() > EPSILON || m.c[1].abs() > EPSILON || m.c[2].abs() > EPSILON {
            return invalid(format!(
                "has its centre of mass at ({}, {}, {}); it must be at the body's origin (use dMassTranslate)",
                m.c[0], m.c[1], m.c[2]
            ));
        }
        Ok(())
    }

    /// Stores a mass that passed `check_mass` and derives the inverses
    /// (this also makes a kinematic body dynamic again).
    pub fn set_mass(&mut self, m: &Mass) {
        self.mass = *m;
        let mut inv = [0.0; 12];
        self.inv_i = if invert_pd(&self.mass.I, &mut inv, 3) { inv } else { IDENTITY };
        self.inv_mass = 1.0 / self.mass.mass;
    }

    /// Kinematic: infinite mass and inertia; the stored mass is kept.
    pub fn set_kinematic(&mut self) {
        self.inv_i = [0.0; 12];
        self.inv_mass = 0.0;
    }

    /// Back to dynamic with the stored mass.
    pub fn set_dynamic(&mut self) {
        let m = self.mass;
        self.set_mass(&m);
    }

    /// Kinematic bodies have zero inverse mass (they push, are not pushed).
    pub fn is_kinematic(&self) -> bool {
        self.inv_mass == 0.0
    }

    // ---- forces --------------------------------------------------------

    #[inline]
    fn r3(&self) -> &[f64; 12] {
        &self.r
    }

    #[inline]
    pub fn add_force(&mut self, f: [f64; 3]) {
        add3(&mut self.facc, &f);
    }

    #[inline]
    pub fn add_torque(&mut self, t: [f64; 3]) {
        add3(&mut self.tacc, &t);
    }

    #[inline]
    pub fn add_rel_force(&mut self, f: [f64; 3]) {
        let fw = mul0_331(self.r3(), &f);
        add3(&mut self.facc, &fw);
    }

    #[inline]
    pub fn add_rel_torque(&mut self, t: [f64; 3]) {
        let tw = mul0_331(self.r3(), &t);
        add3(&mut self.tacc, &tw);
    }

    /// World force at a world point.
    #[inline]
    pub fn add_force_at_pos(&mut self, f: [f64; 3], p: [f64; 3]) {
        add3(&mut self.facc, &f);
        let q = [p[0] - self.pos[0], p[1] - self.pos[1], p[2] - self.pos[2]];
        add_cross(&mut self.tacc, &q, &f);
    }

    /// World force at a body-relative point.
    #[inline]
    pub fn add_force_at_rel_pos(&mut self, f: [f64; 3], p: [f64; 3]) {
        let pw = mul0_331(self.r3(), &p);
        add3(&mut self.facc, &f);
        add_cross(&mut self.tacc, &pw, &f);
    }

    /// Body-relative force at a world point.
    #[inline]
    pub fn add_rel_force_at_pos(&mut self, f: [f64; 3], p: [f64; 3]) {
        let fw = mul0_331(self.r3(), &f);
        add3(&mut self.facc, &fw);
        let q = [p[0] - self.pos[0], p[1] - self.pos[1], p[2] - self.pos[2]];
        add_cross(&mut self.tacc, &q, &fw);
    }

    /// Body-relative force at a body-relative point.
    #[inline]
    pub fn add_rel_force_at_rel_pos(&mut self, f: [f64; 3], p: [f64; 3]) {
        let fw = mul0_331(self.r3(), &f);
        let pw = mul0_331(self.r3(), &p);
        add3(&mut self.facc, &fw);
        add_cross(&mut self.tacc, &pw, &fw);
    }

    #[inline]
    pub fn set_force(&mut self, f: [f64; 3]) {
        self.facc[..3].copy_from_slice(&f);
    }

    #[inline]
    pub fn set_torque(&mut self, t: [f64; 3]) {
        self.tacc[..3].copy_from_slice(&t);
    }

    // ---- frames --------------------------------------------------------

    /// Body point to world coordinates.
    #[inline]
    pub fn rel_point_pos(&self, p: [f64; 3]) -> [f64; 3] {
        let w = mul0_331(self.r3(), &p);
        [w[0] + self.pos[0], w[1] + self.pos[1], w[2] + self.pos[2]]
    }

    /// World velocity of a body point.
    #[inline]
    pub fn rel_point_vel(&self, p: [f64; 3]) -> [f64; 3] {
        let w = mul0_331(self.r3(), &p);
        let mut v = [self.lvel[0], self.lvel[1], self.lvel[2], 0.0];
        add_cross(&mut v, &[self.avel[0], self.avel[1], self.avel[2]], &w);
        [v[0], v[1], v[2]]
    }

    /// World velocity of a world point moving with the body.
    #[inline]
    pub fn point_vel(&self, p: [f64; 3]) -> [f64; 3] {
        let d = [p[0] - self.pos[0], p[1] - self.pos[1], p[2] - self.pos[2]];
        let mut v = [self.lvel[0], self.lvel[1], self.lvel[2], 0.0];
        add_cross(&mut v, &[self.avel[0], self.avel[1], self.avel[2]], &d);
        [v[0], v[1], v[2]]
    }

    /// World point to body coordinates.
    #[inline]
    pub fn pos_rel_point(&self, p: [f64; 3]) -> [f64; 3] {
        let d = [p[0] - self.pos[0], p[1] - self.pos[1], p[2] - self.pos[2]];
        mul1_331(self.r3(), &d)
    }

    #[inline]
    pub fn vector_to_world(&self, v: [f64; 3]) -> [f64; 3] {
        mul0_331(self.r3(), &v)
    }

    #[inline]
    pub fn vector_from_world(&self, v: [f64; 3]) -> [f64; 3] {
        mul1_331(self.r3(), &v)
    }

    // ---- rotation mode -------------------------------------------------

    pub fn set_finite_rotation_mode(&mut self, on: bool) {
        self.flags &= !(flags::FINITE_ROTATION | flags::FINITE_ROTATION_AXIS);
        if on {
            self.flags |= flags::FINITE_ROTATION;
            let a = &self.finite_rot_axis;
            if a[0] != 0.0 || a[1] != 0.0 || a[2] != 0.0 {
                self.flags |= flags::FINITE_ROTATION_AXIS;
            }
        }
    }

    pub fn finite_rotation_mode(&self) -> bool {
        self.flags & flags::FINITE_ROTATION != 0
    }

    /// Sets the axis (normalised); a zero vector means "no axis". Note that
    /// ODE sets the axis flag here even when finite rotation is off.
    pub fn set_finite_rotation_axis(&mut self, a: [f64; 3]) {
        self.finite_rot_axis[..3].copy_from_slice(&a);
        if a[0] != 0.0 || a[1] != 0.0 || a[2] != 0.0 {
            let mut v = [a[0], a[1], a[2]];
            if !safe_normalize3(&mut v) {
                v = [1.0, 0.0, 0.0];
            }
            self.finite_rot_axis[..3].copy_from_slice(&v);
            self.flags |= flags::FINITE_ROTATION_AXIS;
        } else {
            self.flags &= !flags::FINITE_ROTATION_AXIS;
        }
    }

    // ---- enable / auto-disable ------------------------------------------

    pub fn is_enabled(&self) -> bool {
        self.flags & flags::DISABLED == 0
    }

    /// Enables and restarts the idle countdown (the averaging window is
    /// left as it is, as in ODE).
    pub fn enable(&mut self) {
        self.flags &= !flags::DISABLED;
        self.adis_stepsleft = self.adis.idle_steps;
        self.adis_timeleft = self.adis.idle_time;
    }

    pub fn disable(&mut self) {
        self.flags |= flags::DISABLED;
    }

    pub fn gravity_mode(&self) -> bool {
        self.flags & flags::NO_GRAVITY == 0
    }

    pub fn set_gravity_mode(&mut self, on: bool) {
        if on {
            self.flags &= !flags::NO_GRAVITY;
        } else {
            self.flags |= flags::NO_GRAVITY;
        }
    }

    /// The flag bit itself (ODE returns it unnormalised: 0 or 256).
    pub fn gyroscopic_bits(&self) -> u32 {
        self.flags & flags::GYROSCOPIC
    }

    pub fn set_gyroscopic_mode(&mut self, on: bool) {
        if on {
            self.flags |= flags::GYROSCOPIC;
        } else {
            self.flags &= !flags::GYROSCOPIC;
        }
    }

    pub fn auto_disable_flag(&self) -> bool {
        self.flags & flags::AUTO_DISABLE != 0
    }

    /// Turning auto-disable off also re-enables the body and takes the
    /// world's idle steps, idle time and averaging window (restarting the
    /// averages), as ODE does; turning it on only sets the flag.
    pub fn set_auto_disable_flag(&mut self, on: bool, world: &World) {
        if on {
            self.flags |= flags::AUTO_DISABLE;
        } else {
            self.flags &= !(flags::AUTO_DISABLE | flags::DISABLED);
            self.adis.idle_steps = world.adis.idle_steps;
            self.adis.idle_time = world.adis.idle_time;
            self.set_average_samples(world.adis.average_samples);
        }
    }

    /// Copies the world's auto-disable parameters and flag.
    pub fn set_auto_disable_defaults(&mut self, world: &World) {
        self.adis = world.adis;
        self.set_auto_disable_flag(world.body_flags & flags::AUTO_DISABLE != 0, world);
    }

    /// Whether a window of `n` samples can be allocated.
    pub fn check_average_samples(n: u32) -> Result<(), Invalid> {
        if n > MAX_AVERAGE_SAMPLES {
            return invalid(format!("= {n} is out of range (0 ..= {MAX_AVERAGE_SAMPLES}; a negative count?)"));
        }
        let mut probe: Vec<[f64; 3]> = Vec::new();
        if probe.try_reserve_exact(2 * n as usize).is_err() {
            return invalid(format!("= {n}: cannot allocate the averaging buffers"));
        }
        Ok(())
    }

    /// Sets the averaging window and restarts averaging (empty buffers).
    pub fn set_average_samples(&mut self, n: u32) {
        self.adis.average_samples = n;
        self.resize_average_buffers();
    }

    /// (Re)allocates the velocity averaging buffers to `adis.average_samples`
    /// and restarts averaging.
    pub fn resize_average_buffers(&mut self) {
        let n = self.adis.average_samples as usize;
        self.average_lvel = vec![[0.0; 3]; n];
        self.average_avel = vec![[0.0; 3]; n];
        self.average_counter = 0;
        self.average_ready = false;
    }

    // ---- damping -------------------------------------------------------

    pub fn set_linear_damping(&mut self, scale: f64) {
        if scale != 0.0 {
            self.flags |= flags::LINEAR_DAMPING;
        } else {
            self.flags &= !flags::LINEAR_DAMPING;
        }
        self.dampingp.linear_scale = scale;
    }

    pub fn set_angular_damping(&mut self, scale: f64) {
        if scale != 0.0 {
            self.flags |= flags::ANGULAR_DAMPING;
        } else {
            self.flags &= !flags::ANGULAR_DAMPING;
        }
        self.dampingp.angular_scale = scale;
    }

    /// Copies the world's damping parameters and flags.
    pub fn set_damping_defaults(&mut self, world: &World) {
        self.dampingp = world.dampingp;
        let mask = flags::LINEAR_DAMPING | flags::ANGULAR_DAMPING;
        self.flags = (self.flags & !mask) | (world.body_flags & mask);
    }

    pub fn set_max_angular_speed(&mut self, max: f64) {
        if max < f64::INFINITY {
            self.flags |= flags::MAX_ANGULAR_SPEED;
        } else {
            self.flags &= !flags::MAX_ANGULAR_SPEED;
        }
        self.max_angular_speed = max;
    }

    // ---- joints and geoms ------------------------------------------------

    /// Puts a geom at the head of the body's list (ODE's order).
    pub fn add_geom_front(&mut self, geom: *mut c_void) {
        self.geoms.insert(0, geom);
        self.first_geom = geom;
    }

    /// Removes a geom from the body's list, if there.
    pub fn remove_geom(&mut self, geom: *mut c_void) {
        if let Some(i) = self.geoms.iter().position(|&x| x == geom) {
            self.geoms.remove(i);
        }
        self.first_geom = self.geoms.first().copied().unwrap_or(std::ptr::null_mut());
    }

    pub fn num_joints(&self) -> usize {
        self.joints.len()
    }

    /// The `index`-th joint in ODE's order (most recently attached first).
    pub fn joint(&self, index: usize) -> Option<*mut c_void> {
        let n = self.joints.len();
        (index < n).then(|| self.joints[n - 1 - index].as_raw())
    }

    /// The geoms attached to this body, in ODE's list order.
    pub fn geoms(&self) -> &[*mut c_void] {
        &self.geoms
    }

    pub fn first_geom(&self) -> *mut c_void {
        self.first_geom
    }
}

/// How a body tells its attached geoms that it moved or is going away. The
/// geoms belong to the collision layer, which sits beside this one: it
/// registers these when it first attaches a geom to a body, so bodies need
/// not know what a geom is.
pub struct GeomHooks {
    /// The body moved: the geoms' spaces must refresh them (dGeomMoved).
    pub moved: fn(&[*mut c_void]),
    /// The body is being destroyed: the geoms stay where the body was
    /// (position, rotation), detached.
    pub destroyed: fn(&[*mut c_void], &[f64; 4], &[f64; 12]),
}

static GEOM_HOOKS: std::sync::OnceLock<GeomHooks> = std::sync::OnceLock::new();

thread_local! {
    /// Set on the threads stepping islands in parallel: a space's geom
    /// lists are shared by all islands, so the step tells the geoms of the
    /// moved bodies afterwards, on one thread, in the serial order.
    static DEFER_GEOMS_MOVED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// How many threads are inside `with_geoms_moved_deferred`. A thread
/// raises it before setting its flag and lowers it after restoring it, so
/// a thread that defers always sees a nonzero count, and while the count is
/// zero no thread's flag is set.
static DEFERRING: AtomicUsize = AtomicUsize::new(0);

#[cold]
#[inline(never)]
fn this_thread_defers() -> bool {
    DEFER_GEOMS_MOVED.with(|d| d.get())
}

/// Runs `f` with `geoms_moved` suppressed on this thread (see above).
pub fn with_geoms_moved_deferred<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            DEFER_GEOMS_MOVED.with(|d| d.set(self.0));
            DEFERRING.fetch_sub(1, Ordering::Relaxed);
        }
    }
    DEFERRING.fetch_add(1, Ordering::Relaxed);
    let _restore = Restore(DEFER_GEOMS_MOVED.with(|d| d.replace(true)));
    f()
}

/// Registers the collision layer's geom notifications (first call wins;
/// there is only one collision layer).
pub fn register_geom_hooks(hooks: GeomHooks) {
    let _ = GEOM_HOOKS.set(hooks);
}

/// A destroyed body leaves its geoms in place, detached (as dBodyDestroy
/// does through dGeomSetBody(geom, 0)).
impl Drop for Body {
    fn drop(&mut self) {
        if !self.geoms.is_empty() {
            if let Some(hooks) = GEOM_HOOKS.get() {
                (hooks.destroyed)(&self.geoms, &self.pos, &self.r);
            }
        }
    }
}

// ---- value checks shared by the C layer and the safe API -------------------

/// A damping scale must lie in [0, 1] (ODE's documented range).
pub fn check_damping_scale(s: f64) -> Result<(), Invalid> {
    if !s.is_finite() {
        return invalid(format!("is {s} (must be finite)"));
    }
    if !(0.0..=1.0).contains(&s) {
        return invalid(format!("= {s} is out of range (0 ..= 1)"));
    }
    Ok(())
}

/// Speed thresholds (damping, auto-disable) are stored squared; they must
/// be non-negative and not NaN (infinity means "always below").
pub fn check_threshold(t: f64) -> Result<(), Invalid> {
    if t.is_nan() || t < 0.0 {
        return invalid(format!("= {t} is out of range (must be >= 0)"));
    }
    Ok(())
}

/// A maximum angular speed: non-negative, infinity meaning "no limit".
pub fn check_max_angular_speed(m: f64) -> Result<(), Invalid> {
    if m.is_nan() || m < 0.0 {
        return invalid(format!("= {m} is out of range (must be >= 0; dInfinity for no limit)"));
    }
    Ok(())
}

/// Idle time for auto-disable: non-negative, not NaN.
pub fn check_idle_time(t: f64) -> Result<(), Invalid> {
    if t.is_nan() || t < 0.0 {
        return invalid(format!("= {t} is out of range (must be >= 0)"));
    }
    Ok(())
}

/// Idle steps for auto-disable: a count, hence non-negative.
pub fn check_idle_steps(n: i32) -> Result<(), Invalid> {
    if n < 0 {
        return invalid(format!("= {n} is out of range (must be >= 0)"));
    }
    Ok(())
}

// ---- ODE's small-matrix arithmetic, in ODE's operation order --------------
// (private copies; the shared math modules may replace them)

#[inline]
fn add3(acc: &mut [f64; 4], v: &[f64; 3]) {
    acc[0] += v[0];
    acc[1] += v[1];
    acc[2] += v[2];
}

/// acc += a x b (cross product formed first, as ODE does).
#[inline]
fn add_cross(acc: &mut [f64; 4], a: &[f64], b: &[f64]) {
    let t = cross3(a, b);
    add3(acc, &t);
}

/// ODE asserts, after its Gram-Schmidt step, that rows 0 and 1 of a
/// matrix given to a body ended up orthogonal (|dot| < 1e-6); rows within
/// about 1e-10 rad of parallel fail it. `orthogonalize_r` does not keep the
/// corrected row 1, so the test is redone here on the input rows.
fn rows_stay_orthogonal(m: &[f64; 12]) -> bool {
    let mut r0 = [m[0], m[1], m[2]];
    let n0 = dot3(&r0, &r0);
    let proj = dot3(&m[0..3], &m[4..7]);
    let mut r1 = [m[4], m[5], m[6]];
    if proj != 0.0 {
        let k = proj / n0;
        r1 = [m[4] - k * m[0], m[5] - k * m[1], m[6] - k * m[2]];
    }
    if n0 != 1.0 {
        safe_normalize3(&mut r0);
    }
    if dot3(&r1, &r1) != 1.0 {
        safe_normalize3(&mut r1);
    }
    dot3(&r0, &r1).abs() < 1e-6
}

// ---- a world's bodies -------------------------------------------------------------

/// `w`'s bodies newest first, as ODE's list is traversed.
pub fn world_bodies(w: &World) -> impl DoubleEndedIterator<Item = BodyRef> + '_ {
    w.bodies.iter().rev().map(|b| b.typed())
}

/// Creates a body in `w` with ODE's initial state and the world's defaults.
pub fn create_body(w: WorldRef) -> BodyRef {
    let world = w.get_mut();
    let b = BODIES.alloc(Body::new(w, world));
    world.bodies.push(b.erase());
    b
}

/// Removes a body from its world and frees it. Its joints must have been
/// detached (`joints::object::destroy_body` does both).
pub fn free_body(b: BodyRef) {
    debug_assert!(b.get().joints.is_empty(), "free_body on a body with joints");
    let w = b.get().world;
    let list = &mut w.get_mut().bodies;
    if let Some(i) = list.iter().position(|&x| x == b.erase()) {
        list.remove(i);
    }
    BODIES.free(b);
}

/// Frees a world that has no joints, with its bodies (newest first). A
/// world with joints is destroyed by `joints::object::destroy_world`, which
/// detaches them first.
pub fn free_world(w: WorldRef) {
    debug_assert!(w.get().joints.is_empty(), "free_world on a world with joints");
    let bodies = std::mem::take(&mut w.get_mut().bodies);
    for b in bodies.iter().rev() {
        BODIES.free(b.typed::<Body>());
    }
    WORLDS.free(w);
}

#[cfg(test)]
mod tests {
    /// See `Body`'s notes: the fields the per-contact calls read share the
    /// line of the cell's tag, and no 4-vector or 3x4 row straddles lines.
    #[test]
    fn layout_keeps_hot_fields_together() {
        use std::mem::{offset_of, size_of};
        let base = crate::handle::Pool::<Body>::value_offset();
        let end = |off: usize, size: usize| base + off + size;
        assert!(end(offset_of!(Body, world), 8) <= 64);
        assert!(end(offset_of!(Body, joints), size_of::<Vec<ErasedHandle>>()) <= 64);
        assert!(end(offset_of!(Body, first_geom), 8) <= 64);
        assert!(end(offset_of!(Body, flags), 4) <= 64);
        assert!(end(offset_of!(Body, tag), 4) <= 64);
        let vectors = [
            offset_of!(Body, pos),
            offset_of!(Body, q),
            offset_of!(Body, lvel),
            offset_of!(Body, avel),
            offset_of!(Body, facc),
            offset_of!(Body, tacc),
            offset_of!(Body, finite_rot_axis),
        ];
        let rows = (0..3).flat_map(|i| [offset_of!(Body, r) + 32 * i, offset_of!(Body, inv_i) + 32 * i]);
        for off in vectors.into_iter().chain(rows) {
            assert_eq!((base + off) % 32, 0, "a 32-byte load at {off} would straddle lines");
        }
    }

    use super::*;

    #[test]
    fn set_mass_stores_the_inverse() {
        let mut m = Mass::zero();
        m.mass = 4.0;
        m.I = [2.0, 0.3, -0.1, 0.0, 0.3, 1.5, 0.2, 0.0, -0.1, 0.2, 1.0, 0.0];
        assert!(Body::check_mass(&m).is_ok());
        let w = crate::dynamics::world::create_world();
        let b = create_body(w);
        b.get_mut().set_mass(&m);
        let (i, inv) = (&m.I, &b.get().inv_i);
        for r in 0..3 {
            for c in 0..3 {
                let p: f64 = (0..3).map(|k| i[r * 4 + k] * inv[k * 4 + c]).sum();
                assert!((p - if r == c { 1.0 } else { 0.0 }).abs() < 1e-14, "{inv:?}");
            }
        }
        assert_eq!(b.get().inv_mass, 0.25);
        free_world(w);
    }

    #[test]
    fn first_geom_follows_the_geom_list() {
        let w = crate::dynamics::world::create_world();
        let b = create_body(w);
        let body = b.get_mut();
        let [g1, g2, g3] = [0x10usize, 0x20, 0x30].map(|a| a as *mut c_void);
        let check = |body: &Body| {
            assert_eq!(body.first_geom(), body.geoms.first().copied().unwrap_or(std::ptr::null_mut()));
        };
        check(body);
        for g in [g1, g2, g3] {
            body.add_geom_front(g);
            check(body);
        }
        assert_eq!(body.geoms, [g3, g2, g1], "newest first, as ODE's list");
        body.remove_geom(g2); // middle
        check(body);
        body.remove_geom(g3); // head
        check(body);
        assert_eq!(body.first_geom(), g1);
        body.remove_geom(g3); // not there: nothing changes
        check(body);
        body.remove_geom(g1);
        check(body);
        assert!(body.first_geom().is_null());
        free_world(w);
    }

    #[test]
    fn nearly_parallel_rows_are_refused_like_ode() {
        let near = |e: f64| [1.0, 0.3, 0.0, 0.0, 1.0, 0.3 + e, 0.2 * e, 0.0, 0.0, 0.0, 1.0, 0.0];
        assert!(Body::prepare_rotation(&near(1e-10)).is_ok());
        assert!(Body::prepare_rotation(&near(1e-11)).is_err());
    }
}
