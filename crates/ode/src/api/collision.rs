//! Collision: [`Space`] (simple, hash, sweep-and-prune, quadtree, and
//! spaces nested in them), [`Geom`] ids for the geom classes, and the two
//! ways to find contacts: [`Space::collide`] with a closure as ODE's near
//! callback, and [`collide`] for one pair.
//!
//! A `Space` owns the geoms and nested spaces created through it and
//! destroys them when dropped (ODE's cleanup mode). A [`Geom`] is a
//! copyable id: changing a geom takes `&mut Space` of the space tree it
//! lives in, reading takes `&Space`; an id of a destroyed geom gives
//! [`Error::Stale`], one of another space tree [`Error::WrongSpace`].
//! [`Space::collide`] borrows the space shared, so the geoms cannot be
//! changed from inside the callback (ODE's "space is locked" rule).
//!
//! ```
//! use ode::api::{collide, Mass, Space, SpaceKind, World};
//!
//! let mut world = World::new();
//! let mut space = Space::new(SpaceKind::Hash);
//! let ground = space.add_plane([0.0, 0.0, 1.0], 0.0).unwrap();
//! let ball = space.add_sphere(0.5).unwrap();
//! let body = world.create_body();
//! body.set_mass(&mut world, &Mass::sphere(1.0, 0.5).unwrap()).unwrap();
//! body.set_position(&mut world, [0.0, 0.0, 0.4]).unwrap();
//! space.set_body(ball, &world, Some(body)).unwrap();
//!
//! let mut pairs = Vec::new();
//! space.collide(|a, b| pairs.push((a, b))).unwrap();
//! assert_eq!(pairs.len(), 1);
//! let contacts = collide(ball, ground, 4).unwrap();
//! assert_eq!(contacts.len(), 1);
//! assert!((contacts[0].depth - 0.1).abs() < 1e-12);
//! ```

use super::convert::{mat3_from_ode, mat3_to_ode, quat_from_ode, quat_to_ode};
use super::{finite, finite3, Body, DMat3, DQuat, DVec3, Error, Result, World};
use crate::abi::contact::dContactGeom;
use crate::collision::dispatch;
use crate::collision::geom::{self as core_geom, class, g, GeomRef, Shape, GEOMS};
use crate::collision::shapes::{BoxShape, Capsule, Cylinder, Ray, Sphere};
use crate::collision::space::{self as core_space, hash::Hash, quadtree::QuadTree, sap::Sap, Kind};
use crate::dynamics::body::BODIES;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A zeroed contact record, to size buffers that colliders fill.
const EMPTY_CONTACT: dContactGeom = dContactGeom {
    pos: [0.0; 4],
    normal: [0.0; 4],
    depth: 0.0,
    g1: std::ptr::null_mut(),
    g2: std::ptr::null_mut(),
    side1: 0,
    side2: 0,
};

/// Which broad phase a space uses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SpaceKind {
    /// Every pair is tested (`dSimpleSpaceCreate`).
    Simple,
    /// A multi-resolution hash grid (`dHashSpaceCreate`).
    Hash,
    /// Sweep and prune along the axes in the given order
    /// (`dSweepAndPruneSpaceCreate`).
    SweepAndPrune(SapAxes),
    /// A quadtree over the given region (`dQuadTreeSpaceCreate`).
    QuadTree {
        /// Centre of the region.
        center: DVec3,
        /// Half-sizes of the region.
        extents: DVec3,
        /// Tree depth (0..=31).
        depth: i32,
    },
}

/// Axis order of a sweep-and-prune space (ODE's `dSAP_AXES_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SapAxes {
    /// x, y, z.
    Xyz,
    /// x, z, y.
    Xzy,
    /// y, x, z.
    Yxz,
    /// y, z, x.
    Yzx,
    /// z, x, y.
    Zxy,
    /// z, y, x.
    Zyx,
}

impl SapAxes {
    fn code(self) -> i32 {
        // ODE packs the order as three 2-bit axis indices.
        let (a, b, c) = match self {
            SapAxes::Xyz => (0, 1, 2),
            SapAxes::Xzy => (0, 2, 1),
            SapAxes::Yxz => (1, 0, 2),
            SapAxes::Yzx => (1, 2, 0),
            SapAxes::Zxy => (2, 0, 1),
            SapAxes::Zyx => (2, 1, 0),
        };
        a | (b << 2) | (c << 4)
    }
}

fn core_kind(kind: SpaceKind) -> Result<Kind> {
    Ok(match kind {
        SpaceKind::Simple => Kind::Simple,
        SpaceKind::Hash => Kind::Hash(Hash::new()),
        SpaceKind::SweepAndPrune(axes) => Kind::Sap(Sap::new(axes.code())),
        SpaceKind::QuadTree { center, extents, depth } => {
            let c = finite3("center", center)?;
            let e = finite3("extents", extents)?;
            if !(0..=core_space::quadtree::MAX_DEPTH).contains(&depth) {
                return Err(Error::InvalidArgument {
                    arg: "depth",
                    reason: format!("= {depth} (must be 0..={})", core_space::quadtree::MAX_DEPTH),
                });
            }
            let q = QuadTree::new(c, e, depth).ok_or_else(|| Error::InvalidArgument {
                arg: "depth",
                reason: format!("= {depth} (cannot allocate the tree)"),
            })?;
            Kind::QuadTree(q)
        }
    })
}

