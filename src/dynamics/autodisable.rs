//! Auto-disable: idle detection that puts resting bodies to sleep.
//!
//! Run at the start of every step, before islands are built, over the
//! world's body list in ODE order. A body is examined only if it is
//! enabled, has its auto-disable flag, samples at least one velocity and is
//! attached to a joint (ODE never puts a free-flying body to sleep). Its
//! velocities go into a ring buffer; once the buffer is full, the squared
//! norms of the averaged velocities are compared with the squared
//! thresholds. Idle steps count down the step and time budgets; any motion
//! resets them. When both budgets are exhausted the body is disabled and
//! its velocities are zeroed.

use super::body::Body;
use super::world::{flags, WorldRef};

/// Examines every body of `w` for the step of size `h`. `attached` tells
/// whether a body is connected to at least one joint.
pub fn handle_auto_disabling(w: WorldRef, h: f64, attached: impl Fn(&Body) -> bool) {
    for b in w.get().bodies_in_ode_order() {
        let body = b.get_mut();
        if attached(body) {
            auto_disable_body(body, h);
        }
    }
}

/// One body's idle bookkeeping for a step of size `h` (the caller has
/// checked that the body is attached to a joint).
pub fn auto_disable_body(b: &mut Body, h: f64) {
    if b.flags & (flags::AUTO_DISABLE | flags::DISABLED) != flags::AUTO_DISABLE {
        return;
    }
    let n = b.adis.average_samples as usize;
    if n == 0 {
        return;
    }
    if b.average_lvel.len() != n || b.average_avel.len() != n {
        // The sample count changed without the buffers following it:
        // restart averaging with buffers of the right size.
        b.resize_average_buffers();
    }
    if b.average_counter as usize >= n {
        b.average_counter = 0;
        b.average_ready = false;
    }

    let slot = b.average_counter as usize;
    b.average_lvel[slot] = [b.lvel[0], b.lvel[1], b.lvel[2]];
    b.average_avel[slot] = [b.avel[0], b.avel[1], b.avel[2]];
    b.average_counter += 1;
    if b.average_counter as usize >= n {
        b.average_counter = 0;
        b.average_ready = true;
    }

    let mut idle = false;
    if b.average_ready {
        let mut lin = b.average_lvel[0];
        let mut ang = b.average_avel[0];
        if n > 1 {
            for i in 1..n {
                for k in 0..3 {
                    lin[k] += b.average_lvel[i][k];
                    ang[k] += b.average_avel[i][k];
                }
            }
            let r = 1.0 / n as f64;
            for k in 0..3 {
                lin[k] *= r;
                ang[k] *= r;
            }
        }
        // Written as "not above" so that NaN speeds count as idle, as in ODE.
        idle = !(dot(&lin) > b.adis.linear_average_threshold) && !(dot(&ang) > b.adis.angular_average_threshold);
    }

    if idle {
        b.adis_stepsleft = b.adis_stepsleft.wrapping_sub(1);
        b.adis_timeleft -= h;
    } else {
        b.adis_stepsleft = b.adis.idle_steps;
        b.adis_timeleft = b.adis.idle_time;
    }

    if b.adis_stepsleft <= 0 && b.adis_timeleft <= 0.0 {
        b.flags |= flags::DISABLED;
        for k in 0..3 {
            b.lvel[k] = 0.0;
            b.avel[k] = 0.0;
        }
    }
}

#[inline]
fn dot(v: &[f64; 3]) -> f64 {
    v[0] * v[0] + v[1] * v[1] + v[2] * v[2]
}
