//! Geom classes written in Rust: a [`UserGeom`] implementation becomes an
//! ODE user class (`dCreateGeomClass`) the first time a geom of its type is
//! added with [`Space::add_user`]; its bounding box and collider are called
//! by the same broad and narrow phases as ODE's classes.
//!
//! The callbacks run inside ODE's collision code, so they never unwind into
//! it: a panic in [`UserGeom::aabb`] gives the geom an unbounded box, one in
//! [`UserGeom::collide`] gives no contacts, and the API call that ran them
//! ([`Space::collide`], [`collide`], [`Space::aabb`]) returns
//! [`Error::CallbackPanicked`] with the panic's message.
//!
//! ```
//! use ode::api::{collide, DVec3, GeomView, Space, SpaceKind, UserContact, UserGeom};
//!
//! /// A half-space below z = height, written in Rust.
//! struct Floor {
//!     height: f64,
//! }
//!
//! impl UserGeom for Floor {
//!     fn aabb(&self, _me: &GeomView) -> (DVec3, DVec3) {
//!         (DVec3::new(f64::NEG_INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY),
//!          DVec3::new(f64::INFINITY, f64::INFINITY, self.height))
//!     }
//!     fn collide(&self, _me: &GeomView, other: &GeomView, _max: usize, out: &mut Vec<UserContact>) {
//!         // Spheres only, for brevity: the lowest point against the floor.
//!         if let Some(r) = other.sphere_radius() {
//!             let p = other.position();
//!             let depth = self.height - (p.z - r);
//!             if depth >= 0.0 {
//!                 out.push(UserContact { pos: p - DVec3::Z * r, normal: -DVec3::Z, depth });
//!             }
//!         }
//!     }
//! }
//!
//! let mut space = Space::new(SpaceKind::Simple);
//! let floor = space.add_user(Floor { height: 1.0 }).unwrap();
//! let ball = space.add_sphere(0.5).unwrap();
//! space.set_position(ball, [0.0, 0.0, 1.25]).unwrap();
//! let contacts = collide(floor, ball, 4).unwrap();
//! assert_eq!(contacts.len(), 1);
//! assert_eq!(contacts[0].depth, 0.25);
//! assert_eq!(space.user_data::<Floor>(floor).unwrap().height, 1.0);
//! ```

use super::callback_panic::record_panic;
use super::collision::{class_of, Geom, GeomClass, Space, SpaceId};
use super::{DMat3, DVec3, Error, Result};
use crate::abi::collision::{dColliderFn, dGeomClass};
use crate::abi::contact::dContactGeom;
use crate::abi::types::dGeomID;
use crate::collision::geom::{self as core_geom, g, GeomRef, Shape, UserGeom as CoreUserGeom, GEOMS};
use crate::collision::user_class;
use std::any::TypeId;
use std::cell::RefCell;
use std::ffi::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

/// A geom class written in Rust. `Send + Sync` because geoms are shared with
/// ODE's (possibly threaded) collision code.
pub trait UserGeom: Send + Sync + 'static {
    /// The geom's axis-aligned bounding box in world coordinates, as
    /// (min, max), for its current pose (`me`).
    fn aabb(&self, me: &GeomView) -> (DVec3, DVec3);

    /// Appends up to `max` contacts between this geom (`me`) and `other`
    /// (a geom of any class) to `out`. Normals point from `other` into this
    /// geom (the direction to push this one), as in ODE's contacts.
    fn collide(&self, me: &GeomView, other: &GeomView, max: usize, out: &mut Vec<UserContact>);
}

/// One contact a [`UserGeom`] reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UserContact {
    /// Contact position in world coordinates.
    pub pos: DVec3,
    /// Unit normal from the other geom into this one.
    pub normal: DVec3,
    /// Penetration depth (>= 0).
    pub depth: f64,
}

/// A read-only view of a geom inside a [`UserGeom`] callback: its id,
/// class, pose, box and the simple shapes' parameters.
pub struct GeomView {
    h: GeomRef,
}

impl GeomView {
    /// The geom's id.
    pub fn geom(&self) -> Geom {
        Geom::of(self.h)
    }

    /// The geom's class.
    pub fn class(&self) -> GeomClass {
        class_of(g(self.h).class)
    }

    /// World position (zero for non-placeable geoms).
    pub fn position(&self) -> DVec3 {
        if !g(self.h).is_placeable() {
            return DVec3::ZERO;
        }
        let p = core_geom::position(self.h);
        DVec3::new(p[0], p[1], p[2])
    }

