//! The candidate-triangle queries of Debian's ODE 0.16.2 against a mesh's
//! collision tree (`bvh`), in OPCODE's single-precision arithmetic and
//! visiting order, so that every collider meets the same triangles in the
//! same order as ODE:
//! - sphere (trimesh–sphere): node boxes against the sphere, no triangle
//!   test (every triangle of a touched node is a candidate);
//! - oriented box (box, capsule and cylinder use their bounding box with
//!   triangle–box tests; convex uses its world AABB without them);
//! - the query volume is moved into mesh space with OPCODE's 4×4 float
//!   matrices (the mesh's rotation only: ODE first subtracts the mesh
//!   position in double precision).
//!
//! The separating-axis tests are written out with OPCODE's operand order
//! (single-precision rounding decides borderline candidates), including
//! its epsilon-padded absolute rotation for box–box tests.
//!
//! `Scratch` holds the per-thread lists the colliders reuse, so a warm
//! query allocates nothing.

use super::bvh::{fmax3, fmin3, Bvh, Node, TriF, Visit};
use super::Mesh;
use std::cell::Cell;

pub type V3 = [f32; 3];
/// OPCODE's 4×4 matrix, rows m[i] (points are row vectors: p·M).
pub type M4 = [[f32; 4]; 4];

/// ODE's MakeMatrix: rotation rows from the columns of a dMatrix3, the
/// given translation.
pub fn make_matrix(p: &[f64; 3], r: &[f64; 12]) -> M4 {
    let f = |x: f64| x as f32;
    [
        [f(r[0]), f(r[4]), f(r[8]), 0.0],
        [f(r[1]), f(r[5]), f(r[9]), 0.0],
        [f(r[2]), f(r[6]), f(r[10]), 0.0],
        [f(p[0]), f(p[1]), f(p[2]), 1.0],
    ]
}

/// Inverse of a rotation+translation matrix (transpose, moved translation).
pub fn invert_pr(s: &M4) -> M4 {
    let mut d = [[0.0f32; 4]; 4];
    for j in 0..3 {
        for i in 0..3 {
            d[i][j] = s[j][i];
        }
        d[3][j] = -(s[3][0] * s[j][0] + s[3][1] * s[j][1] + s[3][2] * s[j][2]);
    }
    d[3][3] = 1.0;
    d
}

pub fn mul4(a: &M4, b: &M4) -> M4 {
    let mut r = [[0.0f32; 4]; 4];
    for i in 0..4 {
        for j in 0..4 {
            r[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j] + a[i][3] * b[3][j];
        }
    }
    r
}

/// p·M (with translation).
pub fn point_mul4(p: &V3, m: &M4) -> V3 {
    let mut o = [0.0f32; 3];
    for (j, oj) in o.iter_mut().enumerate() {
        *oj = p[0] * m[0][j] + p[1] * m[1][j] + p[2] * m[2][j] + m[3][j];
    }
    o
}

/// trans + p·R (OPCODE's TransformPoint operand order).
#[inline]
pub fn transform(p: &V3, r: &[[f32; 3]; 3], t: &V3) -> V3 {
    let mut o = [0.0f32; 3];
    for (j, oj) in o.iter_mut().enumerate() {
        *oj = t[j] + p[0] * r[0][j] + p[1] * r[1][j] + p[2] * r[2][j];
    }
    o
}

