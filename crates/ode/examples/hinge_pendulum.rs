//! A pendulum on a hinge driven by a velocity motor with limited torque:
//! it swings up to its stop and is held there.
//! `cargo run -p ode --example hinge_pendulum`
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
    }
    let f = hinge.feedback(&world)?.expect("feedback is on");
    println!("hinge holds the bob with force {:.2} N (weight 9.81 N)", f.f1.length());
    Ok(())
}
