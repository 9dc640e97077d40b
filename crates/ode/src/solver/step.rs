//! `dWorldStep`'s constraint solve for one island (ODE's "big matrix"
//! method).
//!
//! With J the island's constraint Jacobian (rows ordered by
//! `order_for_step`), M the bodies' mass matrix, h the step, f the external
//! forces and v the velocities, the constraint forces λ solve the boxed LCP
//!
//!   (J·M⁻¹·Jᵀ + CFM/h)·λ = c/h − J·(v/h + M⁻¹·f)
//!
//! with each row's bounds (friction rows scaled by their normal force).
//! The constraint force on each body is then Jᵀλ, and the integrator
//! updates v += h·M⁻¹·(f + Jᵀλ) before moving the bodies.
//!
//! The matrix is built blockwise in ODE's order (diagonal block per joint
//! and body, then coupling blocks with earlier joints sharing the body,
//! found through the body's joint list), so that A, the right-hand side and
//! hence λ are the same floating-point numbers as ODE's. Only the lower
//! triangle of A is filled; the LCP reads only that.
//!
//! As in ODE 0.16, λ is not kept in the joints by this stepper (only the
//! QuickStep warm-starts from them).

use super::lcp::{solve_lcp, LcpScratch};
use super::{IslandInput, IslandRows};
use crate::math::mat3::mul0_331;
use crate::math::matrix::pad;

/// Reusable buffers of the Step solver.
#[derive(Default)]
pub struct StepBuffers {
    /// J·M⁻¹, two 6-vectors per row (body 1, body 2).
    jinvm: Vec<[f64; 6]>,
    a: Vec<f64>,
    rhs: Vec<f64>,
    /// λ of the last solve, one per row (rows in the order solved).
    pub lambda: Vec<f64>,
    lo: Vec<f64>,
    hi: Vec<f64>,
    findex: Vec<i32>,
    /// v/h + M⁻¹·f per body.
    rhs_tmp: Vec<[f64; 6]>,
    /// Jᵀλ per body and whether any constraint acts on the body.
    pub cforce: Vec<[f64; 6]>,
    pub has_cforce: Vec<bool>,
    lcp: LcpScratch,
}

#[inline]
fn j1(r: &crate::joints::Row) -> [f64; 6] {
    [r.j1l[0], r.j1l[1], r.j1l[2], r.j1a[0], r.j1a[1], r.j1a[2]]
}

#[inline]
fn j2(r: &crate::joints::Row) -> [f64; 6] {
    [r.j2l[0], r.j2l[1], r.j2l[2], r.j2a[0], r.j2a[1], r.j2a[2]]
}

/// Row vector times the 3×3 part of a padded matrix: (v·B)_i.
#[inline]
fn mul_133(v: &[f64], b: &[f64; 12]) -> [f64; 3] {
    let mut r = [0.0; 3];
    for (i, ri) in r.iter_mut().enumerate() {
        *ri = v[0] * b[i] + v[1] * b[4 + i] + v[2] * b[8 + i];
    }
    r
}

/// Six-term dot product accumulated term by term from the first.
#[inline]
fn dot6(a: &[f64; 6], b: &[f64; 6]) -> f64 {
    let mut s = a[0] * b[0];
    s += a[1] * b[1];
    s += a[2] * b[2];
    s += a[3] * b[3];
    s += a[4] * b[4];
    s += a[5] * b[5];
    s
}

