//! `dCollide`: the class-pair table and the contact conventions around it.
//!
//! The table is filled as ODE fills it (spaces first, then each primitive
//! pair in ODE's order with "first writer wins", then transforms against
//! everything; user classes when created): each entry names a collider
//! and whether the pair must be swapped to call it. After a swapped call
//! the contacts are turned back: normals negated, g1/g2 and side1/side2
//! exchanged. Built-in colliders are the pure functions of `colliders/`;
//! this module fills g1/g2 of what they write.
//!
//! Entries are atomics so that `dSetColliderOverride` and the lazy
//! resolution of user-class colliders can update them without a lock on
//! every collision. A user class's collider look-up is handed over when
//! the class registers (`user_class` sits above this module).
//!
//! The last `dCloseODE` restores the table ODE's next initialisation
//! builds (`reset`): overrides are gone. ODE forgets its user classes
//! there too; ours stay registered (the Rust API keeps their numbers), so
//! their rows are filled again as at their registration.

use super::contact::{slot, ContactSink, NUMC_MASK};
use super::geom::{self, class, g, GeomRef, Shape};
use super::shapes::*;
use super::{space, transform};
use crate::abi::contact::dContactGeom;
use crate::abi::types::dGeomID;
use std::ffi::c_int;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::Mutex;

/// A built-in pair collider: geoms in table order, contacts into the sink.
pub type BuiltinFn = fn(GeomRef, GeomRef, &mut ContactSink) -> usize;

/// A host collider (`dColliderFn`).
pub type HostFn = unsafe extern "C" fn(dGeomID, dGeomID, c_int, *mut dContactGeom, c_int) -> c_int;

const NONE: u8 = 0;
const BUILTIN: u8 = 1;
const SPACE: u8 = 2;
const TRANSFORM: u8 = 3;
const USER_RESOLVE: u8 = 4;
const HOST: u8 = 5;
const REVERSE: u8 = 0x80;

struct Slot {
    kind: AtomicU8,
    f: AtomicUsize,
}

impl Slot {
    const fn new() -> Slot {
        Slot { kind: AtomicU8::new(NONE), f: AtomicUsize::new(0) }
    }
}

const N: usize = class::COUNT;
static TABLE: [[Slot; N]; N] = [const { [const { Slot::new() }; N] }; N];
/// The built-in entries are in the table.
static READY: AtomicBool = AtomicBool::new(false);
/// Held while the table is filled or reset.
static FILLING: Mutex<()> = Mutex::new(());

fn put(i: usize, j: usize, kind: u8, f: usize) {
    TABLE[i][j].f.store(f, Ordering::Relaxed);
    TABLE[i][j].kind.store(kind, Ordering::Release);
}

/// ODE's setCollider: writes (i, j) and the reversed (j, i) unless taken.
fn set_collider(i: i32, j: i32, kind: u8, f: usize) {
    let (i, j) = (i as usize, j as usize);
    if TABLE[i][j].kind.load(Ordering::Acquire) == NONE {
        put(i, j, kind, f);
    }
    if TABLE[j][i].kind.load(Ordering::Acquire) == NONE {
        put(j, i, kind | REVERSE, f);
    }
}

fn set_all(i: i32, kind: u8, f: usize) {
    for j in 0..N as i32 {
        set_collider(i, j, kind, f);
    }
}

