//! The debug-draw hook from Python: a PyODE program (Debian's
//! python3-pyode) reaches `odexSpaceDraw` through ctypes, with the handle
//! PyODE's `_id()` gives, and its Python callbacks receive each geom's
//! placement and size. This is the README's example, run as written.
mod common;

use std::process::Command;

const SCRIPT: &str = r#"
import ctypes, ode

lib = ctypes.CDLL("libode.so.8")           # the library PyODE already loaded
R = ctypes.c_double                        # dReal (double build)
P = ctypes.POINTER(R)
V = ctypes.c_void_p
BOX = ctypes.CFUNCTYPE(None, V, V, P, P, P)     # user, geom, pos, R, sides
SPHERE = ctypes.CFUNCTYPE(None, V, V, P, P, R)  # user, geom, pos, R, radius
class Callbacks(ctypes.Structure):         # odexDrawCallbacks; NULL: skipped
    _fields_ = [("box", BOX), ("sphere", SPHERE)] + [(n, V) for n in
        ("capsule", "cylinder", "plane", "ray", "convex", "trimesh", "heightfield")]
lib.odexSpaceDraw.argtypes = [V, ctypes.POINTER(Callbacks), V]

def box(user, g, pos, rot, sides):
    print("box at %g %g %g sides %g %g %g" % (pos[0], pos[1], pos[2], sides[0], sides[1], sides[2]))
def sphere(user, g, pos, rot, radius):
    print("sphere at %g %g %g radius %g" % (pos[0], pos[1], pos[2], radius))

space = ode.SimpleSpace()
b = ode.GeomBox(space, (1, 2, 3)); b.setPosition((1, 0, 0))
s = ode.GeomSphere(space, 0.5); s.setPosition((0, 0, 2))
cb = Callbacks(BOX(box), SPHERE(sphere))
print(lib.odexSpaceDraw(space._id(), ctypes.byref(cb), None), "drawn")
"#;

#[test]
fn draw_hook_pyode_ctypes_callbacks() {
    let python = "/usr/bin/python3";
    let probe = Command::new(python).args(["-c", "import ode"]).output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("SKIPPED draw_hook_pyode_ctypes_callbacks: python3-pyode is not installed");
        return;
    }
    let dir = std::env::temp_dir().join(format!("draw_hook_pyode_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("draw.py");
    std::fs::write(&script, SCRIPT).unwrap();
    let o = Command::new(python).arg(&script).env("LD_LIBRARY_PATH", common::our_lib_dir()).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    let mut lines: Vec<&str> = out.lines().collect();
    lines.sort();
    assert_eq!(lines, ["2 drawn", "box at 1 0 0 sides 1 2 3", "sphere at 0 0 2 radius 0.5"]);
    std::fs::remove_dir_all(&dir).ok();
}
