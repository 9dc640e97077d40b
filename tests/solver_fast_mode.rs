//! The fast solver mode (`ODE_SOLVER=fast`, issue 13): the self-checking C
//! programs whose assertions are closed forms or invariants (not ODE's
//! bits) run again with the environment variable set, plus
//! `ctests/t_solver_fast_mode.c` (mode selection, `dRand` untouched,
//! pendulum period, resting box, friction ramp, box stack), run under both
//! values of the variable.
mod common;
use common::*;
use std::process::Command;

/// Self-checking programs (`ctests/<name>.c`, whose last line starts with
/// `PASS` or ends with `ok` on success) that must pass in fast mode too. Add the dWorldStep fast mode's programs
/// here; `scripts/test-all.sh` runs this list through `cargo test --test
/// solver_fast_mode`.
pub const FAST_MODE_PROGRAMS: &[&str] = &[
    "t_joint_pendulum",
    "t_joint_contact_ramp_friction",
    "t_joint_motor_force_limit",
    "t_joint_stop_bounce",
    "t_joint_chain_energy",
    "t_joint_custom_ball",
    "t_joint_custom_slot",
    "t_scene_drop_comes_to_rest",
    "t_quickstep_small_islands_grouped",
];

/// Builds `ctests/<name>.c` and runs it against our library with
/// `ODE_SOLVER=<mode>`; returns stdout, requiring the program's success
/// line (`PASS ...`, or `... ok`).
fn run_with_solver(name: &str, mode: &str, args: &[&str]) -> String {
    let bin = build_c(name, &[&format!("{name}.c")], Headers::Ours, &[]);
    let o = Command::new(&bin)
        .args(args)
        .env("LD_LIBRARY_PATH", our_lib_dir())
        .env("ODE_SOLVER", mode)
        .output()
        .expect("cannot run test program");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success() && {
            let last = out.lines().last().unwrap_or_default();
            last.starts_with("PASS") || last.trim_end().ends_with("ok")
        },
        "{name} with ODE_SOLVER={mode} ({}):\n{out}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// One test for both values (one build of the program, no race on it).
#[test]
fn solver_fast_mode_checks_under_both_env_values() {
    run_with_solver("t_solver_fast_mode", "fast", &["fast"]);
    run_with_solver("t_solver_fast_mode", "exact", &["exact"]);
}

/// The fast dWorldStep (`solver::fast_step`): bilateral-only systems (a
/// 120-link chain, a random joint tree, the tree with loops) give the dense
/// solve's velocities to 1e-9 relative, and so does the tree with violated
/// hinge stops and contacts (frictionless, findex friction, box friction)
/// against the exact Step; stops hold at least as well as in the exact
/// Step; a box stack stands (`ctests/t_solver_fast_step.c`, which sets the
/// mode per world).
#[test]
fn solver_fast_step_matches_dense_and_holds_limits() {
    run_with_solver("t_solver_fast_step", "exact", &[]);
}

/// The fast QuickStep builds contacts straight into its lanes (four at a
/// time for plain ones) but contacts with feedback through their rows:
/// two copies of a scene mixing every surface mode each path handles, one
/// with feedback on all contacts, stay bit-identical for 150 steps
/// (`ctests/t_fast_contact_fill.c`).
#[test]
fn solver_fast_contact_lanes_match_row_path() {
    let out = run_with_solver("t_fast_contact_fill", "fast", &[]);
    assert!(out.contains("PASS 6003"), "{out}");
}

#[test]
fn solver_fast_mode_physics_programs_pass() {
    for name in FAST_MODE_PROGRAMS {
        run_with_solver(name, "fast", &[]);
    }
}

/// A PyODE program (Debian's python3-pyode, unmodified) that cannot call
/// `odexWorldSetSolverMode`: a 3-box stack dropped on a plane and stepped
/// with `quickStep`; prints each box's final position.
const PYODE_STACK: &str = r#"
import ode
world = ode.World()
world.setGravity((0, 0, -9.81))
world.setQuickStepNumIterations(20)
space = ode.HashSpace()
floor = ode.GeomPlane(space, (0, 0, 1), 0)
group = ode.JointGroup()
boxes, geoms = [], []  # PyODE destroys a geom whose Python object dies
for i in range(3):
    b = ode.Body(world)
    m = ode.Mass()
    m.setBoxTotal(1.0, 1, 1, 1)
    b.setMass(m)
    b.setPosition((0, 0, 0.55 + 1.05 * i))
    g = ode.GeomBox(space, lengths=(1, 1, 1))
    g.setBody(b)
    boxes.append(b)
    geoms.append(g)
def near(args, g1, g2):
    for c in ode.collide(g1, g2):
        c.setMu(0.8)
        j = ode.ContactJoint(world, group, c)
        j.attach(g1.getBody(), g2.getBody())
for step in range(500):
    space.collide(None, near)
    world.quickStep(0.01)
    group.empty()
for b in boxes:
    print("%.12g %.12g %.12g" % b.getPosition())
"#;

/// PyODE opts in through `ODE_SOLVER=fast` alone: the stack comes to rest
/// standing (each box within 5 cm of its resting place; ODE's own drift
/// here is 1.8 cm, fast mode's 1.2 cm), and the trace is
/// not exact mode's (so the variable did switch the solver).
#[test]
fn solver_fast_mode_pyode_through_env() {
    require_reference();
    let python = "/usr/bin/python3";
    let ok = Command::new(python).args(["-c", "import ode"]).output().map(|o| o.status.success()).unwrap_or(false);
    assert!(ok, "python3-pyode is required (apt-get install python3-pyode; scripts/test-all.sh does)");
    let script = scratch().join("pyode_fast_stack.py");
    std::fs::write(&script, PYODE_STACK).unwrap();
    let run = |mode: &str| {
        let o = Command::new(python)
            .arg(&script)
            .env("LD_LIBRARY_PATH", our_lib_dir())
            .env("ODE_SOLVER", mode)
            .output()
            .expect("cannot run python3");
        assert!(o.status.success(), "PyODE ({mode}): {}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let fast = run("fast");
    let exact = run("exact");
    assert_ne!(fast, exact, "ODE_SOLVER=fast changed nothing");
    for (i, line) in fast.lines().enumerate() {
        let p = numbers(line);
        let rest = 0.5 + i as f64;
        assert!(p[0].hypot(p[1]) < 0.05 && (p[2] - rest).abs() < 0.01, "box {i} not standing at rest: {line}");
    }
    assert_eq!(fast.lines().count(), 3);
}

/// Fast mode's result does not depend on the thread count: the 19-island
/// scene of `ctests/diff_pipeline_islands.c` (QuickStep with collision,
/// then Step) gives one trace with ODE_THREADS=1, 2 and 4, which differs
/// from exact mode's (the variable did switch the solver).
#[test]
fn solver_fast_mode_same_result_at_any_thread_count() {
    let bin = build_c("diff_pipeline_islands_fast", &["diff_pipeline_islands.c"], Headers::Ours, &[]);
    let run = |mode: &str, threads: &str| {
        let o = Command::new(&bin)
            .env("LD_LIBRARY_PATH", our_lib_dir())
            .env("ODE_SOLVER", mode)
            .env("ODE_THREADS", threads)
            .output()
            .expect("cannot run test program");
        assert!(o.status.success(), "ODE_SOLVER={mode} ODE_THREADS={threads}: {}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let serial = run("fast", "1");
    assert!(serial.lines().count() > 1000);
    assert_ne!(serial, run("exact", "1"), "ODE_SOLVER=fast changed nothing");
    // Several runs each: a dependence on which thread stepped which island
    // shows only in some runs (a per-thread factorisation-plan cache once
    // differed in about one 4-thread run in ten).
    for t in ["2", "4", "2", "4", "2", "4", "2", "4"] {
        assert!(run("fast", t) == serial, "ODE_SOLVER=fast ODE_THREADS={t} differs from the serial trace");
    }
}

/// The fast QuickStep's large-island path (overflow rows swept as
/// `Single`s, runs of items shuffled instead of items), forced on small
/// islands with `ODE_FAST_LARGE_ISLAND_BYTES=0`
/// (`ctests/t_fast_large_island.c`: a block of boxes with overflow rows and
/// a layer of spheres, contacts as demo_space_stress makes them): the
/// physics checks pass (nothing sinks, the block stands still), the trace
/// is the same at ODE_THREADS=1 and 2 (two islands), and differs from the
/// default path's (so the variable did switch it), which passes too.
#[test]
fn solver_fast_large_island_path_rests_and_ignores_threads() {
    let bin = build_c("t_fast_large_island", &["t_fast_large_island.c"], Headers::Ours, &[]);
    let run = |gate: Option<&str>, threads: &str| {
        let mut c = Command::new(&bin);
        c.env("LD_LIBRARY_PATH", our_lib_dir()).env("ODE_SOLVER", "fast").env("ODE_THREADS", threads);
        if let Some(g) = gate {
            c.env("ODE_FAST_LARGE_ISLAND_BYTES", g);
        }
        let o = c.output().expect("cannot run test program");
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(o.status.success() && out.contains("PASS 219"), "gate {gate:?} threads {threads}:\n{out}");
        out
    };
    let serial = run(Some("0"), "1");
    for _ in 0..3 {
        assert!(run(Some("0"), "2") == serial, "large-island path: ODE_THREADS=2 differs from the serial trace");
    }
    assert_ne!(run(None, "1"), serial, "ODE_FAST_LARGE_ISLAND_BYTES=0 changed nothing");
}
