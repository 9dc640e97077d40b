//! A four-wheeled car (box chassis, sphere wheels on hinge2 joints with
//! suspension and a drive motor) on a wavy heightfield.
//! `cargo run -p ode --example vehicle [-- --gif DIR]`
#[path = "common/pictures.rs"]
mod pictures;
use ode::api::{
    collide, Contact, DMat3, DVec3, HeightfieldData, JointGroup, Mass, Param, Space, SpaceKind, Surface, World,
};
use std::sync::Arc;

fn main() -> Result<(), ode::api::Error> {
    let mut world = World::new();
    world.set_gravity([0.0, 0.0, -9.81])?;
    let mut space = Space::new(SpaceKind::Hash);

    // 40 x 40 m of gentle waves; ODE's heightfields are y-up, so turn it.
    let n = 33;
    let heights = (0..n * n)
        .map(|i| {
            let (x, z) = ((i % n) as f64, (i / n) as f64);
            0.3 * (x * 0.4).sin() * (z * 0.3).cos()
        })
        .collect();
    let terrain = Arc::new(HeightfieldData::builder(40.0, 40.0, n, n, heights).thickness(1.0).build()?);
    let ground = space.add_heightfield(&terrain, true)?;
    space.set_rotation(ground, &DMat3::from_rotation_x(std::f64::consts::FRAC_PI_2))?;

    let chassis = world.create_body();
    chassis.set_position(&mut world, [0.0, 0.0, 1.2])?;
    chassis.set_mass(&mut world, &Mass::box_total(20.0, 2.0, 1.2, 0.4)?)?;
    let body_geom = space.add_box(2.0, 1.2, 0.4)?;
    space.set_body(body_geom, &world, Some(chassis))?;

    let mut wheels = Vec::new();
    let mut wheel_bodies = Vec::new();
    for (x, y) in [(0.8, 1.0), (0.8, -1.0), (-0.8, 1.0), (-0.8, -1.0)] {
        let p = DVec3::new(x, y, 1.0);
        let wheel = world.create_body();
        wheel.set_position(&mut world, p)?;
        wheel.set_mass(&mut world, &Mass::sphere_total(2.0, 0.35)?)?;
        let g = space.add_sphere(0.35)?;
        space.set_body(g, &world, Some(wheel))?;
        let j = world.create_hinge2();
        world.attach(*j, Some(chassis), Some(wheel))?;
        j.set_anchor(&mut world, p)?;
        // Axis 1: steering and suspension (up); axis 2: the axle.
        j.set_axes(&mut world, Some(DVec3::Z), Some(DVec3::Y))?;
        j.set_param(&mut world, Param::SuspensionErp, 0.4)?;
        j.set_param(&mut world, Param::SuspensionCfm, 0.02)?;
        j.set_param(&mut world, Param::LoStop, 0.0)?;
        j.set_param(&mut world, Param::HiStop, 0.0)?;
        j.set_param_axis(&mut world, 1, Param::Vel, -8.0)?;
        j.set_param_axis(&mut world, 1, Param::FMax, 30.0)?;
        wheels.push(j);
        wheel_bodies.push(wheel);
    }

    // Approx1: mu is a friction coefficient (without it ODE reads mu as a force bound).
    let surface = Surface::new(1.2).approx1().soft_erp(0.6).soft_cfm(1e-4);
    let mut contacts = JointGroup::new();
    let mut rec = pictures::from_args([-4.0, -7.0, 3.0], [60.0, -20.0, 0.0]);
    // The terrain as triangles in world space (the heightfield's x, z grid turned y-up → z-up).
    let mut terrain_tris = Vec::new();
    let at = |i: usize, j: usize| {
        let (x, y) = (i as f64 * 40.0 / (n - 1) as f64 - 20.0, j as f64 * 40.0 / (n - 1) as f64 - 20.0);
        DVec3::new(x, -y, 0.3 * (i as f64 * 0.4).sin() * (j as f64 * 0.3).cos())
    };
    for j in 0..n - 1 {
        for i in 0..n - 1 {
            terrain_tris.push([at(i, j), at(i + 1, j + 1), at(i + 1, j)]);
            terrain_tris.push([at(i, j), at(i, j + 1), at(i + 1, j + 1)]);
        }
    }
    for step in 0..=500 {
        space.collide(|a, b| {
            let (ba, bb) = (space.body(a, &world).unwrap(), space.body(b, &world).unwrap());
            for c in collide(a, b, 6).unwrap() {
                let j = world.create_contact(&contacts, &Contact::new(surface, c)).unwrap();
                world.attach(j, ba, bb).unwrap();
            }
        })?;
        if step % 100 == 0 {
            let p = chassis.position(&world)?;
            println!(
                "t = {:.1} s  chassis at ({:+6.2}, {:+5.2}, {:4.2})  wheel spin {:+.2} rad/s  {} contacts",
                step as f64 * 0.01,
                p.x,
                p.y,
                p.z,
                wheels[0].angle2_rate(&world)?,
                contacts.len()
            );
        }
        world.step(0.01)?;
        if let Some(r) = rec.as_mut() {
            let car = (chassis.position(&world)?, chassis.rotation(&world)?);
            let mut tyres = Vec::new();
            for b in &wheel_bodies {
                tyres.push((b.position(&world)?, b.rotation(&world)?));
            }
            r.frame(|pen| {
                pen.set_color(0.5, 0.8, 0.4);
                pen.draw_triangles(DVec3::ZERO, DMat3::IDENTITY, &terrain_tris, true);
                pen.set_texture(pictures::Texture::Wood);
                pen.set_color(0.0, 0.7, 0.8);
                pen.draw_box(car.0, car.1, DVec3::new(2.0, 1.2, 0.4));
                pen.set_texture(pictures::Texture::None);
                pen.set_color(0.3, 0.3, 0.3);
                for (p, m) in &tyres {
                    pen.draw_sphere(*p, *m, 0.35);
                }
            })
            .map_err(|e| eprintln!("{e}"))
            .ok();
        }
        contacts.empty();
    }
    let v = chassis.linear_vel(&world)?;
    println!("vehicle: drove {:.2} m along x, speed {:.2} m/s", chassis.position(&world)?.x, v.length());
    pictures::finish(rec, "the --gif directory");
    Ok(())
}