/// Solves the island's constraints. `nub` is the number of leading joints
/// whose rows are all unbounded (from `order_for_step`). On return
/// `buf.cforce[i]` holds Jᵀλ of body i (when `buf.has_cforce[i]`), and the
/// joints' feedback records are filled.
pub fn solve_island(input: &IslandInput<'_>, rows: &IslandRows, nub: usize, buf: &mut StepBuffers) {
    let nb = input.bodies.len();
    let m = rows.rows.len();
    let recip = 1.0 / input.h;
    buf.cforce.clear();
    buf.cforce.resize(nb, [0.0; 6]);
    buf.has_cforce.clear();
    buf.has_cforce.resize(nb, false);
    if m == 0 {
        return;
    }
    let skip = pad(m);

    // Right-hand side and CFM per unit time; bounds and friction indices.
    buf.rhs.clear();
    buf.lo.clear();
    buf.hi.clear();
    buf.findex.clear();
    for r in &rows.rows {
        buf.rhs.push(r.c * recip);
        buf.lo.push(r.lo);
        buf.hi.push(r.hi);
        buf.findex.push(r.findex);
    }

    // J·M⁻¹.
    buf.jinvm.clear();
    buf.jinvm.resize(2 * m, [0.0; 6]);
    for slot in &rows.joints {
        for (k, bi) in [slot.b1, slot.b2].into_iter().enumerate() {
            let Some(bi) = bi else { continue };
            let body = input.bodies[bi].get();
            let inv_mass = body.inv_mass;
            let inv_i = &input.inv_i[bi];
            for r in slot.row0..slot.row0 + slot.m {
                let row = &rows.rows[r];
                let (l, a) = if k == 0 { (&row.j1l, &row.j1a) } else { (&row.j2l, &row.j2a) };
                let ang = mul_133(a, inv_i);
                buf.jinvm[2 * r + k] = [l[0] * inv_mass, l[1] * inv_mass, l[2] * inv_mass, ang[0], ang[1], ang[2]];
            }
        }
    }

    // A = J·M⁻¹·Jᵀ + CFM/h, lower block triangle, joint by joint. Each
    // row is written up to the end of its joint's diagonal block and only
    // the lower triangle is read, so only that part is cleared (clearing
    // all of A was a tenth of a ragdoll step). Debug builds fill the rest
    // with NaN, so that a read of it would show in every test.
    // Rows on 64-byte boundaries (`skip` is a multiple of 4).
    let a_at = crate::math::matrix::cache_aligned(&mut buf.a, m * skip, 0.0);
    let a = &mut buf.a[a_at];
    for slot in &rows.joints {
        let end = slot.row0 + slot.m;
        for r in slot.row0..end {
            let row = &mut a[r * skip..(r + 1) * skip];
            row[..end].fill(0.0);
            if cfg!(debug_assertions) {
                row[end..].fill(f64::NAN);
            }
        }
    }
    for r in 0..m {
        a[r * skip + r] = rows.rows[r].cfm * recip;
    }
    for (ji, slot) in rows.joints.iter().enumerate() {
        let joint = slot.joint.get();
        for (k, body) in joint.head.body.iter().enumerate() {
            let Some(body) = *body else { continue };
            // Diagonal block through this body.
            for i in 0..slot.m {
                let jm = &buf.jinvm[2 * (slot.row0 + i) + k];
                for j in 0..slot.m {
                    let row = &rows.rows[slot.row0 + j];
                    let jr = if k == 0 { j1(row) } else { j2(row) };
                    a[(slot.row0 + i) * skip + slot.row0 + j] += dot6(jm, &jr);
                }
            }
            if ji == 0 {
                continue;
            }
            // Coupling with earlier joints sharing this body.
            for other in crate::joints::object::body_joints(body.get()) {
                let t = other.get().head.tag;
                if t == -1 || t as usize >= ji {
                    continue;
                }
                let os = &rows.joints[t as usize];
                let second = other.get().head.body[1] == Some(body);
                for i in 0..slot.m {
                    let jm = &buf.jinvm[2 * (slot.row0 + i) + k];
                    for j in 0..os.m {
                        let row = &rows.rows[os.row0 + j];
                        let jr = if second { j2(row) } else { j1(row) };
                        a[(slot.row0 + i) * skip + os.row0 + j] += dot6(jm, &jr);
                    }
                }
            }
        }
    }

    // v/h + M⁻¹·f per body, then rhs -= J·that.
    buf.rhs_tmp.clear();
    for (bi, &b) in input.bodies.iter().enumerate() {
        let b = b.get();
        let mut t = [0.0; 6];
        for j in 0..3 {
            t[j] = b.facc[j] * b.inv_mass + b.lvel[j] * recip;
        }
        let ang = mul0_331(&input.inv_i[bi], &b.tacc);
        for k in 0..3 {
            t[3 + k] = ang[k] + b.avel[k] * recip;
        }
        buf.rhs_tmp.push(t);
    }
    for slot in &rows.joints {
        for (k, bi) in [slot.b1, slot.b2].into_iter().enumerate() {
            let Some(bi) = bi else { continue };
            let t = buf.rhs_tmp[bi];
            for r in slot.row0..slot.row0 + slot.m {
                let row = &rows.rows[r];
                let jr = if k == 0 { j1(row) } else { j2(row) };
                buf.rhs[r] -= dot6(&jr, &t);
            }
        }
    }

    buf.lambda.clear();
    buf.lambda.resize(m, 0.0);
    let has_friction = buf.findex.iter().any(|&f| f >= 0);
    solve_lcp(
        m,
        a,
        &mut buf.lambda,
        &mut buf.rhs,
        None,
        nub,
        &mut buf.lo,
        &mut buf.hi,
        if has_friction { Some(&mut buf.findex[..]) } else { None },
        &mut buf.lcp,
    );

    // Jᵀλ per body and the feedback records.
    constraint_forces(rows, &buf.lambda, &mut buf.cforce, &mut buf.has_cforce);
}

/// Jᵀλ per body into `cforce` (marking `has_cforce`), joints in reverse
/// order as ODE accumulates them, and the joints' feedback records (world
/// frame, about each body's centre). Shared by the fast Step.
pub(super) fn constraint_forces(rows: &IslandRows, lambda: &[f64], cforce: &mut [[f64; 6]], has_cforce: &mut [bool]) {
    for slot in rows.joints.iter().rev() {
        let fb = slot.joint.get().head.feedback;
        for (k, bi) in [slot.b1, slot.b2].into_iter().enumerate() {
            let Some(bi) = bi else { continue };
            let mut f = [0.0; 6];
            for r in slot.row0..slot.row0 + slot.m {
                let row = &rows.rows[r];
                let jr = if k == 0 { j1(row) } else { j2(row) };
                let l = lambda[r];
                for e in 0..6 {
                    f[e] += jr[e] * l;
                }
            }
            if !fb.is_null() {
                // SAFETY: the host registered this record with
                // dJointSetFeedback and must keep it valid while the joint
                // lives (ODE's contract).
                let fb = unsafe { &mut *fb };
                let (force, torque) = if k == 0 { (&mut fb.f1, &mut fb.t1) } else { (&mut fb.f2, &mut fb.t2) };
                force[..3].copy_from_slice(&f[..3]);
                torque[..3].copy_from_slice(&f[3..]);
            }
            let c = &mut cforce[bi];
            for e in 0..6 {
                c[e] += f[e];
            }
            has_cforce[bi] = true;
        }
    }
}
