//! Shapes as triangles: each `dsDraw*` call becomes world-space vertices in
//! the frame, plus its shadow (the shape flattened onto z = 0 along the
//! light direction) when shadows are on, as ODE's drawstuff draws them.
//! Tessellation follows drawstuff's: an icosahedron subdivided `quality`
//! times for spheres, 24 sides for cylinders, `4 × quality` for capsules.
use crate::camera::Viewpoint;
use crate::frame::{DepthLayer, Frame, Primitive, Vertex};
use glam::Vec3;

/// Light direction (towards the light); drawstuff's light is at (1, 0.4, 1, 0).
pub const LIGHT: [f32; 3] = [1.0, 0.4, 1.0];
/// Ground colour without texture, and how dark shadows make it.
pub const GROUND_COLOR: [f32; 3] = [0.5, 0.5, 0.3];
pub const SHADOW_INTENSITY: f32 = 0.65;
/// Texture numbers (drawstuff.h's DS_TEXTURE_NUMBER).
pub const TEX_NONE: i32 = 0;
pub const TEX_GROUND: i32 = 3;
pub const TEX_SKY: i32 = 4;

/// The drawing state `dsSet*` calls change.
#[derive(Clone, Copy, Debug)]
pub struct DrawState {
    /// Current RGBA colour.
    pub color: [f32; 4],
    /// Current texture number (`DS_NONE` … `DS_SKY`).
    pub texture: i32,
    /// `DS_WIREFRAME` is on.
    pub wireframe: bool,
    /// Sphere subdivision level (drawstuff's default 1).
    pub sphere_quality: i32,
    /// Capsule quality (drawstuff's default 3).
    pub capsule_quality: i32,
    /// Textures drawn (Ctrl-T, `-notex`).
    pub textures: bool,
    /// Shadows drawn (Ctrl-S, `-noshadow`).
    pub shadows: bool,
}

impl Default for DrawState {
    fn default() -> Self {
        DrawState {
            color: [1.0; 4],
            texture: TEX_NONE,
            wireframe: false,
            sphere_quality: 1,
            capsule_quality: 3,
            textures: true,
            shadows: true,
        }
    }
}

/// A rigid placement: position and ODE's 3×4 row-major rotation.
#[derive(Clone, Copy, Debug)]
pub struct Placement {
    /// Position of the shape's origin.
    pub pos: [f32; 3],
    /// Rotation, rows padded to 4 (dMatrix3).
    pub r: [f32; 12],
}

impl Placement {
    fn point(&self, p: Vec3) -> Vec3 {
        let r = &self.r;
        Vec3::new(
            r[0] * p.x + r[1] * p.y + r[2] * p.z + self.pos[0],
            r[4] * p.x + r[5] * p.y + r[6] * p.z + self.pos[1],
            r[8] * p.x + r[9] * p.y + r[10] * p.z + self.pos[2],
        )
    }
    fn vector(&self, v: Vec3) -> Vec3 {
        let r = &self.r;
        Vec3::new(
            r[0] * v.x + r[1] * v.y + r[2] * v.z,
            r[4] * v.x + r[5] * v.y + r[6] * v.z,
            r[8] * v.x + r[9] * v.y + r[10] * v.z,
        )
    }
}

/// An object-space vertex: position, normal and the point drawstuff's
/// object-linear texture generation reads (the coordinates it passed to GL).
#[derive(Clone, Copy, Debug)]
struct ObjVertex {
    p: Vec3,
    n: Vec3,
    tex_p: Vec3,
}

fn ov(p: Vec3, n: Vec3) -> ObjVertex {
    ObjVertex { p, n, tex_p: p }
}

/// Object-linear texture coordinates of drawstuff's object textures.
fn object_uv(p: Vec3) -> [f32; 2] {
    [p.x + p.y + 1.0, 0.817 * (p.x - p.y + p.z) + 1.0]
}

/// Ground texture coordinates of a point on z = 0.
pub fn ground_uv(x: f32, y: f32) -> [f32; 2] {
    [x + 0.5, y + 0.5]
}

/// Where a point's shadow falls on z = 0.
fn shadow_point(p: Vec3) -> Vec3 {
    Vec3::new(p.x - LIGHT[0] * p.z, p.y - LIGHT[1] * p.z, 0.0)
}

