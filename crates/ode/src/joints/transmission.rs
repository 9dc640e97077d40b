//! The transmission joint (`dJointCreateTransmission`): two wheels (gears
//! or sprockets), one per body, whose contact points must move equally
//! along the common tangent. One row, with the joint's own ERP and CFM.
//! Modes: parallel axes (gear pair; the contact point divides the anchor
//! baseline by the ratio), intersecting axes (bevel gears; contact on the
//! line where the wheel planes meet) and chain drive (sprockets of given
//! radii; the contact switches chain branch when the torque reverses).
//! With backlash the row is one-sided and absent inside the gap.
//!
//! The first step after the geometry changed (`update`) fixes each
//! wheel's reference frame, its radius and the ratio; from then on each
//! wheel's phase is tracked continuously over full turns.

use super::limit_motor::Param;
use super::{Bodies, Info1, JointHead, JointModel, Row, RowCtx};
use crate::dynamics::world::World;
use crate::math::mat3::mul0_331;
use crate::math::vec::{cross3, dot3, normalizable3, safe_normalize3};
use std::f64::consts::{FRAC_PI_2, PI};

pub const MODE_PARALLEL: i32 = 0;
pub const MODE_INTERSECTING: i32 = 1;
pub const MODE_CHAIN: i32 = 2;

