//! The viewer renders what it is told, measured on its pictures: a C
//! program (tests/c/red_box_scene.c) built against include/drawstuff and
//! this crate's libdrawstuff.so, run headless (and in a window under Xvfb
//! when `xvfb-run` exists), and its PNG frames checked against the scene's
//! geometry and drawstuff's colours.
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::lib_dir;

fn build_scene(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::env::temp_dir().join(format!("ds_red_box_{name}_{}", std::process::id()));
    let st = Command::new("cc")
        .arg(root.join("tests/c/red_box_scene.c"))
        .arg(format!("-I{}", root.join("../../include").display()))
        .arg(format!("-L{}", lib_dir().display()))
        .args(["-ldrawstuff", "-o"])
        .arg(&out)
        .status()
        .expect("cc");
    assert!(st.success(), "building the scene failed");
    out
}

/// Runs the scene with extra environment and arguments; returns its stdout.
fn run(exe: &Path, env: &[(&str, &str)], args: &[&str], wrapper: Option<&str>) -> String {
    let mut cmd = match wrapper {
        Some(w) => {
            let mut c = Command::new(w);
            c.args(["-a", "-s", "-screen 0 640x480x24"]).arg(exe);
            c
        }
        None => Command::new(exe),
    };
    cmd.args(args).env("LD_LIBRARY_PATH", lib_dir()).env_remove("DS_WINDOW").env_remove("DS_HEADLESS");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run scene");
    assert!(out.status.success(), "scene failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn load(p: &Path) -> image::RgbaImage {
    image::open(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())).to_rgba8()
}

fn is_red(p: &image::Rgba<u8>) -> bool {
    p[0] > 140 && p[1] < 40 && p[2] < 40
}

/// The red box: centred, about as wide as the projection says, lit as
/// drawstuff lights a face turned towards the camera.
fn check_box(img: &image::RgbaImage) {
    let (w, h) = img.dimensions();
    let c = img.get_pixel(w / 2, h / 2);
    assert!(is_red(c), "centre pixel {c:?} is not the red box");
    // Front face at 2.75 m, half side 0.25 m; drawstuff's frustum maps a
    // slope of 0.8 to the viewport's half width (160 px): ±18.2 px.
    let row: Vec<bool> = (0..w).map(|x| is_red(img.get_pixel(x, h / 2))).collect();
    let first = row.iter().position(|&r| r).unwrap();
    let last = row.iter().rposition(|&r| r).unwrap();
    let width = last - first + 1;
    assert!((34..=39).contains(&width), "box is {width} px wide, expected about 36");
    let centre = (first + last) as f32 / 2.0;
    assert!((centre - (w as f32 - 1.0) / 2.0).abs() <= 1.5, "box centre at {centre}");
    // Lit face: ambient 0.21 + diffuse 0.7 × cos(45.6°) = 0.69 of red, plus a little specular.
    let r = c[0] as f32 / 255.0;
    assert!((0.62..=0.95).contains(&r), "lit red {r}");
}

#[test]
fn headless_render_red_box_notex_matches_geometry_and_colours() {
    let exe = build_scene("notex");
    let dir = std::env::temp_dir().join(format!("ds_out_notex_{}", std::process::id()));
    let stdout =
        run(&exe, &[("DS_FRAMES", "3"), ("DS_OUTPUT", dir.to_str().unwrap()), ("DS_INTERVAL", "2")], &["-notex"], None);
    assert!(stdout.contains("frames=3"), "{stdout}");
    // Frames 1 and 3 recorded, and the GIF.
    assert!(dir.join("frame0001.png").exists() && dir.join("frame0003.png").exists());
    assert!(!dir.join("frame0002.png").exists());
    assert!(std::fs::metadata(dir.join("animation.gif")).unwrap().len() > 100);
    let img = load(&dir.join("frame0001.png"));
    assert_eq!(img.dimensions(), (320, 240));
    check_box(&img);
    // Without textures the sky is (0, 0.5, 1) and the ground (0.5, 0.5, 0.3).
    let sky = img.get_pixel(160, 2);
    assert!(sky[0] < 3 && (126..=129).contains(&sky[1]) && sky[2] > 252, "sky {sky:?}");
    let ground = img.get_pixel(20, 236);
    assert!(
        (126..=129).contains(&ground[0]) && (126..=129).contains(&ground[1]) && (75..=78).contains(&ground[2]),
        "ground {ground:?}"
    );
    // The shadow lies on the ground 3.5–4.5 m away (pushed along −x and −y
    // by the light at (1, 0.4, 1)): ground darkened to 0.65 ×, below the box
    // (rows 164–177) and left of centre (its middle at y = −0.4 m: −20 px).
    let shadow_rows = (150..200).filter(|&y| {
        let p = img.get_pixel(140, y);
        (80..=85).contains(&p[0]) && (80..=85).contains(&p[1]) && (47..=51).contains(&p[2])
    });
    let n = shadow_rows.count();
    assert!((8..=16).contains(&n), "{n} shadow rows at x = 140, expected about 13");
    assert!(
        !(150..200).any(|y| {
            let p = img.get_pixel(200, y);
            p[0] < 90
        }),
        "shadow on the wrong side"
    );
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_file(&exe).ok();
}

