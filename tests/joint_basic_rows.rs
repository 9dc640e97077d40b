//! Constraint rows of the joint types (`info1`/`info2`) against closed-form
//! kinematics: the rows of each joint must annihilate exactly the motions
//! the joint allows (J·v = 0), have the right rank, measure the violated
//! motion with the right sign, and put ODE's right-hand sides, bounds and
//! friction indices in ODE's row order.
use ode::dynamics::body::create_body;
use ode::dynamics::body::{Body, BodyRef};
use ode::dynamics::world::{create_world, WorldRef};
use ode::joints::ball::{bodies_of, Ball};
use ode::joints::contact::{mode, ContactJoint, ContactPoint, Surface};
use ode::joints::fixed::Fixed;
use ode::joints::hinge::Hinge;
use ode::joints::limit_motor::{Limit, Param};
use ode::joints::object::destroy_world;
use ode::joints::slider::Slider;
use ode::joints::{flags, Info1, JointHead, JointKind, Row, RowCtx};
use ode::math::rotation::{q_from_axis_and_angle, q_mult0};
use ode::math::vec::{cross3, dot3};
use std::f64::consts::FRAC_PI_2;

const FPS: f64 = 100.0;

struct Scene {
    w: WorldRef,
}

impl Drop for Scene {
    fn drop(&mut self) {
        destroy_world(self.w);
    }
}

fn scene() -> Scene {
    Scene { w: create_world() }
}

fn body(s: &Scene, p: [f64; 3], axis: [f64; 3], angle: f64) -> BodyRef {
    let b = create_body(s.w);
    b.get_mut().set_position(p);
    let q = q_from_axis_and_angle(axis[0], axis[1], axis[2], angle);
    b.get_mut().set_rotation_prepared(Body::prepare_quaternion(&q).unwrap());
    b
}

/// Rotates a body by `angle` about the world axis `a` through point `c`.
fn turn(b: BodyRef, a: [f64; 3], c: [f64; 3], angle: f64) {
    let r = q_from_axis_and_angle(a[0], a[1], a[2], angle);
    let rm = ode::math::rotation::q_to_r(&r);
    let bb = b.get_mut();
    let d = [bb.pos[0] - c[0], bb.pos[1] - c[1], bb.pos[2] - c[2]];
    let dn = ode::math::mat3::mul0_331(&rm, &d);
    bb.set_position([c[0] + dn[0], c[1] + dn[1], c[2] + dn[2]]);
    let q = q_mult0(&r, &bb.q);
    bb.set_rotation_prepared(Body::prepare_quaternion(&q).unwrap());
}

fn head(s: &Scene, b1: Option<BodyRef>, b2: Option<BodyRef>) -> JointHead {
    let (body, fl) = match (b1, b2) {
        (None, b) => ([b, None], if b.is_some() { flags::REVERSE } else { 0 }),
        (a, b) => ([a, b], 0),
    };
    let mut h = JointHead::new(s.w, None);
    h.body = body;
    h.flags = fl;
    h
}

fn rows(s: &Scene, k: &mut JointKind, h: &JointHead) -> (Info1, Vec<Row>) {
    let w = s.w.get();
    let b = bodies_of(h);
    let i1 = k.info1(h, b);
    let mut r = vec![Row::initial(w.cfm); i1.m];
    let ctx = RowCtx { fps: FPS, erp: w.erp, world: w };
    k.info2(h, b, &ctx, &mut r);
    (i1, r)
}

/// Velocities (v1, w1, v2, w2).
type Vel = [[f64; 3]; 4];

fn jv(r: &Row, v: &Vel) -> f64 {
    dot3(&r.j1l, &v[0]) + dot3(&r.j1a, &v[1]) + dot3(&r.j2l, &v[2]) + dot3(&r.j2a, &v[3])
}

/// Velocity of a body rotating with angular velocity `w` about point `c`
/// while translating with `t`.
fn rigid(p: [f64; 3], c: [f64; 3], w: [f64; 3], t: [f64; 3]) -> ([f64; 3], [f64; 3]) {
    let d = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
    let x = cross3(&w, &d);
    ([t[0] + x[0], t[1] + x[1], t[2] + x[2]], w)
}

fn pos(b: BodyRef) -> [f64; 3] {
    let p = b.get().pos;
    [p[0], p[1], p[2]]
}

