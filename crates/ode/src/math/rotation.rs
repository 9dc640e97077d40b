//! Rotations (rotation.h): 3x4 row-major padded matrices and (w,x,y,z)
//! quaternions, with ODE's formulas and operation order so that results
//! match ODE's bit for bit where the arithmetic allows.

use super::vec::{normalize3, plane_space};

/// A rotation matrix in ODE's layout: 3x4 row-major, padded.
pub type Mat3 = [f64; 12];
/// A quaternion in ODE's order (w, x, y, z).
pub type Quat = [f64; 4];

/// The identity rotation matrix.
pub const IDENTITY: Mat3 = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
/// The identity quaternion.
pub const Q_IDENTITY: Quat = [1.0, 0.0, 0.0, 0.0];

/// Quaternion of a rotation by `angle` about (ax, ay, az) (any length; a
/// zero axis gives the identity).
pub fn q_from_axis_and_angle(ax: f64, ay: f64, az: f64, angle: f64) -> Quat {
    let l = ax * ax + ay * ay + az * az;
    if l > 0.0 {
        let half = angle * 0.5;
        let s = half.sin() * (1.0 / l.sqrt());
        [half.cos(), ax * s, ay * s, az * s]
    } else {
        Q_IDENTITY
    }
}

/// The rotation by `angle` about the axis (ax, ay, az) (`dRFromAxisAndAngle`).
pub fn r_from_axis_and_angle(ax: f64, ay: f64, az: f64, angle: f64) -> Mat3 {
    q_to_r(&q_from_axis_and_angle(ax, ay, az, angle))
}

/// Rotation from ODE's Euler angle convention (phi, theta, psi).
pub fn r_from_euler_angles(phi: f64, theta: f64, psi: f64) -> Mat3 {
    let (sphi, cphi) = (phi.sin(), phi.cos());
    let (sth, cth) = (theta.sin(), theta.cos());
    let (spsi, cpsi) = (psi.sin(), psi.cos());
    [
        cpsi * cth,
        spsi * cth,
        -sth,
        0.0,
        cpsi * sth * sphi - spsi * cphi,
        spsi * sth * sphi + cpsi * cphi,
        cth * sphi,
        0.0,
        cpsi * sth * cphi + spsi * sphi,
        spsi * sth * cphi - cpsi * sphi,
        cth * cphi,
        0.0,
    ]
}

/// Rotation whose x column is `a` and whose y column is `b` made orthogonal
/// to `a`. `None` if either is degenerate (ODE leaves R untouched then).
pub fn r_from_2_axes(a: [f64; 3], b: [f64; 3]) -> Option<Mat3> {
    let l = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
    if l <= 0.0 {
        return None;
    }
    let l = 1.0 / l;
    let (ax, ay, az) = (a[0] * l, a[1] * l, a[2] * l);
    let k = ax * b[0] + ay * b[1] + az * b[2];
    let (bx, by, bz) = (b[0] - k * ax, b[1] - k * ay, b[2] - k * az);
    let l = (bx * bx + by * by + bz * bz).sqrt();
    if l <= 0.0 {
        return None;
    }
    let l = 1.0 / l;
    let (bx, by, bz) = (bx * l, by * l, bz * l);
    Some([ax, bx, -by * az + ay * bz, 0.0, ay, by, -bz * ax + az * bx, 0.0, az, bz, -bx * ay + ax * by, 0.0])
}

/// Rotation whose z column is the normalised `a`.
pub fn r_from_z_axis(a: [f64; 3]) -> Mat3 {
    let mut n = [a[0], a[1], a[2]];
    normalize3(&mut n);
    let (p, q) = plane_space(&n);
    [p[0], q[0], n[0], 0.0, p[1], q[1], n[1], 0.0, p[2], q[2], n[2], 0.0]
}

