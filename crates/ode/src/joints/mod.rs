//! Joints: the constraint row interface every joint type implements, the
//! joint object (pooled handle, attachment, flags, feedback) and joint groups.
//!
//! A joint reports `Info1` (m rows, the first `nub` of them unbounded) and
//! fills its rows in `info2`, ODE's "info1/info2" protocol. A row is
//! `J1l·v1 + J1a·w1 + J2l·v2 + J2a·w2 = c + cfm·λ`, `lo ≤ λ ≤ hi`; a row with
//! `findex = k ≥ 0` is a friction row whose bounds are scaled by |λ_k| of
//! row k of the same joint (index relative to the joint's first row).
//! Dispatch over joint types is a `match` on `JointKind` (no virtual calls).
//!
//! Files: `ball.rs`, `hinge.rs`, `slider.rs`, `fixed.rs`, `contact.rs`,
//! `null.rs` (one per type), `limit_motor.rs` (shared limits and motors),
//! `object.rs` (joint object management and groups).

pub mod amotor;
pub mod ball;
pub mod contact;
pub mod custom;
pub mod dball;
pub mod dhinge;
pub mod fixed;
pub mod hinge;
pub mod hinge2;
pub mod limit_motor;
pub mod lmotor;
pub mod null;
pub mod object;
pub mod piston;
pub mod plane2d;
pub mod pr;
pub mod pu;
pub mod slider;
pub mod transmission;
pub mod universal;

use crate::dynamics::body::{Body, BodyRef};
use crate::dynamics::world::{World, WorldRef};
use crate::handle::{Handle, Pool};
use std::ffi::{c_int, c_void};

pub type JointRef = Handle<Joint>;
pub type JointGroupRef = Handle<JointGroup>;

/// All joints. Tag spells "JONT".
pub static JOINTS: Pool<Joint> = Pool::new(0x4A4F_4E54);
/// All joint groups. Tag spells "JGRP".
pub static JOINT_GROUPS: Pool<JointGroup> = Pool::new(0x4A47_5250);

/// Joint flag bits (ODE's internal values).
pub mod flags {
    /// Created in a joint group (destroyed by emptying the group).
    pub const IN_GROUP: u32 = 1;
    /// Attached as (0, body): bodies were swapped so `body[0]` is set;
    /// joint types flip signs where ODE does.
    pub const REVERSE: u32 = 2;
    /// The joint needs zero or two bodies, never one.
    pub const TWO_BODIES: u32 = 4;
    pub const DISABLED: u32 = 8;
    /// Dropping the joint is a no-op (a contact joint): set at creation,
    /// so that `dJointGroupEmpty` frees it without reading its kind, which
    /// lies on another cache line than the head.
    pub const OWNS_NOTHING: u32 = 16;
}

/// One constraint row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    /// Jacobian, linear part for body 1.
    pub j1l: [f64; 3],
    /// Jacobian, angular part for body 1.
    pub j1a: [f64; 3],
    /// Jacobian, linear part for body 2.
    pub j2l: [f64; 3],
    /// Jacobian, angular part for body 2.
    pub j2a: [f64; 3],
    /// Right-hand side (ODE's `c`, typically fps·erp·error).
    pub c: f64,
    /// Constraint force mixing of the row.
    pub cfm: f64,
    /// Lower bound of the row's force (-inf: none).
    pub lo: f64,
    /// Upper bound of the row's force (+inf: none).
    pub hi: f64,
    /// -1, or the index (relative to the joint's first row) of the normal
    /// row whose |λ| scales this row's bounds.
    pub findex: i32,
}

impl Row {
    /// A row as ODE initialises it before `info2`: zero Jacobian and
    /// right-hand side, the world's CFM, unbounded, no friction index.
    pub fn initial(world_cfm: f64) -> Row {
        Row {
            j1l: [0.0; 3],
            j1a: [0.0; 3],
            j2l: [0.0; 3],
            j2a: [0.0; 3],
            c: 0.0,
            cfm: world_cfm,
            lo: f64::NEG_INFINITY,
            hi: f64::INFINITY,
            findex: -1,
        }
    }
}

/// Row counts of a joint in its current state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Info1 {
    /// Number of rows.
    pub m: usize,
    /// The first `nub` rows are unbounded (lo = -inf, hi = +inf, findex -1).
    pub nub: usize,
}

/// Step-wide values joints need to fill their rows.
pub struct RowCtx<'a> {
    /// 1 / step size.
    pub fps: f64,
    /// World ERP.
    pub erp: f64,
    pub world: &'a World,
}

/// The bodies a joint acts on, after attachment normalisation: `b1` is set
/// whenever any body is (see `flags::REVERSE`); `None` is the static world.
#[derive(Clone, Copy)]
pub struct Bodies<'a> {
    pub b1: Option<&'a Body>,
    pub b2: Option<&'a Body>,
}

