//! The contact joint (`dJointCreateContact`): one non-penetration row along
//! the normal, then, depending on the surface mode, up to two friction rows
//! and three rolling/spinning friction rows (ODE 0.16's `dxJointContact`).
//!
//! Row order: normal; friction along t1 (if mu > 0); along t2 (if mu2 > 0,
//! mu2 = mu unless `dContactMu2`); rolling about t1, t2 and spinning about
//! the normal (each if its coefficient > 0). t1 is `fdir1` with
//! `dContactFDir1`, else ODE's plane space of the normal; t2 = n × t1.
//! Friction bounds are ±mu (box friction) or, with the matching
//! `dContactApprox1_*` bit, ±mu·|λ normal| through `findex` = 0.
//!
//! Quirk kept from ODE 0.16: `info1` counts a rolling row for a zero rho
//! (only negative values are clamped), while `info2` skips it, so such a
//! row stays as initialised (zero Jacobian) at the end of the joint.

use super::{flags, Bodies, Info1, JointHead, JointModel, Row, RowCtx};
use crate::math::vec::{cross3, dot3, plane_space};
use std::ffi::c_void;

/// Surface mode bits (contact.h).
pub mod mode {
    pub const MU2: i32 = 0x001;
    pub const AXIS_DEP: i32 = 0x001;
    pub const FDIR1: i32 = 0x002;
    pub const BOUNCE: i32 = 0x004;
    pub const SOFT_ERP: i32 = 0x008;
    pub const SOFT_CFM: i32 = 0x010;
    pub const MOTION1: i32 = 0x020;
    pub const MOTION2: i32 = 0x040;
    pub const MOTION_N: i32 = 0x080;
    pub const SLIP1: i32 = 0x100;
    pub const SLIP2: i32 = 0x200;
    pub const ROLLING: i32 = 0x400;
    pub const APPROX1_1: i32 = 0x1000;
    pub const APPROX1_2: i32 = 0x2000;
    pub const APPROX1_N: i32 = 0x4000;
}

/// Friction, restitution and softness of the contact (dSurfaceParameters).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Surface {
    pub mode: i32,
    pub mu: f64,
    pub mu2: f64,
    pub rho: f64,
    pub rho2: f64,
    pub rho_n: f64,
    pub bounce: f64,
    pub bounce_vel: f64,
    pub soft_erp: f64,
    pub soft_cfm: f64,
    pub motion1: f64,
    pub motion2: f64,
    pub motion_n: f64,
    pub slip1: f64,
    pub slip2: f64,
}

impl Surface {
    /// The values the solver reads under this `mode`, named as in
    /// `dSurfaceParameters` (`mu` always; the others when their mode bit
    /// is set), for the argument checks of the C and Rust APIs.
    pub fn values_in_use(&self) -> [(&'static str, f64, bool); 14] {
        let on = |bit: i32| self.mode & bit != 0;
        let rolling = on(mode::ROLLING);
        [
            ("mu", self.mu, true),
            ("mu2", self.mu2, on(mode::MU2)),
            ("rho", self.rho, rolling),
            ("rho2", self.rho2, rolling && on(mode::AXIS_DEP)),
            ("rhoN", self.rho_n, rolling),
            ("bounce", self.bounce, on(mode::BOUNCE)),
            ("bounce_vel", self.bounce_vel, on(mode::BOUNCE)),
            ("soft_erp", self.soft_erp, on(mode::SOFT_ERP)),
            ("soft_cfm", self.soft_cfm, on(mode::SOFT_CFM)),
            ("motion1", self.motion1, on(mode::MOTION1)),
            ("motion2", self.motion2, on(mode::MOTION2)),
            ("motionN", self.motion_n, on(mode::MOTION_N)),
            ("slip1", self.slip1, on(mode::SLIP1)),
            ("slip2", self.slip2, on(mode::SLIP2)),
        ]
    }

    /// The name of the first value in use that is NaN.
    pub fn first_nan_in_use(&self) -> Option<&'static str> {
        self.values_in_use().into_iter().find(|&(_, v, used)| used && v.is_nan()).map(|(name, _, _)| name)
    }
}

