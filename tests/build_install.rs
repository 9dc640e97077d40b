//! `cmake --install` into a scratch prefix, then a tiny C consumer is built
//! the ways users find ODE: `find_package(ode CONFIG)` (targets `ODE::ODE`
//! and `ODE::ODE_static`), `pkg-config ode` (shared, with the README's
//! rpath, and `--static`) and `ode-config`. The install packages the
//! libraries cargo just built for this test run (`ODE_PREBUILT_LIBRARY`),
//! so no second cargo build happens.
//!
//! Also checked: the default configuration does not build the C suite, the
//! installed `libode.so.8.0.2` is stripped with its debug info in
//! `.debug/libode.so.8.0.2.debug` (named by `.gnu_debuglink`, CRC
//! matching), `libode.a` is installed without debug info, and so are the
//! licence texts.
//!
//! libdrawstuff (crates/drawstuff) is packaged from beside the same
//! `libode.so`: the test builds it first (`cargo build -p drawstuff --lib`,
//! same profile and target directory; a no-op when it is fresh), checks it
//! is installed with `include/drawstuff/*.h`, and builds a small drawstuff
//! program with `find_package(ode CONFIG)` + `ODE::drawstuff` (and one with
//! the two static targets) that runs headless for `DS_FRAMES=2` frames.
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

const VERSION: &str = "0.16.2";
const REAL_NAME: &str = "libode.so.8.0.2";

/// Prints which file defines `dWorldCreate` at run time, so a test can tell
/// our library from Debian's (or from a static link).
const CONSUMER_C: &str = r#"#define _GNU_SOURCE
#include <dlfcn.h>
#include <ode/ode.h>
#include <stdio.h>
int main(void) {
    Dl_info info;
    dInitODE2(0);
    dWorldID w = dWorldCreate();
    if (!w) { printf("no world\n"); return 1; }
    dWorldDestroy(w);
    dCloseODE();
    printf("consumer ok\n");
    if (dladdr((void *)dWorldCreate, &info) && info.dli_fname)
        printf("ode from %s\n", info.dli_fname);
    else
        printf("ode from ?\n");
    return 0;
}
"#;

const CONSUMER_CMAKE: &str = r#"cmake_minimum_required(VERSION 3.16)
project(consumer C)
find_package(ode 0.16 CONFIG REQUIRED)
message(STATUS "consumer: ode_DIR=${ode_DIR} ODE_VERSION=${ODE_VERSION}")
add_executable(consumer main.c)
target_link_libraries(consumer PRIVATE ODE::ODE)
add_executable(consumer_static main.c)
target_link_libraries(consumer_static PRIVATE ODE::ODE_static)
"#;

