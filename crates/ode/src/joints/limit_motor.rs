//! Limits and motors shared by the joints with a free axis (hinge, slider):
//! ODE's `dxJointLimitMotor`. It owns the `dParam*` numbering, the stop
//! state measured in `info1` and the extra constraint row it adds in
//! `info2` (motor, stop with ERP/CFM and bounce, or both).
//!
//! A motor pushing against an active stop cannot be expressed as a row, so
//! ODE adds its force straight to the bodies' accumulators while filling
//! the rows. Joint types record that as a `BodyPush` during `info2`; the
//! row assembler applies it with `JointKind::apply_body_push` right after
//! the joint's `info2` (before any accumulator is read), which gives the
//! same sums as ODE's in-place addition.

use super::{Bodies, JointHead, JointKind, Row};
use crate::dynamics::world::World;
use crate::math::vec::{cross3, dot3};
use std::ffi::c_int;

/// Joint parameters in one axis group (ODE's `dParam*` enumeration).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    LoStop = 0,
    HiStop = 1,
    Vel = 2,
    LoVel = 3,
    HiVel = 4,
    FMax = 5,
    FudgeFactor = 6,
    Bounce = 7,
    Cfm = 8,
    StopErp = 9,
    StopCfm = 10,
    SuspensionErp = 11,
    SuspensionCfm = 12,
    Erp = 13,
}

/// Distance between axis groups: `dParamLoStop2 == GROUP + dParamLoStop`.
pub const GROUP: c_int = 0x100;

impl Param {
    const ALL: [Param; 14] = [
        Param::LoStop,
        Param::HiStop,
        Param::Vel,
        Param::LoVel,
        Param::HiVel,
        Param::FMax,
        Param::FudgeFactor,
        Param::Bounce,
        Param::Cfm,
        Param::StopErp,
        Param::StopCfm,
        Param::SuspensionErp,
        Param::SuspensionCfm,
        Param::Erp,
    ];

    /// The parameter a number of the first group names (what single-axis
    /// joints accept); other numbers give `None`.
    pub fn from_code(code: c_int) -> Option<Param> {
        usize::try_from(code).ok().and_then(|i| Param::ALL.get(i).copied())
    }

    /// Axis index (0 for group 1, 1 for group 2, 2 for group 3) and
    /// parameter of a number of any group.
    #[inline]
    pub fn decode(code: c_int) -> Option<(usize, Param)> {
        if !(0..3 * GROUP).contains(&code) {
            return None;
        }
        Some(((code / GROUP) as usize, Param::from_code(code % GROUP)?))
    }
}

/// Which stop the joint is at (ODE's `limit` 0/1/2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Limit {
    #[default]
    Free,
    Low,
    High,
}

/// Forces and torques a joint adds directly to its bodies' accumulators
/// (index 0 is `head.body[0]`). `None` means nothing is added there.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BodyPush {
    pub force: [Option<[f64; 3]>; 2],
    pub torque: [Option<[f64; 3]>; 2],
}

impl BodyPush {
    pub fn is_empty(&self) -> bool {
        self.force.iter().chain(self.torque.iter()).all(Option::is_none)
    }

    /// Adds the recorded vectors to the bodies of `head` (torque before
    /// force on each body; the two accumulators are independent).
    pub fn apply(&self, head: &JointHead) {
        for i in 0..2 {
            if let Some(b) = head.body[i] {
                let b = b.get_mut();
                if let Some(t) = self.torque[i] {
                    b.add_torque(t);
                }
                if let Some(f) = self.force[i] {
                    b.add_force(f);
                }
            }
        }
    }

