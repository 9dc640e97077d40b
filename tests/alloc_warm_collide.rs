//! A warm collide pass does not allocate: each space keeps its working
//! buffers (hash table, sort arrays, dirty lists) and reuses them, also
//! when every geom moved since the last pass.
use ode::ffi::collision::*;
use ode::ffi::collision_space::*;
use ode::ffi::decl::collision_space::dSAP_AXES_XZY;
use ode::ffi::objects_body::*;
use ode::ffi::objects_world::*;
use std::ffi::c_void;

#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations_so_far;

#[global_allocator]
static A: counting_alloc::Counting = counting_alloc::Counting;

unsafe extern "C" fn near(data: *mut c_void, a: *mut c_void, b: *mut c_void) {
    *(data as *mut usize) += 1;
    let mut c: [ode::ffi::decl::contact::dContactGeom; 4] = std::mem::zeroed();
    dCollide(a, b, 4, c.as_mut_ptr(), std::mem::size_of_val(&c[0]) as i32);
}

#[test]
fn warm_collide_passes_do_not_allocate() {
    unsafe {
        let w = dWorldCreate();
        let c = [0.0f64; 4];
        let e = [20.0f64, 20.0, 20.0, 0.0];
        let spaces = [
            ("simple", dSimpleSpaceCreate(std::ptr::null_mut())),
            ("hash", dHashSpaceCreate(std::ptr::null_mut())),
            ("sap", dSweepAndPruneSpaceCreate(std::ptr::null_mut(), dSAP_AXES_XZY)),
            ("quadtree", dQuadTreeSpaceCreate(std::ptr::null_mut(), c.as_ptr(), e.as_ptr(), 4)),
            // Fast collide mode (the sort and sweep; issue 13).
            ("fast simple", dSimpleSpaceCreate(std::ptr::null_mut())),
            ("fast hash", dHashSpaceCreate(std::ptr::null_mut())),
        ];
        for (name, s) in spaces {
            let nested = dSimpleSpaceCreate(s);
            if name.starts_with("fast") {
                for x in [s, nested] {
                    ode::ffi::ode_ext::odexSpaceSetCollideMode(x, ode::ffi::ode_ext::ODEX_SOLVER_FAST);
                }
            }
            let mut geoms = Vec::new();
            for i in 0..600 {
                let target = if i % 10 == 0 { nested } else { s };
                // Spheres, boxes and cylinders: every pair among them is exercised.
                let g = match i % 3 {
                    0 => dCreateSphere(target, 0.8),
                    1 => dCreateBox(target, 1.0, 0.5, 1.5),
                    _ => dCreateCylinder(target, 0.6, 1.2),
                };
                if i % 4 == 1 {
                    dGeomSetBody(g, dBodyCreate(w));
                }
                geoms.push(g);
            }
            let mut pairs = 0usize;
            let shake = |k: usize| {
                for (i, &g) in geoms.iter().enumerate() {
                    let t = (i * 7 + k * 13) as f64;
                    dGeomSetPosition(g, (t * 0.37).sin() * 15.0, (t * 0.11).cos() * 15.0, (t * 0.05).sin() * 15.0);
                }
            };
            for k in 0..3 {
                shake(k);
                dSpaceCollide(s, &mut pairs as *mut usize as *mut c_void, Some(near));
            }
            let before = allocations_so_far();
            for k in 3..23 {
                shake(k);
                dSpaceCollide(s, &mut pairs as *mut usize as *mut c_void, Some(near));
                dSpaceCollide2(nested, s, &mut pairs as *mut usize as *mut c_void, Some(near));
            }
            assert_eq!(allocations_so_far() - before, 0, "{name}: warm passes allocated");
            assert!(pairs > 100, "{name}: scene too sparse ({pairs} pairs)");
            dSpaceDestroy(s);
        }
        dWorldDestroy(w);
    }
}

