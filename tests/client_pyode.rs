//! PyODE (Debian's python3-pyode) as a real-world client.
//!
//! PyODE's extension module links `libode.so.8` and the interpreter loads
//! it with immediate binding, so `import ode` needs every function it uses
//! (`tests/data/used-by-pyode.txt`) exported by our library. The test
//! checks that they all are, then runs a small PyODE scene (bodies, masses,
//! hinge and ball joints, collision with contacts, both steppers) with
//! Debian's library and with ours and compares the traces.
//! Run with `-- --nocapture` to see the report (scripts/test-all.sh does).
mod common;

use common::Lib;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Debian's interpreter: python3-pyode installs into its dist-packages.
const PYTHON: &str = "/usr/bin/python3";

/// Tolerance of the scene comparison (contacts and two steppers over 3 s).
const REL: f64 = 1e-6;
const ABS: f64 = 1e-8;

const SCENE: &str = r#"
import sys
import ode

def fmt(v):
    return " ".join("%.10g" % x for x in v)

world = ode.World()
world.setGravity((0, -9.81, 0))
world.setERP(0.8)
world.setCFM(1e-5)
space = ode.SimpleSpace()
floor = ode.GeomPlane(space, (0, 1, 0), 0)
contacts = ode.JointGroup()
bodies = []
geoms = []  # PyODE destroys a geom when its Python object dies

def add_box(name, density, size, pos):
    b = ode.Body(world)
    m = ode.Mass()
    m.setBox(density, *size)
    b.setMass(m)
    g = ode.GeomBox(space, lengths=size)
    g.setBody(b)
    geoms.append(g)
    b.setPosition(pos)
    bodies.append((name, b))
    return b

def add_sphere(name, mass, radius, pos):
    b = ode.Body(world)
    m = ode.Mass()
    m.setSphereTotal(mass, radius)
    b.setMass(m)
    g = ode.GeomSphere(space, radius)
    g.setBody(b)
    geoms.append(g)
    b.setPosition(pos)
    bodies.append((name, b))
    return b

# a box dropped spinning on the floor
crate = add_box("crate", 500, (0.4, 0.3, 0.2), (0, 1.5, 0))
crate.setAngularVel((1.0, 2.0, 0.5))
# a sphere rolling along the floor
ball = add_sphere("ball", 1.0, 0.2, (1, 0.2, 0))
ball.setLinearVel((2, 0, 0.5))

# a pendulum hinged to the world
bob = add_sphere("bob", 2.0, 0.1, (-1.5 + 0.5 * 0.5 ** 0.5, 2 - 0.5 * 0.5 ** 0.5, 0))
hinge = ode.HingeJoint(world)
hinge.attach(bob, ode.environment)
hinge.setAnchor((-1.5, 2, 0))
hinge.setAxis((0, 0, 1))

# a chain of two balls hanging from a ball joint
c1 = add_sphere("chain1", 0.5, 0.05, (2, 3, 0.3))
c2 = add_sphere("chain2", 0.5, 0.05, (2.3, 3, 0.3))
j0 = ode.BallJoint(world)
j0.attach(c1, ode.environment)
j0.setAnchor((2, 3.3, 0.3))
j1 = ode.BallJoint(world)
j1.attach(c1, c2)
j1.setAnchor((2.15, 3, 0.3))

def near(args, g1, g2):
    for c in ode.collide(g1, g2):
        c.setBounce(0.2)
        c.setMu(50)
        j = ode.ContactJoint(world, contacts, c)
        j.attach(g1.getBody(), g2.getBody())

dt = 0.005
for step in range(601):
    if step % 100 == 0:
        print("t %.3f" % (step * dt))
        for name, b in bodies:
            print(" %s pos %s quat %s" % (name, fmt(b.getPosition()), fmt(b.getQuaternion())))
        print(" hinge angle %.10g rate %.10g" % (hinge.getAngle(), hinge.getAngleRate()))
    if step == 600:
        break
    space.collide(None, near)
    if step < 300:
        world.step(dt)
    else:
        world.quickStep(dt)
    contacts.empty()
print("done")
"#;

fn exported_functions(lib: &Path) -> BTreeSet<String> {
    let o = Command::new("nm").args(["-D", "--defined-only"]).arg(lib).output().expect("cannot run nm");
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 3 && matches!(f[1], "T" | "W" | "i")).then(|| f[2].split('@').next().unwrap().to_string())
        })
        .collect()
}

fn run_scene(script: &Path, lib: Lib) -> String {
    let dir: PathBuf = match lib {
        Lib::Ours => common::our_lib_dir(),
        Lib::Debian => common::debian_lib_dir(),
    };
    let o = Command::new(PYTHON).arg(script).env("LD_LIBRARY_PATH", &dir).output().expect("cannot run python3");
    assert!(
        o.status.success(),
        "PyODE scene against {lib:?} failed ({}):\n{}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn pyode_scene_matches_debian() {
    let list = std::fs::read_to_string(common::root().join("tests/data/used-by-pyode.txt")).unwrap();
    let needed: Vec<&str> = list.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    let ours = exported_functions(&common::our_lib_dir().join("libode.so"));
    let missing: Vec<&str> = needed.iter().copied().filter(|f| !ours.contains(*f)).collect();
    println!("PYODE-STATUS: we export {} of {} functions PyODE uses", needed.len() - missing.len(), needed.len());
    assert!(
        missing.is_empty(),
        "`import ode` cannot load with our library: PyODE links {missing:?}, which we do not export"
    );

    common::require_reference();
    let check = Command::new(PYTHON).args(["-c", "import ode"]).output();
    assert!(
        check.map(|o| o.status.success()).unwrap_or(false),
        "python3-pyode is required (apt-get install python3-pyode; scripts/test-all.sh does)"
    );
    let script = common::scratch().join("pyode_scene.py");
    std::fs::write(&script, SCENE).unwrap();
    let reference = run_scene(&script, Lib::Debian);
    let got = run_scene(&script, Lib::Ours);
    let worst = common::compare_traces(&got, &reference, REL, ABS);
    println!(
        "PYODE-STATUS: RUN: scene of {} lines matches Debian's ODE (largest rel diff {worst:.3e}, tol rel {REL:e} abs {ABS:e})",
        reference.lines().count()
    );
}
