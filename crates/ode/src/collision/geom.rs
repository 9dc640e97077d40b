//! Geom objects: one pool for every geom and every space (a space is a geom
//! whose shape is `Shape::Space`, so a `dSpaceID` is a valid `dGeomID`).
//!
//! This module owns what all geoms share: flags, the world pose (own or
//! shared with the body), body attachment and offsets, cached AABBs with
//! ODE's per-class formulas (a transform's is its child's, composed here),
//! collision bits, and `moved`, the notification that makes a geom and its
//! parent spaces dirty. Spaces and host-defined classes live above this
//! layer: the geom layer reaches them through hooks they register
//! (`SpaceHooks`, `UserClassHooks`), as ODE through virtual functions. As in ODE, a geom on a
//! body without offset *shares* the body's position and rotation (the
//! pointers returned to C are the body's), and a geom with an offset
//! recomputes its world pose lazily after the body moved.

use super::shapes::*;
use crate::dynamics::body::{Body, BodyRef};
use crate::handle::{Handle, Pool};
use crate::math::mat3::{mul0_331, mul0_333, mul1_331};
use crate::math::rotation::{q_to_r, r_to_q, IDENTITY};
use std::any::{Any, TypeId};
use std::ffi::c_void;
use std::sync::OnceLock;

pub type GeomRef = Handle<Geom>;

/// All geoms and spaces. Tag spells "GEOM".
pub static GEOMS: Pool<Geom> = Pool::new(0x4745_4F4D);

/// Class numbers (`dGeomGetClass`).
pub mod class {
    pub const SPHERE: i32 = 0;
    pub const BOX: i32 = 1;
    pub const CAPSULE: i32 = 2;
    pub const CYLINDER: i32 = 3;
    pub const PLANE: i32 = 4;
    pub const RAY: i32 = 5;
    pub const CONVEX: i32 = 6;
    pub const TRANSFORM: i32 = 7;
    pub const TRIMESH: i32 = 8;
    pub const HEIGHTFIELD: i32 = 9;
    pub const SIMPLE_SPACE: i32 = 10;
    pub const HASH_SPACE: i32 = 11;
    pub const SAP_SPACE: i32 = 12;
    pub const QUADTREE_SPACE: i32 = 13;
    pub const FIRST_SPACE: i32 = 10;
    pub const LAST_SPACE: i32 = 13;
    pub const FIRST_USER: i32 = 14;
    pub const LAST_USER: i32 = 17;
    pub const COUNT: usize = 18;
}

/// Geom flag bits (ODE's values; the space code relies on their meaning).
pub mod gflags {
    /// The spaces containing the geom have not caught up with a move.
    pub const DIRTY: u32 = 1;
    /// The offset pose must be recomputed from the body.
    pub const POSR_BAD: u32 = 2;
    /// The cached AABB is stale.
    pub const AABB_BAD: u32 = 4;
    pub const PLACEABLE: u32 = 8;
    pub const ENABLED: u32 = 16;
    /// A degenerate shape (e.g. radius 0): spaces skip it like a disabled geom.
    pub const ZERO_SIZED: u32 = 32;
    /// On a space: a member's AABB was computed since the space last
    /// cleared this (the hash space's pass must know when a callback
    /// changed a member's box).
    pub const MEMBER_AABB_SET: u32 = 64;
}

/// A convex hull given by the host: the arrays are referenced, not copied
/// (as in ODE), so they must outlive the geom.
pub struct Convex {
    pub planes: *const f64,
    pub plane_count: u32,
    pub points: *const f64,
    pub point_count: u32,
    pub polygons: *const u32,
    /// Unique edges (lower index first), built at creation as ODE does
    /// (`dGeomSetConvex` does not rebuild them, as in ODE).
    pub edges: Vec<(u32, u32)>,
}

impl Convex {
    /// Point `i` in geom coordinates.
    ///
    /// # Safety contract (internal)
    /// `i < point_count` and the host arrays are alive (ODE's contract).
    pub fn point(&self, i: usize) -> [f64; 3] {
        unsafe { [*self.points.add(3 * i), *self.points.add(3 * i + 1), *self.points.add(3 * i + 2)] }
    }

    /// The host's arrays as the colliders' borrowed view.
    pub fn view(&self) -> crate::collision::colliders::convex::Convex<'_> {
        fn slice<'a, T>(p: *const T, n: usize) -> &'a [T] {
            if p.is_null() || n == 0 {
                &[]
            } else {
                // SAFETY: ODE's contract for dCreateConvex/dGeomSetConvex:
                // the host keeps the arrays alive and as large as declared.
                unsafe { std::slice::from_raw_parts(p, n) }
            }
        }
        // The polygon list is (count, indices...) per face.
        let mut poly_len = 0usize;
        if !self.polygons.is_null() {
            for _ in 0..self.plane_count {
                poly_len += 1 + unsafe { *self.polygons.add(poly_len) } as usize;
            }
        }
        crate::collision::colliders::convex::Convex::new(
            slice(self.planes, 4 * self.plane_count as usize),
            slice(self.points, 3 * self.point_count as usize),
            slice(self.polygons, poly_len),
        )
    }

    /// Unique edges of the polygon list (as ODE's FillEdges).
    pub fn build_edges(plane_count: u32, polygons: *const u32) -> Vec<(u32, u32)> {
        let mut edges: Vec<(u32, u32)> = Vec::new();
        if polygons.is_null() {
            return edges;
        }
        let mut p = polygons;
        for _ in 0..plane_count {
            unsafe {
                let n = *p;
                let idx = p.add(1);
                for j in 0..n {
                    let a = *idx.add(j as usize);
                    let b = *idx.add(((j + 1) % n) as usize);
                    let e = (a.min(b), a.max(b));
                    if !edges.contains(&e) {
                        edges.push(e);
                    }
                }
                p = p.add(n as usize + 1);
            }
        }
        edges
    }
}

