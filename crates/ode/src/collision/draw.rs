//! Debug drawing: walks a geom or a space tree and hands each drawable
//! shape to a sink with its world placement (`odexSpaceDraw`,
//! `odexGeomDraw` in ode/ode_ext.h are thin wrappers).
//!
//! Placements are the ones ODE's getters give (`position`/`rotation`, so
//! offsets on bodies are resolved); the child of a geom transform is placed
//! by composing the transform's pose with the child's as the transform
//! collider does. Triangle meshes and heightfields are given as triangle
//! lists in the geom's own frame, built in a scratch buffer the caller
//! keeps, so a warm walk does not allocate. During a space walk the root
//! space is locked as during `dSpaceCollide`: the sink cannot add, remove or
//! destroy members, and every handle is re-checked before it is read.

use super::geom::{self, g, GeomRef, Shape};
use super::heightfield_data::HEIGHTFIELDS;
use super::shapes::Pose;
use super::space;
use crate::math::mat3::{mul0_331, mul0_333};

/// One drawable shape. Sizes follow ODE's getters (box side lengths,
/// capsule/cylinder length without caps).
pub enum DrawShape<'a> {
    Sphere { radius: f64 },
    Box { sides: [f64; 3] },
    Capsule { radius: f64, length: f64 },
    Cylinder { radius: f64, length: f64 },
    /// `a x + b y + c z = d` with unit normal (`dGeomPlaneGetParams`).
    Plane { params: [f64; 4] },
    /// From `start` along unit `dir` for `length` (`dGeomRayGet`).
    Ray { start: [f64; 3], dir: [f64; 3], length: f64 },
    /// The host's arrays as given to `dCreateConvex` (not copied).
    Convex {
        planes: *const f64,
        plane_count: u32,
        points: *const f64,
        point_count: u32,
        polygons: *const u32,
    },
    /// Triangles in the geom's frame, 9 reals per triangle.
    TriMesh { triangles: &'a [f64] },
    /// Triangles in the geom's frame (y up), 9 reals per triangle.
    Heightfield { triangles: &'a [f64] },
}

/// A shape at its world placement. `geom` is the geom whose shape it is
/// (for a transform's child, the child).
pub struct DrawItem<'a> {
    pub geom: GeomRef,
    pub pose: Pose,
    pub shape: DrawShape<'a>,
}

/// Buffers reused between walks.
#[derive(Default)]
pub struct DrawScratch {
    geoms: Vec<GeomRef>,
    triangles: Vec<f64>,
}

/// Why a walk stopped early.
#[derive(Debug, PartialEq, Eq)]
pub enum DrawError {
    /// A geom collected for the walk was destroyed by the sink (`drawn`
    /// shapes had been handed out).
    Destroyed { drawn: usize },
}

/// Nested transforms deeper than this are not followed (a cycle guard).
const MAX_TRANSFORM_DEPTH: usize = 16;

/// The sink: returns whether it drew the item (what the walk counts).
pub type Sink<'s> = dyn FnMut(&DrawItem<'_>) -> bool + 's;

/// Draws every geom in space `s` and its nested spaces, in each space's
/// own order (disabled geoms included). Returns how many items the sink
/// drew. Geoms of host-defined classes and transforms without a child are
/// not drawn.
pub fn draw_space(s: GeomRef, scratch: &mut DrawScratch, sink: &mut Sink<'_>) -> Result<usize, DrawError> {
    scratch.geoms.clear();
    collect(s, &mut scratch.geoms);
    let _lock = Lock::new(s);
    let mut drawn = 0;
    for i in 0..scratch.geoms.len() {
        let h = scratch.geoms[i];
        if !h.is_live() {
            return Err(DrawError::Destroyed { drawn });
        }
        drawn += draw_one(h, None, 0, &mut scratch.triangles, sink);
    }
    Ok(drawn)
}

/// Draws one geom (a space: its tree, as `draw_space`).
pub fn draw_geom(h: GeomRef, scratch: &mut DrawScratch, sink: &mut Sink<'_>) -> Result<usize, DrawError> {
    if g(h).is_space() {
        return draw_space(h, scratch, sink);
    }
    Ok(draw_one(h, None, 0, &mut scratch.triangles, sink))
}

