//! `dWorldExportDIF`: a text dump of a world in the Dynamics Interchange
//! Format, as ODE 0.16.2 writes it.
//!
//! The text is built here in memory and written by the ffi layer. It follows
//! ODE's output byte for byte: the same traversal order (bodies and joints
//! newest first, a body's geoms in its list order), the same indentation,
//! the same quirks (a fixed joint's `qrel` shows three components, a vector
//! printed "if nonzero" needs all three components nonzero, joint types
//! ODE's writer does not know get `unknown`, geom transforms print no
//! fields) and reals formatted by the C library's `%.15g`, so that rounding
//! and the spelling of special values match exactly.

use crate::collision::geom::{class, Shape, GEOMS};
use crate::dynamics::body::{world_bodies, Body, BodyRef};
use crate::dynamics::world::{flags, AutoDisable, World};
use crate::joints::limit_motor::LimitMotor;
use crate::joints::{Joint, JointKind};
use std::collections::HashMap;
use std::ffi::c_void;
use std::io::Write;

/// Significant digits of reals (ODE's double-precision setting).
const PRECISION: i32 = 15;

/// Output under construction, with ODE's current indentation level.
struct Printer {
    out: Vec<u8>,
    indent: usize,
}

/// Writes `x` as ODE does: `inf`/`-inf` for infinities, else C's `%.15g`.
fn real(out: &mut Vec<u8>, x: f64) {
    if x == f64::INFINITY {
        out.extend_from_slice(b"inf");
    } else if x == f64::NEG_INFINITY {
        out.extend_from_slice(b"-inf");
    } else {
        let mut buf = [0u8; 64];
        // SAFETY: the buffer is large enough for any %.15g of a double
        // (at most 22 characters); snprintf writes at most `buf.len()`
        // bytes including the terminator and returns the length.
        let n = unsafe {
            libc::snprintf(buf.as_mut_ptr().cast(), buf.len(), c"%.*g".as_ptr(), PRECISION as libc::c_int, x)
        };
        let n = (n.max(0) as usize).min(buf.len() - 1);
        out.extend_from_slice(&buf[..n]);
    }
}

impl Printer {
    fn tabs(&mut self) {
        self.out.extend(std::iter::repeat_n(b'\t', self.indent));
    }

    /// `name = <int>,`
    fn int(&mut self, name: &str, x: i32) {
        self.tabs();
        let _ = writeln!(self.out, "{name} = {x},");
    }

    /// `name = <real>,`
    fn real(&mut self, name: &str, x: f64) {
        self.tabs();
        let _ = write!(self.out, "{name} = ");
        real(&mut self.out, x);
        self.out.extend_from_slice(b",\n");
    }

    /// `name = {a,b,...},`
    fn reals(&mut self, name: &str, x: &[f64]) {
        self.tabs();
        let _ = write!(self.out, "{name} = {{");
        for (i, &v) in x.iter().enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            real(&mut self.out, v);
        }
        self.out.extend_from_slice(b"},\n");
    }

    fn vec3(&mut self, name: &str, x: &[f64]) {
        self.reals(name, &x[..3]);
    }

    /// `name = "value",`
    fn string(&mut self, name: &str, value: &str) {
        self.tabs();
        let _ = writeln!(self.out, "{name} = \"{value}\",");
    }

    /// A line of its own (an opening or closing brace, a marker).
    fn line(&mut self, text: &str) {
        self.tabs();
        let _ = writeln!(self.out, "{text}");
    }

    /// Printed only when not zero.
    fn real_nonzero(&mut self, name: &str, x: f64) {
        if x != 0.0 {
            self.real(name, x);
        }
    }

    /// Printed only when every component is nonzero (ODE's rule).
    fn vec3_nonzero(&mut self, name: &str, x: &[f64]) {
        if x[0] != 0.0 && x[1] != 0.0 && x[2] != 0.0 {
            self.vec3(name, x);
        }
    }

    fn open(&mut self, text: &str) {
        self.line(text);
        self.indent += 1;
    }

    fn close(&mut self, text: &str) {
        self.indent -= 1;
        self.line(text);
    }

    /// The auto-disable parameters block (world and body share the fields).
    fn adis_fields(&mut self, a: &AutoDisable) {
        self.real("linear_threshold", a.linear_average_threshold);
        self.real("angular_threshold", a.angular_average_threshold);
        self.int("average_samples", a.average_samples as i32);
        self.real("idle_time", a.idle_time);
        self.int("idle_steps", a.idle_steps);
    }

    /// A limit and a motor; `num` 0 means the unnumbered form of
    /// single-axis joints, otherwise the axis number (1-based).
    fn limot(&mut self, l: &LimitMotor, num: i32) {
        let suffix = if num > 0 { num.to_string() } else { String::new() };
        self.open(&format!("limit{suffix} = {{"));
        self.real("low_stop", l.lostop);
        self.real("high_stop", l.histop);
        self.real_nonzero("bounce", l.bounce);
        self.open("ODE = {");
        self.real_nonzero("stop_erp", l.stop_erp);
        self.real_nonzero("stop_cfm", l.stop_cfm);
        self.close("},");
        self.close("},");

        self.open(&format!("motor{suffix} = {{"));
        self.real_nonzero("vel", l.vel);
        self.real_nonzero("fmax", l.fmax);
        self.open("ODE = {");
        self.real_nonzero("fudge_factor", l.fudge_factor);
        self.real_nonzero("normal_cfm", l.normal_cfm);
        self.close("},");
        self.close("},");
    }

    fn rel(&mut self, rel: &[i32; 3]) {
        self.tabs();
        let _ = writeln!(self.out, "rel = {{{},{},{}}},", rel[0], rel[1], rel[2]);
    }
}

