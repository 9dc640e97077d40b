//! One time step of a world (`dWorldStep` / `dWorldQuickStep`).
//!
//! A step runs, in ODE's order:
//! 1. auto-disable bookkeeping over all bodies with at least one joint
//!    (`autodisable`);
//! 2. island building (`build_islands`): enabled bodies and active joints
//!    (enabled, with a dynamic body) are gathered into flat arrays, one
//!    island per connected group, in ODE's traversal order; disabled
//!    bodies reached through an active joint are woken;
//! 3. per island: gravity is added to the force accumulators, the inverse
//!    inertia is rotated into the world frame and the implicit gyroscopic
//!    torque is added; the joints report their rows (`solver::gather_info1`);
//!    with rows, they are assembled (`solver::assemble_rows`, in
//!    `order_for_step`'s order for the Step) and solved, and the velocities
//!    get the constraint forces; then every body is moved (`step_body`) and
//!    its accumulators are cleared.
//!
//! Islands without rows take the free-body path, where the two steppers
//! differ only where ODE's do: the QuickStep scales the torque accumulator
//! by `h` in place (visible to a moved callback) and updates all velocities
//! of an island before moving its bodies, while the Step handles one body
//! at a time. Arithmetic is written in ODE's operation order so
//! trajectories agree bit for bit.
//!
//! Disabled bodies are skipped entirely (their accumulators keep
//! growing). Kinematic bodies (zero inverse mass and inertia) go through
//! the same arithmetic and are thereby moved by their velocity only; they
//! take part in islands like other bodies.

use super::autodisable;
use super::body::{Body, BodyRef};
use super::world::{flags, StepScratch, World, WorldRef};
use crate::joints;
use crate::solver::{self, assemble_rows, gather_info1, order_for_step, IslandInput};
use crate::math::rotation::{dq_from_w, q_mult0, q_to_r};
use crate::math::mat3::{invert3, mul0_331, mul0_333, rotate_tensor};
use crate::math::vec::{dot3, normalize4};

/// Advances world `w` by `h` (> 0, checked by the caller) with the Step
/// (`quick == false`) or the QuickStep stepper.
pub fn step_world(w: WorldRef, h: f64, quick: bool) {
    w.get_mut().step_settings.has_working_memory = true;

    // ODE never auto-disables a body without joints (it would freeze in
    // mid-air); any attached joint counts, enabled or not.
    autodisable::handle_auto_disabling(w, h, |b| !b.joints.is_empty());

    // The scratch buffers are taken out of the world while stepping, so
    // that host callbacks may use the world freely.
    let mut scratch = std::mem::take(&mut w.get_mut().scratch);
    build_islands(w.get(), &mut scratch);

    let mut b0 = 0;
    let mut j0 = 0;
    for k in 0..scratch.island_sizes.len() {
        if !w.is_live() {
            return; // destroyed by a callback: nothing left to step
        }
        let (nb, nj) = (scratch.island_sizes[k], scratch.island_joints[k]);
        step_island(w.get(), &mut scratch, (b0, nb), (j0, nj), h, quick);
        b0 += nb;
        j0 += nj;
    }
    if w.is_live() {
        w.get_mut().scratch = scratch;
    }
}

/// Partitions the enabled bodies into islands connected by active joints,
/// in ODE's traversal order: islands start from the world's bodies newest
/// first; from each body its joints are visited most recently attached
/// first, and newly reached bodies are stacked (last in, first visited).
/// A disabled body reached through an active joint is enabled (its idle
/// counters are left as they are); disabled bodies never start an island.
fn build_islands(world: &World, s: &mut StepScratch) {
    s.bodies.clear();
    s.island_sizes.clear();
    s.joints.clear();
    s.island_joints.clear();
    s.stack.clear();
    for b in world.bodies_in_ode_order() {
        b.get_mut().tag = 0;
    }
    for j in world.joints_in_ode_order() {
        j.get_mut().head.tag = 0;
    }
    for root in world.bodies_in_ode_order() {
        if root.get().tag != 0 {
            continue;
        }
        if !root.get().is_enabled() {
            root.get_mut().tag = -1;
            continue;
        }
        root.get_mut().tag = 1;
        let (nb0, nj0) = (s.bodies.len(), s.joints.len());
        s.bodies.push(root);
        let mut b = root;
        loop {
            for j in b.get().joints_in_ode_order() {
                let head = &mut j.get_mut().head;
                if head.tag != 0 {
                    continue;
                }
                if !head.is_active() {
                    head.tag = -1;
                    continue;
                }
                head.tag = 1;
                s.joints.push(j);
                if let Some(other) = joints::object::other_body(j, b) {
                    let ob = other.get_mut();
                    if ob.tag <= 0 {
                        ob.tag = 1;
                        ob.flags &= !flags::DISABLED;
                        s.stack.push(other);
                    }
                }
            }
            match s.stack.pop() {
                Some(next) => {
                    s.bodies.push(next);
                    b = next;
                }
                None => break,
            }
        }
        s.island_sizes.push(s.bodies.len() - nb0);
        s.island_joints.push(s.joints.len() - nj0);
    }
}

