//! Safe Rust API over the same core the C ABI uses.
//!
//! What is where: [`World`] (settings, both steppers, [`SolverMode`],
//! island threads) and [`Body`] (with [`BodyBuilder`] and [`Mass`]
//! constructors) for dynamics; [`Space`], [`Geom`], [`collide`],
//! [`Space::cast_ray`] and the shape data [`HeightfieldData`],
//! [`TriMeshData`], [`ConvexData`] for collision, and [`UserGeom`] for geom
//! classes written in Rust; [`JointGroup`], [`Contact`] and [`Surface`] for
//! contacts; typed handles for every joint type ([`HingeJoint`],
//! [`Hinge2Joint`], [`TransmissionJoint`], ...), and [`CustomJoint`] for
//! joints written in Rust; [`convert`] for ODE's padded layouts. The
//! examples directory has complete scenes (`cargo run -p ode --example
//! box_stack`, `hinge_pendulum`, `vehicle`, `mesh_on_terrain`,
//! `custom_joint`, `falling_body`).
//!
//! A [`World`] owns its simulation state and destroys it (with its bodies)
//! when dropped. A [`Body`] is a small copyable id; every method takes the
//! world it belongs to, `&World` to read and `&mut World` to change, so the
//! borrow checker rules out aliasing without any `unsafe` in user code.
//! Vectors, matrices and quaternions are glam's `DVec3`, `DMat3` and
//! `DQuat` (see [`convert`] for ODE's padded layouts). Values ODE would
//! reject (non-finite numbers, invalid masses or rotations, out-of-range
//! settings) and ids of destroyed objects or of another world or space
//! give an [`Error`] naming the argument, and change nothing. A Rust
//! callback that panics (near callback, [`UserGeom`], [`CustomJoint`]) does
//! not unwind through the library: the call that ran it returns
//! [`Error::CallbackPanicked`].
//!
//! ```
//! use ode::api::{DVec3, Mass, World};
//!
//! let mut world = World::new();
//! world.set_gravity([0.0, 0.0, -9.81]).unwrap();
//! let ball = world.create_body();
//! ball.set_position(&mut world, [0.0, 0.0, 10.0]).unwrap();
//! ball.set_mass(&mut world, &Mass::sphere_total(2.0, 1.0).unwrap()).unwrap();
//! ball.add_force(&mut world, DVec3::X).unwrap();
//! assert_eq!(ball.force(&world).unwrap(), DVec3::new(1.0, 0.0, 0.0));
//!
//! // One step of 0.01 s: v = (F/m + g) h, then x += v h.
//! world.step(0.01).unwrap();
//! let v = ball.linear_vel(&world).unwrap();
//! assert!((v.x - 0.005).abs() < 1e-15 && (v.z + 0.0981).abs() < 1e-15);
//! assert_eq!(ball.force(&world).unwrap(), DVec3::ZERO); // accumulators are cleared
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

#![warn(missing_docs)]

mod body;
mod callback_panic;
mod collision;
pub mod convert;
mod custom;
mod data;
mod joints;
mod mass;
mod user_geom;
mod world;

pub use body::{Body, BodyBuilder};
pub use collision::{
    collide, collide_into, ContactGeom, Geom, GeomClass, RayHit, SapAxes, Space, SpaceId, SpaceKind, MAX_CONTACTS,
};
pub use custom::{BodyState, CustomInfo1, CustomInfo2, CustomJoint, JointRow, Limit, LimitSide, MAX_CUSTOM_ROWS};
pub use data::{ConvexData, HeightfieldBuilder, HeightfieldData, SphereMerge, TriMeshData};
pub use joints::{
    AMotorJoint, AxisFrame, BallJoint, Contact, DBallJoint, DHingeJoint, Feedback, FixedJoint, Hinge2Joint, HingeJoint,
    Joint, JointGroup, LMotorJoint, NullJoint, Param, PistonJoint, Plane2DJoint, PrJoint, PuJoint, SliderJoint,
    Surface, TransmissionJoint, TransmissionMode, UniversalJoint,
};
pub use mass::Axis;
pub use user_geom::{GeomView, UserContact, UserGeom};
pub use world::World;

