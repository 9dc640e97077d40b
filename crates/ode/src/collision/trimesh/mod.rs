//! Triangle meshes: the shared mesh data object (`dTriMeshDataID`), the
//! per-geom trimesh state (callbacks, last transform, temporal-coherence
//! switches), and the pair colliders (one file per other class), pure
//! functions over mesh views and shapes; `trimesh_geom` calls them for
//! geoms.
//!
//! As in ODE, the data object REFERENCES the host's vertex and index
//! buffers (nothing is copied): they must stay alive and unchanged (or be
//! followed by `dGeomTriMeshDataUpdate`) while the data is used. Vertices
//! are 3 floats or 3 doubles `vertex_stride` bytes apart; triangles are 3
//! 32-bit indices `tri_stride` bytes apart. The data owns only what it
//! derives: the collision tree (`bvh`, shaped as OPCODE's) and the
//! preprocessing flags.
//!
//! Colliders get their candidate triangles from OPCODE-style queries of
//! the tree in mesh coordinates (`opcode`), in ODE's order, then work in
//! world coordinates on triangles transformed by the mesh pose (ODE does
//! the same).

pub mod box_;
pub mod bvh;
pub mod capsule;
pub mod cylinder;
pub mod face_angles;
pub mod mesh_mesh;
pub mod opcode;
pub mod plane;
pub mod preprocess;
pub mod ray;
pub mod sphere;
pub mod sphere_merge;

use crate::collision::shapes::Pose;
use crate::handle::{Handle, Pool};
use crate::math::mat3::mul0_331;
use std::ffi::c_void;

pub type TriMeshDataRef = Handle<TriMeshData>;

/// All mesh data objects. Tag spells "TMSH".
pub static TRIMESH_DATA: Pool<TriMeshData> = Pool::new(0x544D_5348);

// Per-triangle use flags (ODE's dMESHDATAUSE_* values).
pub const USE_EDGE: [u8; 3] = [0x01, 0x02, 0x04];
pub const USE_VERTEX: [u8; 3] = [0x08, 0x10, 0x20];

pub struct TriMeshData {
    pub vertices: *const u8,
    pub vertex_stride: usize,
    pub vertex_count: usize,
    /// Vertices are doubles (BuildDouble/BuildSimple), else floats.
    pub double: bool,
    pub indices: *const u8,
    pub tri_stride: usize,
    pub tri_count: usize,
    /// Host's per-triangle unit normals (BuildX1 / DataSet), dReal
    /// triples: read by preprocessing (concavity and face angles) as ODE
    /// reads them, not by the colliders; handed back by dGeomTriMeshDataGet.
    pub normals: *const c_void,
    /// Use flags built by Preprocess (owned).
    pub use_flags: Option<Vec<u8>>,
    /// Use flags given by the host (DataSet / SetBuffer), referenced.
    pub external_flags: *const u8,
    /// Convexity of each triangle edge (built with the use flags): true
    /// when the edge is a real convex crease, false when flat, concave or
    /// open on one side only... open edges count as convex.
    pub convex_edges: Option<Vec<[bool; 3]>>,
    /// Face angles of Preprocess2 (BUILD_FACE_ANGLES), in the storage
    /// format the request asked for; read by the convex collider.
    pub face_angles: Option<face_angles::FaceAngles>,
    pub bvh: bvh::Bvh,
    /// Centre and half extents of the box around every vertex, in the
    /// vertices' own precision, fixed at build as ODE fixes them (an
    /// update moves the tree, not this box): the geom's AABB is this box
    /// turned by the pose.
    pub aabb_center: [f64; 3],
    pub aabb_extents: [f64; 3],
}

unsafe impl Send for TriMeshData {}

impl Default for TriMeshData {
    fn default() -> Self {
        TriMeshData {
            vertices: std::ptr::null(),
            vertex_stride: 0,
            vertex_count: 0,
            double: false,
            indices: std::ptr::null(),
            tri_stride: 0,
            tri_count: 0,
            normals: std::ptr::null(),
            use_flags: None,
            external_flags: std::ptr::null(),
            convex_edges: None,
            face_angles: None,
            bvh: bvh::Bvh::default(),
            aabb_center: [0.0; 3],
            aabb_extents: [0.0; 3],
        }
    }
}

