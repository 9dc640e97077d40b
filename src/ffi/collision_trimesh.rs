//! extern "C" functions of collision_trimesh.h: triangle mesh data objects
//! and trimesh geoms. The work is done in `collision::trimesh`.
//!
//! Buffers given to the Build functions are REFERENCED, not copied (as in
//! ODE): the host keeps them alive and unchanged while the data is used,
//! and calls `dGeomTriMeshDataUpdate` after moving vertices. Indices are
//! checked once at build time (an index out of range is refused, where
//! ODE would read out of bounds).
#![allow(non_snake_case, non_upper_case_globals)]

use super::collision::{geom_arg, new_geom_space};
use super::decl::collision_trimesh::*;
use super::decl::odeconfig::{dintptr, dsizeint, duint32};
use super::types::*;
use super::{call, Cx};
use crate::collision::geom::{self, class, g, GeomRef, Shape};
use crate::collision::trimesh::face_angles::FaceAngleFormat;
use crate::collision::trimesh::{self as tm, TriMeshData, TriMeshDataRef, TRIMESH_DATA};
use crate::collision::trimesh_geom as tm_geom;
use std::ffi::{c_int, c_uint, c_void};

fn data_arg(cx: &Cx, d: dTriMeshDataID, arg: &str) -> Option<TriMeshDataRef> {
    cx.handle(&TRIMESH_DATA, d, arg, "trimesh data")
}

fn mesh_arg(cx: &Cx, h: dGeomID, arg: &str) -> Option<GeomRef> {
    let gr = geom_arg(cx, h, arg)?;
    let c = g(gr).class;
    cx.require(c == class::TRIMESH, format_args!("argument '{arg}' is not a trimesh (its class is {c})"))?;
    Some(gr)
}

