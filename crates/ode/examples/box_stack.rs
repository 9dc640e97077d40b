//! A stack of boxes falling onto a plane and settling: world, space,
//! geoms on bodies, a near callback making contact joints, QuickStep.
//! `cargo run -p ode --example box_stack [-- --gif DIR]`
#[path = "common/pictures.rs"]
mod pictures;
use ode::api::{collide, Contact, JointGroup, Mass, Space, SpaceKind, Surface, World};

fn main() -> Result<(), ode::api::Error> {
    let mut world = World::new();
    world.set_gravity([0.0, 0.0, -9.81])?;
    world.set_cfm(1e-5)?;
    let mut space = Space::new(SpaceKind::Hash);
    space.add_plane([0.0, 0.0, 1.0], 0.0)?;

    let mut boxes = Vec::new();
    for i in 0..8 {
        let body = world.create_body();
        body.set_position(&mut world, [0.02 * i as f64, 0.0, 0.5 + 1.05 * i as f64])?;
        body.set_mass(&mut world, &Mass::box_total(1.0, 1.0, 1.0, 1.0)?)?;
        let geom = space.add_box(1.0, 1.0, 1.0)?;
        space.set_body(geom, &world, Some(body))?;
        boxes.push(body);
    }

    let surface = Surface::new(0.8).soft_cfm(1e-5);
    let mut contacts = JointGroup::new();
    let mut most = 0;
    let mut rec = pictures::from_args([6.0, -6.0, 4.0], [135.0, -25.0, 0.0]);
    for _ in 0..600 {
        space.collide(|a, b| {
            let (ba, bb) = (space.body(a, &world).unwrap(), space.body(b, &world).unwrap());
            for c in collide(a, b, 4).unwrap() {
                let j = world.create_contact(&contacts, &Contact::new(surface, c)).unwrap();
                world.attach(j, ba, bb).unwrap();
            }
        })?;
        most = most.max(contacts.len());
        world.quick_step(0.01)?;
        if let Some(r) = rec.as_mut() {
            let mut poses = Vec::new();
            for b in &boxes {
                poses.push((b.position(&world)?, b.rotation(&world)?));
            }
            r.frame(|pen| {
                pen.set_texture(pictures::Texture::Wood);
                pen.set_color(1.0, 0.8, 0.3);
                for (p, m) in &poses {
                    pen.draw_box(*p, *m, ode::api::DVec3::ONE);
                }
            })
            .map_err(|e| eprintln!("{e}"))
            .ok();
        }
        contacts.empty();
    }

    println!("box stack: {} boxes, 600 steps of 10 ms, up to {most} contacts per step", boxes.len());
    for (i, b) in boxes.iter().enumerate() {
        let p = b.position(&world)?;
        let v = b.linear_vel(&world)?.length();
        println!("  box {i}: z = {:.3}  (x = {:+.3}, speed {:.1e})", p.z, p.x, v);
    }
    pictures::finish(rec, "the --gif directory");
    Ok(())
}