#[test]
fn headless_render_textured_and_size_flag() {
    let exe = build_scene("textured");
    let dir = std::env::temp_dir().join(format!("ds_out_tex_{}", std::process::id()));
    run(&exe, &[("DS_OUTPUT", dir.to_str().unwrap())], &["-frames", "1", "-size", "400x300"], None);
    let img = load(&dir.join("frame0001.png"));
    assert_eq!(img.dimensions(), (400, 300));
    let (w, h) = img.dimensions();
    assert!(is_red(img.get_pixel(w / 2, h / 2)));
    // Sky: blue dominates at the top; ground: not blue-dominated at the bottom.
    let sky = img.get_pixel(w / 2, 1);
    assert!(sky[2] > sky[0] && sky[2] > 150, "sky {sky:?}");
    let ground = img.get_pixel(5, h - 2);
    assert!(ground[2] <= ground[0] + 10, "ground {ground:?}");
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_file(&exe).ok();
}

#[test]
fn headless_run_without_output_draws_nothing_and_returns() {
    let exe = build_scene("no_output");
    // No display, no output: the default headless frame count, no pictures.
    let mut cmd = Command::new(&exe);
    cmd.env("LD_LIBRARY_PATH", lib_dir()).env_remove("DISPLAY").env_remove("DS_OUTPUT").env_remove("DS_FRAMES");
    let out = cmd.output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("frames=300"));
    std::fs::remove_file(&exe).ok();
}

#[test]
fn window_render_under_xvfb() {
    let Some(xvfb) = ["/usr/bin/xvfb-run"].into_iter().find(|p| Path::new(p).exists()) else {
        eprintln!("SKIPPED window_render_under_xvfb: xvfb-run is not installed (Debian package xvfb)");
        return;
    };
    let exe = build_scene("window");
    let dir = std::env::temp_dir().join(format!("ds_out_win_{}", std::process::id()));
    let stdout = run(
        &exe,
        &[("DS_WINDOW", "1"), ("DS_FRAMES", "5"), ("DS_OUTPUT", dir.to_str().unwrap()), ("DS_INTERVAL", "4")],
        &[],
        Some(xvfb),
    );
    assert!(stdout.contains("frames=5"), "{stdout}");
    check_box(&load(&dir.join("frame0005.png")));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_file(&exe).ok();
}

#[test]
fn window_keys_and_mouse_under_xvfb() {
    let (Some(xvfb), true) =
        (["/usr/bin/xvfb-run"].into_iter().find(|p| Path::new(p).exists()), Path::new("/usr/bin/xdotool").exists())
    else {
        eprintln!(
            "SKIPPED window_keys_and_mouse_under_xvfb: needs xvfb-run and xdotool (Debian packages xvfb, xdotool)"
        );
        return;
    };
    let exe = build_scene("keys");
    // In the window: type 'q' (the program's key), drag with the left button
    // (turns the camera: 0.5° per pixel), then Ctrl-X (drawstuff's quit).
    let script = format!(
        "{exe} & pid=$!; \
         xdotool search --sync --name Simulation > /dev/null; sleep 0.5; \
         w=$(xdotool search --name Simulation | head -1); \
         xdotool windowactivate --sync $w 2>/dev/null; \
         xdotool mousemove --window $w 100 100 type --window $w q; \
         xdotool mousedown 1 mousemove_relative --sync 40 0 mouseup 1; sleep 0.3; \
         xdotool key --window $w ctrl+x; wait $pid",
        exe = exe.display()
    );
    let out = Command::new(xvfb)
        .args(["-a", "-s", "-screen 0 640x480x24", "sh", "-c", &script])
        .env("LD_LIBRARY_PATH", lib_dir())
        .env_remove("DS_FRAMES")
        .env_remove("DS_HEADLESS")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("key=q"), "the program's key did not arrive: {stdout}");
    // Started at heading 180; a 40 px drag right adds 20° (wrapping to -160).
    let view = stdout.lines().find_map(|l| l.strip_prefix("view=")).expect("viewpoint printed at stop");
    let h: f32 = view.split_whitespace().nth(3).unwrap().parse().unwrap();
    assert!((h + 160.0).abs() < 2.5, "heading after the drag: {h} ({view})");
    std::fs::remove_file(&exe).ok();
}
