//! A rigid body: state (position, orientation, velocities), mass, force
//! accumulators and per-body settings (auto-disable, damping, rotation
//! mode). Vectors are stored padded to 4 reals like ODE's `dVector3`, so
//! pointers handed to C (`dBodyGetPosition`, …) have ODE's layout.

use super::world::{flags, AutoDisable, Damping, World, WorldRef};
use crate::handle::{Handle, Pool};
use crate::math::mass::Mass;

pub type BodyRef = Handle<Body>;

/// All bodies. Tag spells "BODY".
pub static BODIES: Pool<Body> = Pool::new(0x424F_4459);

/// Host callback invoked when a step moved the body.
pub type MovedCallback = unsafe extern "C" fn(body: *mut core::ffi::c_void);

pub struct Body {
    pub world: WorldRef,
    /// `flags::*` bits.
    pub flags: u32,
    /// Mass parameters about the point of reference (centre of mass at
    /// `mass.c`, which ODE requires to be zero for dynamic stepping).
    pub mass: Mass,
    /// Inverse of `mass.I` (3x4 padded).
    pub inv_i: [f64; 12],
    /// 1/mass; 0 for kinematic bodies.
    pub inv_mass: f64,
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
    pub adis: AutoDisable,
    pub adis_timeleft: f64,
    pub adis_stepsleft: i32,
    /// Ring buffers of recent velocities for auto-disable averaging.
    pub average_lvel: Vec<[f64; 3]>,
    pub average_avel: Vec<[f64; 3]>,
    pub average_counter: u32,
    pub average_ready: bool,
    pub moved_callback: Option<MovedCallback>,
    pub dampingp: Damping,
    pub max_angular_speed: f64,
    pub data: *mut core::ffi::c_void,
}

unsafe impl Send for Body {}

impl Body {
    /// A body as ODE creates it: unit mass with unit inertia, identity
    /// orientation, at rest, enabled, with the world's auto-disable and
    /// damping defaults and flags.
    pub fn new(wref: WorldRef, world: &World) -> Body {
        let mut mass = Mass::zero();
        mass.mass = 1.0;
        mass.I[0] = 1.0;
        mass.I[5] = 1.0;
        mass.I[10] = 1.0;
        let mut ident = [0.0; 12];
        ident[0] = 1.0;
        ident[5] = 1.0;
        ident[10] = 1.0;
        let mut b = Body {
            world: wref,
            flags: world.body_flags,
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
            adis_timeleft: world.adis.idle_time,
            adis_stepsleft: world.adis.idle_steps,
            average_lvel: Vec::new(),
            average_avel: Vec::new(),
            average_counter: 0,
            average_ready: false,
            moved_callback: None,
            dampingp: world.dampingp,
            max_angular_speed: world.max_angular_speed,
            data: std::ptr::null_mut(),
        };
        b.resize_average_buffers();
        b
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

    pub fn is_enabled(&self) -> bool {
        self.flags & flags::DISABLED == 0
    }

    /// Kinematic bodies have zero inverse mass (they push, are not pushed).
    pub fn is_kinematic(&self) -> bool {
        self.inv_mass == 0.0
    }
}