/// Both bodies moving as one rigid body: every joint allows this.
fn common_motion(b1: BodyRef, b2: Option<BodyRef>) -> Vel {
    let (c, w, t) = ([0.3, -1.0, 0.2], [0.4, 0.1, -0.7], [0.3, -0.2, 0.5]);
    let (v1, w1) = rigid(pos(b1), c, w, t);
    let (v2, w2) = b2.map_or(([0.0; 3], [0.0; 3]), |b| rigid(pos(b), c, w, t));
    [v1, w1, v2, w2]
}

/// Rank of the 12-wide row vectors (Gaussian elimination).
fn rank(rows: &[Row]) -> usize {
    let mut m: Vec<Vec<f64>> = rows.iter().map(|r| [r.j1l, r.j1a, r.j2l, r.j2a].concat()).collect();
    let mut rank = 0;
    for col in 0..12 {
        let Some(p) = (rank..m.len()).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs())) else { break };
        if m[p][col].abs() < 1e-9 {
            continue;
        }
        m.swap(rank, p);
        for i in 0..m.len() {
            if i != rank {
                let f = m[i][col] / m[rank][col];
                for k in 0..12 {
                    m[i][k] -= f * m[rank][k];
                }
            }
        }
        rank += 1;
    }
    rank
}

fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() <= 1e-12 * (1.0 + b.abs()), "{what}: {a} vs {b}");
}

const ANCHOR: [f64; 3] = [0.5, 0.1, 1.0];
const AXIS: [f64; 3] = [0.2, 0.9, -0.4];

fn unit(a: [f64; 3]) -> [f64; 3] {
    let l = dot3(&a, &a).sqrt();
    [a[0] / l, a[1] / l, a[2] / l]
}

#[test]
fn hinge_rows_allow_exactly_the_rotation_about_the_axis() {
    let s = scene();
    let b1 = body(&s, [0.3, -0.2, 1.1], [0.3, 1.0, -0.5], 0.7);
    let b2 = body(&s, [1.2, 0.4, 0.9], [-0.6, 0.2, 1.0], 1.9);
    for two in [true, false] {
        let h = head(&s, Some(b1), two.then_some(b2));
        let mut hinge = Hinge::new(s.w.get());
        hinge.set_anchor(bodies_of(&h), ANCHOR);
        hinge.set_axis(bodies_of(&h), AXIS);
        hinge.limot.set(Param::FMax, 3.0);
        hinge.limot.set(Param::Vel, 0.5);
        let mut k = JointKind::Hinge(Box::new(hinge));
        let (i1, r) = rows(&s, &mut k, &h);
        assert_eq!(i1, Info1 { m: 6, nub: 5 });
        assert_eq!(rank(&r[..5]), 5);
        assert_eq!(rank(&r), 6);
        for (i, row) in r.iter().enumerate() {
            close(row.c, if i == 5 { 0.5 } else { 0.0 }, "rhs of an aligned hinge");
        }
        assert_eq!((r[5].lo, r[5].hi), (-3.0, 3.0));
        if two {
            let v = common_motion(b1, Some(b2));
            for row in &r {
                close(jv(row, &v), 0.0, "common rigid motion");
            }
        }
        // Body 1 turning about the hinge line: only the motor row sees it,
        // as the axis rate.
        let a = unit(AXIS);
        let om = 0.8;
        let (v1, w1) = rigid(pos(b1), ANCHOR, [om * a[0], om * a[1], om * a[2]], [0.0; 3]);
        let v = [v1, w1, [0.0; 3], [0.0; 3]];
        for row in &r[..5] {
            close(jv(row, &v), 0.0, "rotation about the hinge axis");
        }
        close(jv(&r[5], &v), om, "motor row measures the axis rate");
        // Turning about a perpendicular axis, or sliding, is constrained.
        let p = unit(cross3(&AXIS, &[1.0, 0.0, 0.0]));
        let (v1, w1) = rigid(pos(b1), ANCHOR, p, [0.0; 3]);
        assert!(r[3..5].iter().map(|row| jv(row, &[v1, w1, [0.0; 3], [0.0; 3]]).abs()).sum::<f64>() > 0.5);
        let v = [[0.0, 0.0, 1.0], [0.0; 3], [0.0; 3], [0.0; 3]];
        close(r[2].c + jv(&r[2], &v), 1.0, "ball row z sees a z translation");
    }
}