/// Scratch buffers reused between calls (no allocation once warm).
#[derive(Default)]
pub struct Tessellator {
    tris: Vec<ObjVertex>,
    out: Vec<Vertex>,
    shadow: Vec<Vertex>,
}

impl Tessellator {
    /// Emits the triangles in `self.tris` (object space) lit and coloured
    /// by `st`, and their shadow.
    fn emit_solid(&mut self, frame: &mut Frame, st: &DrawState, at: &Placement, shadow: bool) {
        let tex = if st.textures && (1..=4).contains(&st.texture) { st.texture } else { TEX_NONE };
        self.out.clear();
        for v in &self.tris {
            let p = at.point(v.p);
            let n = at.vector(v.n).normalize_or_zero();
            self.out.push(Vertex {
                pos: p.to_array(),
                normal: n.to_array(),
                color: st.color,
                uv: object_uv(v.tex_p),
                lit: 1.0,
                texture: tex as f32,
            });
        }
        frame.push(Primitive::Triangles, st.wireframe, DepthLayer::Normal, &self.out);
        if shadow && st.shadows {
            self.shadow.clear();
            for v in &self.out {
                let s = shadow_point(Vec3::from(v.pos));
                self.shadow.push(shadow_vertex(st, s));
            }
            frame.push(Primitive::Triangles, st.wireframe, DepthLayer::Shadow, &self.shadow);
        }
    }

    /// A box centred at the placement.
    pub fn draw_box(&mut self, frame: &mut Frame, st: &DrawState, at: &Placement, sides: [f32; 3]) {
        let h = Vec3::from(sides) * 0.5;
        self.tris.clear();
        // Each face: outward normal and two in-face axes (u × v = n).
        let faces = [(Vec3::X, Vec3::Y, Vec3::Z), (Vec3::Y, Vec3::Z, Vec3::X), (Vec3::Z, Vec3::X, Vec3::Y)];
        for (n, u, v) in faces {
            for sign in [1.0f32, -1.0] {
                let n = n * sign;
                let (u, v) = if sign > 0.0 { (u, v) } else { (v, u) };
                let c = n * h;
                let (du, dv) = (u * h, v * h);
                let q = [c - du - dv, c + du - dv, c + du + dv, c - du + dv];
                for i in [0, 1, 2, 0, 2, 3] {
                    self.tris.push(ov(q[i], n));
                }
            }
        }
        self.emit_solid(frame, st, at, true);
    }

    /// A sphere: an icosahedron subdivided `sphere_quality` times.
    pub fn draw_sphere(&mut self, frame: &mut Frame, st: &DrawState, at: &Placement, radius: f32) {
        const X: f32 = 0.525_731_1;
        const Z: f32 = 0.850_650_8;
        let v = [
            Vec3::new(-X, 0.0, Z),
            Vec3::new(X, 0.0, Z),
            Vec3::new(-X, 0.0, -Z),
            Vec3::new(X, 0.0, -Z),
            Vec3::new(0.0, Z, X),
            Vec3::new(0.0, Z, -X),
            Vec3::new(0.0, -Z, X),
            Vec3::new(0.0, -Z, -X),
            Vec3::new(Z, X, 0.0),
            Vec3::new(-Z, X, 0.0),
            Vec3::new(Z, -X, 0.0),
            Vec3::new(-Z, -X, 0.0),
        ];
        const FACES: [[usize; 3]; 20] = [
            [0, 4, 1],
            [0, 9, 4],
            [9, 5, 4],
            [4, 5, 8],
            [4, 8, 1],
            [8, 10, 1],
            [8, 3, 10],
            [5, 3, 8],
            [5, 2, 3],
            [2, 7, 3],
            [7, 10, 3],
            [7, 6, 10],
            [7, 11, 6],
            [11, 0, 6],
            [0, 1, 6],
            [6, 1, 10],
            [9, 0, 11],
            [9, 11, 2],
            [9, 2, 5],
            [7, 2, 11],
        ];
        self.tris.clear();
        let level = st.sphere_quality.clamp(0, 5) as u32;
        for f in FACES {
            // drawstuff's table winds clockwise seen from outside; reverse.
            subdivide(&mut self.tris, v[f[0]], v[f[2]], v[f[1]], level, radius);
        }
        self.emit_solid(frame, st, at, true);
    }

