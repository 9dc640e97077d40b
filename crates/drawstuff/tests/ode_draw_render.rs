//! odexSpaceDraw as a viewer: tests/c/ode_box_stack.c simulates a stack of
//! three boxes with our libode and draws its space through
//! include/drawstuff/ode_draw.h (which knows nothing of the scene), run
//! headless; the picture is checked against the stack's geometry.
//!
//! The libraries are built fresh first (`common::lib_dir`).
mod common;
use common::lib_dir;
use std::path::Path;
use std::process::Command;

fn is_red(p: &image::Rgba<u8>) -> bool {
    p[0] > 140 && p[1] < 40 && p[2] < 40
}

/// The contiguous run of `inside` positions around `at` in `0..n`.
fn run_around(n: u32, at: u32, inside: impl Fn(u32) -> bool) -> (u32, u32) {
    assert!(inside(at), "nothing at {at}");
    let mut lo = at;
    while lo > 0 && inside(lo - 1) {
        lo -= 1;
    }
    let mut hi = at;
    while hi + 1 < n && inside(hi + 1) {
        hi += 1;
    }
    (lo, hi)
}

#[test]
fn ode_draw_box_stack_matches_geometry() {
    let dir = lib_dir();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let exe = std::env::temp_dir().join(format!("ds_ode_box_stack_{}", std::process::id()));
    let st = Command::new("cc")
        .arg(root.join("tests/c/ode_box_stack.c"))
        .arg(format!("-I{}", root.join("../../include").display()))
        .arg(format!("-L{}", dir.display()))
        .args(["-lode", "-ldrawstuff", "-lm", "-o"])
        .arg(&exe)
        .status()
        .expect("cc");
    assert!(st.success(), "building the scene failed");
    let out_dir = std::env::temp_dir().join(format!("ds_ode_box_stack_out_{}", std::process::id()));
    let out = Command::new(&exe)
        .arg("-notex")
        .env("LD_LIBRARY_PATH", &dir)
        .env_remove("DS_WINDOW")
        .env_remove("DS_HEADLESS")
        .env("DS_FRAMES", "20")
        .env("DS_INTERVAL", "19")
        .env("DS_OUTPUT", &out_dir)
        .output()
        .expect("run scene");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "scene failed: {stderr}");
    assert!(!stderr.contains("ODE Message") && !stderr.contains("ODE INTERNAL"), "{stderr}");
    // 20 frames; 4 geoms handed to the callbacks (3 boxes and the plane,
    // which the adapter leaves to drawstuff's ground); the stack stood.
    assert!(stdout.contains("frames=20 drawn=4 "), "{stdout}");
    let top_z: f64 = stdout.trim().rsplit(' ').next().unwrap().parse().unwrap();
    assert!((1.24..=1.251).contains(&top_z), "top box at z = {top_z}: {stdout}");

    let img = image::open(out_dir.join("frame0020.png")).unwrap().to_rgba8();
    let (w, h) = img.dimensions();
    assert_eq!((w, h), (320, 240));
    // The camera is level with the stack's middle (z 0.75), 3.75 m from its
    // front face; drawstuff maps a slope of 0.8 to 160 px (square pixels).
    // Front face: ±0.25 m → ±13.3 px around the centre; top (z 1.5) and
    // bottom (z 0) at ±0.75 m → ±40 px.
    let (x0, x1) = run_around(w, w / 2, |x| is_red(img.get_pixel(x, h / 2)));
    let width = x1 - x0 + 1;
    assert!((25..=29).contains(&width), "stack is {width} px wide, expected about 27");
    let cx = (x0 + x1) as f32 / 2.0;
    assert!((cx - (w as f32 - 1.0) / 2.0).abs() <= 1.5, "stack centre at x = {cx}");
    let (y0, y1) = run_around(h, h / 2, |y| is_red(img.get_pixel(w / 2, y)));
    assert!((78..=82).contains(&y0), "stack top at row {y0}, expected about 80");
    assert!((158..=162).contains(&y1), "stack bottom at row {y1}, expected about 160");
    // Nothing red beside the stack at its height (no stray geometry).
    for y in [y0 + 5, h / 2, y1 - 5] {
        let stray = (0..w).filter(|&x| (x < x0 - 2 || x > x1 + 2) && is_red(img.get_pixel(x, y))).count();
        assert_eq!(stray, 0, "red pixels beside the stack in row {y}");
    }
    // Sky above, drawstuff's ground below (no plane drawn over it).
    let sky = img.get_pixel(w / 2, 2);
    assert!(sky[0] < 3 && (126..=129).contains(&sky[1]) && sky[2] > 252, "sky {sky:?}");
    let ground = img.get_pixel(20, h - 4);
    assert!(
        (126..=129).contains(&ground[0]) && (126..=129).contains(&ground[1]) && (75..=78).contains(&ground[2]),
        "ground {ground:?}"
    );
    std::fs::remove_dir_all(&out_dir).ok();
    std::fs::remove_file(&exe).ok();
}