/// A geom (or a nested space) of some [`Space`]: a copyable id, checked on
/// every use. Ids compare equal exactly when they name the same geom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geom {
    h: GeomRef,
    serial: u64,
}

/// A space nested in a [`Space`] (it is also a geom of its parent).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SpaceId(Geom);

impl SpaceId {
    /// This space as a geom of its parent (e.g. for [`Space::set_category_bits`]).
    pub fn geom(self) -> Geom {
        self.0
    }
}

/// The class of a geom, as ODE numbers them (`dGeomGetClass`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GeomClass {
    /// `dSphereClass`.
    Sphere,
    /// `dBoxClass`.
    Box,
    /// `dCapsuleClass`.
    Capsule,
    /// `dCylinderClass`.
    Cylinder,
    /// `dPlaneClass` (not placeable).
    Plane,
    /// `dRayClass`.
    Ray,
    /// `dConvexClass`.
    Convex,
    /// `dGeomTransformClass`.
    Transform,
    /// `dTriMeshClass`.
    TriMesh,
    /// `dHeightfieldClass`.
    Heightfield,
    /// A space nested in another.
    Space,
    /// A user-defined class (`dCreateGeomClass`), by number.
    User(i32),
}

impl Geom {
    pub(super) fn of(h: GeomRef) -> Geom {
        Geom { h, serial: g(h).serial }
    }

    /// The live core geom, or `Stale`.
    fn live(&self) -> Result<GeomRef> {
        let h = GEOMS.check(self.h.as_raw()).ok_or(Error::Stale("geom"))?;
        if g(h).serial != self.serial {
            return Err(Error::Stale("geom"));
        }
        Ok(h)
    }

    /// The C handle (`dGeomID`), for mixing with C code.
    pub fn as_raw(&self) -> *mut core::ffi::c_void {
        self.h.as_raw()
    }

    /// Is the geom still alive?
    pub fn is_alive(&self) -> bool {
        self.live().is_ok()
    }
}

/// A tree of collision spaces and the geoms in it. Dropping it destroys
/// them all.
pub struct Space {
    root: GeomRef,
    /// Shape data the geoms reference (heightfields, meshes, hulls): kept
    /// alive until the geoms are gone.
    keep: Vec<std::sync::Arc<dyn std::any::Any>>,
    /// Geoms carried by a transform (out of any space), with the transform.
    carried: Vec<(GeomRef, GeomRef)>,
}

impl Drop for Space {
    fn drop(&mut self) {
        if self.root.is_live() {
            core_geom::destroy(self.root);
        }
    }
}

impl Space {
    /// A new top-level space.
    ///
    /// # Panics
    /// Never for `Simple`, `Hash` and `SweepAndPrune`; use
    /// [`Space::try_new`] for a quadtree with arguments from elsewhere.
    pub fn new(kind: SpaceKind) -> Space {
        Space::try_new(kind).expect("valid space arguments")
    }

    /// A new top-level space; quadtree arguments are checked.
    pub fn try_new(kind: SpaceKind) -> Result<Space> {
        Ok(Space { root: core_space::create(None, core_kind(kind)?), keep: Vec::new(), carried: Vec::new() })
    }

    /// The C handle (`dSpaceID`) of the top-level space.
    pub fn as_raw(&self) -> *mut core::ffi::c_void {
        self.root.as_raw()
    }

    /// The top-level space as a [`SpaceId`], to create geoms in it with
    /// the `*_in` calls or to collide it with [`Space::collide2`].
    pub fn root(&self) -> SpaceId {
        SpaceId(Geom::of(self.root))
    }

    /// Checks that `geom` is alive and in this space tree (directly, or
    /// carried by a transform that is).
    fn own(&self, geom: Geom) -> Result<GeomRef> {
        let h = geom.live()?;
        let mut at = Some(h);
        while let Some(x) = at {
            if x == self.root {
                return Ok(h);
            }
            at = match g(x).parent {
                Some(p) => Some(p),
                None => self.carried.iter().find(|(c, t)| *c == x && t.is_live()).map(|&(_, t)| t),
            };
        }
        Err(Error::WrongSpace)
    }

    pub(super) fn own_geom(&self, geom: Geom) -> Result<GeomRef> {
        self.own(geom)
    }

    pub(super) fn create_geom(&mut self, parent: SpaceId, placeable: bool, cls: i32, shape: Shape) -> Result<Geom> {
        let geom = self.create(parent, placeable, cls, shape)?;
        if let Shape::Transform(t) = &g(geom.h).shape {
            if let Some(c) = t.obj {
                self.carried.retain(|(_, t)| t.is_live());
                self.carried.push((c, geom.h));
            }
        }
        Ok(geom)
    }

    pub(super) fn keep(&mut self, data: std::sync::Arc<dyn std::any::Any>) {
        if !self.keep.iter().any(|k| std::sync::Arc::ptr_eq(k, &data)) {
            self.keep.push(data);
        }
    }

    fn own_space(&self, s: SpaceId) -> Result<GeomRef> {
        let h = self.own(s.0)?;
        if !g(h).is_space() {
            return Err(Error::InvalidArgument { arg: "space", reason: "is not a space".into() });
        }
        Ok(h)
    }