/// Geoms of every class that collides with a trimesh, among trimeshes
/// (a static terrain and closed meshes on bodies) and over a heightfield,
/// in a hash space: warm
/// passes must not allocate either (the trimesh colliders keep their
/// candidate lists and working arrays per thread).
#[test]
fn warm_trimesh_collide_passes_do_not_allocate() {
    use ode::ffi::collision_trimesh::*;
    use ode::ffi::decl::collision_trimesh::dTRIDATAPREPROCESS_BUILD_FACE_ANGLES;
    use ode::ffi::rotation::dRFromAxisAndAngle;
    unsafe extern "C" fn near64(data: *mut c_void, a: *mut c_void, b: *mut c_void) {
        let mut c: [ode::ffi::decl::contact::dContactGeom; 32] = std::mem::zeroed();
        let n = dCollide(a, b, 32, c.as_mut_ptr(), std::mem::size_of_val(&c[0]) as i32);
        *(data as *mut usize) += n as usize;
        // And a capped call, as dSpaceCollide users often make.
        dCollide(a, b, 3, c.as_mut_ptr(), std::mem::size_of_val(&c[0]) as i32);
    }
    // Terrain: a 24 x 24 grid of rolling heights (floats).
    const G: usize = 24;
    let mut tv: Vec<f32> = Vec::new();
    for j in 0..=G {
        for i in 0..=G {
            let (x, y) = (i as f32 - G as f32 / 2.0, j as f32 - G as f32 / 2.0);
            tv.extend([x, y, 0.4 * (0.7 * x).sin() * (0.5 * y).cos()]);
        }
    }
    let mut ti: Vec<u32> = Vec::new();
    for j in 0..G {
        for i in 0..G {
            let a = (j * (G + 1) + i) as u32;
            let (b, c, d) = (a + 1, a + G as u32 + 1, a + G as u32 + 2);
            ti.extend([a, b, d, a, d, c]);
        }
    }
    // A closed UV sphere of radius 0.7 (doubles).
    const S: usize = 10;
    let mut sv: Vec<f64> = vec![0.0, 0.0, 0.7];
    for r in 1..S {
        let th = std::f64::consts::PI * r as f64 / S as f64;
        for k in 0..S {
            let ph = 2.0 * std::f64::consts::PI * k as f64 / S as f64;
            sv.extend([0.7 * th.sin() * ph.cos(), 0.7 * th.sin() * ph.sin(), 0.7 * th.cos()]);
        }
    }
    sv.extend([0.0, 0.0, -0.7]);
    let nv = (sv.len() / 3) as u32;
    let ring = |r: usize, k: usize| (1 + (r - 1) * S + k % S) as u32;
    let mut si: Vec<u32> = Vec::new();
    for k in 0..S {
        si.extend([0, ring(1, k), ring(1, k + 1)]);
    }
    for r in 1..S - 1 {
        for k in 0..S {
            let (a, b, c, d) = (ring(r, k), ring(r, k + 1), ring(r + 1, k), ring(r + 1, k + 1));
            si.extend([a, c, d, a, d, b]);
        }
    }
    for k in 0..S {
        si.extend([nv - 1, ring(S - 1, k + 1), ring(S - 1, k)]);
    }
    // A box-shaped convex.
    let planes: [f64; 24] =
        [1., 0., 0., 0.3, -1., 0., 0., 0.3, 0., 1., 0., 0.2, 0., -1., 0., 0.2, 0., 0., 1., 0.25, 0., 0., -1., 0.25];
    let mut points = [0.0f64; 24];
    for i in 0..8 {
        for (k, h) in [0.3, 0.2, 0.25].iter().enumerate() {
            points[3 * i + k] = if (i >> k) & 1 == 1 { *h } else { -*h };
        }
    }
    let polys: [u32; 30] = [4, 1, 3, 7, 5, 4, 0, 4, 6, 2, 4, 2, 6, 7, 3, 4, 0, 1, 5, 4, 4, 4, 5, 7, 6, 4, 0, 2, 3, 1];
    unsafe {
        let w = dWorldCreate();
        let s = dHashSpaceCreate(std::ptr::null_mut());
        let terrain = dGeomTriMeshDataCreate();
        dGeomTriMeshDataBuildSingle(
            terrain,
            tv.as_ptr() as *const c_void,
            12,
            tv.len() as i32 / 3,
            ti.as_ptr() as *const c_void,
            ti.len() as i32,
            12,
        );
        dGeomTriMeshDataPreprocess2(terrain, 1 << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES, std::ptr::null());
        let ball = dGeomTriMeshDataCreate();
        dGeomTriMeshDataBuildDouble(
            ball,
            sv.as_ptr() as *const c_void,
            24,
            nv as i32,
            si.as_ptr() as *const c_void,
            si.len() as i32,
            12,
        );
        dGeomTriMeshDataPreprocess2(ball, 1 << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES, std::ptr::null());
        dCreateTriMesh(s, terrain, None, None, None);
        dCreatePlane(s, 0.05, 0.02, 1.0, -0.6);
        // A heightfield (y up, turned to z up) under part of the scene:
        // its trimesh pairs run the mesh's plane and ray queries.
        let heights: Vec<f64> =
            (0..17 * 17).map(|i| 0.3 * ((i % 17) as f64 * 0.8).sin() * ((i / 17) as f64 * 0.6).cos()).collect();
        let hd = dGeomHeightfieldDataCreate();
        dGeomHeightfieldDataBuildDouble(hd, heights.as_ptr(), 0, 12.0, 12.0, 17, 17, 1.0, 0.1, 1.0, 0);
        let hf = dCreateHeightfield(s, hd, 1);
        let mut hr = [0.0f64; 12];
        dRFromAxisAndAngle(hr.as_mut_ptr(), 1.0, 0.0, 0.0, std::f64::consts::FRAC_PI_2);
        dGeomSetRotation(hf, hr.as_ptr());
        dGeomSetPosition(hf, 3.0, -2.0, 0.0);
        let mut geoms = Vec::new();
        for i in 0..120 {
            let g = match i % 8 {
                0 => dCreateSphere(s, 0.5),
                1 => dCreateBox(s, 0.9, 0.6, 0.7),
                2 => dCreateCapsule(s, 0.3, 0.8),
                3 => dCreateCylinder(s, 0.4, 0.9),
                4 => dCreateConvex(s, planes.as_ptr(), 6, points.as_ptr(), 8, polys.as_ptr()),
                5 => dCreateRay(s, 3.0),
                _ => dCreateTriMesh(s, ball, None, None, None),
            };
            dGeomSetBody(g, dBodyCreate(w));
            geoms.push(g);
        }
        let mut contacts = 0usize;
        let shake = |k: usize| {
            for (i, &g) in geoms.iter().enumerate() {
                let t = (i * 7 + k * 13) as f64;
                let (x, y) = ((t * 0.37).sin() * 10.0, (t * 0.11).cos() * 10.0);
                let z = 0.4 * (0.7 * x).sin() * (0.5 * y).cos() + (t * 0.05).sin() * 0.5;
                dGeomSetPosition(g, x, y, z);
                let mut r = [0.0f64; 12];
                dRFromAxisAndAngle(r.as_mut_ptr(), (t * 0.3).sin(), (t * 0.7).cos(), 0.5, t);
                dGeomSetRotation(g, r.as_ptr());
            }
        };
        for k in 0..3 {
            shake(k);
            dSpaceCollide(s, &mut contacts as *mut usize as *mut c_void, Some(near64));
        }
        let before = allocations_so_far();
        contacts = 0;
        for k in 3..13 {
            shake(k);
            dSpaceCollide(s, &mut contacts as *mut usize as *mut c_void, Some(near64));
        }
        assert_eq!(allocations_so_far() - before, 0, "warm trimesh passes allocated");
        assert!(contacts > 500, "scene too sparse ({contacts} contacts)");
        dSpaceDestroy(s);
        dWorldDestroy(w);
    }
}