/// The contact point as collision detection reported it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPoint {
    pub pos: [f64; 3],
    /// Normal pointing into body 1 (as given; sign flipped for REVERSE).
    pub normal: [f64; 3],
    pub depth: f64,
    /// Host geoms and sides, kept as given.
    pub g1: *mut c_void,
    pub g2: *mut c_void,
    pub side1: i32,
    pub side2: i32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ContactJoint {
    pub surface: Surface,
    pub geom: ContactPoint,
    pub fdir1: [f64; 3],
    /// Row count of the last `info1`.
    the_m: usize,
}

impl ContactJoint {
    pub fn new(surface: Surface, geom: ContactPoint, fdir1: [f64; 3]) -> ContactJoint {
        ContactJoint { surface, geom, fdir1, the_m: 0 }
    }

    /// The normal row's speed before any bounce, and MOTION_N's speed:
    /// the depth beyond the world's surface layer corrected at ERP·fps (the
    /// contact's own ERP with SOFT_ERP, else `world_erp`) plus MOTION_N,
    /// capped at the world's maximum correcting velocity. Shared by
    /// `info2` and the fast QuickStep's direct lanes, so both give the
    /// same bits.
    #[inline(always)]
    pub fn correction_speed(&self, fps: f64, world_erp: f64, world: &crate::dynamics::world::World) -> (f64, f64) {
        let s = &self.surface;
        let erp = if s.mode & mode::SOFT_ERP != 0 { s.soft_erp } else { world_erp };
        let k = fps * erp;
        let mut depth = self.geom.depth - world.contactp.min_depth;
        if depth < 0.0 {
            depth = 0.0;
        }
        let motion_n = if s.mode & mode::MOTION_N != 0 { s.motion_n } else { 0.0 };
        let pushout = k * depth + motion_n;
        // The correction speed is capped; a bounce is not.
        let maxvel = world.contactp.max_vel;
        (if pushout > maxvel { maxvel } else { pushout }, motion_n)
    }

    /// The contact normal as the joint's first body sees it (reversed when
    /// the host attached the bodies the other way round).
    #[inline(always)]
    pub fn normal(&self, head: &JointHead) -> [f64; 3] {
        let n = &self.geom.normal;
        if head.flags & flags::REVERSE != 0 {
            [-n[0], -n[1], -n[2]]
        } else {
            *n
        }
    }
}

/// Counts one friction coefficient: clamps a negative value to 0 (stored,
/// as ODE does) and returns (rows, unbounded rows) for `n` rows when it is
/// positive (`zero_counts`: also when it is 0).
fn count(v: &mut f64, n: usize, zero_counts: bool) -> (usize, usize) {
    if *v < 0.0 {
        *v = 0.0;
        (0, 0)
    } else if *v > 0.0 || zero_counts {
        (n, if *v == f64::INFINITY { n } else { 0 })
    } else {
        (0, 0)
    }
}

impl JointModel for ContactJoint {
    const TYPE: std::ffi::c_int = crate::abi::common::dJointType::dJointTypeContact as std::ffi::c_int;

    fn info1(&mut self, _: &JointHead, _: Bodies<'_>) -> Info1 {
        let s = &mut self.surface;
        let (mut m, mut nub) = (1, 0);
        let mut add = |p: (usize, usize)| {
            m += p.0;
            nub += p.1;
        };
        let rolling = s.mode & mode::ROLLING != 0;
        if s.mode & mode::AXIS_DEP != 0 {
            add(count(&mut s.mu, 1, false));
            add(count(&mut s.mu2, 1, false));
            if rolling {
                add(count(&mut s.rho, 1, true));
                add(count(&mut s.rho2, 1, true));
                add(count(&mut s.rho_n, 1, true));
            }
        } else {
            add(count(&mut s.mu, 2, false));
            if rolling {
                add(count(&mut s.rho, 3, true));
            }
        }
        self.the_m = m;
        Info1 { m, nub }
    }

