//! Closed-form checks of the angular/linear motor, plane-2D, double ball
//! and double hinge rows and read-outs: Euler angles of known relative
//! rotations, rows that annihilate exactly the motions each joint allows,
//! motor rows with ODE's bounds, and the double ball's measured distance.
use ode::dynamics::body::create_body;
use ode::dynamics::body::{Body, BodyRef};
use ode::dynamics::world::{create_world, WorldRef};
use ode::joints::amotor::{AMotor, MODE_EULER};
use ode::joints::ball::bodies_of;
use ode::joints::dball::DBall;
use ode::joints::dhinge::DHinge;
use ode::joints::limit_motor::Param;
use ode::joints::lmotor::LMotor;
use ode::joints::object::destroy_world;
use ode::joints::plane2d::Plane2D;
use ode::joints::{flags, Info1, JointHead, JointKind, Row, RowCtx};
use ode::math::rotation::q_from_axis_and_angle;
use ode::math::vec::{cross3, dot3};

struct Scene {
    w: WorldRef,
}

impl Drop for Scene {
    fn drop(&mut self) {
        destroy_world(self.w);
    }
}

fn body(s: &Scene, p: [f64; 3], axis: [f64; 3], angle: f64) -> BodyRef {
    let b = create_body(s.w);
    b.get_mut().set_position(p);
    let q = q_from_axis_and_angle(axis[0], axis[1], axis[2], angle);
    b.get_mut().set_rotation_prepared(Body::prepare_quaternion(&q).unwrap());
    b
}

fn head(s: &Scene, b1: Option<BodyRef>, b2: Option<BodyRef>) -> JointHead {
    let mut h = JointHead::new(s.w, None);
    match (b1, b2) {
        (None, b) => {
            h.body = [b, None];
            h.flags = flags::REVERSE;
        }
        (a, b) => h.body = [a, b],
    }
    h
}

fn rows(s: &Scene, k: &mut JointKind, h: &JointHead) -> (Info1, Vec<Row>) {
    let w = s.w.get();
    let b = bodies_of(h);
    let i1 = k.info1(h, b);
    let mut r = vec![Row::initial(w.cfm); i1.m];
    let ctx = RowCtx { fps: 100.0, erp: w.erp, world: w };
    k.info2(h, b, &ctx, &mut r);
    (i1, r)
}

type Vel = [[f64; 3]; 4];

fn jv(r: &Row, v: &Vel) -> f64 {
    dot3(&r.j1l, &v[0]) + dot3(&r.j1a, &v[1]) + dot3(&r.j2l, &v[2]) + dot3(&r.j2a, &v[3])
}

/// Both bodies moving as one rigid body (rotation `w` about `c`, plus `t`).
fn common(b1: BodyRef, b2: Option<BodyRef>) -> Vel {
    let (c, w, t) = ([0.3, -1.0, 0.2], [0.4, 0.1, -0.7], [0.3, -0.2, 0.5]);
    let v = |b: BodyRef| {
        let p = b.get().pos;
        let x = cross3(&w, &[p[0] - c[0], p[1] - c[1], p[2] - c[2]]);
        [t[0] + x[0], t[1] + x[1], t[2] + x[2]]
    };
    match b2 {
        Some(b2) => [v(b1), w, v(b2), w],
        None => [[0.0; 3]; 4],
    }
}

fn euler_angles(rot_b1: ([f64; 3], f64), rot_b2: ([f64; 3], f64)) -> [f64; 3] {
    let s = Scene { w: create_world() };
    let a = body(&s, [0.0; 3], [0.0, 0.0, 1.0], 0.0);
    let b = body(&s, [1.0, 0.0, 0.0], [0.0, 0.0, 1.0], 0.0);
    let h = head(&s, Some(a), Some(b));
    let mut m = AMotor::new(s.w.get());
    m.set_mode(&h, bodies_of(&h), MODE_EULER);
    m.set_axis(&h, bodies_of(&h), 0, 1, [1.0, 0.0, 0.0]);
    m.set_axis(&h, bodies_of(&h), 2, 2, [0.0, 0.0, 1.0]);
    for (bd, (ax, ang)) in [(a, rot_b1), (b, rot_b2)] {
        let q = q_from_axis_and_angle(ax[0], ax[1], ax[2], ang);
        bd.get_mut().set_rotation_prepared(Body::prepare_quaternion(&q).unwrap());
    }
    let mut k = JointKind::AMotor(Box::new(m));
    rows(&s, &mut k, &h);
    let JointKind::AMotor(m) = k else { unreachable!() };
    m.angle
}