/// Checks the arguments common to the Build functions, then every index.
#[allow(clippy::too_many_arguments)]
unsafe fn build(
    cx: &Cx,
    d: dTriMeshDataID,
    vertices: *const c_void,
    vertex_stride: c_int,
    vertex_count: c_int,
    double: bool,
    indices: *const c_void,
    index_count: c_int,
    tri_stride: c_int,
    normals: *const c_void,
) -> Option<()> {
    let h = data_arg(cx, d, "g")?;
    cx.require(vertex_count >= 0, format_args!("argument 'VertexCount' = {vertex_count} is negative"))?;
    cx.require(
        index_count >= 0 && index_count % 3 == 0,
        format_args!("argument 'IndexCount' = {index_count} must be a non-negative multiple of 3"),
    )?;
    // ODE asserts on zero strides, and OPCODE, which does ODE's collision
    // queries, silently keeps its previous pair of strides when either
    // given one is below 12 bytes (3 floats, 3 indices), while ODE's own
    // bounding box uses the given ones: such data is read inconsistently
    // (and past the arrays), so we refuse it. From 12 bytes up both read the
    // same records, which may overlap (doubles 12 or 16 bytes apart):
    // accepted, as in ODE.
    for (arg, stride) in [("VertexStride", vertex_stride), ("TriStride", tri_stride)] {
        cx.require(
            stride >= 12,
            format_args!("argument '{arg}' = {stride} is below 12 bytes (ODE asserts on 0, OPCODE ignores the rest)"),
        )?;
    }
    if vertex_count > 0 {
        cx.ptr("Vertices", vertices)?;
    }
    if index_count > 0 {
        cx.ptr("Indices", indices)?;
    }
    let tri_count = (index_count / 3) as usize;
    for t in 0..tri_count {
        let q = (indices as *const u8).add(t * tri_stride.max(0) as usize) as *const u32;
        for k in 0..3 {
            let i = q.add(k).read_unaligned();
            if i as i64 >= vertex_count as i64 {
                return cx
                    .fail(format_args!("triangle {t} uses vertex {i}, but argument 'VertexCount' is {vertex_count}"));
            }
            // A NaN or infinite vertex turns every contact with its
            // triangles into NaN (ODE builds with it all the same).
            // Vertices no triangle uses are never read, as in ODE.
            let v = (vertices as *const u8).add(i as usize * vertex_stride.max(0) as usize);
            let finite = (0..3).all(|c| {
                if double {
                    (v as *const f64).add(c).read_unaligned().is_finite()
                } else {
                    (v as *const f32).add(c).read_unaligned().is_finite()
                }
            });
            if !finite {
                return cx.fail(format_args!("triangle {t} uses vertex {i}, which is not finite"));
            }
        }
    }
    if h.get().use_flags.is_some() {
        // ODE asserts here (its data keeps the old mesh's flags, sized for
        // the old triangle count); ours drops them with the rest of the
        // old mesh's preprocessing.
        cx.warn(format_args!(
            "the data's use flags were built by a Preprocess; building it again drops them (ODE asserts: it \
             keeps the old mesh's flags)"
        ));
    }
    h.get_mut().build(
        vertices as *const u8,
        vertex_stride.max(0) as usize,
        vertex_count as usize,
        double,
        indices as *const u8,
        tri_count,
        tri_stride.max(0) as usize,
        normals,
    );
    Some(())
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshDataCreate() -> dTriMeshDataID {
    call("dGeomTriMeshDataCreate", std::ptr::null_mut(), |_| Some(TRIMESH_DATA.alloc(TriMeshData::default()).as_raw()))
}

/// Frees the data. Geoms still using it collide with nothing afterwards
/// (ODE leaves them dangling).
#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshDataDestroy(g_: dTriMeshDataID) {
    call("dGeomTriMeshDataDestroy", (), |cx| {
        let h = data_arg(cx, g_, "g")?;
        TRIMESH_DATA.free(h);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshDataSet(g_: dTriMeshDataID, data_id: c_int, in_data: *mut c_void) {
    call("dGeomTriMeshDataSet", (), |cx| {
        let h = data_arg(cx, g_, "g")?;
        let d = h.get_mut();
        match data_id {
            dTRIMESHDATA_FACE_NORMALS => d.normals = in_data,
            dTRIMESHDATA_USE_FLAGS => d.set_external_flags(in_data as *const u8),
            _ => return cx.fail(format_args!("argument 'data_id' = {data_id} is not a dTRIMESHDATA_* value")),
        }
        Some(())
    })
}

fn data_get(cx: &Cx, g_: dTriMeshDataID, data_id: c_int) -> Option<(*mut c_void, usize)> {
    let d = data_arg(cx, g_, "g")?.get();
    match data_id {
        dTRIMESHDATA_FACE_NORMALS => Some((d.normals as *mut c_void, d.tri_count * 3 * std::mem::size_of::<dReal>())),
        dTRIMESHDATA_USE_FLAGS => {
            let p = if !d.external_flags.is_null() {
                d.external_flags as *mut c_void
            } else {
                d.use_flags.as_ref().map_or(std::ptr::null_mut(), |f| f.as_ptr() as *mut c_void)
            };
            Some((p, d.tri_count))
        }
        _ => cx.fail(format_args!("argument 'data_id' = {data_id} is not a dTRIMESHDATA_* value")),
    }
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshDataGet(g_: dTriMeshDataID, data_id: c_int) -> *mut c_void {
    call("dGeomTriMeshDataGet", std::ptr::null_mut(), |cx| Some(data_get(cx, g_, data_id)?.0))
}

/// Also reports the size in bytes of what the pointer addresses
/// (`pout_size` may be NULL).
#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshDataGet2(
    g_: dTriMeshDataID,
    data_id: c_int,
    pout_size: *mut dsizeint,
) -> *mut c_void {
    call("dGeomTriMeshDataGet2", std::ptr::null_mut(), |cx| {
        let (p, n) = data_get(cx, g_, data_id)?;
        if !pout_size.is_null() {
            *pout_size = n as dsizeint;
        }
        Some(p)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshSetLastTransform(g_: dGeomID, last_trans: *const dReal) {
    call("dGeomTriMeshSetLastTransform", (), |cx| {
        let h = mesh_arg(cx, g_, "g")?;
        // ODE keeps the 3x4 part; the last row reads back as zeros. It
        // feeds trimesh-trimesh contacts, which a NaN would turn NaN.
        let part = cx.read_finite::<12>("last_trans", last_trans)?;
        let mut m = [0.0; 16];
        m[..12].copy_from_slice(&part);
        tm_geom::of(h).last_transform = m;
        Some(())
    })
}

/// The geom's own copy (16 reals, zero until set; last row zero).
#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshGetLastTransform(g_: dGeomID) -> *const dReal {
    call("dGeomTriMeshGetLastTransform", std::ptr::null(), |cx| {
        let h = mesh_arg(cx, g_, "g")?;
        Some(tm_geom::of(h).last_transform.as_ptr())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshDataBuildSingle(
    g_: dTriMeshDataID,
    Vertices: *const c_void,
    VertexStride: c_int,
    VertexCount: c_int,
    Indices: *const c_void,
    IndexCount: c_int,
    TriStride: c_int,
) {
    call("dGeomTriMeshDataBuildSingle", (), |cx| {
        build(cx, g_, Vertices, VertexStride, VertexCount, false, Indices, IndexCount, TriStride, std::ptr::null())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshDataBuildSingle1(
    g_: dTriMeshDataID,
    Vertices: *const c_void,
    VertexStride: c_int,
    VertexCount: c_int,
    Indices: *const c_void,
    IndexCount: c_int,
    TriStride: c_int,
    Normals: *const c_void,
) {
    call("dGeomTriMeshDataBuildSingle1", (), |cx| {
        build(cx, g_, Vertices, VertexStride, VertexCount, false, Indices, IndexCount, TriStride, Normals)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshDataBuildDouble(
    g_: dTriMeshDataID,
    Vertices: *const c_void,
    VertexStride: c_int,
    VertexCount: c_int,
    Indices: *const c_void,
    IndexCount: c_int,
    TriStride: c_int,
) {
    call("dGeomTriMeshDataBuildDouble", (), |cx| {
        build(cx, g_, Vertices, VertexStride, VertexCount, true, Indices, IndexCount, TriStride, std::ptr::null())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshDataBuildDouble1(
    g_: dTriMeshDataID,
    Vertices: *const c_void,
    VertexStride: c_int,
    VertexCount: c_int,
    Indices: *const c_void,
    IndexCount: c_int,
    TriStride: c_int,
    Normals: *const c_void,
) {
    call("dGeomTriMeshDataBuildDouble1", (), |cx| {
        build(cx, g_, Vertices, VertexStride, VertexCount, true, Indices, IndexCount, TriStride, Normals)
    })
}

/// dVector3 vertices (4 reals apart) and packed dTriIndex triangles.
#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshDataBuildSimple(
    g_: dTriMeshDataID,
    Vertices: *const dReal,
    VertexCount: c_int,
    Indices: *const duint32,
    IndexCount: c_int,
) {
    call("dGeomTriMeshDataBuildSimple", (), |cx| {
        build(
            cx,
            g_,
            Vertices as *const c_void,
            32,
            VertexCount,
            true,
            Indices as *const c_void,
            IndexCount,
            12,
            std::ptr::null(),
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshDataBuildSimple1(
    g_: dTriMeshDataID,
    Vertices: *const dReal,
    VertexCount: c_int,
    Indices: *const duint32,
    IndexCount: c_int,
    Normals: *const c_int,
) {
    call("dGeomTriMeshDataBuildSimple1", (), |cx| {
        let n = Normals as *const c_void;
        build(cx, g_, Vertices as *const c_void, 32, VertexCount, true, Indices as *const c_void, IndexCount, 12, n)
    })
}

/// The host's face normals, which preprocessing reads: ODE asserts that
/// each one it reads is of unit length (a NaN, infinite, zero or huge one
/// included); such a request is refused.
fn normals_arg(cx: &Cx, h: TriMeshDataRef) -> Option<()> {
    match h.get().unnormalized_normal() {
        None => Some(()),
        Some((t, n)) => cx.fail(format_args!(
            "the face normal of triangle {t} ({:e}, {:e}, {:e}) is not of unit length (ODE asserts: mesh triangle \
             normals must be normalized)",
            n[0], n[1], n[2]
        )),
    }
}

/// Bits of `buildRequestFlags`: 1 << dTRIDATAPREPROCESS_BUILD_*.
#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshDataPreprocess2(
    g_: dTriMeshDataID,
    buildRequestFlags: c_uint,
    requestExtraData: *const dintptr,
) -> c_int {
    call("dGeomTriMeshDataPreprocess2", 0, |cx| {
        let h = data_arg(cx, g_, "g")?;
        let all = (1u32 << dTRIDATAPREPROCESS_BUILD__MAX) - 1;
        cx.require(
            buildRequestFlags & !all == 0,
            format_args!("argument 'buildRequestFlags' = {buildRequestFlags:#x} has unknown bits"),
        )?;
        let angles = buildRequestFlags & (1 << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES) != 0;
        let mut format = FaceAngleFormat::default();
        if angles && !requestExtraData.is_null() {
            let fmt = *requestExtraData.add(dTRIDATAPREPROCESS_BUILD_FACE_ANGLES as usize);
            match FaceAngleFormat::from_request(fmt as isize) {
                Some(f) => format = f,
                None => {
                    return cx.fail(format_args!("face angle format {fmt} in argument 'requestExtraData' is not valid"))
                }
            }
        }
        let edges = buildRequestFlags & (1 << dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES) != 0;
        preprocess(cx, h, edges, angles.then_some(format))
    })
}

/// Builds what a Preprocess request asks for. A part already built is not
/// built again, as in ODE (which asserts "Another request to build ...
/// after they had already been built" and skips that part); the rest goes
/// on and the call answers 1, so the repeat is reported on the message
/// channel (carried out as ODE does). Data without triangles has
/// nothing to build (ODE answers 1 and builds nothing).
fn preprocess(cx: &Cx, h: TriMeshDataRef, mut edges: bool, mut angles: Option<FaceAngleFormat>) -> Option<c_int> {
    let d = h.get();
    if edges && d.use_flags.is_some() {
        cx.warn(format_args!(
            "the edge/vertex use flags were already built; not built again (ODE asserts: another request to build \
             them after they had been built)"
        ));
        edges = false;
    }
    if angles.is_some() && d.face_angles.is_some() {
        cx.warn(format_args!(
            "the face angles were already built; not built again (ODE asserts: another request to build them after \
             they had been built)"
        ));
        angles = None;
    }
    if !(edges || angles.is_some()) || d.tri_count == 0 {
        return Some(1);
    }
    normals_arg(cx, h)?;
    let d = h.get_mut();
    if edges {
        d.build_use_flags();
    }
    if let Some(format) = angles {
        d.build_face_angles(format);
    }
    Some(1)
}

/// Builds the use flags (edge and vertex ownership).
#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshDataPreprocess(g_: dTriMeshDataID) -> c_int {
    call("dGeomTriMeshDataPreprocess", 0, |cx| {
        let h = data_arg(cx, g_, "g")?;
        preprocess(cx, h, true, None)
    })
}

/// Deprecated: the use flags and their size (one byte per triangle). As
/// in ODE, either output may be NULL (it is then not written).
#[deprecated]
#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshDataGetBuffer(
    g_: dTriMeshDataID,
    buf: *mut *mut std::ffi::c_uchar,
    bufLen: *mut c_int,
) {
    call("dGeomTriMeshDataGetBuffer", (), |cx| {
        let (p, n) = data_get(cx, g_, dTRIMESHDATA_USE_FLAGS)?;
        if !buf.is_null() {
            *buf = p as *mut u8;
        }
        if !bufLen.is_null() {
            *bufLen = n as c_int;
        }
        Some(())
    })
}

/// Deprecated: hands in use flags (referenced), as
/// `dGeomTriMeshDataSet(g, dTRIMESHDATA_USE_FLAGS, buf)`.
#[deprecated]
#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshDataSetBuffer(g_: dTriMeshDataID, buf: *mut std::ffi::c_uchar) {
    call("dGeomTriMeshDataSetBuffer", (), |cx| {
        let h = data_arg(cx, g_, "g")?;
        h.get_mut().set_external_flags(buf);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshSetCallback(
    g_: dGeomID,
    Callback: Option<unsafe extern "C" fn(TriMesh: dGeomID, RefObject: dGeomID, TriangleIndex: c_int) -> c_int>,
) {
    call("dGeomTriMeshSetCallback", (), |cx| {
        tm_geom::of(mesh_arg(cx, g_, "g")?).callback = Callback;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshGetCallback(
    g_: dGeomID,
) -> Option<unsafe extern "C" fn(TriMesh: dGeomID, RefObject: dGeomID, TriangleIndex: c_int) -> c_int> {
    call("dGeomTriMeshGetCallback", None, |cx| Some(tm_geom::of(mesh_arg(cx, g_, "g")?).callback))
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshSetArrayCallback(
    g_: dGeomID,
    ArrayCallback: Option<
        unsafe extern "C" fn(TriMesh: dGeomID, RefObject: dGeomID, TriIndices: *const c_int, TriCount: c_int),
    >,
) {
    call("dGeomTriMeshSetArrayCallback", (), |cx| {
        tm_geom::of(mesh_arg(cx, g_, "g")?).array_callback = ArrayCallback;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshGetArrayCallback(
    g_: dGeomID,
) -> Option<unsafe extern "C" fn(TriMesh: dGeomID, RefObject: dGeomID, TriIndices: *const c_int, TriCount: c_int)> {
    call("dGeomTriMeshGetArrayCallback", None, |cx| Some(tm_geom::of(mesh_arg(cx, g_, "g")?).array_callback))
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshSetRayCallback(
    g_: dGeomID,
    Callback: Option<
        unsafe extern "C" fn(TriMesh: dGeomID, Ray: dGeomID, TriangleIndex: c_int, u: dReal, v: dReal) -> c_int,
    >,
) {
    call("dGeomTriMeshSetRayCallback", (), |cx| {
        tm_geom::of(mesh_arg(cx, g_, "g")?).ray_callback = Callback;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshGetRayCallback(
    g_: dGeomID,
) -> Option<unsafe extern "C" fn(TriMesh: dGeomID, Ray: dGeomID, TriangleIndex: c_int, u: dReal, v: dReal) -> c_int> {
    call("dGeomTriMeshGetRayCallback", None, |cx| Some(tm_geom::of(mesh_arg(cx, g_, "g")?).ray_callback))
}

/// Kept for the host; our trimesh colliders do not merge contacts across
/// triangles (ODE's default for the OPCODE build), so it is not called.
#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshSetTriMergeCallback(
    g_: dGeomID,
    Callback: Option<
        unsafe extern "C" fn(TriMesh: dGeomID, FirstTriangleIndex: c_int, SecondTriangleIndex: c_int) -> c_int,
    >,
) {
    call("dGeomTriMeshSetTriMergeCallback", (), |cx| {
        tm_geom::of(mesh_arg(cx, g_, "g")?).merge_callback = Callback;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshGetTriMergeCallback(
    g_: dGeomID,
) -> Option<unsafe extern "C" fn(TriMesh: dGeomID, FirstTriangleIndex: c_int, SecondTriangleIndex: c_int) -> c_int> {
    call("dGeomTriMeshGetTriMergeCallback", None, |cx| Some(tm_geom::of(mesh_arg(cx, g_, "g")?).merge_callback))
}

#[no_mangle]
pub unsafe extern "C" fn dCreateTriMesh(
    space: dSpaceID,
    Data: dTriMeshDataID,
    Callback: Option<unsafe extern "C" fn(TriMesh: dGeomID, RefObject: dGeomID, TriangleIndex: c_int) -> c_int>,
    ArrayCallback: Option<
        unsafe extern "C" fn(TriMesh: dGeomID, RefObject: dGeomID, TriIndices: *const c_int, TriCount: c_int),
    >,
    RayCallback: Option<
        unsafe extern "C" fn(TriMesh: dGeomID, Ray: dGeomID, TriangleIndex: c_int, u: dReal, v: dReal) -> c_int,
    >,
) -> dGeomID {
    call("dCreateTriMesh", std::ptr::null_mut(), |cx| {
        let s = new_geom_space(cx, space)?;
        let d = if Data.is_null() { None } else { Some(data_arg(cx, Data, "Data")?) };
        let mut t = tm::TriMeshGeom::new(d);
        t.callback = Callback;
        t.array_callback = ArrayCallback;
        t.ray_callback = RayCallback;
        Some(geom::create(s, true, class::TRIMESH, Shape::TriMesh(t)).as_raw())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshSetData(g_: dGeomID, Data: dTriMeshDataID) {
    call("dGeomTriMeshSetData", (), |cx| {
        let h = mesh_arg(cx, g_, "g")?;
        let d = if Data.is_null() { None } else { Some(data_arg(cx, Data, "Data")?) };
        tm_geom::of(h).data = d;
        geom::moved(h);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshGetData(g_: dGeomID) -> dTriMeshDataID {
    call("dGeomTriMeshGetData", std::ptr::null_mut(), |cx| {
        Some(tm_geom::of(mesh_arg(cx, g_, "g")?).data.map_or(std::ptr::null_mut(), |d| d.as_raw()))
    })
}

/// Temporal coherence switches exist for spheres, boxes and capsules (the
/// classes ODE caches); other classes are ignored.
#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshEnableTC(g_: dGeomID, geomClass: c_int, enable: c_int) {
    call("dGeomTriMeshEnableTC", (), |cx| {
        let t = tm_geom::of(mesh_arg(cx, g_, "g")?);
        let on = enable != 0;
        match geomClass {
            class::SPHERE => t.tc_sphere = on,
            class::BOX => t.tc_box = on,
            class::CAPSULE => t.tc_capsule = on,
            _ => {}
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshIsTCEnabled(g_: dGeomID, geomClass: c_int) -> c_int {
    call("dGeomTriMeshIsTCEnabled", 0, |cx| {
        let t = tm_geom::of(mesh_arg(cx, g_, "g")?);
        Some(match geomClass {
            class::SPHERE => t.tc_sphere,
            class::BOX => t.tc_box,
            class::CAPSULE => t.tc_capsule,
            _ => false,
        } as c_int)
    })
}

/// Nothing to clear: our queries keep no per-pair cache.
#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshClearTCCache(g_: dGeomID) {
    call("dGeomTriMeshClearTCCache", (), |cx| {
        mesh_arg(cx, g_, "g")?;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshGetTriMeshDataID(g_: dGeomID) -> dTriMeshDataID {
    call("dGeomTriMeshGetTriMeshDataID", std::ptr::null_mut(), |cx| {
        Some(tm_geom::of(mesh_arg(cx, g_, "g")?).data.map_or(std::ptr::null_mut(), |d| d.as_raw()))
    })
}

/// The mesh data of a trimesh with live data, and a valid triangle index.
fn triangle_arg(cx: &Cx, g_: dGeomID, index: c_int) -> Option<[[dReal; 3]; 3]> {
    let h = mesh_arg(cx, g_, "g")?;
    let Some(d) = tm_geom::of(h).live_data() else {
        return cx.fail(format_args!("argument 'g' has no trimesh data"));
    };
    cx.require(
        index >= 0 && (index as usize) < d.tri_count,
        format_args!("argument 'Index' = {index} is not a triangle index (count {})", d.tri_count),
    )?;
    geom::recompute_posr(h);
    let m = tm::Mesh { data: d, pose: geom::pose(h) };
    Some(m.triangle(index as usize))
}

/// World coordinates; NULL outputs are skipped.
#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshGetTriangle(
    g_: dGeomID,
    Index: c_int,
    v0: *mut [dReal; 4],
    v1: *mut [dReal; 4],
    v2: *mut [dReal; 4],
) {
    call("dGeomTriMeshGetTriangle", (), |cx| {
        let t = triangle_arg(cx, g_, Index)?;
        for (out, v) in [v0, v1, v2].into_iter().zip(t) {
            if !out.is_null() {
                *out = [v[0], v[1], v[2], 0.0];
            }
        }
        Some(())
    })
}

/// v0 + u (v1 − v0) + v (v2 − v0), in world coordinates.
#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshGetPoint(g_: dGeomID, Index: c_int, u: dReal, v: dReal, Out: *mut dReal) {
    call("dGeomTriMeshGetPoint", (), |cx| {
        cx.ptr_mut("Out", Out)?;
        cx.finite("u", u)?;
        cx.finite("v", v)?;
        let t = triangle_arg(cx, g_, Index)?;
        for k in 0..3 {
            *Out.add(k) = t[0][k] + u * (t[1][k] - t[0][k]) + v * (t[2][k] - t[0][k]);
        }
        *Out.add(3) = 0.0;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshGetTriangleCount(g_: dGeomID) -> c_int {
    call("dGeomTriMeshGetTriangleCount", 0, |cx| {
        Some(tm_geom::of(mesh_arg(cx, g_, "g")?).live_data().map_or(0, |d| d.tri_count as c_int))
    })
}

/// Refits the BVH after the host moved vertices in its buffer.
#[no_mangle]
pub unsafe extern "C" fn dGeomTriMeshDataUpdate(g_: dTriMeshDataID) {
    call("dGeomTriMeshDataUpdate", (), |cx| {
        data_arg(cx, g_, "g")?.get_mut().update();
        Some(())
    })
}