/// The built-in pairs, in ODE's registration order (first class is the
/// collider's first argument).
const BUILTIN_PAIRS: &[(i32, i32, BuiltinFn)] = {
    use class::*;
    &[
        (SPHERE, SPHERE, pairs::sphere_sphere),
        (SPHERE, BOX, pairs::sphere_box),
        (SPHERE, PLANE, pairs::sphere_plane),
        (BOX, BOX, pairs::box_box),
        (BOX, PLANE, pairs::box_plane),
        (CAPSULE, SPHERE, pairs::capsule_sphere),
        (CAPSULE, BOX, pairs::capsule_box),
        (CAPSULE, CAPSULE, pairs::capsule_capsule),
        (CAPSULE, PLANE, pairs::capsule_plane),
        (RAY, SPHERE, pairs::ray_sphere),
        (RAY, BOX, pairs::ray_box),
        (RAY, CAPSULE, pairs::ray_capsule),
        (RAY, PLANE, pairs::ray_plane),
        (RAY, CYLINDER, pairs::ray_cylinder),
        (CYLINDER, BOX, pairs::cylinder_box),
        (CYLINDER, SPHERE, pairs::cylinder_sphere),
        (CYLINDER, PLANE, pairs::cylinder_plane),
        (CYLINDER, CYLINDER, pairs::cylinder_cylinder),
        (CAPSULE, CYLINDER, pairs::capsule_cylinder),
        (CONVEX, BOX, pairs::convex_box),
        (CONVEX, CAPSULE, pairs::convex_capsule),
        (CONVEX, CYLINDER, pairs::convex_cylinder),
        (CONVEX, SPHERE, pairs::convex_sphere),
        (CONVEX, CONVEX, pairs::convex_convex),
        (CONVEX, PLANE, pairs::convex_plane),
        (RAY, CONVEX, pairs::ray_convex),
        (TRIMESH, SPHERE, pairs::trimesh_sphere),
        (TRIMESH, BOX, pairs::trimesh_box),
        (TRIMESH, RAY, pairs::trimesh_ray),
        (TRIMESH, CAPSULE, pairs::trimesh_capsule),
        (TRIMESH, PLANE, pairs::trimesh_plane),
        (TRIMESH, CYLINDER, pairs::trimesh_cylinder),
        (TRIMESH, TRIMESH, pairs::trimesh_trimesh),
        (CONVEX, TRIMESH, pairs::convex_trimesh),
        (HEIGHTFIELD, RAY, pairs::heightfield_other),
        (HEIGHTFIELD, SPHERE, pairs::heightfield_other),
        (HEIGHTFIELD, BOX, pairs::heightfield_other),
        (HEIGHTFIELD, CAPSULE, pairs::heightfield_other),
        (HEIGHTFIELD, CYLINDER, pairs::heightfield_other),
        (HEIGHTFIELD, CONVEX, pairs::heightfield_other),
        (HEIGHTFIELD, TRIMESH, pairs::heightfield_other),
    ]
};

/// The built-in entries, in ODE's order (dInitColliders), into an empty
/// table.
fn fill() {
    for i in class::FIRST_SPACE..=class::LAST_SPACE {
        for j in 0..N as i32 {
            set_collider(i, j, SPACE, 0);
        }
    }
    for &(a, b, f) in BUILTIN_PAIRS {
        set_collider(a, b, BUILTIN, f as usize);
    }
    set_all(class::TRANSFORM, TRANSFORM, 0);
}

#[inline]
fn init() {
    if !READY.load(Ordering::Acquire) {
        init_slow();
    }
}

#[cold]
fn init_slow() {
    let _g = FILLING.lock().unwrap_or_else(|e| e.into_inner());
    if !READY.load(Ordering::Acquire) {
        fill();
        READY.store(true, Ordering::Release);
    }
}

/// The table of a fresh initialisation (ODE's dFinitColliders and the
/// next dInitColliders, run by the last `dCloseODE`): every override is
/// dropped and the built-in entries are back. Each registered user class
/// (`user_rows`) then collides through lazy resolution again, with every
/// class that has no collider.
pub fn reset(user_rows: &[i32]) {
    let _g = FILLING.lock().unwrap_or_else(|e| e.into_inner());
    for row in &TABLE {
        for s in row {
            s.f.store(0, Ordering::Relaxed);
            s.kind.store(NONE, Ordering::Release);
        }
    }
    fill();
    for &num in user_rows {
        set_all(num, USER_RESOLVE, 0);
    }
    READY.store(true, Ordering::Release);
}

/// A host class's function that returns its collider for another class
/// (`dGeomClass::collider`).
pub type GetCollider = Option<unsafe extern "C" fn(c_int) -> Option<HostFn>>;

/// Each user class's collider look-up, by class number from
/// `class::FIRST_USER`, kept from its registration.
static USER_COLLIDERS: Mutex<[GetCollider; (class::LAST_USER - class::FIRST_USER + 1) as usize]> =
    Mutex::new([None; (class::LAST_USER - class::FIRST_USER + 1) as usize]);

