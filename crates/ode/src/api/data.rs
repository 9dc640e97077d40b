//! Shape data shared by geoms: [`HeightfieldData`], [`TriMeshData`] and
//! [`ConvexData`], plus the geoms built on them and geom transforms.
//!
//! ODE references the host's arrays instead of copying them, so the data
//! must outlive every geom using it. Here the data objects own their arrays
//! and are handed to a [`Space`] as `Arc`s: the space keeps a reference
//! until it is dropped, after its geoms, so no geom can see freed data.
//!
//! ```
//! use std::sync::Arc;
//! use ode::api::{collide, DVec3, HeightfieldData, Space, SpaceKind, TriMeshData};
//!
//! let mut space = Space::new(SpaceKind::Simple);
//! // A flat 3x3-sample terrain of 4 x 4 m at height 0.5 (y is up in ODE's
//! // heightfields).
//! let terrain = Arc::new(HeightfieldData::builder(4.0, 4.0, 3, 3, vec![0.5; 9]).build().unwrap());
//! let ground = space.add_heightfield(&terrain, true).unwrap();
//! let ball = space.add_sphere(0.25).unwrap();
//! space.set_position(ball, [0.0, 0.7, 0.0]).unwrap();
//! let c = collide(ball, ground, 4).unwrap();
//! assert!(!c.is_empty() && (c[0].depth - 0.05).abs() < 1e-9);
//!
//! // A one-triangle mesh.
//! let tri = Arc::new(TriMeshData::new(&[DVec3::ZERO, DVec3::X, DVec3::Y], &[[0, 1, 2]]).unwrap());
//! let mesh = space.add_trimesh(&tri).unwrap();
//! assert_eq!(space.aabb(mesh).unwrap().1, DVec3::new(1.0, 1.0, 0.0));
//! ```

use super::collision::{Geom, Space, SpaceId};
use super::{DVec3, Error, Result};
use crate::collision::geom::{self as core_geom, class, g, Shape, Transform, GEOMS};
use crate::collision::heightfield_data::{Buf, HeightfieldData as CoreHf, HeightfieldRef, Samples, HEIGHTFIELDS};
use crate::collision::space as core_space;
use crate::collision::trimesh::{self as tm, TriMeshData as CoreMesh, TriMeshDataRef, TRIMESH_DATA};
use crate::collision::trimesh_geom as tm_geom;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};

fn positive(name: &'static str, v: f64) -> Result<f64> {
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(Error::InvalidArgument { arg: name, reason: format!("= {v} (must be finite and > 0)") })
    }
}

fn finite(name: &'static str, v: f64) -> Result<f64> {
    super::finite(name, v)
}

// ---- heightfields ----------------------------------------------------------------

/// A heightfield's grid of heights (`dHeightfieldDataID`), owned.
pub struct HeightfieldData {
    h: HeightfieldRef,
}

impl Drop for HeightfieldData {
    fn drop(&mut self) {
        HEIGHTFIELDS.free(self.h);
    }
}

/// Builds a [`HeightfieldData`] (`dGeomHeightfieldDataBuildDouble` with
/// copied heights); see [`HeightfieldData::builder`].
pub struct HeightfieldBuilder {
    width: f64,
    depth: f64,
    width_samples: usize,
    depth_samples: usize,
    heights: Vec<f64>,
    scale: f64,
    offset: f64,
    thickness: f64,
    wrap: bool,
    bounds: Option<(f64, f64)>,
}

impl HeightfieldBuilder {
    /// Multiplies every height (default 1).
    pub fn scale(mut self, scale: f64) -> Self {
        self.scale = scale;
        self
    }

    /// Added to every height after scaling (default 0).
    pub fn offset(mut self, offset: f64) -> Self {
        self.offset = offset;
        self
    }

    /// Depth of solid under the lowest sample (default 0).
    pub fn thickness(mut self, thickness: f64) -> Self {
        self.thickness = thickness;
        self
    }

