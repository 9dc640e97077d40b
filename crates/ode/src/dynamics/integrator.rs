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
    after_move(bref)
}

/// The rest of `step_body` once position and orientation are stored:
/// geoms, the moved callback, damping; false when damping overflowed.
#[inline(always)]
pub fn after_move(bref: BodyRef) -> bool {
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

/// Four f64 lanes, one body each: glam's `DVec4`, whose operations are
/// the lane-wise IEEE ones (Rust never fuses a multiply and an add), so lane
/// `l` computes exactly what the scalar code computes for body `l`; the
/// compiler turns them into SSE2/AVX instructions.
pub type F4 = glam::DVec4;

/// `a` where `m` is set, `b` elsewhere.
#[inline(always)]
fn select(m: [bool; 4], a: F4, b: F4) -> F4 {
    glam::DVec4::select(glam::BVec4::new(m[0], m[1], m[2], m[3]), a, b)
}

/// A 3x3 matrix of four bodies, row-major without padding.
type M4 = [F4; 9];

/// `dot3` lane-wise: (a₀b₀ + a₁b₁) + a₂b₂.
#[inline(always)]
fn dot3_4(a0: F4, a1: F4, a2: F4, b0: F4, b1: F4, b2: F4) -> F4 {
    a0 * b0 + a1 * b1 + a2 * b2
}

/// `mul0_333` lane-wise.
#[inline(always)]
fn mul0_333_4(a: &M4, b: &M4) -> M4 {
    let mut r = [F4::default(); 9];
    for i in 0..3 {
        for j in 0..3 {
            r[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
        }
    }
    r
}

/// `rotate_tensor` lane-wise: R·(T·Rᵀ).
#[inline(always)]
fn rotate_tensor_4(t: &M4, r: &M4) -> M4 {
    let mut p = [F4::default(); 9];
    for i in 0..3 {
        for j in 0..3 {
            p[3 * i + j] = dot3_4(t[3 * i], t[3 * i + 1], t[3 * i + 2], r[3 * j], r[3 * j + 1], r[3 * j + 2]);
        }
    }
    mul0_333_4(r, &p)
}

/// `mul0_331` lane-wise.
#[inline(always)]
fn mul0_331_4(a: &M4, v: &[F4; 3]) -> [F4; 3] {
    let row = |i: usize| dot3_4(a[3 * i], a[3 * i + 1], a[3 * i + 2], v[0], v[1], v[2]);
    [row(0), row(1), row(2)]
}

/// The per-body stages of a step before the move, for four bodies that are
/// each an island of their own without joints: gravity, the world-frame
/// inverse inertia, the implicit gyroscopic torque and the velocity update
/// (`update_velocity` or, with `quick`, `update_velocity_quick`), in the
/// scalar code's operation order. Loaded from the bodies, computed, then
/// stored back one lane at a time, so that a caller can interleave each
/// body's store with its move exactly as the one-body-at-a-time path does.
#[derive(Clone, Copy, Default)]
pub struct FreeLanes {
    pub r: M4,
    pub inv_i: M4,
    pub inertia: M4,
    pub avel: [F4; 3],
    pub lvel: [F4; 3],
    pub facc: [F4; 3],
    pub tacc: [F4; 3],
    pub mass: F4,
    pub inv_mass: F4,
    pub gravity: [bool; 4],
    pub gyroscopic: [bool; 4],
}

impl FreeLanes {
    /// Body `b`'s inputs into lane `l`.
    #[inline(always)]
    pub fn load(&mut self, l: usize, b: &Body) {
        for i in 0..3 {
            for j in 0..3 {
                self.r[3 * i + j][l] = b.r[4 * i + j];
                self.inv_i[3 * i + j][l] = b.inv_i[4 * i + j];
                self.inertia[3 * i + j][l] = b.mass.I[4 * i + j];
            }
            self.avel[i][l] = b.avel[i];
            self.lvel[i][l] = b.lvel[i];
            self.facc[i][l] = b.facc[i];
            self.tacc[i][l] = b.tacc[i];
        }
        self.mass[l] = b.mass.mass;
        self.inv_mass[l] = b.inv_mass;
        self.gravity[l] = b.flags & flags::NO_GRAVITY == 0;
        self.gyroscopic[l] = b.flags & flags::GYROSCOPIC != 0 && b.inv_mass > 0.0;
    }

    /// Lane `l`'s results into body `b` (what the scalar stages write:
    /// the accumulators and velocities; the island tag is 0).
    #[inline(always)]
    pub fn store(&self, l: usize, b: &mut Body) {
        b.tag = 0;
        for i in 0..3 {
            b.facc[i] = self.facc[i][l];
            b.tacc[i] = self.tacc[i][l];
            b.lvel[i] = self.lvel[i][l];
            b.avel[i] = self.avel[i][l];
        }
    }

    /// The stages on all four lanes (see the type). `gravity` is the
    /// world's; an axis with g = 0 adds nothing, as in ODE.
    /// Then the move of `moved` with the new velocities.
    pub fn forces_and_velocity(
        &mut self,
        gravity: &[f64; 3],
        h: f64,
        quick: bool,
        pos: &[F4; 3],
        q: &[F4; 4],
        plain: [bool; 4],
    ) -> MoveLanes {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx") {
            // SAFETY: AVX is present (checked just above).
            return unsafe { self.forces_and_velocity_avx(gravity, h, quick, pos, q, plain) };
        }
        self.forces_and_velocity_body(gravity, h, quick);
        self.moved(pos, q, plain, h)
    }

    /// The same code with 4-wide AVX registers (AVX has no fused
    /// multiply-add, and Rust would not fuse anyway: same bits).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    unsafe fn forces_and_velocity_avx(
        &mut self,
        gravity: &[f64; 3],
        h: f64,
        quick: bool,
        pos: &[F4; 3],
        q: &[F4; 4],
        plain: [bool; 4],
    ) -> MoveLanes {
        self.forces_and_velocity_body(gravity, h, quick);
        self.moved(pos, q, plain, h)
    }

    #[inline(always)]
    fn forces_and_velocity_body(&mut self, gravity: &[f64; 3], h: f64, quick: bool) {
        // Gravity, only for a nonzero component (apply_external_forces).
        for (a, &g) in gravity.iter().enumerate() {
            if g != 0.0 {
                let f = self.facc[a] + self.mass * F4::splat(g);
                self.facc[a] = select(self.gravity, f, self.facc[a]);
            }
        }
        let inv_i = self.inertia_and_gyroscopic(h);
        self.velocity(&inv_i, h, quick);
    }

    /// The world-frame inverse inertia of each lane (returned) and the
    /// gyroscopic torque into `tacc`, as apply_external_forces does
    /// after gravity.
    #[inline(always)]
    fn inertia_and_gyroscopic(&mut self, h: f64) -> M4 {
        let inv_i = rotate_tensor_4(&self.inv_i, &self.r);

        // add_gyroscopic_torque, on every lane, kept where it applies.
        if self.gyroscopic.iter().any(|&g| g) {
            let hv = F4::splat(h);
            let inertia = rotate_tensor_4(&self.inertia, &self.r);
            let l = mul0_331_4(&inertia, &self.avel);
            let z = F4::splat(0.0);
            let c = [z, l[2], -l[1], -l[2], z, l[0], l[1], -l[0], z];
            let mut m = [F4::default(); 9];
            for k in 0..9 {
                m[k] = c[k] * hv + inertia[k];
            }
            let rh = F4::splat(1.0 / h);
            let l = [l[0] * rh, l[1] * rh, l[2] * rh];
            // invert3, term for term.
            let det = m[0] * (m[4] * m[8] - m[7] * m[5]) - m[1] * (m[3] * m[8] - m[6] * m[5])
                + m[2] * (m[3] * m[7] - m[6] * m[4]);
            let d = F4::splat(1.0) / det;
            let minv: M4 = [
                (m[4] * m[8] - m[5] * m[7]) * d,
                (m[7] * m[2] - m[1] * m[8]) * d,
                (m[1] * m[5] - m[4] * m[2]) * d,
                (m[5] * m[6] - m[3] * m[8]) * d,
                (m[0] * m[8] - m[6] * m[2]) * d,
                (m[3] * m[2] - m[0] * m[5]) * d,
                (m[3] * m[7] - m[6] * m[4]) * d,
                (m[6] * m[1] - m[0] * m[7]) * d,
                (m[0] * m[4] - m[1] * m[3]) * d,
            ];
            let mut k = mul0_333_4(&inertia, &minv);
            let one = F4::splat(1.0);
            k[0] -= one;
            k[4] -= one;
            k[8] -= one;
            let tau = mul0_331_4(&k, &l);
            let apply: [bool; 4] = std::array::from_fn(|i| self.gyroscopic[i] && det[i] != 0.0);
            for i in 0..3 {
                self.tacc[i] = select(apply, self.tacc[i] + tau[i], self.tacc[i]);
            }
        }

        inv_i
    }

    /// update_velocity / update_velocity_quick.
    #[inline(always)]
    fn velocity(&mut self, inv_i: &M4, h: f64, quick: bool) {
        let hv = F4::splat(h);
        let s = hv * self.inv_mass;
        for k in 0..3 {
            self.lvel[k] += s * self.facc[k];
        }
        let t = [self.tacc[0] * hv, self.tacc[1] * hv, self.tacc[2] * hv];
        if quick {
            self.tacc = t;
        }
        let dw = mul0_331_4(inv_i, &t);
        for k in 0..3 {
            self.avel[k] += dw[k];
        }
    }
}