    fn placeable(&self, geom: Geom) -> Result<GeomRef> {
        let h = self.own(geom)?;
        if !g(h).is_placeable() {
            return Err(Error::InvalidArgument {
                arg: "geom",
                reason: format!("is not placeable (class {})", g(h).class),
            });
        }
        Ok(h)
    }

    fn create(&mut self, parent: SpaceId, placeable: bool, cls: i32, shape: Shape) -> Result<Geom> {
        let p = self.own_space(parent)?;
        Ok(Geom::of(core_geom::create(Some(p), placeable, cls, shape)))
    }

    // ---- spaces ------------------------------------------------------------

    /// Creates a space nested in `parent` (`dXxxSpaceCreate(parent)`).
    pub fn add_space_in(&mut self, parent: SpaceId, kind: SpaceKind) -> Result<SpaceId> {
        let p = self.own_space(parent)?;
        let k = core_kind(kind)?;
        Ok(SpaceId(Geom::of(core_space::create(Some(p), k))))
    }

    /// Creates a space nested in the top-level one.
    pub fn add_space(&mut self, kind: SpaceKind) -> Result<SpaceId> {
        self.add_space_in(self.root(), kind)
    }

    /// Moves `geom` (or a nested space) into `to` (`dSpaceRemove` then
    /// `dSpaceAdd`).
    pub fn move_to(&mut self, geom: Geom, to: SpaceId) -> Result<()> {
        let h = self.own(geom)?;
        let s = self.own_space(to)?;
        if h == self.root {
            return Err(Error::InvalidArgument { arg: "geom", reason: "is the top-level space".into() });
        }
        let mut anc = Some(s);
        while let Some(a) = anc {
            if a == h {
                return Err(Error::InvalidArgument { arg: "to", reason: "is inside the geom (a cycle)".into() });
            }
            anc = g(a).parent;
        }
        if let Some(p) = g(h).parent {
            core_space::remove(p, h);
        }
        core_space::add(s, h);
        Ok(())
    }

    /// Number of geoms directly in `space`.
    pub fn num_geoms(&self, space: SpaceId) -> Result<usize> {
        let s = self.own_space(space)?;
        Ok(core_space::sp(s).count as usize)
    }

    /// Is `geom` directly in `space` (`dSpaceQuery`)?
    pub fn contains(&self, space: SpaceId, geom: Geom) -> Result<bool> {
        let s = self.own_space(space)?;
        let h = self.own(geom)?;
        Ok(g(h).parent == Some(s))
    }

    /// The geoms directly in `space`, in ODE's order (`dSpaceGetGeom`).
    pub fn geoms(&self, space: SpaceId) -> Result<Vec<Geom>> {
        let s = self.own_space(space)?;
        let mut v = Vec::new();
        core_space::for_each_child(s, &mut |c| v.push(Geom::of(c)));
        Ok(v)
    }

    /// Destroys a geom, or a nested space with its contents.
    pub fn destroy(&mut self, geom: Geom) -> Result<()> {
        let h = self.own(geom)?;
        if h == self.root {
            return Err(Error::InvalidArgument {
                arg: "geom",
                reason: "is the top-level space (drop the Space)".into(),
            });
        }
        core_geom::destroy(h);
        Ok(())
    }

    // ---- geom classes ------------------------------------------------------

    /// A sphere in the top-level space (`dCreateSphere`).
    pub fn add_sphere(&mut self, radius: f64) -> Result<Geom> {
        self.add_sphere_in(self.root(), radius)
    }

    /// A sphere in `space`.
    pub fn add_sphere_in(&mut self, space: SpaceId, radius: f64) -> Result<Geom> {
        let radius = size("radius", radius)?;
        self.create(space, true, class::SPHERE, Shape::Sphere(Sphere { radius }))
    }

    /// A box with the given side lengths in the top-level space (`dCreateBox`).
    pub fn add_box(&mut self, lx: f64, ly: f64, lz: f64) -> Result<Geom> {
        self.add_box_in(self.root(), lx, ly, lz)
    }

    /// A box in `space`.
    pub fn add_box_in(&mut self, space: SpaceId, lx: f64, ly: f64, lz: f64) -> Result<Geom> {
        let sides = [size("lx", lx)?, size("ly", ly)?, size("lz", lz)?];
        self.create(space, true, class::BOX, Shape::Box(BoxShape { sides }))
    }

    /// A capsule along its local z axis in the top-level space (`dCreateCapsule`).
    pub fn add_capsule(&mut self, radius: f64, length: f64) -> Result<Geom> {
        self.add_capsule_in(self.root(), radius, length)
    }

    /// A capsule in `space`.
    pub fn add_capsule_in(&mut self, space: SpaceId, radius: f64, length: f64) -> Result<Geom> {
        let (radius, length) = (size("radius", radius)?, size("length", length)?);
        self.create(space, true, class::CAPSULE, Shape::Capsule(Capsule { radius, length }))
    }

    /// A flat-ended cylinder along its local z axis in the top-level space
    /// (`dCreateCylinder`).
    pub fn add_cylinder(&mut self, radius: f64, length: f64) -> Result<Geom> {
        self.add_cylinder_in(self.root(), radius, length)
    }