#[inline]
fn sub3(a: &V3, b: &V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
#[inline]
fn dot3(a: &V3, b: &V3) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
#[inline]
fn cross3(a: &V3, b: &V3) -> V3 {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn rot3(m: &M4) -> [[f32; 3]; 3] {
    [[m[0][0], m[0][1], m[0][2]], [m[1][0], m[1][1], m[1][2]], [m[2][0], m[2][1], m[2][2]]]
}

/// Triangle `t` of the mesh data in single precision (OPCODE's view).
#[inline]
pub fn tri_f(mesh: &Mesh, t: u32) -> TriF {
    mesh.data.local_triangle_f(t as usize)
}

// ---- sphere --------------------------------------------------------------------

/// A sphere in mesh space, as OPCODE's sphere collider holds it.
pub struct SphereQuery {
    pub c: V3,
    pub r2: f32,
    /// `c` as a 4-lane vector (fourth lane 0) for the SIMD node tests.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    c4: Lanes,
}

impl SphereQuery {
    /// The sphere at world `centre`, against a mesh at `pos` with rotation `r`.
    pub fn new(centre: &[f64; 3], radius: f64, pos: &[f64; 4], r: &[f64; 12]) -> SphereQuery {
        let off = [(centre[0] - pos[0]) as f32, (centre[1] - pos[1]) as f32, (centre[2] - pos[2]) as f32];
        let rad = radius as f32;
        let inv = invert_pr(&make_matrix(&[0.0; 3], r));
        let c = point_mul4(&off, &inv);
        SphereQuery { c, r2: rad * rad, c4: Lanes([c[0], c[1], c[2], 0.0]) }
    }

    /// Sphere–box overlap from the squared distance to the box.
    fn touches(&self, n: &Node) -> bool {
        let mut d = 0.0f32;
        for k in 0..3 {
            let tmp = self.c[k] - n.c[k];
            let s = tmp + n.e[k];
            if s < 0.0 {
                d += s * s;
                if d > self.r2 {
                    return false;
                }
            } else {
                let s = tmp - n.e[k];
                if s > 0.0 {
                    d += s * s;
                    if d > self.r2 {
                        return false;
                    }
                }
            }
        }
        d <= self.r2
    }

    /// All eight corners of the box strictly inside the sphere.
    fn holds(&self, n: &Node) -> bool {
        for i in 0..8 {
            let mut d = 0.0f32;
            for k in 0..3 {
                let p = if i >> k & 1 == 0 { n.c[k] + n.e[k] } else { n.c[k] - n.e[k] };
                let q = self.c[k] - p;
                d += q * q;
            }
            if d >= self.r2 {
                return false;
            }
        }
        true
    }

    /// The scalar node test, OPCODE's code as written (the reference for
    /// `visit`).
    pub fn visit_ref(&self, n: &Node) -> Visit {
        if !self.touches(n) {
            Visit::Skip
        } else if self.holds(n) {
            Visit::TakeAll
        } else {
            Visit::Open
        }
    }

    /// The node test (the same decisions as `visit_ref`).
    #[inline]
    pub fn visit(&self, n: &Node) -> Visit {
        #[cfg(target_arch = "x86_64")]
        {
            simd::sphere_visit(self, n)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.visit_ref(n)
        }
    }

    /// Distance test of one triangle (used only for one-triangle meshes).
    pub fn tri_overlap(&self, t: &TriF) -> bool {
        for v in [&t[2], &t[1], &t[0]] {
            let k = sub3(v, &self.c);
            if dot3(&k, &k) <= self.r2 {
                return true;
            }
        }
        let diff = sub3(&t[0], &self.c);
        let e0 = sub3(&t[1], &t[0]);
        let e1 = sub3(&t[2], &t[0]);
        let (_, _, d2) = closest_sq(
            dot3(&e0, &e0),
            dot3(&e0, &e1),
            dot3(&e1, &e1),
            dot3(&diff, &e0),
            dot3(&diff, &e1),
            dot3(&diff, &diff),
        );
        d2.abs() < self.r2
    }
}

/// The arithmetic both OPCODE (f32) and ODE's trimesh–sphere (f64) use.
pub trait Real:
    Copy
    + PartialOrd
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
    + std::ops::Neg<Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    const TWO: Self;
    /// FLT_MAX in this type.
    const FAR: Self;
    fn abs(self) -> Self;
}

impl Real for f32 {
    const ZERO: f32 = 0.0;
    const ONE: f32 = 1.0;
    const TWO: f32 = 2.0;
    const FAR: f32 = f32::MAX;
    fn abs(self) -> f32 {
        f32::abs(self)
    }
}

impl Real for f64 {
    const ZERO: f64 = 0.0;
    const ONE: f64 = 1.0;
    const TWO: f64 = 2.0;
    const FAR: f64 = f32::MAX as f64;
    fn abs(self) -> f64 {
        f64::abs(self)
    }
}

/// Closest point of a triangle to a point, by Eberly's regions: with
/// edges e0, e1 from vertex 0 and d = vertex 0 − point, the inputs are
/// a00 = e0·e0, a01 = e0·e1, a11 = e1·e1, b0 = d·e0, b1 = d·e1, c = d·d.
/// Returns (u, v, squared distance) with the closest point at
/// v0 + u·e0 + v·e1, each value computed in the order OPCODE and ODE use.
pub fn closest_sq<T: Real>(a00: T, a01: T, a11: T, b0: T, b1: T, c: T) -> (T, T, T) {
    let (zero, one, two) = (T::ZERO, T::ONE, T::TWO);
    let det = (a00 * a11 - a01 * a01).abs();
    let u = a01 * b1 - a11 * b0;
    let v = a01 * b0 - a00 * b1;
    let at_v1 = || (one, zero, a00 + two * b0 + c);
    let at_v2 = || (zero, one, a11 + two * b1 + c);
    let interior = |u: T, v: T| (u, v, u * (a00 * u + a01 * v + two * b0) + v * (a01 * u + a11 * v + two * b1) + c);
    // Along edge 0 (v = 0) and edge 1 (u = 0) from vertex 0.
    let edge0 = || {
        if b0 >= zero {
            (zero, zero, c)
        } else if -b0 >= a00 {
            at_v1()
        } else {
            let u = -b0 / a00;
            (u, zero, b0 * u + c)
        }
    };
    let edge1 = || {
        if b1 >= zero {
            (zero, zero, c)
        } else if -b1 >= a11 {
            at_v2()
        } else {
            let v = -b1 / a11;
            (zero, v, b1 * v + c)
        }
    };
    if u + v <= det {
        if u < zero {
            if v < zero && b0 < zero {
                if -b0 >= a00 {
                    at_v1()
                } else {
                    let u = -b0 / a00;
                    (u, zero, b0 * u + c)
                }
            } else {
                edge1()
            }
        } else if v < zero {
            edge0()
        } else if det == zero {
            (zero, zero, T::FAR)
        } else {
            let inv = one / det;
            interior(u * inv, v * inv)
        }
    } else if u < zero {
        let t0 = a01 + b0;
        let t1 = a11 + b1;
        if t1 > t0 {
            let num = t1 - t0;
            let den = a00 - two * a01 + a11;
            if num >= den {
                at_v1()
            } else {
                let u = num / den;
                interior(u, one - u)
            }
        } else if t1 <= zero {
            at_v2()
        } else if b1 >= zero {
            (zero, zero, c)
        } else {
            let v = -b1 / a11;
            (zero, v, b1 * v + c)
        }
    } else if v < zero {
        let t0 = a01 + b1;
        let t1 = a00 + b0;
        if t1 > t0 {
            let num = t1 - t0;
            let den = a00 - two * a01 + a11;
            if num >= den {
                at_v2()
            } else {
                let v = num / den;
                interior(one - v, v)
            }
        } else if t1 <= zero {
            at_v1()
        } else if b0 >= zero {
            (zero, zero, c)
        } else {
            let u = -b0 / a00;
            (u, zero, b0 * u + c)
        }
    } else {
        let num = a11 + b1 - a01 - b0;
        if num <= zero {
            at_v2()
        } else {
            let den = a00 - two * a01 + a11;
            if num >= den {
                at_v1()
            } else {
                let u = num / den;
                interior(u, one - u)
            }
        }
    }
}

/// Candidates of a sphere query into `out` (tree order).
pub fn sphere_candidates(mesh: &Mesh, q: &SphereQuery, stack: &mut Vec<u32>, out: &mut Vec<i32>) {
    out.clear();
    let bvh: &Bvh = &mesh.data.bvh;
    if bvh.tris == 1 {
        if q.tri_overlap(&tri_f(mesh, 0)) {
            out.push(0);
        }
        return;
    }
    bvh.walk(stack, |n| q.visit(n), |t, _| {
        out.push(t as i32);
        false
    });
}

// ---- oriented box --------------------------------------------------------------

/// An oriented box against a mesh, in OPCODE's precomputed form.
pub struct ObbQuery {
    /// Mesh space → box space.
    r_m2b: [[f32; 3]; 3],
    t_m2b: V3,
    /// Box space → mesh space.
    r_b2m: [[f32; 3]; 3],
    t_b2m: V3,
    ext: V3,
    /// |r_b2m| padded by 1e-6.
    ar: [[f32; 3]; 3],
    b0: V3,
    b1: V3,
    bb: [f32; 12],
    /// The same numbers as 4-lane vectors for the SIMD node tests.
    v: ObbLanes,
}

/// An `ObbQuery`'s constants laid out for `simd::obb_visit`, each a
/// vector over the axes (fourth lane 0, which never separates).
#[derive(Default)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
struct ObbLanes {
    /// t_b2m; bb[0..3]; ext.
    t: Lanes,
    bb0: Lanes,
    ext: Lanes,
    /// Columns of r_b2m and ar: r[k][i] = r_b2m[i][k].
    r: [Lanes; 3],
    ar: [Lanes; 3],
    /// bb[3..6], bb[6..9], bb[9..12].
    bb3: Lanes,
    bb6: Lanes,
    bb9: Lanes,
    /// Rows of r_m2b (lane j = m[k][j]); t_m2b; b0, b1.
    m: [Lanes; 3],
    tm: Lanes,
    b0: Lanes,
    b1: Lanes,
    /// No half extent is negative: then a node box holding the query
    /// box's centre surely passes the separating-axis test (see
    /// `simd::obb_visit`).
    centre_rule: bool,
}

/// Four f32 lanes, 16-byte aligned.
#[derive(Clone, Copy, Default, Debug)]
#[repr(C, align(16))]
struct Lanes([f32; 4]);

impl Lanes {
    fn of3(a: [f32; 3]) -> Lanes {
        Lanes([a[0], a[1], a[2], 0.0])
    }
}

impl ObbQuery {
    /// The box with mesh-relative centre `c` (world offset from the mesh
    /// position), half extents `ext` and axes the rows of `rot`, against a
    /// mesh with rotation `mesh_r`.
    pub fn new(c: &V3, ext: &V3, rot: &[[f32; 3]; 3], mesh_r: &[f64; 12]) -> ObbQuery {
        let world_b: M4 = [
            [rot[0][0], rot[0][1], rot[0][2], 0.0],
            [rot[1][0], rot[1][1], rot[1][2], 0.0],
            [rot[2][0], rot[2][1], rot[2][2], 0.0],
            [c[0], c[1], c[2], 1.0],
        ];
        let inv_b = invert_pr(&world_b);
        let world_m = make_matrix(&[0.0; 3], mesh_r);
        let inv_m = invert_pr(&world_m);
        let b2m = mul4(&world_b, &inv_m);
        let m2b = mul4(&world_m, &inv_b);
        let r_b2m = rot3(&b2m);
        let mut ar = [[0.0f32; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                ar[i][j] = 1e-6f32 + r_b2m[i][j].abs();
            }
        }
        let t_m2b = [m2b[3][0], m2b[3][1], m2b[3][2]];
        let e = *ext;
        let b0 = [e[0] - t_m2b[0], e[1] - t_m2b[1], e[2] - t_m2b[2]];
        let b1 = [-e[0] - t_m2b[0], -e[1] - t_m2b[1], -e[2] - t_m2b[2]];
        let bb = [
            e[0] * ar[0][0] + e[1] * ar[1][0] + e[2] * ar[2][0],
            e[0] * ar[0][1] + e[1] * ar[1][1] + e[2] * ar[2][1],
            e[0] * ar[0][2] + e[1] * ar[1][2] + e[2] * ar[2][2],
            e[1] * ar[2][0] + e[2] * ar[1][0],
            e[0] * ar[2][0] + e[2] * ar[0][0],
            e[0] * ar[1][0] + e[1] * ar[0][0],
            e[1] * ar[2][1] + e[2] * ar[1][1],
            e[0] * ar[2][1] + e[2] * ar[0][1],
            e[0] * ar[1][1] + e[1] * ar[0][1],
            e[1] * ar[2][2] + e[2] * ar[1][2],
            e[0] * ar[2][2] + e[2] * ar[0][2],
            e[0] * ar[1][2] + e[1] * ar[0][2],
        ];
        let r_m2b = rot3(&m2b);
        let t_b2m = [b2m[3][0], b2m[3][1], b2m[3][2]];
        let col = |m: &[[f32; 3]; 3], k: usize| Lanes::of3([m[0][k], m[1][k], m[2][k]]);
        let v = ObbLanes {
            t: Lanes::of3(t_b2m),
            bb0: Lanes::of3([bb[0], bb[1], bb[2]]),
            ext: Lanes::of3(e),
            r: [col(&r_b2m, 0), col(&r_b2m, 1), col(&r_b2m, 2)],
            ar: [col(&ar, 0), col(&ar, 1), col(&ar, 2)],
            bb3: Lanes::of3([bb[3], bb[4], bb[5]]),
            bb6: Lanes::of3([bb[6], bb[7], bb[8]]),
            bb9: Lanes::of3([bb[9], bb[10], bb[11]]),
            m: [Lanes::of3(r_m2b[0]), Lanes::of3(r_m2b[1]), Lanes::of3(r_m2b[2])],
            tm: Lanes::of3(t_m2b),
            b0: Lanes::of3(b0),
            b1: Lanes::of3(b1),
            // (A NaN extent passes: every comparison with it is false,
            // which never separates.)
            centre_rule: !e.iter().any(|&x| x < 0.0),
        };
        ObbQuery { r_m2b, t_m2b, r_b2m, t_b2m, ext: e, ar, b0, b1, bb, v }
    }

    /// ODE's box for a geom at world `pos` with rotation `r` (dMatrix3)
    /// and half extents `h`, against a mesh at `mesh_pos`, `mesh_r`.
    pub fn for_geom(pos: &[f64; 4], r: &[f64; 12], h: &[f64; 3], mesh_pos: &[f64; 4], mesh_r: &[f64; 12]) -> ObbQuery {
        let f = |x: f64| x as f32;
        let c = [f(pos[0] - mesh_pos[0]), f(pos[1] - mesh_pos[1]), f(pos[2] - mesh_pos[2])];
        let rot = [[f(r[0]), f(r[4]), f(r[8])], [f(r[1]), f(r[5]), f(r[9])], [f(r[2]), f(r[6]), f(r[10])]];
        ObbQuery::new(&c, &[f(h[0]), f(h[1]), f(h[2])], &rot, mesh_r)
    }

    /// ODE's convex query box: the convex's world AABB moved by the mesh
    /// position (double), in floats, axis-aligned in world space.
    pub fn for_aabb(aabb: &[f64; 6], mesh_pos: &[f64; 4], mesh_r: &[f64; 12]) -> ObbQuery {
        let mut c = [0.0f32; 3];
        let mut e = [0.0f32; 3];
        for k in 0..3 {
            let lo = (aabb[2 * k] - mesh_pos[k]) as f32;
            let hi = (aabb[2 * k + 1] - mesh_pos[k]) as f32;
            c[k] = 0.5 * (hi + lo);
            e[k] = 0.5 * (hi - lo);
        }
        let id = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        ObbQuery::new(&c, &e, &id, mesh_r)
    }

    /// Separating-axis test of the box against a node box (15 axes).
    fn touches(&self, n: &Node) -> bool {
        let (e, c) = (&n.e, &n.c);
        let (r, ar, bb) = (&self.r_b2m, &self.ar, &self.bb);
        let tx = self.t_b2m[0] - c[0];
        if tx.abs() > e[0] + bb[0] {
            return false;
        }
        let ty = self.t_b2m[1] - c[1];
        if ty.abs() > e[1] + bb[1] {
            return false;
        }
        let tz = self.t_b2m[2] - c[2];
        if tz.abs() > e[2] + bb[2] {
            return false;
        }
        for i in 0..3 {
            let t = tx * r[i][0] + ty * r[i][1] + tz * r[i][2];
            let t2 = e[0] * ar[i][0] + e[1] * ar[i][1] + e[2] * ar[i][2] + self.ext[i];
            if t.abs() > t2 {
                return false;
            }
        }
        for i in 0..3 {
            let t = tz * r[i][1] - ty * r[i][2];
            let t2 = e[1] * ar[i][2] + e[2] * ar[i][1] + bb[3 + i];
            if t.abs() > t2 {
                return false;
            }
        }
        for i in 0..3 {
            let t = tx * r[i][2] - tz * r[i][0];
            let t2 = e[0] * ar[i][2] + e[2] * ar[i][0] + bb[6 + i];
            if t.abs() > t2 {
                return false;
            }
        }
        for i in 0..3 {
            let t = ty * r[i][0] - tx * r[i][1];
            let t2 = e[0] * ar[i][1] + e[1] * ar[i][0] + bb[9 + i];
            if t.abs() > t2 {
                return false;
            }
        }
        true
    }

    /// The node box, seen from the box's frame, lies inside the box.
    #[allow(clippy::needless_range_loop)] // j runs over columns of m and the bounds
    fn holds(&self, n: &Node) -> bool {
        let m = &self.r_m2b;
        let (bc, be) = (&n.c, &n.e);
        for j in 0..3 {
            let nc = bc[0] * m[0][j] + bc[1] * m[1][j] + bc[2] * m[2][j];
            let ne = (m[0][j] * be[0]).abs() + (m[1][j] * be[1]).abs() + (m[2][j] * be[2]).abs();
            if self.b0[j] < nc + ne {
                return false;
            }
            if self.b1[j] > nc - ne {
                return false;
            }
        }
        true
    }

    /// The scalar node test, OPCODE's code as written (the reference for
    /// `visit`).
    pub fn visit_ref(&self, n: &Node) -> Visit {
        if !self.touches(n) {
            Visit::Skip
        } else if self.holds(n) {
            Visit::TakeAll
        } else {
            Visit::Open
        }
    }

    /// The node test (the same decisions as `visit_ref`).
    #[inline]
    pub fn visit(&self, n: &Node) -> Visit {
        #[cfg(target_arch = "x86_64")]
        {
            simd::obb_visit(self, n)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.visit_ref(n)
        }
    }

    /// Triangle (mesh space) against the box (the same decision as
    /// `tri_overlap_ref`).
    #[inline]
    pub fn tri_overlap(&self, t: &TriF) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            simd::obb_tri(self, t)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self.tri_overlap_ref(t)
        }
    }

    /// Triangle (mesh space) against the box, OPCODE's scalar code.
    pub fn tri_overlap_ref(&self, t: &TriF) -> bool {
        let v = [
            transform(&t[0], &self.r_m2b, &self.t_m2b),
            transform(&t[1], &self.r_m2b, &self.t_m2b),
            transform(&t[2], &self.r_m2b, &self.t_m2b),
        ];
        let e2 = sub3(&v[0], &v[2]);
        tri_box_centred(&v, &e2, &self.ext)
    }
}

