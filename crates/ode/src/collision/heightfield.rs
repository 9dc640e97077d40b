//! Heightfield against ray, sphere, box, capsule, cylinder, convex and
//! trimesh, the way ODE 0.16 does it: the other geom is moved into the heightfield's
//! frame (corner at the origin), the grid cells under its AABB are turned
//! into triangles, triangles sharing a plane are grouped, and the other
//! geom is collided with each plane through its ordinary plane collider,
//! keeping the contacts that fall inside one of the plane's triangles.
//! When the geom is large compared with a cell, the remaining triangle
//! vertices are tested too (point depth, or a ray cast for cylinders,
//! convexes and trimeshes; a trimesh always gets this pass). Contacts come
//! back to world space at the end. A trimesh goes through the same path
//! (its plane collider per plane group, its ray collider per vertex), as
//! in ODE: no triangle-against-triangle test is involved.
//!
//! Everything that decides which contacts are produced and in what order
//! (the up/down split of a cell, the epsilon tests, the bubble sort of the
//! planes by height, the per-plane limit of 10 contacts, the vertex flags)
//! follows ODE, because hosts see the contact order.

use super::colliders::box_shape::box_point_depth;
use super::colliders::capsule::capsule_point_depth;
use super::colliders::sphere::sphere_point_depth;
use crate::abi::contact::dContactGeom;
use crate::collision::contact::{Contact, ContactSink, NUMC_MASK};
use crate::collision::geom::{self, g, GeomRef, Shape};
use crate::collision::heightfield_data::{HeightfieldData, HEIGHTFIELDS};
use crate::collision::shapes::{Plane, Pose, Ray};
use crate::math::mat3::{mul0_331, mul1_331};
use std::cell::RefCell;

/// ODE's dEpsilon in double precision.
const EPS: f64 = f64::EPSILON;
/// Contacts one plane may produce before the triangle test.
const MAX_PER_PLANE: usize = 10;