    /// A cylinder in `space`.
    pub fn add_cylinder_in(&mut self, space: SpaceId, radius: f64, length: f64) -> Result<Geom> {
        let (radius, length) = (size("radius", radius)?, size("length", length)?);
        self.create(space, true, class::CYLINDER, Shape::Cylinder(Cylinder { radius, length }))
    }

    /// The plane `normal · p = d` in the top-level space (`dCreatePlane`;
    /// the normal is normalised as ODE does). Planes are not placeable.
    pub fn add_plane(&mut self, normal: impl Into<DVec3>, d: f64) -> Result<Geom> {
        self.add_plane_in(self.root(), normal, d)
    }

    /// A plane in `space`.
    pub fn add_plane_in(&mut self, space: SpaceId, normal: impl Into<DVec3>, d: f64) -> Result<Geom> {
        let n = finite3("normal", normal)?;
        let d = finite("d", d)?;
        let p = core_geom::normalized_plane(n[0], n[1], n[2], d);
        self.create(space, false, class::PLANE, Shape::Plane(p))
    }

    /// A ray of the given length, from the origin along +z until placed
    /// (`dCreateRay`).
    pub fn add_ray(&mut self, length: f64) -> Result<Geom> {
        self.add_ray_in(self.root(), length)
    }

    /// A ray in `space`.
    pub fn add_ray_in(&mut self, space: SpaceId, length: f64) -> Result<Geom> {
        let length = size("length", length)?;
        self.create(space, true, class::RAY, Shape::Ray(Ray { length, flags: 0 }))
    }

    // ---- shape parameters -------------------------------------------------------

    /// The geom's class.
    pub fn class(&self, geom: Geom) -> Result<GeomClass> {
        Ok(class_of(g(self.own(geom)?).class))
    }

    /// A sphere's radius.
    pub fn sphere_radius(&self, geom: Geom) -> Result<f64> {
        match &g(self.own(geom)?).shape {
            Shape::Sphere(s) => Ok(s.radius),
            _ => Err(not_a("sphere")),
        }
    }

    /// Sets a sphere's radius.
    pub fn set_sphere_radius(&mut self, geom: Geom, radius: f64) -> Result<()> {
        let h = self.own(geom)?;
        let radius = size("radius", radius)?;
        if !matches!(g(h).shape, Shape::Sphere(_)) {
            return Err(not_a("sphere"));
        }
        core_geom::edit_shape(h, |s| {
            if let Shape::Sphere(s) = s {
                s.radius = radius;
            }
        });
        Ok(())
    }

    /// A box's side lengths.
    pub fn box_lengths(&self, geom: Geom) -> Result<DVec3> {
        match &g(self.own(geom)?).shape {
            Shape::Box(b) => Ok(DVec3::from(b.sides)),
            _ => Err(not_a("box")),
        }
    }

    /// Sets a box's side lengths.
    pub fn set_box_lengths(&mut self, geom: Geom, lengths: impl Into<DVec3>) -> Result<()> {
        let h = self.own(geom)?;
        let l = lengths.into();
        let sides = [size("lx", l.x)?, size("ly", l.y)?, size("lz", l.z)?];
        if !matches!(g(h).shape, Shape::Box(_)) {
            return Err(not_a("box"));
        }
        core_geom::edit_shape(h, |s| {
            if let Shape::Box(b) = s {
                b.sides = sides;
            }
        });
        Ok(())
    }

    /// A capsule's or cylinder's (radius, length).
    pub fn radius_length(&self, geom: Geom) -> Result<(f64, f64)> {
        match &g(self.own(geom)?).shape {
            Shape::Capsule(c) => Ok((c.radius, c.length)),
            Shape::Cylinder(c) => Ok((c.radius, c.length)),
            _ => Err(not_a("capsule or cylinder")),
        }
    }

    /// Sets a capsule's or cylinder's radius and length.
    pub fn set_radius_length(&mut self, geom: Geom, radius: f64, length: f64) -> Result<()> {
        let h = self.own(geom)?;
        let (r, l) = (size("radius", radius)?, size("length", length)?);
        if !matches!(g(h).shape, Shape::Capsule(_) | Shape::Cylinder(_)) {
            return Err(not_a("capsule or cylinder"));
        }
        core_geom::edit_shape(h, |s| match s {
            Shape::Capsule(c) => (c.radius, c.length) = (r, l),
            Shape::Cylinder(c) => (c.radius, c.length) = (r, l),
            _ => {}
        });
        Ok(())
    }

    /// A plane's (unit normal, d).
    pub fn plane_params(&self, geom: Geom) -> Result<(DVec3, f64)> {
        match &g(self.own(geom)?).shape {
            Shape::Plane(p) => Ok((DVec3::from(p.n), p.d)),
            _ => Err(not_a("plane")),
        }
    }

    /// Sets a ray's start and direction (`dGeomRaySet`).
    pub fn set_ray(&mut self, geom: Geom, start: impl Into<DVec3>, dir: impl Into<DVec3>) -> Result<()> {
        let h = self.own(geom)?;
        let (p, d) = (finite3("start", start)?, finite3("dir", dir)?);
        if !matches!(g(h).shape, Shape::Ray(_)) {
            return Err(not_a("ray"));
        }
        core_geom::ray_set(h, p, d);
        Ok(())
    }