/// A drawstuff program stepping an ODE world: counts the frames drawstuff
/// runs (DS_FRAMES) and draws a box in each.
const DRAWSTUFF_C: &str = r#"#include <drawstuff/drawstuff.h>
#include <ode/ode.h>
#include <stdio.h>
static dWorldID world;
static int frames;
static void start(void) {
    static float xyz[3] = {2, 0, 1}, hpr[3] = {180, 0, 0};
    dsSetViewpoint(xyz, hpr);
}
static void step(int pause) {
    static const float pos[3] = {0, 0, 0.5f}, sides[3] = {0.5f, 0.5f, 0.5f};
    static const float R[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    if (!pause) dWorldStep(world, 0.01);
    dsSetColor(1, 0, 0);
    dsDrawBox(pos, R, sides);
    frames++;
}
int main(int argc, char **argv) {
    dsFunctions fn = {DS_VERSION, &start, &step, 0, 0, 0};
    dInitODE2(0);
    world = dWorldCreate();
    dsSimulationLoop(argc, argv, 64, 48, &fn);
    dWorldDestroy(world);
    dCloseODE();
    printf("drawstuff consumer: %d frames\n", frames);
    return frames == 2 ? 0 : 1;
}
"#;

const DRAWSTUFF_CMAKE: &str = r#"cmake_minimum_required(VERSION 3.16)
project(consumer_drawstuff C)
find_package(ode 0.16 CONFIG REQUIRED)
foreach(t ODE::drawstuff ODE::drawstuff_static)
  if(NOT TARGET ${t})
    message(FATAL_ERROR "find_package(ode) defines no ${t}")
  endif()
endforeach()
add_executable(ds_consumer main.c)
target_link_libraries(ds_consumer PRIVATE ODE::ODE ODE::drawstuff)
add_executable(ds_consumer_static main.c)
target_link_libraries(ds_consumer_static PRIVATE ODE::ODE_static ODE::drawstuff_static)
"#;

fn run(cmd: &mut Command) -> String {
    let o = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{cmd:?} failed ({}):\nstdout:\n{out}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

fn have(tool: &str) -> bool {
    Command::new("sh").args(["-c", &format!("command -v {tool}")]).output().map(|o| o.status.success()).unwrap_or(false)
}

fn exported(lib: &Path) -> Vec<String> {
    let out = run(Command::new("nm").args(["-D", "--defined-only"]).arg(lib));
    out.lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 3 && matches!(f[1], "T" | "W" | "i")).then(|| f[2].split('@').next().unwrap().to_string())
        })
        .collect()
}

fn soname(lib: &Path) -> String {
    let out = run(Command::new("readelf").arg("-d").arg(lib));
    out.lines()
        .find(|l| l.contains("(SONAME)"))
        .and_then(|l| l.split('[').nth(1))
        .map(|s| s.trim_end_matches(']').to_string())
        .unwrap_or_default()
}

/// Section names of an ELF file (every member's, for an archive).
fn sections(file: &Path) -> Vec<String> {
    let out = run(Command::new("readelf").arg("-SW").arg(file));
    out.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let rest = l.strip_prefix('[')?.split_once(']')?.1;
            rest.split_whitespace().next().map(str::to_string)
        })
        .collect()
}

/// DT_NEEDED entries of an executable.
fn needed(exe: &Path) -> Vec<String> {
    let out = run(Command::new("readelf").arg("-d").arg(exe));
    out.lines()
        .filter(|l| l.contains("(NEEDED)"))
        .filter_map(|l| l.split('[').nth(1).map(|s| s.trim_end_matches(']').to_string()))
        .collect()
}

/// The CRC-32 (IEEE, reflected) that `.gnu_debuglink` stores.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// (file name, CRC) recorded in the `.gnu_debuglink` section of `lib`.
fn debuglink(lib: &Path, scratch: &Path) -> (String, u32) {
    let dump = scratch.join("debuglink.bin");
    run(Command::new("objcopy")
        .arg(format!("--dump-section=.gnu_debuglink={}", dump.display()))
        .arg(lib)
        .arg(scratch.join("debuglink.elf")));
    let d = std::fs::read(&dump).unwrap();
    let end = d.iter().position(|&b| b == 0).expect("unterminated debuglink name");
    let name = String::from_utf8(d[..end].to_vec()).unwrap();
    let at = (end + 4) & !3;
    (name, u32::from_le_bytes(d[at..at + 4].try_into().unwrap()))
}

/// The `ode from ...` line of a consumer's output, as a canonical path
/// (None for "?" or a static link).
fn loaded_from(out: &str) -> Option<PathBuf> {
    let p = out.lines().find_map(|l| l.strip_prefix("ode from "))?;
    std::fs::canonicalize(p).ok()
}

fn find_file(dir: &Path, name: &str) -> Option<PathBuf> {
    for e in std::fs::read_dir(dir).ok()? {
        let p = e.ok()?.path();
        if p.is_dir() && !p.is_symlink() {
            if let Some(f) = find_file(&p, name) {
                return Some(f);
            }
        } else if p.file_name().is_some_and(|n| n == name) {
            return Some(p);
        }
    }
    None
}