/// A new user class (`user_class::create_class`) collides through lazy
/// resolution with every class that has no collider yet; `collider` is its
/// collider look-up.
pub fn set_user_class(num: i32, collider: GetCollider) {
    init();
    USER_COLLIDERS.lock().unwrap_or_else(|e| e.into_inner())[(num - class::FIRST_USER) as usize] = collider;
    set_all(num, USER_RESOLVE, 0);
}

/// `dSetColliderOverride`: `f` for (i, j), reversed for (j, i).
pub fn set_override(i: i32, j: i32, f: Option<HostFn>) {
    init();
    let (i, j) = (i as usize, j as usize);
    match f {
        Some(f) => {
            put(i, j, HOST, f as usize);
            put(j, i, HOST | REVERSE, f as usize);
        }
        None => {
            put(i, j, NONE, 0);
            put(j, i, NONE | REVERSE, 0);
        }
    }
}

/// Does the table know a collider for the pair? (Tests use it.)
pub fn has_collider(c1: i32, c2: i32) -> bool {
    init();
    TABLE[c1 as usize][c2 as usize].kind.load(Ordering::Acquire) & !REVERSE != NONE
}

#[cold]
fn host_count_out_of_range(n: c_int, max: usize) {
    crate::error::report(
        crate::error::Channel::Debug,
        crate::error::D_ERR_UASSERT,
        &format!(
            "dCollide: a host collider (a user class's or one set by dSetColliderOverride) returned {n} contacts, \
             outside 0..={max} (the contact count in flags); taken as {}",
            n.max(0).min(max as c_int)
        ),
    );
}

/// `dCollide` on checked geoms.
///
/// # Safety
/// `contact` points to `flags & 0xffff` records `skip` bytes apart, each
/// starting with a `dContactGeom` (`skip >= size_of::<dContactGeom>()`).
pub unsafe fn collide_raw(o1: GeomRef, o2: GeomRef, flags: i32, contact: *mut dContactGeom, skip: usize) -> usize {
    init();
    if flags & NUMC_MASK == 0 || o1 == o2 {
        return 0;
    }
    if g(o1).body.is_some() && g(o1).body == g(o2).body {
        return 0;
    }
    geom::recompute_posr(o1);
    geom::recompute_posr(o2);
    let (c1, c2) = (g(o1).class as usize, g(o2).class as usize);
    if c1 >= N || c2 >= N {
        return 0;
    }
    let entry = &TABLE[c1][c2];
    let k = entry.kind.load(Ordering::Acquire);
    let f = entry.f.load(Ordering::Relaxed);
    let reverse = k & REVERSE != 0;
    let (a, b) = if reverse { (o2, o1) } else { (o1, o2) };
    let max = (flags & NUMC_MASK) as usize;
    let n = match k & !REVERSE {
        BUILTIN => {
            let f: BuiltinFn = std::mem::transmute::<usize, BuiltinFn>(f);
            let mut sink = ContactSink::from_raw(contact, flags, skip);
            let n = f(a, b, &mut sink).min(sink.len()).min(max);
            for i in 0..n {
                let c = &mut *slot(contact, skip, i);
                c.g1 = a.as_raw();
                c.g2 = b.as_raw();
            }
            drop_nonfinite(a, b, contact, skip, n)
        }
        SPACE => collide_space_geom(a, b, flags, contact, skip),
        TRANSFORM => transform::collide(a, b, flags, contact, skip, collide_raw),
        USER_RESOLVE => {
            resolve_user(a, b);
            collide_raw(a, b, flags, contact, skip)
        }
        HOST => {
            let f: HostFn = std::mem::transmute::<usize, HostFn>(f);
            let n = f(a.as_raw(), b.as_raw(), flags, contact, skip as c_int);
            if n < 0 || n as usize > max {
                // ODE passes such a count on, and its callers then read
                // contacts past the host's buffer (or loop on a negative
                // count): reported, and kept within the buffer.
                host_count_out_of_range(n, max);
            }
            (n.max(0) as usize).min(max)
        }
        _ => 0,
    };
    if reverse {
        for i in 0..n {
            let c = &mut *slot(contact, skip, i);
            c.normal[0] = -c.normal[0];
            c.normal[1] = -c.normal[1];
            c.normal[2] = -c.normal[2];
            std::mem::swap(&mut c.g1, &mut c.g2);
            std::mem::swap(&mut c.side1, &mut c.side2);
        }
    }
    n
}