#[test]
fn euler_angles_of_single_rotations() {
    let none = ([0.0, 0.0, 1.0], 0.0);
    // Body 2 about the body-2 axis (z): only the third angle moves.
    let a = euler_angles(none, ([0.0, 0.0, 1.0], 0.7));
    assert!(a[0].abs() < 1e-12 && a[1].abs() < 1e-12 && (a[2].abs() - 0.7).abs() < 1e-12, "{a:?}");
    // Body 1 about the body-1 axis (x): only the first.
    let a = euler_angles(([1.0, 0.0, 0.0], -0.4), none);
    assert!((a[0].abs() - 0.4).abs() < 1e-12 && a[1].abs() < 1e-12 && a[2].abs() < 1e-12, "{a:?}");
    // Body 2 about the middle axis (z × x = y): only the second.
    let a = euler_angles(none, ([0.0, 1.0, 0.0], 0.3));
    assert!(a[0].abs() < 1e-12 && (a[1].abs() - 0.3).abs() < 1e-12 && a[2].abs() < 1e-12, "{a:?}");
    // Rotating the other body the same way flips the sign.
    let p = euler_angles(none, ([0.0, 0.0, 1.0], 0.7))[2];
    let q = euler_angles(([0.0, 0.0, 1.0], 0.7), none)[2];
    assert!((p + q).abs() < 1e-12, "{p} {q}");
}

#[test]
fn amotor_user_rows_are_motor_rows_about_the_axes() {
    let s = Scene { w: create_world() };
    let a = body(&s, [0.0; 3], [1.0, 1.0, 0.0], 0.5);
    let b = body(&s, [1.0, 0.0, 0.0], [0.0, 1.0, 1.0], -0.3);
    let h = head(&s, Some(a), Some(b));
    let mut m = AMotor::new(s.w.get());
    m.set_num_axes(3);
    let axes = [[1.0, 0.0, 0.0], [0.0, 0.6, 0.8], [0.0, 0.0, 1.0]];
    for (i, ax) in axes.iter().enumerate() {
        m.set_axis(&h, bodies_of(&h), i, i as i32, *ax);
        m.limot[i].set(Param::Vel, i as f64 - 1.0);
        m.limot[i].set(Param::FMax, 2.0 + i as f64);
    }
    m.limot[1].set(Param::FMax, 0.0); // axis 1 off
    let mut k = JointKind::AMotor(Box::new(m));
    let (i1, r) = rows(&s, &mut k, &h);
    assert_eq!(i1, Info1 { m: 2, nub: 0 });
    for (row, i) in r.iter().zip([0, 2]) {
        for k in 0..3 {
            assert!((row.j1a[k] - axes[i][k]).abs() < 1e-12 && (row.j2a[k] + axes[i][k]).abs() < 1e-12);
        }
        assert_eq!((row.j1l, row.j2l), ([0.0; 3], [0.0; 3]));
        assert_eq!((row.c, row.lo, row.hi), (i as f64 - 1.0, -(2.0 + i as f64), 2.0 + i as f64));
        // A common rotation leaves the motor's relative rate at zero.
        assert!(jv(row, &common(a, Some(b))).abs() < 1e-12);
    }
}