/// A heightfield geom refers to a heightfield data object (see
/// `heightfield_data`), which the host may share between geoms.
pub struct HeightfieldGeom {
    pub data: *mut c_void,
}

/// A geom of a class created with `dCreateGeomClass`: zeroed storage of the
/// class's declared size, handed to the host by `dGeomGetClassData`.
pub struct UserGeom {
    pub storage: Vec<u64>,
}

/// A space's state as its geom keeps it: the type belongs to `space`
/// (above this layer), which alone makes and reads it. The type is checked
/// against a stored `TypeId` (no virtual call): spaces read their state in
/// every member operation.
pub struct SpaceState {
    ty: TypeId,
    state: Box<dyn Any>,
}

impl SpaceState {
    pub fn new<T: Any>(state: T) -> SpaceState {
        SpaceState { ty: TypeId::of::<T>(), state: Box::new(state) }
    }

    /// The state, if it is a `T`.
    #[inline]
    pub fn get_mut<T: Any>(&mut self) -> Option<&mut T> {
        if self.ty == TypeId::of::<T>() {
            // SAFETY: `ty` is the type that `state` was made with.
            Some(unsafe { &mut *(&mut *self.state as *mut dyn Any as *mut T) })
        } else {
            None
        }
    }
}

pub enum Shape {
    Sphere(Sphere),
    Box(BoxShape),
    Capsule(Capsule),
    Cylinder(Cylinder),
    Plane(Plane),
    Ray(Ray),
    Convex(Convex),
    Transform(Transform),
    Heightfield(HeightfieldGeom),
    TriMesh(super::trimesh::TriMeshGeom),
    User(UserGeom),
    Space(SpaceState),
}

/// Field order is chosen for the broad phase: flags, AABB, bits, body and
/// list links (what every pair test reads) share the first cache lines.
#[repr(C)]
pub struct Geom {
    pub gflags: u32,
    pub class: i32,
    pub aabb: [f64; 6],
    pub category_bits: u64,
    pub collide_bits: u64,
    pub body: Option<BodyRef>,
    /// Space bookkeeping: list links (simple/hash/quadtree block lists) and
    /// two slots (SAP list indices, quadtree block index).
    pub next: Option<GeomRef>,
    pub prev: Option<GeomRef>,
    /// Containing space.
    pub parent: Option<GeomRef>,
    pub slot: i32,
    pub slot2: i32,
    /// The world pose is the body's own (attached, no offset).
    pub pose_is_body: bool,
    pub data: *mut c_void,
    /// World pose when not the body's (free geom, or recomputed from the
    /// body and the offset).
    pub own: Pose,
    /// Pose relative to the body, if set.
    pub offset: Option<Pose>,
    /// How many live geom transforms carry this geom. A carried geom may
    /// not join a space: the transform's AABB would recurse through it.
    pub held: u32,
    pub shape: Shape,
    /// Unique per creation, so that the safe API can tell a geom from a
    /// later one reusing its cell.
    pub serial: u64,
}

// Raw host pointers (user data, convex arrays) are the host's business.
unsafe impl Send for Geom {}

const ZERO4: [f64; 4] = [0.0; 4];

impl Geom {
    #[inline]
    pub fn is_space(&self) -> bool {
        (class::FIRST_SPACE..=class::LAST_SPACE).contains(&self.class)
    }

    #[inline]
    pub fn is_placeable(&self) -> bool {
        self.gflags & gflags::PLACEABLE != 0
    }

    #[inline]
    pub fn is_enabled(&self) -> bool {
        self.gflags & gflags::ENABLED != 0
    }

    /// Taking part in space collisions: enabled and not degenerate.
    pub fn takes_part(&self) -> bool {
        self.gflags & (gflags::ENABLED | gflags::ZERO_SIZED) == gflags::ENABLED
    }

    fn set_zero_sized(&mut self, z: bool) {
        if z {
            self.gflags |= gflags::ZERO_SIZED;
        } else {
            self.gflags &= !gflags::ZERO_SIZED;
        }
    }

    /// Updates the degenerate-shape flag from the shape, as each class's
    /// constructor and setters do in ODE.
    pub fn update_zero_sized(&mut self) {
        let z = match &self.shape {
            Shape::Sphere(s) => dequal(s.radius, 0.0),
            Shape::Box(b) => b.sides.iter().any(|&v| dequal(v, 0.0)),
            Shape::Capsule(c) => dequal(c.radius, 0.0),
            Shape::Cylinder(c) => c.radius == 0.0 || c.length == 0.0,
            _ => false,
        };
        self.set_zero_sized(z);
    }
}

/// The geom behind a handle known to be live.
#[inline]
pub fn g(h: GeomRef) -> &'static mut Geom {
    h.get_mut()
}

static NEXT_SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// Creates a geom of `class` and puts it into `space` if given.
pub fn create(space: Option<GeomRef>, placeable: bool, class: i32, shape: Shape) -> GeomRef {
    let mut flags = gflags::DIRTY | gflags::AABB_BAD | gflags::ENABLED;
    if placeable {
        flags |= gflags::PLACEABLE;
    }
    let mut geom = Geom {
        class,
        gflags: flags,
        data: std::ptr::null_mut(),
        body: None,
        pose_is_body: false,
        own: Pose::IDENTITY,
        offset: None,
        aabb: [0.0; 6],
        category_bits: !0,
        collide_bits: !0,
        parent: None,
        next: None,
        prev: None,
        slot: -1,
        slot2: -1,
        held: 0,
        shape,
        serial: NEXT_SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
    };
    geom.update_zero_sized();
    let h = GEOMS.alloc(geom);
    if let Some(s) = space {
        (spaces().add)(s, h);
    }
    h
}