    /// One quad of a round side between unit directions `d0` and `d1` (in
    /// the xy plane), from z = −`hl` to `hl`; returns its corners (bottom
    /// d0, bottom d1, top d0, top d1).
    fn push_side(&mut self, d0: Vec3, d1: Vec3, radius: f32, hl: f32) -> [Vec3; 4] {
        let (b0, b1) = (d0 * radius - Vec3::Z * hl, d1 * radius - Vec3::Z * hl);
        let (t0, t1) = (d0 * radius + Vec3::Z * hl, d1 * radius + Vec3::Z * hl);
        for (p, n) in [(b0, d0), (b1, d1), (t1, d1), (b0, d0), (t1, d1), (t0, d0)] {
            self.tris.push(ov(p, n));
        }
        [b0, b1, t0, t1]
    }

    /// A cylinder along local z, `length` long, with flat caps.
    pub fn draw_cylinder(&mut self, frame: &mut Frame, st: &DrawState, at: &Placement, length: f32, radius: f32) {
        const SIDES: usize = 24;
        let hl = length * 0.5;
        self.tris.clear();
        let ring = |i: usize| {
            let a = i as f32 * std::f32::consts::TAU / SIDES as f32;
            Vec3::new(a.cos(), a.sin(), 0.0)
        };
        for i in 0..SIDES {
            let (d0, d1) = (ring(i), ring(i + 1));
            let [b0, b1, t0, t1] = self.push_side(d0, d1, radius, hl);
            for (p, n) in [(Vec3::Z * hl, Vec3::Z), (t0, Vec3::Z), (t1, Vec3::Z)] {
                self.tris.push(ov(p, n));
            }
            for (p, n) in [(-Vec3::Z * hl, -Vec3::Z), (b1, -Vec3::Z), (b0, -Vec3::Z)] {
                self.tris.push(ov(p, n));
            }
        }
        self.emit_solid(frame, st, at, true);
    }

    /// A capsule along local z: a cylinder `length` long with hemispherical caps.
    pub fn draw_capsule(&mut self, frame: &mut Frame, st: &DrawState, at: &Placement, length: f32, radius: f32) {
        let n = (st.capsule_quality.clamp(1, 16) * 4) as usize;
        let rings = n / 4;
        let hl = length * 0.5;
        self.tris.clear();
        // Unit direction at longitude i (of n) and latitude j (of `rings`, 0 = equator) on one cap.
        let dir = |i: usize, j: usize, up: f32| {
            let a = i as f32 * std::f32::consts::TAU / n as f32;
            let b = j as f32 * std::f32::consts::FRAC_PI_2 / rings as f32;
            Vec3::new(a.cos() * b.cos(), a.sin() * b.cos(), up * b.sin())
        };
        for i in 0..n {
            let (d0, d1) = (dir(i, 0, 1.0), dir(i + 1, 0, 1.0));
            self.push_side(d0, d1, radius, hl);
            for (up, c) in [(1.0f32, Vec3::Z * hl), (-1.0, -Vec3::Z * hl)] {
                for j in 0..rings {
                    let q = [dir(i, j, up), dir(i + 1, j, up), dir(i + 1, j + 1, up), dir(i, j + 1, up)];
                    let quad: &[usize] = match (up > 0.0, j + 1 == rings) {
                        // The last ring meets at the pole: one triangle.
                        (true, true) => &[0, 1, 2],
                        (false, true) => &[0, 2, 1],
                        (true, false) => &[0, 1, 2, 0, 2, 3],
                        (false, false) => &[0, 2, 1, 0, 3, 2],
                    };
                    for &k in quad {
                        self.tris.push(ov(c + q[k] * radius, q[k]));
                    }
                }
            }
        }
        self.emit_solid(frame, st, at, true);
    }