    /// Repeats the grid infinitely (default false).
    pub fn wrap(mut self, wrap: bool) -> Self {
        self.wrap = wrap;
        self
    }

    /// Height bounds used for bounding boxes instead of the computed ones
    /// (`dGeomHeightfieldDataSetBounds`).
    pub fn bounds(mut self, min: f64, max: f64) -> Self {
        self.bounds = Some((min, max));
        self
    }

    /// Checks the arguments and builds the data.
    pub fn build(self) -> Result<HeightfieldData> {
        let width = positive("width", self.width)?;
        let depth = positive("depth", self.depth)?;
        for (name, n) in [("width_samples", self.width_samples), ("depth_samples", self.depth_samples)] {
            if !(2..=i32::MAX as usize).contains(&n) {
                return Err(Error::InvalidArgument { arg: name, reason: format!("= {n} (must be >= 2)") });
            }
        }
        let n = self.width_samples.checked_mul(self.depth_samples).filter(|&n| n <= i32::MAX as usize);
        let Some(n) = n else {
            return Err(Error::InvalidArgument { arg: "depth_samples", reason: "makes too many samples".into() });
        };
        if self.heights.len() != n {
            return Err(Error::InvalidArgument {
                arg: "heights",
                reason: format!("has {} samples (width_samples × depth_samples = {n})", self.heights.len()),
            });
        }
        if let Some(i) = self.heights.iter().position(|h| !h.is_finite()) {
            return Err(Error::InvalidArgument { arg: "heights", reason: format!("sample {i} is not finite") });
        }
        let (scale, offset, thickness) =
            (finite("scale", self.scale)?, finite("offset", self.offset)?, finite("thickness", self.thickness)?);
        if let Some((lo, hi)) = self.bounds {
            finite("min", lo)?;
            finite("max", hi)?;
        }
        let mut d = CoreHf::new();
        d.set_grid(
            self.width_samples as i32,
            self.depth_samples as i32,
            width,
            depth,
            scale,
            offset,
            thickness,
            self.wrap,
        );
        d.samples = Samples::Double(Buf::Owned(self.heights));
        d.compute_height_bounds();
        if let Some((lo, hi)) = self.bounds {
            d.set_bounds(lo, hi);
        }
        Ok(HeightfieldData { h: HEIGHTFIELDS.alloc(d) })
    }
}

impl HeightfieldData {
    /// A grid of `width_samples` × `depth_samples` heights (row by row
    /// along depth, each row along width) spanning `width` × `depth`
    /// centred on the geom's origin, in its x-z plane with y up.
    pub fn builder(
        width: f64,
        depth: f64,
        width_samples: usize,
        depth_samples: usize,
        heights: Vec<f64>,
    ) -> HeightfieldBuilder {
        HeightfieldBuilder {
            width,
            depth,
            width_samples,
            depth_samples,
            heights,
            scale: 1.0,
            offset: 0.0,
            thickness: 0.0,
            wrap: false,
            bounds: None,
        }
    }

    /// A grid whose height at sample (x, z) is `height(x, z)`, sampled once
    /// here (ODE's `dGeomHeightfieldDataBuildCallback` asks its callback
    /// during collisions instead; for a function of (x, z) alone both give
    /// the same heights).
    ///
    /// ```
    /// use ode::api::HeightfieldData;
    ///
    /// let hills = HeightfieldData::from_fn(10.0, 10.0, 11, 11, |x, z| (x as f64 * 0.5).sin() + z as f64 * 0.1)
    ///     .scale(2.0)
    ///     .build()
    ///     .unwrap();
    /// assert!((hills.height(0, 3) - 0.6).abs() < 1e-12);
    /// ```
    pub fn from_fn(
        width: f64,
        depth: f64,
        width_samples: usize,
        depth_samples: usize,
        mut height: impl FnMut(usize, usize) -> f64,
    ) -> HeightfieldBuilder {
        let n = width_samples.saturating_mul(depth_samples).min(1 << 28);
        let heights = (0..n).map(|i| height(i % width_samples.max(1), i / width_samples.max(1))).collect();
        Self::builder(width, depth, width_samples, depth_samples, heights)
    }