    /// `apply`, unless it would make a finite accumulator of either body
    /// infinite or NaN (a huge force times a lever arm, or a sum beyond
    /// the double range): then nothing is added and false is returned.
    /// ODE adds such values, and its next step turns the bodies NaN.
    pub fn apply_checked(&self, head: &JointHead) -> bool {
        let finite = |v: &[f64; 4]| v[..3].iter().all(|x| x.is_finite());
        let mut sums = [None; 2];
        for i in 0..2 {
            if let Some(b) = head.body[i] {
                // The same additions as `apply` (Body::add_torque,
                // add_force), on copies.
                let (f0, t0) = (b.get().facc, b.get().tacc);
                let (mut f, mut t) = (f0, t0);
                if let Some(v) = self.torque[i] {
                    (0..3).for_each(|k| t[k] += v[k]);
                }
                if let Some(v) = self.force[i] {
                    (0..3).for_each(|k| f[k] += v[k]);
                }
                if !(finite(&f) && finite(&t)) && finite(&f0) && finite(&t0) {
                    return false;
                }
                sums[i] = Some((f, t));
            }
        }
        for i in 0..2 {
            if let (Some(b), Some((f, t))) = (head.body[i], sums[i]) {
                let b = b.get_mut();
                b.facc = f;
                b.tacc = t;
            }
        }
        true
    }
}

impl JointKind {
    /// Applies and clears what the last `info2` recorded for the bodies
    /// (a powered joint held at a stop). Call after `info2` once no borrow
    /// of the joint's bodies is alive.
    pub fn apply_body_push(&mut self, head: &JointHead) {
        let push = match self {
            JointKind::Hinge(h) => std::mem::take(&mut h.push),
            JointKind::Slider(s) => std::mem::take(&mut s.push),
            // Joints with several limit/motor rows: in row order.
            JointKind::Universal(j) => return apply_all(&mut j.push, head),
            JointKind::Hinge2(j) => return apply_all(&mut j.push, head),
            JointKind::Pr(j) => return apply_all(&mut j.push, head),
            JointKind::Pu(j) => return apply_all(&mut j.push, head),
            JointKind::Piston(j) => return apply_all(&mut j.push, head),
            JointKind::AMotor(m) => return m.apply_pushes(head),
            JointKind::LMotor(m) => return m.apply_pushes(head),
            JointKind::Plane2D(m) => return m.apply_pushes(head),
            _ => return,
        };
        push.apply(head);
    }
}

fn apply_all(pushes: &mut [BodyPush], head: &JointHead) {
    for p in pushes.iter_mut() {
        std::mem::take(p).apply(head);
    }
}

/// One limited and/or powered axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LimitMotor {
    /// Motor target velocity.
    pub vel: f64,
    /// Motor force limit; 0 disables the motor.
    pub fmax: f64,
    pub lostop: f64,
    pub histop: f64,
    pub fudge_factor: f64,
    /// CFM of the motor row.
    pub normal_cfm: f64,
    pub stop_erp: f64,
    pub stop_cfm: f64,
    pub bounce: f64,
    /// Stop state, as last measured by the joint's `info1`.
    pub limit: Limit,
    /// Position minus the stop that is hit.
    pub limit_err: f64,
}

impl LimitMotor {
    /// ODE's defaults: no motor, no stops, CFM and stop ERP/CFM from the
    /// world at the time the joint is created.
    pub fn new(world: &World) -> LimitMotor {
        LimitMotor {
            vel: 0.0,
            fmax: 0.0,
            lostop: f64::NEG_INFINITY,
            histop: f64::INFINITY,
            fudge_factor: 1.0,
            normal_cfm: world.cfm,
            stop_erp: world.erp,
            stop_cfm: world.cfm,
            bounce: 0.0,
            limit: Limit::Free,
            limit_err: 0.0,
        }
    }

    /// Stores a parameter as ODE does: a negative FMax and a fudge factor
    /// outside [0, 1] are ignored, as are the parameters this joint part
    /// does not have (LoVel, HiVel, suspension, ERP).
    #[inline]
    pub fn set(&mut self, p: Param, v: f64) {
        match p {
            Param::LoStop => self.lostop = v,
            Param::HiStop => self.histop = v,
            Param::Vel => self.vel = v,
            Param::FMax => {
                if v >= 0.0 {
                    self.fmax = v
                }
            }
            Param::FudgeFactor => {
                if (0.0..=1.0).contains(&v) {
                    self.fudge_factor = v
                }
            }
            Param::Bounce => self.bounce = v,
            Param::Cfm => self.normal_cfm = v,
            Param::StopErp => self.stop_erp = v,
            Param::StopCfm => self.stop_cfm = v,
            Param::LoVel | Param::HiVel | Param::SuspensionErp | Param::SuspensionCfm | Param::Erp => {}
        }
    }