/// Destroys a geom (a space destroys or releases its contents first, a
/// transform its child when it owns it, a user geom calls its class's
/// destructor), removes it from its space and body and frees it. Callers
/// have checked that no space involved is locked.
pub fn destroy(h: GeomRef) {
    match &g(h).shape {
        Shape::Space(_) => (spaces().release_contents)(h),
        Shape::Transform(t) => {
            if let Some(obj) = t.obj.filter(|o| o.is_live()) {
                g(obj).held = g(obj).held.saturating_sub(1);
                if t.cleanup != 0 {
                    destroy(obj);
                }
            }
        }
        Shape::User(_) => (user_classes().call_dtor)(h),
        _ => {}
    }
    if !h.is_live() {
        return;
    }
    if let Some(p) = g(h).parent {
        (spaces().remove)(p, h);
    }
    body_remove(h);
    GEOMS.free(h);
}

// ---- classes whose code lives above this layer ---------------------------------

/// What the geom layer asks of the spaces, whose code lives above it in
/// `space` (ODE's dxSpace virtuals). `space::create` registers them before
/// the first space exists, so every geom that has a parent, or is a
/// space, finds them; bodies reach geoms the same way (`GeomHooks`).
pub struct SpaceHooks {
    /// Puts a geom that is in no space into a space.
    pub add: fn(GeomRef, GeomRef),
    /// Takes a member out of its space.
    pub remove: fn(GeomRef, GeomRef),
    /// A member moved (`moved`, bottom-up; `handing`: it was clean until
    /// now, so the space must move it to its dirty set).
    pub member_moved: fn(GeomRef, GeomRef, bool),
    /// Destroys or releases the members of a space being destroyed.
    pub release_contents: fn(GeomRef),
    /// Computes a space's AABB into `aabb`.
    pub compute_aabb: fn(GeomRef),
}

static SPACE_HOOKS: OnceLock<SpaceHooks> = OnceLock::new();

/// Registers the space hooks; a no-op after the first time.
pub fn register_space_hooks(hooks: SpaceHooks) {
    let _ = SPACE_HOOKS.set(hooks);
}

#[inline]
fn spaces() -> &'static SpaceHooks {
    SPACE_HOOKS.get().expect("a space exists, so the space hooks are registered")
}

/// What the geom layer asks of host-defined classes (`user_class`, above
/// this layer), registered by `user_class::create_class` before a geom of
/// such a class can exist.
pub struct UserClassHooks {
    /// The class's AABB callback, into `aabb`.
    pub compute_aabb: fn(GeomRef),
    /// The class's AABB test of a geom against another's box.
    pub aabb_test: fn(GeomRef, GeomRef) -> bool,
    /// The class's destructor.
    pub call_dtor: fn(GeomRef),
}

static USER_CLASS_HOOKS: OnceLock<UserClassHooks> = OnceLock::new();

/// Registers the user-class hooks; a no-op after the first time.
pub fn register_user_class_hooks(hooks: UserClassHooks) {
    let _ = USER_CLASS_HOOKS.set(hooks);
}

#[inline]
fn user_classes() -> &'static UserClassHooks {
    USER_CLASS_HOOKS.get().expect("a user geom exists, so its class registered the hooks")
}

/// The geom's own AABB test of `a` against `b`'s box: true for built-in
/// classes, the class's test for host-defined ones.
#[inline]
pub fn aabb_test(a: GeomRef, b: GeomRef) -> bool {
    if g(a).class < class::FIRST_USER {
        return true;
    }
    (user_classes().aabb_test)(a, b)
}

// ---- pose ---------------------------------------------------------------

/// Brings an offset geom's pose up to date with its body. Inlined flag
/// test (every dCollide asks for both geoms; only offset geoms that moved
/// have work to do).
#[inline]
pub fn recompute_posr(h: GeomRef) {
    if g(h).gflags & gflags::POSR_BAD != 0 {
        recompute_posr_now(h);
    }
}

#[inline(never)]
fn recompute_posr_now(h: GeomRef) {
    let geom = g(h);
    if let (Some(b), Some(off)) = (geom.body, geom.offset.as_ref()) {
        let body = b.get();
        let p = mul0_331(&body.r, &off.pos);
        geom.own.pos = [p[0] + body.pos[0], p[1] + body.pos[1], p[2] + body.pos[2], geom.own.pos[3]];
        geom.own.r = mul0_333(&body.r, &off.r);
    }
    geom.gflags &= !gflags::POSR_BAD;
}

/// World position (padded) and rotation (3x4 padded), up to date: the
/// body's own when the geom follows it without an offset.
#[inline]
fn world_pose(h: GeomRef) -> (&'static [f64; 4], &'static [f64; 12]) {
    recompute_posr(h);
    let geom = g(h);
    match (geom.pose_is_body, geom.body) {
        (true, Some(b)) => {
            let body = b.get();
            (&body.pos, &body.r)
        }
        _ => (&geom.own.pos, &geom.own.r),
    }
}

/// World position (padded), up to date.
#[inline]
pub fn position(h: GeomRef) -> &'static [f64; 4] {
    world_pose(h).0
}

/// World rotation (padded 3x4), up to date.
#[inline]
pub fn rotation(h: GeomRef) -> &'static [f64; 12] {
    world_pose(h).1
}