    /// The height at sample (x, z), scaled and offset.
    pub fn height(&self, x: usize, z: usize) -> f64 {
        self.h.get().height_at(x.min(i32::MAX as usize) as i32, z.min(i32::MAX as usize) as i32)
    }
}

// ---- triangle meshes ------------------------------------------------------------------

/// A triangle mesh (`dTriMeshDataID`), owning its vertices and indices.
pub struct TriMeshData {
    h: TriMeshDataRef,
    // The core reads these through raw pointers: kept alive and unmoved
    // (a Vec's buffer does not move while the Vec is not resized).
    _vertices: Vec<[f64; 3]>,
    _indices: Vec<[u32; 3]>,
}

impl Drop for TriMeshData {
    fn drop(&mut self) {
        TRIMESH_DATA.free(self.h);
    }
}

impl TriMeshData {
    /// A mesh from vertices and triangles (counter-clockwise seen from
    /// outside), as `dGeomTriMeshDataBuildDouble`.
    pub fn new(vertices: &[DVec3], triangles: &[[u32; 3]]) -> Result<TriMeshData> {
        if let Some(i) = vertices.iter().position(|v| !v.is_finite()) {
            return Err(Error::InvalidArgument { arg: "vertices", reason: format!("vertex {i} is not finite") });
        }
        if vertices.len() > i32::MAX as usize || triangles.len() > (i32::MAX / 3) as usize {
            return Err(Error::InvalidArgument { arg: "triangles", reason: "too many".into() });
        }
        for (t, tri) in triangles.iter().enumerate() {
            if let Some(&i) = tri.iter().find(|&&i| i as usize >= vertices.len()) {
                return Err(Error::InvalidArgument {
                    arg: "triangles",
                    reason: format!("triangle {t} uses vertex {i} of {}", vertices.len()),
                });
            }
        }
        let v: Vec<[f64; 3]> = vertices.iter().map(|v| v.to_array()).collect();
        let ix: Vec<[u32; 3]> = triangles.to_vec();
        let h = TRIMESH_DATA.alloc(CoreMesh::default());
        // SAFETY: the arrays are owned by the returned value, which frees the
        // data before dropping them.
        unsafe {
            h.get_mut().build(
                v.as_ptr() as *const u8,
                std::mem::size_of::<[f64; 3]>(),
                v.len(),
                true,
                ix.as_ptr() as *const u8,
                ix.len(),
                std::mem::size_of::<[u32; 3]>(),
                std::ptr::null(),
            );
        }
        Ok(TriMeshData { h, _vertices: v, _indices: ix })
    }

    /// Precomputes which edges and vertices may make contacts
    /// (`dGeomTriMeshDataPreprocess`), for smoother sliding over the mesh.
    pub fn preprocess(&mut self) {
        self.h.get_mut().build_use_flags();
    }

    /// Number of triangles.
    pub fn num_triangles(&self) -> usize {
        self.h.get().tri_count
    }
}

impl Space {
    /// The number of triangles of a trimesh geom
    /// (`dGeomTriMeshGetTriangleCount`).
    pub fn trimesh_triangle_count(&self, geom: Geom) -> Result<usize> {
        let h = self.own_geom(geom)?;
        if g(h).class != class::TRIMESH {
            return Err(Error::InvalidArgument { arg: "geom", reason: "is not a trimesh".into() });
        }
        Ok(tm_geom::of(h).live_data().map_or(0, |d| d.tri_count))
    }