/// The name ODE's writer gives a joint type (`dynamics.<name>_joint`).
fn joint_name(kind: &JointKind) -> &'static str {
    match kind {
        JointKind::Ball(_) => "ball",
        JointKind::Hinge(_) => "hinge",
        JointKind::Slider(_) => "slider",
        JointKind::Contact(_) => "contact",
        JointKind::Universal(_) => "universal",
        JointKind::Hinge2(_) => "ODE_hinge2",
        JointKind::Fixed(_) => "fixed",
        JointKind::Null(_) => "null",
        JointKind::AMotor(_) => "ODE_angular_motor",
        JointKind::LMotor(_) => "ODE_linear_motor",
        JointKind::Pr(_) => "PR",
        JointKind::Pu(_) => "PU",
        JointKind::Piston(_) => "piston",
        _ => "unknown",
    }
}

/// The type-specific fields of a joint.
fn joint_fields(p: &mut Printer, j: &Joint) {
    match &j.kind {
        JointKind::Ball(b) => {
            p.vec3("anchor1", &b.anchor1);
            p.vec3("anchor2", &b.anchor2);
        }
        JointKind::Hinge(h) => {
            p.vec3("anchor1", &h.anchor1);
            p.vec3("anchor2", &h.anchor2);
            p.vec3("axis1", &h.axis1);
            p.vec3("axis2", &h.axis2);
            p.reals("qrel", &h.qrel);
            p.limot(&h.limot, 0);
        }
        JointKind::Slider(s) => {
            p.vec3("axis1", &s.axis1);
            p.reals("qrel", &s.qrel);
            p.vec3("offset", &s.offset);
            p.limot(&s.limot, 0);
        }
        JointKind::Contact(c) => contact_fields(p, c),
        JointKind::Universal(u) => {
            p.vec3("anchor1", &u.anchor1);
            p.vec3("anchor2", &u.anchor2);
            p.vec3("axis1", &u.ax.axis1);
            p.vec3("axis2", &u.ax.axis2);
            p.reals("qrel1", &u.ax.qrel1);
            p.reals("qrel2", &u.ax.qrel2);
            p.limot(&u.limot1, 1);
            p.limot(&u.limot2, 2);
        }
        JointKind::Hinge2(h) => {
            p.vec3("anchor1", &h.anchor1);
            p.vec3("anchor2", &h.anchor2);
            p.vec3("axis1", &h.axis1);
            p.vec3("axis2", &h.axis2);
            p.vec3("v1", &h.v1);
            p.vec3("v2", &h.v2);
            p.real("susp_erp", h.susp_erp);
            p.real("susp_cfm", h.susp_cfm);
            p.limot(&h.limot1, 1);
            p.limot(&h.limot2, 2);
        }
        JointKind::Fixed(f) => {
            // ODE prints the relative quaternion as a 3-vector.
            p.vec3("qrel", &f.qrel);
            p.vec3("offset", &f.offset);
        }
        JointKind::Pr(r) => {
            p.vec3("anchor2", &r.anchor2);
            p.vec3("axisR1", &r.axis_r1);
            p.vec3("axisR2", &r.axis_r2);
            p.vec3("axisP1", &r.axis_p1);
            p.reals("qrel", &r.qrel);
            p.vec3("offset", &r.offset);
            p.limot(&r.limot_p, 1);
            p.limot(&r.limot_r, 2);
        }
        JointKind::Pu(u) => {
            p.vec3("anchor1", &u.anchor1);
            p.vec3("anchor2", &u.anchor2);
            p.vec3("axis1", &u.ax.axis1);
            p.vec3("axis2", &u.ax.axis2);
            p.vec3("axisP", &u.axis_p1);
            p.reals("qrel1", &u.ax.qrel1);
            p.reals("qrel2", &u.ax.qrel2);
            p.limot(&u.limot1, 1);
            p.limot(&u.limot2, 2);
            p.limot(&u.limot_p, 3);
        }
        JointKind::Piston(s) => {
            p.vec3("anchor1", &s.anchor1);
            p.vec3("anchor2", &s.anchor2);
            p.vec3("axis1", &s.axis1);
            p.vec3("axis2", &s.axis2);
            p.reals("qrel", &s.qrel);
            p.limot(&s.limot_p, 1);
            p.limot(&s.limot_r, 2);
        }
        JointKind::LMotor(m) => {
            p.int("num", m.num as i32);
            p.rel(&m.rel);
            p.vec3("axis1", &m.axis[0]);
            p.vec3("axis2", &m.axis[1]);
            p.vec3("axis3", &m.axis[2]);
            for (i, l) in m.limot.iter().enumerate() {
                p.limot(l, i as i32 + 1);
            }
        }
        JointKind::AMotor(m) => {
            p.int("num", m.num as i32);
            p.int("mode", m.mode);
            p.rel(&m.rel);
            p.vec3("axis1", &m.axis[0]);
            p.vec3("axis2", &m.axis[1]);
            p.vec3("axis3", &m.axis[2]);
            for (i, l) in m.limot.iter().enumerate() {
                p.limot(l, i as i32 + 1);
            }
            p.real("angle1", m.angle[0]);
            p.real("angle2", m.angle[1]);
            p.real("angle3", m.angle[2]);
        }
        _ => p.line("unknown joint"),
    }
}