    /// World orientation (identity for non-placeable geoms).
    pub fn rotation(&self) -> DMat3 {
        if !g(self.h).is_placeable() {
            return DMat3::IDENTITY;
        }
        super::convert::mat3_from_ode(core_geom::rotation(self.h))
    }

    /// The geom's current bounding box as (min, max) (as the broad phase
    /// last computed it; the other geom's is current during a collide).
    pub fn aabb(&self) -> (DVec3, DVec3) {
        let a = g(self.h).aabb;
        (DVec3::new(a[0], a[2], a[4]), DVec3::new(a[1], a[3], a[5]))
    }

    /// The radius if the geom is a sphere.
    pub fn sphere_radius(&self) -> Option<f64> {
        match &g(self.h).shape {
            Shape::Sphere(s) => Some(s.radius),
            _ => None,
        }
    }

    /// The side lengths if the geom is a box.
    pub fn box_lengths(&self) -> Option<DVec3> {
        match &g(self.h).shape {
            Shape::Box(b) => Some(DVec3::from(b.sides)),
            _ => None,
        }
    }

    /// (radius, length) if the geom is a capsule or a cylinder.
    pub fn radius_length(&self) -> Option<(f64, f64)> {
        match &g(self.h).shape {
            Shape::Capsule(c) => Some((c.radius, c.length)),
            Shape::Cylinder(c) => Some((c.radius, c.length)),
            _ => None,
        }
    }

    /// (normal, d) if the geom is a plane (points p with normal·p = d).
    pub fn plane_params(&self) -> Option<(DVec3, f64)> {
        match &g(self.h).shape {
            Shape::Plane(p) => Some((DVec3::from(p.n), p.d)),
            _ => None,
        }
    }

    /// Depth of a world point inside a sphere, box, capsule, cylinder or
    /// plane (negative outside); None for other classes.
    pub fn point_depth(&self, p: DVec3) -> Option<f64> {
        super::collision::point_depth_of(self.h, p.to_array())
    }
}

/// The Rust classes registered so far, by type.
static CLASSES: Mutex<Vec<(TypeId, i32)>> = Mutex::new(Vec::new());

thread_local! {
    /// Contacts a user collider reports, reused between calls.
    static CONTACTS: RefCell<Vec<UserContact>> = const { RefCell::new(Vec::new()) };
}

/// The user object of a live geom of class `T`.
///
/// # Safety
/// `h` must be a geom created by [`Space::add_user`] with a `T`.
unsafe fn shape_of<'a, T: UserGeom>(h: GeomRef) -> &'a T {
    let p = user_class::data_ptr(h) as *const *const T;
    &**p
}

fn live(id: dGeomID) -> Option<GeomRef> {
    GEOMS.check(id)
}

unsafe extern "C" fn aabb_trampoline<T: UserGeom>(id: dGeomID, aabb: *mut f64) {
    let Some(h) = live(id) else { return };
    let shape = shape_of::<T>(h);
    let view = GeomView { h };
    let b = match catch_unwind(AssertUnwindSafe(|| shape.aabb(&view))) {
        Ok((lo, hi)) => [lo.x, hi.x, lo.y, hi.y, lo.z, hi.z],
        Err(p) => {
            record_panic(p);
            [f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY]
        }
    };
    // SAFETY: the core passes the geom's six-real box.
    std::slice::from_raw_parts_mut(aabb, 6).copy_from_slice(&b);
}

unsafe extern "C" fn collide_trampoline<T: UserGeom>(
    o1: dGeomID,
    o2: dGeomID,
    flags: c_int,
    contact: *mut dContactGeom,
    skip: c_int,
) -> c_int {
    let (Some(a), Some(b)) = (live(o1), live(o2)) else { return 0 };
    let max = (flags & 0xffff) as usize;
    if max == 0 {
        return 0;
    }
    let shape = shape_of::<T>(a);
    let (me, other) = (GeomView { h: a }, GeomView { h: b });
    let run = |out: &mut Vec<UserContact>| -> c_int {
        out.clear();
        if let Err(p) = catch_unwind(AssertUnwindSafe(|| shape.collide(&me, &other, max, out))) {
            record_panic(p);
            return 0;
        }
        let n = out.len().min(max);
        for (i, c) in out[..n].iter().enumerate() {
            // SAFETY: the core gives room for `max` contacts `skip` bytes apart.
            let slot = (contact as *mut u8).add(i * skip as usize) as *mut dContactGeom;
            *slot = dContactGeom {
                pos: [c.pos.x, c.pos.y, c.pos.z, 0.0],
                normal: [c.normal.x, c.normal.y, c.normal.z, 0.0],
                depth: c.depth,
                g1: o1,
                g2: o2,
                side1: -1,
                side2: -1,
            };
        }
        n as c_int
    };
    // A collider that collides other geoms itself re-enters: it then gets
    // a fresh buffer instead of the shared one.
    CONTACTS.with(|buf| match buf.try_borrow_mut() {
        Ok(mut v) => run(&mut v),
        Err(_) => run(&mut Vec::new()),
    })
}