/// A copy of the world pose (one refresh and look-up for both halves: the
/// narrow phase asks this of both geoms of every pair).
pub fn pose(h: GeomRef) -> Pose {
    let (pos, r) = world_pose(h);
    Pose { pos: *pos, r: *r }
}

pub fn quaternion(h: GeomRef) -> [f64; 4] {
    let geom = g(h);
    if let (Some(b), None) = (geom.body, geom.offset.as_ref()) {
        return b.get().q;
    }
    r_to_q(rotation(h))
}

/// Why a pose change was refused (the C layer names function/argument).
pub type Refusal = String;

/// `dGeomSetPosition`: a body geom moves its body (so that body + offset
/// lands at `p`); a free geom moves itself.
pub fn set_position(h: GeomRef, p: [f64; 3]) {
    let _ = set_position_checked(h, p);
}

/// `dGeomSetPosition`, refused when an offset geom would move its body to
/// a non-finite position (an offset beyond `error::HUGE_INPUT`, reported
/// when it was set, overflows `p - R·offset`): ODE stores that inf/NaN
/// body, we keep the body where it is.
pub fn set_position_checked(h: GeomRef, p: [f64; 3]) -> Result<(), Refusal> {
    let geom = g(h);
    match (geom.body, geom.offset.as_ref()) {
        (Some(b), Some(off)) => {
            let wo = mul0_331(&b.get().r, &off.pos);
            let bp = [p[0] - wo[0], p[1] - wo[1], p[2] - wo[2]];
            if !bp.iter().all(|v| v.is_finite()) {
                return Err(body_overflow(bp));
            }
            b.get_mut().set_position(bp);
        }
        (Some(b), None) => b.get_mut().set_position(p),
        _ => {
            geom.own.pos[..3].copy_from_slice(&p);
            moved(h);
        }
    }
    Ok(())
}

#[cold]
fn body_overflow(bp: [f64; 3]) -> Refusal {
    format!(
        "would move the geom's body to the non-finite position ({}, {}, {}) (its offset overflows); the body is left where it is",
        bp[0], bp[1], bp[2]
    )
}

/// Body pose that puts an offset geom at `final_` (ODE's getBodyPosr).
fn body_pose_for(off: &Pose, final_: &Pose) -> ([f64; 12], [f64; 3]) {
    let inv_off = transpose(&off.r);
    let br = mul0_333(&final_.r, &inv_off);
    let wo = mul0_331(&br, &off.pos);
    (br, [final_.pos[0] - wo[0], final_.pos[1] - wo[1], final_.pos[2] - wo[2]])
}

/// The 3x3 transpose of a padded matrix (pads kept, as ODE's swap-based
/// inversion does).
pub fn transpose(m: &[f64; 12]) -> [f64; 12] {
    let mut t = *m;
    t.swap(1, 4);
    t.swap(2, 8);
    t.swap(6, 9);
    t
}

/// `dGeomSetRotation`. A free geom takes `r` as given; a body geom sets
/// its body's rotation (orthogonalised as `dBodySetRotation` does), which
/// may be refused like that call.
pub fn set_rotation(h: GeomRef, r: &[f64; 12]) -> Result<(), Refusal> {
    let geom = g(h);
    match (geom.body, geom.offset) {
        (Some(b), Some(off)) => {
            let fin = Pose { pos: *position(h), r: *r };
            let (br, bp) = body_pose_for(&off, &fin);
            if !bp.iter().all(|v| v.is_finite()) {
                return Err(body_overflow(bp));
            }
            let rq = Body::prepare_rotation(&br).map_err(|e| e.0)?;
            b.get_mut().set_rotation_prepared(rq);
            b.get_mut().set_position(bp);
        }
        (Some(b), None) => {
            let rq = Body::prepare_rotation(r).map_err(|e| e.0)?;
            b.get_mut().set_rotation_prepared(rq);
        }
        _ => {
            geom.own.r = *r;
            moved(h);
        }
    }
    Ok(())
}

/// `dGeomSetQuaternion`. As in ODE, an offset geom first moves its body so
/// that the geom takes the rotation, and then the body also receives the
/// quaternion itself.
pub fn set_quaternion(h: GeomRef, q: &[f64; 4]) -> Result<(), Refusal> {
    let geom = g(h);
    match geom.body {
        Some(b) => {
            let body_q = Body::prepare_quaternion(q).map_err(|e| e.0)?;
            if let Some(off) = geom.offset {
                let fin = Pose { pos: *position(h), r: q_to_r(q) };
                let (br, bp) = body_pose_for(&off, &fin);
                if !bp.iter().all(|v| v.is_finite()) {
                    return Err(body_overflow(bp));
                }
                let rq = Body::prepare_rotation(&br).map_err(|e| e.0)?;
                b.get_mut().set_rotation_prepared(rq);
                b.get_mut().set_position(bp);
            }
            b.get_mut().set_rotation_prepared(body_q);
        }
        None => {
            geom.own.r = q_to_r(q);
            moved(h);
        }
    }
    Ok(())
}

// ---- body attachment ---------------------------------------------------------

fn body_add(h: GeomRef, b: BodyRef) {
    // Bodies reach their geoms only through these hooks (the dynamics layer
    // does not know geoms); registering is a no-op after the first time.
    crate::dynamics::body::register_geom_hooks(crate::dynamics::body::GeomHooks {
        moved: body_moved,
        destroyed: body_destroyed,
    });
    g(h).body = Some(b);
    b.get_mut().add_geom_front(h.as_raw());
}