    /// Reads a parameter; those this joint part does not have read 0.
    pub fn get(&self, p: Param) -> f64 {
        match p {
            Param::LoStop => self.lostop,
            Param::HiStop => self.histop,
            Param::Vel => self.vel,
            Param::FMax => self.fmax,
            Param::FudgeFactor => self.fudge_factor,
            Param::Bounce => self.bounce,
            Param::Cfm => self.normal_cfm,
            Param::StopErp => self.stop_erp,
            Param::StopCfm => self.stop_cfm,
            Param::LoVel | Param::HiVel | Param::SuspensionErp | Param::SuspensionCfm | Param::Erp => 0.0,
        }
    }

    /// Updates the stop state for a position (angle or distance); a stop
    /// is hit when the position reaches it exactly.
    pub fn test_limit(&mut self, pos: f64) -> bool {
        if pos <= self.lostop {
            self.limit = Limit::Low;
            self.limit_err = pos - self.lostop;
            true
        } else if pos >= self.histop {
            self.limit = Limit::High;
            self.limit_err = pos - self.histop;
            true
        } else {
            self.limit = Limit::Free;
            false
        }
    }

    /// Does the axis need its extra row (powered, or at a stop)?
    pub fn needs_row(&self) -> bool {
        self.fmax > 0.0 || self.limit != Limit::Free
    }

