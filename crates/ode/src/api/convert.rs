//! Conversions between glam's types and ODE's layouts: 3x4 row-major
//! padded matrices (`[f64; 12]`, the fourth column unused) and (w, x, y, z)
//! quaternions. Public so that users mixing the safe API with ODE's C
//! layouts or the `rotation.h` helpers convert the same way the API does.
//!
//! ```
//! use ode::api::convert::{mat3_from_ode, mat3_to_ode, quat_from_ode, quat_to_ode};
//! use ode::api::{DMat3, DQuat};
//!
//! let q = DQuat::from_rotation_x(0.3);
//! let ode_q = quat_to_ode(q); // (w, x, y, z)
//! assert_eq!(ode_q[0], q.w);
//! assert_eq!(quat_from_ode(&ode_q), q);
//! let m = DMat3::from_quat(q);
//! let padded = mat3_to_ode(&m); // rows of 4, the fourth unused
//! assert_eq!(padded[4 + 1], m.y_axis.y);
//! assert_eq!(mat3_from_ode(&padded), m);
//! ```

use glam::{DMat3, DQuat, DVec3};

/// A glam matrix in ODE's padded row-major layout (pads zero).
pub fn mat3_to_ode(m: &DMat3) -> [f64; 12] {
    let mut r = [0.0; 12];
    for i in 0..3 {
        let row = m.row(i);
        r[i * 4] = row.x;
        r[i * 4 + 1] = row.y;
        r[i * 4 + 2] = row.z;
    }
    r
}

/// An ODE padded row-major matrix as a glam matrix (pads ignored).
pub fn mat3_from_ode(r: &[f64; 12]) -> DMat3 {
    DMat3::from_cols(DVec3::new(r[0], r[4], r[8]), DVec3::new(r[1], r[5], r[9]), DVec3::new(r[2], r[6], r[10]))
}

/// A glam quaternion as ODE's (w, x, y, z), unnormalised.
pub fn quat_to_ode(q: DQuat) -> [f64; 4] {
    [q.w, q.x, q.y, q.z]
}

/// ODE's (w, x, y, z) quaternion as a glam quaternion, unnormalised.
pub fn quat_from_ode(q: &[f64; 4]) -> DQuat {
    DQuat::from_xyzw(q[1], q[2], q[3], q[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_round_trip_and_agree_with_odes_helpers() {
        let r = crate::math::rotation::r_from_axis_and_angle(1.0, 2.0, 3.0, 0.7);
        let m = mat3_from_ode(&r);
        assert_eq!(mat3_to_ode(&m), r);
        // Row-major: ODE's R * v equals glam's m * v.
        let v = DVec3::new(0.3, -1.2, 2.0);
        let ode = [
            r[0] * v.x + r[1] * v.y + r[2] * v.z,
            r[4] * v.x + r[5] * v.y + r[6] * v.z,
            r[8] * v.x + r[9] * v.y + r[10] * v.z,
        ];
        assert_eq!((m * v).to_array(), ode);
        let q = crate::math::rotation::r_to_q(&r);
        let gq = quat_from_ode(&q);
        assert_eq!(quat_to_ode(gq), q);
        assert!((gq * v - m * v).length() < 1e-14);
    }
}