/// Triangle–box test with the box at the origin: `v` the box-relative
/// vertices, `e2` the third edge (v0 − v2, which callers compute from
/// their own operands), `ext` the half extents. Box axes, the triangle
/// plane, then the nine edge × axis directions, as OPCODE orders them.
pub fn tri_box_centred(v: &[V3; 3], e2: &V3, ext: &V3) -> bool {
    for k in 0..3 {
        if fmin3(v[0][k], v[1][k], v[2][k]) > ext[k] {
            return false;
        }
        if fmax3(v[0][k], v[1][k], v[2][k]) < -ext[k] {
            return false;
        }
    }
    let e0 = sub3(&v[1], &v[0]);
    let e1 = sub3(&v[2], &v[1]);
    let n = cross3(&e0, &e1);
    let d = -dot3(&n, &v[0]);
    if !plane_box(&n, d, ext) {
        return false;
    }
    // Projections of two vertices on an edge × axis direction against the
    // box radius on it.
    let sep = |p: f32, q: f32, rad: f32| {
        let (mn, mx) = if p > q { (q, p) } else { (p, q) };
        mn > rad || mx < -rad
    };
    let (v0, v1, v2) = (&v[0], &v[1], &v[2]);
    // Edge 0 (tested on vertices 0 and 2, 0 and 2, 1 and 2).
    let (fx, fy, fz) = (e0[0].abs(), e0[1].abs(), e0[2].abs());
    let (a, b) = (e0[2], e0[1]);
    if sep(a * v0[1] - b * v0[2], a * v2[1] - b * v2[2], fz * ext[1] + fy * ext[2]) {
        return false;
    }
    let (a, b) = (e0[2], e0[0]);
    if sep(b * v0[2] - a * v0[0], b * v2[2] - a * v2[0], fz * ext[0] + fx * ext[2]) {
        return false;
    }
    let (a, b) = (e0[1], e0[0]);
    if sep(a * v1[0] - b * v1[1], a * v2[0] - b * v2[1], fy * ext[0] + fx * ext[1]) {
        return false;
    }
    // Edge 1 (vertices 0 and 2, 0 and 2, 0 and 1).
    let (fx, fy, fz) = (e1[0].abs(), e1[1].abs(), e1[2].abs());
    let (a, b) = (e1[2], e1[1]);
    if sep(a * v0[1] - b * v0[2], a * v2[1] - b * v2[2], fz * ext[1] + fy * ext[2]) {
        return false;
    }
    let (a, b) = (e1[2], e1[0]);
    if sep(b * v0[2] - a * v0[0], b * v2[2] - a * v2[0], fz * ext[0] + fx * ext[2]) {
        return false;
    }
    let (a, b) = (e1[1], e1[0]);
    if sep(a * v0[0] - b * v0[1], a * v1[0] - b * v1[1], fy * ext[0] + fx * ext[1]) {
        return false;
    }
    // Edge 2 (vertices 0 and 1, 0 and 1, 1 and 2).
    let (fx, fy, fz) = (e2[0].abs(), e2[1].abs(), e2[2].abs());
    let (a, b) = (e2[2], e2[1]);
    if sep(a * v0[1] - b * v0[2], a * v1[1] - b * v1[2], fz * ext[1] + fy * ext[2]) {
        return false;
    }
    let (a, b) = (e2[2], e2[0]);
    if sep(b * v0[2] - a * v0[0], b * v1[2] - a * v1[0], fz * ext[0] + fx * ext[2]) {
        return false;
    }
    let (a, b) = (e2[1], e2[0]);
    if sep(a * v1[0] - b * v1[1], a * v2[0] - b * v2[1], fy * ext[0] + fx * ext[1]) {
        return false;
    }
    true
}

/// Does the plane n·x + d = 0 cross the origin-centred box?
fn plane_box(n: &V3, d: f32, ext: &V3) -> bool {
    let mut vmin = [0.0f32; 3];
    let mut vmax = [0.0f32; 3];
    for q in 0..3 {
        if n[q] > 0.0 {
            vmin[q] = -ext[q];
            vmax[q] = ext[q];
        } else {
            vmin[q] = ext[q];
            vmax[q] = -ext[q];
        }
    }
    if dot3(n, &vmin) + d > 0.0 {
        return false;
    }
    dot3(n, &vmax) + d >= 0.0
}

/// Candidates of a box query into `out` (tree order); `prim_tests` as
/// OPCODE's switch (off for ODE's convex collider).
pub fn obb_candidates(mesh: &Mesh, q: &ObbQuery, prim_tests: bool, stack: &mut Vec<u32>, out: &mut Vec<i32>) {
    out.clear();
    let bvh: &Bvh = &mesh.data.bvh;
    if bvh.tris == 1 {
        // OPCODE tests the lone triangle (ODE's convex query, which skips
        // triangle tests, does not handle one-triangle meshes at all).
        if !prim_tests || q.tri_overlap(&tri_f(mesh, 0)) {
            out.push(0);
        }
        return;
    }
    bvh.walk(
        stack,
        |n| q.visit(n),
        |t, tested| {
            if !prim_tests || !tested || q.tri_overlap(&tri_f(mesh, t)) {
                out.push(t as i32);
            }
            false
        },
    );
}

// ---- ray ------------------------------------------------------------------------

/// A triangle the ray crosses: OPCODE's single-precision distance along
/// the ray and barycentric (u, v) along edges v1 − v0 and v2 − v0.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub tri: i32,
    pub dist: f32,
    pub u: f32,
    pub v: f32,
}

/// A ray or segment in mesh space, as OPCODE's ray collider holds it.
pub struct RayQuery {
    orig: V3,
    dir: V3,
    max_dist: f32,
    /// Segment half vector and midpoint (finite length).
    half: V3,
    mid: V3,
    fdir: V3,
    segment: bool,
    pub cull: bool,
    pub first_contact: bool,
    pub closest: bool,
}

impl RayQuery {
    pub fn new(
        o: &[f64; 3],
        d: &[f64; 3],
        len: f64,
        mesh_pos: &[f64; 4],
        mesh_r: &[f64; 12],
        cull: bool,
        first_contact: bool,
        closest: bool,
    ) -> RayQuery {
        let f = |x: f64| x as f32;
        let wo = [f(o[0] - mesh_pos[0]), f(o[1] - mesh_pos[1]), f(o[2] - mesh_pos[2])];
        let wd = [f(d[0]), f(d[1]), f(d[2])];
        let m = make_matrix(&[0.0; 3], mesh_r);
        // Direction by the upper 3×3 (rows dotted), origin by the inverse.
        let dir = [
            dot3(&[m[0][0], m[0][1], m[0][2]], &wd),
            dot3(&[m[1][0], m[1][1], m[1][2]], &wd),
            dot3(&[m[2][0], m[2][1], m[2][2]], &wd),
        ];
        let orig = point_mul4(&wo, &invert_pr(&m));
        let max_dist = f(len);
        let segment = max_dist.to_bits() != f32::MAX.to_bits();
        let mut q = RayQuery {
            orig,
            dir,
            max_dist,
            half: [0.0; 3],
            mid: [0.0; 3],
            fdir: [0.0; 3],
            segment,
            cull,
            first_contact,
            closest,
        };
        if segment {
            for k in 0..3 {
                q.half[k] = 0.5 * dir[k] * max_dist;
                q.mid[k] = orig[k] + q.half[k];
                q.fdir[k] = q.half[k].abs();
            }
        } else {
            q.fdir = [dir[0].abs(), dir[1].abs(), dir[2].abs()];
        }
        q
    }