#[test]
fn lmotor_and_plane2d_rows() {
    let s = Scene { w: create_world() };
    let a = body(&s, [0.0; 3], [1.0, 0.0, 0.0], 0.4);
    let b = body(&s, [1.0, 2.0, 0.0], [0.0, 1.0, 0.0], 0.2);
    let h = head(&s, Some(a), Some(b));
    let mut m = LMotor::new(s.w.get());
    m.num = 2;
    m.set_axis(&h, bodies_of(&h), 0, 1, [0.0, 0.0, 1.0]);
    m.set_axis(&h, bodies_of(&h), 1, 0, [1.0, 0.0, 0.0]);
    m.limot[0].set(Param::FMax, 1.0);
    m.limot[1].set(Param::FMax, 1.0);
    m.limot[1].set(Param::LoStop, 5.0); // never used by the linear motor
    let mut k = JointKind::LMotor(Box::new(m));
    let (i1, r) = rows(&s, &mut k, &h);
    assert_eq!(i1, Info1 { m: 2, nub: 0 });
    for row in &r {
        assert!(jv(row, &common(a, Some(b))).abs() < 1e-12, "{row:?}");
        assert_eq!((row.lo, row.hi), (-1.0, 1.0));
    }
    assert!((dot3(&r[0].j1l, &[0.0, 0.0, 1.0]) - 1.0).abs() < 1e-12);
    assert_eq!(r[1].j1l, [1.0, 0.0, 0.0]);

    // Plane-2D: in-plane translation and spin about z are free; the rest
    // is held, and the z offset is pulled back.
    let c = body(&s, [0.5, 0.5, 0.1], [0.0, 0.0, 1.0], 0.0);
    let hc = head(&s, Some(c), None);
    let mut p = Plane2D::new(s.w.get());
    p.motor[2].set(Param::FMax, 1.0);
    let mut k = JointKind::Plane2D(Box::new(p));
    let (i1, r) = rows(&s, &mut k, &hc);
    assert_eq!(i1, Info1 { m: 4, nub: 3 });
    let free: Vel = [[0.3, -0.7, 0.0], [0.0, 0.0, 2.0], [0.0; 3], [0.0; 3]];
    for row in &r[..3] {
        assert_eq!(jv(row, &free), 0.0);
    }
    for (i, v) in
        [[[0.0, 0.0, 1.0], [0.0; 3]], [[0.0; 3], [1.0, 0.0, 0.0]], [[0.0; 3], [0.0, 1.0, 0.0]]].iter().enumerate()
    {
        assert_eq!(jv(&r[i], &[v[0], v[1], [0.0; 3], [0.0; 3]]), 1.0);
    }
    assert!(r[0].c < 0.0, "z = 0.1 must be corrected downwards");
    assert_eq!(r[3].j1a, [0.0, 0.0, 1.0]);
}

#[test]
fn dball_and_dhinge_rows_allow_exactly_their_motions() {
    let s = Scene { w: create_world() };
    let a = body(&s, [0.0, 0.0, 1.0], [1.0, 2.0, 3.0], 0.5);
    let b = body(&s, [1.5, 0.5, 0.5], [0.0, 1.0, 0.0], -0.8);
    let h = head(&s, Some(a), Some(b));
    let mut d = DBall::new(s.w.get());
    d.set_anchor(&h, bodies_of(&h), 0, [0.2, 0.1, 1.1]);
    d.set_anchor(&h, bodies_of(&h), 1, [1.4, 0.6, 0.6]);
    let expect = (1.2f64 * 1.2 + 0.5 * 0.5 + 0.5 * 0.5).sqrt();
    assert!((d.target - expect).abs() < 1e-12);
    let mut k = JointKind::DBall(d);
    let (i1, r) = rows(&s, &mut k, &h);
    assert_eq!(i1, Info1 { m: 1, nub: 1 });
    assert!(jv(&r[0], &common(a, Some(b))).abs() < 1e-12);
    assert!(r[0].c.abs() < 1e-12, "at the target distance there is no error");
    // The row measures the rate of change of the distance: body 2 moving
    // away along the anchor line at unit speed reads 1.
    let dir = [1.2 / expect, 0.5 / expect, -0.5 / expect];
    assert!((jv(&r[0], &[[0.0; 3], [0.0; 3], dir, [0.0; 3]]) - 1.0).abs() < 1e-12);

    let mut dh = DHinge::new(s.w.get());
    dh.set_axis(bodies_of(&h), [0.0, 0.0, 1.0]);
    dh.ball.set_anchor(&h, bodies_of(&h), 0, [0.0, 0.0, 1.0]);
    dh.ball.set_anchor(&h, bodies_of(&h), 1, [1.5, 0.5, 1.0]);
    let mut k = JointKind::DHinge(dh);
    let (i1, r) = rows(&s, &mut k, &h);
    assert_eq!(i1, Info1 { m: 4, nub: 4 });
    for row in &r {
        assert!(jv(row, &common(a, Some(b))).abs() < 1e-12, "{row:?}");
        assert!(row.c.abs() < 1e-12);
    }
    // Body 2 spinning about the axis through its own anchor is free;
    // tilting it is not.
    let spin = [[0.0; 3], [0.0; 3], cross3(&[0.0, 0.0, 1.0], &[0.0, 0.0, -0.5]), [0.0, 0.0, 1.0]];
    for row in &r {
        assert!(jv(row, &spin).abs() < 1e-12, "{row:?}");
    }
    let tilt = [[0.0; 3], [0.0; 3], [0.0; 3], [1.0, 0.0, 0.0]];
    assert!(r.iter().any(|row| jv(row, &tilt).abs() > 0.1));
}
