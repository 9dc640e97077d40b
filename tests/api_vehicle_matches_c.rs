//! A car with four hinge2 wheels driving over a heightfield, built through
//! the safe Rust API and through the C API (`ode::ffi::*`) in one process:
//! bit-identical trajectories with both steppers.
use ode::api::convert::mat3_to_ode;
use ode::api::{
    collide, Contact, DMat3, DVec3, HeightfieldData, JointGroup, Mass, Param, Space, SpaceKind, Surface, World,
};
use ode::ffi::collision::*;
use ode::ffi::collision_space::*;
use ode::ffi::decl::contact::{dContact, dContactGeom};
use ode::ffi::mass::*;
use ode::ffi::objects_body::*;
use ode::ffi::objects_contact::*;
use ode::ffi::objects_hinge2::*;
use ode::ffi::objects_joint::*;
use ode::ffi::objects_world::*;
use std::ffi::c_void;
use std::sync::Arc;

const STEPS: usize = 250;
const H: f64 = 0.01;
const MAX_C: usize = 6;
const SAMPLES: usize = 33;
const SIZE: f64 = 40.0;
const MU: f64 = 1.2;
const SOFT: (f64, f64) = (0.6, 1e-4);
const CHASSIS: [f64; 3] = [2.0, 1.2, 0.4];
const WHEEL_R: f64 = 0.35;
const SPEED: f64 = -8.0;

fn heights() -> Vec<f64> {
    (0..SAMPLES * SAMPLES)
        .map(|i| {
            let (x, z) = ((i % SAMPLES) as f64, (i / SAMPLES) as f64);
            0.3 * (x * 0.4).sin() * (z * 0.3).cos()
        })
        .collect()
}

/// y-up heightfield turned so that its "up" is world +z.
fn terrain_rotation() -> DMat3 {
    DMat3::from_rotation_x(std::f64::consts::FRAC_PI_2)
}

fn wheel_positions() -> [DVec3; 4] {
    // Clear of the chassis sides (|y| <= 0.6) so wheels and body never touch.
    let (x, y, z) = (0.8, 1.0, 1.0);
    [DVec3::new(x, y, z), DVec3::new(x, -y, z), DVec3::new(-x, y, z), DVec3::new(-x, -y, z)]
}

type Trace = Vec<u64>;

fn record(trace: &mut Trace, p: &[f64], q: &[f64]) {
    trace.extend(p.iter().chain(q).map(|v| v.to_bits()));
}

fn safe_api(quick: bool) -> Trace {
    let mut world = World::new();
    world.set_gravity([0.0, 0.0, -9.81]).unwrap();
    let mut space = Space::new(SpaceKind::Hash);
    let data =
        Arc::new(HeightfieldData::builder(SIZE, SIZE, SAMPLES, SAMPLES, heights()).thickness(1.0).build().unwrap());
    let ground = space.add_heightfield(&data, true).unwrap();
    space.set_rotation(ground, &terrain_rotation()).unwrap();

    let chassis = world.create_body();
    chassis.set_position(&mut world, [0.0, 0.0, 1.2]).unwrap();
    chassis.set_mass(&mut world, &Mass::box_total(20.0, CHASSIS[0], CHASSIS[1], CHASSIS[2]).unwrap()).unwrap();
    let cg = space.add_box(CHASSIS[0], CHASSIS[1], CHASSIS[2]).unwrap();
    space.set_body(cg, &world, Some(chassis)).unwrap();
    let mut bodies = vec![chassis];
    let mut joints = Vec::new();
    for p in wheel_positions() {
        let w = world.create_body();
        w.set_position(&mut world, p).unwrap();
        w.set_mass(&mut world, &Mass::sphere_total(2.0, WHEEL_R).unwrap()).unwrap();
        let g = space.add_sphere(WHEEL_R).unwrap();
        space.set_body(g, &world, Some(w)).unwrap();
        let j = world.create_hinge2();
        world.attach(*j, Some(chassis), Some(w)).unwrap();
        j.set_anchor(&mut world, p).unwrap();
        j.set_axes(&mut world, Some(DVec3::Z), Some(DVec3::Y)).unwrap();
        j.set_param(&mut world, Param::SuspensionErp, 0.4).unwrap();
        j.set_param(&mut world, Param::SuspensionCfm, 0.02).unwrap();
        j.set_param(&mut world, Param::LoStop, 0.0).unwrap();
        j.set_param(&mut world, Param::HiStop, 0.0).unwrap();
        j.set_param_axis(&mut world, 1, Param::Vel, SPEED).unwrap();
        j.set_param_axis(&mut world, 1, Param::FMax, 30.0).unwrap();
        bodies.push(w);
        joints.push(j);
    }
    let surface = Surface::new(MU).approx1().soft_erp(SOFT.0).soft_cfm(SOFT.1);
    let mut group = JointGroup::new();
    let mut trace = Trace::new();
    for _ in 0..STEPS {
        space
            .collide(|a, b| {
                let (ba, bb) = (space.body(a, &world).unwrap(), space.body(b, &world).unwrap());
                for c in collide(a, b, MAX_C).unwrap() {
                    let j = world.create_contact(&group, &Contact::new(surface, c)).unwrap();
                    world.attach(j, ba, bb).unwrap();
                }
            })
            .unwrap();
        if quick { world.quick_step(H) } else { world.step(H) }.unwrap();
        group.empty();
        for b in &bodies {
            let q = b.quaternion(&world).unwrap();
            record(&mut trace, &b.position(&world).unwrap().to_array(), &[q.w, q.x, q.y, q.z]);
        }
    }
    trace
}