impl TriMeshData {
    /// Points the data at the host's buffers and builds the BVH.
    ///
    /// # Safety
    /// The buffers hold `vertex_count` vertices and `tri_count` triangles
    /// at the given strides, with indices below `vertex_count`, and stay
    /// alive while the data is used.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn build(
        &mut self,
        vertices: *const u8,
        vertex_stride: usize,
        vertex_count: usize,
        double: bool,
        indices: *const u8,
        tri_count: usize,
        tri_stride: usize,
        normals: *const c_void,
    ) {
        self.vertices = vertices;
        self.vertex_stride = vertex_stride;
        self.vertex_count = vertex_count;
        self.double = double;
        self.indices = indices;
        self.tri_count = tri_count;
        self.tri_stride = tri_stride;
        self.normals = normals;
        self.use_flags = None;
        self.convex_edges = None;
        self.face_angles = None;
        let me: &TriMeshData = self;
        let bvh = bvh::Bvh::build(tri_count, |t| me.local_triangle_f(t));
        self.bvh = bvh;
        let (mn, mx) = self.vertex_bounds();
        for k in 0..3 {
            self.aabb_center[k] = (mn[k] + mx[k]) * 0.5;
            self.aabb_extents[k] = mx[k] - self.aabb_center[k];
        }
    }

    /// Bounds of all vertices (used or not) as stored, doubles unrounded;
    /// ±infinity without vertices, like ODE.
    fn vertex_bounds(&self) -> ([f64; 3], [f64; 3]) {
        let mut mn = [f64::INFINITY; 3];
        let mut mx = [f64::NEG_INFINITY; 3];
        for i in 0..self.vertex_count {
            // SAFETY: the build contract (i < vertex_count, buffers alive).
            let v = unsafe {
                let p = self.vertices.add(i * self.vertex_stride);
                if self.double {
                    let q = p as *const f64;
                    [q.read_unaligned(), q.add(1).read_unaligned(), q.add(2).read_unaligned()]
                } else {
                    let q = p as *const f32;
                    [q.read_unaligned() as f64, q.add(1).read_unaligned() as f64, q.add(2).read_unaligned() as f64]
                }
            };
            for k in 0..3 {
                if v[k] > mx[k] {
                    mx[k] = v[k];
                }
                if v[k] < mn[k] {
                    mn[k] = v[k];
                }
            }
        }
        (mn, mx)
    }

    /// Vertex `i` in mesh coordinates. Double vertices are rounded to
    /// single precision: Debian's ODE reads every mesh (colliders, triangle
    /// queries, mass) through OPCODE's single-precision vertex interface.
    pub fn vertex(&self, i: usize) -> [f64; 3] {
        // SAFETY: the build contract (i < vertex_count, buffers alive).
        unsafe {
            let p = self.vertices.add(i * self.vertex_stride);
            if self.double {
                let q = p as *const f64;
                let f = |x: f64| x as f32 as f64;
                [f(q.read_unaligned()), f(q.add(1).read_unaligned()), f(q.add(2).read_unaligned())]
            } else {
                let q = p as *const f32;
                [q.read_unaligned() as f64, q.add(1).read_unaligned() as f64, q.add(2).read_unaligned() as f64]
            }
        }
    }

    /// Vertex indices of triangle `t`.
    pub fn indices(&self, t: usize) -> [usize; 3] {
        // SAFETY: the build contract (t < tri_count, buffers alive).
        unsafe {
            let q = self.indices.add(t * self.tri_stride) as *const u32;
            [q.read_unaligned() as usize, q.add(1).read_unaligned() as usize, q.add(2).read_unaligned() as usize]
        }
    }

    /// Triangle `t` in mesh coordinates, single precision (exact: the
    /// vertices are floats or rounded to floats).
    pub fn local_triangle_f(&self, t: usize) -> bvh::TriF {
        if !self.double {
            // Float vertices as stored (what the round trip through f64
            // gives back), without the conversions.
            let i = self.indices(t);
            // SAFETY: the build contract (indices < vertex_count, buffers alive).
            let f = |k: usize| unsafe {
                let q = self.vertices.add(k * self.vertex_stride) as *const f32;
                [q.read_unaligned(), q.add(1).read_unaligned(), q.add(2).read_unaligned()]
            };
            return [f(i[0]), f(i[1]), f(i[2])];
        }
        let l = self.local_triangle(t);
        let f = |v: [f64; 3]| [v[0] as f32, v[1] as f32, v[2] as f32];
        [f(l[0]), f(l[1]), f(l[2])]
    }

    /// Triangle `t` in mesh coordinates.
    pub fn local_triangle(&self, t: usize) -> [[f64; 3]; 3] {
        let i = self.indices(t);
        [self.vertex(i[0]), self.vertex(i[1]), self.vertex(i[2])]
    }

    /// Hands in the host's use flags (NULL: none). The data's own flags
    /// handed back (the pointer `dGeomTriMeshDataGet` gave) are not taken
    /// as the host's, as in ODE: they stay the data's, and a later
    /// Preprocess or build that replaces them leaves no pointer to freed
    /// memory behind.
    pub fn set_external_flags(&mut self, p: *const u8) {
        let own = self.use_flags.as_ref().is_some_and(|f| std::ptr::eq(f.as_ptr(), p));
        self.external_flags = if own { std::ptr::null() } else { p };
    }

    /// The use flags in effect: the host's if given, else Preprocess's.
    pub fn flags(&self, t: usize) -> Option<u8> {
        if !self.external_flags.is_null() {
            // SAFETY: the host promised one byte per triangle.
            return Some(unsafe { *self.external_flags.add(t) });
        }
        // `get`: data preprocessed before any build has no per-triangle flags.
        self.use_flags.as_ref().and_then(|f| f.get(t).copied())
    }

    /// `dGeomTriMeshDataUpdate`: the host changed its vertices.
    pub fn update(&mut self) {
        let mut bvh = std::mem::take(&mut self.bvh);
        bvh.refit(|t| self.local_triangle_f(t));
        self.bvh = bvh;
    }

    /// A host face normal ODE's preprocessing would assert on (see
    /// `preprocess::unnormalized_normal`): its triangle and value.
    pub fn unnormalized_normal(&self) -> Option<(usize, [f64; 3])> {
        preprocess::unnormalized_normal(self)
    }

    /// Builds the use flags as ODE 0.16.2's BUILD_CONCAVE_EDGES does
    /// (`preprocess`): concave edges and their vertices are dropped, every
    /// other edge and vertex is given to one triangle. The flags alone then
    /// say what is usable, so no separate convexity table is kept.
    pub fn build_use_flags(&mut self) {
        self.use_flags = Some(preprocess::use_flags(self));
        self.convex_edges = None;
    }

    /// Face angles (BUILD_FACE_ANGLES) in storage format `format`: three
    /// codes per triangle, computed once here as ODE does (from the host's
    /// face normals if the data has them) and read by the convex collider
    /// (see `face_angles`).
    pub fn build_face_angles(&mut self, format: face_angles::FaceAngleFormat) {
        self.face_angles = Some(face_angles::FaceAngles::build(self, format));
    }

    /// Is edge `e` of triangle `t` one that may produce edge contacts?
    /// Without preprocessing every edge may; with it, only the owner of a
    /// convex (or open) edge.
    pub fn edge_usable(&self, t: usize, e: usize) -> bool {
        match self.flags(t) {
            None => true,
            Some(f) => f & USE_EDGE[e] != 0 && self.convex_edges.as_ref().is_none_or(|c| c.get(t).is_none_or(|c| c[e])),
        }
    }

    /// Is vertex `k` of triangle `t` one that may produce vertex contacts?
    pub fn vertex_usable(&self, t: usize, k: usize) -> bool {
        self.flags(t).is_none_or(|f| f & USE_VERTEX[k] != 0)
    }
}