/// Non-space members of `s`'s tree, depth first.
fn collect(s: GeomRef, out: &mut Vec<GeomRef>) {
    space::for_each_child(s, &mut |c| {
        if g(c).is_space() {
            collect(c, out);
        } else {
            out.push(c);
        }
    });
}

/// Holds a space locked for the walk.
struct Lock(GeomRef);

impl Lock {
    fn new(s: GeomRef) -> Lock {
        space::sp(s).lock_count += 1;
        Lock(s)
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // The lock refuses destruction, but stay defensive.
        if self.0.is_live() {
            let sp = space::sp(self.0);
            sp.lock_count = sp.lock_count.saturating_sub(1);
        }
    }
}

/// Draws `h` at `at` (a composed pose for a transform's child) or its own
/// placement. Returns 1 if the sink drew it, else 0.
fn draw_one(h: GeomRef, at: Option<Pose>, depth: usize, tris: &mut Vec<f64>, sink: &mut Sink<'_>) -> usize {
    let gm = g(h);
    let pose = || at.unwrap_or_else(|| if gm.is_placeable() { geom::pose(h) } else { Pose::IDENTITY });
    let shape = match &gm.shape {
        Shape::Sphere(s) => DrawShape::Sphere { radius: s.radius },
        Shape::Box(b) => DrawShape::Box { sides: b.sides },
        Shape::Capsule(c) => DrawShape::Capsule { radius: c.radius, length: c.length },
        Shape::Cylinder(c) => DrawShape::Cylinder { radius: c.radius, length: c.length },
        Shape::Plane(p) => DrawShape::Plane { params: [p.n[0], p.n[1], p.n[2], p.d] },
        Shape::Ray(r) => {
            let p = pose();
            DrawShape::Ray { start: [p.pos[0], p.pos[1], p.pos[2]], dir: p.axis(2), length: r.length }
        }
        Shape::Convex(c) => DrawShape::Convex {
            planes: c.planes,
            plane_count: c.plane_count,
            points: c.points,
            point_count: c.point_count,
            polygons: c.polygons,
        },
        Shape::TriMesh(tm) => {
            let Some(d) = tm.live_data() else { return 0 };
            tris.clear();
            for t in 0..d.tri_count {
                for v in d.local_triangle(t) {
                    tris.extend_from_slice(&v);
                }
            }
            DrawShape::TriMesh { triangles: tris }
        }
        Shape::Heightfield(hf) => {
            let Some(d) = HEIGHTFIELDS.check(hf.data) else { return 0 };
            heightfield_triangles(d.get(), tris);
            DrawShape::Heightfield { triangles: tris }
        }
        Shape::Transform(_) => {
            let Some(c) = geom::transform_child(h) else { return 0 };
            if depth >= MAX_TRANSFORM_DEPTH {
                return 0;
            }
            let t = pose();
            let cp = if g(c).is_placeable() { geom::pose(c) } else { Pose::IDENTITY };
            let p = mul0_331(&t.r, &[cp.pos[0], cp.pos[1], cp.pos[2]]);
            let composed = Pose {
                pos: [p[0] + t.pos[0], p[1] + t.pos[1], p[2] + t.pos[2], 0.0],
                r: mul0_333(&t.r, &cp.r),
            };
            return draw_one(c, Some(composed), depth + 1, tris, sink);
        }
        Shape::User(_) | Shape::Space(_) => return 0,
    };
    let item = DrawItem { geom: h, pose: pose(), shape };
    sink(&item) as usize
}

