//! A custom joint written in Rust: a "rope" that keeps a body within a
//! distance of a fixed point (one one-sided limit row), compared with the
//! free fall it interrupts. `cargo run -p ode --example custom_joint [-- --gif DIR]`
#[path = "common/pictures.rs"]
mod pictures;
use ode::api::{CustomInfo1, CustomInfo2, CustomJoint, JointRow, Limit, Mass, World};

/// A rope of length `len` from the world origin to the body's centre.
struct Rope {
    len: f64,
}

impl CustomJoint for Rope {
    fn max_rows(&self) -> usize {
        1
    }

    fn info1(&mut self, info: &mut CustomInfo1<'_, '_>) -> (usize, usize) {
        let d = info.body1().map_or(0.0, |b| b.position().length());
        // A limit on "distance" with the rope length as its high stop.
        let limit = Limit { lo: f64::NEG_INFINITY, hi: self.len, erp: 0.2, cfm: 1e-9, tolerance: 0.0, hold_steps: 2 };
        match info.limit(0, d, &limit) {
            Ok(true) => (1, 0),
            _ => (0, 0),
        }
    }

    fn info2(&mut self, info: &mut CustomInfo2<'_, '_>, rows: &mut [JointRow]) {
        let Some(b) = info.body1() else { return };
        let n = b.position().normalize_or_zero();
        // d(distance)/dt = n · v.
        rows[0].j1l = [n.x, n.y, n.z];
        let _ = info.limit_row(0, &mut rows[0]);
    }
}

fn main() -> Result<(), ode::api::Error> {
    let mut world = World::new();
    world.set_gravity([0.0, 0.0, -9.81])?;
    let ball = world.create_body();
    ball.set_mass(&mut world, &Mass::sphere_total(1.0, 0.1)?)?;
    ball.set_position(&mut world, [1.0, 0.0, 0.0])?;
    let rope = world.create_custom_joint(Rope { len: 1.5 })?;
    world.attach(rope, Some(ball), None)?;

    let mut longest: f64 = 0.0;
    // The rope's anchor is lifted 2 m in the pictures, above the ground.
    let mut rec = pictures::from_args([0.0, -4.5, 1.5], [90.0, -5.0, 0.0]);
    for step in 0..=400 {
        longest = longest.max(ball.position(&world)?.length());
        if step % 100 == 0 {
            let p = ball.position(&world)?;
            println!(
                "t = {:.2} s  ball at ({:+.3}, {:+.3})  distance {:.3}",
                step as f64 * 0.005,
                p.x,
                p.z,
                p.length()
            );
        }
        world.step(0.005)?;
        if let Some(r) = rec.as_mut() {
            let (p, m) = (ball.position(&world)?, ball.rotation(&world)?);
            let lift = ode::api::DVec3::new(0.0, 0.0, 2.0);
            r.frame(|pen| {
                pen.set_color(1.0, 0.3, 0.3);
                pen.draw_sphere(p + lift, m, 0.1);
                pen.set_color(1.0, 1.0, 1.0);
                pen.draw_line(lift, p + lift);
            })
            .map_err(|e| eprintln!("{e}"))
            .ok();
        }
    }
    println!("custom joint: rope of 1.5 m, longest distance reached {longest:.3} m");
    pictures::finish(rec, "the --gif directory");
    Ok(())
}
