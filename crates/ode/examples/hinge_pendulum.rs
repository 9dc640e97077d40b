//! A pendulum on a hinge driven by a velocity motor with limited torque:
//! it swings up to its stop and is held there.
//! `cargo run -p ode --example hinge_pendulum [-- --gif DIR]`
#[path = "common/pictures.rs"]
mod pictures;
use ode::api::{Mass, Param, World};

fn main() -> Result<(), ode::api::Error> {
    let mut world = World::new();
    world.set_gravity([0.0, 0.0, -9.81])?;

    // A 1 kg bob on a light rod of length 1, hanging from the origin.
    let bob = world.create_body();
    bob.set_mass(&mut world, &Mass::sphere_total(1.0, 0.1)?)?;
    bob.set_position(&mut world, [0.0, 0.0, -1.0])?;

    let hinge = world.create_hinge();
    world.attach(*hinge, Some(bob), None)?;
    hinge.set_anchor(&mut world, [0.0, 0.0, 0.0])?;
    hinge.set_axis(&mut world, [0.0, 1.0, 0.0])?;
    // Motor: 2 rad/s with up to 15 N·m (more than the 9.81 N·m it needs
    // at horizontal), and a stop at 90 degrees.
    hinge.set_param(&mut world, Param::Vel, 2.0)?;
    hinge.set_param(&mut world, Param::FMax, 15.0)?;
    hinge.set_param(&mut world, Param::HiStop, std::f64::consts::FRAC_PI_2)?;
    hinge.set_feedback(&mut world, true)?;

    let h = 0.005;
    // The pivot is lifted 1.5 m in the pictures so that the bob stays above the ground.
    let mut rec = pictures::from_args([0.0, -3.5, 1.2], [90.0, -5.0, 0.0]);
    for i in 0..=800 {
        if i % 100 == 0 {
            let a = hinge.angle(&world)?;
            let p = bob.position(&world)?;
            println!(
                "t = {:.2} s  angle = {:6.1} deg  rate = {:+.3} rad/s  bob at ({:+.3}, {:+.3})",
                i as f64 * h,
                a.to_degrees(),
                hinge.angle_rate(&world)?,
                p.x,
                p.z
            );
        }
        world.step(h)?;
        if let Some(r) = rec.as_mut() {
            let (p, m) = (bob.position(&world)?, bob.rotation(&world)?);
            let lift = ode::api::DVec3::new(0.0, 0.0, 1.5);
            r.frame(|pen| {
                pen.set_color(0.2, 0.4, 1.0);
                pen.draw_sphere(p + lift, m, 0.1);
                pen.set_color(1.0, 1.0, 1.0);
                pen.draw_line(lift, p + lift);
            })
            .map_err(|e| eprintln!("{e}"))
            .ok();
        }
    }
    let f = hinge.feedback(&world)?.expect("feedback is on");
    println!("hinge holds the bob with force {:.2} N (weight 9.81 N)", f.f1.length());
    pictures::finish(rec, "the --gif directory");
    Ok(())
}