/// Which solver algorithms a world's steps use (see [`World::set_solver_mode`]).
pub use crate::dynamics::world::SolverMode;

use crate::dynamics::body::Invalid;
pub use glam::{DMat3, DQuat, DVec3};

pub use crate::math::mass::Mass;
/// Rotation helpers (rotation.h): matrices are 3x4 row-major padded
/// (`[f64; 12]`), quaternions are (w, x, y, z).
pub use crate::math::rotation::{
    q_from_axis_and_angle, q_mult0, q_to_r, r_from_2_axes, r_from_axis_and_angle, r_from_euler_angles, r_from_z_axis,
    r_to_q, Mat3, Quat, IDENTITY, Q_IDENTITY,
};

/// Why a call was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The body was destroyed (or its world was).
    StaleBody,
    /// The body belongs to another world.
    WrongWorld,
    /// An argument is out of its domain; `arg` names it.
    InvalidArgument {
        /// The argument's name.
        arg: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// The object (named: "geom", "joint", "joint group") was destroyed.
    Stale(&'static str),
    /// The geom belongs to another [`Space`] tree.
    WrongSpace,
    /// A user callback panicked; the message is the panic's. After a near
    /// callback's panic the remaining pairs were skipped; a [`UserGeom`]
    /// that panicked got an unbounded box or no contacts, and a
    /// [`CustomJoint`] no rows, for that call.
    CallbackPanicked(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::StaleBody => f.write_str("the body was destroyed"),
            Error::WrongWorld => f.write_str("the body belongs to another world"),
            Error::InvalidArgument { arg, reason } => write!(f, "argument '{arg}' {reason}"),
            Error::Stale(what) => write!(f, "the {what} was destroyed"),
            Error::WrongSpace => f.write_str("the geom belongs to another space"),
            Error::CallbackPanicked(msg) => write!(f, "a callback panicked: {msg}"),
        }
    }
}

impl std::error::Error for Error {}

/// The result of a safe API call.
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

/// Checks a vector argument and hands it to the core as an array.
fn finite3(name: &'static str, v: impl Into<DVec3>) -> Result<[f64; 3]> {
    let v = v.into().to_array();
    for x in v {
        finite(name, x)?;
    }
    Ok(v)
}

/// The first three entries of ODE's padded 4-vector.
fn xyz(v: &[f64; 4]) -> DVec3 {
    DVec3::new(v[0], v[1], v[2])
}

/// The state of ODE's process-wide random generator (`dRandGetSeed`).
/// QuickStep draws from it to shuffle constraints, so two runs give the
/// same trajectory only from the same seed.
pub fn random_seed() -> u32 {
    crate::math::random::seed()
}

/// Sets ODE's process-wide random generator (`dRandSetSeed`).
pub fn set_random_seed(seed: u32) {
    crate::math::random::set_seed(seed as u64)
}

/// QuickStep row order for the whole process: `false` (default) is ODE's,
/// reshuffled from ODE's random generator; `true` keeps a fixed order and
/// never draws from the generator, so results do not depend on other users
/// of it (no longer bit-identical to ODE's QuickStep).
pub fn set_quickstep_deterministic_order(on: bool) {
    crate::solver::quick::set_deterministic_order(on)
}

/// Is the deterministic QuickStep row order selected?
pub fn quickstep_deterministic_order() -> bool {
    crate::solver::quick::deterministic_order()
}

/// QuickStep warm starting for the whole process (off by default, as in
/// ODE 0.16.2): each row starts from 0.9 × its previous step's force.
pub fn set_quickstep_warm_start(on: bool) {
    crate::solver::quick::set_warm_start(on)
}

/// Is QuickStep warm starting on?
pub fn quickstep_warm_start() -> bool {
    crate::solver::quick::warm_start()
}