/// What every joint type implements.
pub trait JointModel {
    /// ODE's `dJointType` value of this type.
    const TYPE: c_int;
    /// Row counts now; may update internal state (e.g. which limit is hit)
    /// that `info2` then uses, as ODE's getInfo1 does.
    fn info1(&mut self, head: &JointHead, bodies: Bodies<'_>) -> Info1;
    /// Fills `rows` (length `m` of the preceding `info1`, pre-set with
    /// `Row::initial`).
    fn info2(&mut self, head: &JointHead, bodies: Bodies<'_>, ctx: &RowCtx<'_>, rows: &mut [Row]);
    /// An upper bound of `m` for memory reservation.
    fn max_rows(&self) -> usize;
    /// Recomputes body-relative values (anchors, axes, initial relative
    /// rotation) after an attach, as ODE's `setRelativeValues` does.
    fn set_relative_values(&mut self, _head: &JointHead, _bodies: Bodies<'_>) {}
    /// Whether the values kept relative to the bodies (anchors, offsets and
    /// axes in a body's frame) are finite and within `HUGE_INPUT`. With a
    /// body near the end of the double range, or one whose rotation holds a
    /// huge entry (ODE keeps row 1 of a set rotation as given), they
    /// overflow or grow huge, as in ODE, which keeps them.
    fn relative_values_sane(&self) -> bool {
        true
    }
}

/// Boxed joint models (the large types in `JointKind`) are models too.
impl<T: JointModel> JointModel for Box<T> {
    const TYPE: c_int = T::TYPE;
    #[inline]
    fn info1(&mut self, head: &JointHead, bodies: Bodies<'_>) -> Info1 {
        (**self).info1(head, bodies)
    }
    #[inline]
    fn info2(&mut self, head: &JointHead, bodies: Bodies<'_>, ctx: &RowCtx<'_>, rows: &mut [Row]) {
        (**self).info2(head, bodies, ctx, rows)
    }
    #[inline]
    fn max_rows(&self) -> usize {
        (**self).max_rows()
    }
    #[inline]
    fn set_relative_values(&mut self, head: &JointHead, bodies: Bodies<'_>) {
        (**self).set_relative_values(head, bodies)
    }
    fn relative_values_sane(&self) -> bool {
        (**self).relative_values_sane()
    }
}

/// Everything a joint has besides its type-specific part.
///
/// In C order, with what the island search and `dAreConnected*` read of
/// every joint of a body (bodies, flags, tag) at the start: together in
/// the cell's first cache line, which a joint's kind-specific part no
/// longer pushes three or four lines away (see [`Joint`]).
#[repr(C)]
pub struct JointHead {
    /// `body[0]` is set whenever any body is (see `flags::REVERSE`).
    pub body: [Option<BodyRef>; 2],
    pub flags: u32,
    /// Scratch tag used while building islands.
    pub tag: i32,
    /// The island search's stamp when it last reached this joint (see
    /// `World::island_stamp`; 0: never).
    pub visit: u32,
    pub world: WorldRef,
    /// The joint's world was destroyed while the joint sat in a group (ODE
    /// sets the joint's world to 0 then): it is inert until the group is
    /// emptied, and `world` must not be followed.
    pub world_destroyed: bool,
    pub group: Option<JointGroupRef>,
    /// λ of the last step, one per row (QuickStep warm start).
    pub lambda: [f64; 6],
    /// Host's `dJointFeedback*` (may be null), filled after each step.
    pub feedback: *mut crate::abi::common::dJointFeedback,
    pub data: *mut c_void,
}

impl JointHead {
    /// A fresh head: unattached, enabled, no feedback, no user data.
    pub fn new(world: WorldRef, group: Option<JointGroupRef>) -> JointHead {
        JointHead {
            world,
            body: [None, None],
            flags: if group.is_some() { flags::IN_GROUP } else { 0 },
            feedback: std::ptr::null_mut(),
            data: std::ptr::null_mut(),
            group,
            lambda: [0.0; 6],
            tag: 0,
            visit: 0,
            world_destroyed: false,
        }
    }

    /// The attached bodies as joint models see them (`b1` set whenever any
    /// body is).
    pub fn bodies<'a>(&self) -> Bodies<'a> {
        Bodies { b1: self.body[0].map(|b| b.get()), b2: self.body[1].map(|b| b.get()) }
    }

    /// ODE's rule for a joint taking part in a step: not disabled and at
    /// least one attached body is dynamic (a joint between kinematic bodies
    /// or attached to nothing does nothing).
    pub fn is_active(&self) -> bool {
        if self.flags & flags::DISABLED != 0 {
            return false;
        }
        let dynamic = |b: Option<BodyRef>| b.is_some_and(|b| b.get().inv_mass > 0.0);
        dynamic(self.body[0]) || dynamic(self.body[1])
    }
}

/// Asks for the cache lines of joint `j` (a hint only: no effect on any
/// value). The solvers' packing loops call it a few joints ahead: their
/// joints sit scattered over the joint pool, and a miss on each in turn
/// stalls the long per-joint work that follows.
#[inline(always)]
pub fn prefetch(j: &Joint) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = (j as *const Joint).cast::<i8>();
        for line in 0..std::mem::size_of::<Joint>().div_ceil(64) {
            // SAFETY: prefetching changes no memory or program state, and
            // the addresses lie inside the joint.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.add(64 * line)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = j;
}

/// A joint object. The head comes first (C order): Rust's own layout put
/// the larger kind first, and the head 240 bytes into the cell.
#[repr(C)]
pub struct Joint {
    pub head: JointHead,
    pub kind: JointKind,
}

// Raw host pointers (feedback, data) belong to the host.
unsafe impl Send for Joint {}

/// The type-specific part of a joint. Types much larger than a contact's
/// model are boxed, so that a joint cell (and thus each of the many contact
/// joints a step creates) stays near the size of ODE's contact joint.
pub enum JointKind {
    Null(null::Null),
    Ball(ball::Ball),
    Hinge(Box<hinge::Hinge>),
    Slider(Box<slider::Slider>),
    Fixed(fixed::Fixed),
    Contact(contact::ContactJoint),
    Universal(Box<universal::Universal>),
    Hinge2(Box<hinge2::Hinge2>),
    Pr(Box<pr::Pr>),
    Pu(Box<pu::Pu>),
    Piston(Box<piston::Piston>),
    AMotor(Box<amotor::AMotor>),
    LMotor(Box<lmotor::LMotor>),
    Plane2D(Box<plane2d::Plane2D>),
    DBall(dball::DBall),
    DHinge(dhinge::DHinge),
    Transmission(Box<transmission::Transmission>),
    /// A joint defined by the host (our extension, see `custom`).
    Custom(custom::Custom),
}

/// Calls `$body` with `$m` bound to the joint model of every variant.
macro_rules! each_kind {
    ($kind:expr, $m:ident => $body:expr) => {
        match $kind {
            JointKind::Null($m) => $body,
            JointKind::Ball($m) => $body,
            JointKind::Hinge($m) => $body,
            JointKind::Slider($m) => $body,
            JointKind::Fixed($m) => $body,
            JointKind::Contact($m) => $body,
            JointKind::Universal($m) => $body,
            JointKind::Hinge2($m) => $body,
            JointKind::Pr($m) => $body,
            JointKind::Pu($m) => $body,
            JointKind::Piston($m) => $body,
            JointKind::AMotor($m) => $body,
            JointKind::LMotor($m) => $body,
            JointKind::Plane2D($m) => $body,
            JointKind::DBall($m) => $body,
            JointKind::DHinge($m) => $body,
            JointKind::Transmission($m) => $body,
            JointKind::Custom($m) => $body,
        }
    };
}

impl JointKind {
    pub fn type_code(&self) -> c_int {
        fn code<M: JointModel>(_: &M) -> c_int {
            M::TYPE
        }
        each_kind!(self, m => code(m))
    }

    pub fn info1(&mut self, head: &JointHead, bodies: Bodies<'_>) -> Info1 {
        each_kind!(self, m => m.info1(head, bodies))
    }

    pub fn info2(&mut self, head: &JointHead, bodies: Bodies<'_>, ctx: &RowCtx<'_>, rows: &mut [Row]) {
        each_kind!(self, m => m.info2(head, bodies, ctx, rows))
    }

    pub fn max_rows(&self) -> usize {
        each_kind!(self, m => m.max_rows())
    }

    pub fn set_relative_values(&mut self, head: &JointHead, bodies: Bodies<'_>) {
        each_kind!(self, m => m.set_relative_values(head, bodies))
    }

    pub fn relative_values_sane(&self) -> bool {
        each_kind!(self, m => m.relative_values_sane())
    }
}

/// All components of `points` are within ±`HUGE_INPUT` (so finite).
pub(crate) fn points_sane(points: &[&[f64; 3]]) -> bool {
    points.iter().all(|p| p.iter().all(|v| v.abs() <= crate::error::HUGE_INPUT))
}

/// A joint group: joints created in it are destroyed together by
/// `dJointGroupEmpty`/`dJointGroupDestroy`.
#[derive(Default)]
pub struct JointGroup {
    /// Members in creation order.
    pub joints: Vec<JointRef>,
    /// Cells of the joints this group freed, reused by the joints created
    /// in it (`Pool::alloc_from`): a contact group is emptied and refilled
    /// every step, and its own free list needs no lock. They go back to
    /// the pool when the group is destroyed; until then no other group
    /// reuses them (a group emptied and never refilled nor destroyed keeps
    /// its last batch's cells).
    pub stash: crate::handle::Stash,
}