fn body_remove(h: GeomRef) {
    if let Some(b) = g(h).body.take() {
        if b.is_live() {
            b.get_mut().remove_geom(h.as_raw());
        }
    }
}

/// `dGeomSetBody`. Attaching makes the geom share the body's pose (an
/// offset set for another body is dropped); detaching keeps the geom where
/// it was.
pub fn set_body(h: GeomRef, b: Option<BodyRef>) {
    let geom = g(h);
    match b {
        Some(b) => {
            if geom.body != Some(b) {
                geom.offset = None;
                geom.pose_is_body = true;
                geom.gflags &= !gflags::POSR_BAD;
                body_remove(h);
                body_add(h, b);
            }
            moved(h);
        }
        None => {
            if let Some(old) = geom.body {
                if geom.offset.is_some() {
                    recompute_posr(h);
                    geom.offset = None;
                } else {
                    let ob = old.get();
                    geom.own = Pose { pos: ob.pos, r: ob.r };
                }
                geom.pose_is_body = false;
                body_remove(h);
            }
        }
    }
}

/// Called when a body is destroyed (with its last pose): its geoms stay
/// where they are, free.
pub fn body_destroyed(geoms: &[*mut c_void], pos: &[f64; 4], r: &[f64; 12]) {
    for &raw in geoms {
        if let Some(h) = GEOMS.check(raw) {
            let geom = g(h);
            match geom.offset.take() {
                Some(off) => {
                    if geom.gflags & gflags::POSR_BAD != 0 {
                        let p = mul0_331(r, &off.pos);
                        geom.own.pos = [p[0] + pos[0], p[1] + pos[1], p[2] + pos[2], geom.own.pos[3]];
                        geom.own.r = mul0_333(r, &off.r);
                    }
                }
                None => geom.own = Pose { pos: *pos, r: *r },
            }
            geom.gflags &= !gflags::POSR_BAD;
            geom.pose_is_body = false;
            geom.body = None;
        }
    }
}

/// Called when a body moved (set position/rotation, step).
pub fn body_moved(geoms: &[*mut c_void]) {
    for &raw in geoms {
        if let Some(h) = GEOMS.check(raw) {
            moved(h);
        }
    }
}

/// Next geom in the body's list (`dBodyGetNextGeom`).
pub fn body_next(h: GeomRef) -> Option<GeomRef> {
    let b = g(h).body?;
    let list = b.get().geoms();
    let i = list.iter().position(|&x| x == h.as_raw())?;
    list.get(i + 1).and_then(|&r| GEOMS.check(r))
}

// ---- offsets --------------------------------------------------------------------

fn create_offset(h: GeomRef) {
    let geom = g(h);
    if geom.offset.is_none() {
        geom.offset = Some(Pose::IDENTITY);
        geom.pose_is_body = false;
        geom.gflags |= gflags::POSR_BAD;
    }
}

fn offset_mut(h: GeomRef) -> &'static mut Pose {
    create_offset(h);
    g(h).offset.as_mut().expect("offset just created")
}

pub fn set_offset_position(h: GeomRef, p: [f64; 3]) {
    offset_mut(h).pos[..3].copy_from_slice(&p);
    moved(h);
}

pub fn set_offset_rotation(h: GeomRef, r: &[f64; 12]) {
    offset_mut(h).r = *r;
    moved(h);
}

pub fn set_offset_quaternion(h: GeomRef, q: &[f64; 4]) {
    offset_mut(h).r = q_to_r(q);
    moved(h);
}

pub fn set_offset_world_position(h: GeomRef, p: [f64; 3]) {
    let b = g(h).body.expect("caller checked the body");
    let rel = b.get().pos_rel_point(p);
    offset_mut(h).pos[..3].copy_from_slice(&rel);
    moved(h);
}

/// Offset that puts the geom at world rotation `r` keeping its position
/// (ODE's getWorldOffsetPosr).
fn set_offset_world_r(h: GeomRef, r: [f64; 12]) {
    create_offset(h);
    let fin_pos = *position(h);
    let b = g(h).body.expect("caller checked the body").get();
    let inv_body = transpose(&b.r);
    let off = offset_mut(h);
    off.r = mul0_333(&inv_body, &r);
    let d = [fin_pos[0] - b.pos[0], fin_pos[1] - b.pos[1], fin_pos[2] - b.pos[2]];
    let p = mul0_331(&inv_body, &d);
    off.pos[..3].copy_from_slice(&p);
    moved(h);
}

pub fn set_offset_world_rotation(h: GeomRef, r: &[f64; 12]) {
    set_offset_world_r(h, *r);
}

pub fn set_offset_world_quaternion(h: GeomRef, q: &[f64; 4]) {
    set_offset_world_r(h, q_to_r(q));
}

pub fn clear_offset(h: GeomRef) {
    let geom = g(h);
    if geom.offset.is_some() {
        geom.offset = None;
        geom.pose_is_body = geom.body.is_some();
        geom.gflags &= !gflags::POSR_BAD;
        moved(h);
    }
}

/// Offset position (zero without offset; the pointer stays valid).
pub fn offset_position(h: GeomRef) -> &'static [f64; 4] {
    match g(h).offset.as_ref() {
        Some(o) => &o.pos,
        None => &ZERO4,
    }
}

pub fn offset_rotation(h: GeomRef) -> &'static [f64; 12] {
    match g(h).offset.as_ref() {
        Some(o) => &o.r,
        None => &IDENTITY,
    }
}

pub fn offset_quaternion(h: GeomRef) -> [f64; 4] {
    match g(h).offset.as_ref() {
        Some(o) => r_to_q(&o.r),
        None => [1.0, 0.0, 0.0, 0.0],
    }
}

