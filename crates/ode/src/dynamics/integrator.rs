//! Motion of one rigid body over a time step, in ODE's operation order:
//! velocity updates from the accumulated forces (the Step's and the
//! QuickStep's variants, and the Step's with a constraint force), the
//! implicit gyroscopic torque, and the position/orientation update
//! (`step_body`: angular speed cap, finite or infinitesimal rotation, the
//! host's moved callback, damping). The step pipeline (the `pipeline` module)
//! decides which body gets which update and when.

use super::body::{Body, BodyRef};
use super::world::flags;
use crate::math::mat3::{invert3, mul0_331, mul0_333, rotate_tensor};
use crate::math::rotation::{dq_from_w, q_mult0, q_to_r};
use crate::math::vec::dot3;

/// Step's velocity update with a constraint force `c` (Jᵀλ, linear then
/// angular): v += (c + F)·(h·invMass), w += invI·((c + T)·h).
pub fn update_velocity_constrained(b: &mut Body, inv_i: &[f64; 12], c: &[f64; 6], h: f64) {
    let s = h * b.inv_mass;
    for k in 0..3 {
        b.lvel[k] += (c[k] + b.facc[k]) * s;
    }
    let t = [(c[3] + b.tacc[0]) * h, (c[4] + b.tacc[1]) * h, (c[5] + b.tacc[2]) * h];
    let dw = mul0_331(inv_i, &t);
    for k in 0..3 {
        b.avel[k] += dw[k];
    }
}

/// Step's velocity update: v += (h·invMass)·F, w += invI·(T·h).
pub fn update_velocity(b: &mut Body, inv_i: &[f64; 12], h: f64) {
    let s = h * b.inv_mass;
    for k in 0..3 {
        b.lvel[k] += s * b.facc[k];
    }
    let t = [b.tacc[0] * h, b.tacc[1] * h, b.tacc[2] * h];
    let dw = mul0_331(inv_i, &t);
    for k in 0..3 {
        b.avel[k] += dw[k];
    }
}

/// QuickStep's velocity update: the same numbers, but the torque
/// accumulator itself is scaled by `h`.
pub fn update_velocity_quick(b: &mut Body, inv_i: &[f64; 12], h: f64) {
    let s = h * b.inv_mass;
    for k in 0..3 {
        b.lvel[k] += s * b.facc[k];
        b.tacc[k] *= h;
    }
    let t = [b.tacc[0], b.tacc[1], b.tacc[2]];
    let dw = mul0_331(inv_i, &t);
    for k in 0..3 {
        b.avel[k] += dw[k];
    }
}

pub fn clear_accumulators(b: BodyRef) {
    if b.is_live() {
        let b = b.get_mut();
        for k in 0..3 {
            b.facc[k] = 0.0;
            b.tacc[k] = 0.0;
        }
    }
}

/// Adds the implicit gyroscopic torque (Lacoursière's stabilised form, as
/// ODE 0.16 does): with I the world-frame inertia and L = I·w, the torque
/// is (I·(I + h·[L]ₓᵀ)⁻¹ − 1)·L/h, skipped when that matrix is singular.
pub fn add_gyroscopic_torque(b: &mut Body, h: f64) {
    let inertia = rotate_tensor(&b.mass.I, &b.r);
    let mut l = mul0_331(&inertia, &b.avel);
    // Minus cross-product matrix of L, scaled by h, plus I.
    let mut m = [0.0; 12];
    m[1] = l[2];
    m[2] = -l[1];
    m[4] = -l[2];
    m[6] = l[0];
    m[8] = l[1];
    m[9] = -l[0];
    for (mi, ii) in m.iter_mut().zip(inertia.iter()) {
        *mi = *mi * h + *ii;
    }
    let rh = 1.0 / h;
    for v in l.iter_mut() {
        *v *= rh;
    }
    if let Some(minv) = invert3(&m) {
        let mut k = mul0_333(&inertia, &minv);
        k[0] -= 1.0;
        k[5] -= 1.0;
        k[10] -= 1.0;
        let tau = mul0_331(&k, &l);
        for i in 0..3 {
            b.tacc[i] += tau[i];
        }
    }
}