    /// A convex polyhedron in ODE's format: `planes` (a, b, c, d) per face,
    /// `points` (x, y, z), and `polygons` = per face a count then indices.
    /// Faces are fanned, wound to face along their plane's normal; a face
    /// whose indices run past the arrays ends the drawing.
    pub fn draw_convex(
        &mut self,
        frame: &mut Frame,
        st: &DrawState,
        at: &Placement,
        planes: &[[f32; 4]],
        points: &[[f32; 3]],
        polygons: &[u32],
    ) {
        self.tris.clear();
        let mut k = 0usize;
        for plane in planes {
            let Some(&count) = polygons.get(k) else { break };
            let count = count as usize;
            let Some(idx) = polygons.get(k + 1..k + 1 + count) else { break };
            k += 1 + count;
            if idx.iter().any(|&i| i as usize >= points.len()) || count < 3 {
                continue;
            }
            let n = Vec3::new(plane[0], plane[1], plane[2]).normalize_or_zero();
            let p = |i: usize| Vec3::from(points[idx[i] as usize]);
            for i in 1..count - 1 {
                let (a, b, c) = (p(0), p(i), p(i + 1));
                let (b, c) = if (b - a).cross(c - a).dot(n) >= 0.0 { (b, c) } else { (c, b) };
                for q in [a, b, c] {
                    self.tris.push(ov(q, n));
                }
            }
        }
        self.emit_solid(frame, st, at, true);
    }

    /// Triangles given by their corners (object space, 9 floats each);
    /// solid ones lit with their face normal, others as outlines. No shadow,
    /// as in drawstuff.
    pub fn draw_triangles(
        &mut self,
        frame: &mut Frame,
        st: &DrawState,
        at: &Placement,
        tris: &[[f32; 9]],
        solid: bool,
    ) {
        if solid {
            self.tris.clear();
            for t in tris {
                let (a, b, c) = (Vec3::new(t[0], t[1], t[2]), Vec3::new(t[3], t[4], t[5]), Vec3::new(t[6], t[7], t[8]));
                let n = (b - a).cross(c - a).normalize_or_zero();
                for q in [a, b, c] {
                    self.tris.push(ov(q, n));
                }
            }
            self.emit_solid(frame, st, at, false);
        } else {
            self.out.clear();
            for t in tris {
                let c = [Vec3::new(t[0], t[1], t[2]), Vec3::new(t[3], t[4], t[5]), Vec3::new(t[6], t[7], t[8])];
                for (i, j) in [(0, 1), (1, 2), (2, 0)] {
                    for q in [c[i], c[j]] {
                        self.out.push(line_vertex(st, at.point(q)));
                    }
                }
            }
            frame.push(Primitive::Lines, false, DepthLayer::Normal, &self.out);
        }
    }

    /// A line segment in world coordinates, unlit, with its shadow.
    pub fn draw_line(&mut self, frame: &mut Frame, st: &DrawState, a: [f32; 3], b: [f32; 3]) {
        let (a, b) = (Vec3::from(a), Vec3::from(b));
        frame.push(Primitive::Lines, false, DepthLayer::Normal, &[line_vertex(st, a), line_vertex(st, b)]);
        if st.shadows {
            let s = [shadow_vertex(st, shadow_point(a)), shadow_vertex(st, shadow_point(b))];
            frame.push(Primitive::Lines, false, DepthLayer::Shadow, &s);
        }
    }
}