    fn touches(&self, n: &Node) -> bool {
        let (c, e, fd) = (&n.c, &n.e, &self.fdir);
        let (a, dx, dy, dz);
        if self.segment {
            a = &self.half;
            dx = self.mid[0] - c[0];
            if dx.abs() > e[0] + fd[0] {
                return false;
            }
            dy = self.mid[1] - c[1];
            if dy.abs() > e[1] + fd[1] {
                return false;
            }
            dz = self.mid[2] - c[2];
            if dz.abs() > e[2] + fd[2] {
                return false;
            }
        } else {
            a = &self.dir;
            dx = self.orig[0] - c[0];
            if dx.abs() > e[0] && dx * a[0] >= 0.0 {
                return false;
            }
            dy = self.orig[1] - c[1];
            if dy.abs() > e[1] && dy * a[1] >= 0.0 {
                return false;
            }
            dz = self.orig[2] - c[2];
            if dz.abs() > e[2] && dz * a[2] >= 0.0 {
                return false;
            }
        }
        let f = a[1] * dz - a[2] * dy;
        if f.abs() > e[1] * fd[2] + e[2] * fd[1] {
            return false;
        }
        let f = a[2] * dx - a[0] * dz;
        if f.abs() > e[0] * fd[2] + e[2] * fd[0] {
            return false;
        }
        let f = a[0] * dy - a[1] * dx;
        // Written as OPCODE's rejection test: a NaN keeps the node.
        #[allow(clippy::neg_cmp_op_on_partial_ord)]
        let kept = !(f.abs() > e[0] * fd[1] + e[1] * fd[0]);
        kept
    }

    /// Ray–triangle (Möller–Trumbore as OPCODE writes it; sign tests on
    /// the sign bit, so −0 counts as negative).
    pub fn tri_hit(&self, t: &TriF) -> Option<(f32, f32, f32)> {
        let neg = |x: f32| x.to_bits() & 0x8000_0000 != 0;
        let e1 = sub3(&t[1], &t[0]);
        let e2 = sub3(&t[2], &t[0]);
        let p = cross3(&self.dir, &e2);
        let det = dot3(&e1, &p);
        let eps = 0.000_001f32 * super::bvh::fmin(dot3(&e1, &e1), dot3(&e2, &e2));
        if self.cull {
            if det <= eps {
                return None;
            }
            let tv = sub3(&self.orig, &t[0]);
            let u = dot3(&tv, &p);
            if neg(u) || u.to_bits() > det.to_bits() {
                return None;
            }
            let qv = cross3(&tv, &e1);
            let v = dot3(&self.dir, &qv);
            if neg(v) || u + v > det {
                return None;
            }
            let d = dot3(&e2, &qv);
            if neg(d) {
                return None;
            }
            let inv = 1.0f32 / det;
            Some((d * inv, u * inv, v * inv))
        } else {
            if det.abs() <= eps {
                return None;
            }
            let inv = 1.0f32 / det;
            let tv = sub3(&self.orig, &t[0]);
            let u = dot3(&tv, &p) * inv;
            if neg(u) || u.to_bits() > 1.0f32.to_bits() {
                return None;
            }
            let qv = cross3(&tv, &e1);
            let v = dot3(&self.dir, &qv) * inv;
            if neg(v) || u + v > 1.0 {
                return None;
            }
            let d = dot3(&e2, &qv) * inv;
            if neg(d) {
                return None;
            }
            Some((d, u, v))
        }
    }

    /// Records a hit of triangle `t` as OPCODE's face list does; true when
    /// the query must stop (first contact).
    fn record(&self, t: u32, tri: &TriF, out: &mut Vec<Hit>) -> bool {
        let Some((dist, u, v)) = self.tri_hit(tri) else { return false };
        // Segments keep hits short of the length, compared on the bit
        // patterns as OPCODE does.
        if self.segment && dist.to_bits() >= self.max_dist.to_bits() {
            return false;
        }
        let h = Hit { tri: t as i32, dist, u, v };
        if !self.closest || out.is_empty() {
            out.push(h);
        } else if dist < out[0].dist {
            out[0] = h;
        }
        self.first_contact
    }
}

/// The faces a ray query hits, in OPCODE's order, into `out`.
pub fn ray_hits(mesh: &Mesh, q: &RayQuery, stack: &mut Vec<u32>, out: &mut Vec<Hit>) {
    out.clear();
    let bvh: &Bvh = &mesh.data.bvh;
    if bvh.tris == 1 {
        // The lone triangle, with the segment's length test either way.
        let tri = tri_f(mesh, 0);
        if let Some((dist, u, v)) = q.tri_hit(&tri) {
            if dist.to_bits() < q.max_dist.to_bits() {
                out.push(Hit { tri: 0, dist, u, v });
            }
        }
        return;
    }
    bvh.walk(stack, |n| if q.touches(n) { Visit::Open } else { Visit::Skip }, |t, _| q.record(t, &tri_f(mesh, t), out));
}

// ---- mesh against mesh ------------------------------------------------------------

/// Two meshes' trees against each other as OPCODE's tree collider does it
/// (ODE: full box–box and triangle–box tests, all pairs): mesh 0 at the
/// origin with its rotation, mesh 1 offset by the difference of the
/// positions (double, then float).
pub struct TreeQuery {
    r0to1: [[f32; 3]; 3],
    t0to1: V3,
    r1to0: [[f32; 3]; 3],
    t1to0: V3,
    ar: [[f32; 3]; 3],
}

/// One step of the descent (an explicit stack keeps OPCODE's recursive
/// order without recursion). `Fetch*` make a triangle the current leaf,
/// moved into the other mesh's space; later steps test against it.
#[derive(Clone, Copy)]
pub enum Step {
    Nodes(u32, u32),
    /// The current leaf (of mesh 0) against a node of mesh 1.
    LeafNode1(u32),
    /// The current leaf (of mesh 1) against a node of mesh 0.
    LeafNode0(u32),
    /// The current leaf (of mesh 0) against triangle of mesh 1.
    LeafTri1(u32),
    /// The current leaf (of mesh 1) against triangle of mesh 0.
    LeafTri0(u32),
    Fetch0(u32),
    Fetch1(u32),
}

