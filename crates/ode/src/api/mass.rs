//! [`Mass`] constructors and operations with glam types. `Mass` is ODE's
//! `dMass` itself (the same struct the C layer hands out), so a mass built
//! here is bit for bit the one `dMassSetBox` & co. build.
//!
//! ```
//! use ode::api::{Axis, DVec3, Mass};
//!
//! let ball = Mass::sphere(1000.0, 0.1).unwrap(); // density, radius
//! let crate_ = Mass::box_total(5.0, 1.0, 0.5, 0.5).unwrap(); // total mass, sides
//! let rod = Mass::cylinder_total(1.0, Axis::Z, 0.05, 2.0).unwrap();
//! let both = crate_.translated([0.0, 0.0, 1.0]).unwrap().combined(&rod);
//! assert_eq!(both.mass, 6.0);
//! assert!((both.center() - DVec3::new(0.0, 0.0, 5.0 / 6.0)).length() < 1e-12);
//! assert!(ball.mass > 4.18 && ball.mass < 4.19);
//! // Invalid masses are refused with the argument named.
//! assert!(Mass::sphere(-1.0, 0.1).is_err());
//! ```

use super::convert::mat3_to_ode;
use super::{finite3, DMat3, DVec3, Error, Mass, Result};
use crate::math::mass::Axis as CoreAxis;

/// The axis of a capsule's or cylinder's length (ODE's direction 1, 2, 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    /// Along x (direction 1).
    X,
    /// Along y (direction 2).
    Y,
    /// Along z (direction 3), the axis of capsule and cylinder geoms.
    Z,
}

impl Axis {
    fn core(self) -> CoreAxis {
        let code = match self {
            Axis::X => 1,
            Axis::Y => 2,
            Axis::Z => 3,
        };
        CoreAxis::from_code(code).expect("codes 1..=3 are valid")
    }
}

fn positive(name: &'static str, v: f64) -> Result<f64> {
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(Error::InvalidArgument { arg: name, reason: format!("= {v} (must be finite and > 0)") })
    }
}

fn non_negative(name: &'static str, v: f64) -> Result<f64> {
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(Error::InvalidArgument { arg: name, reason: format!("= {v} (must be finite and >= 0)") })
    }
}

fn checked(m: Mass) -> Result<Mass> {
    m.validate().map_err(|p| Error::InvalidArgument { arg: "mass", reason: p.message().into() })?;
    Ok(m)
}

impl Mass {
    /// A solid sphere of the given density and radius (`dMassSetSphere`).
    pub fn sphere(density: f64, radius: f64) -> Result<Mass> {
        let (d, r) = (positive("density", density)?, positive("radius", radius)?);
        let mut m = Mass::zero();
        m.set_sphere(d, r);
        checked(m)
    }

    /// A solid sphere of the given total mass (`dMassSetSphereTotal`).
    pub fn sphere_total(total: f64, radius: f64) -> Result<Mass> {
        let (t, r) = (positive("total_mass", total)?, positive("radius", radius)?);
        let mut m = Mass::zero();
        m.set_sphere_total(t, r);
        checked(m)
    }

    /// A solid box of the given density and side lengths (`dMassSetBox`).
    pub fn box_density(density: f64, lx: f64, ly: f64, lz: f64) -> Result<Mass> {
        let d = positive("density", density)?;
        let (x, y, z) = (positive("lx", lx)?, positive("ly", ly)?, positive("lz", lz)?);
        let mut m = Mass::zero();
        m.set_box(d, x, y, z);
        checked(m)
    }

    /// A solid box of the given total mass (`dMassSetBoxTotal`).
    pub fn box_total(total: f64, lx: f64, ly: f64, lz: f64) -> Result<Mass> {
        let t = positive("total_mass", total)?;
        let (x, y, z) = (positive("lx", lx)?, positive("ly", ly)?, positive("lz", lz)?);
        let mut m = Mass::zero();
        m.set_box_total(t, x, y, z);
        checked(m)
    }

    /// A capsule (cylinder of `length` plus two hemispheres) along `axis`
    /// (`dMassSetCapsule`).
    pub fn capsule(density: f64, axis: Axis, radius: f64, length: f64) -> Result<Mass> {
        let (d, r, l) = (positive("density", density)?, positive("radius", radius)?, non_negative("length", length)?);
        let mut m = Mass::zero();
        m.set_capsule(d, axis.core(), r, l);
        checked(m)
    }

