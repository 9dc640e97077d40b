//! Mass properties (mass.h): total mass, centre of mass and the 3×3 inertia
//! tensor about the body's point of reference, laid out exactly like ODE's
//! `dMass` so that C code can hand us its struct directly.
//!
//! Formulas and their evaluation order follow ODE's mass.cpp so results are
//! bit-identical. ODE's own consistency check (`check`) never rejects
//! anything: it reports problems on the message channel, as ODE does.

use super::mat3::{cross_matrix, mul0_333, mul2_333};
use super::matrix::is_positive_definite;
use std::f64::consts::PI;

/// ODE's `dMass`: `I` is a padded 3×3 matrix (row stride 4), `c[3]` and the
/// padding entries of `I` are unused.
#[repr(C)]
#[allow(non_snake_case)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Mass {
    /// Total mass.
    pub mass: f64,
    /// Centre of mass in the body frame (padded to 4).
    pub c: [f64; 4],
    /// Inertia tensor about the centre of mass, 3x4 row-major padded.
    pub I: [f64; 12],
}

/// Axis of a capsule or cylinder (ODE's direction codes 1, 2, 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    X = 1,
    Y = 2,
    Z = 3,
}

impl Axis {
    /// ODE's direction code (1 = x, 2 = y, 3 = z).
    pub fn from_code(code: i32) -> Option<Axis> {
        match code {
            1 => Some(Axis::X),
            2 => Some(Axis::Y),
            3 => Some(Axis::Z),
            _ => None,
        }
    }

    fn index(self) -> usize {
        self as usize - 1
    }
}

/// Why `Mass::check` failed (ODE's messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MassProblem {
    /// The mass is not positive.
    NotPositive,
    /// The inertia tensor is not positive definite.
    InertiaNotPositiveDefinite,
    /// The centre of mass does not fit the inertia.
    CentreInconsistent,
}

impl MassProblem {
    /// What is wrong, in words.
    pub fn message(self) -> &'static str {
        match self {
            MassProblem::NotPositive => "mass must be > 0",
            MassProblem::InertiaNotPositiveDefinite => "inertia must be positive definite",
            MassProblem::CentreInconsistent => "center of mass inconsistent with mass parameters",
        }
    }
}

/// Where the problem is reported (the message channel, like ODE's dMassCheck).
fn report(p: MassProblem) {
    crate::error::message(crate::error::D_ERR_UASSERT, &format!("{} in dMassCheck()", p.message()));
}

impl Mass {
    /// No mass, no inertia.
    pub const ZERO: Mass = Mass { mass: 0.0, c: [0.0; 4], I: [0.0; 12] };

    /// [`Mass::ZERO`] (`dMassSetZero`).
    pub fn zero() -> Mass {
        Mass::ZERO
    }

    /// ODE's consistency rules: positive mass, positive definite inertia, and
    /// an inertia about the centre of mass that is positive definite too.
    pub fn validate(&self) -> Result<(), MassProblem> {
        if self.mass <= 0.0 {
            return Err(MassProblem::NotPositive);
        }
        if !is_positive_definite(&self.I, 3) {
            return Err(MassProblem::InertiaNotPositiveDefinite);
        }
        let chat = cross_matrix(&self.c);
        let mut i2 = mul0_333(&chat, &chat);
        for row in 0..3 {
            for col in 0..3 {
                let k = row * 4 + col;
                i2[k] = self.I[k] + self.mass * i2[k];
            }
        }
        if !is_positive_definite(&i2, 3) {
            return Err(MassProblem::CentreInconsistent);
        }
        Ok(())
    }

    /// `validate`, reporting a failure on the message channel (dMassCheck).
    pub fn check(&self) -> bool {
        match self.validate() {
            Ok(()) => true,
            Err(p) => {
                report(p);
                false
            }
        }
    }

    /// Resets to [`Mass::ZERO`].
    pub fn set_zero(&mut self) {
        *self = Mass::ZERO;
    }

    /// Mass, centre of mass and the six independent inertia entries.
    #[allow(clippy::too_many_arguments)]
    pub fn set_parameters(
        &mut self,
        mass: f64,
        c: [f64; 3],
        i11: f64,
        i22: f64,
        i33: f64,
        i12: f64,
        i13: f64,
        i23: f64,
    ) {
        *self = Mass::ZERO;
        self.mass = mass;
        self.c[..3].copy_from_slice(&c);
        self.I[0] = i11;
        self.I[5] = i22;
        self.I[10] = i33;
        self.I[1] = i12;
        self.I[2] = i13;
        self.I[6] = i23;
        self.I[4] = i12;
        self.I[8] = i13;
        self.I[9] = i23;
        self.check();
    }

    fn set_diagonal(&mut self, mass: f64, diag: [f64; 3]) {
        *self = Mass::ZERO;
        self.mass = mass;
        self.I[0] = diag[0];
        self.I[5] = diag[1];
        self.I[10] = diag[2];
    }

    /// A solid sphere of the given density (`dMassSetSphere`).
    pub fn set_sphere(&mut self, density: f64, radius: f64) {
        self.set_sphere_total((4.0 / 3.0) * PI * radius * radius * radius * density, radius);
    }