    /// Casts a ray from `start` along `dir` (need not be unit) for
    /// `length` against every geom of the space tree, and returns the hits
    /// nearest first (one per geom and sub-part, at most `max_per_geom` per
    /// geom). It uses a temporary ray geom out of any space, so it works
    /// like adding a ray with [`Space::add_ray`] and colliding it, without
    /// changing the space.
    ///
    /// ```
    /// use ode::api::{Space, SpaceKind};
    ///
    /// let mut space = Space::new(SpaceKind::Simple);
    /// let ground = space.add_plane([0.0, 0.0, 1.0], 0.0).unwrap();
    /// let ball = space.add_sphere(1.0).unwrap();
    /// space.set_position(ball, [0.0, 0.0, 5.0]).unwrap();
    /// let hits = space.cast_ray([0.0, 0.0, 10.0], [0.0, 0.0, -1.0], 100.0, 1).unwrap();
    /// assert_eq!(hits.len(), 2);
    /// assert_eq!((hits[0].geom, hits[0].distance), (ball, 4.0));
    /// assert_eq!((hits[1].geom, hits[1].distance), (ground, 10.0));
    /// ```
    pub fn cast_ray(
        &self,
        start: impl Into<DVec3>,
        dir: impl Into<DVec3>,
        length: f64,
        max_per_geom: usize,
    ) -> Result<Vec<RayHit>> {
        let (p, d) = (finite3("start", start)?, finite3("dir", dir)?);
        if DVec3::from(d).length_squared() == 0.0 {
            return Err(Error::InvalidArgument { arg: "dir", reason: "is zero".into() });
        }
        let length = size("length", length)?;
        if !(1..=MAX_CONTACTS).contains(&max_per_geom) {
            return Err(Error::InvalidArgument {
                arg: "max_per_geom",
                reason: format!("= {max_per_geom} (must be 1..={MAX_CONTACTS})"),
            });
        }
        let ray = core_geom::create(None, true, class::RAY, Shape::Ray(Ray { length, flags: 0 }));
        core_geom::ray_set(ray, p, d);
        let mut hits = Vec::new();
        let mut buf = Vec::new();
        let zero = EMPTY_CONTACT;
        super::callback_panic::clear_panic();
        core_space::collide2(ray, self.root, &mut |a, b| {
            let other = if a == ray { b } else { a };
            buf.clear();
            buf.resize(max_per_geom, zero);
            let n = dispatch::collide(ray, other, max_per_geom as i32, &mut buf[..]);
            for c in &buf[..n] {
                // Pairs with nested spaces report the inner geoms.
                let ray_second = std::ptr::eq(c.g2, ray.as_raw());
                let (hit, side) = if ray_second { (c.g1, c.side1) } else { (c.g2, c.side2) };
                let geom = GEOMS.check(hit).map_or(Geom::of(other), Geom::of);
                hits.push(RayHit {
                    geom,
                    pos: DVec3::new(c.pos[0], c.pos[1], c.pos[2]),
                    normal: DVec3::new(c.normal[0], c.normal[1], c.normal[2]),
                    distance: c.depth,
                    side,
                });
            }
        });
        core_geom::destroy(ray);
        super::callback_panic::take_panic()?;
        hits.sort_by(|a, b| a.distance.total_cmp(&b.distance));
        Ok(hits)
    }

    /// Ray options (`dGeomRaySetFirstContact`, `...BackfaceCull`,
    /// `...ClosestHit`): stop at the first hit found, ignore triangles seen
    /// from behind, report only the closest hit.
    pub fn set_ray_options(
        &mut self,
        geom: Geom,
        first_contact: bool,
        backface_cull: bool,
        closest_hit: bool,
    ) -> Result<()> {
        let h = self.own(geom)?;
        match &mut g(h).shape {
            Shape::Ray(r) => {
                use crate::collision::shapes::ray_flags as f;
                r.flags &= !(f::FIRST_CONTACT | f::BACKFACE_CULL | f::CLOSEST_HIT);
                for (on, bit) in [
                    (first_contact, f::FIRST_CONTACT),
                    (backface_cull, f::BACKFACE_CULL),
                    (closest_hit, f::CLOSEST_HIT),
                ] {
                    if on {
                        r.flags |= bit;
                    }
                }
                Ok(())
            }
            _ => Err(not_a("ray")),
        }
    }

    /// Depth of a world point inside a sphere, box, capsule, cylinder or
    /// plane (negative outside; `dGeomXxxPointDepth`; ODE has none for
    /// cylinders: ours is the signed distance to the nearest surface).
    pub fn point_depth(&self, geom: Geom, p: impl Into<DVec3>) -> Result<f64> {
        let h = self.own(geom)?;
        let p = finite3("point", p)?;
        point_depth_of(h, p).ok_or_else(|| not_a("sphere, box, capsule, cylinder or plane"))
    }

    // ---- pose and body ---------------------------------------------------------

    /// Attaches a placeable geom to a body of `world` (None detaches it);
    /// the geom then follows the body.
    pub fn set_body(&mut self, geom: Geom, world: &World, body: Option<Body>) -> Result<()> {
        let h = match body {
            Some(_) => self.placeable(geom)?,
            None => self.own(geom)?,
        };
        let b = match body {
            Some(b) => {
                b.resolve(world)?;
                Some(BODIES.check(b.as_raw()).ok_or(Error::StaleBody)?)
            }
            None => None,
        };
        core_geom::set_body(h, b);
        Ok(())
    }