impl FreeLanes {
    /// For four bodies of a larger island (after gravity): the
    /// world-frame inverse inertias into `out` (padded rows, as
    /// `rotate_tensor` gives) and the gyroscopic torques into `tacc`;
    /// `store_tacc` then writes each lane's back.
    pub fn island_inertia(&mut self, h: f64, out: &mut [[f64; 12]; 4]) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx") {
            // SAFETY: AVX is present (checked just above).
            unsafe { self.island_inertia_avx(h, out) };
            return;
        }
        self.island_inertia_body(h, out);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    unsafe fn island_inertia_avx(&mut self, h: f64, out: &mut [[f64; 12]; 4]) {
        self.island_inertia_body(h, out);
    }

    #[inline(always)]
    fn island_inertia_body(&mut self, h: f64, out: &mut [[f64; 12]; 4]) {
        let inv_i = self.inertia_and_gyroscopic(h);
        for (l, o) in out.iter_mut().enumerate() {
            for i in 0..3 {
                for j in 0..3 {
                    o[4 * i + j] = inv_i[3 * i + j][l];
                }
                o[4 * i + 3] = 0.0;
            }
        }
    }

    /// Lane `l`'s torque accumulator into body `b`.
    #[inline(always)]
    pub fn store_tacc(&self, l: usize, b: &mut Body) {
        for i in 0..3 {
            b.tacc[i] = self.tacc[i][l];
        }
    }
}