#[test]
fn ball_rows_pull_the_anchors_together_with_the_joint_erp_and_cfm() {
    let s = scene();
    let b1 = body(&s, [0.3, -0.2, 1.1], [0.3, 1.0, -0.5], 0.7);
    let b2 = body(&s, [1.2, 0.4, 0.9], [-0.6, 0.2, 1.0], 1.9);
    let h = head(&s, Some(b1), Some(b2));
    let mut ball = Ball::new(s.w.get());
    ball.set_anchor(bodies_of(&h), ANCHOR);
    ball.set_param(Param::Erp, 0.5);
    ball.set_param(Param::Cfm, 1e-3);
    let mut k = JointKind::Ball(ball);
    let (i1, r) = rows(&s, &mut k, &h);
    assert_eq!(i1, Info1 { m: 3, nub: 3 });
    assert_eq!(rank(&r), 3);
    let v = common_motion(b1, Some(b2));
    for row in &r {
        close(jv(row, &v), 0.0, "common rigid motion");
        close(row.c, 0.0, "aligned anchors");
        assert_eq!(row.cfm, 1e-3);
    }
    // Rotating about the anchor is free.
    let (v1, w1) = rigid(pos(b1), ANCHOR, [0.3, -0.9, 0.4], [0.0; 3]);
    for row in &r {
        close(jv(row, &[v1, w1, [0.0; 3], [0.0; 3]]), 0.0, "rotation about the anchor");
    }
    // Moving body 2 by d: the right-hand side is fps·erp·d (anchor 2 − anchor 1).
    let d = [0.01, -0.02, 0.005];
    let p2 = pos(b2);
    b2.get_mut().set_position([p2[0] + d[0], p2[1] + d[1], p2[2] + d[2]]);
    let (_, r) = rows(&s, &mut k, &h);
    for i in 0..3 {
        close(r[i].c, FPS * 0.5 * d[i], "ball rhs");
    }
}

#[test]
fn hinge_angle_signs_and_stops() {
    let s = scene();
    let b1 = body(&s, [0.3, -0.2, 1.1], [0.3, 1.0, -0.5], 0.7);
    let b2 = body(&s, [1.2, 0.4, 0.9], [-0.6, 0.2, 1.0], 1.9);
    // (b1, static): turning b1 by +90° about the axis reads +π/2;
    // (b1, b2): turning b2 reads −π/2; (static, b1): turning b1 reads −π/2.
    for (case, want) in [(0, FRAC_PI_2), (1, -FRAC_PI_2), (2, -FRAC_PI_2)] {
        let h = match case {
            0 => head(&s, Some(b1), None),
            1 => head(&s, Some(b1), Some(b2)),
            _ => head(&s, None, Some(b1)),
        };
        let mut hinge = Hinge::new(s.w.get());
        hinge.set_anchor(bodies_of(&h), ANCHOR);
        hinge.set_axis(bodies_of(&h), AXIS);
        close(hinge.angle(&h, bodies_of(&h)), 0.0, "angle after setting the axis");
        let moved = if case == 1 { b2 } else { b1 };
        turn(moved, AXIS, ANCHOR, FRAC_PI_2);
        close(hinge.angle(&h, bodies_of(&h)), want, "hinge angle");
        // The rate has the same sign convention.
        let a = unit(AXIS);
        moved.get_mut().set_angular_vel([a[0] * 2.0, a[1] * 2.0, a[2] * 2.0]);
        close(hinge.angle_rate(&h, bodies_of(&h)), 2.0 * want / FRAC_PI_2, "hinge rate");
        moved.get_mut().set_angular_vel([0.0; 3]);
        turn(moved, AXIS, ANCHOR, -FRAC_PI_2);
    }

    // A stop engages exactly when the angle reaches it.
    let h = head(&s, Some(b1), None);
    let mut hinge = Hinge::new(s.w.get());
    hinge.set_anchor(bodies_of(&h), ANCHOR);
    hinge.set_axis(bodies_of(&h), AXIS);
    turn(b1, AXIS, ANCHOR, 0.3);
    let angle = hinge.angle(&h, bodies_of(&h));
    hinge.limot.set(Param::HiStop, angle + 1e-9);
    hinge.limot.set(Param::StopErp, 0.5);
    let mut k = JointKind::Hinge(Box::new(hinge.clone()));
    assert_eq!(rows(&s, &mut k, &h).0, Info1 { m: 5, nub: 5 });
    hinge.limot.set(Param::HiStop, angle);
    let mut k = JointKind::Hinge(Box::new(hinge.clone()));
    let (i1, r) = rows(&s, &mut k, &h);
    assert_eq!(i1, Info1 { m: 6, nub: 5 });
    let JointKind::Hinge(hk) = &k else { unreachable!() };
    assert_eq!(hk.limot.limit, Limit::High);
    assert_eq!((r[5].lo, r[5].hi, r[5].c), (f64::NEG_INFINITY, 0.0, 0.0));
    // Past the stop by e: rhs −fps·stop_erp·e pushes back.
    hinge.limot.set(Param::HiStop, angle - 0.01);
    let mut k = JointKind::Hinge(Box::new(hinge.clone()));
    let (_, r) = rows(&s, &mut k, &h);
    assert!((r[5].c - (-FPS * 0.5 * 0.01)).abs() < 1e-9, "stop rhs {}", r[5].c);
    assert_eq!(r[5].cfm, s.w.get().cfm);
    // Bounce: moving into the high stop at rate u gives rhs −bounce·u when
    // that exceeds the position correction.
    hinge.limot.set(Param::Bounce, 0.5);
    let a = unit(AXIS);
    b1.get_mut().set_angular_vel([a[0] * 3.0, a[1] * 3.0, a[2] * 3.0]);
    let mut k = JointKind::Hinge(Box::new(hinge.clone()));
    let (_, r) = rows(&s, &mut k, &h);
    close(r[5].c, -1.5, "bounce rhs");
}