/// Host callbacks of a trimesh geom (collision_trimesh.h typedefs).
pub type TriCallback = unsafe extern "C" fn(*mut c_void, *mut c_void, i32) -> i32;
pub type TriArrayCallback = unsafe extern "C" fn(*mut c_void, *mut c_void, *const i32, i32);
pub type TriRayCallback = unsafe extern "C" fn(*mut c_void, *mut c_void, i32, f64, f64) -> i32;
pub type TriMergeCallback = unsafe extern "C" fn(*mut c_void, i32, i32) -> i32;

/// A trimesh geom's own state (the `Shape::TriMesh` payload).
pub struct TriMeshGeom {
    pub data: Option<TriMeshDataRef>,
    pub callback: Option<TriCallback>,
    pub array_callback: Option<TriArrayCallback>,
    pub ray_callback: Option<TriRayCallback>,
    pub merge_callback: Option<TriMergeCallback>,
    /// `dGeomTriMeshSetLastTransform` (a dMatrix4, zero until set).
    pub last_transform: [f64; 16],
    /// Temporal coherence switches for spheres, boxes, capsules. Our
    /// queries are stateless, so these only answer the getters: ODE then
    /// reuses a fattened query's candidates while the geom stays inside
    /// it, which gives the same contacts, but its array and triangle
    /// callbacks see the larger list.
    pub tc_sphere: bool,
    pub tc_box: bool,
    pub tc_capsule: bool,
    /// Sphere contact merging (`sphere_merge::NONE`, `NORMALS`, `FULL`).
    pub sphere_merge: i32,
}

