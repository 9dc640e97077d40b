//! extern "C" functions of rotation.h.
#![allow(non_snake_case)]

use super::{call, dReal, write_reals};
use crate::math::rotation as rot;

#[no_mangle]
pub unsafe extern "C" fn dRSetIdentity(R: *mut dReal) {
    call("dRSetIdentity", (), |cx| {
        let R = cx.ptr_mut("R", R)?;
        write_reals(R, &rot::IDENTITY);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dRFromAxisAndAngle(R: *mut dReal, ax: dReal, ay: dReal, az: dReal, angle: dReal) {
    call("dRFromAxisAndAngle", (), |cx| {
        let R = cx.ptr_mut("R", R)?;
        cx.finite("ax", ax)?;
        cx.finite("ay", ay)?;
        cx.finite("az", az)?;
        cx.finite("angle", angle)?;
        write_reals(R, &rot::r_from_axis_and_angle(ax, ay, az, angle));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dRFromEulerAngles(R: *mut dReal, phi: dReal, theta: dReal, psi: dReal) {
    call("dRFromEulerAngles", (), |cx| {
        let R = cx.ptr_mut("R", R)?;
        cx.finite("phi", phi)?;
        cx.finite("theta", theta)?;
        cx.finite("psi", psi)?;
        write_reals(R, &rot::r_from_euler_angles(phi, theta, psi));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dRFrom2Axes(R: *mut dReal, ax: dReal, ay: dReal, az: dReal, bx: dReal, by: dReal, bz: dReal) {
    call("dRFrom2Axes", (), |cx| {
        let R = cx.ptr_mut("R", R)?;
        for (n, v) in [("ax", ax), ("ay", ay), ("az", az), ("bx", bx), ("by", by), ("bz", bz)] {
            cx.finite(n, v)?;
        }
        match rot::r_from_2_axes([ax, ay, az], [bx, by, bz]) {
            Some(m) => write_reals(R, &m),
            // ODE leaves R untouched and only warns.
            None => {
                crate::error::message(crate::error::D_ERR_UASSERT, "dRFrom2Axes: zero length vector, R left unchanged")
            }
        }
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dRFromZAxis(R: *mut dReal, ax: dReal, ay: dReal, az: dReal) {
    call("dRFromZAxis", (), |cx| {
        let R = cx.ptr_mut("R", R)?;
        cx.finite("ax", ax)?;
        cx.finite("ay", ay)?;
        cx.finite("az", az)?;
        // ODE normalises the axis: it asserts on zero and gives NaN for an
        // axis too small to normalise (see vec::normalizable3).
        cx.require(
            crate::math::vec::normalizable3(&[ax, ay, az]),
            format_args!("the axis ({ax:?}, {ay:?}, {az:?}) cannot be normalised"),
        )?;
        write_reals(R, &rot::r_from_z_axis([ax, ay, az]));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dQSetIdentity(q: *mut dReal) {
    call("dQSetIdentity", (), |cx| {
        let q = cx.ptr_mut("q", q)?;
        write_reals(q, &rot::Q_IDENTITY);
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dQFromAxisAndAngle(q: *mut dReal, ax: dReal, ay: dReal, az: dReal, angle: dReal) {
    call("dQFromAxisAndAngle", (), |cx| {
        let q = cx.ptr_mut("q", q)?;
        cx.finite("ax", ax)?;
        cx.finite("ay", ay)?;
        cx.finite("az", az)?;
        cx.finite("angle", angle)?;
        write_reals(q, &rot::q_from_axis_and_angle(ax, ay, az, angle));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dQMultiply0(qa: *mut dReal, qb: *const dReal, qc: *const dReal) {
    call("dQMultiply0", (), |cx| {
        let qa = cx.ptr_mut("qa", qa)?;
        let b = cx.read_finite::<4>("qb", qb)?;
        let c = cx.read_finite::<4>("qc", qc)?;
        write_reals(qa, &rot::q_mult0(&b, &c));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dQMultiply1(qa: *mut dReal, qb: *const dReal, qc: *const dReal) {
    call("dQMultiply1", (), |cx| {
        let qa = cx.ptr_mut("qa", qa)?;
        let b = cx.read_finite::<4>("qb", qb)?;
        let c = cx.read_finite::<4>("qc", qc)?;
        write_reals(qa, &rot::q_mult1(&b, &c));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dQMultiply2(qa: *mut dReal, qb: *const dReal, qc: *const dReal) {
    call("dQMultiply2", (), |cx| {
        let qa = cx.ptr_mut("qa", qa)?;
        let b = cx.read_finite::<4>("qb", qb)?;
        let c = cx.read_finite::<4>("qc", qc)?;
        write_reals(qa, &rot::q_mult2(&b, &c));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dQMultiply3(qa: *mut dReal, qb: *const dReal, qc: *const dReal) {
    call("dQMultiply3", (), |cx| {
        let qa = cx.ptr_mut("qa", qa)?;
        let b = cx.read_finite::<4>("qb", qb)?;
        let c = cx.read_finite::<4>("qc", qc)?;
        write_reals(qa, &rot::q_mult3(&b, &c));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dRfromQ(R: *mut dReal, q: *const dReal) {
    call("dRfromQ", (), |cx| {
        let R = cx.ptr_mut("R", R)?;
        let q = cx.read_finite::<4>("q", q)?;
        write_reals(R, &rot::q_to_r(&q));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dQfromR(q: *mut dReal, R: *const dReal) {
    call("dQfromR", (), |cx| {
        let q = cx.ptr_mut("q", q)?;
        let r = cx.read_finite::<12>("R", R)?;
        write_reals(q, &rot::r_to_q(&r));
        Some(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn dDQfromW(dq: *mut dReal, w: *const dReal, q: *const dReal) {
    call("dDQfromW", (), |cx| {
        let dq = cx.ptr_mut("dq", dq)?;
        let w = cx.read_finite::<3>("w", w)?;
        let q = cx.read_finite::<4>("q", q)?;
        write_reals(dq, &rot::dq_from_w(&w, &q));
        Some(())
    })
}