/// `step_body`'s move for four bodies without a speed cap or finite
/// rotation: position, quaternion (infinitesimal update, normalised) and
/// R from q, in the scalar operation order. `ok[l]` is false where the
/// scalar path would do something else (flags, a quaternion that needs
/// the fallback normalisation, a result outside the huge bound); such a
/// lane's results are not to be used.
#[derive(Clone, Copy, Default)]
pub struct MoveLanes {
    pub pos: [F4; 3],
    pub q: [F4; 4],
    pub r: M4,
    pub ok: [bool; 4],
}

impl FreeLanes {
    /// Moves the lanes with their updated velocities (see `MoveLanes`);
    /// `pos` and `q` are the bodies' before the move, `plain[l]` whether
    /// body `l` has neither a speed cap nor finite rotation.
    #[inline(always)]
    pub fn moved(&self, pos: &[F4; 3], q: &[F4; 4], plain: [bool; 4], h: f64) -> MoveLanes {
        let hv = F4::splat(h);
        let p = [pos[0] + hv * self.lvel[0], pos[1] + hv * self.lvel[1], pos[2] + hv * self.lvel[2]];
        let w = &self.avel;
        let half = F4::splat(0.5);
        let dq = [
            half * (-w[0] * q[1] - w[1] * q[2] - w[2] * q[3]),
            half * (w[0] * q[0] + w[1] * q[3] - w[2] * q[2]),
            half * (-w[0] * q[3] + w[1] * q[0] + w[2] * q[1]),
            half * (w[0] * q[2] - w[1] * q[1] + w[2] * q[0]),
        ];
        let mut nq = [q[0] + hv * dq[0], q[1] + hv * dq[1], q[2] + hv * dq[2], q[3] + hv * dq[3]];
        let l = nq[0] * nq[0] + nq[1] * nq[1] + nq[2] * nq[2] + nq[3] * nq[3];
        let k = F4::splat(1.0) / F4::from_array(l.to_array().map(f64::sqrt));
        for v in nq.iter_mut() {
            *v *= k;
        }
        let two = F4::splat(2.0);
        let one = F4::splat(1.0);
        let qq1 = two * nq[1] * nq[1];
        let qq2 = two * nq[2] * nq[2];
        let qq3 = two * nq[3] * nq[3];
        let r = [
            one - qq2 - qq3,
            two * (nq[1] * nq[2] - nq[0] * nq[3]),
            two * (nq[1] * nq[3] + nq[0] * nq[2]),
            two * (nq[1] * nq[2] + nq[0] * nq[3]),
            one - qq1 - qq3,
            two * (nq[2] * nq[3] - nq[0] * nq[1]),
            two * (nq[1] * nq[3] - nq[0] * nq[2]),
            two * (nq[2] * nq[3] + nq[0] * nq[1]),
            one - qq1 - qq2,
        ];
        let mut ok = [false; 4];
        for i in 0..4 {
            let pl = [p[0][i], p[1][i], p[2][i]];
            let ql = [nq[0][i], nq[1][i], nq[2][i], nq[3][i]];
            let lv = [self.lvel[0][i], self.lvel[1][i], self.lvel[2][i], 0.0];
            let av = [self.avel[0][i], self.avel[1][i], self.avel[2][i], 0.0];
            ok[i] = plain[i] & (l[i] > 0.0) & (l[i] < f64::INFINITY) & within_huge(&pl, &ql, &lv, &av);
        }
        MoveLanes { pos: p, q: nq, r, ok }
    }
}