    /// Triangle `index` of a trimesh geom in world coordinates
    /// (`dGeomTriMeshGetTriangle`).
    pub fn trimesh_triangle(&self, geom: Geom, index: usize) -> Result<[DVec3; 3]> {
        let h = self.own_geom(geom)?;
        let count = self.trimesh_triangle_count(geom)?;
        let d = tm_geom::of(h).live_data().filter(|_| index < count).ok_or_else(|| Error::InvalidArgument {
            arg: "index",
            reason: format!("= {index} (the mesh has {count} triangles)"),
        })?;
        core_geom::recompute_posr(h);
        let t = tm::Mesh { data: d, pose: core_geom::pose(h) }.triangle(index);
        Ok(t.map(DVec3::from))
    }

    /// Sets a filter deciding, per triangle, whether a trimesh geom's
    /// triangle `tri` may collide with `other` (`dGeomTriMeshSetCallback`;
    /// true: it may). It replaces any previous filter. A panicking filter
    /// lets the triangle collide, and the call that ran it returns
    /// [`Error::CallbackPanicked`].
    ///
    /// ```
    /// use ode::api::{collide, DVec3, Space, SpaceKind, TriMeshData};
    /// use std::sync::Arc;
    ///
    /// let v = [DVec3::new(-5.0, -5.0, 0.0), DVec3::new(5.0, -5.0, 0.0), DVec3::new(0.0, 5.0, 0.0)];
    /// let floor = Arc::new(TriMeshData::new(&v, &[[0, 1, 2]]).unwrap());
    /// let mut space = Space::new(SpaceKind::Simple);
    /// let mesh = space.add_trimesh(&floor).unwrap();
    /// let ball = space.add_sphere(0.5).unwrap();
    /// space.set_position(ball, [0.0, 0.0, 0.4]).unwrap();
    /// assert_eq!(collide(mesh, ball, 4).unwrap().len(), 1);
    /// space.set_trimesh_filter(mesh, move |other, _tri| other != ball).unwrap();
    /// assert_eq!(collide(mesh, ball, 4).unwrap().len(), 0);
    /// space.clear_trimesh_filter(mesh).unwrap();
    /// assert_eq!(collide(mesh, ball, 4).unwrap().len(), 1);
    /// ```
    pub fn set_trimesh_filter(
        &mut self,
        geom: Geom,
        filter: impl Fn(Geom, usize) -> bool + Send + Sync + 'static,
    ) -> Result<()> {
        let h = self.trimesh_geom(geom)?;
        TRI_FILTERS.set(geom, Arc::new(filter));
        tm_geom::of(h).callback = Some(tri_filter_trampoline);
        Ok(())
    }

    /// Removes a trimesh geom's triangle filter.
    pub fn clear_trimesh_filter(&mut self, geom: Geom) -> Result<()> {
        let h = self.trimesh_geom(geom)?;
        tm_geom::of(h).callback = None;
        TRI_FILTERS.clear(geom);
        Ok(())
    }

    /// Sets a closure told, after each collision of a trimesh geom with
    /// `other`, the indices of all the triangles that touched it
    /// (`dGeomTriMeshSetArrayCallback`). A panic is reported as
    /// [`Error::CallbackPanicked`] by the call that ran it.
    ///
    /// ```
    /// use ode::api::{collide, DVec3, Space, SpaceKind, TriMeshData};
    /// use std::sync::{Arc, Mutex};
    ///
    /// let v = [DVec3::new(-5.0, -5.0, 0.0), DVec3::new(5.0, -5.0, 0.0), DVec3::new(0.0, 5.0, 0.0)];
    /// let floor = Arc::new(TriMeshData::new(&v, &[[0, 1, 2]]).unwrap());
    /// let mut space = Space::new(SpaceKind::Simple);
    /// let mesh = space.add_trimesh(&floor).unwrap();
    /// let ball = space.add_sphere(0.5).unwrap();
    /// space.set_position(ball, [0.0, 0.0, 0.4]).unwrap();
    /// let seen = Arc::new(Mutex::new(Vec::new()));
    /// let log = seen.clone();
    /// space.set_trimesh_touched(mesh, move |_, tris| log.lock().unwrap().extend_from_slice(tris)).unwrap();
    /// collide(mesh, ball, 4).unwrap();
    /// assert_eq!(*seen.lock().unwrap(), vec![0]);
    /// ```
    pub fn set_trimesh_touched(
        &mut self,
        geom: Geom,
        touched: impl Fn(Geom, &[u32]) + Send + Sync + 'static,
    ) -> Result<()> {
        let h = self.trimesh_geom(geom)?;
        TRI_TOUCHED.set(geom, Arc::new(touched));
        tm_geom::of(h).array_callback = Some(tri_touched_trampoline);
        Ok(())
    }