#[test]
fn powered_hinge_at_a_stop_pushes_the_bodies() {
    let s = scene();
    let b1 = body(&s, [0.3, -0.2, 1.1], [0.3, 1.0, -0.5], 0.7);
    let b2 = body(&s, [1.2, 0.4, 0.9], [-0.6, 0.2, 1.0], 1.9);
    let h = head(&s, Some(b1), Some(b2));
    let mut hinge = Hinge::new(s.w.get());
    hinge.set_anchor(bodies_of(&h), ANCHOR);
    hinge.set_axis(bodies_of(&h), AXIS);
    hinge.limot.set(Param::LoStop, 0.1);
    hinge.limot.set(Param::HiStop, 1.0);
    hinge.limot.set(Param::FMax, 4.0);
    hinge.limot.set(Param::FudgeFactor, 0.25);
    let a = unit(AXIS);
    for (vel, want) in [(-1.0, 4.0), (1.0, -1.0)] {
        // At the low stop; driving into it pushes with full force (torque
        // +fmax·axis on body 2's side: fm = fmax), driving away with the
        // fudge factor.
        hinge.limot.set(Param::Vel, vel);
        let mut k = JointKind::Hinge(Box::new(hinge.clone()));
        let (i1, r) = rows(&s, &mut k, &h);
        assert_eq!(i1.m, 6);
        assert_eq!((r[5].lo, r[5].hi), (0.0, f64::INFINITY), "stop row, not motor row");
        b1.get_mut().set_torque([0.0; 3]);
        b2.get_mut().set_torque([0.0; 3]);
        k.apply_body_push(&h);
        let t1 = b1.get().tacc;
        let t2 = b2.get().tacc;
        for i in 0..3 {
            close(t2[i], want * a[i], "torque on body 2");
            close(t1[i], -want * a[i], "torque on body 1");
        }
        // Applied once only.
        k.apply_body_push(&h);
        assert_eq!(b1.get().tacc, t1);
    }
}