impl TreeQuery {
    pub fn new(p0: &[f64; 4], r0: &[f64; 12], p1: &[f64; 4], r1: &[f64; 12]) -> TreeQuery {
        let w0 = make_matrix(&[0.0; 3], r0);
        let w1 = make_matrix(&[p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]], r1);
        let (i0, i1) = (invert_pr(&w0), invert_pr(&w1));
        let m01 = mul4(&w0, &i1);
        let m10 = mul4(&w1, &i0);
        let r1to0 = rot3(&m10);
        let mut ar = [[0.0f32; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                ar[i][j] = 1e-6f32 + r1to0[i][j].abs();
            }
        }
        TreeQuery {
            r0to1: rot3(&m01),
            t0to1: [m01[3][0], m01[3][1], m01[3][2]],
            r1to0,
            t1to0: [m10[3][0], m10[3][1], m10[3][2]],
            ar,
        }
    }

    /// A mesh-0 triangle in mesh 1's space (as the descent fetches it).
    pub fn to_mesh1(&self, t: &TriF) -> TriF {
        [
            transform(&t[0], &self.r0to1, &self.t0to1),
            transform(&t[1], &self.r0to1, &self.t0to1),
            transform(&t[2], &self.r0to1, &self.t0to1),
        ]
    }

    /// A mesh-1 triangle in mesh 0's space.
    pub fn to_mesh0(&self, t: &TriF) -> TriF {
        [
            transform(&t[0], &self.r1to0, &self.t1to0),
            transform(&t[1], &self.r1to0, &self.t1to0),
            transform(&t[2], &self.r1to0, &self.t1to0),
        ]
    }

    /// Box a (mesh 0 space) against box b (mesh 1 space): 15 axes.
    fn boxes(&self, a: &Node, b: &Node) -> bool {
        let (ea, ca, eb, cb) = (&a.e, &a.c, &b.e, &b.c);
        let (r, ar, t) = (&self.r1to0, &self.ar, &self.t1to0);
        let mut d = [0.0f32; 3];
        for k in 0..3 {
            d[k] = (r[0][k] * cb[0] + r[1][k] * cb[1] + r[2][k] * cb[2]) + t[k] - ca[k];
            let lim = ea[k] + eb[0] * ar[0][k] + eb[1] * ar[1][k] + eb[2] * ar[2][k];
            if d[k].abs() > lim {
                return false;
            }
        }
        let (tx, ty, tz) = (d[0], d[1], d[2]);
        for i in 0..3 {
            let p = tx * r[i][0] + ty * r[i][1] + tz * r[i][2];
            let lim = ea[0] * ar[i][0] + ea[1] * ar[i][1] + ea[2] * ar[i][2] + eb[i];
            if p.abs() > lim {
                return false;
            }
        }
        // A_k × B_i: the two other axes of A (j, l) and of B (m, n).
        let cross_axis = |p: f32, ej: f32, ajl: f32, el: f32, ajj: f32, em: f32, amx: f32, en: f32, anx: f32| {
            p.abs() > ej * ajl + el * ajj + em * amx + en * anx
        };
        // A0 × Bi
        if cross_axis(tz * r[0][1] - ty * r[0][2], ea[1], ar[0][2], ea[2], ar[0][1], eb[1], ar[2][0], eb[2], ar[1][0]) {
            return false;
        }
        if cross_axis(tz * r[1][1] - ty * r[1][2], ea[1], ar[1][2], ea[2], ar[1][1], eb[0], ar[2][0], eb[2], ar[0][0]) {
            return false;
        }
        if cross_axis(tz * r[2][1] - ty * r[2][2], ea[1], ar[2][2], ea[2], ar[2][1], eb[0], ar[1][0], eb[1], ar[0][0]) {
            return false;
        }
        // A1 × Bi
        if cross_axis(tx * r[0][2] - tz * r[0][0], ea[0], ar[0][2], ea[2], ar[0][0], eb[1], ar[2][1], eb[2], ar[1][1]) {
            return false;
        }
        if cross_axis(tx * r[1][2] - tz * r[1][0], ea[0], ar[1][2], ea[2], ar[1][0], eb[0], ar[2][1], eb[2], ar[0][1]) {
            return false;
        }
        if cross_axis(tx * r[2][2] - tz * r[2][0], ea[0], ar[2][2], ea[2], ar[2][0], eb[0], ar[1][1], eb[1], ar[0][1]) {
            return false;
        }
        // A2 × Bi
        if cross_axis(ty * r[0][0] - tx * r[0][1], ea[0], ar[0][1], ea[1], ar[0][0], eb[1], ar[2][2], eb[2], ar[1][2]) {
            return false;
        }
        if cross_axis(ty * r[1][0] - tx * r[1][1], ea[0], ar[1][1], ea[1], ar[1][0], eb[0], ar[2][2], eb[2], ar[0][2]) {
            return false;
        }
        if cross_axis(ty * r[2][0] - tx * r[2][1], ea[0], ar[2][1], ea[1], ar[2][0], eb[0], ar[1][2], eb[1], ar[0][2]) {
            return false;
        }
        true
    }

    /// The intersecting triangle pairs (mesh 0, mesh 1) in OPCODE's order.
    /// Meshes without a tree (one triangle or none) give none: ODE's
    /// collider refuses a one-triangle tree against a full one.
    pub fn pairs(&self, m0: &Mesh, m1: &Mesh, stack: &mut Vec<Step>, out: &mut Vec<(u32, u32)>) {
        out.clear();
        stack.clear();
        let (b0, b1) = (&m0.data.bvh, &m1.data.bvh);
        if b0.nodes.is_empty() || b1.nodes.is_empty() {
            return;
        }
        let leaf = super::bvh::LEAF;
        // The current leaf: its triangle, index, and which mesh it is from.
        let mut lv: TriF = [[0.0; 3]; 3];
        let mut li = 0u32;
        stack.push(Step::Nodes(0, 0));
        // Steps of one side (`ch` a child of a node): a triangle test when
        // the child is a leaf, a descent otherwise.
        let tri1 = |ch: u32| if ch & leaf != 0 { Step::LeafTri1(ch & !leaf) } else { Step::LeafNode1(ch) };
        let tri0 = |ch: u32| if ch & leaf != 0 { Step::LeafTri0(ch & !leaf) } else { Step::LeafNode0(ch) };
        while let Some(step) = stack.pop() {
            match step {
                Step::Nodes(a, b) => {
                    let (na, nb) = (&b0.nodes[a as usize], &b1.nodes[b as usize]);
                    if !self.boxes(na, nb) {
                        continue;
                    }
                    // Pushed in reverse: a's negative side last-in first.
                    for &ach in &[na.neg, na.pos] {
                        let mut seq: [Option<Step>; 4] = [None; 4];
                        if ach & leaf != 0 {
                            seq[0] = Some(Step::Fetch0(ach & !leaf));
                            seq[1] = Some(tri1(nb.pos));
                            seq[2] = Some(tri1(nb.neg));
                        } else {
                            let mut n = 0;
                            for &bch in &[nb.pos, nb.neg] {
                                if bch & leaf != 0 {
                                    seq[n] = Some(Step::Fetch1(bch & !leaf));
                                    seq[n + 1] = Some(Step::LeafNode0(ach));
                                    n += 2;
                                } else {
                                    seq[n] = Some(Step::Nodes(ach, bch));
                                    n += 1;
                                }
                            }
                        }
                        for s in seq.iter().rev().flatten() {
                            stack.push(*s);
                        }
                    }
                }
                Step::Fetch0(t) => {
                    lv = self.to_mesh1(&tri_f(m0, t));
                    li = t;
                }
                Step::Fetch1(t) => {
                    lv = self.to_mesh0(&tri_f(m1, t));
                    li = t;
                }
                Step::LeafNode1(b) => {
                    let n = &b1.nodes[b as usize];
                    if tri_node(&lv, n) {
                        stack.push(tri1(n.neg));
                        stack.push(tri1(n.pos));
                    }
                }
                Step::LeafNode0(a) => {
                    let n = &b0.nodes[a as usize];
                    if tri_node(&lv, n) {
                        stack.push(tri0(n.neg));
                        stack.push(tri0(n.pos));
                    }
                }
                Step::LeafTri1(t) => {
                    if tri_tri(&lv, &tri_f(m1, t)) {
                        out.push((li, t));
                    }
                }
                Step::LeafTri0(t) => {
                    if tri_tri(&lv, &tri_f(m0, t)) {
                        out.push((t, li));
                    }
                }
            }
        }
    }
}

/// The tree collider's triangle–box test (box of a node, triangle in the
/// node's space).
fn tri_node(t: &TriF, n: &Node) -> bool {
    let v = [sub3(&t[0], &n.c), sub3(&t[1], &n.c), sub3(&t[2], &n.c)];
    // The third edge comes from the uncentred vertices.
    let e2 = sub3(&t[0], &t[2]);
    tri_box_centred(&v, &e2, &n.e)
}

/// Möller's interval test of triangles v and u (OPCODE's version with its
/// coplanarity epsilon and its coplanar fallback).
pub fn tri_tri(v: &TriF, u: &TriF) -> bool {
    const EPS: f32 = 0.000_001;
    // Signed distances of `p`'s vertices to the plane (n, d), snapped to
    // zero near the plane.
    let dists = |n: &V3, d: f32, p: &TriF| {
        let mut du = [dot3(n, &p[0]) + d, dot3(n, &p[1]) + d, dot3(n, &p[2]) + d];
        let (ad, nn) = (d.abs(), dot3(n, n));
        for k in 0..3 {
            let lim =
                if ad >= nn { EPS * ad } else { EPS * super::bvh::fmax(ad, super::bvh::fmin(nn, dot3(&p[k], &p[k]))) };
            if du[k].abs() <= lim {
                du[k] = 0.0;
            }
        }
        du
    };
    let n1 = cross3(&sub3(&v[1], &v[0]), &sub3(&v[2], &v[0]));
    let d1 = -dot3(&n1, &v[0]);
    let du = dists(&n1, d1, u);
    let (du01, du02) = (du[0] * du[1], du[0] * du[2]);
    if du01 > 0.0 && du02 > 0.0 {
        return false;
    }
    let n2 = cross3(&sub3(&u[1], &u[0]), &sub3(&u[2], &u[0]));
    let d2 = -dot3(&n2, &u[0]);
    let dv = dists(&n2, d2, v);
    let (dv01, dv02) = (dv[0] * dv[1], dv[0] * dv[2]);
    if dv01 > 0.0 && dv02 > 0.0 {
        return false;
    }
    let dir = cross3(&n1, &n2);
    let mut index = 0;
    let mut max = dir[0].abs();
    if dir[1].abs() > max {
        max = dir[1].abs();
        index = 1;
    }
    if dir[2].abs() > max {
        index = 2;
    }
    let vp = [v[0][index], v[1][index], v[2][index]];
    let up = [u[0][index], u[1][index], u[2][index]];
    let Some((a, b, c, x0, x1)) = interval(&vp, &dv, dv01, dv02) else { return coplanar(&n1, v, u) };
    let Some((d, e, f, y0, y1)) = interval(&up, &du, du01, du02) else { return coplanar(&n1, v, u) };
    let xx = x0 * x1;
    let yy = y0 * y1;
    let xxyy = xx * yy;
    let tmp = a * xxyy;
    let mut i1 = [tmp + b * x1 * yy, tmp + c * x0 * yy];
    let tmp = d * xxyy;
    let mut i2 = [tmp + e * xx * y1, tmp + f * xx * y0];
    if i1[0] > i1[1] {
        i1.swap(0, 1);
    }
    if i2[0] > i2[1] {
        i2.swap(0, 1);
    }
    !(i1[1] < i2[0] || i2[1] < i1[0])
}

/// The projected interval data of one triangle on the intersection line
/// (None: the triangles are coplanar).
fn interval(p: &V3, d: &V3, d01: f32, d02: f32) -> Option<(f32, f32, f32, f32, f32)> {
    // Around vertex k with the two others i, j.
    let around = |k: usize, i: usize, j: usize| {
        Some((p[k], (p[i] - p[k]) * d[k], (p[j] - p[k]) * d[k], d[k] - d[i], d[k] - d[j]))
    };
    if d01 > 0.0 {
        around(2, 0, 1)
    } else if d02 > 0.0 {
        around(1, 0, 2)
    } else if d[1] * d[2] > 0.0 || d[0] != 0.0 {
        around(0, 1, 2)
    } else if d[1] != 0.0 {
        around(1, 0, 2)
    } else if d[2] != 0.0 {
        around(2, 0, 1)
    } else {
        None
    }
}

/// Coplanar triangles: edge crossings in the projection that keeps the
/// most area, then containment of a vertex either way.
fn coplanar(n: &V3, v: &TriF, u: &TriF) -> bool {
    let a = [n[0].abs(), n[1].abs(), n[2].abs()];
    let (i0, i1) = if a[0] > a[1] {
        if a[0] > a[2] {
            (1, 2)
        } else {
            (0, 1)
        }
    } else if a[2] > a[1] {
        (0, 1)
    } else {
        (0, 2)
    };
    // Does edge v0→v1 cross edge u0→u1 (Antonio's test)?
    let edge_edge = |v0: &V3, ax: f32, ay: f32, u0: &V3, u1: &V3| {
        let bx = u0[i0] - u1[i0];
        let by = u0[i1] - u1[i1];
        let cx = v0[i0] - u0[i0];
        let cy = v0[i1] - u0[i1];
        let f = ay * bx - ax * by;
        let d = by * cx - bx * cy;
        if (f > 0.0 && d >= 0.0 && d <= f) || (f < 0.0 && d <= 0.0 && d >= f) {
            let e = ax * cy - ay * cx;
            if f > 0.0 {
                if e >= 0.0 && e <= f {
                    return true;
                }
            } else if e <= 0.0 && e >= f {
                return true;
            }
        }
        false
    };
    for (p, q) in [(0, 1), (1, 2), (2, 0)] {
        let ax = v[q][i0] - v[p][i0];
        let ay = v[q][i1] - v[p][i1];
        if edge_edge(&v[p], ax, ay, &u[0], &u[1])
            || edge_edge(&v[p], ax, ay, &u[1], &u[2])
            || edge_edge(&v[p], ax, ay, &u[2], &u[0])
        {
            return true;
        }
    }
    // Is point p inside triangle t (same side of all three edge lines)?
    let inside = |p: &V3, t: &TriF| {
        let side = |s: &V3, e: &V3| {
            let a = e[i1] - s[i1];
            let b = -(e[i0] - s[i0]);
            let c = -a * s[i0] - b * s[i1];
            a * p[i0] + b * p[i1] + c
        };
        let d0 = side(&t[0], &t[1]);
        let d1 = side(&t[1], &t[2]);
        let d2 = side(&t[2], &t[0]);
        d0 * d1 > 0.0 && d0 * d2 > 0.0
    };
    inside(&v[0], u) || inside(&u[0], v)
}

