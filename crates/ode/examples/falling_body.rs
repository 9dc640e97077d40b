//! A ball dropped from 10 m, stepped until it reaches the ground, using
//! only the safe Rust API. Run with `cargo run -p ode --example falling_body [-- --gif DIR]`.
#[path = "common/pictures.rs"]
mod pictures;
use ode::api::{Mass, World};

fn main() -> Result<(), ode::api::Error> {
    let mut world = World::new();
    world.set_gravity([0.0, 0.0, -9.81])?;

    let ball = world.create_body();
    let mut mass = Mass::zero();
    mass.set_sphere_total(2.0, 0.5); // 2 kg, radius 0.5 m
    ball.set_mass(&mut world, &mass)?;
    ball.set_position(&mut world, [0.0, 0.0, 10.0])?;
    ball.set_angular_vel(&mut world, [0.0, 0.0, 1.0])?; // a slow spin about z

    let h = 0.001;
    let mut t = 0.0;
    let mut rec = pictures::from_args([12.0, 0.0, 5.0], [180.0, 0.0, 0.0]);
    let mut steps = 0u32;
    while ball.position(&world)?[2] > 0.0 {
        world.step(h)?;
        t += h;
        steps += 1;
        // One picture per 25 ms of fall (every 25th step is a frame).
        if let (Some(r), 0) = (rec.as_mut(), steps % 25) {
            let (p, m) = (ball.position(&world)?, ball.rotation(&world)?);
            r.frame(|pen| {
                pen.set_texture(pictures::Texture::Checkered);
                pen.set_color(1.0, 1.0, 1.0);
                pen.draw_sphere(p, m, 0.5);
            })
            .map_err(|e| eprintln!("{e}"))
            .ok();
        }
    }
    let p = ball.position(&world)?;
    let v = ball.linear_vel(&world)?;
    let q = ball.quaternion(&world)?;
    println!("ground reached after {t:.3} s (free fall: {:.3} s)", (2.0 * 10.0 / 9.81f64).sqrt());
    println!("position {p:?}\nvelocity {v:?}\norientation {q:?}");
    pictures::finish(rec, "the --gif directory");
    Ok(())
}