#[test]
fn slider_rows_allow_exactly_the_translation_along_the_axis() {
    let s = scene();
    let b1 = body(&s, [0.3, -0.2, 1.1], [0.3, 1.0, -0.5], 0.7);
    let b2 = body(&s, [1.2, 0.4, 0.9], [-0.6, 0.2, 1.0], 1.9);
    for two in [true, false] {
        let h = head(&s, Some(b1), two.then_some(b2));
        let mut sl = Slider::new(s.w.get());
        sl.set_axis(bodies_of(&h), AXIS);
        sl.limot.set(Param::FMax, 2.0);
        let mut k = JointKind::Slider(Box::new(sl));
        let (i1, r) = rows(&s, &mut k, &h);
        assert_eq!(i1, Info1 { m: 6, nub: 5 });
        assert_eq!(rank(&r[..5]), 5);
        for row in &r[..5] {
            close(row.c, 0.0, "aligned slider rhs");
        }
        if two {
            let v = common_motion(b1, Some(b2));
            for row in &r {
                close(jv(row, &v), 0.0, "common rigid motion");
            }
        }
        let a = unit(AXIS);
        let v = [[0.7 * a[0], 0.7 * a[1], 0.7 * a[2]], [0.0; 3], [0.0; 3], [0.0; 3]];
        for row in &r[..5] {
            close(jv(row, &v), 0.0, "sliding along the axis");
        }
        close(jv(&r[5], &v), 0.7, "motor row measures the slide rate");
        // Position follows the displacement along the axis.
        let JointKind::Slider(sl) = &k else { unreachable!() };
        let p = pos(b1);
        b1.get_mut().set_position([p[0] + 0.3 * a[0], p[1] + 0.3 * a[1], p[2] + 0.3 * a[2]]);
        close(sl.position(&h, bodies_of(&h)).unwrap(), 0.3, "slider position");
        b1.get_mut().set_position(p);
    }
}

#[test]
fn slider_stops_and_reverse_sign() {
    let s = scene();
    let b1 = body(&s, [0.3, -0.2, 1.1], [0.3, 1.0, -0.5], 0.7);
    let h = head(&s, None, Some(b1));
    let mut sl = Slider::new(s.w.get());
    sl.set_axis(bodies_of(&h), AXIS);
    let a = unit(AXIS);
    let p = pos(b1);
    b1.get_mut().set_position([p[0] + 0.2 * a[0], p[1] + 0.2 * a[1], p[2] + 0.2 * a[2]]);
    // Attached as (static, b1): position counts the other way.
    close(sl.position(&h, bodies_of(&h)).unwrap(), -0.2, "reversed position");
    sl.limot.set(Param::LoStop, -0.1);
    let mut k = JointKind::Slider(Box::new(sl));
    let (i1, r) = rows(&s, &mut k, &h);
    assert_eq!(i1.m, 6);
    assert_eq!((r[5].lo, r[5].hi), (0.0, f64::INFINITY));
    close(r[5].c, -FPS * s.w.get().erp * -0.1, "stop correction");
    // The row's axis is the reversed one: the slide rate as the user sees it.
    let v = [[a[0], a[1], a[2]], [0.0; 3], [0.0; 3], [0.0; 3]];
    close(jv(&r[5], &v), -1.0, "reversed limit row");
}

#[test]
fn fixed_rows_allow_only_common_motion() {
    let s = scene();
    let b1 = body(&s, [0.3, -0.2, 1.1], [0.3, 1.0, -0.5], 0.7);
    let b2 = body(&s, [1.2, 0.4, 0.9], [-0.6, 0.2, 1.0], 1.9);
    let h = head(&s, Some(b1), Some(b2));
    let mut f = Fixed::new(s.w.get());
    f.set_fixed(bodies_of(&h));
    f.set_param(Param::Cfm, 1e-4);
    let mut k = JointKind::Fixed(f);
    let (i1, r) = rows(&s, &mut k, &h);
    assert_eq!(i1, Info1 { m: 6, nub: 6 });
    assert_eq!(rank(&r), 6);
    let v = common_motion(b1, Some(b2));
    for (i, row) in r.iter().enumerate() {
        close(jv(row, &v), 0.0, "common rigid motion");
        close(row.c, 0.0, "unmoved fixed joint");
        assert_eq!(row.cfm, if i < 3 { 1e-4 } else { s.w.get().cfm }, "row {i} cfm");
    }
    // A small relative turn is corrected at fps·erp per unit angle.
    turn(b2, [0.0, 0.0, 1.0], pos(b2), 0.01);
    let (_, r) = rows(&s, &mut k, &h);
    let erp = s.w.get().erp;
    // The rows ask for w1 − w2 = c: body 2 turned +0.01 about z, so c is
    // +2·fps·erp·sin(0.005) about z (body 2 turns back).
    let corr = [r[3].c, r[4].c, r[5].c];
    assert!(corr[0].abs() < 1e-12 && corr[1].abs() < 1e-12, "{corr:?}");
    close(corr[2], 2.0 * FPS * erp * (0.005f64).sin(), "orientation correction");
    for row in &r[..3] {
        close(row.c, 0.0, "position rows unaffected by a turn about the centre");
    }
}

