//! extern "C" functions of ODE's mass.h (all but the trimesh ones), on the
//! C struct `dMass`, which is `math::mass::Mass` itself.
//!
//! ODE aborts on a NULL mass or a bad direction code; here such calls are
//! reported (`error::bad_input`) and leave the mass unchanged, as do
//! non-finite arguments. Physically inconsistent results (e.g. a zero mass)
//! are kept and reported on the message channel exactly as ODE's
//! `dMassCheck` does.
#![allow(non_snake_case)]

use super::*;
use crate::math::mass::{Axis, Mass};
use std::ffi::c_int;

/// C name of the mass struct.
pub use super::decl::mass::dMass;

// Argument checks of this header (free functions: `Cx` is shared by all headers).

fn mass<'a>(cx: &Cx, m: *mut dMass) -> Option<&'a mut Mass> {
    cx.ptr_mut("m", m)?;
    // SAFETY: non-null, and the caller hands us a dMass.
    Some(unsafe { &mut *m })
}

fn axis(cx: &Cx, direction: c_int) -> Option<Axis> {
    match Axis::from_code(direction) {
        Some(a) => Some(a),
        None => cx.fail(format_args!("argument 'direction' = {direction} must be 1 (x), 2 (y) or 3 (z)")),
    }
}

#[no_mangle]
pub unsafe extern "C" fn dMassCheck(m: *const dMass) -> c_int {
    call("dMassCheck", 0, |cx| {
        cx.ptr("m", m)?;
        Some((*m).check() as c_int)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dMassSetZero(m: *mut dMass) {
    call("dMassSetZero", (), |cx| {
        mass(cx, m)?.set_zero();
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dMassSetParameters(
    m: *mut dMass,
    themass: dReal,
    cgx: dReal,
    cgy: dReal,
    cgz: dReal,
    I11: dReal,
    I22: dReal,
    I33: dReal,
    I12: dReal,
    I13: dReal,
    I23: dReal,
) {
    call("dMassSetParameters", (), |cx| {
        let mass = mass(cx, m)?;
        for (name, v) in [
            ("themass", themass),
            ("cgx", cgx),
            ("cgy", cgy),
            ("cgz", cgz),
            ("I11", I11),
            ("I22", I22),
            ("I33", I33),
            ("I12", I12),
            ("I13", I13),
            ("I23", I23),
        ] {
            cx.finite(name, v)?;
        }
        mass.set_parameters(themass, [cgx, cgy, cgz], I11, I22, I33, I12, I13, I23);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dMassSetSphere(m: *mut dMass, density: dReal, radius: dReal) {
    call("dMassSetSphere", (), |cx| {
        let mass = mass(cx, m)?;
        cx.finite("density", density)?;
        cx.finite("radius", radius)?;
        mass.set_sphere(density, radius);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dMassSetSphereTotal(m: *mut dMass, total_mass: dReal, radius: dReal) {
    call("dMassSetSphereTotal", (), |cx| {
        let mass = mass(cx, m)?;
        cx.finite("total_mass", total_mass)?;
        cx.finite("radius", radius)?;
        mass.set_sphere_total(total_mass, radius);
        Some(())
    })
}

/// Shared body of the capsule and cylinder setters.
unsafe fn axial(
    cx: &Cx,
    m: *mut dMass,
    first: (&str, dReal),
    direction: c_int,
    radius: dReal,
    length: dReal,
    set: fn(&mut Mass, f64, Axis, f64, f64),
) -> Option<()> {
    let mass = mass(cx, m)?;
    cx.finite(first.0, first.1)?;
    let axis = axis(cx, direction)?;
    cx.finite("radius", radius)?;
    cx.finite("length", length)?;
    set(mass, first.1, axis, radius, length);
    Some(())
}

#[no_mangle]
pub unsafe extern "C" fn dMassSetCapsule(
    m: *mut dMass,
    density: dReal,
    direction: c_int,
    radius: dReal,
    length: dReal,
) {
    call("dMassSetCapsule", (), |cx| axial(cx, m, ("density", density), direction, radius, length, Mass::set_capsule))
}

#[no_mangle]
pub unsafe extern "C" fn dMassSetCapsuleTotal(m: *mut dMass, total_mass: dReal, direction: c_int, a: dReal, b: dReal) {
    call("dMassSetCapsuleTotal", (), |cx| {
        axial(cx, m, ("total_mass", total_mass), direction, a, b, Mass::set_capsule_total)
    })
}

/// Old name of dMassSetCapsule.
#[no_mangle]
pub unsafe extern "C" fn dMassSetCappedCylinder(
    m: *mut dMass,
    density: dReal,
    direction: c_int,
    radius: dReal,
    length: dReal,
) {
    call("dMassSetCappedCylinder", (), |cx| {
        axial(cx, m, ("density", density), direction, radius, length, Mass::set_capsule)
    })
}

/// Old name of dMassSetCapsuleTotal.
#[no_mangle]
pub unsafe extern "C" fn dMassSetCappedCylinderTotal(
    m: *mut dMass,
    total_mass: dReal,
    direction: c_int,
    a: dReal,
    b: dReal,
) {
    call("dMassSetCappedCylinderTotal", (), |cx| {
        axial(cx, m, ("total_mass", total_mass), direction, a, b, Mass::set_capsule_total)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dMassSetCylinder(
    m: *mut dMass,
    density: dReal,
    direction: c_int,
    radius: dReal,
    length: dReal,
) {
    call("dMassSetCylinder", (), |cx| axial(cx, m, ("density", density), direction, radius, length, Mass::set_cylinder))
}

#[no_mangle]
pub unsafe extern "C" fn dMassSetCylinderTotal(
    m: *mut dMass,
    total_mass: dReal,
    direction: c_int,
    radius: dReal,
    length: dReal,
) {
    call("dMassSetCylinderTotal", (), |cx| {
        axial(cx, m, ("total_mass", total_mass), direction, radius, length, Mass::set_cylinder_total)
    })
}

#[no_mangle]
pub unsafe extern "C" fn dMassSetBox(m: *mut dMass, density: dReal, lx: dReal, ly: dReal, lz: dReal) {
    call("dMassSetBox", (), |cx| {
        let mass = mass(cx, m)?;
        cx.finite("density", density)?;
        cx.finite("lx", lx)?;
        cx.finite("ly", ly)?;
        cx.finite("lz", lz)?;
        mass.set_box(density, lx, ly, lz);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dMassSetBoxTotal(m: *mut dMass, total_mass: dReal, lx: dReal, ly: dReal, lz: dReal) {
    call("dMassSetBoxTotal", (), |cx| {
        let mass = mass(cx, m)?;
        cx.finite("total_mass", total_mass)?;
        cx.finite("lx", lx)?;
        cx.finite("ly", ly)?;
        cx.finite("lz", lz)?;
        mass.set_box_total(total_mass, lx, ly, lz);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dMassAdjust(m: *mut dMass, newmass: dReal) {
    call("dMassAdjust", (), |cx| {
        let mass = mass(cx, m)?;
        cx.finite("newmass", newmass)?;
        mass.adjust(newmass);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dMassTranslate(m: *mut dMass, x: dReal, y: dReal, z: dReal) {
    call("dMassTranslate", (), |cx| {
        let mass = mass(cx, m)?;
        cx.finite("x", x)?;
        cx.finite("y", y)?;
        cx.finite("z", z)?;
        mass.translate([x, y, z]);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dMassRotate(m: *mut dMass, R: *const dReal) {
    call("dMassRotate", (), |cx| {
        let mass = mass(cx, m)?;
        cx.ptr("R", R)?;
        // All 12 entries are copied, only the 3×3 part is used (the padding
        // of a C dMatrix3 may be uninitialised).
        let mut r = [0.0; 12];
        std::ptr::copy_nonoverlapping(R, r.as_mut_ptr(), 12);
        for i in 0..3 {
            for j in 0..3 {
                let v = r[i * 4 + j];
                if !v.is_finite() {
                    return cx.fail(format_args!("argument 'R'[{}] is {v} (must be finite)", i * 4 + j));
                }
            }
        }
        mass.rotate(&r);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dMassAdd(a: *mut dMass, b: *const dMass) {
    call("dMassAdd", (), |cx| {
        cx.ptr_mut("a", a)?;
        cx.ptr("b", b)?;
        // Copy b first: dMassAdd(m, m) is legal and doubles m, as in ODE.
        let bv = *b;
        (*a).add(&bv);
        Some(())
    })
}