/// A hash space with geoms of very different sizes (cell levels -3 to 9).
/// Warm-up passes place every geom inside a single cell of its level; the
/// later passes move them onto cell corners, where each covers 8 cells, so
/// the cell lists grow past anything the warm-up needed. A pass must not
/// allocate even then (the space reserves for the worst case, 8 cells per
/// geom, since a geom's AABB is never larger than its level's cell).
#[test]
fn warm_hash_collide_with_mixed_sizes_does_not_allocate() {
    unsafe {
        let s = dHashSpaceCreate(std::ptr::null_mut());
        let mut geoms = Vec::new();
        for i in 0..600 {
            // Sizes 0.1 .. 200 in a spread that covers every level; the
            // AABB's largest side is `side`.
            let size = 0.1 * 1.3f64.powi(i % 30);
            let (g, side) = match i % 3 {
                0 => (dCreateSphere(s, 0.5 * size), size),
                1 => (dCreateBox(s, size, 0.5 * size, 0.25 * size), size),
                _ => (dCreateCapsule(s, 0.3 * size, size), 1.6 * size),
            };
            // The hash level: the exponent e of side = m·2^e, m in [0.5, 1).
            let level = (side.log2().floor() as i32 + 1).max(-3);
            geoms.push((g, 2f64.powi(level)));
        }
        let place = |k: usize, offset: f64| {
            for (i, &(g, cell)) in geoms.iter().enumerate() {
                let t = (i * 11 + k * 17) as f64;
                let p = [(t * 0.37).sin() * 150.0, (t * 0.11).cos() * 150.0, (t * 0.05).sin() * 150.0];
                let c = p.map(|x| ((x / cell).round() + offset) * cell);
                dGeomSetPosition(g, c[0], c[1], c[2]);
            }
        };
        let mut pairs = 0usize;
        for k in 0..3 {
            place(k, 0.5);
            dSpaceCollide(s, &mut pairs as *mut usize as *mut c_void, Some(near));
        }
        let before = allocations_so_far();
        for k in 3..13 {
            place(k, if k % 2 == 0 { 0.5 } else { 0.0 });
            dSpaceCollide(s, &mut pairs as *mut usize as *mut c_void, Some(near));
        }
        assert_eq!(allocations_so_far() - before, 0, "warm hash-space passes allocated");
        assert!(pairs > 1000, "scene too sparse ({pairs} pairs)");
        dSpaceDestroy(s);
    }
}