fn contact(mode_bits: i32, mu: f64) -> ContactJoint {
    let surface = Surface { mode: mode_bits, mu, ..Surface::default() };
    let geom = ContactPoint {
        pos: [0.3, -0.2, 0.6],
        normal: [0.0, 0.0, 1.0],
        depth: 0.01,
        g1: std::ptr::null_mut(),
        g2: std::ptr::null_mut(),
        side1: 0,
        side2: 0,
    };
    ContactJoint::new(surface, geom, [1.0, 0.0, 0.0])
}

#[test]
fn contact_row_counts_follow_the_surface_mode() {
    let s = scene();
    let b1 = body(&s, [0.3, -0.2, 1.1], [0.3, 1.0, -0.5], 0.7);
    let h = head(&s, Some(b1), None);
    let inf = f64::INFINITY;
    let cases: &[(i32, f64, f64, [f64; 3], usize, usize)] = &[
        (0, 0.0, 0.0, [0.0; 3], 1, 0),
        (0, -1.0, 0.0, [0.0; 3], 1, 0),
        (0, 0.5, 0.0, [0.0; 3], 3, 0),
        (0, inf, 0.0, [0.0; 3], 3, 2),
        (mode::MU2, 0.5, 0.0, [0.0; 3], 2, 0),
        (mode::MU2, 0.0, 0.5, [0.0; 3], 2, 0),
        (mode::MU2, inf, 0.5, [0.0; 3], 3, 1),
        (mode::ROLLING, 0.5, 0.0, [0.1, 0.0, 0.0], 6, 0),
        (mode::ROLLING, 0.0, 0.0, [0.1, 0.0, 0.0], 4, 0),
        // ODE 0.16 counts rolling rows for rho = 0 (only negative is clamped).
        (mode::ROLLING, 0.5, 0.0, [0.0, 0.0, 0.0], 6, 0),
        (mode::ROLLING, 0.5, 0.0, [-1.0, 0.0, 0.0], 3, 0),
        (mode::ROLLING, 0.5, 0.0, [inf, 0.0, 0.0], 6, 3),
        (mode::ROLLING | mode::AXIS_DEP, 0.5, 0.5, [0.1, -1.0, 0.2], 5, 0),
        (mode::ROLLING | mode::AXIS_DEP, 0.5, 0.0, [0.1, 0.0, inf], 5, 1),
    ];
    for &(bits, mu, mu2, rho, m, nub) in cases {
        let mut c = contact(bits, mu);
        c.surface.mu2 = mu2;
        c.surface.rho = rho[0];
        c.surface.rho2 = rho[1];
        c.surface.rho_n = rho[2];
        let mut k = JointKind::Contact(c);
        let (i1, r) = rows(&s, &mut k, &h);
        assert_eq!(i1, Info1 { m, nub }, "mode {bits:#x} mu {mu} mu2 {mu2} rho {rho:?}");
        assert_eq!(r[0].lo, 0.0);
        let JointKind::Contact(c) = &k else { unreachable!() };
        assert!(c.surface.mu >= 0.0 && c.surface.rho >= 0.0 && c.surface.rho2 >= 0.0, "negatives are clamped");
    }
}