    /// The body the geom is attached to, if any; it must be of `world`.
    pub fn body(&self, geom: Geom, world: &World) -> Result<Option<Body>> {
        match g(self.own(geom)?).body {
            None => Ok(None),
            Some(b) => {
                let body = Body::from_ref(b);
                body.resolve(world)?;
                Ok(Some(body))
            }
        }
    }

    /// World position (the body's, plus the offset, if attached).
    pub fn position(&self, geom: Geom) -> Result<DVec3> {
        let h = self.placeable(geom)?;
        let p = core_geom::position(h);
        Ok(DVec3::new(p[0], p[1], p[2]))
    }

    /// Sets the world position (moves the body if attached).
    pub fn set_position(&mut self, geom: Geom, p: impl Into<DVec3>) -> Result<()> {
        let h = self.placeable(geom)?;
        core_geom::set_position(h, finite3("position", p)?);
        Ok(())
    }

    /// World orientation.
    pub fn rotation(&self, geom: Geom) -> Result<DMat3> {
        let h = self.placeable(geom)?;
        Ok(mat3_from_ode(core_geom::rotation(h)))
    }

    /// Sets the world orientation (re-orthogonalised as ODE does).
    pub fn set_rotation(&mut self, geom: Geom, r: &DMat3) -> Result<()> {
        let h = self.placeable(geom)?;
        let m = finite_mat("R", r)?;
        core_geom::set_rotation(h, &m).map_err(|reason| Error::InvalidArgument { arg: "R", reason })
    }

    /// World orientation as a quaternion.
    pub fn quaternion(&self, geom: Geom) -> Result<DQuat> {
        let h = self.placeable(geom)?;
        Ok(quat_from_ode(&core_geom::quaternion(h)))
    }

    /// Sets the world orientation from a quaternion.
    pub fn set_quaternion(&mut self, geom: Geom, q: DQuat) -> Result<()> {
        let h = self.placeable(geom)?;
        let q = quat_to_ode(q);
        core_geom::set_quaternion(h, &q).map_err(|reason| Error::InvalidArgument { arg: "q", reason })
    }

    /// Axis-aligned bounding box as (min, max).
    pub fn aabb(&self, geom: Geom) -> Result<(DVec3, DVec3)> {
        let h = self.own(geom)?;
        super::callback_panic::clear_panic();
        core_geom::recompute_aabb(h);
        super::callback_panic::take_panic()?;
        let a = g(h).aabb;
        Ok((DVec3::new(a[0], a[2], a[4]), DVec3::new(a[1], a[3], a[5])))
    }

    // ---- offsets ------------------------------------------------------------------

    fn on_body(&self, geom: Geom) -> Result<GeomRef> {
        let h = self.placeable(geom)?;
        if g(h).body.is_none() {
            return Err(Error::InvalidArgument {
                arg: "geom",
                reason: "has no body (an offset is relative to it)".into(),
            });
        }
        Ok(h)
    }

    /// Sets the position relative to the body (`dGeomSetOffsetPosition`).
    pub fn set_offset_position(&mut self, geom: Geom, p: impl Into<DVec3>) -> Result<()> {
        let h = self.on_body(geom)?;
        core_geom::set_offset_position(h, finite3("position", p)?);
        Ok(())
    }

    /// Sets the orientation relative to the body (`dGeomSetOffsetRotation`).
    pub fn set_offset_rotation(&mut self, geom: Geom, r: &DMat3) -> Result<()> {
        let h = self.on_body(geom)?;
        core_geom::set_offset_rotation(h, &finite_mat("R", r)?);
        Ok(())
    }

    /// Sets the orientation relative to the body from a quaternion.
    pub fn set_offset_quaternion(&mut self, geom: Geom, q: DQuat) -> Result<()> {
        let h = self.on_body(geom)?;
        let q = quat_to_ode(q);
        if q.iter().any(|v| !v.is_finite()) {
            return Err(Error::InvalidArgument { arg: "q", reason: "is not finite".into() });
        }
        core_geom::set_offset_quaternion(h, &q);
        Ok(())
    }

    /// Places the geom at a world position, keeping the body where it is.
    pub fn set_offset_world_position(&mut self, geom: Geom, p: impl Into<DVec3>) -> Result<()> {
        let h = self.on_body(geom)?;
        core_geom::set_offset_world_position(h, finite3("position", p)?);
        Ok(())
    }

    /// Removes the offset: the geom takes the body's pose.
    pub fn clear_offset(&mut self, geom: Geom) -> Result<()> {
        let h = self.on_body(geom)?;
        core_geom::clear_offset(h);
        Ok(())
    }

    /// Offset position relative to the body (zero without offset).
    pub fn offset_position(&self, geom: Geom) -> Result<DVec3> {
        let h = self.placeable(geom)?;
        let p = core_geom::offset_position(h);
        Ok(DVec3::new(p[0], p[1], p[2]))
    }

    /// Offset orientation relative to the body (identity without offset).
    pub fn offset_rotation(&self, geom: Geom) -> Result<DMat3> {
        let h = self.placeable(geom)?;
        Ok(mat3_from_ode(core_geom::offset_rotation(h)))
    }

    // ---- bits and enable --------------------------------------------------------