/// The other geom, as the heightfield code needs it.
enum Other<'a> {
    Ray(&'a Ray),
    Sphere(&'a crate::collision::shapes::Sphere),
    Box(&'a crate::collision::shapes::BoxShape),
    Capsule(&'a crate::collision::shapes::Capsule),
    Cylinder(&'a crate::collision::shapes::Cylinder),
    Convex(super::colliders::convex::Convex<'a>),
    TriMesh(&'a crate::collision::trimesh::TriMeshData, &'a dyn crate::collision::trimesh::TriHost),
}

impl Other<'_> {
    fn collide_plane(&self, pose: &Pose, plane: &Plane, sink: &mut ContactSink) -> usize {
        match self {
            Other::Ray(r) => super::colliders::ray::collide_ray_plane(r, pose, plane, sink),
            Other::Sphere(s) => super::colliders::plane::collide_sphere_plane(s, pose, plane, sink),
            Other::Box(b) => super::colliders::plane::collide_box_plane(b, pose, plane, sink),
            Other::Capsule(c) => super::colliders::plane::collide_capsule_plane(c, pose, plane, sink),
            Other::Cylinder(c) => super::colliders::cylinder::collide_cylinder_plane(c, pose, plane, sink),
            Other::Convex(c) => super::colliders::convex::collide_convex_plane(c, pose, plane, sink),
            Other::TriMesh(data, _) => crate::collision::trimesh::plane::collide_trimesh_plane(
                &crate::collision::trimesh::Mesh { data, pose: *pose },
                plane,
                sink,
            ),
        }
    }

    /// Point depth where ODE has one for the class.
    fn depth(&self, pose: &Pose, p: [f64; 3]) -> Option<f64> {
        match self {
            Other::Sphere(s) => Some(sphere_point_depth(s, pose, p)),
            Other::Box(b) => Some(box_point_depth(b, pose, p)),
            Other::Capsule(c) => Some(capsule_point_depth(c, pose, p)),
            _ => None,
        }
    }

    /// A ray against the geom (classes without a point depth).
    fn collide_ray(&self, ray: &Ray, pr: &Pose, pose: &Pose, sink: &mut ContactSink) -> usize {
        match self {
            Other::Cylinder(c) => super::colliders::cylinder::collide_ray_cylinder(ray, pr, c, pose, sink),
            Other::Convex(c) => super::colliders::convex::collide_ray_convex(ray, pr, c, pose, sink),
            Other::Sphere(s) => super::colliders::ray::collide_ray_sphere(ray, pr, s, pose, sink),
            Other::Box(b) => super::colliders::ray::collide_ray_box(ray, pr, b, pose, sink),
            Other::Capsule(c) => super::colliders::ray::collide_ray_capsule(ray, pr, c, pose, sink),
            Other::Ray(_) => 0,
            Other::TriMesh(data, host) => {
                let mesh = crate::collision::trimesh::Mesh { data, pose: *pose };
                let o = [pr.pos[0], pr.pos[1], pr.pos[2]];
                let d = pr.axis(2);
                match crate::collision::trimesh::ray::first_hit_depth(&mesh, *host, &o, &d, ray.length) {
                    Some(depth) => {
                        let mut c = Contact::new(o, [0.0, 0.0, 0.0], depth);
                        c.side1 = -1;
                        sink.push(c);
                        1
                    }
                    None => 0,
                }
            }
        }
    }
}

#[derive(Clone, Copy, Default)]
struct Vertex {
    v: [f64; 3],
    coords: [i32; 2],
    /// True once the vertex can no longer produce a contact.
    state: bool,
}

#[derive(Clone, Copy, Default)]
struct Triangle {
    verts: [usize; 3],
    plane: [f64; 4],
    max_y: f64,
    up: bool,
    state: bool,
}

#[derive(Clone, Copy, Default)]
struct PlaneGroup {
    plane: [f64; 4],
    max_y: f64,
    /// Range in `Scratch::members`.
    first: usize,
    len: usize,
}

/// Buffers reused from call to call (a warm collide pass allocates nothing).
#[derive(Default)]
struct Scratch {
    verts: Vec<Vertex>,
    tris: Vec<Triangle>,
    planes: Vec<PlaneGroup>,
    order: Vec<usize>,
    members: Vec<usize>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

fn zero_contact() -> dContactGeom {
    // SAFETY: dContactGeom is plain data (numbers and raw pointers).
    unsafe { std::mem::zeroed() }
}

/// Aᵀ·B on ODE's padded layout (each entry summed over k = 0, 1, 2).
fn mul1_333(a: &[f64; 12], b: &[f64; 12]) -> [f64; 12] {
    let mut r = [0.0; 12];
    for i in 0..3 {
        for j in 0..3 {
            r[4 * i + j] = a[i] * b[j] + a[4 + i] * b[4 + j] + a[8 + i] * b[8 + j];
        }
    }
    r
}

#[inline]
fn dmin(a: f64, b: f64) -> f64 {
    if a > b {
        b
    } else {
        a
    }
}

#[inline]
fn dmax(a: f64, b: f64) -> f64 {
    if a > b {
        a
    } else {
        b
    }
}

fn cross(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn sub(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// `dCollide` of a heightfield geom `hf` with `other` (ray, sphere, box,
/// capsule, cylinder, convex or trimesh).
pub fn collide_heightfield(hf: GeomRef, other: GeomRef, sink: &mut ContactSink) -> usize {
    let Shape::Heightfield(h) = &g(hf).shape else { return 0 };
    let Some(data) = HEIGHTFIELDS.check(h.data) else { return 0 };
    let data = data.get();
    let shape = &g(other).shape;
    let conv;
    let host;
    let o = match shape {
        Shape::Ray(r) => Other::Ray(r),
        Shape::Sphere(s) => Other::Sphere(s),
        Shape::Box(b) => Other::Box(b),
        Shape::Capsule(c) => Other::Capsule(c),
        Shape::Cylinder(c) => Other::Cylinder(c),
        Shape::Convex(c) => {
            conv = c.view();
            Other::Convex(conv)
        }
        Shape::TriMesh(t) => {
            let Some(data) = t.live_data() else { return 0 };
            // The host's callbacks see the heightfield as the other geom
            // (ODE hands them its temporary ray, which has no handle here).
            host = crate::collision::trimesh_geom::GeomHost::new(other, hf, t);
            Other::TriMesh(data, &host)
        }
        _ => return 0,
    };
    let placeable = g(hf).is_placeable();
    let hf_pose = if placeable { Some(geom::pose(hf)) } else { None };
    let world = geom::pose(other);
    // The other geom in the heightfield's frame, grid corner at the origin.
    let mut local = match &hf_pose {
        Some(p) => {
            let d = [world.pos[0] - p.pos[0], world.pos[1] - p.pos[1], world.pos[2] - p.pos[2]];
            Pose::new(mul1_331(&p.r, &d), mul1_333(&p.r, &world.r))
        }
        None => world,
    };
    local.pos[0] += data.half_width;
    local.pos[2] += data.half_depth;
    let aabb = geom::shape_aabb(shape, &local);

    let n = collide_local(data, &o, &local, &aabb, sink);

    for i in 0..n {
        let c = sink.get_mut(i);
        match &hf_pose {
            Some(p) => {
                let p0 = [c.pos[0] - data.half_width, c.pos[1], c.pos[2] - data.half_depth];
                let q = mul0_331(&p.r, &p0);
                c.pos[0] = q[0] + p.pos[0];
                c.pos[1] = q[1] + p.pos[1];
                c.pos[2] = q[2] + p.pos[2];
                let nn = mul0_331(&p.r, &c.normal);
                c.normal[0] = nn[0];
                c.normal[1] = nn[1];
                c.normal[2] = nn[2];
            }
            None => {
                c.pos[0] -= data.half_width;
                c.pos[2] -= data.half_depth;
            }
        }
    }
    n
}

/// The collision in the heightfield's frame: picks the cells under the
/// AABB and collides the zone.
fn collide_local(d: &HeightfieldData, o: &Other, pose: &Pose, aabb: &[f64; 6], sink: &mut ContactSink) -> usize {
    let wrapped = d.wrap;
    if !wrapped && (aabb[0] > d.width || aabb[4] > d.depth || aabb[1] < 0.0 || aabb[5] < 0.0) {
        return 0;
    }
    let cell = |v: f64, inv: f64, up: bool| -> i32 {
        let x = v * inv;
        if up {
            libm_next_up(x).ceil() as i32
        } else {
            libm_next_down(x).floor() as i32
        }
    };
    let mut min_x = cell(aabb[0], d.inv_sample_width, false);
    let mut max_x = cell(aabb[1], d.inv_sample_width, true);
    let mut min_z = cell(aabb[4], d.inv_sample_depth, false);
    let mut max_z = cell(aabb[5], d.inv_sample_depth, true);
    if !wrapped {
        min_x = min_x.max(0);
        max_x = max_x.min(d.width_samples - 1);
        min_z = min_z.max(0);
        max_z = max_z.min(d.depth_samples - 1);
    }
    if max_x <= min_x || max_z <= min_z {
        // ODE asserts a non-empty zone here.
        return 0;
    }
    // Wrapped fields have no edge: a huge geom makes a huge zone.
    let samples = ((max_x as i64 - min_x as i64 + 1) as u64).saturating_mul((max_z as i64 - min_z as i64 + 1) as u64);
    if samples > SCAN_LIMIT {
        super::colliders::give_up("dCollide: the geom covers too many heightfield cells (more than 2^24), no contacts");
        return 0;
    }
    if samples > ZONE_LIMIT {
        return collide_huge_zone(d, o, pose, aabb, [min_x, max_x, min_z, max_z], sink);
    }
    SCRATCH.with(|s| match s.try_borrow_mut() {
        Ok(mut s) => collide_zone(&mut s, d, o, pose, aabb, [min_x, max_x, min_z, max_z], sink),
        // Re-entered from a height callback: fresh buffers.
        Err(_) => collide_zone(&mut Scratch::default(), d, o, pose, aabb, [min_x, max_x, min_z, max_z], sink),
    })
}

/// Zones of up to this many samples are collided as ODE does. ODE's plane
/// grouping and sort take time quadratic in the zone's triangles (and its
/// buffers grow with the zone), so larger zones only get the cheap answers.
const ZONE_LIMIT: u64 = 1 << 14;
/// Zones beyond this many samples are not even scanned.
const SCAN_LIMIT: u64 = 1 << 24;

/// A zone past `ZONE_LIMIT`: the heights are scanned (in ODE's order, so a
/// height callback sees the same calls) without being stored, and the
/// answers that need no triangles (geom above, below or on a flat zone)
/// are given as ODE gives them; anything else is reported, no contacts.
fn collide_huge_zone(
    d: &HeightfieldData,
    o: &Other,
    pose: &Pose,
    aabb: &[f64; 6],
    zone: [i32; 4],
    sink: &mut ContactSink,
) -> usize {
    let [min_x, max_x, min_z, max_z] = zone;
    let (mut max_y, mut min_y) = (-f64::INFINITY, f64::INFINITY);
    for x in min_x..=max_x {
        for z in min_z..=max_z {
            let h = d.height_at(x, z);
            max_y = dmax(max_y, h);
            min_y = dmin(min_y, h);
        }
    }
    if let Some(n) = zone_without_triangles(o, pose, aabb, min_y, max_y, sink) {
        return n;
    }
    super::colliders::give_up("dCollide: the geom covers too many uneven heightfield cells (more than 2^14), no contacts");
    0
}

/// ODE's answers for a zone whose height range alone decides: the geom
/// entirely above (none), entirely below (one contact pushing it down), or
/// a flat zone (one plane). `None` when triangles are needed.
fn zone_without_triangles(
    o: &Other,
    pose: &Pose,
    aabb: &[f64; 6],
    min_y: f64,
    max_y: f64,
    sink: &mut ContactSink,
) -> Option<usize> {
    let (o_min_y, o_max_y) = (aabb[2], aabb[3]);
    if o_min_y - max_y > -EPS {
        return Some(0);
    }
    if min_y - o_max_y > -EPS {
        let mut c = Contact::new([pose.pos[0], min_y, pose.pos[2]], [0.0, -1.0, 0.0], min_y - o_max_y);
        c.side1 = -1;
        c.side2 = -1;
        sink.push(c);
        return Some(sink.len());
    }
    if max_y - min_y < EPS {
        let plane = Plane { n: [0.0, 1.0, 0.0], d: min_y };
        let n = o.collide_plane(pose, &plane, sink);
        for i in 0..n {
            let c = sink.get_mut(i);
            c.normal[0] = -plane.n[0];
            c.normal[1] = -plane.n[1];
            c.normal[2] = -plane.n[2];
        }
        return Some(n);
    }
    None
}

fn libm_next_up(x: f64) -> f64 {
    next_after(x, true)
}

fn libm_next_down(x: f64) -> f64 {
    next_after(x, false)
}

/// C's nextafter towards ±infinity.
fn next_after(x: f64, up: bool) -> f64 {
    if x.is_nan() || (x.is_infinite() && (x > 0.0) == up) {
        return x;
    }
    if x == 0.0 {
        let tiny = f64::from_bits(1);
        return if up { tiny } else { -tiny };
    }
    let b = x.to_bits();
    let away = (x > 0.0) == up;
    f64::from_bits(if away { b + 1 } else { b - 1 })
}

/// Is `p` over the triangle whose first vertex is `c` (ODE's exact
/// inclusion rules: every point of the XZ plane is in exactly one
/// triangle).
fn on_triangle(d: &HeightfieldData, c: &Vertex, p: &[f64; 4], up: bool) -> bool {
    if up {
        let min_x = c.v[0];
        if p[0] < min_x {
            return false;
        }
        let max_x = (c.coords[0] + 1) as f64 * d.sample_width;
        if p[0] >= max_x {
            return false;
        }
        let min_z = c.v[2];
        if p[2] < min_z {
            return false;
        }
        let max_z = (c.coords[1] + 1) as f64 * d.sample_depth;
        if p[2] >= max_z {
            return false;
        }
        (max_z - p[2]) > (p[0] - min_x) * d.sample_zx_aspect
    } else {
        let max_x = c.v[0];
        if p[0] >= max_x {
            return false;
        }
        let min_x = (c.coords[0] - 1) as f64 * d.sample_width;
        if p[0] < min_x {
            return false;
        }
        let max_z = c.v[2];
        if p[2] >= max_z {
            return false;
        }
        let min_z = (c.coords[1] - 1) as f64 * d.sample_depth;
        if p[2] < min_z {
            return false;
        }
        (max_z - p[2]) <= (p[0] - min_x) * d.sample_zx_aspect
    }
}

fn collide_zone(
    s: &mut Scratch,
    d: &HeightfieldData,
    o: &Other,
    pose: &Pose,
    aabb: &[f64; 6],
    zone: [i32; 4],
    sink: &mut ContactSink,
) -> usize {
    let [min_x, max_x, min_z, max_z] = zone;
    let max = sink.max();
    let num_x = (max_x - min_x + 1) as usize;
    let num_z = (max_z - min_z + 1) as usize;
    let o_min_y = aabb[2];

    // Heights of the zone's samples.
    s.verts.clear();
    let (mut max_y, mut min_y) = (-f64::INFINITY, f64::INFINITY);
    for xl in 0..num_x {
        let x = min_x + xl as i32;
        let xpos = x as f64 * d.sample_width;
        for zl in 0..num_z {
            let z = min_z + zl as i32;
            let zpos = z as f64 * d.sample_depth;
            let h = d.height_at(x, z);
            s.verts.push(Vertex { v: [xpos, h, zpos], coords: [x, z], state: false });
            max_y = dmax(max_y, h);
            min_y = dmin(min_y, h);
        }
    }
    if let Some(n) = zone_without_triangles(o, pose, aabb, min_y, max_y, sink) {
        return n;
    }

    // Vertex tests are worth it only for geoms spanning more than ~1.5 cells.
    let further = match o {
        Other::Ray(_) => false,
        Other::TriMesh(..) => true,
        _ => (aabb[1] - aabb[0]) * d.inv_sample_width > 1.5 || (aabb[5] - aabb[4]) * d.inv_sample_depth > 1.5,
    };

    // Cells to triangles: A = (x, z), B = (x+1, z), C = (x, z+1),
    // D = (x+1, z+1); "up" is ABC, "down" is DBC.
    s.tris.clear();
    let vi = |xl: usize, zl: usize| xl * num_z + zl;
    for xl in 0..num_x - 1 {
        for zl in 0..num_z - 1 {
            let (a, b, c, dd) = (vi(xl, zl), vi(xl + 1, zl), vi(xl, zl + 1), vi(xl + 1, zl + 1));
            let hy = |k: usize| s.verts[k].v[1];
            let (ah, bh, ch, dh) = (hy(a), hy(b), hy(c), hy(dd));
            let (ac, bc, cc, dc) = (ah > o_min_y, bh > o_min_y, ch > o_min_y, dh > o_min_y);
            s.verts[a].state = !ac;
            s.verts[b].state = !bc;
            s.verts[c].state = !cc;
            s.verts[dd].state = !dc;
            let tri_max = |v: &[usize; 3], verts: &[Vertex]| {
                let (y0, y1, y2) = (verts[v[0]].v[1], verts[v[1]].v[1], verts[v[2]].v[1]);
                let m = if y0 > y1 { y0 } else { y1 };
                if y2 > m {
                    y2
                } else {
                    m
                }
            };
            if ac || bc || cc {
                let verts = [a, b, c];
                let max_y = tri_max(&verts, &s.verts);
                s.tris.push(Triangle { verts, plane: [0.0; 4], max_y, up: true, state: false });
            }
            if bc || cc || dc {
                let verts = [dd, b, c];
                let max_y = tri_max(&verts, &s.verts);
                s.tris.push(Triangle { verts, plane: [0.0; 4], max_y, up: false, state: false });
            }
            if further && (bc || cc) && (ah > ch && ah > bh && dh > ch && dh > bh) {
                // Concave edge BC: its ends cannot be the contact.
                s.verts[b].state = true;
                s.verts[c].state = true;
            }
        }
    }
    if s.tris.is_empty() {
        return 0;
    }

    // Triangle planes.
    for t in s.tris.iter_mut() {
        let v0 = s.verts[t.verts[0]].v;
        let e1 = sub(&s.verts[t.verts[2]].v, &v0);
        let e2 = sub(&s.verts[t.verts[1]].v, &v0);
        let mut n = if t.up { cross(&e1, &e2) } else { cross(&e2, &e1) };
        let inv = 1.0 / dot(&n, &n).sqrt();
        n[0] *= inv;
        n[1] *= inv;
        n[2] *= inv;
        t.plane = [n[0], n[1], n[2], dot(&n, &v0)];
    }

    // Triangles sharing a plane (within epsilon) form one group.
    s.planes.clear();
    s.members.clear();
    let nt = s.tris.len();
    for k in 0..nt {
        if s.tris[k].state {
            continue;
        }
        let base = s.tris[k].plane;
        let first = s.members.len();
        s.members.push(k);
        for m in k + 1..nt {
            let t = &mut s.tris[m];
            if t.state {
                continue;
            }
            if (base[1] - t.plane[1]).abs() < EPS
                && (base[3] - t.plane[3]).abs() < EPS
                && (base[0] - t.plane[0]).abs() < EPS
                && (base[2] - t.plane[2]).abs() < EPS
            {
                s.members.push(m);
                t.state = true;
            }
        }
        s.tris[k].state = true;
        let len = s.members.len() - first;
        let mut gmax = s.tris[s.members[first]].max_y;
        for &m in &s.members[first + 1..first + len] {
            if s.tris[m].max_y > gmax {
                gmax = s.tris[m].max_y;
            }
        }
        s.planes.push(PlaneGroup { plane: base, max_y: gmax, first, len });
    }

    // ODE's bubble sort (ascending by highest point, epsilon comparison).
    s.order.clear();
    s.order.extend(0..s.planes.len());
    loop {
        let mut swapped = false;
        for i in 0..s.order.len().saturating_sub(1) {
            if s.planes[s.order[i]].max_y - s.planes[s.order[i + 1]].max_y > EPS {
                s.order.swap(i, i + 1);
                swapped = true;
            }
        }
        if !swapped {
            break;
        }
    }

    let flags_rest = if sink.unimportant() { crate::collision::contact::CONTACTS_UNIMPORTANT } else { 0 };
    let mut buf = [zero_contact(); MAX_PER_PLANE];
    let mut count = sink.len();
    for oi in 0..s.order.len() {
        let pg = s.planes[s.order[oi]];
        let plane = Plane { n: [pg.plane[0], pg.plane[1], pg.plane[2]], d: pg.plane[3] };
        let mut tmp = ContactSink::from_slice(&mut buf, (flags_rest & !NUMC_MASK) | MAX_PER_PLANE as i32);
        let np = o.collide_plane(pose, &plane, &mut tmp);
        let mut hit = false;
        for pc in buf.iter().take(np) {
            for &ti in &s.members[pg.first..pg.first + pg.len] {
                let t = &s.tris[ti];
                if on_triangle(d, &s.verts[t.verts[0]], &pc.pos, t.up) {
                    let mut c = Contact::new(
                        [pc.pos[0], pc.pos[1], pc.pos[2]],
                        [-pg.plane[0], -pg.plane[1], -pg.plane[2]],
                        pc.depth,
                    );
                    c.side1 = pc.side1;
                    c.side2 = pc.side2;
                    sink.push(c);
                    count += 1;
                    if count == max {
                        return count;
                    }
                    hit = true;
                    break;
                }
            }
        }
        for &ti in &s.members[pg.first..pg.first + pg.len] {
            if hit {
                let vs = s.tris[ti].verts;
                for v in vs {
                    s.verts[v].state = true;
                }
            } else {
                s.tris[ti].state = false;
            }
        }
    }

    if further {
        for k in 0..nt {
            let t = s.tris[k];
            if t.state {
                continue;
            }
            for &vk in &t.verts {
                if s.verts[vk].state {
                    continue;
                }
                let tv = s.verts[vk].v;
                let depth = match o.depth(pose, tv) {
                    Some(depth) => (depth > EPS).then_some(depth),
                    None => {
                        // No point depth for the class: cast a ray along
                        // the triangle normal (as ODE does, with a length
                        // that is negative for vertices above the geom's
                        // lowest point).
                        let ray = Ray { length: (o_min_y - tv[1]) * 1000.0, flags: 0 };
                        let mut r = crate::math::rotation::IDENTITY;
                        r[2] = t.plane[0];
                        r[6] = t.plane[1];
                        r[10] = t.plane[2];
                        let pr = Pose::new(tv, r);
                        let mut tmp = ContactSink::from_slice(&mut buf, (flags_rest & !NUMC_MASK) | 1);
                        if o.collide_ray(&ray, &pr, pose, &mut tmp) > 0 {
                            Some(buf[0].depth)
                        } else {
                            None
                        }
                    }
                };
                if let Some(depth) = depth {
                    sink.push(Contact::new(tv, [-t.plane[0], -t.plane[1], -t.plane[2]], depth));
                    count += 1;
                    if count == max {
                        return count;
                    }
                    s.verts[vk].state = true;
                }
            }
        }
    }
    count
}