/// Moves a body over `h` with its current velocities (ODE's dxStepBody):
/// caps the angular speed, advances position and orientation (finite or
/// infinitesimal rotation), notifies the host, then applies damping.
///
/// Returns false, leaving position and orientation as they were (no
/// callback, no damping), when the new position or orientation is not
/// finite, which non-finite velocities always cause; the step's guard
/// (`pipeline`) takes over. ODE stores such a state (and Debian's build
/// aborts on its next normalisation). Also returns false, after the move,
/// when damping made a velocity overflow. The test is on values in hand,
/// so a normal step costs a few instructions and no copy.
pub fn step_body(bref: BodyRef, h: f64) -> bool {
    {
        let b = bref.get_mut();
        if b.flags & flags::MAX_ANGULAR_SPEED != 0 {
            let max = b.max_angular_speed;
            let aspeed = dot3(&b.avel, &b.avel);
            if aspeed > max * max {
                let coef = max / aspeed.sqrt();
                for k in 0..3 {
                    b.avel[k] *= coef;
                }
            }
        }

        let pos: [f64; 3] = std::array::from_fn(|k| b.pos[k] + h * b.lvel[k]);

        let mut q = if b.flags & flags::FINITE_ROTATION != 0 {
            rotate_finite(b, h)
        } else {
            let dq = dq_from_w(&b.avel, &b.q);
            std::array::from_fn(|k| b.q[k] + h * dq[k])
        };
        normalize_stepped_q(&mut q);
        // One test on the normal path: within the huge bound (which also
        // means finite). Outside it, a non-finite result goes to the guard;
        // a finite one beyond what ODE's arithmetic on positions and
        // velocities survives is reported once, kept as ODE keeps it.
        if !within_huge(&pos, &q, &b.lvel, &b.avel) {
            if !all_finite(&pos, &q) {
                return false;
            }
            report_huge(bref, b, &pos);
        }
        b.pos[..3].copy_from_slice(&pos);
        b.q = q;
        b.r = q_to_r(&b.q);
    }

    // Attached geoms learn that the body moved (their spaces refresh them).
    bref.get().geoms_moved();

    let callback = bref.get().moved_callback;
    if let Some(cb) = callback {
        // SAFETY: a host function registered through dBodySetMovedCallback;
        // no borrow of the body is held across the call.
        unsafe { cb(bref.as_raw()) };
        if !bref.is_live() {
            return true;
        }
    }

    let b = bref.get_mut();
    let mut damped = false;
    if b.flags & flags::LINEAR_DAMPING != 0 && dot3(&b.lvel, &b.lvel) > b.dampingp.linear_threshold {
        let k = 1.0 - b.dampingp.linear_scale;
        for v in b.lvel.iter_mut().take(3) {
            *v *= k;
        }
        damped = true;
    }
    if b.flags & flags::ANGULAR_DAMPING != 0 && dot3(&b.avel, &b.avel) > b.dampingp.angular_threshold {
        let k = 1.0 - b.dampingp.angular_scale;
        for v in b.avel.iter_mut().take(3) {
            *v *= k;
        }
        damped = true;
    }
    // A damping scale above 2 (ODE accepts any) makes velocities grow each
    // step until they overflow; the guard then takes the body over, as for
    // any non-finite result.
    !damped || b.lvel[..3].iter().chain(&b.avel[..3]).all(|v| v.is_finite())
}

/// Normalises the orientation after a step as ODE does (same operations,
/// same bits). A zero quaternion (only a stored zero one stays zero; ODE
/// asserts on it) restarts from the identity, as ODE's normalisation falls
/// back to it. A NaN one, or one whose squared length overflows (ODE then
/// makes it zero and asserts on the next step), is made NaN, so that
/// `step_body` refuses it.
fn normalize_stepped_q(q: &mut [f64; 4]) {
    let l = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    if l > 0.0 && l < f64::INFINITY {
        let k = 1.0 / l.sqrt();
        for v in q.iter_mut() {
            *v *= k;
        }
    } else if l == 0.0 {
        *q = [1.0, 0.0, 0.0, 0.0];
    } else {
        q[0] = f64::NAN;
    }
}

