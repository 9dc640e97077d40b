//! An octahedron triangle mesh dropped onto a bumpy mesh terrain, rolling
//! to rest. `cargo run -p ode --example mesh_on_terrain [-- --gif DIR]`
#[path = "common/pictures.rs"]
mod pictures;
use ode::api::{collide, Contact, DMat3, DVec3, JointGroup, Mass, Space, SpaceKind, Surface, TriMeshData, World};
use std::sync::Arc;

fn main() -> Result<(), ode::api::Error> {
    let mut world = World::new();
    world.set_gravity([0.0, 0.0, -9.81])?;
    let mut space = Space::new(SpaceKind::SweepAndPrune(ode::api::SapAxes::Xyz));

    // The terrain is a triangle mesh too: a 21 x 21 grid of bumps over 10 x 10 m.
    let n = 21usize;
    let h = |i: usize, j: usize| 0.2 * ((i as f64 * 0.9).sin() + (j as f64 * 0.7).cos());
    let grid: Vec<DVec3> = (0..n * n)
        .map(|k| {
            let (i, j) = (k % n, k / n);
            DVec3::new(i as f64 * 0.5 - 5.0, j as f64 * 0.5 - 5.0, h(i, j))
        })
        .collect();
    let mut tris = Vec::new();
    for j in 0..n - 1 {
        for i in 0..n - 1 {
            let k = (j * n + i) as u32;
            let (r, u) = (k + 1, k + n as u32);
            tris.push([k, r, u + 1]);
            tris.push([k, u + 1, u]);
        }
    }
    let mut ground_data = TriMeshData::new(&grid, &tris)?;
    ground_data.preprocess();
    space.add_trimesh(&Arc::new(ground_data))?;

    // A regular octahedron of "radius" 0.5, faces counter-clockwise from outside.
    let r = 0.5;
    let v = [DVec3::X * r, DVec3::NEG_X * r, DVec3::Y * r, DVec3::NEG_Y * r, DVec3::Z * r, DVec3::NEG_Z * r];
    let faces = [[0, 2, 4], [2, 1, 4], [1, 3, 4], [3, 0, 4], [2, 0, 5], [1, 2, 5], [3, 1, 5], [0, 3, 5]];
    let mut data = TriMeshData::new(&v, &faces)?;
    data.preprocess();
    let mesh_data = Arc::new(data);

    let body = world.create_body();
    body.set_position(&mut world, [0.3, -0.2, 2.0])?;
    body.set_rotation(&mut world, &DMat3::from_axis_angle(DVec3::new(1.0, 1.0, 0.0).normalize(), 0.4))?;
    // Solid octahedron: volume 4/3 r³, inertia (m/10)·2r² about each axis.
    let m = 2.0;
    let i = m / 10.0 * 2.0 * r * r;
    body.set_mass(&mut world, &Mass::from_parameters(m, DVec3::ZERO, DVec3::splat(i), DVec3::ZERO)?)?;
    let mesh = space.add_trimesh(&mesh_data)?;
    space.set_body(mesh, &world, Some(body))?;

    let surface = Surface::new(0.7).approx1().soft_cfm(1e-5);
    let mut contacts = JointGroup::new();
    let mut touched = None;
    let mut rec = pictures::from_args([3.5, -3.5, 2.5], [135.0, -25.0, 0.0]);
    let ground_tris: Vec<[DVec3; 3]> = tris.iter().map(|t| t.map(|k| grid[k as usize])).collect();
    let body_tris: Vec<[DVec3; 3]> = faces.iter().map(|f| f.map(|k| v[k as usize])).collect();
    for step in 0..800 {
        space.collide(|a, b| {
            let (ba, bb) = (space.body(a, &world).unwrap(), space.body(b, &world).unwrap());
            for c in collide(a, b, 8).unwrap() {
                let j = world.create_contact(&contacts, &Contact::new(surface, c)).unwrap();
                world.attach(j, ba, bb).unwrap();
            }
        })?;
        if touched.is_none() && !contacts.is_empty() {
            touched = Some(step);
        }
        world.step(0.005)?;
        if let Some(r) = rec.as_mut() {
            let (p, m) = (body.position(&world)?, body.rotation(&world)?);
            r.frame(|pen| {
                pen.set_color(0.6, 0.7, 0.5);
                pen.draw_triangles(DVec3::ZERO, DMat3::IDENTITY, &ground_tris, true);
                pen.set_color(1.0, 0.3, 0.2);
                pen.draw_triangles(p, m, &body_tris, true);
            })
            .map_err(|e| eprintln!("{e}"))
            .ok();
        }
        contacts.empty();
    }
    let p = body.position(&world)?;
    println!(
        "mesh on terrain: first contact at step {:?}, at rest at ({:+.3}, {:+.3}, {:.3}), speed {:.1e} m/s",
        touched,
        p.x,
        p.y,
        p.z,
        body.linear_vel(&world)?.length()
    );
    pictures::finish(rec, "the --gif directory");
    Ok(())
}
