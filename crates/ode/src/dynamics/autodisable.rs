//! Auto-disable: idle detection that puts resting bodies to sleep.
//!
//! Run at the start of every step, before islands are built, over the
//! world's body list in ODE order. A body is examined only if it is
//! enabled, has its auto-disable flag, samples at least one velocity and is
//! attached to a joint, enabled or not (ODE never puts a free-flying body to
//! sleep). Its
//! velocities go into a ring buffer; once the buffer is full, the squared
//! norms of the averaged velocities are compared with the squared
//! thresholds. Idle steps count down the step and time budgets; any motion
//! resets them. When both budgets are exhausted the body is disabled and
//! its velocities are zeroed.

use super::body::{world_bodies, Body};
use super::world::{flags, WorldRef};

/// Examines every body of `w` for the step of size `h`. `attached` tells
/// whether a body is connected to at least one joint.
pub fn handle_auto_disabling(w: WorldRef, h: f64, attached: impl Fn(&Body) -> bool) {
    for b in world_bodies(w.get()) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamics::body::{create_body, free_world as destroy_world};
    use crate::dynamics::world::create_world;

    /// A body with auto-disable on and the given budgets, run through
    /// `auto_disable_body` with its velocity held at `v` until it is
    /// disabled; returns the number of calls it took (None: not within 100).
    fn calls_until_disabled(steps: i32, time: f64, samples: u32, v: [f64; 3], h: f64) -> Option<usize> {
        let w = create_world();
        {
            let world = w.get_mut();
            world.set_auto_disable_flag(true);
            world.adis.idle_steps = steps;
            world.adis.idle_time = time;
            world.adis.average_samples = samples;
        }
        let b = create_body(w);
        let mut result = None;
        for call in 1..=100 {
            let body = b.get_mut();
            body.lvel[..3].copy_from_slice(&v);
            auto_disable_body(body, h);
            if !body.is_enabled() {
                assert_eq!(&body.lvel[..3], &[0.0; 3], "velocities are zeroed on disabling");
                result = Some(call);
                break;
            }
        }
        destroy_world(w);
        result
    }

    #[test]
    fn resting_body_sleeps_after_its_step_budget() {
        // Default budget: 10 idle steps, no time requirement, 1 sample.
        assert_eq!(calls_until_disabled(10, 0.0, 1, [0.0; 3], 0.01), Some(10));
        assert_eq!(calls_until_disabled(1, 0.0, 1, [0.0; 3], 0.01), Some(1));
        // A non-positive budget disables at the first idle step.
        assert_eq!(calls_until_disabled(0, 0.0, 1, [0.0; 3], 0.01), Some(1));
    }

    #[test]
    fn time_budget_counts_down_by_the_step_size() {
        // Count, with the same arithmetic, how many steps of 0.01 exhaust 0.05.
        let mut t = 0.05;
        let mut n = 0;
        while t > 0.0 {
            t -= 0.01;
            n += 1;
        }
        assert_eq!(calls_until_disabled(0, 0.05, 1, [0.0; 3], 0.01), Some(n));
        // Both budgets must be exhausted.
        assert_eq!(calls_until_disabled(20, 0.05, 1, [0.0; 3], 0.01), Some(20));
    }

    #[test]
    fn thresholds_compare_squared_speeds_inclusively() {
        // Default threshold 0.01: a speed of exactly 0.01 is idle, above is not.
        assert_eq!(calls_until_disabled(3, 0.0, 1, [0.01, 0.0, 0.0], 0.01), Some(3));
        assert_eq!(calls_until_disabled(3, 0.0, 1, [0.0, 0.0, 0.0101], 0.01), None);
    }

    #[test]
    fn averaging_waits_for_a_full_buffer() {
        // With 4 samples the first idle verdict comes at the 4th call.
        assert_eq!(calls_until_disabled(1, 0.0, 4, [0.0; 3], 0.01), Some(4));
        assert_eq!(calls_until_disabled(3, 0.0, 4, [0.0; 3], 0.01), Some(6));
        // Zero samples: never examined.
        assert_eq!(calls_until_disabled(1, 0.0, 0, [0.0; 3], 0.01), None);
    }

    #[test]
    fn average_hides_a_single_fast_sample() {
        let w = create_world();
        w.get_mut().set_auto_disable_flag(true);
        w.get_mut().adis.average_samples = 4;
        w.get_mut().adis.idle_steps = 1;
        let b = create_body(w);
        // Samples 0.03, 0, 0, 0: average 0.0075 < 0.01 -> idle at the 4th call.
        for (i, v) in [0.03, 0.0, 0.0, 0.0].into_iter().enumerate() {
            let body = b.get_mut();
            body.lvel[0] = v;
            auto_disable_body(body, 0.01);
            assert_eq!(body.is_enabled(), i < 3, "call {i}");
        }
        destroy_world(w);
    }

    #[test]
    fn motion_resets_the_budgets_and_flags_gate_the_check() {
        let w = create_world();
        w.get_mut().set_auto_disable_flag(true);
        let b = create_body(w);
        let body = b.get_mut();
        for _ in 0..9 {
            auto_disable_body(body, 0.01);
        }
        assert_eq!(body.adis_stepsleft, 1);
        body.avel[2] = 1.0;
        auto_disable_body(body, 0.01);
        assert_eq!(body.adis_stepsleft, 10, "motion restores the step budget");
        body.avel[2] = 0.0;
        // Without the flag nothing happens.
        body.flags &= !flags::AUTO_DISABLE;
        for _ in 0..20 {
            auto_disable_body(body, 0.01);
        }
        assert!(body.is_enabled());
        assert_eq!(body.adis_stepsleft, 10);
        destroy_world(w);
    }

    #[test]
    fn free_bodies_are_never_examined() {
        let w = create_world();
        w.get_mut().set_auto_disable_flag(true);
        w.get_mut().adis.idle_steps = 1;
        let b = create_body(w);
        for _ in 0..5 {
            handle_auto_disabling(w, 0.01, |_| false);
        }
        assert!(b.get().is_enabled());
        handle_auto_disabling(w, 0.01, |_| true);
        assert!(!b.get().is_enabled());
        destroy_world(w);
    }
}