// ---- SIMD node tests ------------------------------------------------------------

/// The sphere and box node tests on SSE2 lanes (x86_64's baseline). Each
/// lane computes one axis with the scalar code's operands in the same
/// order, so every value is bit-identical; the scalar code's early exits
/// only save work (a sphere's partial distance never decreases, the box
/// axes are independent), so testing every axis and combining the
/// outcomes decides the same, with fewer unpredictable branches. Node
/// vectors are loaded through the node's own pointer (32 bytes, see
/// `bvh::Node`) and their fourth lane, a child code, is cleared: the
/// query constants' fourth lanes are 0, so that lane never separates,
/// never touches and never fails a containment.
#[cfg(target_arch = "x86_64")]
mod simd {
    use super::{Lanes, Node, ObbQuery, SphereQuery, Visit};
    use std::arch::x86_64::*;

    #[inline(always)]
    fn ld(l: &Lanes) -> __m128 {
        // SAFETY: Lanes is 16 bytes, 16-byte aligned.
        unsafe { _mm_load_ps(l.0.as_ptr()) }
    }

    /// The node's centre and extents, fourth lanes 0.
    #[inline(always)]
    fn node_ce(n: &Node) -> (__m128, __m128) {
        let p = n as *const Node as *const f32;
        // SAFETY: Node is repr(C): c at 0, pos at 12, e at 16, neg at 28
        // (32 bytes, all read through the whole node's pointer); SSE2 is
        // part of x86_64.
        unsafe {
            let m3 = _mm_castsi128_ps(_mm_set_epi32(0, -1, -1, -1));
            (_mm_and_ps(_mm_loadu_ps(p), m3), _mm_and_ps(_mm_loadu_ps(p.add(4)), m3))
        }
    }

    #[inline(always)]
    fn abs(x: __m128) -> __m128 {
        // SAFETY: SSE2 is part of x86_64.
        unsafe { _mm_andnot_ps(_mm_set1_ps(-0.0), x) }
    }

    macro_rules! bc {
        ($v:expr, $i:literal) => {
            _mm_shuffle_ps::<{ $i * 0x55 }>($v, $v)
        };
    }

    #[inline]
    pub fn sphere_visit(q: &SphereQuery, n: &Node) -> Visit {
        let (c, e) = node_ce(n);
        // SAFETY: SSE2 is part of x86_64.
        unsafe {
            let zero = _mm_setzero_ps();
            let tmp = _mm_sub_ps(ld(&q.c4), c);
            let s1 = _mm_add_ps(tmp, e);
            let s2 = _mm_sub_ps(tmp, e);
            let below = _mm_cmplt_ps(s1, zero);
            let above = _mm_andnot_ps(below, _mm_cmpgt_ps(s2, zero));
            let sq = _mm_or_ps(_mm_and_ps(below, _mm_mul_ps(s1, s1)), _mm_and_ps(above, _mm_mul_ps(s2, s2)));
            // d = (d0 + d1) + d2, the scalar sum (a skipped axis adds +0).
            let d = _mm_add_ss(_mm_add_ss(sq, bc!(sq, 1)), bc!(sq, 2));
            if !(_mm_cvtss_f32(d) <= q.r2) {
                return Visit::Skip;
            }
            // Corners: q_k² for c + e (A) and c − e (B), then the eight
            // sums (q0² + q1²) + q2², corner bit k choosing B on axis k.
            let qa = _mm_sub_ps(ld(&q.c4), _mm_add_ps(c, e));
            let qb = _mm_sub_ps(ld(&q.c4), _mm_sub_ps(c, e));
            let (a, b) = (_mm_mul_ps(qa, qa), _mm_mul_ps(qb, qb));
            let ab = _mm_unpacklo_ps(a, b); // A0 B0 A1 B1
            let x = _mm_shuffle_ps::<0b01_00_01_00>(ab, ab); // A0 B0 A0 B0
            let y = _mm_shuffle_ps::<0b11_11_10_10>(ab, ab); // A1 A1 B1 B1
            let s01 = _mm_add_ps(x, y);
            let r2 = _mm_set1_ps(q.r2);
            let out = _mm_or_ps(
                _mm_cmpge_ps(_mm_add_ps(s01, bc!(a, 2)), r2),
                _mm_cmpge_ps(_mm_add_ps(s01, bc!(b, 2)), r2),
            );
            if _mm_movemask_ps(out) == 0 {
                Visit::TakeAll
            } else {
                Visit::Open
            }
        }
    }

    /// Lanes (y, z, x) of `v`, and so on: `sh!(v, 1, 2, 0)`.
    macro_rules! sh {
        ($v:expr, $a:literal, $b:literal, $c:literal) => {
            _mm_shuffle_ps::<{ $a | $b << 2 | $c << 4 | 3 << 6 }>($v, $v)
        };
    }

    /// `tri_box_centred` of the triangle moved into the box frame, every
    /// axis at once: the vertex transform ((t + p0 m0) + p1 m1) + p2 m2;
    /// min/max of three as OPCODE's macros (`fmin3(a, b, c)` is
    /// minps(minps(a, b), c) bit for bit, NaN and signed zeros included);
    /// per edge the three edge × axis projections, lane k being axis k's
    /// (lane 2 uses another vertex pair, whose projections are computed
    /// whole and blended in).
    pub fn obb_tri(q: &ObbQuery, t: &super::TriF) -> bool {
        let v = &q.v;
        // SAFETY: SSE2 is part of x86_64; `t` rows are read lane by lane.
        unsafe {
            let (m0, m1, m2, tm) = (ld(&v.m[0]), ld(&v.m[1]), ld(&v.m[2]), ld(&v.tm));
            let xf = |p: &[f32; 3]| {
                _mm_add_ps(
                    _mm_add_ps(_mm_add_ps(tm, _mm_mul_ps(_mm_set1_ps(p[0]), m0)), _mm_mul_ps(_mm_set1_ps(p[1]), m1)),
                    _mm_mul_ps(_mm_set1_ps(p[2]), m2),
                )
            };
            let (v0, v1, v2) = (xf(&t[0]), xf(&t[1]), xf(&t[2]));
            let ext = ld(&v.ext);
            let mn = _mm_min_ps(_mm_min_ps(v0, v1), v2);
            let mx = _mm_max_ps(_mm_max_ps(v0, v1), v2);
            let neg_ext = _mm_xor_ps(ext, _mm_set1_ps(-0.0));
            let out = _mm_or_ps(_mm_cmpgt_ps(mn, ext), _mm_cmplt_ps(mx, neg_ext));
            if _mm_movemask_ps(out) & 7 != 0 {
                return false;
            }
            let e0 = _mm_sub_ps(v1, v0);
            let e1 = _mm_sub_ps(v2, v1);
            let e2 = _mm_sub_ps(v0, v2);
            // The plane test, scalar as written.
            let cr = _mm_sub_ps(_mm_mul_ps(sh!(e0, 1, 2, 0), sh!(e1, 2, 0, 1)), _mm_mul_ps(sh!(e0, 2, 0, 1), sh!(e1, 1, 2, 0)));
            let (mut n, mut p0, mut ex) = ([0.0f32; 4], [0.0f32; 4], [0.0f32; 4]);
            _mm_storeu_ps(n.as_mut_ptr(), cr);
            _mm_storeu_ps(p0.as_mut_ptr(), v0);
            _mm_storeu_ps(ex.as_mut_ptr(), ext);
            let nn = [n[0], n[1], n[2]];
            let d = -super::dot3(&nn, &[p0[0], p0[1], p0[2]]);
            if !super::plane_box(&nn, d, &[ex[0], ex[1], ex[2]]) {
                return false;
            }
            // Lane 2 from `b`, lanes 0, 1 from `a`.
            let z = _mm_castsi128_ps(_mm_set_epi32(0, -1, 0, 0));
            let blend = |a: __m128, b: __m128| _mm_or_ps(_mm_andnot_ps(z, a), _mm_and_ps(z, b));
            let (ext_yxx, ext_zzy) = (sh!(ext, 1, 0, 0), sh!(ext, 2, 2, 1));
            // Edge e's projections of the vertex pair (p, q), lane z of
            // each from its own vertex (pz, qz): lane x is
            // e_z p_y − e_y p_z, lane y e_x p_z − e_z p_x, lane z
            // e_y p_x − e_x p_y (computed per whole vertex, then the
            // lanes are picked); radius f_z ext_y + f_y ext_z, and so on.
            let edge = |e: __m128, p: __m128, pz: __m128, qv: __m128, qz: __m128| {
                let (ezxy, eyzx) = (sh!(e, 2, 0, 1), sh!(e, 1, 2, 0));
                let proj = |w: __m128| _mm_sub_ps(_mm_mul_ps(ezxy, sh!(w, 1, 2, 0)), _mm_mul_ps(eyzx, sh!(w, 2, 0, 1)));
                let pp = blend(proj(p), proj(pz));
                let qq = blend(proj(qv), proj(qz));
                let f = abs(e);
                let rad = _mm_add_ps(_mm_mul_ps(sh!(f, 2, 2, 1), ext_yxx), _mm_mul_ps(sh!(f, 1, 0, 0), ext_zzy));
                let lo = _mm_min_ps(qq, pp);
                let hi = _mm_max_ps(pp, qq);
                _mm_or_ps(_mm_cmpgt_ps(lo, rad), _mm_cmplt_ps(hi, _mm_xor_ps(rad, _mm_set1_ps(-0.0))))
            };
            let sep = _mm_or_ps(
                _mm_or_ps(edge(e0, v0, v1, v2, v2), edge(e1, v0, v0, v2, v1)),
                edge(e2, v0, v1, v1, v2),
            );
            _mm_movemask_ps(sep) & 7 == 0
        }
    }