/// Removes the contacts with a NaN or infinite position, normal or depth
/// from the `n` a built-in collider wrote (keeping the others in order)
/// and reports them; returns how many are left. Finite geoms give such
/// contacts in ODE's own degenerate cases, which we keep bit for bit
/// otherwise: a sphere whose centre is at a cylinder's centre (the normal
/// is 0/0). A NaN contact would make the next step NaN.
#[inline]
unsafe fn drop_nonfinite(a: GeomRef, b: GeomRef, contact: *mut dContactGeom, skip: usize, n: usize) -> usize {
    // x·0 is ±0 for a finite x and NaN otherwise, so the sum is 0 exactly
    // when all seven are finite: one test instead of seven.
    let finite = |c: &dContactGeom| {
        let z = |x: f64| x * 0.0;
        (z(c.pos[0]) + z(c.pos[1]) + z(c.pos[2])) + (z(c.normal[0]) + z(c.normal[1]) + z(c.normal[2])) + z(c.depth)
            == 0.0
    };
    let mut kept = 0;
    for i in 0..n {
        // Tested in place; only a contact that moves down is copied.
        if finite(&*slot(contact, skip, i)) {
            if kept != i {
                *slot(contact, skip, kept) = *slot(contact, skip, i);
            }
            kept += 1;
        }
    }
    if kept != n {
        report_nonfinite(a, b, n - kept);
    }
    kept
}

#[cold]
fn report_nonfinite(a: GeomRef, b: GeomRef, dropped: usize) {
    use std::fmt::Write;
    let mut t = crate::error::StackText::<200>::new();
    let _ = write!(
        t,
        "dCollide: {dropped} contact(s) between geoms {:p} (class {}) and {:p} (class {}) came out non-finite and were dropped",
        a.as_raw(),
        g(a).class,
        b.as_raw(),
        g(b).class
    );
    crate::error::message(crate::error::D_ERR_IASSERT, t.as_str());
}

/// `dCollide` into a Rust buffer (tests, safe API): at most `buf.len()`
/// contacts.
pub fn collide(o1: GeomRef, o2: GeomRef, flags: i32, buf: &mut [dContactGeom]) -> usize {
    let max = ((flags & NUMC_MASK) as usize).min(buf.len());
    if max == 0 {
        return 0;
    }
    let flags = (flags & !NUMC_MASK) | max as i32;
    // SAFETY: `max` records of the slice, at its natural stride.
    unsafe { collide_raw(o1, o2, flags, buf.as_mut_ptr(), std::mem::size_of::<dContactGeom>()) }
}

/// ODE's user-class resolution: ask the user geom's class for a collider
/// of the other class, else (when the other is a user geom too) the other
/// way round; remember the answer (possibly none) for the pair.
fn resolve_user(a: GeomRef, b: GeomRef) {
    let (t1, t2) = (g(a).class, g(b).class);
    let lookup = |t: i32, other: i32| -> Option<HostFn> {
        let i = usize::try_from(t.checked_sub(class::FIRST_USER)?).ok()?;
        let get = (*USER_COLLIDERS.lock().unwrap_or_else(|e| e.into_inner()).get(i)?)?;
        // SAFETY: a host function registered with the class.
        unsafe { get(other) }
    };
    let mut f = lookup(t1, t2);
    let mut reverse = false;
    if f.is_none() && (class::FIRST_USER..=class::LAST_USER).contains(&t2) {
        f = lookup(t2, t1);
        reverse = true;
    }
    let (k, fv) = match f {
        Some(f) => (HOST, f as usize),
        None => (NONE, 0),
    };
    let (i, j) = (t1 as usize, t2 as usize);
    put(i, j, if reverse { k | REVERSE } else { k }, fv);
    put(j, i, if reverse { k } else { k | REVERSE }, fv);
}

/// A space against a geom (or space): `dSpaceCollide2` with a callback
/// that collides each pair into the remaining room.
unsafe fn collide_space_geom(a: GeomRef, b: GeomRef, flags: i32, contact: *mut dContactGeom, skip: usize) -> usize {
    let mut left = flags;
    let mut at = contact;
    space::collide2(a, b, &mut |x, y| {
        if left & NUMC_MASK != 0 {
            let n = collide_raw(x, y, left, at, skip);
            at = slot(at, skip, n);
            left -= n as i32;
        }
    });
    ((flags & NUMC_MASK) - (left & NUMC_MASK)) as usize
}