// ---- frames -----------------------------------------------------------------------

/// Geom point to world (identity for non-placeable geoms).
pub fn rel_point_pos(h: GeomRef, p: [f64; 3]) -> [f64; 3] {
    if !g(h).is_placeable() {
        return p;
    }
    let (pos, r) = (position(h), rotation(h));
    let w = mul0_331(r, &p);
    [w[0] + pos[0], w[1] + pos[1], w[2] + pos[2]]
}

pub fn pos_rel_point(h: GeomRef, p: [f64; 3]) -> [f64; 3] {
    if !g(h).is_placeable() {
        return p;
    }
    let (pos, r) = (position(h), rotation(h));
    mul1_331(r, &[p[0] - pos[0], p[1] - pos[1], p[2] - pos[2]])
}

pub fn vector_to_world(h: GeomRef, v: [f64; 3]) -> [f64; 3] {
    if !g(h).is_placeable() {
        return v;
    }
    mul0_331(rotation(h), &v)
}

pub fn vector_from_world(h: GeomRef, v: [f64; 3]) -> [f64; 3] {
    if !g(h).is_placeable() {
        return v;
    }
    mul1_331(rotation(h), &v)
}

// ---- dirtiness and AABBs -------------------------------------------------------------

/// ODE's dGeomMoved: marks the geom and its ancestors dirty (AABB stale)
/// and lets each space that held a clean geom move it to its dirty set.
/// A geom whose space is locked (inside that space's collide) is reported
/// and only marked; the space sees the change at its next pass.
pub fn moved(h: GeomRef) {
    let geom = g(h);
    if geom.offset.is_some() {
        geom.gflags |= gflags::POSR_BAD;
    }
    // Clean geoms are handed to their spaces bottom-up until one that was
    // already dirty (whose ancestors then are dirty too) is reached.
    let mut handing = true;
    let mut cur = h;
    loop {
        let c = g(cur);
        let parent = c.parent;
        handing &= c.gflags & gflags::DIRTY == 0;
        c.gflags |= gflags::DIRTY | gflags::AABB_BAD;
        let Some(p) = parent else { break };
        (spaces().member_moved)(p, cur, handing);
        cur = p;
    }
}

/// Brings the cached AABB up to date.
#[inline]
pub fn recompute_aabb(h: GeomRef) {
    if g(h).gflags & gflags::AABB_BAD != 0 {
        recompute_posr(h);
        compute_aabb(h);
        g(h).gflags &= !gflags::AABB_BAD;
    }
}

/// Computes the AABB into `geom.aabb` (ODE's per-class formulas).
pub fn compute_aabb(h: GeomRef) {
    let geom = g(h);
    if let Some(p) = geom.parent {
        g(p).gflags |= gflags::MEMBER_AABB_SET;
    }
    // The common primitives read the pose where it lives (the body's or
    // the geom's own) instead of copying it, in a small function of their
    // own: a space's refresh runs this for every moved member each pass.
    // Same formulas, same bits.
    if let Shape::Sphere(_) | Shape::Box(_) | Shape::Capsule(_) | Shape::Cylinder(_) = geom.shape {
        recompute_posr(h);
        let (pos, r) = match (geom.pose_is_body, geom.body) {
            (true, Some(b)) => {
                let body = b.get();
                (&body.pos, &body.r)
            }
            _ => (&geom.own.pos, &geom.own.r),
        };
        geom.aabb = shape_aabb_at(&geom.shape, pos, r);
    } else {
        compute_other_aabb(h);
    }
}

/// `compute_aabb` of the other classes.
#[inline(never)]
fn compute_other_aabb(h: GeomRef) {
    let geom = g(h);
    let aabb = match &geom.shape {
        Shape::Space(_) => {
            (spaces().compute_aabb)(h);
            return;
        }
        Shape::Transform(_) => {
            transform_aabb(h);
            return;
        }
        Shape::User(_) => {
            (user_classes().compute_aabb)(h);
            return;
        }
        Shape::Plane(p) => plane_aabb(p),
        Shape::Heightfield(hf) => {
            let placeable = geom.is_placeable();
            let pose = if placeable { Some(pose(h)) } else { None };
            super::heightfield_data::geom_aabb(hf.data, pose.as_ref())
        }
        shape => {
            let p = pose(h);
            shape_aabb(shape, &p)
        }
    };
    g(h).aabb = aabb;
}

/// AABB of a placeable primitive shape at `p` (ODE's formulas).
pub fn shape_aabb(shape: &Shape, p: &Pose) -> [f64; 6] {
    match shape {
        Shape::Convex(c) => convex_aabb(c, p),
        Shape::TriMesh(t) => super::trimesh::geom_aabb(t, p),
        _ => shape_aabb_at(shape, &p.pos, &p.r),
    }
}