#[test]
fn install_and_consume() {
    for tool in ["cmake", "pkg-config", "cc", "nm", "readelf", "objcopy"] {
        assert!(have(tool), "`{tool}` is required (scripts/test-all.sh installs it)");
    }
    let root = common::root();
    let lib = common::our_lib_dir().join("libode.so");
    assert!(lib.exists(), "{} missing: cargo did not build the cdylib", lib.display());
    // cargo builds the staticlib beside the cdylib; CMake finds it there.
    let static_lib = std::fs::canonicalize(&lib).unwrap().with_file_name("libode.a");
    assert!(static_lib.exists(), "{} missing: cargo did not build the staticlib", static_lib.display());

    // cargo leaves it beside the real libode.so, where CMake looks for it.
    common::build_drawstuff();
    let drawstuff_so = static_lib.with_file_name("libdrawstuff.so");
    assert!(drawstuff_so.exists(), "{} missing after cargo build -p drawstuff", drawstuff_so.display());

    let work = common::profile_dir().join("install-test");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let build = work.join("build");
    let prefix = work.join("prefix");

    // Configure with a different prefix than the one installed to: the
    // prefix given to `cmake --install` must win everywhere.
    run(Command::new("cmake")
        .arg("-S")
        .arg(&root)
        .arg("-B")
        .arg(&build)
        .arg(format!("-DODE_PREBUILT_LIBRARY={}", lib.display()))
        .arg("-DCMAKE_INSTALL_PREFIX=/nonexistent/configure-time-prefix"));
    // BUILD_TESTING defaults to OFF: the C suite is not even configured.
    assert!(
        !build.join("ctests").exists(),
        "the default configuration set up the C suite (BUILD_TESTING must default to OFF)"
    );
    run(Command::new("cmake").arg("--build").arg(&build));
    run(Command::new("cmake").arg("--install").arg(&build).arg("--prefix").arg(&prefix));

    // --- shared library and its links, as Debian lays them out
    let real = find_file(&prefix, REAL_NAME).expect("libode.so.8.0.2 not installed");
    let libdir = real.parent().unwrap().to_path_buf();
    assert!(!real.is_symlink(), "libode.so.8.0.2 must be the real file");
    for link in ["libode.so.8", "libode.so"] {
        let p = libdir.join(link);
        let target = std::fs::read_link(&p).unwrap_or_else(|_| panic!("{} is not a symlink", p.display()));
        assert_eq!(target, Path::new(REAL_NAME), "{link} points to {}", target.display());
    }
    assert_eq!(soname(&real), "libode.so.8", "SONAME of the installed library");
    assert_eq!(exported(&real), exported(&lib), "installed library exports differ from cargo's");

    // --- stripped, with the debug info in a separate file
    let secs = sections(&real);
    for s in [".debug_info", ".debug_line", ".symtab"] {
        assert!(!secs.iter().any(|x| x == s), "installed {REAL_NAME} is not stripped: it has {s}");
    }
    let (link_name, link_crc) = debuglink(&real, &work);
    let debug_file = libdir.join(".debug").join(&link_name);
    assert_eq!(link_name, format!("{REAL_NAME}.debug"));
    let debug_bytes = std::fs::read(&debug_file).unwrap_or_else(|e| panic!("{}: {e}", debug_file.display()));
    assert_eq!(crc32(&debug_bytes), link_crc, "CRC of {} does not match .gnu_debuglink", debug_file.display());
    assert!(sections(&debug_file).iter().any(|x| x == ".debug_info"), "{} has no .debug_info", debug_file.display());
    let (size, cargo_size) = (std::fs::metadata(&real).unwrap().len(), std::fs::metadata(&lib).unwrap().len());
    assert!(size < cargo_size, "stripped library ({size} bytes) is not smaller than cargo's ({cargo_size})");

    // --- static library
    let installed_a = libdir.join("libode.a");
    assert!(installed_a.is_file() && !installed_a.is_symlink(), "libode.a not installed");
    // (.debug_gdb_scripts is loaded data, not debug info: strip keeps it.)
    let a_secs = sections(&installed_a);
    for s in [".debug_info", ".debug_line"] {
        assert!(!a_secs.iter().any(|x| x == s), "installed libode.a keeps debug info ({s})");
    }

    // --- licence texts
    for name in ["LICENSE", "LICENSE-BSD", "LICENSE-LGPL"] {
        let p = find_file(&prefix, name).unwrap_or_else(|| panic!("{name} not installed"));
        assert_eq!(std::fs::read(&p).unwrap(), std::fs::read(root.join(name)).unwrap(), "{}", p.display());
    }

    // --- headers
    let inc = prefix.join("include");
    for e in std::fs::read_dir(root.join("include/ode")).unwrap() {
        let name = e.unwrap().file_name();
        assert_eq!(
            std::fs::read(inc.join("ode").join(&name)).ok(),
            std::fs::read(root.join("include/ode").join(&name)).ok(),
            "header {name:?} not installed as checked in"
        );
    }

    // --- pkg-config
    let pc = libdir.join("pkgconfig/ode.pc");
    assert!(pc.exists(), "{} missing", pc.display());
    let pkg = |args: &[&str]| -> String {
        run(Command::new("pkg-config").env("PKG_CONFIG_PATH", pc.parent().unwrap()).args(args)).trim().to_string()
    };
    assert_eq!(pkg(&["--modversion", "ode"]), VERSION);
    assert_eq!(pkg(&["--variable=prefix", "ode"]), prefix.display().to_string());
    assert_eq!(pkg(&["--variable=libdir", "ode"]), libdir.display().to_string());
    assert_eq!(pkg(&["--variable=includedir", "ode"]), inc.display().to_string());
    assert_eq!(pkg(&["--variable=precision", "ode"]), "dDOUBLE");
    assert_eq!(pkg(&["--variable=exec_prefix", "ode"]), prefix.display().to_string());
    let pc_flags = pkg(&["--cflags", "--libs", "ode"]);
    assert!(pc_flags.contains(&format!("-L{}", libdir.display())) && pc_flags.contains("-lode"), "{pc_flags}");
    let pc_static = pkg(&["--libs", "--static", "ode"]);
    for l in ["-lpthread", "-ldl", "-lm"] {
        assert!(pc_static.split_whitespace().any(|f| f == l), "Libs.private lacks {l}: {pc_static}");
    }

    // --- ode-config
    let oc = prefix.join("bin/ode-config");
    let ode_config = |args: &[&str]| run(Command::new(&oc).args(args)).trim().to_string();
    assert_eq!(ode_config(&["--version"]), VERSION);
    assert_eq!(ode_config(&["--prefix"]), prefix.display().to_string());
    assert_eq!(ode_config(&["--exec-prefix"]), prefix.display().to_string());
    assert_eq!(ode_config(&["--cflags"]), format!("-I{}", inc.display()));
    assert_eq!(ode_config(&["--libs"]), format!("-L{} -lode", libdir.display()));
    assert!(!Command::new(&oc).output().unwrap().status.success(), "ode-config without options must fail");

    // --- consumers
    let real_canon = std::fs::canonicalize(&real).unwrap();
    let src = work.join("main.c");
    std::fs::write(&src, CONSUMER_C).unwrap();
    let cc = |exe: &Path, flags: &str, pre: &[&str]| {
        let mut c = Command::new("cc");
        c.arg("-Wall").args(pre).arg("-o").arg(exe).arg(&src).args(flags.split_whitespace());
        run(&mut c);
    };
    // Runs a consumer without LD_LIBRARY_PATH (or with `ld_path`), checks it
    // worked and returns where dWorldCreate came from.
    let run_consumer = |name: &str, exe: &Path, ld_path: Option<&Path>| -> Option<PathBuf> {
        let mut c = Command::new(exe);
        c.env_remove("LD_LIBRARY_PATH");
        if let Some(p) = ld_path {
            c.env("LD_LIBRARY_PATH", p);
        }
        let out = run(&mut c);
        assert!(out.starts_with("consumer ok\n"), "{name}: {out}");
        loaded_from(&out)
    };

    // find_package(ode CONFIG) -> ODE::ODE and ODE::ODE_static
    let cdir = work.join("consumer-cmake");
    std::fs::create_dir_all(&cdir).unwrap();
    std::fs::write(cdir.join("CMakeLists.txt"), CONSUMER_CMAKE).unwrap();
    std::fs::write(cdir.join("main.c"), CONSUMER_C).unwrap();
    let cbuild = cdir.join("build");
    let conf = run(Command::new("cmake")
        .arg("-S")
        .arg(&cdir)
        .arg("-B")
        .arg(&cbuild)
        .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix.display())));
    let want_dir = format!("ode_DIR={}", libdir.join(format!("cmake/ode-{VERSION}")).display());
    assert!(conf.contains(&want_dir), "find_package found another ode:\n{conf}");
    assert!(conf.contains(&format!("ODE_VERSION={VERSION}")), "{conf}");
    run(Command::new("cmake").arg("--build").arg(&cbuild).arg("--verbose"));
    // The build tree's RUNPATH names the installed library: no
    // LD_LIBRARY_PATH needed.
    let exe = cbuild.join("consumer");
    let ldd = run(Command::new("ldd").arg(&exe).env_remove("LD_LIBRARY_PATH"));
    assert!(
        ldd.contains(&libdir.join("libode.so.8").display().to_string()) || ldd.contains(&real.display().to_string()),
        "consumer does not load the installed library:\n{ldd}"
    );
    assert_eq!(run_consumer("cmake ODE::ODE", &exe, None), Some(real_canon.clone()), "cmake consumer");
    // ODE::ODE_static: libode.a linked in, no libode.so.8 needed.
    let exe = cbuild.join("consumer_static");
    assert!(!needed(&exe).iter().any(|n| n.starts_with("libode")), "ODE::ODE_static consumer needs {:?}", needed(&exe));
    assert_eq!(
        run_consumer("cmake ODE::ODE_static", &exe, None),
        std::fs::canonicalize(&exe).ok(),
        "static cmake consumer"
    );

    // pkg-config and ode-config, loading the library through LD_LIBRARY_PATH.
    for (name, flags) in [
        ("consumer-pkgconfig", pkg(&["--cflags", "--libs", "ode"])),
        ("consumer-odeconfig", format!("{} {}", ode_config(&["--cflags"]), ode_config(&["--libs"]))),
    ] {
        let exe = work.join(name);
        cc(&exe, &flags, &[]);
        assert_eq!(run_consumer(name, &exe, Some(&libdir)), Some(real_canon.clone()), "{name}");
    }
    // The README's command for a prefix outside the loader's search path:
    // the rpath makes the program find our library with no LD_LIBRARY_PATH.
    let exe = work.join("consumer-pkgconfig-rpath");
    let libdir_var = pkg(&["--variable=libdir", "ode"]);
    cc(&exe, &format!("{} -Wl,-rpath,{libdir_var}", pkg(&["--cflags", "--libs", "ode"])), &[]);
    assert_eq!(run_consumer("pkg-config + rpath", &exe, None), Some(real_canon.clone()), "rpath consumer");
    // `pkg-config --static` with -static: the whole program is static.
    let exe = work.join("consumer-pkgconfig-static");
    cc(&exe, &pkg(&["--cflags", "--libs", "--static", "ode"]), &["-static"]);
    assert!(needed(&exe).is_empty(), "-static consumer needs {:?}", needed(&exe));
    run_consumer("pkg-config --static", &exe, None);

    // --- libdrawstuff: library, headers, ODE::drawstuff
    let ds_real = libdir.join("libdrawstuff.so");
    assert!(ds_real.is_file() && !ds_real.is_symlink(), "libdrawstuff.so not installed in {}", libdir.display());
    assert_eq!(soname(&ds_real), "libdrawstuff.so", "SONAME of the installed libdrawstuff");
    assert_eq!(exported(&ds_real), exported(&drawstuff_so), "installed libdrawstuff exports differ from cargo's");
    assert!(exported(&ds_real).iter().any(|s| s == "dsSimulationLoop"), "libdrawstuff exports no dsSimulationLoop");
    assert!(!sections(&ds_real).iter().any(|x| x == ".debug_info"), "installed libdrawstuff.so is not stripped");
    let (ds_link, ds_crc) = debuglink(&ds_real, &work);
    assert_eq!(ds_link, "libdrawstuff.so.debug");
    let ds_debug = std::fs::read(libdir.join(".debug").join(&ds_link)).expect("libdrawstuff.so.debug not installed");
    assert_eq!(crc32(&ds_debug), ds_crc, "CRC of libdrawstuff.so.debug does not match .gnu_debuglink");
    assert!(libdir.join("libdrawstuff.a").is_file(), "libdrawstuff.a not installed");
    for e in std::fs::read_dir(root.join("include/drawstuff")).unwrap() {
        let name = e.unwrap().file_name();
        assert!(
            std::fs::read(inc.join("drawstuff").join(&name)).ok()
                == std::fs::read(root.join("include/drawstuff").join(&name)).ok(),
            "header drawstuff/{name:?} not installed as checked in"
        );
    }
    let ddir = work.join("consumer-drawstuff");
    std::fs::create_dir_all(&ddir).unwrap();
    std::fs::write(ddir.join("CMakeLists.txt"), DRAWSTUFF_CMAKE).unwrap();
    std::fs::write(ddir.join("main.c"), DRAWSTUFF_C).unwrap();
    let dbuild = ddir.join("build");
    run(Command::new("cmake")
        .arg("-S")
        .arg(&ddir)
        .arg("-B")
        .arg(&dbuild)
        .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix.display())));
    run(Command::new("cmake").arg("--build").arg(&dbuild));
    let exe = dbuild.join("ds_consumer");
    let ldd = run(Command::new("ldd").arg(&exe).env_remove("LD_LIBRARY_PATH"));
    assert!(
        ldd.contains(&ds_real.display().to_string()),
        "drawstuff consumer does not load the installed library:\n{ldd}"
    );
    // Headless, two frames, no pictures.
    let out = run(Command::new(&exe)
        .env_remove("LD_LIBRARY_PATH")
        .env_remove("DS_OUTPUT")
        .env_remove("DS_WINDOW")
        .env("DS_HEADLESS", "1")
        .env("DS_FRAMES", "2"));
    assert_eq!(out.trim(), "drawstuff consumer: 2 frames");
    // Both Rust staticlibs linked into one program.
    let exe = dbuild.join("ds_consumer_static");
    let libs = needed(&exe);
    assert!(!libs.iter().any(|n| n.starts_with("libode") || n.starts_with("libdrawstuff")), "static: {libs:?}");
    let out = run(Command::new(&exe)
        .env_remove("LD_LIBRARY_PATH")
        .env_remove("DS_OUTPUT")
        .env_remove("DS_WINDOW")
        .env("DS_HEADLESS", "1")
        .env("DS_FRAMES", "2"));
    assert_eq!(out.trim(), "drawstuff consumer: 2 frames", "ODE::drawstuff_static consumer");

    println!(
        "install test: layout, SONAME, stripping + debuglink ({size} of {cargo_size} bytes), libode.a, ode.pc, \
         ode-config and find_package checked; 6 consumers built and run; libdrawstuff installed with its \
         headers, ODE::drawstuff and ODE::drawstuff_static consumers ran headless"
    );
}