/// Two triangles per grid cell, counter-clockwise seen from +y, in the
/// heightfield's frame (x across the width, z across the depth, both
/// centred; heights scaled and offset as the colliders see them).
fn heightfield_triangles(d: &super::heightfield_data::HeightfieldData, out: &mut Vec<f64>) {
    out.clear();
    let (ws, ds) = (d.width_samples, d.depth_samples);
    if ws < 2 || ds < 2 {
        return;
    }
    let at = |x: i32, z: i32| {
        [x as f64 * d.sample_width - d.half_width, d.height_at(x, z), z as f64 * d.sample_depth - d.half_depth]
    };
    for z in 0..ds - 1 {
        for x in 0..ws - 1 {
            let (a, b, c, e) = (at(x, z), at(x + 1, z), at(x, z + 1), at(x + 1, z + 1));
            for v in [a, c, b, b, c, e] {
                out.extend_from_slice(&v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::geom::class;
    use crate::collision::shapes::{BoxShape, Sphere};
    use crate::collision::space::Kind;

    #[test]
    fn draw_space_nested_and_transform() {
        let root = space::create(None, Kind::Simple);
        let inner = space::create(Some(root), Kind::Simple);
        let b = geom::create(Some(root), true, class::BOX, Shape::Box(BoxShape { sides: [1.0, 2.0, 3.0] }));
        geom::set_position(b, [1.0, 2.0, 3.0]);
        let s = geom::create(Some(inner), true, class::SPHERE, Shape::Sphere(Sphere { radius: 0.5 }));
        geom::set_position(s, [4.0, 5.0, 6.0]);
        let t = geom::create(Some(root), true, class::TRANSFORM, Shape::Transform(geom::Transform::new()));
        let c = geom::create(None, true, class::SPHERE, Shape::Sphere(Sphere { radius: 0.25 }));
        geom::set_position(c, [0.0, 0.0, 1.0]);
        if let Shape::Transform(tt) = &mut g(t).shape {
            tt.obj = Some(c);
        }
        geom::set_position(t, [10.0, 0.0, 0.0]);
        let mut seen = Vec::new();
        let mut scratch = DrawScratch::default();
        let n = draw_space(root, &mut scratch, &mut |it: &DrawItem<'_>| {
            let size = match it.shape {
                DrawShape::Box { sides } => sides[0],
                DrawShape::Sphere { radius } => radius,
                _ => -1.0,
            };
            seen.push((it.geom, [it.pose.pos[0], it.pose.pos[1], it.pose.pos[2]], size));
            true
        })
        .unwrap();
        assert_eq!(n, 3);
        assert!(seen.contains(&(b, [1.0, 2.0, 3.0], 1.0)));
        assert!(seen.contains(&(s, [4.0, 5.0, 6.0], 0.5)));
        assert!(seen.contains(&(c, [10.0, 0.0, 1.0], 0.25)));
        // The lock is released.
        assert!(!space::is_locked(root));
        if let Shape::Transform(tt) = &mut g(t).shape {
            tt.obj = None;
        }
        geom::destroy(c);
        geom::destroy(root);
    }

    #[test]
    fn draw_space_counts_only_drawn_items() {
        let root = space::create(None, Kind::Simple);
        geom::create(Some(root), true, class::SPHERE, Shape::Sphere(Sphere { radius: 1.0 }));
        geom::create(Some(root), true, class::BOX, Shape::Box(BoxShape { sides: [1.0; 3] }));
        let mut scratch = DrawScratch::default();
        let n = draw_space(root, &mut scratch, &mut |it: &DrawItem<'_>| matches!(it.shape, DrawShape::Box { .. }));
        assert_eq!(n, Ok(1));
        geom::destroy(root);
    }

    #[test]
    fn draw_space_stops_at_a_geom_destroyed_by_the_sink() {
        // The C layer's lock refuses this; the core walk still re-checks
        // every handle before reading it.
        let root = space::create(None, Kind::Simple);
        let a = geom::create(Some(root), true, class::SPHERE, Shape::Sphere(Sphere { radius: 1.0 }));
        let b = geom::create(Some(root), true, class::SPHERE, Shape::Sphere(Sphere { radius: 2.0 }));
        let mut scratch = DrawScratch::default();
        let r = draw_space(root, &mut scratch, &mut |it: &DrawItem<'_>| {
            let other = if it.geom == a { b } else { a };
            space::sp(root).lock_count -= 1;
            geom::destroy(other);
            space::sp(root).lock_count += 1;
            true
        });
        assert_eq!(r, Err(DrawError::Destroyed { drawn: 1 }));
        assert!(!space::is_locked(root));
        geom::destroy(root);
    }
}