    /// A solid sphere of the given total mass.
    pub fn set_sphere_total(&mut self, total: f64, radius: f64) {
        let ii = 0.4 * total * radius * radius;
        self.set_diagonal(total, [ii; 3]);
        self.check();
    }

    /// Capsule (cylinder of length `length` plus two hemispherical caps) along `axis`.
    pub fn set_capsule(&mut self, density: f64, axis: Axis, radius: f64, length: f64) {
        let m1 = PI * radius * radius * length * density;
        let m2 = (4.0 / 3.0) * PI * radius * radius * radius * density;
        let ia = m1 * (0.25 * radius * radius + (1.0 / 12.0) * length * length)
            + m2 * (0.4 * radius * radius + 0.375 * radius * length + 0.25 * length * length);
        let ib = (m1 * 0.5 + m2 * 0.4) * radius * radius;
        let mut diag = [ia; 3];
        diag[axis.index()] = ib;
        self.set_diagonal(m1 + m2, diag);
        self.check();
    }

    /// A capsule of the given total mass along `axis`.
    pub fn set_capsule_total(&mut self, total: f64, axis: Axis, radius: f64, length: f64) {
        self.set_capsule(1.0, axis, radius, length);
        self.adjust(total);
    }

    /// A solid cylinder of the given density along `axis`.
    pub fn set_cylinder(&mut self, density: f64, axis: Axis, radius: f64, length: f64) {
        self.set_cylinder_total(PI * radius * radius * length * density, axis, radius, length);
    }

    /// A solid cylinder of the given total mass along `axis`.
    pub fn set_cylinder_total(&mut self, total: f64, axis: Axis, radius: f64, length: f64) {
        let r2 = radius * radius;
        let i = total * (0.25 * r2 + (1.0 / 12.0) * length * length);
        let mut diag = [i; 3];
        diag[axis.index()] = total * 0.5 * r2;
        self.set_diagonal(total, diag);
        self.check();
    }

    /// A solid box of the given density and side lengths.
    pub fn set_box(&mut self, density: f64, lx: f64, ly: f64, lz: f64) {
        self.set_box_total(lx * ly * lz * density, lx, ly, lz);
    }

    /// A solid box of the given total mass and side lengths.
    pub fn set_box_total(&mut self, total: f64, lx: f64, ly: f64, lz: f64) {
        let k = total / 12.0;
        self.set_diagonal(total, [k * (ly * ly + lz * lz), k * (lx * lx + lz * lz), k * (lx * lx + ly * ly)]);
        self.check();
    }

    /// Rescales to a new total mass (inertia scaled in proportion).
    pub fn adjust(&mut self, new_mass: f64) {
        let scale = new_mass / self.mass;
        self.mass = new_mass;
        for i in 0..3 {
            for j in 0..3 {
                self.I[i * 4 + j] *= scale;
            }
        }
        self.check();
    }

    /// Moves the body by `t` relative to its point of reference (parallel
    /// axis theorem: I += m*(ĉ² - (c+t)^²)).
    pub fn translate(&mut self, t: [f64; 3]) {
        let chat = cross_matrix(&self.c);
        let a = [t[0] + self.c[0], t[1] + self.c[1], t[2] + self.c[2]];
        let ahat = cross_matrix(&a);
        let t1 = mul0_333(&ahat, &ahat);
        let t2 = mul0_333(&chat, &chat);
        for i in 0..3 {
            for j in 0..3 {
                let k = i * 4 + j;
                self.I[k] += self.mass * (t2[k] - t1[k]);
            }
        }
        self.symmetrize();
        for (c, d) in self.c.iter_mut().zip(t) {
            *c += d;
        }
        self.check();
    }

    /// Rotates the body by `r` (padded 3×3) about its point of reference:
    /// I = R*I*R', c = R*c.
    pub fn rotate(&mut self, r: &[f64; 12]) {
        let t1 = mul2_333(&self.I, r);
        let ri = mul0_333(r, &t1);
        for i in 0..3 {
            for j in 0..3 {
                self.I[i * 4 + j] = ri[i * 4 + j];
            }
        }
        self.symmetrize();
        let c = self.c;
        for i in 0..3 {
            self.c[i] = r[i * 4] * c[0] + r[i * 4 + 1] * c[1] + r[i * 4 + 2] * c[2];
        }
        self.check();
    }

    /// Adds `b` to `self` (combined centre of mass, summed inertia). Like
    /// ODE, all twelve inertia entries (padding too) are added, no check.
    pub fn add(&mut self, b: &Mass) {
        let denom = 1.0 / (self.mass + b.mass);
        for i in 0..3 {
            self.c[i] = (self.c[i] * self.mass + b.c[i] * b.mass) * denom;
        }
        self.mass += b.mass;
        for (x, y) in self.I.iter_mut().zip(&b.I) {
            *x += y;
        }
    }

    fn symmetrize(&mut self) {
        self.I[4] = self.I[1];
        self.I[8] = self.I[2];
        self.I[9] = self.I[6];
    }
}