unsafe extern "C" fn collider_of<T: UserGeom>(_other_class: c_int) -> Option<dColliderFn> {
    Some(collide_trampoline::<T>)
}

unsafe extern "C" fn dtor_trampoline<T: UserGeom>(id: dGeomID) {
    let Some(h) = live(id) else { return };
    let p = user_class::data_ptr(h) as *mut *mut T;
    let obj = std::mem::replace(&mut *p, std::ptr::null_mut());
    if !obj.is_null() {
        // A panicking Drop must not unwind into the core either.
        if let Err(e) = catch_unwind(AssertUnwindSafe(|| drop(Box::from_raw(obj)))) {
            record_panic(e);
        }
    }
}

/// The class number of `T`, registering it on first use.
fn class_for<T: UserGeom>() -> Result<i32> {
    let mut classes = CLASSES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, n)) = classes.iter().find(|(t, _)| *t == TypeId::of::<T>()) {
        return Ok(n);
    }
    let c = dGeomClass {
        bytes: std::mem::size_of::<*mut T>() as c_int,
        collider: Some(collider_of::<T>),
        aabb: Some(aabb_trampoline::<T>),
        aabb_test: None,
        dtor: Some(dtor_trampoline::<T>),
    };
    let n = user_class::create_class(c).ok_or_else(|| Error::InvalidArgument {
        arg: "shape",
        reason: format!("needs a new geom class and all {} user classes are taken", user_class::MAX_CLASSES),
    })?;
    classes.push((TypeId::of::<T>(), n));
    Ok(n)
}

impl Space {
    /// A geom of a Rust-defined class in the top-level space (placeable;
    /// the class is registered the first time a `T` is added).
    pub fn add_user<T: UserGeom>(&mut self, shape: T) -> Result<Geom> {
        self.add_user_in(self.root(), shape)
    }

    /// A geom of a Rust-defined class in `space`.
    pub fn add_user_in<T: UserGeom>(&mut self, space: SpaceId, shape: T) -> Result<Geom> {
        self.own_geom(space.geom())?;
        let cls = class_for::<T>()?;
        let storage = user_class::new_storage(std::mem::size_of::<*mut T>() as i32);
        let geom = self.create_geom(space, true, cls, Shape::User(CoreUserGeom { storage }))?;
        let p = user_class::data_ptr(self.own_geom(geom)?) as *mut *mut T;
        // SAFETY: the storage holds one pointer; the destructor frees it.
        unsafe { *p = Box::into_raw(Box::new(shape)) };
        Ok(geom)
    }

    /// The object of a geom made by [`Space::add_user`] with a `T`.
    pub fn user_data<T: UserGeom>(&self, geom: Geom) -> Result<&T> {
        let h = self.user_geom::<T>(geom)?;
        // SAFETY: checked to be of T's class.
        Ok(unsafe { shape_of::<T>(h) })
    }

    /// The object of a geom made by [`Space::add_user`] with a `T`, to
    /// change (its box is recomputed before the next collision).
    pub fn user_data_mut<T: UserGeom>(&mut self, geom: Geom) -> Result<&mut T> {
        let h = self.user_geom::<T>(geom)?;
        core_geom::moved(h);
        // SAFETY: checked to be of T's class; `&mut self` excludes other access.
        Ok(unsafe { &mut **(user_class::data_ptr(h) as *mut *mut T) })
    }

    fn user_geom<T: UserGeom>(&self, geom: Geom) -> Result<GeomRef> {
        let h = self.own_geom(geom)?;
        let classes = CLASSES.lock().unwrap_or_else(|e| e.into_inner());
        let ours = classes.iter().any(|&(t, n)| t == TypeId::of::<T>() && n == g(h).class);
        if !ours {
            return Err(Error::InvalidArgument {
                arg: "geom",
                reason: format!("is not a geom of user type {}", std::any::type_name::<T>()),
            });
        }
        Ok(h)
    }
}