/// Steps one island: bodies `bodies.0 ..+ bodies.1` and joints
/// `joints.0 ..+ joints.1` of the scratch lists.
fn step_island(world: &World, s: &mut StepScratch, bodies: (usize, usize), joints: (usize, usize), h: f64, quick: bool) {
    let bodies_all = std::mem::take(&mut s.bodies);
    let island = &bodies_all[bodies.0..bodies.0 + bodies.1];
    let island_joints = &s.joints[joints.0..joints.0 + joints.1];

    // Gravity, one axis at a time and only for a nonzero component.
    let gravity = world.gravity;
    for (axis, &g) in gravity.iter().enumerate() {
        if g != 0.0 {
            for &b in island {
                let b = b.get_mut();
                if b.flags & flags::NO_GRAVITY == 0 {
                    b.facc[axis] += b.mass.mass * g;
                }
            }
        }
    }

    s.inv_i.clear();
    for (i, &b) in island.iter().enumerate() {
        let b = b.get_mut();
        b.tag = i as i32;
        s.inv_i.push(rotate_tensor(&b.inv_i, &b.r));
        if b.flags & flags::GYROSCOPIC != 0 && b.inv_mass > 0.0 {
            add_gyroscopic_torque(b, h);
        }
    }

    // Constraint rows of the island's joints (joints without rows only
    // linked the island together).
    let m = if island_joints.is_empty() { 0 } else { gather_info1(island_joints, &mut s.infos) };

    if m == 0 {
        free_island(island, &s.inv_i, h, quick);
    } else if quick {
        assemble_rows(world, &s.infos, h, &mut s.rows);
        let input = IslandInput { world, bodies: island, inv_i: &s.inv_i, h };
        // Updates every island body's velocity (constraint and external
        // forces, torque accumulator scaled by h in place) and the feedback.
        solver::quick::solve_island(&input, &mut s.rows, &mut s.solver);
        for &b in island {
            if b.is_live() {
                step_body(b, h);
                clear_accumulators(b);
            }
        }
    } else {
        let nub = order_for_step(&s.infos, &mut s.ordered);
        assemble_rows(world, &s.ordered, h, &mut s.rows);
        let input = IslandInput { world, bodies: island, inv_i: &s.inv_i, h };
        solver::step::solve_island(&input, &s.rows, nub, &mut s.step);
        for (i, &b) in island.iter().enumerate() {
            if b.is_live() {
                if s.step.has_cforce[i] {
                    update_velocity_constrained(b.get_mut(), &s.inv_i[i], &s.step.cforce[i], h);
                } else {
                    update_velocity(b.get_mut(), &s.inv_i[i], h);
                }
                step_body(b, h);
                clear_accumulators(b);
            }
        }
    }
    s.bodies = bodies_all;
}

/// An island without constraint rows: external forces only.
fn free_island(bodies: &[BodyRef], inv_i: &[[f64; 12]], h: f64, quick: bool) {
    if quick {
        for (&b, ii) in bodies.iter().zip(inv_i.iter()) {
            update_velocity_quick(b.get_mut(), ii, h);
        }
        for &b in bodies {
            if b.is_live() {
                step_body(b, h);
                clear_accumulators(b);
            }
        }
    } else {
        for (&b, ii) in bodies.iter().zip(inv_i.iter()) {
            if b.is_live() {
                update_velocity(b.get_mut(), ii, h);
                step_body(b, h);
                clear_accumulators(b);
            }
        }
    }
}

/// Step's velocity update with a constraint force `c` (Jᵀλ, linear then
/// angular): v += (c + F)·(h·invMass), w += invI·((c + T)·h).
fn update_velocity_constrained(b: &mut Body, inv_i: &[f64; 12], c: &[f64; 6], h: f64) {
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
fn update_velocity(b: &mut Body, inv_i: &[f64; 12], h: f64) {
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
fn update_velocity_quick(b: &mut Body, inv_i: &[f64; 12], h: f64) {
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

fn clear_accumulators(b: BodyRef) {
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
fn add_gyroscopic_torque(b: &mut Body, h: f64) {
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
pub fn step_body(bref: BodyRef, h: f64) {
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

        for k in 0..3 {
            b.pos[k] += h * b.lvel[k];
        }

        if b.flags & flags::FINITE_ROTATION != 0 {
            rotate_finite(b, h);
        } else {
            let dq = dq_from_w(&b.avel, &b.q);
            for k in 0..4 {
                b.q[k] += h * dq[k];
            }
        }
        normalize4(&mut b.q);
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
            return;
        }
    }

    let b = bref.get_mut();
    if b.flags & flags::LINEAR_DAMPING != 0 && dot3(&b.lvel, &b.lvel) > b.dampingp.linear_threshold {
        let k = 1.0 - b.dampingp.linear_scale;
        for v in b.lvel.iter_mut().take(3) {
            *v *= k;
        }
    }
    if b.flags & flags::ANGULAR_DAMPING != 0 && dot3(&b.avel, &b.avel) > b.dampingp.angular_threshold {
        let k = 1.0 - b.dampingp.angular_scale;
        for v in b.avel.iter_mut().take(3) {
            *v *= k;
        }
    }
}

/// Finite rotation: the rotation by w·h (or by its component along the
/// finite rotation axis) is applied exactly as a quaternion; with an axis,
/// the remaining component is applied infinitesimally afterwards. Like
/// ODE, that infinitesimal part uses the halved step.
fn rotate_finite(b: &mut Body, h: f64) {
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
    b.q = q_mult0(&rot, &b.q);
    if with_axis {
        let dq = dq_from_w(&irv, &b.q);
        for k in 0..4 {
            b.q[k] += hh * dq[k];
        }
    }
}

/// sin(x)/x, with the two-term Taylor series near zero as ODE uses.
fn sinc(x: f64) -> f64 {
    if x.abs() < 1.0e-4 {
        1.0 - x * x * 0.166666666666666666667
    } else {
        x.sin() / x
    }
}

