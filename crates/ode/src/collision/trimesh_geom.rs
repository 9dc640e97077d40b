//! Trimesh geoms in collisions: a trimesh geom's host callbacks as the
//! mesh colliders' `TriHost`, and the geom-level entries of the trimesh
//! pairs that the dispatch table calls (they fetch the mesh data, shapes
//! and poses from the geoms, then call the pure colliders of `trimesh`).

use super::contact::ContactSink as Sink;
use super::geom::{GeomRef, Shape};
use super::trimesh::{
    box_, capsule, cylinder, mesh_mesh, plane, ray, sphere, sphere_merge, Mesh, TriArrayCallback, TriCallback, TriHost,
    TriMeshGeom, TriRayCallback,
};

/// The host callbacks of a trimesh geom colliding with `other`.
pub struct GeomHost {
    mesh: crate::collision::geom::GeomRef,
    other: crate::collision::geom::GeomRef,
    callback: Option<TriCallback>,
    array_callback: Option<TriArrayCallback>,
    ray_callback: Option<TriRayCallback>,
}

impl GeomHost {
    /// The callbacks of trimesh geom `mesh` (payload `tm`) against `other`.
    pub fn new(
        mesh: crate::collision::geom::GeomRef,
        other: crate::collision::geom::GeomRef,
        tm: &TriMeshGeom,
    ) -> GeomHost {
        GeomHost {
            mesh,
            other,
            callback: tm.callback,
            array_callback: tm.array_callback,
            ray_callback: tm.ray_callback,
        }
    }
}

impl TriHost for GeomHost {
    fn accept(&self, tri: i32) -> bool {
        match self.callback {
            // SAFETY: a host function registered for this geom.
            Some(f) => unsafe { f(self.mesh.as_raw(), self.other.as_raw(), tri) != 0 },
            None => true,
        }
    }
    fn touched(&self, tris: &[i32]) {
        if let Some(f) = self.array_callback {
            // SAFETY: as above; the array lives for the call.
            unsafe { f(self.mesh.as_raw(), self.other.as_raw(), tris.as_ptr(), tris.len() as i32) }
        }
    }
    fn accept_ray(&self, tri: i32, u: f64, v: f64) -> bool {
        match self.ray_callback {
            // SAFETY: as above.
            Some(f) => unsafe { f(self.mesh.as_raw(), self.other.as_raw(), tri, u, v) != 0 },
            None => true,
        }
    }
}

/// The trimesh payload of a geom known to be a trimesh.
pub fn of(h: crate::collision::geom::GeomRef) -> &'static mut TriMeshGeom {
    match &mut crate::collision::geom::g(h).shape {
        crate::collision::geom::Shape::TriMesh(t) => t,
        _ => unreachable!("trimesh: not a trimesh geom"),
    }
}

/// Mesh view and host callbacks of trimesh geom `a` against geom `b`
/// (None without live data).
fn setup(a: crate::collision::geom::GeomRef, b: crate::collision::geom::GeomRef) -> Option<(Mesh<'static>, GeomHost)> {
    let tm = of(a);
    let data = tm.live_data()?;
    let host = GeomHost {
        mesh: a,
        other: b,
        callback: tm.callback,
        array_callback: tm.array_callback,
        ray_callback: tm.ray_callback,
    };
    Some((Mesh { data, pose: crate::collision::geom::pose(a) }, host))
}

pub fn geom_sphere(a: GeomRef, b: GeomRef, s: &mut Sink) -> usize {
    let Some((m, h)) = setup(a, b) else { return 0 };
    let Shape::Sphere(sp) = &crate::collision::geom::g(b).shape else { return 0 };
    let n = sphere::collide_trimesh_sphere(&m, &h, sp, &crate::collision::geom::pose(b), s);
    let tm = of(a);
    sphere_merge::merge(tm.sphere_merge, s, n, tm.merge_callback, a.as_raw())
}

pub fn geom_box(a: GeomRef, b: GeomRef, s: &mut Sink) -> usize {
    let Some((m, h)) = setup(a, b) else { return 0 };
    let Shape::Box(bx) = &crate::collision::geom::g(b).shape else { return 0 };
    box_::collide_trimesh_box(&m, &h, bx, &crate::collision::geom::pose(b), s)
}

pub fn geom_capsule(a: GeomRef, b: GeomRef, s: &mut Sink) -> usize {
    let Some((m, h)) = setup(a, b) else { return 0 };
    let Shape::Capsule(c) = &crate::collision::geom::g(b).shape else { return 0 };
    capsule::collide_trimesh_capsule(&m, &h, c, &crate::collision::geom::pose(b), s)
}

pub fn geom_ray(a: GeomRef, b: GeomRef, s: &mut Sink) -> usize {
    let Some((m, h)) = setup(a, b) else { return 0 };
    let Shape::Ray(r) = &crate::collision::geom::g(b).shape else { return 0 };
    ray::collide_trimesh_ray(&m, &h, r, &crate::collision::geom::pose(b), s)
}

pub fn geom_plane(a: GeomRef, b: GeomRef, s: &mut Sink) -> usize {
    let Some((m, _)) = setup(a, b) else { return 0 };
    let Shape::Plane(p) = &crate::collision::geom::g(b).shape else { return 0 };
    plane::collide_trimesh_plane(&m, p, s)
}

pub fn geom_cylinder(a: GeomRef, b: GeomRef, s: &mut Sink) -> usize {
    let Some((m, h)) = setup(a, b) else { return 0 };
    let Shape::Cylinder(c) = &crate::collision::geom::g(b).shape else { return 0 };
    cylinder::collide_trimesh_cylinder(
        &m,
        &h,
        c,
        &crate::collision::geom::pose(b),
        crate::collision::geom::quaternion(b),
        s,
    )
}

pub fn geom_trimesh(a: GeomRef, b: GeomRef, s: &mut Sink) -> usize {
    let (ta, tb) = (of(a), of(b));
    let (Some(da), Some(db)) = (ta.live_data(), tb.live_data()) else { return 0 };
    let ma = Mesh { data: da, pose: crate::collision::geom::pose(a) };
    let mb = Mesh { data: db, pose: crate::collision::geom::pose(b) };
    let ca = ta.merge_callback.map(|f| (f, a.as_raw()));
    let cb = tb.merge_callback.map(|f| (f, b.as_raw()));
    mesh_mesh::collide_trimesh_trimesh(&ma, &mb, ca, cb, s)
}
