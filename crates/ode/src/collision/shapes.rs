//! Shape parameters and poses, as colliders see them, and the conventions
//! on them that every layer shares (ray option bits, ODE's `_dequal`).

/// Position and orientation of a placeable geom in world coordinates:
/// `pos` is a padded vector, `r` a padded 3x4 row-major rotation whose
/// columns are the geom's axes in world frame (ODE's layout).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    pub pos: [f64; 4],
    pub r: [f64; 12],
}

impl Pose {
    pub const IDENTITY: Pose = Pose { pos: [0.0; 4], r: crate::math::rotation::IDENTITY };

    pub fn new(pos: [f64; 3], r: [f64; 12]) -> Pose {
        Pose { pos: [pos[0], pos[1], pos[2], 0.0], r }
    }

    /// Geom axis `i` (column i of R) in world frame.
    #[inline]
    pub fn axis(&self, i: usize) -> [f64; 3] {
        [self.r[i], self.r[4 + i], self.r[8 + i]]
    }

    /// World point of a point given in geom frame.
    #[inline]
    pub fn to_world(&self, p: &[f64; 3]) -> [f64; 3] {
        let m = crate::math::mat3::mul0_331(&self.r, p);
        [m[0] + self.pos[0], m[1] + self.pos[1], m[2] + self.pos[2]]
    }

    /// Geom-frame point of a world point.
    #[inline]
    pub fn to_local(&self, p: &[f64; 3]) -> [f64; 3] {
        let d = [p[0] - self.pos[0], p[1] - self.pos[1], p[2] - self.pos[2]];
        crate::math::mat3::mul1_331(&self.r, &d)
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sphere {
    pub radius: f64,
}

/// Box with full side lengths (ODE stores lengths, not half extents).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxShape {
    pub sides: [f64; 3],
}

/// Capsule along the geom's z axis: `length` is the cylindrical part only.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule {
    pub radius: f64,
    pub length: f64,
}

/// Flat-ended cylinder along the geom's z axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cylinder {
    pub radius: f64,
    pub length: f64,
}

/// Plane `n·p = d` in world coordinates with unit `n` (planes are not
/// placeable in ODE).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plane {
    pub n: [f64; 3],
    pub d: f64,
}

/// Ray from the pose position along the pose's z axis (column 2 of R).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    pub length: f64,
    /// `dGeomRaySetFirstContact`/`BackfaceCull`/`ClosestHit` bits (ODE's
    /// internal RAY_* flag values, see `ray_flags`).
    pub flags: u32,
}

/// Ray option bits, kept in `Ray::flags` (ODE's internal values).
pub mod ray_flags {
    pub const FIRST_CONTACT: u32 = 0x10000;
    pub const BACKFACE_CULL: u32 = 0x20000;
    pub const CLOSEST_HIT: u32 = 0x40000;
}

/// ODE's `_dequal`, which in this build compares exactly (a plane normal
/// of (1e-300, 0, 1) is not treated as axis-aligned by ODE).
#[inline]
pub fn dequal(a: f64, b: f64) -> bool {
    a == b
}