struct CScene {
    world: *mut c_void,
    group: *mut c_void,
}

unsafe extern "C" fn near(data: *mut c_void, a: *mut c_void, b: *mut c_void) {
    let s = &*(data as *const CScene);
    let mut cg: [dContactGeom; MAX_C] = std::mem::zeroed();
    let n = dCollide(a, b, MAX_C as i32, cg.as_mut_ptr(), std::mem::size_of::<dContactGeom>() as i32);
    for c in &cg[..n as usize] {
        let mut contact: dContact = std::mem::zeroed();
        contact.surface.mode = 0x7000 | 0x008 | 0x010; // dContactApprox1 | dContactSoftERP | dContactSoftCFM
        contact.surface.mu = MU;
        contact.surface.soft_erp = SOFT.0;
        contact.surface.soft_cfm = SOFT.1;
        contact.geom = *c;
        let j = dJointCreateContact(s.world, s.group, &contact);
        dJointAttach(j, dGeomGetBody(a), dGeomGetBody(b));
    }
}

fn c_api(quick: bool) -> Trace {
    const LO_STOP: i32 = 0;
    const HI_STOP: i32 = 1;
    const VEL2: i32 = 0x100 + 2;
    const FMAX2: i32 = 0x100 + 5;
    const SUSP_ERP: i32 = 11;
    const SUSP_CFM: i32 = 12;
    unsafe {
        let world = dWorldCreate();
        dWorldSetGravity(world, 0.0, 0.0, -9.81);
        let space = dHashSpaceCreate(std::ptr::null_mut());
        let data = dGeomHeightfieldDataCreate();
        let h = heights();
        let n = SAMPLES as i32;
        dGeomHeightfieldDataBuildDouble(data, h.as_ptr(), 1, SIZE, SIZE, n, n, 1.0, 0.0, 1.0, 0);
        let ground = dCreateHeightfield(space, data, 1);
        dGeomSetRotation(ground, mat3_to_ode(&terrain_rotation()).as_ptr());

        let chassis = dBodyCreate(world);
        dBodySetPosition(chassis, 0.0, 0.0, 1.2);
        let mut m = std::mem::zeroed();
        dMassSetBoxTotal(&mut m, 20.0, CHASSIS[0], CHASSIS[1], CHASSIS[2]);
        dBodySetMass(chassis, &m);
        let cg = dCreateBox(space, CHASSIS[0], CHASSIS[1], CHASSIS[2]);
        dGeomSetBody(cg, chassis);
        let mut bodies = vec![chassis];
        for p in wheel_positions() {
            let w = dBodyCreate(world);
            dBodySetPosition(w, p.x, p.y, p.z);
            dMassSetSphereTotal(&mut m, 2.0, WHEEL_R);
            dBodySetMass(w, &m);
            let g = dCreateSphere(space, WHEEL_R);
            dGeomSetBody(g, w);
            let j = dJointCreateHinge2(world, std::ptr::null_mut());
            dJointAttach(j, chassis, w);
            dJointSetHinge2Anchor(j, p.x, p.y, p.z);
            let (a1, a2) = ([0.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 0.0]);
            dJointSetHinge2Axes(j, a1.as_ptr(), a2.as_ptr());
            dJointSetHinge2Param(j, SUSP_ERP, 0.4);
            dJointSetHinge2Param(j, SUSP_CFM, 0.02);
            dJointSetHinge2Param(j, LO_STOP, 0.0);
            dJointSetHinge2Param(j, HI_STOP, 0.0);
            dJointSetHinge2Param(j, VEL2, SPEED);
            dJointSetHinge2Param(j, FMAX2, 30.0);
            bodies.push(w);
        }
        let scene = CScene { world, group: dJointGroupCreate(0) };
        let mut trace = Trace::new();
        for _ in 0..STEPS {
            dSpaceCollide(space, &scene as *const CScene as *mut c_void, Some(near));
            if quick {
                dWorldQuickStep(world, H);
            } else {
                dWorldStep(world, H);
            }
            dJointGroupEmpty(scene.group);
            for &b in &bodies {
                let p = std::slice::from_raw_parts(dBodyGetPosition(b), 3);
                let q = std::slice::from_raw_parts(dBodyGetQuaternion(b), 4);
                record(&mut trace, p, q);
            }
        }
        dJointGroupDestroy(scene.group);
        dSpaceDestroy(space);
        dGeomHeightfieldDataDestroy(data);
        dWorldDestroy(world);
        trace
    }
}

/// QuickStep shuffles rows with ODE's global random generator: runs go
/// one at a time from seed 0.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn compare(quick: bool) {
    let _one_at_a_time = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    ode::api::set_random_seed(0);
    let rust = safe_api(quick);
    ode::api::set_random_seed(0);
    let c = c_api(quick);
    assert_eq!(rust.len(), c.len());
    if let Some(i) = (0..rust.len()).find(|&i| rust[i] != c[i]) {
        panic!(
            "first difference at step {}, body {}, component {}: {} vs {}",
            i / 35,
            (i % 35) / 7,
            i % 7,
            f64::from_bits(rust[i]),
            f64::from_bits(c[i])
        );
    }
    // The car drove: the chassis moved along x and stayed above the terrain.
    let last = &rust[rust.len() - 35..];
    let (x, z) = (f64::from_bits(last[0]), f64::from_bits(last[2]));
    assert!(x.abs() > 1.0 && z > 0.0, "chassis at x = {x}, z = {z}");
}

#[test]
fn quickstep_vehicle_is_bit_identical_to_the_c_api() {
    compare(true);
}

#[test]
fn step_vehicle_is_bit_identical_to_the_c_api() {
    compare(false);
}