/// The fast broad phase in strips (a dense scene over a wide cube, as the
/// collide bench): once warm, passes with the geoms drifting about (in
/// and out of strips) do not allocate either.
#[test]
fn warm_fast_collide_in_strips_does_not_allocate() {
    unsafe {
        let s = dHashSpaceCreate(std::ptr::null_mut());
        ode::ffi::ode_ext::odexSpaceSetCollideMode(s, ode::ffi::ode_ext::ODEX_SOLVER_FAST);
        let geoms: Vec<_> = (0..5000)
            .map(|i| match i % 2 {
                0 => dCreateSphere(s, 0.6),
                _ => dCreateBox(s, 1.2, 0.8, 1.0),
            })
            .collect();
        let place = |k: usize| {
            for (i, &g) in geoms.iter().enumerate() {
                let t = i as f64 + 0.02 * k as f64;
                dGeomSetPosition(g, (t * 0.37).sin() * 22.0, (t * 0.11).cos() * 22.0, (t * 0.05).sin() * 22.0);
            }
        };
        let mut pairs = 0usize;
        for k in 0..3 {
            place(k);
            dSpaceCollide(s, &mut pairs as *mut usize as *mut c_void, Some(near));
        }
        let before = allocations_so_far();
        for k in 3..13 {
            place(k);
            dSpaceCollide(s, &mut pairs as *mut usize as *mut c_void, Some(near));
        }
        assert_eq!(allocations_so_far() - before, 0, "warm fast passes in strips allocated");
        assert!(pairs > 10000, "scene too sparse ({pairs} pairs)");
        dSpaceDestroy(s);
    }
}