    /// A capsule of the given total mass (`dMassSetCapsuleTotal`).
    pub fn capsule_total(total: f64, axis: Axis, radius: f64, length: f64) -> Result<Mass> {
        let (t, r, l) = (positive("total_mass", total)?, positive("radius", radius)?, non_negative("length", length)?);
        let mut m = Mass::zero();
        m.set_capsule_total(t, axis.core(), r, l);
        checked(m)
    }

    /// A solid cylinder along `axis` (`dMassSetCylinder`).
    pub fn cylinder(density: f64, axis: Axis, radius: f64, length: f64) -> Result<Mass> {
        let (d, r, l) = (positive("density", density)?, positive("radius", radius)?, positive("length", length)?);
        let mut m = Mass::zero();
        m.set_cylinder(d, axis.core(), r, l);
        checked(m)
    }

    /// A solid cylinder of the given total mass (`dMassSetCylinderTotal`).
    pub fn cylinder_total(total: f64, axis: Axis, radius: f64, length: f64) -> Result<Mass> {
        let (t, r, l) = (positive("total_mass", total)?, positive("radius", radius)?, positive("length", length)?);
        let mut m = Mass::zero();
        m.set_cylinder_total(t, axis.core(), r, l);
        checked(m)
    }

    /// A mass from its parameters (`dMassSetParameters`): total mass, centre
    /// of gravity, and the inertia tensor about it given by its diagonal
    /// `(I11, I22, I33)` and off-diagonal `(I12, I13, I23)` entries.
    pub fn from_parameters(
        mass: f64,
        center: impl Into<DVec3>,
        diagonal: impl Into<DVec3>,
        off_diagonal: impl Into<DVec3>,
    ) -> Result<Mass> {
        let t = positive("mass", mass)?;
        let c = finite3("center", center)?;
        let d = finite3("diagonal", diagonal)?;
        let o = finite3("off_diagonal", off_diagonal)?;
        let mut m = Mass::zero();
        m.set_parameters(t, c, d[0], d[1], d[2], o[0], o[1], o[2]);
        checked(m)
    }

    /// The centre of gravity.
    pub fn center(&self) -> DVec3 {
        DVec3::new(self.c[0], self.c[1], self.c[2])
    }

    /// The inertia tensor about the centre of gravity.
    pub fn inertia(&self) -> DMat3 {
        super::convert::mat3_from_ode(&self.I)
    }

    /// Scales to a new total mass (`dMassAdjust`).
    pub fn adjusted(mut self, total: f64) -> Result<Mass> {
        self.adjust(positive("total_mass", total)?);
        Ok(self)
    }

    /// Moved by `t` (`dMassTranslate`).
    pub fn translated(mut self, t: impl Into<DVec3>) -> Result<Mass> {
        self.translate(finite3("translation", t)?);
        Ok(self)
    }

    /// Rotated by `r` (`dMassRotate`).
    pub fn rotated(mut self, r: &DMat3) -> Result<Mass> {
        let ode = mat3_to_ode(r);
        if ode.iter().any(|v| !v.is_finite()) {
            return Err(Error::InvalidArgument { arg: "R", reason: "is not finite".into() });
        }
        self.rotate(&ode);
        Ok(self)
    }

    /// The sum of two masses (`dMassAdd`).
    pub fn combined(mut self, other: &Mass) -> Mass {
        self.add(other);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_match_the_in_place_setters_and_refuse_bad_numbers() {
        let mut m = Mass::zero();
        m.set_box_total(2.0, 1.0, 2.0, 3.0);
        assert_eq!(Mass::box_total(2.0, 1.0, 2.0, 3.0).unwrap(), m);
        // Closed form: I11 = m/12 (ly² + lz²).
        assert_eq!(m.I[0], 2.0 / 12.0 * 13.0);
        let s = Mass::sphere(1.0, 1.0).unwrap();
        assert!((s.mass - 4.0 / 3.0 * std::f64::consts::PI).abs() < 1e-15);
        assert!(matches!(Mass::sphere(-1.0, 1.0), Err(Error::InvalidArgument { arg: "density", .. })));
        assert!(matches!(Mass::box_total(1.0, 1.0, f64::NAN, 1.0), Err(Error::InvalidArgument { arg: "ly", .. })));
        assert!(matches!(Mass::capsule(1.0, Axis::Z, 0.0, 1.0), Err(Error::InvalidArgument { arg: "radius", .. })));
    }
}