/// Position and velocities within `error::HUGE_INPUT` and the orientation
/// finite (NaN fails every compare). Non-short-circuit `&` keeps it
/// branch-free.
#[inline(always)]
#[allow(clippy::eq_op)] // x - x is the point: 0 for finite x, NaN otherwise
fn within_huge(pos: &[f64; 3], q: &[f64; 4], lvel: &[f64; 4], avel: &[f64; 4]) -> bool {
    const H: f64 = crate::error::HUGE_INPUT;
    let z = |x: f64| x - x;
    let q_ok = ((z(q[0]) + z(q[1])) + (z(q[2]) + z(q[3]))) == 0.0;
    let w = |x: f64| x.abs() <= H;
    q_ok & (w(pos[0]) & w(pos[1]) & w(pos[2]))
        & (w(lvel[0]) & w(lvel[1]) & w(lvel[2]))
        & (w(avel[0]) & w(avel[1]) & w(avel[2]))
}

/// A step left body `b` finite but beyond `error::HUGE_INPUT`: one warning
/// per body (message channel, `d_ERR_UASSERT`), as for a setter given such
/// a value. Nothing changes: ODE keeps the state, and so do we.
#[cold]
#[inline(never)]
fn report_huge(bref: BodyRef, b: &mut Body, pos: &[f64; 3]) {
    if b.flags & flags::HUGE_REPORTED != 0 {
        return;
    }
    b.flags |= flags::HUGE_REPORTED;
    let mut t = crate::error::StackText::<320>::new();
    let _ = std::fmt::Write::write_fmt(
        &mut t,
        format_args!(
            "step: body {:p} is now beyond ±{:e} (position {:e} {:e} {:e}, largest linear velocity component {:e}, angular {:e}); kept as ODE keeps it, but arithmetic on it may overflow to inf or NaN",
            bref.as_raw(),
            crate::error::HUGE_INPUT,
            pos[0],
            pos[1],
            pos[2],
            b.lvel[..3].iter().fold(0.0f64, |m, v| m.max(v.abs())),
            b.avel[..3].iter().fold(0.0f64, |m, v| m.max(v.abs())),
        ),
    );
    crate::error::suspicious_message(t.as_str());
}

/// New position and orientation all finite: `x - x` is 0 for finite `x`
/// and NaN for inf or NaN, so one sum decides.
#[inline(always)]
#[allow(clippy::eq_op)] // x - x is the point: 0 for finite x, NaN otherwise
fn all_finite(pos: &[f64; 3], q: &[f64; 4]) -> bool {
    let z = |x: f64| x - x;
    ((z(pos[0]) + z(pos[1])) + (z(pos[2]) + z(q[0]))) + ((z(q[1]) + z(q[2])) + z(q[3])) == 0.0
}

/// Finite rotation: the rotation by w·h (or by its component along the
/// finite rotation axis) is applied exactly as a quaternion; with an axis,
/// the remaining component is applied infinitesimally afterwards. Like
/// ODE, that infinitesimal part uses the halved step.
fn rotate_finite(b: &Body, h: f64) -> [f64; 4] {
    let with_axis = b.flags & flags::FINITE_ROTATION_AXIS != 0;
    let hh = h * 0.5;
    let mut rot = [0.0; 4];
    let mut irv = [0.0; 3];
    if with_axis {
        let axis = b.finite_rot_axis;
        let k = dot3(&axis, &b.avel);
        let frv = [axis[0] * k, axis[1] * k, axis[2] * k];
        irv = [b.avel[0] - frv[0], b.avel[1] - frv[1], b.avel[2] - frv[2]];
        let theta = k * hh;
        rot[0] = theta.cos();
        let s = sinc(theta) * hh;
        for i in 0..3 {
            rot[i + 1] = frv[i] * s;
        }
    } else {
        let wlen = (b.avel[0] * b.avel[0] + b.avel[1] * b.avel[1] + b.avel[2] * b.avel[2]).sqrt();
        let theta = wlen * hh;
        rot[0] = theta.cos();
        let s = sinc(theta) * hh;
        for i in 0..3 {
            rot[i + 1] = b.avel[i] * s;
        }
    }
    let mut q = q_mult0(&rot, &b.q);
    if with_axis {
        let dq = dq_from_w(&irv, &q);
        for k in 0..4 {
            q[k] += hh * dq[k];
        }
    }
    q
}

/// sin(x)/x, with the two-term Taylor series near zero as ODE uses.
fn sinc(x: f64) -> f64 {
    if x.abs() < 1.0e-4 {
        1.0 - x * x * 0.16666666666666666 // ODE's 0.166666666666666666667, the same double
    } else {
        x.sin() / x
    }
}
