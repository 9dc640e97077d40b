//! `dJointCreateContact` (objects.h): a contact joint from a filled
//! `dContact`, copied into the joint.
//!
//! Beyond ODE's checks: the contact geometry (position, normal, depth, and
//! `fdir1` when `dContactFDir1` is set) must be finite and the surface
//! parameters the mode bits select must not be NaN (dInfinity is
//! meaningful for mu, mu2, rho…). Parameters the mode does not use are
//! ignored, as ODE ignores them: hosts often leave them uninitialised.

use super::decl::contact::dContact;
use super::objects_null::create;
use super::types::*;
use super::{call, Cx};
use crate::joints::contact::{mode, ContactJoint, ContactPoint, Surface};
use crate::joints::JointKind;

/// Validates `c` (see the module's notes). Runs once per contact point, so
/// the usual case is a handful of additions: a sum is NaN if any term is
/// NaN, and infinite or NaN if any term is not finite. Only a failed sum
/// (which may also come from valid values, e.g. +inf and -inf among the
/// parameters) goes on to the exact test.
#[inline(always)]
fn check_contact(cx: &Cx, c: &dContact) -> Option<()> {
    let g = &c.geom;
    // Hosts seldom set the rolling, motion or slip bits. Without them the
    // sum is taken with only the other bits that select parameters, a
    // mode the compiler knows lacks them, so it drops the masking of
    // their eight parameters (the same sum: their masks are zero either
    // way).
    let rare = mode::ROLLING | mode::MOTION1 | mode::MOTION2 | mode::MOTION_N | mode::SLIP1 | mode::SLIP2;
    let common = mode::MU2 | mode::BOUNCE | mode::SOFT_ERP | mode::SOFT_CFM;
    let m = c.surface.mode;
    let surface = if m & rare == 0 { surface_sum(c, m & common) } else { surface_sum(c, m) };
    let mut geom = ((g.pos[0] + g.pos[1]) + (g.pos[2] + g.depth)) + ((g.normal[0] + g.normal[1]) + g.normal[2]);
    if c.surface.mode & mode::FDIR1 != 0 {
        geom += (c.fdir1[0] + c.fdir1[1]) + c.fdir1[2];
    }
    if !surface.is_nan() && geom.is_finite() {
        return Some(());
    }
    check_contact_exact(cx, c)
}

/// The sum of the surface parameters `mode` uses (`c`'s own mode, maybe
/// with bits known to be clear cleared): NaN if any of them is NaN.
#[inline(always)]
fn surface_sum(c: &dContact, mode: i32) -> f64 {
    // Which parameters the mode uses is `Surface::values_in_use`'s list.
    // Those it does not use count as +0: hosts leave them uninitialised,
    // and their garbage must not decide a branch (memcheck flags that).
    // The mask is an AND of the bits, so an unused value's bits never
    // reach the sums, not even as undefined ones.
    let keep = |(_, v, used): (&str, f64, bool)| f64::from_bits(v.to_bits() & (used as u64).wrapping_neg());
    let p = Surface { mode, ..surface(c) }.values_in_use().map(keep);
    // Two lanes (packed additions): even and odd parameters.
    let mut lanes = [p[0], p[1]];
    for k in (2..p.len()).step_by(2) {
        lanes = [lanes[0] + p[k], lanes[1] + p[k + 1]];
    }
    lanes[0] + lanes[1]
}

/// The exact test behind `check_contact`: reports the first invalid field
/// of `c`, or accepts it (the sums also fail on valid values).
#[cold]
#[inline(never)]
fn check_contact_exact(cx: &Cx, c: &dContact) -> Option<()> {
    if let Some(name) = surface(c).first_nan_in_use() {
        return cx.fail(format_args!("argument 'c': surface.{name} is NaN"));
    }
    let g = &c.geom;
    let finite3 = |v: &[f64]| v[..3].iter().all(|x| x.is_finite());
    for (name, v) in [("pos", &g.pos), ("normal", &g.normal)] {
        cx.require(finite3(v), format_args!("argument 'c': geom.{name} is not finite"))?;
    }
    cx.require(g.depth.is_finite(), format_args!("argument 'c': geom.depth is {} (must be finite)", g.depth))?;
    if c.surface.mode & mode::FDIR1 != 0 {
        cx.require(finite3(&c.fdir1), format_args!("argument 'c': fdir1 is not finite"))?;
    }
    Some(())
}

/// The joint's copy of `c`'s surface parameters.
///
/// Field by field, each an 8-byte load (`read_volatile`, which the
/// compiler does not merge): hosts set a few of these fields just before
/// the call, and a wider load spanning two such stores waits for them to
/// reach the cache instead of taking their values from the store buffer
/// (a third of the call's time in the bench scenes).
#[inline(always)]
fn surface(c: &dContact) -> Surface {
    let s = &c.surface;
    // SAFETY: each pointer is to a field of `c`, a valid reference.
    let f = |v: &f64| unsafe { std::ptr::read_volatile(v) };
    Surface {
        mode: s.mode,
        mu: f(&s.mu),
        mu2: f(&s.mu2),
        rho: f(&s.rho),
        rho2: f(&s.rho2),
        rho_n: f(&s.rhoN),
        bounce: f(&s.bounce),
        bounce_vel: f(&s.bounce_vel),
        soft_erp: f(&s.soft_erp),
        soft_cfm: f(&s.soft_cfm),
        motion1: f(&s.motion1),
        motion2: f(&s.motion2),
        motion_n: f(&s.motionN),
        slip1: f(&s.slip1),
        slip2: f(&s.slip2),
    }
}

/// The joint's copy of a checked `dContact`.
#[inline(always)]
fn contact_joint(c: &dContact) -> ContactJoint {
    let g = &c.geom;
    let point = ContactPoint {
        pos: [g.pos[0], g.pos[1], g.pos[2]],
        normal: [g.normal[0], g.normal[1], g.normal[2]],
        depth: g.depth,
        g1: g.g1,
        g2: g.g2,
        side1: g.side1,
        side2: g.side2,
    };
    ContactJoint::new(surface(c), point, [c.fdir1[0], c.fdir1[1], c.fdir1[2]])
}

#[no_mangle]
pub unsafe extern "C" fn dJointCreateContact(w: dWorldID, g: dJointGroupID, c: *const dContact) -> dJointID {
    call("dJointCreateContact", std::ptr::null_mut(), |cx| {
        let c = &*cx.ptr("c", c)?;
        check_contact(cx, c)?;
        // Built in the joint's cell, straight from the host's struct.
        create(cx, w, g, |_| JointKind::Contact(contact_joint(c)))
    })
}