    /// Sets a filter deciding whether a ray may hit a trimesh geom's
    /// triangle `tri` at barycentric `(u, v)` (`dGeomTriMeshSetRayCallback`;
    /// true: it may). A panicking filter lets the hit count.
    pub fn set_trimesh_ray_filter(
        &mut self,
        geom: Geom,
        filter: impl Fn(Geom, usize, f64, f64) -> bool + Send + Sync + 'static,
    ) -> Result<()> {
        let h = self.trimesh_geom(geom)?;
        TRI_RAY_FILTERS.set(geom, Arc::new(filter));
        tm_geom::of(h).ray_callback = Some(tri_ray_trampoline);
        Ok(())
    }

    /// Sets the closure choosing the triangle index a merged contact keeps
    /// when two contacts of triangles `first` and `second` are merged into
    /// one (`dGeomTriMeshSetTriMergeCallback`; see
    /// [`Space::set_trimesh_sphere_merge`]). Without it ODE's merged
    /// contacts carry −1. A panicking closure gives −1.
    pub fn set_trimesh_merge(
        &mut self,
        geom: Geom,
        merge: impl Fn(i32, i32) -> i32 + Send + Sync + 'static,
    ) -> Result<()> {
        let h = self.trimesh_geom(geom)?;
        TRI_MERGES.set(geom, Arc::new(merge));
        tm_geom::of(h).merge_callback = Some(tri_merge_trampoline);
        Ok(())
    }

    /// Removes every callback of a trimesh geom: filter, touched, ray filter
    /// and merge.
    pub fn clear_trimesh_callbacks(&mut self, geom: Geom) -> Result<()> {
        let h = self.trimesh_geom(geom)?;
        let t = tm_geom::of(h);
        (t.callback, t.array_callback, t.ray_callback, t.merge_callback) = (None, None, None, None);
        TRI_FILTERS.clear(geom);
        TRI_TOUCHED.clear(geom);
        TRI_RAY_FILTERS.clear(geom);
        TRI_MERGES.clear(geom);
        Ok(())
    }

    /// How a trimesh geom's contacts with a sphere are merged
    /// (`dGeomLowLevelControl` with `dGeomColliderSetMergeSphereContactsControlCode`).
    pub fn set_trimesh_sphere_merge(&mut self, geom: Geom, mode: SphereMerge) -> Result<()> {
        let h = self.trimesh_geom(geom)?;
        tm_geom::of(h).sphere_merge = match mode {
            SphereMerge::None => tm::sphere_merge::NONE,
            SphereMerge::Normals => tm::sphere_merge::NORMALS,
            SphereMerge::Full => tm::sphere_merge::FULL,
        };
        Ok(())
    }

    fn trimesh_geom(&self, geom: Geom) -> Result<crate::collision::geom::GeomRef> {
        let h = self.own_geom(geom)?;
        if g(h).class != class::TRIMESH {
            return Err(Error::InvalidArgument { arg: "geom", reason: "is not a trimesh".into() });
        }
        Ok(h)
    }

    /// The world point `v0 + u (v1 - v0) + v (v2 - v0)` of triangle `index`
    /// (`dGeomTriMeshGetPoint`).
    pub fn trimesh_point(&self, geom: Geom, index: usize, u: f64, v: f64) -> Result<DVec3> {
        let (u, v) = (finite("u", u)?, finite("v", v)?);
        let [a, b, c] = self.trimesh_triangle(geom, index)?;
        // Same operation order as the C function.
        Ok(DVec3::new(
            a.x + u * (b.x - a.x) + v * (c.x - a.x),
            a.y + u * (b.y - a.y) + v * (c.y - a.y),
            a.z + u * (b.z - a.z) + v * (c.z - a.z),
        ))
    }
}