/// A contact: the point, then the surface fields its mode bits enable.
fn contact_fields(p: &mut Printer, c: &crate::joints::contact::ContactJoint) {
    use crate::abi::contact as m;
    let s = &c.surface;
    let mode = s.mode;
    let on = |bit: i32| mode & bit != 0;
    p.vec3("pos", &c.geom.pos);
    p.vec3("normal", &c.geom.normal);
    p.real("depth", c.geom.depth);
    p.real("mu", s.mu);
    if on(m::dContactMu2) {
        p.real("mu2", s.mu2);
    }
    if on(m::dContactBounce) {
        p.real("bounce", s.bounce);
        p.real("bounce_vel", s.bounce_vel);
    }
    if on(m::dContactSoftERP) {
        p.real("soft_ERP", s.soft_erp);
    }
    if on(m::dContactSoftCFM) {
        p.real("soft_CFM", s.soft_cfm);
    }
    if on(m::dContactMotion1) {
        p.real("motion1", s.motion1);
    }
    if on(m::dContactMotion2) {
        p.real("motion2", s.motion2);
    }
    if on(m::dContactSlip1) {
        p.real("slip1", s.slip1);
    }
    if on(m::dContactSlip2) {
        p.real("slip2", s.slip2);
    }
    let fa = on(m::dContactApprox1_1) as i32 | (on(m::dContactApprox1_2) as i32) << 1;
    if fa != 0 {
        p.int("friction_approximation", fa);
    }
    if on(m::dContactFDir1) {
        p.vec3("fdir1", &c.fdir1);
    }
}

/// One geom attached to a body: collision bits when not all set, the
/// disabled mark, then the class's parameters.
fn geom_fields(p: &mut Printer, raw: *mut std::ffi::c_void) {
    let Some(h) = GEOMS.check(raw) else { return };
    let g = h.get();
    if g.category_bits != u64::MAX {
        p.tabs();
        let _ = writeln!(p.out, "category_bits = {}", g.category_bits);
    }
    if g.collide_bits != u64::MAX {
        p.tabs();
        let _ = writeln!(p.out, "collide_bits = {}", g.collide_bits);
    }
    if !g.is_enabled() {
        p.int("disabled", 1);
    }
    match (&g.shape, g.class) {
        (Shape::Sphere(s), class::SPHERE) => {
            p.string("type", "sphere");
            p.real("radius", s.radius);
        }
        (Shape::Box(b), class::BOX) => {
            p.string("type", "box");
            p.vec3("sides", &b.sides);
        }
        (Shape::Capsule(c), class::CAPSULE) => {
            p.string("type", "capsule");
            p.real("radius", c.radius);
            p.real("length", c.length);
        }
        (Shape::Cylinder(c), class::CYLINDER) => {
            p.string("type", "cylinder");
            p.real("radius", c.radius);
            p.real("length", c.length);
        }
        (Shape::Plane(pl), class::PLANE) => {
            p.string("type", "plane");
            p.vec3("normal", &pl.n);
            p.real("d", pl.d);
        }
        (Shape::Ray(r), class::RAY) => {
            p.string("type", "ray");
            p.real("length", r.length);
        }
        (_, class::CONVEX) => p.string("type", "convex"),
        (_, class::TRIMESH) => p.string("type", "trimesh"),
        (_, class::HEIGHTFIELD) => p.string("type", "heightfield"),
        // Geom transforms, spaces and user classes: no fields (ODE 0.16.2's
        // writer has no case for them).
        _ => {}
    }
}