/// Shape and pose accessors for the pair wrappers.
mod access {
    use super::*;
    use crate::collision::colliders::ccd;

    pub fn pose(h: GeomRef) -> Pose {
        geom::pose(h)
    }
    /// The pose with the quaternion ODE's libccd glue reads for the geom.
    pub fn oriented(h: GeomRef, p: &Pose) -> ccd::Oriented<'_> {
        ccd::Oriented::new(p, geom::quaternion(h))
    }
    pub fn sphere(h: GeomRef) -> &'static Sphere {
        match &g(h).shape {
            Shape::Sphere(s) => s,
            _ => unreachable!("dispatch: not a sphere"),
        }
    }
    pub fn boxs(h: GeomRef) -> &'static BoxShape {
        match &g(h).shape {
            Shape::Box(s) => s,
            _ => unreachable!("dispatch: not a box"),
        }
    }
    pub fn capsule(h: GeomRef) -> &'static Capsule {
        match &g(h).shape {
            Shape::Capsule(s) => s,
            _ => unreachable!("dispatch: not a capsule"),
        }
    }
    pub fn cylinder(h: GeomRef) -> &'static Cylinder {
        match &g(h).shape {
            Shape::Cylinder(s) => s,
            _ => unreachable!("dispatch: not a cylinder"),
        }
    }
    pub fn plane(h: GeomRef) -> &'static Plane {
        match &g(h).shape {
            Shape::Plane(s) => s,
            _ => unreachable!("dispatch: not a plane"),
        }
    }
    pub fn ray(h: GeomRef) -> &'static Ray {
        match &g(h).shape {
            Shape::Ray(s) => s,
            _ => unreachable!("dispatch: not a ray"),
        }
    }
    pub fn convex(h: GeomRef) -> &'static geom::Convex {
        match &g(h).shape {
            Shape::Convex(s) => s,
            _ => unreachable!("dispatch: not a convex"),
        }
    }
}

/// The pair wrappers: each one fetches the two shapes and poses and calls
/// the pure collider of that pair.
mod pairs {
    use super::access::*;
    use super::*;
    use crate::collision::colliders::ccd;