/// How a trimesh geom merges its contacts with a sphere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SphereMerge {
    /// One contact per touched triangle (ODE's default).
    None,
    /// Every contact gets the depth-weighted mean normal.
    Normals,
    /// One contact at the mean position (its triangle from the merge closure).
    Full,
}

/// The Rust closures of the trimesh geoms that have one of a kind, found
/// by the C trampolines from the geom handle.
struct Registry<F: ?Sized>(Mutex<Vec<(Geom, Arc<F>)>>);

impl<F: ?Sized> Registry<F> {
    const fn new() -> Self {
        Registry(Mutex::new(Vec::new()))
    }
    fn entries(&self) -> std::sync::MutexGuard<'_, Vec<(Geom, Arc<F>)>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
    /// Replaces `geom`'s closure; entries of destroyed geoms (whose address
    /// may come back) go too.
    fn set(&self, geom: Geom, f: Arc<F>) {
        let mut e = self.entries();
        e.retain(|(key, _)| key.is_alive() && *key != geom);
        e.push((geom, f));
    }
    fn clear(&self, geom: Geom) {
        self.entries().retain(|(key, _)| key.is_alive() && *key != geom);
    }
    fn get(&self, geom: Geom) -> Option<Arc<F>> {
        self.entries().iter().find(|(key, _)| *key == geom).map(|(_, f)| f.clone())
    }
}

static TRI_FILTERS: Registry<dyn Fn(Geom, usize) -> bool + Send + Sync> = Registry::new();
static TRI_TOUCHED: Registry<dyn Fn(Geom, &[u32]) + Send + Sync> = Registry::new();
static TRI_RAY_FILTERS: Registry<dyn Fn(Geom, usize, f64, f64) -> bool + Send + Sync> = Registry::new();
static TRI_MERGES: Registry<dyn Fn(i32, i32) -> i32 + Send + Sync> = Registry::new();

/// Runs a user closure; a panic is recorded for the API call that ran it
/// and gives `fallback`.
fn guarded<R>(fallback: R, f: impl FnOnce() -> R) -> R {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| {
        super::callback_panic::record_panic(p);
        fallback
    })
}

/// `dTriCallback` calling the geom's Rust filter.
unsafe extern "C" fn tri_filter_trampoline(mesh: *mut c_void, other: *mut c_void, tri: i32) -> i32 {
    let (Some(mesh), Some(other)) = (GEOMS.check(mesh), GEOMS.check(other)) else { return 1 };
    let Some(f) = TRI_FILTERS.get(Geom::of(mesh)) else { return 1 };
    guarded(true, || f(Geom::of(other), tri.max(0) as usize)) as i32
}

/// `dTriArrayCallback` calling the geom's Rust closure.
unsafe extern "C" fn tri_touched_trampoline(mesh: *mut c_void, other: *mut c_void, tris: *const i32, n: i32) {
    let (Some(mesh), Some(other)) = (GEOMS.check(mesh), GEOMS.check(other)) else { return };
    let Some(f) = TRI_TOUCHED.get(Geom::of(mesh)) else { return };
    let tris: &[u32] = if tris.is_null() || n <= 0 {
        &[]
    } else {
        // SAFETY: the collider passes its array of n triangle indices
        // (non-negative i32, the layout of u32) for the call's duration.
        unsafe { std::slice::from_raw_parts(tris as *const u32, n as usize) }
    };
    guarded((), || f(Geom::of(other), tris))
}