/// Adds drawstuff's background to `frame`: the sky (1 m above the eye,
/// drifting by `sky_offset`), the ground and the nine markers.
pub fn draw_background(frame: &mut Frame, st: &DrawState, view: &Viewpoint, sky_offset: f32) {
    let tex = st.textures;
    let [vx, vy, vz] = view.xyz;
    let unlit = |pos: [f32; 3], color: [f32; 4], uv: [f32; 2], texture: i32| Vertex {
        pos,
        normal: [0.0, 0.0, 1.0],
        color,
        uv,
        lit: 0.0,
        texture: texture as f32,
    };
    // Sky: a 2 km square 1 m above the eye, facing down, at the far depth.
    let (s, z, k, o) = (1000.0, vz + 1.0, 250.0, sky_offset);
    let (sky_color, sky_tex) = if tex { ([1.0; 4], TEX_SKY) } else { ([0.0, 0.5, 1.0, 1.0], TEX_NONE) };
    let c = [
        unlit([vx - s, vy - s, z], sky_color, [-k + o, -k + o], sky_tex),
        unlit([vx - s, vy + s, z], sky_color, [-k + o, k + o], sky_tex),
        unlit([vx + s, vy + s, z], sky_color, [k + o, k + o], sky_tex),
        unlit([vx + s, vy - s, z], sky_color, [k + o, -k + o], sky_tex),
    ];
    frame.push(Primitive::Triangles, false, DepthLayer::Sky, &[c[0], c[1], c[2], c[0], c[2], c[3]]);
    // Ground: 200 m square at z = 0.
    let g = 100.0;
    let (gc, gt) =
        if tex { ([1.0; 4], TEX_GROUND) } else { ([GROUND_COLOR[0], GROUND_COLOR[1], GROUND_COLOR[2], 1.0], TEX_NONE) };
    let q = [[-g, -g], [g, -g], [g, g], [-g, g]].map(|[x, y]| unlit([x, y, 0.0], gc, ground_uv(x, y), gt));
    frame.push(Primitive::Triangles, false, DepthLayer::Normal, &[q[0], q[1], q[2], q[0], q[2], q[3]]);
    // Markers: small pyramids at the integer points around the origin.
    let k = 0.03;
    let mut tris = Vec::with_capacity(9 * 12);
    for i in -1..=1 {
        for j in -1..=1 {
            let color = match (i, j) {
                (1, 0) => [1.0, 0.0, 0.0, 1.0],
                (0, 1) => [0.0, 0.0, 1.0, 1.0],
                _ => [1.0, 1.0, 0.0, 1.0],
            };
            let (x, y) = (i as f32, j as f32);
            let apex = glam::Vec3::new(x, y, k);
            let base = [[-k, -k], [k, -k], [k, k], [-k, k], [-k, -k]].map(|[a, b]| glam::Vec3::new(x + a, y + b, 0.0));
            for w in base.windows(2) {
                let n = (w[0] - apex).cross(w[1] - apex).normalize();
                for p in [apex, w[0], w[1]] {
                    tris.push(Vertex {
                        pos: p.to_array(),
                        normal: n.to_array(),
                        color,
                        uv: [0.0; 2],
                        lit: 1.0,
                        texture: 0.0,
                    });
                }
            }
        }
    }
    frame.push(Primitive::Triangles, false, DepthLayer::Normal, &tris);
}

fn line_vertex(st: &DrawState, p: Vec3) -> Vertex {
    Vertex { pos: p.to_array(), normal: [0.0, 0.0, 1.0], color: st.color, uv: [0.0; 2], lit: 0.0, texture: 0.0 }
}

/// A shadow vertex: the ground, darkened (its texture when textures are on).
fn shadow_vertex(st: &DrawState, s: Vec3) -> Vertex {
    let (color, texture) = if st.textures {
        ([SHADOW_INTENSITY, SHADOW_INTENSITY, SHADOW_INTENSITY, 1.0], TEX_GROUND)
    } else {
        let g = GROUND_COLOR.map(|c| c * SHADOW_INTENSITY);
        ([g[0], g[1], g[2], 1.0], TEX_NONE)
    };
    Vertex {
        pos: s.to_array(),
        normal: [0.0, 0.0, 1.0],
        color,
        uv: ground_uv(s.x, s.y),
        lit: 0.0,
        texture: texture as f32,
    }
}

/// Splits a unit-sphere triangle `level` times, pushing counter-clockwise
/// triangles of radius `r`; the texture point stays on the unit sphere, as
/// drawstuff scales the sphere by the modelview matrix.
fn subdivide(out: &mut Vec<ObjVertex>, a: Vec3, b: Vec3, c: Vec3, level: u32, r: f32) {
    if level == 0 {
        for p in [a, b, c] {
            out.push(ObjVertex { p: p * r, n: p, tex_p: p });
        }
        return;
    }
    let (ab, bc, ca) = ((a + b).normalize(), (b + c).normalize(), (c + a).normalize());
    subdivide(out, a, ab, ca, level - 1, r);
    subdivide(out, ab, b, bc, level - 1, r);
    subdivide(out, ca, bc, c, level - 1, r);
    subdivide(out, ab, bc, ca, level - 1, r);
}

#[cfg(test)]
mod tests {
    use super::*;

    const IDENTITY: Placement =
        Placement { pos: [0.0; 3], r: [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0] };

    /// Every triangle of a closed shape winds counter-clockwise seen from
    /// outside (its geometric normal points away from the centre) and its
    /// vertices lie on the surface.
    fn check_outward(frame: &Frame, centre: Vec3) {
        let b = frame.batches[0];
        assert_eq!(b.layer, DepthLayer::Normal);
        for t in frame.vertices[b.start..b.start + b.count].chunks(3) {
            let (a, bb, c) = (Vec3::from(t[0].pos), Vec3::from(t[1].pos), Vec3::from(t[2].pos));
            let n = (bb - a).cross(c - a);
            let mid = (a + bb + c) / 3.0;
            assert!(n.dot(mid - centre) > 0.0, "inward triangle {a} {bb} {c}");
        }
    }