    /// Fills the extra row for axis `ax1` (world frame, unit length, as seen
    /// from body 1) when `needs_row`, and returns what must be added to the
    /// bodies directly. `rotational` selects the angular Jacobian; a linear
    /// axis between two bodies is applied halfway between their centres so
    /// that it creates no torque couple.
    pub fn fill_row(&self, b: Bodies<'_>, fps: f64, row: &mut Row, ax1: &[f64; 3], rotational: bool) -> BodyPush {
        let mut push = BodyPush::default();
        let mut powered = self.fmax > 0.0;
        if !(powered || self.limit != Limit::Free) {
            return push;
        }
        let Some(b0) = b.b1 else { return push };
        let neg = [-ax1[0], -ax1[1], -ax1[2]];
        if rotational {
            row.j1a = *ax1;
            if b.b2.is_some() {
                row.j2a = neg;
            }
        } else {
            row.j1l = *ax1;
            if b.b2.is_some() {
                row.j2l = neg;
            }
        }
        let mut ltd = [0.0; 3];
        if !rotational {
            if let Some(b1) = b.b2 {
                let c = [0.5 * (b1.pos[0] - b0.pos[0]), 0.5 * (b1.pos[1] - b0.pos[1]), 0.5 * (b1.pos[2] - b0.pos[2])];
                ltd = cross3(&c, ax1);
                row.j1a = ltd;
                row.j2a = ltd;
            }
        }

        // Both stops at once: the motor cannot move the axis.
        if self.limit != Limit::Free && self.lostop == self.histop {
            powered = false;
        }

        if powered {
            row.cfm = self.normal_cfm;
            if self.limit == Limit::Free {
                row.c = self.vel;
                row.lo = -self.fmax;
                row.hi = self.fmax;
            } else {
                // Powered at a stop: the motor force is applied directly,
                // full strength into the stop, scaled by the fudge factor
                // when driving away from it.
                let mut fm = self.fmax;
                if self.vel > 0.0 || (self.vel == 0.0 && self.limit == Limit::High) {
                    fm = -fm;
                }
                if (self.limit == Limit::Low && self.vel > 0.0) || (self.limit == Limit::High && self.vel < 0.0) {
                    fm *= self.fudge_factor;
                }
                let f = [fm * ax1[0], fm * ax1[1], fm * ax1[2]];
                let nf = [-f[0], -f[1], -f[2]];
                if rotational {
                    if b.b2.is_some() {
                        push.torque[1] = Some(f);
                    }
                    push.torque[0] = Some(nf);
                } else {
                    if b.b2.is_some() {
                        let t = [-fm * ltd[0], -fm * ltd[1], -fm * ltd[2]];
                        push.torque[0] = Some(t);
                        push.torque[1] = Some(t);
                        push.force[1] = Some(f);
                    }
                    push.force[0] = Some(nf);
                }
            }
        }

        if self.limit != Limit::Free {
            let k = fps * self.stop_erp;
            row.c = -k * self.limit_err;
            row.cfm = self.stop_cfm;
            if self.lostop == self.histop {
                row.lo = f64::NEG_INFINITY;
                row.hi = f64::INFINITY;
            } else {
                if self.limit == Limit::Low {
                    row.lo = 0.0;
                    row.hi = f64::INFINITY;
                } else {
                    row.lo = f64::NEG_INFINITY;
                    row.hi = 0.0;
                }
                if self.bounce > 0.0 {
                    // Relative velocity along the axis; bounce only when
                    // moving into the stop, and only if it asks for more
                    // than the position correction.
                    let (v0, v1) = if rotational {
                        (&b0.avel, b.b2.map(|b1| &b1.avel))
                    } else {
                        (&b0.lvel, b.b2.map(|b1| &b1.lvel))
                    };
                    let mut vel = dot3(v0, ax1);
                    if let Some(v1) = v1 {
                        vel -= dot3(v1, ax1);
                    }
                    if self.limit == Limit::Low {
                        if vel < 0.0 {
                            let newc = -self.bounce * vel;
                            if newc > row.c {
                                row.c = newc;
                            }
                        }
                    } else if vel > 0.0 {
                        let newc = -self.bounce * vel;
                        if newc < row.c {
                            row.c = newc;
                        }
                    }
                }
            }
        }
        push
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::common as c;

    #[test]
    fn parameter_numbers_match_odes() {
        assert_eq!(Param::from_code(c::dParamLoStop), Some(Param::LoStop));
        assert_eq!(Param::from_code(c::dParamERP), Some(Param::Erp));
        assert_eq!(Param::from_code(c::dParamsInGroup), None);
        assert_eq!(Param::from_code(c::dParamFMax2), None);
        assert_eq!(Param::decode(c::dParamFMax2), Some((1, Param::FMax)));
        assert_eq!(Param::decode(c::dParamStopCFM3), Some((2, Param::StopCfm)));
        assert_eq!(Param::decode(c::dParamBounce1), Some((0, Param::Bounce)));
        assert_eq!(Param::decode(0x300), None);
        assert_eq!(Param::decode(-1), None);
        assert_eq!(Param::decode(0x10e), None);
        for (i, p) in Param::ALL.iter().enumerate() {
            assert_eq!(*p as usize, i);
        }
        assert_eq!(c::dParamGroup2, GROUP);
    }

    #[test]
    fn set_get_rules() {
        let mut w = World::new();
        w.erp = 0.3;
        w.cfm = 1e-7;
        let mut l = LimitMotor::new(&w);
        assert_eq!((l.stop_erp, l.stop_cfm, l.normal_cfm), (0.3, 1e-7, 1e-7));
        l.set(Param::FMax, -1.0);
        assert_eq!(l.get(Param::FMax), 0.0);
        l.set(Param::FMax, 2.0);
        assert_eq!(l.get(Param::FMax), 2.0);
        l.set(Param::FudgeFactor, 1.5);
        l.set(Param::FudgeFactor, -0.1);
        assert_eq!(l.get(Param::FudgeFactor), 1.0);
        l.set(Param::FudgeFactor, 0.25);
        assert_eq!(l.get(Param::FudgeFactor), 0.25);
        l.set(Param::LoVel, 3.0);
        l.set(Param::Erp, 3.0);
        assert_eq!((l.get(Param::LoVel), l.get(Param::Erp), l.get(Param::Vel)), (0.0, 0.0, 0.0));
    }

    #[test]
    fn stops_engage_exactly_at_the_stop() {
        let mut l = LimitMotor::new(&World::new());
        l.lostop = -0.5;
        l.histop = 0.75;
        assert!(!l.test_limit(-0.5 + 1e-12));
        assert_eq!(l.limit, Limit::Free);
        assert!(l.test_limit(-0.5));
        assert_eq!((l.limit, l.limit_err), (Limit::Low, 0.0));
        assert!(l.test_limit(0.8));
        assert_eq!(l.limit, Limit::High);
        assert!((l.limit_err - 0.05).abs() < 1e-15);
        assert!(!l.test_limit(0.0));
    }
}
