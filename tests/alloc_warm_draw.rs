//! A warm odexSpaceDraw does not allocate: the walk's geom list and the
//! mesh and heightfield triangles live in buffers the library keeps per
//! thread, reused while the scene moves.
use ode::ffi::collision::*;
use ode::ffi::collision_space::*;
use ode::ffi::collision_trimesh::*;
use ode::ffi::decl::collision_space::dSAP_AXES_XZY;
use ode::ffi::ode_ext_draw::*;
use std::ffi::{c_int, c_void};

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations_so_far;

#[global_allocator]
static A: counting_alloc::Counting = counting_alloc::Counting;

/// Counts calls and triangles (`user` points to [calls, triangles]).
unsafe extern "C" fn shape(user: *mut c_void, _g: *mut c_void, _p: *const f64, _r: *const f64, _s: *const f64) {
    (*(user as *mut [usize; 2]))[0] += 1;
}
unsafe extern "C" fn sphere(user: *mut c_void, _g: *mut c_void, _p: *const f64, _r: *const f64, _rad: f64) {
    (*(user as *mut [usize; 2]))[0] += 1;
}
unsafe extern "C" fn tris(
    user: *mut c_void,
    _g: *mut c_void,
    _p: *const f64,
    _r: *const f64,
    _v: *const f64,
    n: c_int,
) {
    let u = &mut *(user as *mut [usize; 2]);
    u[0] += 1;
    u[1] += n as usize;
}

#[test]
fn warm_space_draw_does_not_allocate() {
    unsafe {
        let cb = odexDrawCallbacks {
            r#box: Some(shape),
            sphere: Some(sphere),
            capsule: None,
            cylinder: None,
            plane: None,
            ray: None,
            convex: None,
            trimesh: Some(tris),
            heightfield: Some(tris),
        };
        // A 10 x 10 heightfield and a 2-triangle mesh (kept alive below).
        let heights: Vec<f64> = (0..100).map(|i| (i as f64 * 0.3).sin()).collect();
        let hfd = dGeomHeightfieldDataCreate();
        dGeomHeightfieldDataBuildDouble(hfd, heights.as_ptr(), 0, 9.0, 9.0, 10, 10, 1.0, 0.0, 0.0, 0);
        let verts: [f32; 12] = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0];
        let idx: [u32; 6] = [0, 1, 2, 1, 3, 2];
        let tmd = dGeomTriMeshDataCreate();
        dGeomTriMeshDataBuildSingle(tmd, verts.as_ptr().cast(), 12, 4, idx.as_ptr().cast(), 6, 12);
        let c = [0.0f64; 4];
        let e = [50.0f64, 50.0, 50.0, 0.0];
        let spaces = [
            ("simple", dSimpleSpaceCreate(std::ptr::null_mut())),
            ("hash", dHashSpaceCreate(std::ptr::null_mut())),
            ("sap", dSweepAndPruneSpaceCreate(std::ptr::null_mut(), dSAP_AXES_XZY)),
            ("quadtree", dQuadTreeSpaceCreate(std::ptr::null_mut(), c.as_ptr(), e.as_ptr(), 4)),
        ];
        for (name, s) in spaces {
            let nested = dSimpleSpaceCreate(s);
            let mut geoms = Vec::new();
            for i in 0..300 {
                let target = if i % 10 == 0 { nested } else { s };
                geoms.push(if i % 2 == 0 { dCreateSphere(target, 0.5) } else { dCreateBox(target, 1.0, 0.5, 1.5) });
            }
            let t = dCreateGeomTransform(s);
            dGeomTransformSetCleanup(t, 1);
            dGeomTransformSetGeom(t, dCreateBox(std::ptr::null_mut(), 1.0, 1.0, 1.0));
            geoms.push(t);
            dCreateHeightfield(s, hfd, 1);
            geoms.push(dCreateTriMesh(nested, tmd, None, None, None));
            let shake = |k: usize| {
                for (i, &g) in geoms.iter().enumerate() {
                    let t = (i * 7 + k * 13) as f64;
                    dGeomSetPosition(g, (t * 0.37).sin() * 15.0, (t * 0.11).cos() * 15.0, (t * 0.05).sin() * 15.0);
                }
            };
            let mut counts = [0usize; 2];
            let user = &mut counts as *mut [usize; 2] as *mut c_void;
            for k in 0..2 {
                shake(k);
                odexSpaceDraw(s, &cb, user);
            }
            counts = [0; 2];
            let before = allocations_so_far();
            for k in 2..12 {
                shake(k);
                assert_eq!(odexSpaceDraw(s, &cb, user), 303, "{name}");
            }
            assert_eq!(allocations_so_far() - before, 0, "{name}: warm walks allocated");
            // 300 shapes, the transform's box, the heightfield and the mesh.
            assert_eq!(counts, [3030, 10 * (2 * 9 * 9 + 2)], "{name}");
            dSpaceDestroy(s);
        }
        dGeomTriMeshDataDestroy(tmd);
        dGeomHeightfieldDataDestroy(hfd);
    }
}
