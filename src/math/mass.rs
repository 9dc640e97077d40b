//! Mass properties (mass.h). (to be completed by the math helper)
#![allow(non_snake_case)]

/// Mass, centre of mass and inertia tensor about the point of reference;
/// same layout as C `dMass`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mass {
    pub mass: f64,
    pub c: [f64; 4],
    pub I: [f64; 12],
}

impl Mass {
    pub fn zero() -> Mass {
        Mass { mass: 0.0, c: [0.0; 4], I: [0.0; 12] }
    }
}