    #[inline]
    pub fn obb_visit(q: &ObbQuery, n: &Node) -> Visit {
        let (c, e) = node_ce(n);
        let v = &q.v;
        // SAFETY: SSE2 is part of x86_64.
        unsafe {
            // Box axes of the node: |t| > e + bb.
            let t = _mm_sub_ps(ld(&v.t), c);
            let at = abs(t);
            if _mm_movemask_ps(_mm_cmpgt_ps(at, _mm_add_ps(e, ld(&v.bb0)))) != 0 {
                return Visit::Skip;
            }
            // The query box's centre in the node box (|t_k| <= e_k on every
            // axis, lane 3 being 0 <= 0): no other axis can separate, so
            // only containment remains. On each axis below, the projection
            // is a rounded sum or difference of products t_k r with
            // |t_k| <= e_k and |r| <= ar (= 1e-6 + |r| rounded), and the
            // radius the rounded sum of the products e_k ar plus a term
            // >= 0 (ext, or bb, sums of ext ar): rounding is monotone and
            // symmetric, so |projection| <= radius (or a NaN makes the
            // comparison false), the test never separates.
            let centre_in = v.centre_rule && _mm_movemask_ps(_mm_cmple_ps(at, e)) == 15;
            if !centre_in && obb_axes_separate(v, t, e) {
                return Visit::Skip;
            }
            obb_contains(v, c, e)
        }
    }

    /// The 12 axes after the node's own: the query box's and the cross
    /// ones, as `ObbQuery::touches` writes them.
    #[inline(always)]
    fn obb_axes_separate(v: &super::ObbLanes, t: __m128, e: __m128) -> bool {
        // SAFETY: SSE2 is part of x86_64.
        unsafe {
            let (tx, ty, tz) = (bc!(t, 0), bc!(t, 1), bc!(t, 2));
            let (e0, e1, e2) = (bc!(e, 0), bc!(e, 1), bc!(e, 2));
            let (r0, r1, r2) = (ld(&v.r[0]), ld(&v.r[1]), ld(&v.r[2]));
            let (a0, a1, a2) = (ld(&v.ar[0]), ld(&v.ar[1]), ld(&v.ar[2]));
            // Query box axes i: (tx r_i0 + ty r_i1) + tz r_i2 against
            // ((e0 ar_i0 + e1 ar_i1) + e2 ar_i2) + ext_i.
            let p = _mm_add_ps(_mm_add_ps(_mm_mul_ps(tx, r0), _mm_mul_ps(ty, r1)), _mm_mul_ps(tz, r2));
            let l = _mm_add_ps(
                _mm_add_ps(_mm_add_ps(_mm_mul_ps(e0, a0), _mm_mul_ps(e1, a1)), _mm_mul_ps(e2, a2)),
                ld(&v.ext),
            );
            let mut sep = _mm_cmpgt_ps(abs(p), l);
            // Cross axes, three per node axis, as `touches` writes them.
            let p = _mm_sub_ps(_mm_mul_ps(tz, r1), _mm_mul_ps(ty, r2));
            let l = _mm_add_ps(_mm_add_ps(_mm_mul_ps(e1, a2), _mm_mul_ps(e2, a1)), ld(&v.bb3));
            sep = _mm_or_ps(sep, _mm_cmpgt_ps(abs(p), l));
            let p = _mm_sub_ps(_mm_mul_ps(tx, r2), _mm_mul_ps(tz, r0));
            let l = _mm_add_ps(_mm_add_ps(_mm_mul_ps(e0, a2), _mm_mul_ps(e2, a0)), ld(&v.bb6));
            sep = _mm_or_ps(sep, _mm_cmpgt_ps(abs(p), l));
            let p = _mm_sub_ps(_mm_mul_ps(ty, r0), _mm_mul_ps(tx, r1));
            let l = _mm_add_ps(_mm_add_ps(_mm_mul_ps(e0, a1), _mm_mul_ps(e1, a0)), ld(&v.bb9));
            sep = _mm_or_ps(sep, _mm_cmpgt_ps(abs(p), l));
            _mm_movemask_ps(sep) != 0
        }
    }

    /// Does the query box hold the node box?
    #[inline(always)]
    fn obb_contains(v: &super::ObbLanes, c: __m128, e: __m128) -> Visit {
        // SAFETY: SSE2 is part of x86_64.
        unsafe {
            let (e0, e1, e2) = (bc!(e, 0), bc!(e, 1), bc!(e, 2));
            // Containment: the node box in the query box's frame,
            // nc = (c0 m0 + c1 m1) + c2 m2, ne = (|m0 e0| + |m1 e1|) + |m2 e2|.
            let (m0, m1, m2) = (ld(&v.m[0]), ld(&v.m[1]), ld(&v.m[2]));
            let nc = _mm_add_ps(_mm_add_ps(_mm_mul_ps(bc!(c, 0), m0), _mm_mul_ps(bc!(c, 1), m1)), _mm_mul_ps(bc!(c, 2), m2));
            let ne = _mm_add_ps(
                _mm_add_ps(abs(_mm_mul_ps(m0, e0)), abs(_mm_mul_ps(m1, e1))),
                abs(_mm_mul_ps(m2, e2)),
            );
            let out = _mm_or_ps(
                _mm_cmplt_ps(ld(&v.b0), _mm_add_ps(nc, ne)),
                _mm_cmpgt_ps(ld(&v.b1), _mm_sub_ps(nc, ne)),
            );
            if _mm_movemask_ps(out) == 0 {
                Visit::TakeAll
            } else {
                Visit::Open
            }
        }
    }
}

// ---- per-thread scratch ----------------------------------------------------------

/// Lists a trimesh query reuses from call to call.
#[derive(Default)]
pub struct Scratch {
    /// The tree walks' pending nodes.
    pub nodes: Vec<u32>,
    pub cand: Vec<i32>,
    pub hits: Vec<Hit>,
    pub steps: Vec<Step>,
}

thread_local! {
    static SCRATCH: Cell<Option<Box<Scratch>>> = const { Cell::new(None) };
}

fn take_scratch() -> Box<Scratch> {
    SCRATCH.with(|c| c.take()).unwrap_or_default()
}

/// Runs `f` on this thread's scratch (a fresh one if a host callback
/// re-entered the collider).
pub fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    let mut s = take_scratch();
    let r = f(&mut s);
    SCRATCH.with(|c| c.set(Some(s)));
    r
}

/// A query's candidate triangles, in tree order, held in this thread's
/// scratch until dropped (so colliders keep them without allocating).
pub struct Cands {
    s: Option<Box<Scratch>>,
}

impl Cands {
    /// Runs a query filling the candidate list.
    pub fn fill(f: impl FnOnce(&mut Vec<u32>, &mut Vec<i32>)) -> Cands {
        let mut s = take_scratch();
        let Scratch { nodes, cand, .. } = &mut *s;
        f(nodes, cand);
        Cands { s: Some(s) }
    }
}

impl std::ops::Deref for Cands {
    type Target = [i32];
    fn deref(&self) -> &[i32] {
        self.s.as_ref().map_or(&[], |s| &s.cand)
    }
}

impl Drop for Cands {
    fn drop(&mut self) {
        if let Some(s) = self.s.take() {
            SCRATCH.with(|c| c.set(Some(s)));
        }
    }
}

/// A vector kept per thread for a collider's own temporaries: taken
/// (empty) by `Reused::take`, handed back when dropped.
pub struct Reused<T: 'static> {
    v: Vec<T>,
    home: &'static std::thread::LocalKey<Cell<Vec<T>>>,
}

impl<T: 'static> Reused<T> {
    pub fn take(home: &'static std::thread::LocalKey<Cell<Vec<T>>>) -> Reused<T> {
        let mut v = home.with(|c| c.take());
        v.clear();
        Reused { v, home }
    }
}

impl<T: 'static> std::ops::Deref for Reused<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.v
    }
}

impl<T: 'static> std::ops::DerefMut for Reused<T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.v
    }
}