    #[test]
    fn shapes_box_is_closed_outward_and_sized() {
        let mut t = Tessellator::default();
        let mut f = Frame::default();
        let at = Placement { pos: [1.0, 2.0, 3.0], ..IDENTITY };
        t.draw_box(&mut f, &DrawState::default(), &at, [2.0, 4.0, 6.0]);
        check_outward(&f, Vec3::new(1.0, 2.0, 3.0));
        let xs: Vec<f32> = f.vertices[..36].iter().map(|v| v.pos[2]).collect();
        assert!(xs.iter().all(|&z| z == 0.0 || z == 6.0), "z extent is centre ± 3");
        // The shadow batch: 36 vertices on z = 0, displaced against the light.
        assert_eq!(f.batches[1].layer, DepthLayer::Shadow);
        assert_eq!(f.batches[1].count, 36);
        assert!(f.vertices[36..].iter().all(|v| v.pos[2] == 0.0 && v.lit == 0.0));
    }

    #[test]
    fn shapes_sphere_cylinder_capsule_are_outward_and_on_their_surface() {
        let mut t = Tessellator::default();
        let st = DrawState { shadows: false, ..DrawState::default() };
        let mut f = Frame::default();
        t.draw_sphere(&mut f, &st, &IDENTITY, 2.0);
        check_outward(&f, Vec3::ZERO);
        assert_eq!(f.vertices.len(), 20 * 4 * 3, "one subdivision");
        assert!(f.vertices.iter().all(|v| (Vec3::from(v.pos).length() - 2.0).abs() < 1e-5));
        f.clear();
        t.draw_cylinder(&mut f, &st, &IDENTITY, 2.0, 0.5);
        check_outward(&f, Vec3::ZERO);
        f.clear();
        t.draw_capsule(&mut f, &st, &IDENTITY, 2.0, 0.5);
        check_outward(&f, Vec3::ZERO);
        // Capsule surface: distance 0.5 from the segment z in [-1, 1].
        for v in &f.vertices {
            let p = Vec3::from(v.pos);
            let q = Vec3::new(0.0, 0.0, p.z.clamp(-1.0, 1.0));
            assert!(((p - q).length() - 0.5).abs() < 1e-5, "{p}");
        }
    }

    #[test]
    fn shapes_convex_cube_faces_outward_and_bad_indices_are_skipped() {
        let planes = [
            [1.0, 0.0, 0.0, 1.0],
            [-1.0, 0.0, 0.0, 1.0],
            [0.0, 1.0, 0.0, 1.0],
            [0.0, -1.0, 0.0, 1.0],
            [0.0, 0.0, 1.0, 1.0],
            [0.0, 0.0, -1.0, 1.0],
        ];
        let mut points = Vec::new();
        for i in 0..8 {
            points.push([
                if i & 1 != 0 { 1.0 } else { -1.0 },
                if i & 2 != 0 { 1.0 } else { -1.0 },
                if i & 4 != 0 { 1.0 } else { -1.0 },
            ]);
        }
        // Deliberately mixed windings: the drawing orients each face.
        let polys = [4, 1, 3, 7, 5, 4, 0, 4, 6, 2, 4, 2, 6, 7, 3, 4, 0, 1, 5, 4, 4, 4, 5, 7, 6, 4, 0, 1, 3, 2];
        let mut t = Tessellator::default();
        let mut f = Frame::default();
        let st = DrawState { shadows: false, ..DrawState::default() };
        t.draw_convex(&mut f, &st, &IDENTITY, &planes, &points, &polys);
        assert_eq!(f.vertices.len(), 36);
        check_outward(&f, Vec3::ZERO);
        f.clear();
        let bad = [4, 1, 3, 7, 99];
        t.draw_convex(&mut f, &st, &IDENTITY, &planes[..1], &points, &bad);
        assert!(f.vertices.is_empty());
    }

    #[test]
    fn shapes_rotation_uses_odes_row_major_layout() {
        // 90° about z: local x goes to world y.
        let at = Placement { pos: [0.0; 3], r: [0.0, -1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0] };
        assert!((at.point(Vec3::X) - Vec3::Y).length() < 1e-6);
    }
}