impl MoveLanes {
    /// Lane `l`'s position, orientation and R into body `b` (an `ok` lane).
    #[inline(always)]
    pub fn store(&self, l: usize, b: &mut Body) {
        for k in 0..3 {
            b.pos[k] = self.pos[k][l];
        }
        b.q = std::array::from_fn(|k| self.q[k][l]);
        for i in 0..3 {
            for j in 0..3 {
                b.r[4 * i + j] = self.r[3 * i + j][l];
            }
            b.r[4 * i + 3] = 0.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;
    use crate::dynamics::body::{create_body, free_world};
    use crate::dynamics::world::create_world;
    use crate::math::rotation::q_to_r;


    /// A random body state: orientation, inertia (sometimes zero:
    /// kinematic, or massive with a singular gyroscopic matrix),
    /// velocities, accumulators and the flags the batch handles.
    fn randomise(b: &mut Body, rng: &mut Rng) {
        let mut q = [rng.sym(1.0), rng.sym(1.0), rng.sym(1.0), rng.sym(1.0)];
        let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
        q.iter_mut().for_each(|v| *v /= n);
        b.q = q;
        b.r = q_to_r(&q);
        b.pos = [rng.sym(100.0), rng.sym(100.0), rng.sym(100.0), 0.0];
        let kind = rng.unit();
        let (mass, mut inertia) = (rng.unit() * 5.0 + 0.1, [0.0; 12]);
        for i in 0..3 {
            for j in 0..=i {
                let v = if i == j { rng.unit() * 2.0 + 0.05 } else { rng.sym(0.1) };
                inertia[4 * i + j] = v;
                inertia[4 * j + i] = v;
            }
        }
        b.mass.mass = mass;
        b.mass.I = inertia;
        if kind < 0.15 {
            // Kinematic: no inverse mass or inertia.
            b.inv_mass = 0.0;
            b.inv_i = [0.0; 12];
        } else if kind < 0.25 {
            // Massive but zero inertia: the gyroscopic matrix is singular
            // exactly when L = 0, so also zero the angular velocity sometimes.
            b.mass.I = [0.0; 12];
            b.inv_mass = 1.0 / mass;
            b.inv_i = [0.0; 12];
        } else {
            b.inv_mass = 1.0 / mass;
            b.inv_i = invert3(&inertia).unwrap();
        }
        for k in 0..3 {
            b.avel[k] = if (0.15..0.2).contains(&kind) { 0.0 } else { rng.sym(20.0) };
            b.lvel[k] = rng.sym(10.0);
            b.facc[k] = rng.sym(50.0);
            b.tacc[k] = rng.sym(5.0);
        }
        b.flags = 0;
        if rng.unit() < 0.3 {
            b.flags |= flags::NO_GRAVITY;
        }
        if rng.unit() < 0.7 {
            b.flags |= flags::GYROSCOPIC;
        }
    }

    /// The scalar stages of a one-body island (pipeline's
    /// apply_external_forces, then the free island's velocity update).
    fn scalar(b: &mut Body, g: &[f64; 3], h: f64, quick: bool) {
        for (axis, &g) in g.iter().enumerate() {
            if g != 0.0 && b.flags & flags::NO_GRAVITY == 0 {
                b.facc[axis] += b.mass.mass * g;
            }
        }
        b.tag = 0;
        let ii = rotate_tensor(&b.inv_i, &b.r);
        if b.flags & flags::GYROSCOPIC != 0 && b.inv_mass > 0.0 {
            add_gyroscopic_torque(b, h);
        }
        if quick {
            update_velocity_quick(b, &ii, h);
        } else {
            update_velocity(b, &ii, h);
        }
    }

    /// What the stages read and write, to copy inputs between bodies.
    #[derive(Clone)]
    struct St {
        flags: u32,
        mass: crate::math::mass::Mass,
        inv_mass: f64,
        inv_i: [f64; 12],
        r: [f64; 12],
        v: [[f64; 4]; 4],
        pos: [f64; 4],
        q: [f64; 4],
    }
    fn take(b: &Body) -> St {
        St {
            flags: b.flags,
            mass: b.mass,
            inv_mass: b.inv_mass,
            inv_i: b.inv_i,
            r: b.r,
            v: [b.facc, b.tacc, b.lvel, b.avel],
            pos: b.pos,
            q: b.q,
        }
    }
    fn put(s: &St, b: &mut Body) {
        b.flags = s.flags;
        b.mass = s.mass;
        b.inv_mass = s.inv_mass;
        b.inv_i = s.inv_i;
        b.r = s.r;
        [b.facc, b.tacc, b.lvel, b.avel] = s.v;
        b.pos = s.pos;
        b.q = s.q;
        b.tag = -1;
    }
    fn bits(b: &Body) -> Vec<u64> {
        let v = [&b.facc[..3], &b.tacc[..3], &b.lvel[..3], &b.avel[..3]].concat();
        v.iter().map(|x| x.to_bits()).chain([b.tag as u64]).collect()
    }

    /// Four random bodies through `FreeLanes` (the AVX and the plain
    /// build) and one at a time through the scalar stages: the same bits.
    #[test]
    fn free_lanes_match_the_scalar_stages_bit_for_bit() {
        let w = create_world();
        let a = create_body(w);
        let b = create_body(w);
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut gyro, mut singular, mut moves) = (0, 0, 0);
        for round in 0..4000 {
            let gravity = [
                if rng.unit() < 0.5 { 0.0 } else { rng.sym(10.0) },
                if rng.unit() < 0.5 { 0.0 } else { rng.sym(10.0) },
                if round % 3 == 0 { 0.0 } else { rng.sym(10.0) },
            ];
            let h = if round % 2 == 0 { 0.01 } else { rng.unit() * 0.05 + 1e-4 };
            let quick = round % 4 < 2;
            let inputs: Vec<St> = (0..4)
                .map(|_| {
                    randomise(a.get_mut(), &mut rng);
                    take(a.get())
                })
                .collect();
            // Bodies of a larger island: inverse inertia and gyroscopic
            // torque only.
            let mut lanes = FreeLanes::default();
            for (l, st) in inputs.iter().enumerate() {
                put(st, a.get_mut());
                lanes.load(l, a.get());
            }
            let mut out = [[0.0; 12]; 4];
            lanes.island_inertia(h, &mut out);
            for (l, st) in inputs.iter().enumerate() {
                put(st, b.get_mut());
                let want = rotate_tensor(&st.inv_i, &st.r);
                if st.flags & flags::GYROSCOPIC != 0 && st.inv_mass > 0.0 {
                    add_gyroscopic_torque(b.get_mut(), h);
                }
                put(st, a.get_mut());
                lanes.store_tacc(l, a.get_mut());
                assert_eq!(out[l].map(f64::to_bits), want.map(f64::to_bits), "island inv_i: round {round} lane {l}");
                assert_eq!(bits(a.get()), bits(b.get()), "island torque: round {round} lane {l}");
            }
            for plain in [false, true] {
                let mut lanes = FreeLanes::default();
                let mut pos = [F4::default(); 3];
                let mut q = [F4::default(); 4];
                for (l, st) in inputs.iter().enumerate() {
                    put(st, a.get_mut());
                    lanes.load(l, a.get());
                    (0..3).for_each(|k| pos[k][l] = st.pos[k]);
                    (0..4).for_each(|k| q[k][l] = st.q[k]);
                }
                let mv = if plain {
                    lanes.forces_and_velocity_body(&gravity, h, quick);
                    lanes.moved(&pos, &q, [true; 4], h)
                } else {
                    lanes.forces_and_velocity(&gravity, h, quick, &pos, &q, [true; 4])
                };
                for (l, st) in inputs.iter().enumerate() {
                    put(st, a.get_mut());
                    lanes.store(l, a.get_mut());
                    put(st, b.get_mut());
                    scalar(b.get_mut(), &gravity, h, quick);
                    assert_eq!(bits(a.get()), bits(b.get()), "round {round} lane {l} plain {plain}");
                    // The move: what step_body stores.
                    assert!(step_body(b, h));
                    if mv.ok[l] {
                        mv.store(l, a.get_mut());
                        let (x, y) = (a.get(), b.get());
                        let moved = |b: &Body| -> Vec<u64> { b.pos.iter().chain(&b.q).chain(&b.r).map(|v| v.to_bits()).collect() };
                        assert_eq!(moved(x), moved(y), "move: round {round} lane {l} plain {plain}");
                        moves += 1;
                    }
                    if !plain && st.flags & flags::GYROSCOPIC != 0 && st.inv_mass > 0.0 {
                        gyro += 1;
                        singular += usize::from(st.mass.I == [0.0; 12] && st.v[3] == [0.0; 4]);
                    }
                }
            }
        }
        // The gyroscopic term and its singular case were both exercised.
        assert!(gyro > 5000 && singular > 100 && moves == 8 * 4000, "{gyro} {singular} {moves}");
        free_world(w);
    }
}