/// `dTriRayCallback` calling the geom's Rust filter.
unsafe extern "C" fn tri_ray_trampoline(mesh: *mut c_void, ray: *mut c_void, tri: i32, u: f64, v: f64) -> i32 {
    let (Some(mesh), Some(ray)) = (GEOMS.check(mesh), GEOMS.check(ray)) else { return 1 };
    let Some(f) = TRI_RAY_FILTERS.get(Geom::of(mesh)) else { return 1 };
    guarded(true, || f(Geom::of(ray), tri.max(0) as usize, u, v)) as i32
}

/// `dTriTriMergeCallback` calling the geom's Rust closure.
unsafe extern "C" fn tri_merge_trampoline(mesh: *mut c_void, first: i32, second: i32) -> i32 {
    let Some(mesh) = GEOMS.check(mesh) else { return -1 };
    let Some(f) = TRI_MERGES.get(Geom::of(mesh)) else { return -1 };
    guarded(-1, || f(first, second))
}

// ---- convex hulls ---------------------------------------------------------------------

/// A convex hull (`dCreateConvex`'s arrays), owned.
pub struct ConvexData {
    planes: Vec<f64>,
    points: Vec<f64>,
    polygons: Vec<u32>,
}

impl ConvexData {
    /// A hull from its face planes `(normal, d)` with `normal · p = d`
    /// (unit normals pointing out), its points, and one polygon per plane
    /// listing point indices counter-clockwise seen from outside.
    pub fn new(planes: &[(DVec3, f64)], points: &[DVec3], polygons: &[Vec<u32>]) -> Result<ConvexData> {
        if planes.is_empty() || points.is_empty() {
            return Err(Error::InvalidArgument { arg: "planes", reason: "and points must not be empty".into() });
        }
        if polygons.len() != planes.len() {
            return Err(Error::InvalidArgument {
                arg: "polygons",
                reason: format!("has {} polygons for {} planes", polygons.len(), planes.len()),
            });
        }
        if planes.iter().any(|(n, d)| !n.is_finite() || !d.is_finite()) || points.iter().any(|p| !p.is_finite()) {
            return Err(Error::InvalidArgument { arg: "planes", reason: "or points are not finite".into() });
        }
        let mut poly = Vec::new();
        for (f, p) in polygons.iter().enumerate() {
            if p.len() < 3 || p.iter().any(|&i| i as usize >= points.len()) {
                return Err(Error::InvalidArgument {
                    arg: "polygons",
                    reason: format!("polygon {f} needs at least 3 indices below {}", points.len()),
                });
            }
            poly.push(p.len() as u32);
            poly.extend_from_slice(p);
        }
        Ok(ConvexData {
            planes: planes.iter().flat_map(|(n, d)| [n.x, n.y, n.z, *d]).collect(),
            points: points.iter().flat_map(|p| p.to_array()).collect(),
            polygons: poly,
        })
    }

    /// A box of the given side lengths as a hull (handy for tests).
    pub fn cuboid(lx: f64, ly: f64, lz: f64) -> Result<ConvexData> {
        let h = DVec3::new(positive("lx", lx)? / 2.0, positive("ly", ly)? / 2.0, positive("lz", lz)? / 2.0);
        let points: Vec<DVec3> = (0..8)
            .map(|i| {
                DVec3::new(
                    if i & 1 != 0 { h.x } else { -h.x },
                    if i & 2 != 0 { h.y } else { -h.y },
                    if i & 4 != 0 { h.z } else { -h.z },
                )
            })
            .collect();
        let planes = [
            (DVec3::X, h.x),
            (DVec3::NEG_X, h.x),
            (DVec3::Y, h.y),
            (DVec3::NEG_Y, h.y),
            (DVec3::Z, h.z),
            (DVec3::NEG_Z, h.z),
        ];
        let polygons = vec![
            vec![1, 3, 7, 5],
            vec![0, 4, 6, 2],
            vec![2, 6, 7, 3],
            vec![0, 1, 5, 4],
            vec![4, 5, 7, 6],
            vec![0, 2, 3, 1],
        ];
        ConvexData::new(&planes, &points, &polygons)
    }
}

// ---- geoms on shared data -----------------------------------------------------------------

