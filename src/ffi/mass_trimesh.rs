//! extern "C" trimesh functions of ODE's mass.h: `dMassSetTrimesh` and
//! `dMassSetTrimeshTotal` (kept apart from mass.rs because they need geoms).
//!
//! The mass properties come from the mesh's triangles in WORLD coordinates
//! (ODE reads them through dGeomTriMeshGetTriangle), integrated over the
//! closed surface as signed tetrahedra from the origin. As in ODE, the
//! inertia integrated about the origin is then moved with dMassTranslate
//! to the centre of mass as if it were central (ODE's exact behaviour,
//! which adds the parallel-axis term once more).

use super::collision::geom_arg;
use super::decl::mass::dMass;
use super::types::*;
use super::{call, Cx};
use crate::collision::geom::{self, class, g};
use crate::collision::trimesh as tm;
use crate::collision::trimesh_geom as tm_geom;
use crate::math::mass::Mass;

/// Mass of trimesh `h` at density `density` (None without data).
fn trimesh_mass(cx: &Cx, h: dGeomID, density: dReal) -> Option<Mass> {
    let gr = geom_arg(cx, h, "g")?;
    let c = g(gr).class;
    cx.require(c == class::TRIMESH, format_args!("argument 'g' is not a trimesh (its class is {c})"))?;
    let Some(d) = tm_geom::of(gr).live_data() else {
        return cx.fail(format_args!("argument 'g' has no trimesh data"));
    };
    geom::recompute_posr(gr);
    let mesh = tm::Mesh { data: d, pose: geom::pose(gr) };
    let mut vol = 0.0;
    let mut first = [0.0; 3];
    // Second moments ∫ x_i x_j dV.
    let mut second = [[0.0; 3]; 3];
    for t in 0..d.tri_count {
        let [a, b, c] = mesh.triangle(t);
        let det = tm::dot(&a, &tm::cross(&b, &c));
        vol += det / 6.0;
        let s = [a[0] + b[0] + c[0], a[1] + b[1] + c[1], a[2] + b[2] + c[2]];
        for i in 0..3 {
            first[i] += det / 24.0 * s[i];
            for j in 0..3 {
                second[i][j] += det / 120.0 * (a[i] * a[j] + b[i] * b[j] + c[i] * c[j] + s[i] * s[j]);
            }
        }
    }
    let mut m = Mass::ZERO;
    m.mass = density * vol;
    m.I[0] = density * (second[1][1] + second[2][2]);
    m.I[5] = density * (second[2][2] + second[0][0]);
    m.I[10] = density * (second[0][0] + second[1][1]);
    m.I[1] = -density * second[0][1];
    m.I[4] = m.I[1];
    m.I[6] = -density * second[1][2];
    m.I[9] = m.I[6];
    m.I[2] = -density * second[0][2];
    m.I[8] = m.I[2];
    m.translate([first[0] / vol, first[1] / vol, first[2] / vol]);
    Some(m)
}

#[no_mangle]
pub unsafe extern "C" fn dMassSetTrimesh(m: *mut dMass, density: dReal, g_: dGeomID) {
    call("dMassSetTrimesh", (), |cx| {
        cx.ptr_mut("m", m)?;
        cx.finite("density", density)?;
        *m = trimesh_mass(cx, g_, density)?;
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dMassSetTrimeshTotal(m: *mut dMass, total_mass: dReal, g_: dGeomID) {
    call("dMassSetTrimeshTotal", (), |cx| {
        cx.ptr_mut("m", m)?;
        cx.finite("total_mass", total_mass)?;
        let mut mass = trimesh_mass(cx, g_, 1.0)?;
        mass.adjust(total_mass);
        *m = mass;
        Some(())
    })
}