impl TriMeshGeom {
    pub fn new(data: Option<TriMeshDataRef>) -> TriMeshGeom {
        TriMeshGeom {
            data,
            callback: None,
            array_callback: None,
            ray_callback: None,
            merge_callback: None,
            last_transform: [0.0; 16],
            tc_sphere: false,
            tc_box: false,
            tc_capsule: false,
            sphere_merge: sphere_merge::NONE,
        }
    }

    /// The data if set and still alive.
    pub fn live_data(&self) -> Option<&'static TriMeshData> {
        self.data.filter(|d| d.is_live()).map(|d| d.get())
    }
}

/// AABB of a trimesh geom at `pose`: the data's vertex box turned by the
/// pose, in ODE's operation order.
pub fn geom_aabb(tm: &TriMeshGeom, p: &Pose) -> [f64; 6] {
    let Some(d) = tm.live_data() else {
        return [p.pos[0], p.pos[0], p.pos[1], p.pos[1], p.pos[2], p.pos[2]];
    };
    let c = mul0_331(&p.r, &d.aabb_center);
    let e = &d.aabb_extents;
    let mut a = [0.0; 6];
    for i in 0..3 {
        let r = (p.r[4 * i] * e[0]).abs() + (p.r[4 * i + 1] * e[1]).abs() + (p.r[4 * i + 2] * e[2]).abs();
        a[2 * i] = c[i] + p.pos[i] - r;
        a[2 * i + 1] = c[i] + p.pos[i] + r;
    }
    a
}

/// What a collider needs from the trimesh geom besides the data: its
/// pose and the host's per-triangle filters.
pub trait TriHost {
    /// `dTriCallback`: may the triangle collide?
    fn accept(&self, _tri: i32) -> bool {
        true
    }
    /// `dTriArrayCallback`: the triangles touched by the other geom.
    fn touched(&self, _tris: &[i32]) {}
    /// `dTriRayCallback`.
    fn accept_ray(&self, _tri: i32, _u: f64, _v: f64) -> bool {
        true
    }
}

/// No callbacks (pure use and tests).
pub struct NoHost;
impl TriHost for NoHost {}

/// A mesh placed in the world.
pub struct Mesh<'a> {
    pub data: &'a TriMeshData,
    pub pose: Pose,
}

impl Mesh<'_> {
    /// Triangle `t` in world coordinates (R·v + p, as ODE's fetch).
    pub fn triangle(&self, t: usize) -> [[f64; 3]; 3] {
        let l = self.data.local_triangle(t);
        [self.pose.to_world(&l[0]), self.pose.to_world(&l[1]), self.pose.to_world(&l[2])]
    }

    /// OPCODE's sphere query (ODE's trimesh–sphere candidates).
    pub fn candidates_sphere(&self, c: &[f64; 3], r: f64) -> opcode::Cands {
        let q = opcode::SphereQuery::new(c, r, &self.pose.pos, &self.pose.r);
        opcode::Cands::fill(|stack, out| opcode::sphere_candidates(self, &q, stack, out))
    }

    /// OPCODE's box query with triangle tests for a geom at `pose` with
    /// half extents `h` along its axes (ODE's box, capsule and cylinder
    /// candidates).
    pub fn candidates_obb(&self, pose: &Pose, h: &[f64; 3]) -> opcode::Cands {
        let q = opcode::ObbQuery::for_geom(&pose.pos, &pose.r, h, &self.pose.pos, &self.pose.r);
        opcode::Cands::fill(|stack, out| opcode::obb_candidates(self, &q, true, stack, out))
    }

    /// OPCODE's box query without triangle tests for a world AABB
    /// (ODE's convex candidates).
    pub fn candidates_aabb(&self, aabb: &[f64; 6]) -> opcode::Cands {
        let q = opcode::ObbQuery::for_aabb(aabb, &self.pose.pos, &self.pose.r);
        opcode::Cands::fill(|stack, out| opcode::obb_candidates(self, &q, false, stack, out))
    }

    /// Direction in world frame of a mesh-frame vector.
    pub fn dir_to_world(&self, v: &[f64; 3]) -> [f64; 3] {
        mul0_331(&self.pose.r, v)
    }
}