/// qb * qc.
pub fn q_mult0(b: &Quat, c: &Quat) -> Quat {
    [
        b[0] * c[0] - b[1] * c[1] - b[2] * c[2] - b[3] * c[3],
        b[0] * c[1] + b[1] * c[0] + b[2] * c[3] - b[3] * c[2],
        b[0] * c[2] + b[2] * c[0] + b[3] * c[1] - b[1] * c[3],
        b[0] * c[3] + b[3] * c[0] + b[1] * c[2] - b[2] * c[1],
    ]
}

/// conj(qb) * qc.
pub fn q_mult1(b: &Quat, c: &Quat) -> Quat {
    [
        b[0] * c[0] + b[1] * c[1] + b[2] * c[2] + b[3] * c[3],
        b[0] * c[1] - b[1] * c[0] - b[2] * c[3] + b[3] * c[2],
        b[0] * c[2] - b[2] * c[0] - b[3] * c[1] + b[1] * c[3],
        b[0] * c[3] - b[3] * c[0] - b[1] * c[2] + b[2] * c[1],
    ]
}

/// qb * conj(qc).
pub fn q_mult2(b: &Quat, c: &Quat) -> Quat {
    [
        b[0] * c[0] + b[1] * c[1] + b[2] * c[2] + b[3] * c[3],
        -b[0] * c[1] + b[1] * c[0] - b[2] * c[3] + b[3] * c[2],
        -b[0] * c[2] + b[2] * c[0] - b[3] * c[1] + b[1] * c[3],
        -b[0] * c[3] + b[3] * c[0] - b[1] * c[2] + b[2] * c[1],
    ]
}

/// conj(qb) * conj(qc).
pub fn q_mult3(b: &Quat, c: &Quat) -> Quat {
    [
        b[0] * c[0] - b[1] * c[1] - b[2] * c[2] - b[3] * c[3],
        -b[0] * c[1] - b[1] * c[0] + b[2] * c[3] - b[3] * c[2],
        -b[0] * c[2] - b[2] * c[0] + b[3] * c[1] - b[1] * c[3],
        -b[0] * c[3] - b[3] * c[0] + b[1] * c[2] - b[2] * c[1],
    ]
}

/// Rotation matrix of a unit quaternion (dRfromQ).
pub fn q_to_r(q: &Quat) -> Mat3 {
    let qq1 = 2.0 * q[1] * q[1];
    let qq2 = 2.0 * q[2] * q[2];
    let qq3 = 2.0 * q[3] * q[3];
    [
        1.0 - qq2 - qq3,
        2.0 * (q[1] * q[2] - q[0] * q[3]),
        2.0 * (q[1] * q[3] + q[0] * q[2]),
        0.0,
        2.0 * (q[1] * q[2] + q[0] * q[3]),
        1.0 - qq1 - qq3,
        2.0 * (q[2] * q[3] - q[0] * q[1]),
        0.0,
        2.0 * (q[1] * q[3] - q[0] * q[2]),
        2.0 * (q[2] * q[3] + q[0] * q[1]),
        1.0 - qq1 - qq2,
        0.0,
    ]
}