    /// Category bits (what the geom is).
    pub fn category_bits(&self, geom: Geom) -> Result<u64> {
        Ok(g(self.own(geom)?).category_bits)
    }

    /// Sets the category bits. Two geoms are tested only if one's category
    /// bits meet the other's collide bits.
    pub fn set_category_bits(&mut self, geom: Geom, bits: u64) -> Result<()> {
        g(self.own(geom)?).category_bits = bits;
        Ok(())
    }

    /// Collide bits (what the geom collides with).
    pub fn collide_bits(&self, geom: Geom) -> Result<u64> {
        Ok(g(self.own(geom)?).collide_bits)
    }

    /// Sets the collide bits.
    pub fn set_collide_bits(&mut self, geom: Geom, bits: u64) -> Result<()> {
        g(self.own(geom)?).collide_bits = bits;
        Ok(())
    }

    /// Is the geom enabled (taking part in space collisions)?
    pub fn is_enabled(&self, geom: Geom) -> Result<bool> {
        Ok(g(self.own(geom)?).is_enabled())
    }

    /// Enables or disables the geom (`dGeomEnable` / `dGeomDisable`).
    pub fn set_enabled(&mut self, geom: Geom, on: bool) -> Result<()> {
        let h = self.own(geom)?;
        let f = &mut g(h).gflags;
        if on {
            *f |= core_geom::gflags::ENABLED;
        } else {
            *f &= !core_geom::gflags::ENABLED;
        }
        Ok(())
    }

    // ---- collision ----------------------------------------------------------------

    /// Calls `near(a, b)` for every pair of geoms in the top-level space
    /// whose bounding boxes overlap and whose bits match (`dSpaceCollide`).
    /// Nested spaces come as geoms: collide them with [`Space::collide2`]
    /// or [`Space::collide_in`] from the closure if wanted.
    ///
    /// A panic in `near` is caught: the remaining pairs are skipped and
    /// [`Error::CallbackPanicked`] is returned.
    pub fn collide(&self, near: impl FnMut(Geom, Geom)) -> Result<()> {
        self.collide_in(self.root(), near)
    }

    /// [`Space::collide`] for a nested space.
    pub fn collide_in(&self, space: SpaceId, near: impl FnMut(Geom, Geom)) -> Result<()> {
        let s = self.own_space(space)?;
        guarded(near, |cb| core_space::collide(s, cb))
    }

    /// Calls `near` for the pairs between `a` and `b`: a geom against the
    /// geoms of a space, or two spaces against each other (`dSpaceCollide2`).
    pub fn collide2(&self, a: Geom, b: Geom, near: impl FnMut(Geom, Geom)) -> Result<()> {
        let (x, y) = (self.own(a)?, self.own(b)?);
        guarded(near, |cb| core_space::collide2(x, y, cb))
    }
}

/// Runs a core collide with `near` as the callback, stopping the calls at
/// the first panic and reporting it instead of unwinding through the core.
fn guarded(mut near: impl FnMut(Geom, Geom), run: impl FnOnce(&mut core_space::Near<'_>)) -> Result<()> {
    let mut panicked: Option<String> = None;
    super::callback_panic::clear_panic();
    let mut cb = |a: GeomRef, b: GeomRef| {
        if panicked.is_some() {
            return;
        }
        let (ga, gb) = (Geom::of(a), Geom::of(b));
        if let Err(p) = catch_unwind(AssertUnwindSafe(|| near(ga, gb))) {
            panicked = Some(super::callback_panic::panic_message(&p));
        }
    };
    run(&mut cb);
    match panicked {
        Some(msg) => Err(Error::CallbackPanicked(msg)),
        None => super::callback_panic::take_panic(),
    }
}

/// One contact point found by [`collide`] (ODE's `dContactGeom`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactGeom {
    /// Contact position in world coordinates.
    pub pos: DVec3,
    /// Unit normal, pointing from `g2` into `g1` (the direction to push g1).
    pub normal: DVec3,
    /// Penetration depth (>= 0).
    pub depth: f64,
    /// The first geom of the pair.
    pub g1: Geom,
    /// The second geom of the pair.
    pub g2: Geom,
    /// Sub-part of `g1` (triangle index for trimeshes, else 0 or -1).
    pub side1: i32,
    /// Sub-part of `g2`.
    pub side2: i32,
}

impl ContactGeom {
    pub(super) fn to_raw(self) -> dContactGeom {
        dContactGeom {
            pos: [self.pos.x, self.pos.y, self.pos.z, 0.0],
            normal: [self.normal.x, self.normal.y, self.normal.z, 0.0],
            depth: self.depth,
            g1: self.g1.as_raw() as _,
            g2: self.g2.as_raw() as _,
            side1: self.side1,
            side2: self.side2,
        }
    }

    fn from_raw(c: &dContactGeom, a: Geom, b: Geom) -> ContactGeom {
        let id = |raw: *mut core::ffi::c_void| match raw {
            r if r == a.as_raw() => a,
            r if r == b.as_raw() => b,
            // Pairs involving a space report the inner geoms.
            r => GEOMS.check(r).map(Geom::of).unwrap_or(a),
        };
        ContactGeom {
            pos: DVec3::new(c.pos[0], c.pos[1], c.pos[2]),
            normal: DVec3::new(c.normal[0], c.normal[1], c.normal[2]),
            depth: c.depth,
            g1: id(c.g1 as _),
            g2: id(c.g2 as _),
            side1: c.side1,
            side2: c.side2,
        }
    }
}