/// A convex polygon of at most 16 points, kept inline: clipping a triangle
/// or a box face by a few planes never needs more (each plane adds at
/// most one point), and colliders then clip without allocating.
#[derive(Clone, Copy)]
pub struct Poly16 {
    n: usize,
    p: [[f64; 3]; 16],
}

impl Poly16 {
    pub const EMPTY: Poly16 = Poly16 { n: 0, p: [[0.0; 3]; 16] };

    pub fn of(pts: &[[f64; 3]]) -> Poly16 {
        let mut q = Poly16::EMPTY;
        for p in pts {
            q.push(*p);
        }
        q
    }

    /// Appends a point (dropped past 16, which clipping cannot reach).
    #[inline]
    pub fn push(&mut self, q: [f64; 3]) {
        if self.n < self.p.len() {
            self.p[self.n] = q;
            self.n += 1;
        }
    }

    pub fn clear(&mut self) {
        self.n = 0;
    }
}

impl std::ops::Deref for Poly16 {
    type Target = [[f64; 3]];
    fn deref(&self) -> &[[f64; 3]] {
        &self.p[..self.n]
    }
}

/// Adds a contact unless one at the same place with the same normal is
/// there already (then the deeper one is kept): triangles sharing an edge
/// or a face plane otherwise report the same point twice.
pub fn push_merged(sink: &mut crate::collision::contact::ContactSink, c: crate::collision::contact::Contact) -> bool {
    const POS_EPS2: f64 = 1e-14;
    const NORMAL_EPS: f64 = 1e-9;
    for i in 0..sink.len() {
        let g = sink.get_mut(i);
        let dp = [g.pos[0] - c.pos[0], g.pos[1] - c.pos[1], g.pos[2] - c.pos[2]];
        let dn = [g.normal[0] - c.normal[0], g.normal[1] - c.normal[1], g.normal[2] - c.normal[2]];
        if dot(&dp, &dp) < POS_EPS2 && dot(&dn, &dn) < NORMAL_EPS {
            if c.depth > g.depth {
                g.depth = c.depth;
                g.side1 = c.side1;
            }
            return true;
        }
    }
    sink.push(c)
}

// ---- small vector helpers ---------------------------------------------------

#[inline]
pub fn sub(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
#[inline]
pub fn add(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
#[inline]
pub fn scale(a: &[f64; 3], s: f64) -> [f64; 3] {
    [a[0] * s, a[1] * s, a[2] * s]
}
#[inline]
pub fn dot(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
#[inline]
pub fn cross(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}
#[inline]
pub fn norm(a: &[f64; 3]) -> f64 {
    dot(a, a).sqrt()
}
/// Unit vector, or zero for a (near) zero vector.
#[inline]
pub fn normalize(a: &[f64; 3]) -> [f64; 3] {
    let l = norm(a);
    if l > 1e-300 {
        scale(a, 1.0 / l)
    } else {
        [0.0; 3]
    }
}

/// Closest points of segments p0-p1 and q0-q1: (s, t) parameters.
pub fn closest_segments(p0: &[f64; 3], p1: &[f64; 3], q0: &[f64; 3], q1: &[f64; 3]) -> (f64, f64) {
    let d1 = sub(p1, p0);
    let d2 = sub(q1, q0);
    let r = sub(p0, q0);
    let a = dot(&d1, &d1);
    let e = dot(&d2, &d2);
    let f = dot(&d2, &r);
    if a <= 1e-300 && e <= 1e-300 {
        return (0.0, 0.0);
    }
    if a <= 1e-300 {
        return (0.0, (f / e).clamp(0.0, 1.0));
    }
    let c = dot(&d1, &r);
    if e <= 1e-300 {
        return ((-c / a).clamp(0.0, 1.0), 0.0);
    }
    let b = dot(&d1, &d2);
    let denom = a * e - b * b;
    let mut s = if denom > 1e-300 { ((b * f - c * e) / denom).clamp(0.0, 1.0) } else { 0.0 };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = (-c / a).clamp(0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = ((b - c) / a).clamp(0.0, 1.0);
    }
    (s, t)
}