/// `shape_aabb` at position `pos` and rotation `r`.
#[inline(always)]
fn shape_aabb_at(shape: &Shape, pos: &[f64; 4], r: &[f64; 12]) -> [f64; 6] {
    let around =
        |xr: f64, yr: f64, zr: f64| [pos[0] - xr, pos[0] + xr, pos[1] - yr, pos[1] + yr, pos[2] - zr, pos[2] + zr];
    match shape {
        Shape::Sphere(s) => around(s.radius, s.radius, s.radius),
        Shape::Box(b) => {
            let s = &b.sides;
            let xr = 0.5 * ((r[0] * s[0]).abs() + (r[1] * s[1]).abs() + (r[2] * s[2]).abs());
            let yr = 0.5 * ((r[4] * s[0]).abs() + (r[5] * s[1]).abs() + (r[6] * s[2]).abs());
            let zr = 0.5 * ((r[8] * s[0]).abs() + (r[9] * s[1]).abs() + (r[10] * s[2]).abs());
            around(xr, yr, zr)
        }
        Shape::Capsule(c) => {
            let xr = (r[2] * c.length).abs() * 0.5 + c.radius;
            let yr = (r[6] * c.length).abs() * 0.5 + c.radius;
            let zr = (r[10] * c.length).abs() * 0.5 + c.radius;
            around(xr, yr, zr)
        }
        Shape::Cylinder(c) => {
            // Exact extent of the disc caps: radius · sqrt(1 - axis_k²).
            let ext = |z: f64| (1.0 - z * z).max(0.0).sqrt() * c.radius + 0.5 * (z * c.length).abs();
            around(ext(r[2]), ext(r[6]), ext(r[10]))
        }
        Shape::Ray(ray) => {
            // An infinite length (accepted as by ODE, with a warning) times
            // a zero direction component is NaN in ODE; the end then stays
            // at the start along that axis.
            let end = |k: usize, d: f64| if d == 0.0 && ray.length.is_infinite() { pos[k] } else { pos[k] + d * ray.length };
            let e = [end(0, r[2]), end(1, r[6]), end(2, r[10])];
            let mut a = [0.0; 6];
            for i in 0..3 {
                if pos[i] < e[i] {
                    a[2 * i] = pos[i];
                    a[2 * i + 1] = e[i];
                } else {
                    a[2 * i] = e[i];
                    a[2 * i + 1] = pos[i];
                }
            }
            a
        }
        Shape::Plane(pl) => plane_aabb(pl),
        _ => [0.0; 6],
    }
}

fn convex_aabb(c: &Convex, p: &Pose) -> [f64; 6] {
    if c.points.is_null() || c.point_count == 0 {
        return [0.0; 6];
    }
    let w = |i: usize| {
        let q = mul0_331(&p.r, &c.point(i));
        [q[0] + p.pos[0], q[1] + p.pos[1], q[2] + p.pos[2]]
    };
    let f = w(0);
    let mut a = [f[0], f[0], f[1], f[1], f[2], f[2]];
    // ODE's min/max macros: a > b ? b : a, and a > b ? a : b.
    let mn = |a: f64, b: f64| if a > b { b } else { a };
    let mx = |a: f64, b: f64| if a > b { a } else { b };
    for i in 1..c.point_count as usize {
        let q = w(i);
        for k in 0..3 {
            a[2 * k] = mn(a[2 * k], q[k]);
            a[2 * k + 1] = mx(a[2 * k + 1], q[k]);
        }
    }
    a
}

/// Planes are unbounded; one aligned with an axis bounds one side.
pub fn plane_aabb(p: &Plane) -> [f64; 6] {
    let inf = f64::INFINITY;
    let mut a = [-inf, inf, -inf, inf, -inf, inf];
    let (n, d) = (&p.n, p.d);
    if dequal(n[1], 0.0) && dequal(n[2], 0.0) {
        a[0] = if n[0] > 0.0 { -inf } else { -d };
        a[1] = if n[0] > 0.0 { d } else { inf };
    } else if dequal(n[0], 0.0) && dequal(n[2], 0.0) {
        a[2] = if n[1] > 0.0 { -inf } else { -d };
        a[3] = if n[1] > 0.0 { d } else { inf };
    } else if dequal(n[0], 0.0) && dequal(n[1], 0.0) {
        a[4] = if n[2] > 0.0 { -inf } else { -d };
        a[5] = if n[2] > 0.0 { d } else { inf };
    }
    a
}

/// The plane's parameters normalised as ODE stores them (a zero normal
/// becomes the plane x = 0).
pub fn normalized_plane(a: f64, b: f64, c: f64, d: f64) -> Plane {
    let l = a * a + b * b + c * c;
    if l > 0.0 {
        let k = 1.0 / l.sqrt();
        Plane { n: [a * k, b * k, c * k], d: d * k }
    } else {
        Plane { n: [1.0, 0.0, 0.0], d: 0.0 }
    }
}

// ---- point depths (ODE's formulas) --------------------------------------------------

pub fn sphere_point_depth(radius: f64, pos: &[f64; 4], p: [f64; 3]) -> f64 {
    radius
        - ((p[0] - pos[0]) * (p[0] - pos[0]) + (p[1] - pos[1]) * (p[1] - pos[1]) + (p[2] - pos[2]) * (p[2] - pos[2]))
            .sqrt()
}

pub fn box_point_depth(sides: &[f64; 3], pose: &Pose, p: [f64; 3]) -> f64 {
    let d = [p[0] - pose.pos[0], p[1] - pose.pos[1], p[2] - pose.pos[2]];
    let q = mul1_331(&pose.r, &d);
    let mut dist = [0.0; 6];
    let mut inside = true;
    for i in 0..3 {
        let side = sides[i] * 0.5;
        dist[i] = side - q[i];
        dist[i + 3] = side + q[i];
        if dist[i] < 0.0 || dist[i + 3] < 0.0 {
            inside = false;
        }
    }
    if inside {
        let mut smallest = u32::MAX as f64;
        for &v in &dist {
            if v < smallest {
                smallest = v;
            }
        }
        smallest
    } else {
        let mut largest = 0.0;
        for &v in &dist {
            if v > largest {
                largest = v;
            }
        }
        -largest
    }
}