fn sub(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn len(v: &[f64; 3]) -> f64 {
    dot3(v, v).sqrt()
}

#[derive(Clone, Debug, PartialEq)]
pub struct Transmission {
    pub mode: i32,
    pub cfm: f64,
    pub erp: f64,
    /// Wheel centres in their bodies' frames.
    pub anchors: [[f64; 3]; 2],
    /// Wheel axes in their bodies' frames.
    pub axes: [[f64; 3]; 2],
    pub radii: [f64; 2],
    pub backlash: f64,
    pub ratio: f64,
    /// The reference frames (and radii, ratio) must be re-derived.
    pub update: bool,
    /// Per wheel, rows: initial contact radius direction, axis × it, axis
    /// (body frame, ODE's padded 3x4 layout).
    pub reference: [[f64; 12]; 2],
    pub phase: [f64; 2],
    /// Contact points of the last step, world frame.
    pub contacts: [[f64; 3]; 2],
}

impl Transmission {
    pub fn new(world: &World) -> Transmission {
        Transmission {
            mode: MODE_PARALLEL,
            cfm: world.cfm,
            erp: world.erp,
            anchors: [[0.0; 3]; 2],
            axes: [[1.0, 0.0, 0.0]; 2],
            radii: [0.0; 2],
            backlash: 0.0,
            ratio: 1.0,
            update: true,
            reference: [[0.0; 12]; 2],
            phase: [0.0; 2],
            contacts: [[0.0; 3]; 2],
        }
    }

    /// Can wheel `i`'s axis be set to world direction `v`? ODE normalises
    /// it in the wheel body's frame (if attached) and asserts where that
    /// fails (see `hinge::axis_ok`).
    pub fn axis_acceptable(b: Bodies<'_>, i: usize, v: [f64; 3]) -> bool {
        match if i == 0 { b.b1 } else { b.b2 } {
            Some(body) => super::hinge::axis_ok(body.vector_from_world(v)),
            None => true,
        }
    }

    /// Sets wheel `i`'s axis from a world direction (accepted by
    /// `axis_acceptable`) if its body is attached.
    pub fn set_axis(&mut self, b: Bodies<'_>, i: usize, v: [f64; 3]) {
        if let Some(body) = if i == 0 { b.b1 } else { b.b2 } {
            let mut a = body.vector_from_world(v);
            safe_normalize3(&mut a);
            self.axes[i] = a;
        }
        self.update = true;
    }

    pub fn set_anchor(&mut self, b: Bodies<'_>, i: usize, p: [f64; 3]) {
        if let Some(body) = if i == 0 { b.b1 } else { b.b2 } {
            self.anchors[i] = body.pos_rel_point(p);
        }
        self.update = true;
    }

    pub fn axis(&self, b: Bodies<'_>, i: usize) -> Option<[f64; 3]> {
        let body = if i == 0 { b.b1 } else { b.b2 }?;
        Some(body.vector_to_world(self.axes[i]))
    }

    pub fn anchor(&self, b: Bodies<'_>, i: usize) -> Option<[f64; 3]> {
        let body = if i == 0 { b.b1 } else { b.b2 }?;
        Some(body.rel_point_pos(self.anchors[i]))
    }

    pub fn set_param(&mut self, p: Option<Param>, v: f64) {
        match p {
            Some(Param::Cfm) => self.cfm = v,
            Some(Param::Erp) => self.erp = v,
            _ => {}
        }
    }

    pub fn param(&self, p: Option<Param>) -> f64 {
        match p {
            Some(Param::Cfm) => self.cfm,
            Some(Param::Erp) => self.erp,
            _ => 0.0,
        }
    }

    /// Why the current geometry cannot be meshed (ODE asserts there), if
    /// so: parallel axes in intersecting mode, coincident sprocket centres
    /// in chain mode, or a zero contact radius.
    fn degenerate(&self, a: &[[f64; 3]; 2], n: &[[f64; 3]; 2]) -> bool {
        match self.mode {
            MODE_INTERSECTING => {
                let nn = dot3(&n[0], &n[1]);
                nn.abs() == 1.0 || cross3(&n[0], &n[1]) == [0.0; 3]
            }
            MODE_CHAIN => len(&sub(&a[0], &a[1])) <= 0.0,
            _ => len(&sub(&a[1], &a[0])) <= 0.0,
        }
    }
}

impl JointModel for Transmission {
    const TYPE: std::ffi::c_int = crate::abi::common::dJointType::dJointTypeTransmission as std::ffi::c_int;

    /// The wheels' centres and axes stay in their bodies' frames across
    /// `dJointAttach`: a huge one overflows in the new bodies' world frame
    /// (a rotation of (−1.8e308, −1.8e308, 0) is infinite), as in ODE.
    fn relative_values_sane(&self) -> bool {
        super::points_sane(&[&self.anchors[0], &self.anchors[1], &self.axes[0], &self.axes[1]])
    }

    fn info1(&mut self, _: &JointHead, _: Bodies<'_>) -> Info1 {
        // With backlash the driving wheel can only push one way.
        Info1 { m: 1, nub: if self.backlash > 0.0 { 0 } else { 1 } }
    }

    fn info2(&mut self, _: &JointHead, b: Bodies<'_>, ctx: &RowCtx<'_>, rows: &mut [Row]) {
        let (Some(b0), Some(b1)) = (b.b1, b.b2) else { return };
        let bodies = [b0, b1];
        let a: [[f64; 3]; 2] = std::array::from_fn(|i| bodies[i].rel_point_pos(self.anchors[i]));
        let mut n: [[f64; 3]; 2] = std::array::from_fn(|i| bodies[i].vector_to_world(self.axes[i]));
        let row = &mut rows[0];
        row.cfm = self.cfm;

        if self.update && dot3(&n[0], &n[1]) < 0.0 {
            // Give both wheel frames the same handedness.
            self.axes[0] = [-self.axes[0][0], -self.axes[0][1], -self.axes[0][2]];
            n[0] = [-n[0][0], -n[0][1], -n[0][2]];
        }
        if self.degenerate(&a, &n) {
            crate::error::bad_input(
                "dWorldStep",
                format_args!("transmission joint geometry is degenerate (row left inactive)"),
            );
            return;
        }

        let mut c = [[0.0; 3]; 2];
        let mut l = [[0.0; 3]; 2];
        match self.mode {
            MODE_INTERSECTING => {
                // Origin O of the line where the wheel planes meet.
                l[0] = cross3(&n[0], &n[1]);
                l[1] = l[0];
                let nn = dot3(&n[0], &n[1]);
                let na0 = dot3(&n[0], &a[0]);
                let na1 = dot3(&n[1], &a[1]);
                let s0 = (na0 - na1 * nn) / (1.0 - nn * nn);
                let s1 = (na1 - na0 * nn) / (1.0 - nn * nn);
                let o: [f64; 3] = std::array::from_fn(|k| s0 * n[0][k] + s1 * n[1][k]);
                for i in 0..2 {
                    let d = sub(&a[i], &o);
                    let m = dot3(&d, &l[i]);
                    c[i] = std::array::from_fn(|k| o[k] + m * l[i][k]);
                }
            }
            MODE_CHAIN => {
                let mut d = sub(&a[0], &a[1]);
                let m = len(&d);
                let cosphi = ((self.radii[1] - self.radii[0]) / m).clamp(-1.0, 1.0);
                let sinphi = (1.0 - cosphi * cosphi).sqrt();
                safe_normalize3(&mut d);
                for i in 0..2 {
                    // Contact radius in the chain frame (x along the
                    // baseline, y along the axis), then in the world.
                    let u = [self.radii[i] * cosphi, 0.0, self.radii[i] * sinphi];
                    let z = cross3(&d, &n[i]);
                    let v = [dot3(&d, &u), dot3(&n[i], &u), dot3(&z, &u)];
                    c[i] = [a[i][0] + v[0], a[i][1] + v[1], a[i][2] + v[2]];
                    l[i] = cross3(&v, &n[i]);
                    if !normalizable3(&l[i]) {
                        // A zero contact radius (ODE's default) or one too
                        // small to give a direction: ODE asserts in its
                        // normalisation; without the check the ratio
                        // became 0/0.
                        crate::error::bad_input(
                            "dWorldStep",
                            format_args!("transmission joint geometry is degenerate: wheel {} has no contact radius (row left inactive)", i + 1),
                        );
                        return;
                    }
                    safe_normalize3(&mut l[i]);
                }
            }
            _ => {
                let mut d = sub(&a[1], &a[0]);
                let s = self.ratio / (1.0 + self.ratio);
                c[0] = std::array::from_fn(|k| a[0][k] + s * d[k]);
                c[1] = c[0];
                safe_normalize3(&mut d);
                for i in 0..2 {
                    l[i] = cross3(&d, &n[i]);
                }
            }
        }

        if self.update {
            // ODE asserts that both contact radii are positive (a contact
            // point on its wheel's axis gives a zero radius, and the ratio
            // 0/0 or r/0). A ratio that overflows would make the next step
            // of a parallel-axes pair compute its contact point as NaN.
            let radii: [f64; 2] = std::array::from_fn(|i| len(&sub(&c[i], &a[i])));
            let ratio = radii[0] / radii[1];
            if let Some(i) = (0..2).find(|&i| !(radii[i] > 0.0)) {
                crate::error::bad_input(
                    "dWorldStep",
                    format_args!("transmission joint geometry is degenerate: wheel {}'s contact point lies on its axis (zero radius; row left inactive)", i + 1),
                );
                return;
            }
            if !ratio.is_finite() {
                crate::error::bad_input(
                    "dWorldStep",
                    format_args!("transmission joint geometry is degenerate: the wheel radii {} and {} give a ratio beyond the double range (row left inactive)", radii[0], radii[1]),
                );
                return;
            }
            for i in 0..2 {
                let r = sub(&c[i], &a[i]);
                self.radii[i] = radii[i];
                let mut x = bodies[i].vector_from_world(r);
                safe_normalize3(&mut x);
                let z = self.axes[i];
                let y = cross3(&z, &x);
                let m = &mut self.reference[i];
                m[0..3].copy_from_slice(&x);
                m[4..7].copy_from_slice(&y);
                m[8..11].copy_from_slice(&z);
                self.phase[i] = 0.0;
            }
            self.ratio = ratio;
            self.update = false;
        }

        let mut r = [[0.0; 3]; 2];
        for i in 0..2 {
            r[i] = sub(&c[i], &a[i]);
            // Angle of the contact radius in the wheel's initial frame,
            // unwrapped to the turn nearest the phase predicted from ω.
            let s = bodies[i].vector_from_world(r[i]);
            let t = mul0_331(&self.reference[i], &s);
            let mut theta = t[1].atan2(t[0]);
            let phase_hat = self.phase[i] + dot3(&bodies[i].avel, &n[i]) / ctx.fps;
            if phase_hat > FRAC_PI_2 {
                if theta < 0.0 {
                    theta += 2.0 * PI;
                }
                theta += (phase_hat / (2.0 * PI)).floor() * (2.0 * PI);
            } else if phase_hat < -FRAC_PI_2 {
                if theta > 0.0 {
                    theta -= 2.0 * PI;
                }
                theta += (phase_hat / (2.0 * PI)).ceil() * (2.0 * PI);
            }
            self.phase[i] = if phase_hat - theta > PI {
                theta + 2.0 * PI
            } else if phase_hat - theta < -PI {
                theta - 2.0 * PI
            } else {
                theta
            };
        }

        // Distances travelled by the contact points: equal for a chain,
        // opposite for gears.
        let delta = if self.mode == MODE_CHAIN {
            len(&r[0]) * self.phase[0] - len(&r[1]) * self.phase[1]
        } else {
            len(&r[0]) * self.phase[0] + len(&r[1]) * self.phase[1]
        };

        if self.mode == MODE_CHAIN && delta < 0.0 {
            // Torque reversal: the other chain branch carries the load;
            // reflect contacts and tangents across the baseline.
            let d = sub(&a[0], &a[1]);
            for i in 0..2 {
                let nn = cross3(&n[i], &d);
                let aa = dot3(&nn, &nn);
                let sc = -2.0 * dot3(&c[i], &nn) / aa;
                c[i] = std::array::from_fn(|k| c[i][k] + sc * nn[k]);
                let sl = 2.0 * dot3(&l[i], &nn) / aa;
                l[i] = std::array::from_fn(|k| -l[i][k] + sl * nn[k]);
            }
        }

        if self.backlash == 0.0 || delta.abs() > self.backlash {
            let p = [&b0.pos, &b1.pos];
            for i in 0..2 {
                r[i] = [c[i][0] - p[i][0], c[i][1] - p[i][1], c[i][2] - p[i][2]];
            }
            row.j1l = l[0];
            row.j1a = cross3(&r[0], &l[0]);
            row.j2l = [-l[1][0], -l[1][1], -l[1][2]];
            row.j2a = cross3(&l[1], &r[1]);
            let k = -ctx.fps * self.erp;
            if delta > 0.0 {
                if self.backlash > 0.0 {
                    row.lo = f64::NEG_INFINITY;
                    row.hi = 0.0;
                }
                row.c = k * (delta - self.backlash);
            } else {
                if self.backlash > 0.0 {
                    row.lo = 0.0;
                    row.hi = f64::INFINITY;
                }
                row.c = k * (delta + self.backlash);
            }
        }
        self.contacts = c;
    }

    fn max_rows(&self) -> usize {
        1
    }
}