fn body_block(p: &mut Printer, prefix: &[u8], num: usize, b: &Body) {
    p.out.extend_from_slice(prefix);
    let _ = write!(p.out, "body[{num}] = dynamics.body {{\n\tworld = ");
    p.out.extend_from_slice(prefix);
    p.out.extend_from_slice(b"world,\n");
    p.indent += 1;
    p.vec3("pos", &b.pos);
    p.reals("q", &b.q);
    p.vec3("lvel", &b.lvel);
    p.vec3("avel", &b.avel);
    p.real("mass", b.mass.mass);
    // The inertia rows are written with a fixed single tab, as ODE does.
    p.out.extend_from_slice(b"\tI = {{");
    for i in 0..3 {
        for j in 0..3 {
            real(&mut p.out, b.mass.I[i * 4 + j]);
            if j < 2 {
                p.out.push(b',');
            }
        }
        if i < 2 {
            p.out.extend_from_slice(b"},{");
        }
    }
    p.out.extend_from_slice(b"}},\n");
    p.vec3_nonzero("com", &b.mass.c);
    p.open("ODE = {");
    if b.flags & flags::FINITE_ROTATION != 0 {
        p.int("finite_rotation", 1);
    }
    if b.flags & flags::DISABLED != 0 {
        p.int("disabled", 1);
    }
    if b.flags & flags::NO_GRAVITY != 0 {
        p.int("no_gravity", 1);
    }
    if b.flags & flags::AUTO_DISABLE != 0 {
        p.open("auto_disable = {");
        p.adis_fields(&b.adis);
        p.real("time_left", b.adis_timeleft);
        p.int("steps_left", b.adis_stepsleft);
        p.close("},");
    }
    p.vec3_nonzero("facc", &b.facc);
    p.vec3_nonzero("tacc", &b.tacc);
    if b.flags & flags::FINITE_ROTATION_AXIS != 0 {
        p.vec3("finite_rotation_axis", &b.finite_rot_axis);
    }
    p.close("},");
    if !b.geoms().is_empty() {
        p.open("geometry = {");
        for &g in b.geoms() {
            p.open("{");
            geom_fields(p, g);
            p.close("},");
        }
        p.close("},");
    }
    p.close("}");
}

/// The DIF text of world `w`, every top-level name prefixed by `prefix`.
pub fn export(w: &World, prefix: &[u8]) -> Vec<u8> {
    let mut p = Printer { out: Vec::new(), indent: 1 };

    p.out.extend_from_slice(b"-- Dynamics Interchange Format v0.1\n\n");
    p.out.extend_from_slice(prefix);
    p.out.extend_from_slice(b"world = dynamics.world {\n");
    p.vec3("gravity", &w.gravity);
    p.open("ODE = {");
    p.real("ERP", w.erp);
    p.real("CFM", w.cfm);
    p.open("auto_disable = {");
    p.adis_fields(&w.adis);
    p.out.extend_from_slice(b"\t\t},\n\t},\n}\n");
    p.indent = 0;

    // Bodies are numbered in list order; joints refer to those numbers.
    let bodies: Vec<BodyRef> = world_bodies(w).collect();
    let number: HashMap<*mut c_void, usize> = bodies.iter().enumerate().map(|(i, b)| (b.as_raw(), i)).collect();
    p.out.extend_from_slice(prefix);
    p.out.extend_from_slice(b"body = {}\n");
    for (num, &b) in bodies.iter().enumerate() {
        body_block(&mut p, prefix, num, b.get());
    }

    p.out.extend_from_slice(prefix);
    p.out.extend_from_slice(b"joint = {}\n");
    for (num, jref) in crate::joints::object::world_joints(w).enumerate() {
        let j = jref.get();
        p.indent += 1;
        p.out.extend_from_slice(prefix);
        let _ = write!(p.out, "joint[{num}] = dynamics.{}_joint {{\n\tworld = ", joint_name(&j.kind));
        p.out.extend_from_slice(prefix);
        p.out.extend_from_slice(b"world,\n\tbody = {");
        for (i, b) in j.head.body.iter().enumerate() {
            let Some(b) = b else { continue };
            if i > 0 {
                p.out.push(b',');
            }
            p.out.extend_from_slice(prefix);
            // A body of the joint's world is always in the list.
            let tag = number.get(&b.as_raw()).map_or(-1, |&t| t as i64);
            let _ = write!(p.out, "body[{tag}]");
        }
        p.out.extend_from_slice(b"}\n");
        joint_fields(&mut p, j);
        p.close("}");
    }
    p.out
}