#[test]
fn contact_rows_normal_friction_rolling() {
    let s = scene();
    let b1 = body(&s, [0.3, -0.2, 1.1], [0.3, 1.0, -0.5], 0.7);
    let b2 = body(&s, [0.2, 0.1, 0.1], [1.0, 0.0, 0.0], 0.0);
    let h = head(&s, Some(b1), Some(b2));
    let bits = mode::MU2
        | mode::FDIR1
        | mode::ROLLING
        | mode::APPROX1_1
        | mode::APPROX1_N
        | mode::SLIP2
        | mode::MOTION1
        | mode::SOFT_CFM;
    let mut c = contact(bits, 0.7);
    c.surface.mu2 = 0.4;
    c.surface.rho = 0.1;
    c.surface.rho2 = 0.0;
    c.surface.rho_n = 0.3;
    c.surface.slip2 = 0.01;
    c.surface.motion1 = 0.25;
    c.surface.soft_cfm = 1e-5;
    c.fdir1 = [0.0, 1.0, 0.0];
    let mut k = JointKind::Contact(c);
    let (i1, r) = rows(&s, &mut k, &h);
    // rho2 = 0 still counts a row (left as initialised, last).
    assert_eq!(i1, Info1 { m: 6, nub: 0 });
    assert_eq!(r[5], Row::initial(s.w.get().cfm));
    let w = s.w.get();
    // Normal row: relative velocity of the contact points along n.
    let p = [0.3, -0.2, 0.6];
    let (v1, w1) = rigid(pos(b1), p, [0.3, 0.9, -0.1], [0.0, 0.0, -2.0]);
    close(jv(&r[0], &[v1, w1, [0.0; 3], [0.0; 3]]), -2.0, "approach speed");
    let v = common_motion(b1, Some(b2));
    for row in &r {
        close(jv(row, &v), 0.0, "common rigid motion");
    }
    close(r[0].c, (FPS * w.erp * 0.01).min(w.contactp.max_vel), "normal rhs");
    assert_eq!((r[0].cfm, r[0].lo, r[0].hi, r[0].findex), (1e-5, 0.0, f64::INFINITY, -1));
    // Friction along fdir1 then n × fdir1 = −x.
    assert_eq!(r[1].j1l, [0.0, 1.0, 0.0]);
    assert_eq!(r[2].j1l, [-1.0, 0.0, 0.0]);
    assert_eq!((r[1].lo, r[1].hi, r[1].findex, r[1].c), (-0.7, 0.7, 0, 0.25));
    assert_eq!((r[2].lo, r[2].hi, r[2].findex, r[2].cfm), (-0.4, 0.4, -1, 0.01));
    // Rolling about t1 (rho), none about t2 (rho2 = 0), spinning about n.
    assert_eq!((r[3].j1a, r[3].j2a, r[3].j1l), ([0.0, 1.0, 0.0], [0.0, -1.0, 0.0], [0.0; 3]));
    assert_eq!((r[3].lo, r[3].hi, r[3].findex), (-0.1, 0.1, 0));
    assert_eq!((r[4].j1a, r[4].lo, r[4].hi, r[4].findex), ([0.0, 0.0, 1.0], -0.3, 0.3, 0));
}

#[test]
fn contact_bounce_depth_and_correction_speed() {
    let s = scene();
    let b1 = body(&s, [0.3, -0.2, 1.1], [0.3, 1.0, -0.5], 0.7);
    b1.get_mut().set_linear_vel([0.0, 0.0, -3.0]);
    let w = s.w.get_mut();
    w.contactp.min_depth = 0.004;
    w.contactp.max_vel = 0.5;
    // Depth 0.01 − layer 0.004 at fps·erp (soft ERP 0.5): 0.3 < 0.5.
    let mut c = contact(mode::SOFT_ERP, 0.0);
    c.surface.soft_erp = 0.5;
    let mut k = JointKind::Contact(c.clone());
    let h = head(&s, Some(b1), None);
    close(rows(&s, &mut k, &h).1[0].c, FPS * 0.5 * 0.006, "soft ERP pushout");
    // Capped at max_vel.
    c.geom.depth = 0.1;
    let mut k = JointKind::Contact(c.clone());
    close(rows(&s, &mut k, &h).1[0].c, 0.5, "capped correction");
    // Bounce: incoming 3 m/s, bounce 0.6 → 1.8, larger than the cap.
    c.surface.mode |= mode::BOUNCE;
    c.surface.bounce = 0.6;
    c.surface.bounce_vel = 0.1;
    let mut k = JointKind::Contact(c.clone());
    close(rows(&s, &mut k, &h).1[0].c, 1.8, "bounce");
    // Below the bounce threshold: no bounce.
    c.surface.bounce_vel = 5.0;
    let mut k = JointKind::Contact(c.clone());
    close(rows(&s, &mut k, &h).1[0].c, 0.5, "below bounce_vel");
    // REVERSE flips the normal: the row sees body 1 separating.
    let hr = head(&s, None, Some(b1));
    let mut k = JointKind::Contact(c);
    let r = rows(&s, &mut k, &hr).1;
    assert_eq!(r[0].j1l, [0.0, 0.0, -1.0]);
}