impl<T: 'static> Drop for Reused<T> {
    fn drop(&mut self) {
        let mut v = std::mem::take(&mut self.v);
        v.clear();
        // Keep the larger buffer if a re-entrant call left one behind.
        self.home.with(|c| {
            let other = c.take();
            c.set(if other.capacity() > v.capacity() { other } else { v });
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::shapes::Pose;
    use crate::collision::trimesh::TriMeshData;
    use crate::math::rotation::r_from_axis_and_angle;

    /// A small deterministic generator (no dependency, same sequence
    /// everywhere).
    struct Lcg(u64);
    impl Lcg {
        fn unit(&mut self) -> f64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
        /// In [lo, hi), on a grid of `step` when step > 0 (grid values
        /// make exact ties between query and node bounds common).
        fn range(&mut self, lo: f64, hi: f64, step: f64) -> f64 {
            let x = lo + (hi - lo) * self.unit();
            if step > 0.0 {
                (x / step).round() * step
            } else {
                x
            }
        }
    }

    fn random_mesh(g: &mut Lcg, tris: usize, grid: f64) -> (Vec<f32>, Vec<u32>) {
        let mut v = Vec::new();
        let mut idx = Vec::new();
        for t in 0..tris {
            let c = [g.range(-5.0, 5.0, grid), g.range(-5.0, 5.0, grid), g.range(-1.0, 1.0, grid)];
            for _ in 0..3 {
                for cj in c {
                    v.push((cj + g.range(-0.6, 0.6, grid)) as f32);
                }
            }
            idx.extend([3 * t as u32, 3 * t as u32 + 1, 3 * t as u32 + 2]);
        }
        (v, idx)
    }

    fn build(v: &[f32], idx: &[u32]) -> TriMeshData {
        let mut d = TriMeshData::default();
        // SAFETY: the buffers outlive `d`'s use in the test; indices are
        // below the vertex count.
        unsafe {
            d.build(v.as_ptr() as *const u8, 12, v.len() / 3, false, idx.as_ptr() as *const u8, idx.len() / 3, 12, std::ptr::null())
        };
        d
    }

    /// OPCODE's walk with the scalar node tests (the reference).
    fn walk_ref(mesh: &Mesh, visit: impl Fn(&Node) -> Visit, tri: impl Fn(&TriF) -> bool) -> Vec<i32> {
        let mut out = Vec::new();
        mesh.data.bvh.walk(&mut Vec::new(), visit, |t, tested| {
            if !tested || tri(&tri_f(mesh, t)) {
                out.push(t as i32);
            }
            false
        });
        out
    }

    /// The SIMD node tests decide as the scalar ones on every node, and
    /// the candidate lists (order included) equal the reference walk's,
    /// for random sphere and box queries of every size on random meshes
    /// (grid-snapped coordinates for exact ties, and free ones).
    #[test]
    fn node_tests_and_candidates_match_the_scalar_reference() {
        let mut g = Lcg(12345);
        let (mut decisions, mut kinds) = (0usize, [0usize; 3]);
        for m in 0..12usize {
            let grid = if m.is_multiple_of(2) { 0.25 } else { 0.0 };
            let (v, idx) = random_mesh(&mut g, 40 + 37 * m, grid);
            let data = build(&v, &idx);
            for q in 0..60usize {
                let r = r_from_axis_and_angle(g.unit() - 0.5, g.unit() - 0.5, g.unit() - 0.5, 6.0 * g.unit());
                let mr = if q.is_multiple_of(3) { crate::math::rotation::IDENTITY } else { r };
                let mp = [g.range(-1.0, 1.0, grid), g.range(-1.0, 1.0, grid), 0.0, 0.0];
                let mesh = Mesh { data: &data, pose: Pose::new([mp[0], mp[1], mp[2]], mr) };
                let size = [0.05, 0.5, 2.0, 20.0][q % 4];
                let c = [g.range(-6.0, 6.0, grid), g.range(-6.0, 6.0, grid), g.range(-1.5, 1.5, grid), 0.0];
                // Sphere.
                let sq = SphereQuery::new(&[c[0], c[1], c[2]], size * (0.2 + g.unit()), &mesh.pose.pos, &mesh.pose.r);
                for n in &data.bvh.nodes {
                    let d = sq.visit(n);
                    assert_eq!(d, sq.visit_ref(n));
                    kinds[d as usize] += 1;
                    decisions += 1;
                }
                let mut got = Vec::new();
                sphere_candidates(&mesh, &sq, &mut Vec::new(), &mut got);
                assert_eq!(got, walk_ref(&mesh, |n| sq.visit_ref(n), |_| true), "sphere mesh {m} query {q}");
                // Oriented box (axis-aligned in the mesh frame now and then).
                let br = if q.is_multiple_of(5) { crate::math::rotation::IDENTITY } else { r_from_axis_and_angle(g.unit(), g.unit(), 0.3, 5.0 * g.unit()) };
                let h = [size * (0.1 + g.unit()), size * (0.1 + g.unit()), size * (0.1 + g.unit())];
                let bq = ObbQuery::for_geom(&c, &br, &h, &mesh.pose.pos, &mesh.pose.r);
                for n in &data.bvh.nodes {
                    let d = bq.visit(n);
                    assert_eq!(d, bq.visit_ref(n));
                    kinds[d as usize] += 1;
                    decisions += 1;
                }
                for prim in [true, false] {
                    let mut got = Vec::new();
                    obb_candidates(&mesh, &bq, prim, &mut Vec::new(), &mut got);
                    let want = walk_ref(&mesh, |n| bq.visit_ref(n), |t| !prim || bq.tri_overlap_ref(t));
                    assert_eq!(got, want, "box mesh {m} query {q} prim {prim}");
                }
            }
        }
        // Every outcome occurs often (the test exercises all paths).
        assert!(kinds.iter().all(|&k| k > decisions / 50), "{kinds:?}");
    }

    /// The SIMD triangle–box test decides as the scalar one: random
    /// triangles (grid-snapped for exact ties, degenerate ones, odd
    /// numbers) against random boxes of every size.
    #[test]
    fn triangle_box_test_matches_the_scalar_reference() {
        let mut g = Lcg(4242);
        let odd = [0.0f32, -0.0, 1e-40, 1e30, f32::INFINITY, f32::NAN, 0.5];
        let (mut hits, mut total) = (0, 0);
        for i in 0..200_000usize {
            let grid = if i.is_multiple_of(2) { 0.25 } else { 0.0 };
            let mr = if i.is_multiple_of(3) { crate::math::rotation::IDENTITY } else { r_from_axis_and_angle(0.3, g.unit(), 0.5, 4.0 * g.unit()) };
            let br = if i.is_multiple_of(5) { crate::math::rotation::IDENTITY } else { r_from_axis_and_angle(g.unit(), 0.2, g.unit(), 4.0 * g.unit()) };
            let size = [0.1, 0.5, 2.0][i % 3];
            let h = [size * (0.1 + g.unit()), size * (0.1 + g.unit()), size * (0.1 + g.unit())];
            let c = [g.range(-1.0, 1.0, grid), g.range(-1.0, 1.0, grid), g.range(-1.0, 1.0, grid), 0.0];
            let q = ObbQuery::for_geom(&c, &br, &h, &[0.0; 4], &mr);
            let mut t: TriF = [[0.0; 3]; 3];
            for (k, p) in t.iter_mut().enumerate() {
                for x in p.iter_mut() {
                    *x = if i.is_multiple_of(97) && k == 1 { odd[(g.unit() * 7.0) as usize] } else { g.range(-1.5, 1.5, grid) as f32 };
                }
            }
            if i.is_multiple_of(11) {
                t[2] = t[0]; // degenerate
            }
            let want = q.tri_overlap_ref(&t);
            assert_eq!(q.tri_overlap(&t), want, "{t:?} {c:?} {h:?}");
            hits += want as usize;
            total += 1;
        }
        assert!(hits > total / 10 && hits < total * 9 / 10, "{hits} of {total}");
    }

    /// The box node test's centre rule: a node box holding the query
    /// box's centre (|t_k| <= e_k as computed) is never skipped by the
    /// scalar reference when no half extent is negative, and the SIMD
    /// test decides as the reference on such nodes (ties at the faces,
    /// zero, tiny and huge extents, every orientation) and with negative
    /// half extents, where the rule is off.
    #[test]
    fn centre_rule_never_skips_a_touching_node() {
        let mut g = Lcg(777);
        let (mut inside, mut taken) = (0usize, 0usize);
        for i in 0..100_000usize {
            let grid = if i.is_multiple_of(2) { 0.125 } else { 0.0 };
            let mr = if i.is_multiple_of(3) { crate::math::rotation::IDENTITY } else { r_from_axis_and_angle(g.unit(), 0.4, g.unit(), 6.0 * g.unit()) };
            let br = if i.is_multiple_of(5) { crate::math::rotation::IDENTITY } else { r_from_axis_and_angle(0.1, g.unit(), g.unit(), 6.0 * g.unit()) };
            let size = [1e-3, 0.3, 2.0, 50.0][i % 4];
            let sign = if i.is_multiple_of(17) { -1.0 } else { 1.0 };
            let h = [sign * size * g.unit(), size * g.unit(), size * g.unit()];
            let c = [g.range(-3.0, 3.0, grid), g.range(-3.0, 3.0, grid), g.range(-3.0, 3.0, grid), 0.0];
            let q = ObbQuery::for_geom(&c, &br, &h, &[g.range(-1.0, 1.0, grid), 0.5, 0.0, 0.0], &mr);
            // A node around the query centre (in mesh space), often with
            // the centre exactly on a face.
            let mut n = Node::default();
            for k in 0..3 {
                let e = [0.0, 1e-30, 0.01, 1.0, 10.0, 1e6][(g.unit() * 6.0) as usize] * g.unit() as f32;
                let e = if i.is_multiple_of(7) { e.round() } else { e };
                let off = match (g.unit() * 4.0) as usize {
                    0 => e,
                    1 => -e,
                    _ => e * (2.0 * g.unit() as f32 - 1.0),
                };
                n.c[k] = q.t_b2m[k] + off;
                n.e[k] = e;
            }
            let d = q.visit_ref(&n);
            assert_eq!(q.visit(&n), d, "{n:?} {h:?}");
            let held = (0..3).all(|k| (q.t_b2m[k] - n.c[k]).abs() <= n.e[k]);
            if held && sign > 0.0 {
                inside += 1;
                assert_ne!(d, Visit::Skip, "{n:?} {h:?}");
                taken += (d == Visit::TakeAll) as usize;
            }
        }
        assert!(inside > 50_000 && taken > 100, "{inside} {taken}");
    }

    /// Node boxes with zero, huge or non-finite numbers and the child
    /// codes' lanes never change a decision.
    #[test]
    fn node_tests_match_on_odd_numbers() {
        let mut g = Lcg(99);
        let odd = [0.0f32, -0.0, 1e-40, 1e30, f32::INFINITY, -f32::INFINITY, f32::NAN, 0.5, -2.0];
        let data = TriMeshData::default();
        let mesh_r = r_from_axis_and_angle(0.2, 0.5, 0.9, 0.7);
        let mesh = Mesh { data: &data, pose: Pose::new([0.1, 0.2, 0.3], mesh_r) };
        for i in 0..20000usize {
            let mut pick = |k: usize| if (i + k).is_multiple_of(4) { odd[(g.unit() * 9.0) as usize] } else { g.range(-2.0, 2.0, 0.5) as f32 };
            let (c, e) = ([pick(0), pick(1), pick(2)], [pick(3).abs(), pick(5).abs(), pick(6).abs()]);
            let n = Node { c, pos: (g.unit() * 4e9) as u32, e, neg: (g.unit() * 4e9) as u32 };
            let c = [g.range(-2.0, 2.0, 0.5), g.range(-2.0, 2.0, 0.5), g.range(-2.0, 2.0, 0.5)];
            let sq = SphereQuery::new(&c, g.range(0.0, 3.0, 0.5), &mesh.pose.pos, &mesh.pose.r);
            assert_eq!(sq.visit(&n), sq.visit_ref(&n), "{n:?}");
            let bq = ObbQuery::for_geom(&[c[0], c[1], c[2], 0.0], &mesh_r, &[0.5, 1.0, 0.25], &mesh.pose.pos, &mesh.pose.r);
            assert_eq!(bq.visit(&n), bq.visit_ref(&n), "{n:?}");
        }
    }
}