    pub fn sphere_sphere(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::colliders::sphere::collide_sphere_sphere(sphere(a), &pose(a), sphere(b), &pose(b), s)
    }
    pub fn sphere_box(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::colliders::sphere::collide_sphere_box(sphere(a), &pose(a), boxs(b), &pose(b), s)
    }
    pub fn sphere_plane(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::colliders::plane::collide_sphere_plane(sphere(a), &pose(a), plane(b), s)
    }
    pub fn box_box(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::colliders::box_box::collide_box_box(boxs(a), &pose(a), boxs(b), &pose(b), s)
    }
    pub fn box_plane(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::colliders::plane::collide_box_plane(boxs(a), &pose(a), plane(b), s)
    }
    pub fn capsule_sphere(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::colliders::capsule::collide_capsule_sphere(capsule(a), &pose(a), sphere(b), &pose(b), s)
    }
    pub fn capsule_box(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::colliders::capsule::collide_capsule_box(capsule(a), &pose(a), boxs(b), &pose(b), s)
    }
    pub fn capsule_capsule(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::colliders::capsule::collide_capsule_capsule(capsule(a), &pose(a), capsule(b), &pose(b), s)
    }
    pub fn capsule_plane(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::colliders::plane::collide_capsule_plane(capsule(a), &pose(a), plane(b), s)
    }
    pub fn ray_sphere(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::colliders::ray::collide_ray_sphere(ray(a), &pose(a), sphere(b), &pose(b), s)
    }
    pub fn ray_box(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::colliders::ray::collide_ray_box(ray(a), &pose(a), boxs(b), &pose(b), s)
    }
    pub fn ray_capsule(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::colliders::ray::collide_ray_capsule(ray(a), &pose(a), capsule(b), &pose(b), s)
    }
    pub fn ray_plane(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::colliders::ray::collide_ray_plane(ray(a), &pose(a), plane(b), s)
    }
    pub fn ray_cylinder(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::colliders::cylinder::collide_ray_cylinder(ray(a), &pose(a), cylinder(b), &pose(b), s)
    }
    pub fn cylinder_box(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::colliders::cylinder::collide_cylinder_box(cylinder(a), &pose(a), boxs(b), &pose(b), s)
    }
    pub fn cylinder_sphere(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::colliders::cylinder::collide_cylinder_sphere(cylinder(a), &pose(a), sphere(b), &pose(b), s)
    }
    pub fn cylinder_plane(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::colliders::cylinder::collide_cylinder_plane(cylinder(a), &pose(a), plane(b), s)
    }
    pub fn cylinder_cylinder(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        let (pa, pb) = (pose(a), pose(b));
        ccd::collide_cylinder_cylinder_oriented(cylinder(a), oriented(a, &pa), cylinder(b), oriented(b, &pb), s)
    }
    pub fn capsule_cylinder(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        let (pa, pb) = (pose(a), pose(b));
        ccd::collide_capsule_cylinder_oriented(capsule(a), oriented(a, &pa), cylinder(b), oriented(b, &pb), s)
    }
    pub fn convex_box(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        let (pa, pb) = (pose(a), pose(b));
        ccd::collide_convex_box_oriented(&convex(a).view(), oriented(a, &pa), boxs(b), oriented(b, &pb), s)
    }
    pub fn convex_capsule(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        let (pa, pb) = (pose(a), pose(b));
        ccd::collide_convex_capsule_oriented(&convex(a).view(), oriented(a, &pa), capsule(b), oriented(b, &pb), s)
    }
    pub fn convex_cylinder(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        let (pa, pb) = (pose(a), pose(b));
        ccd::collide_convex_cylinder_oriented(&convex(a).view(), oriented(a, &pa), cylinder(b), oriented(b, &pb), s)
    }
    pub fn convex_sphere(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        let pa = pose(a);
        ccd::collide_convex_sphere_oriented(&convex(a).view(), oriented(a, &pa), sphere(b), &pose(b), s)
    }
    pub fn convex_convex(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        let (pa, pb) = (pose(a), pose(b));
        ccd::collide_convex_convex_oriented(&convex(a).view(), oriented(a, &pa), &convex(b).view(), oriented(b, &pb), s)
    }
    pub fn convex_plane(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::colliders::convex::collide_convex_plane(&convex(a).view(), &pose(a), plane(b), s)
    }
    pub fn ray_convex(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::colliders::convex::collide_ray_convex(ray(a), &pose(a), &convex(b).view(), &pose(b), s)
    }
    /// Heightfield against ray/sphere/box/capsule/cylinder/convex/trimesh: the
    /// heightfield collider needs the data object, the heightfield's pose
    /// (identity when not placeable) and the other geom's shape, pose and
    /// up-to-date AABB (`geom::recompute_aabb(b)` then `g(b).aabb`).
    pub fn heightfield_other(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::heightfield::collide_heightfield(a, b, s)
    }
    pub fn trimesh_sphere(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::trimesh_geom::geom_sphere(a, b, s)
    }
    pub fn trimesh_box(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::trimesh_geom::geom_box(a, b, s)
    }
    pub fn trimesh_ray(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::trimesh_geom::geom_ray(a, b, s)
    }
    pub fn trimesh_capsule(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::trimesh_geom::geom_capsule(a, b, s)
    }
    pub fn trimesh_cylinder(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::trimesh_geom::geom_cylinder(a, b, s)
    }
    pub fn trimesh_trimesh(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::trimesh_geom::geom_trimesh(a, b, s)
    }
    pub fn convex_trimesh(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        let pa = pose(a);
        crate::collision::trimesh_geom::of(b).live_data().map_or(0, |d| {
            ccd::collide_convex_trimesh(
                &convex(a).view(),
                oriented(a, &pa),
                &g(a).aabb,
                &crate::collision::trimesh::Mesh { data: d, pose: pose(b) },
                s,
            )
        })
    }
    pub fn trimesh_plane(a: GeomRef, b: GeomRef, s: &mut ContactSink) -> usize {
        crate::collision::trimesh_geom::geom_plane(a, b, s)
    }
}