impl Space {
    /// A heightfield geom on `data` in the top-level space
    /// (`dCreateHeightfield`); non-placeable ones stay at the origin.
    pub fn add_heightfield(&mut self, data: &Arc<HeightfieldData>, placeable: bool) -> Result<Geom> {
        self.add_heightfield_in(self.root(), data, placeable)
    }

    /// A heightfield geom in `space`.
    pub fn add_heightfield_in(&mut self, space: SpaceId, data: &Arc<HeightfieldData>, placeable: bool) -> Result<Geom> {
        let shape = Shape::Heightfield(core_geom::HeightfieldGeom { data: data.h.as_raw() });
        let geom = self.create_geom(space, placeable, class::HEIGHTFIELD, shape)?;
        self.keep(data.clone());
        Ok(geom)
    }

    /// A triangle-mesh geom on `data` in the top-level space (`dCreateTriMesh`).
    pub fn add_trimesh(&mut self, data: &Arc<TriMeshData>) -> Result<Geom> {
        self.add_trimesh_in(self.root(), data)
    }

    /// A triangle-mesh geom in `space`.
    pub fn add_trimesh_in(&mut self, space: SpaceId, data: &Arc<TriMeshData>) -> Result<Geom> {
        let shape = Shape::TriMesh(tm::TriMeshGeom::new(Some(data.h)));
        let geom = self.create_geom(space, true, class::TRIMESH, shape)?;
        self.keep(data.clone());
        Ok(geom)
    }

    /// A convex geom on `data` in the top-level space (`dCreateConvex`).
    pub fn add_convex(&mut self, data: &Arc<ConvexData>) -> Result<Geom> {
        self.add_convex_in(self.root(), data)
    }

    /// A convex geom in `space`.
    pub fn add_convex_in(&mut self, space: SpaceId, data: &Arc<ConvexData>) -> Result<Geom> {
        let c = core_geom::Convex {
            planes: data.planes.as_ptr(),
            plane_count: (data.planes.len() / 4) as u32,
            points: data.points.as_ptr(),
            point_count: (data.points.len() / 3) as u32,
            polygons: data.polygons.as_ptr(),
            edges: core_geom::Convex::build_edges((data.planes.len() / 4) as u32, data.polygons.as_ptr()),
        };
        let geom = self.create_geom(space, true, class::CONVEX, Shape::Convex(c))?;
        self.keep(data.clone());
        Ok(geom)
    }

    /// A geom transform in the top-level space carrying `child`
    /// (`dCreateGeomTransform` + `dGeomTransformSetGeom`, cleanup on): the
    /// child leaves its space, is placed relative to the transform with
    /// [`Space::set_position`] & co., and is destroyed with it. Contacts
    /// report the child unless [`Space::set_transform_info`] is on.
    pub fn add_transform(&mut self, child: Geom) -> Result<Geom> {
        let c = self.own_geom(child)?;
        if g(c).is_space() || matches!(g(c).shape, Shape::Transform(_)) || g(c).body.is_some() {
            return Err(Error::InvalidArgument { arg: "child", reason: "must be a plain geom without a body".into() });
        }
        let root = self.root();
        let mut t = Transform::new();
        t.obj = Some(c);
        t.cleanup = 1;
        let geom = self.create_geom(root, true, class::TRANSFORM, Shape::Transform(t))?;
        if let Some(p) = g(c).parent {
            core_space::remove(p, c);
        }
        Ok(geom)
    }

    /// Makes contacts of a transform report the transform (true) or its
    /// child (false, ODE's default) as their geom.
    pub fn set_transform_info(&mut self, transform: Geom, report_transform: bool) -> Result<()> {
        let h = self.own_geom(transform)?;
        match &mut g(h).shape {
            Shape::Transform(t) => {
                t.info = report_transform as i32;
                Ok(())
            }
            _ => Err(Error::InvalidArgument { arg: "transform", reason: "is not a geom transform".into() }),
        }
    }
}
