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

fn read_contact(cx: &Cx, c: &dContact) -> Option<(Surface, ContactPoint, [f64; 3])> {
    let s = &c.surface;
    let on = |bit: i32| s.mode & bit != 0;
    let rolling = on(mode::ROLLING);
    let named = [
        ("mu", s.mu, true),
        ("mu2", s.mu2, on(mode::MU2)),
        ("rho", s.rho, rolling),
        ("rho2", s.rho2, rolling && on(mode::AXIS_DEP)),
        ("rhoN", s.rhoN, rolling),
        ("bounce", s.bounce, on(mode::BOUNCE)),
        ("bounce_vel", s.bounce_vel, on(mode::BOUNCE)),
        ("soft_erp", s.soft_erp, on(mode::SOFT_ERP)),
        ("soft_cfm", s.soft_cfm, on(mode::SOFT_CFM)),
        ("motion1", s.motion1, on(mode::MOTION1)),
        ("motion2", s.motion2, on(mode::MOTION2)),
        ("motionN", s.motionN, on(mode::MOTION_N)),
        ("slip1", s.slip1, on(mode::SLIP1)),
        ("slip2", s.slip2, on(mode::SLIP2)),
    ];
    for (name, v, used) in named {
        cx.require(!used || !v.is_nan(), format_args!("argument 'c': surface.{name} is NaN"))?;
    }
    let g = &c.geom;
    for (name, v) in [("pos", &g.pos), ("normal", &g.normal)] {
        cx.require(v[..3].iter().all(|x| x.is_finite()), format_args!("argument 'c': geom.{name} is not finite"))?;
    }
    cx.require(g.depth.is_finite(), format_args!("argument 'c': geom.depth is {} (must be finite)", g.depth))?;
    if s.mode & mode::FDIR1 != 0 {
        cx.require(c.fdir1[..3].iter().all(|x| x.is_finite()), format_args!("argument 'c': fdir1 is not finite"))?;
    }
    let surface = Surface {
        mode: s.mode,
        mu: s.mu,
        mu2: s.mu2,
        rho: s.rho,
        rho2: s.rho2,
        rho_n: s.rhoN,
        bounce: s.bounce,
        bounce_vel: s.bounce_vel,
        soft_erp: s.soft_erp,
        soft_cfm: s.soft_cfm,
        motion1: s.motion1,
        motion2: s.motion2,
        motion_n: s.motionN,
        slip1: s.slip1,
        slip2: s.slip2,
    };
    let point = ContactPoint {
        pos: [g.pos[0], g.pos[1], g.pos[2]],
        normal: [g.normal[0], g.normal[1], g.normal[2]],
        depth: g.depth,
        g1: g.g1,
        g2: g.g2,
        side1: g.side1,
        side2: g.side2,
    };
    Some((surface, point, [c.fdir1[0], c.fdir1[1], c.fdir1[2]]))
}

#[no_mangle]
pub unsafe extern "C" fn dJointCreateContact(w: dWorldID, g: dJointGroupID, c: *const dContact) -> dJointID {
    call("dJointCreateContact", std::ptr::null_mut(), |cx| {
        let c = &*cx.ptr("c", c)?;
        let (surface, point, fdir1) = read_contact(cx, c)?;
        create(cx, w, g, |_| JointKind::Contact(ContactJoint::new(surface, point, fdir1)))
    })
}