pub fn capsule_point_depth(c: &Capsule, pose: &Pose, p: [f64; 3]) -> f64 {
    let (pos, r) = (&pose.pos, &pose.r);
    let a = [p[0] - pos[0], p[1] - pos[1], p[2] - pos[2]];
    let mut beta = a[0] * r[2] + a[1] * r[6] + a[2] * r[10];
    let lz2 = c.length * 0.5;
    if beta < -lz2 {
        beta = -lz2;
    } else if beta > lz2 {
        beta = lz2;
    }
    let q = [pos[0] + beta * r[2], pos[1] + beta * r[6], pos[2] + beta * r[10]];
    c.radius - ((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2])).sqrt()
}

pub fn plane_point_depth(pl: &Plane, p: [f64; 3]) -> f64 {
    pl.d - pl.n[0] * p[0] - pl.n[1] * p[1] - pl.n[2] * p[2]
}

// ---- class setters that dirty the geom --------------------------------------------------

/// Runs `f` on the shape, refreshes the degenerate flag and marks the geom
/// moved (every ODE shape setter ends with dGeomMoved).
pub fn edit_shape(h: GeomRef, f: impl FnOnce(&mut Shape)) {
    f(&mut g(h).shape);
    g(h).update_zero_sized();
    moved(h);
}

/// `dGeomRaySet`: start point and (normalised) direction, the ray's z axis.
pub fn ray_set(h: GeomRef, p: [f64; 3], d: [f64; 3]) {
    recompute_posr(h);
    let mut n = d;
    crate::math::vec::normalize3(&mut n);
    let geom = g(h);
    match (geom.pose_is_body, geom.body) {
        (true, Some(b)) => {
            // The ray shares its body's pose: ODE writes through it.
            let body = b.get_mut();
            body.pos[..3].copy_from_slice(&p);
            body.r[2] = n[0];
            body.r[6] = n[1];
            body.r[10] = n[2];
        }
        _ => {
            geom.own.pos[..3].copy_from_slice(&p);
            geom.own.r[2] = n[0];
            geom.own.r[6] = n[1];
            geom.own.r[10] = n[2];
        }
    }
    moved(h);
}

// ---- geom transforms --------------------------------------------------------------

/// A geom transform (`dCreateGeomTransform`): a placeable geom that carries
/// another geom (its child, in no space and on no body) at a pose relative
/// to itself. The child's world pose is composed when the transform's AABB
/// is computed or when it collides (`transform`); during that time the
/// child temporarily takes that pose and the transform's body, exactly as
/// ODE swaps them in.
pub struct Transform {
    pub obj: Option<GeomRef>,
    /// Destroy the child with the transform (the int given, echoed back).
    pub cleanup: i32,
    /// Report the transform instead of the child as g1 of contacts.
    pub info: i32,
    /// Cached world pose of the child (valid while the AABB is).
    pub tx: Pose,
}

impl Transform {
    pub fn new() -> Transform {
        Transform { obj: None, cleanup: 0, info: 0, tx: Pose::IDENTITY }
    }
}

impl Default for Transform {
    fn default() -> Self {
        Transform::new()
    }
}

/// The record of a geom known to be a transform.
pub fn transform_of(h: GeomRef) -> &'static mut Transform {
    match &mut g(h).shape {
        Shape::Transform(t) => t,
        _ => unreachable!("not a geom transform"),
    }
}

/// The live child of a transform, if any.
pub fn transform_child(h: GeomRef) -> Option<GeomRef> {
    transform_of(h).obj.filter(|c| c.is_live())
}

/// Composes the child's world pose from the transform's.
pub fn compute_final_tx(h: GeomRef) {
    let Some(c) = transform_child(h) else { return };
    let (cp, cr) = (*position(c), *rotation(c));
    let (tp, trr) = (*position(h), *rotation(h));
    let p = mul0_331(&trr, &cp);
    let t = transform_of(h);
    t.tx.pos = [p[0] + tp[0], p[1] + tp[1], p[2] + tp[2], t.tx.pos[3]];
    t.tx.r = mul0_333(&trr, &cr);
}

/// Runs `f` with the child placed at `pose` on `body`.
pub fn with_child_at<R>(c: GeomRef, pose: Pose, body: Option<BodyRef>, f: impl FnOnce() -> R) -> R {
    let cg = g(c);
    let saved = (cg.own, cg.pose_is_body, cg.body, cg.gflags & gflags::POSR_BAD);
    cg.own = pose;
    cg.pose_is_body = false;
    cg.body = body;
    cg.gflags &= !gflags::POSR_BAD;
    let r = f();
    if c.is_live() {
        let cg = g(c);
        cg.own = saved.0;
        cg.pose_is_body = saved.1;
        cg.body = saved.2;
        cg.gflags |= saved.3;
    }
    r
}

/// The transform's AABB: the child's at its composed pose (zero without
/// child). The child's cached AABB is overwritten too, as in ODE.
fn transform_aabb(h: GeomRef) {
    let Some(c) = transform_child(h) else {
        g(h).aabb = [0.0; 6];
        return;
    };
    compute_final_tx(h);
    let pose = transform_of(h).tx;
    let body = g(c).body;
    with_child_at(c, pose, body, || compute_aabb(c));
    g(h).aabb = g(c).aabb;
}

#[cfg(test)]
mod tests {
    use super::SpaceState;

    #[test]
    fn space_state_is_read_back_only_as_its_own_type() {
        let mut s = SpaceState::new(7u32);
        assert_eq!(s.get_mut::<u32>().copied(), Some(7));
        *s.get_mut::<u32>().unwrap() = 9;
        assert_eq!(s.get_mut::<u32>().copied(), Some(9));
        assert!(s.get_mut::<u64>().is_none());
        assert!(s.get_mut::<i32>().is_none());
    }
}