    // Inlined into the exact QuickStep's packing loop (solver::quick),
    // which calls it once per contact.
    #[inline(always)]
    fn info2(&mut self, head: &JointHead, b: Bodies<'_>, ctx: &RowCtx<'_>, rows: &mut [Row]) {
        let Some(b0) = b.b1 else { return };
        let (mut c, motion_n) = self.correction_speed(ctx.fps, ctx.erp, ctx.world);
        let s = &self.surface;
        let mode = s.mode;
        let apply_bounce = mode & mode::BOUNCE != 0 && s.bounce_vel >= 0.0;
        let g = &self.geom;
        let normal = self.normal(head);
        let mut outgoing = 0.0;
        let mut c2 = [0.0; 3];
        if let Some(b1) = b.b2 {
            c2 = [g.pos[0] - b1.pos[0], g.pos[1] - b1.pos[1], g.pos[2] - b1.pos[2]];
            rows[0].j2l = [-normal[0], -normal[1], -normal[2]];
            rows[0].j2a = cross3(&normal, &c2);
            if apply_bounce {
                outgoing = dot3(&rows[0].j2a, &b1.avel) - dot3(&normal, &b1.lvel);
            }
        }
        let c1 = [g.pos[0] - b0.pos[0], g.pos[1] - b0.pos[1], g.pos[2] - b0.pos[2]];
        rows[0].j1l = normal;
        rows[0].j1a = cross3(&c1, &normal);
        if apply_bounce {
            // Relative normal velocity (negative when approaching).
            outgoing += dot3(&rows[0].j1a, &b0.avel) + dot3(&normal, &b0.lvel);
            let negated_outgoing = motion_n - outgoing;
            if negated_outgoing > s.bounce_vel {
                let newc = s.bounce * negated_outgoing + motion_n;
                if newc > c {
                    c = newc;
                }
            }
        }
        rows[0].c = c;
        if mode & mode::SOFT_CFM != 0 {
            rows[0].cfm = s.soft_cfm;
        }
        rows[0].lo = 0.0;
        rows[0].hi = f64::INFINITY;

        if self.the_m <= 1 {
            return;
        }
        let (t1, t2) =
            if mode & mode::FDIR1 != 0 { (self.fdir1, cross3(&normal, &self.fdir1)) } else { plane_space(&normal) };
        let mut row = 1;
        let has_b1 = b.b2.is_some();
        let mu = s.mu;
        let mu2 = if mode & mode::MU2 != 0 { s.mu2 } else { mu };
        let friction = [
            (mu, t1, mode::MOTION1, s.motion1, mode::SLIP1, s.slip1, mode::APPROX1_1),
            (mu2, t2, mode::MOTION2, s.motion2, mode::SLIP2, s.slip2, mode::APPROX1_2),
        ];
        for (mu, t, motion_bit, motion, slip_bit, slip, approx_bit) in friction {
            if !(mu > 0.0) || row >= rows.len() {
                continue;
            }
            let r = &mut rows[row];
            r.j1l = t;
            r.j1a = cross3(&c1, &t);
            if has_b1 {
                r.j2l = [-t[0], -t[1], -t[2]];
                r.j2a = cross3(&t, &c2);
            }
            if mode & motion_bit != 0 {
                r.c = motion;
            }
            if mode & slip_bit != 0 {
                r.cfm = slip;
            }
            r.lo = -mu;
            r.hi = mu;
            if mode & approx_bit != 0 {
                r.findex = 0;
            }
            row += 1;
        }
        if mode & mode::ROLLING != 0 {
            let rho = if mode & mode::AXIS_DEP != 0 { [s.rho, s.rho2, s.rho_n] } else { [s.rho; 3] };
            let axes = [t1, t2, normal];
            let bits = [mode::APPROX1_1, mode::APPROX1_2, mode::APPROX1_N];
            for i in 0..3 {
                if !(rho[i] > 0.0) || row >= rows.len() {
                    continue;
                }
                let r = &mut rows[row];
                r.j1a = axes[i];
                if has_b1 {
                    r.j2a = [-axes[i][0], -axes[i][1], -axes[i][2]];
                }
                r.lo = -rho[i];
                r.hi = rho[i];
                if mode & bits[i] != 0 {
                    r.findex = 0;
                }
                row += 1;
            }
        }
    }

    fn max_rows(&self) -> usize {
        if self.surface.mode & mode::ROLLING != 0 {
            6
        } else {
            3
        }
    }
}