/// Quaternion of a rotation matrix (dQfromR), choosing the numerically
/// best branch from the trace or the largest diagonal element.
pub fn r_to_q(r: &Mat3) -> Quat {
    let e = |i: usize, j: usize| r[i * 4 + j];
    let tr = e(0, 0) + e(1, 1) + e(2, 2);
    let mut q = [0.0; 4];
    if tr >= 0.0 {
        let s = (tr + 1.0).sqrt();
        q[0] = 0.5 * s;
        let s = 0.5 * (1.0 / s);
        q[1] = (e(2, 1) - e(1, 2)) * s;
        q[2] = (e(0, 2) - e(2, 0)) * s;
        q[3] = (e(1, 0) - e(0, 1)) * s;
        return q;
    }
    let case = if e(1, 1) > e(0, 0) {
        if e(2, 2) > e(1, 1) {
            2
        } else {
            1
        }
    } else if e(2, 2) > e(0, 0) {
        2
    } else {
        0
    };
    match case {
        0 => {
            let s = ((e(0, 0) - (e(1, 1) + e(2, 2))) + 1.0).sqrt();
            q[1] = 0.5 * s;
            let s = 0.5 * (1.0 / s);
            q[2] = (e(0, 1) + e(1, 0)) * s;
            q[3] = (e(2, 0) + e(0, 2)) * s;
            q[0] = (e(2, 1) - e(1, 2)) * s;
        }
        1 => {
            let s = ((e(1, 1) - (e(2, 2) + e(0, 0))) + 1.0).sqrt();
            q[2] = 0.5 * s;
            let s = 0.5 * (1.0 / s);
            q[3] = (e(1, 2) + e(2, 1)) * s;
            q[1] = (e(0, 1) + e(1, 0)) * s;
            q[0] = (e(0, 2) - e(2, 0)) * s;
        }
        _ => {
            let s = ((e(2, 2) - (e(0, 0) + e(1, 1))) + 1.0).sqrt();
            q[3] = 0.5 * s;
            let s = 0.5 * (1.0 / s);
            q[1] = (e(2, 0) + e(0, 2)) * s;
            q[2] = (e(1, 2) + e(2, 1)) * s;
            q[0] = (e(1, 0) - e(0, 1)) * s;
        }
    }
    q
}

/// Time derivative of `q` under angular velocity `w` (world frame).
pub fn dq_from_w(w: &[f64], q: &Quat) -> Quat {
    [
        0.5 * (-w[0] * q[1] - w[1] * q[2] - w[2] * q[3]),
        0.5 * (w[0] * q[0] + w[1] * q[3] - w[2] * q[2]),
        0.5 * (-w[0] * q[3] + w[1] * q[0] + w[2] * q[1]),
        0.5 * (w[0] * q[2] - w[1] * q[1] + w[2] * q[0]),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
    }

    #[test]
    fn axis_angle_roundtrip_through_matrix() {
        for &(ax, ay, az, ang) in &[
            (0.0, 0.0, 1.0, 0.3),
            (1.0, 2.0, -3.0, 2.9),
            (-1.0, 0.1, 0.2, -3.1),
            (0.0, 1.0, 0.0, std::f64::consts::PI - 1e-5),
        ] {
            let q = q_from_axis_and_angle(ax, ay, az, ang);
            let r = q_to_r(&q);
            let q2 = r_to_q(&r);
            // q and -q are the same rotation
            let same = close(&q, &q2, 1e-12) || close(&q, &q2.map(|v| -v), 1e-12);
            assert!(same, "{q:?} vs {q2:?}");
        }
    }

    #[test]
    fn rotation_about_z_moves_x_to_y() {
        let r = r_from_axis_and_angle(0.0, 0.0, 1.0, std::f64::consts::FRAC_PI_2);
        // column 0 is the image of x
        assert!(close(&[r[0], r[4], r[8]], &[0.0, 1.0, 0.0], 1e-15));
    }

    #[test]
    fn quaternion_products_compose_rotations() {
        let a = q_from_axis_and_angle(1.0, 0.0, 0.0, 0.7);
        let b = q_from_axis_and_angle(0.0, 1.0, 1.0, -1.1);
        let ab = q_to_r(&q_mult0(&a, &b));
        let (ra, rb) = (q_to_r(&a), q_to_r(&b));
        for i in 0..3 {
            for j in 0..3 {
                let m: f64 = (0..3).map(|k| ra[i * 4 + k] * rb[k * 4 + j]).sum();
                assert!((m - ab[i * 4 + j]).abs() < 1e-14);
            }
        }
        // conj(a)*a = identity
        assert!(close(&q_mult1(&a, &a), &Q_IDENTITY, 1e-15));
        assert!(close(&q_mult2(&a, &a), &Q_IDENTITY, 1e-15));
    }
}