/// Where a ray cast by [`Space::cast_ray`] hits a geom.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The geom hit.
    pub geom: Geom,
    /// The hit point in world coordinates.
    pub pos: DVec3,
    /// The surface normal at the hit (pointing against the ray for a hit
    /// from outside).
    pub normal: DVec3,
    /// Distance from the ray's start.
    pub distance: f64,
    /// Sub-part hit (triangle index for trimeshes, else 0 or -1).
    pub side: i32,
}

/// Most contacts one [`collide`] call can report (ODE's 16-bit count).
pub const MAX_CONTACTS: usize = 0xffff;

/// Contacts between two geoms, at most `max` (`dCollide`); the geoms may be
/// in any space tree. Allocates the result; [`collide_into`] reuses a buffer.
pub fn collide(a: Geom, b: Geom, max: usize) -> Result<Vec<ContactGeom>> {
    let mut out = Vec::with_capacity(max.min(64));
    collide_into(a, b, max, &mut out)?;
    Ok(out)
}

/// [`collide`] into `out` (cleared first), allocating nothing once `out`
/// and the internal scratch have grown to `max`.
pub fn collide_into(a: Geom, b: Geom, max: usize, out: &mut Vec<ContactGeom>) -> Result<()> {
    let (x, y) = (a.live()?, b.live()?);
    if !(1..=MAX_CONTACTS).contains(&max) {
        return Err(Error::InvalidArgument { arg: "max", reason: format!("= {max} (must be 1..={MAX_CONTACTS})") });
    }
    out.clear();
    super::callback_panic::clear_panic();
    thread_local! {
        static SCRATCH: std::cell::RefCell<Vec<dContactGeom>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    SCRATCH.with(|s| {
        // A Rust geom class (`UserGeom`) may call `collide` from its
        // collider: that nested call gets its own buffer.
        let mut nested = Vec::new();
        let mut shared = s.try_borrow_mut();
        let buf = match &mut shared {
            Ok(b) => &mut **b,
            Err(_) => &mut nested,
        };
        let zero = EMPTY_CONTACT;
        if buf.len() < max {
            buf.resize(max, zero);
        }
        let n = dispatch::collide(x, y, max as i32, &mut buf[..max]);
        out.extend(buf[..n].iter().map(|c| ContactGeom::from_raw(c, a, b)));
    });
    super::callback_panic::take_panic()
}

/// The API's name for a core class number.
pub(super) fn class_of(c: i32) -> GeomClass {
    match c {
        class::SPHERE => GeomClass::Sphere,
        class::BOX => GeomClass::Box,
        class::CAPSULE => GeomClass::Capsule,
        class::CYLINDER => GeomClass::Cylinder,
        class::PLANE => GeomClass::Plane,
        class::RAY => GeomClass::Ray,
        class::CONVEX => GeomClass::Convex,
        class::TRANSFORM => GeomClass::Transform,
        class::TRIMESH => GeomClass::TriMesh,
        class::HEIGHTFIELD => GeomClass::Heightfield,
        c if (class::FIRST_SPACE..=class::LAST_SPACE).contains(&c) => GeomClass::Space,
        c => GeomClass::User(c),
    }
}

/// Depth of world point `p` inside a sphere, box, capsule, cylinder or
/// plane (negative outside); None for other classes. ODE has no cylinder
/// point depth: ours is the distance to the nearest surface, signed the
/// same way.
pub(super) fn point_depth_of(h: GeomRef, p: [f64; 3]) -> Option<f64> {
    Some(match &g(h).shape {
        Shape::Sphere(s) => core_geom::sphere_point_depth(s.radius, core_geom::position(h), p),
        Shape::Box(b) => core_geom::box_point_depth(&b.sides, &core_geom::pose(h), p),
        Shape::Capsule(c) => core_geom::capsule_point_depth(c, &core_geom::pose(h), p),
        Shape::Plane(pl) => core_geom::plane_point_depth(pl, p),
        Shape::Cylinder(c) => {
            let pos = core_geom::position(h);
            let local = mat3_from_ode(core_geom::rotation(h)).transpose()
                * (DVec3::from(p) - DVec3::new(pos[0], pos[1], pos[2]));
            let out_r = local.truncate().length() - c.radius; // > 0: outside the side
            let out_z = local.z.abs() - c.length / 2.0; // > 0: beyond a cap
            if out_r <= 0.0 && out_z <= 0.0 {
                -out_r.max(out_z)
            } else {
                -(out_r.max(0.0).hypot(out_z.max(0.0)))
            }
        }
        _ => return None,
    })
}

fn size(name: &'static str, v: f64) -> Result<f64> {
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(Error::InvalidArgument { arg: name, reason: format!("= {v} (must be finite and >= 0)") })
    }
}

fn finite_mat(name: &'static str, r: &DMat3) -> Result<[f64; 12]> {
    let m = mat3_to_ode(r);
    if m.iter().any(|v| !v.is_finite()) {
        return Err(Error::InvalidArgument { arg: name, reason: "is not finite".into() });
    }
    Ok(m)
}

fn not_a(what: &str) -> Error {
    Error::InvalidArgument { arg: "geom", reason: format!("is not a {what}") }
}
