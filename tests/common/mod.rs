//! Shared helpers of the integration tests: compile a C/C++ program from
//! `ctests/` and run it against our library or Debian's reference
//! `libode.so.8` (the oracle), switching only `LD_LIBRARY_PATH`.
// Several test binaries include this module and each uses only part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Which headers a C program is compiled against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Headers {
    /// Our `include/` directory.
    Ours,
    /// Debian's `/usr/include` (libode-dev).
    Debian,
}

/// Which `libode.so.8` the dynamic loader finds at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lib {
    Ours,
    Debian,
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `target/<profile>` of the running test binary.
pub fn profile_dir() -> PathBuf {
    // The test binary is target/<profile>/deps/<name>-<hash>.
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().to_path_buf()
}

/// A directory holding our library as `libode.so` and `libode.so.8`.
///
/// `cargo test` rebuilds the cdylib into `target/<profile>/deps/` but only
/// `cargo build` copies it up to `target/<profile>/`, so the tests link to
/// the fresh one in `deps/` through `target/<profile>/ode-lib/`.
pub fn our_lib_dir() -> PathBuf {
    let profile = profile_dir();
    let fresh = profile.join("deps").join("libode.so");
    let built = if fresh.exists() { fresh } else { profile.join("libode.so") };
    assert!(built.exists(), "our libode.so is not built (looked in {})", profile.display());
    let dir = profile.join("ode-lib");
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["libode.so", "libode.so.8"] {
        let link = dir.join(name);
        if std::fs::read_link(&link).ok().as_deref() != Some(built.as_path()) {
            // Tests run in parallel processes and threads: build the link
            // aside under a name of this process and call, then rename it
            // over the old one atomically.
            static SERIAL: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let n = SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let tmp = dir.join(format!(".{name}.{}.{n}", std::process::id()));
            let _ = std::fs::remove_file(&tmp);
            std::os::unix::fs::symlink(&built, &tmp).unwrap();
            std::fs::rename(&tmp, &link).unwrap();
        }
    }
    dir
}

pub fn debian_lib_dir() -> PathBuf {
    PathBuf::from("/usr/lib/x86_64-linux-gnu")
}

/// Is Debian's reference library with its headers installed?
pub fn have_reference() -> bool {
    Path::new("/usr/include/ode/ode.h").exists() && debian_lib_dir().join("libode.so.8").exists()
}

/// Fails the test loudly when the reference library is missing: the test
/// command installs it, so absence is an environment error, not a skip.
pub fn require_reference() {
    assert!(
        have_reference(),
        "Debian's libode-dev/libode8 are required (apt-get install libode-dev libode8); run the README's test command"
    );
}

/// Scratch directory for built test programs.
pub fn scratch() -> PathBuf {
    let d = profile_dir().join("ctests-bin");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Compiles `ctests/<srcs>` into an executable named `name`.
///
/// The program is always linked against Debian's `libode.so` (needs
/// libode-dev) when `headers == Debian`, and against ours otherwise; at run
/// time `run` picks the library through `LD_LIBRARY_PATH` only.
pub fn build_c(name: &str, srcs: &[&str], headers: Headers, extra: &[&str]) -> PathBuf {
    let out = scratch().join(format!(
        "{name}-{}",
        match headers {
            Headers::Ours => "ours",
            Headers::Debian => "deb",
        }
    ));
    let is_cpp = srcs.iter().any(|s| s.ends_with(".cpp") || s.ends_with(".cc"));
    let mut cmd = Command::new(if is_cpp { "g++" } else { "cc" });
    cmd.args(["-O1", "-g", "-Wall", "-o"]).arg(&out);
    if !is_cpp {
        cmd.arg("-std=c99");
    }
    for s in srcs {
        cmd.arg(root().join("ctests").join(s));
    }
    match headers {
        Headers::Ours => {
            cmd.arg("-I").arg(root().join("include"));
            cmd.arg("-L").arg(our_lib_dir());
        }
        Headers::Debian => {
            cmd.arg("-DdDOUBLE").arg("-I/usr/include");
            cmd.arg("-L").arg(debian_lib_dir());
        }
    }
    cmd.args(extra);
    cmd.args(["-lode", "-lm"]);
    let o = cmd.output().expect("cannot run the C compiler");
    assert!(o.status.success(), "compiling {srcs:?} failed:\n{}", String::from_utf8_lossy(&o.stderr));
    out
}

/// Runs a built program with the chosen `libode.so.8`.
pub fn run(bin: &Path, lib: Lib, args: &[&str]) -> Output {
    let dir = match lib {
        Lib::Ours => our_lib_dir(),
        Lib::Debian => debian_lib_dir(),
    };
    Command::new(bin).args(args).env("LD_LIBRARY_PATH", dir).output().expect("cannot run test program")
}

/// Runs and requires success; returns stdout.
pub fn run_ok(bin: &Path, lib: Lib, args: &[&str]) -> String {
    let o = run(bin, lib, args);
    assert!(
        o.status.success(),
        "{} against {lib:?} failed ({}):\nstdout:\n{}\nstderr:\n{}",
        bin.display(),
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// Parses whitespace-separated numbers of each line (non-numbers become NaN
/// only if they look numeric; other tokens are kept as labels).
pub fn numbers(line: &str) -> Vec<f64> {
    line.split_whitespace().filter_map(|t| t.parse::<f64>().ok()).collect()
}

/// Compares two traces line by line: labels must match exactly, numbers to
/// a relative tolerance `rel` (with absolute floor `abs`). Returns the
/// largest relative difference seen.
pub fn compare_traces(ours: &str, reference: &str, rel: f64, abs: f64) -> f64 {
    let a: Vec<&str> = ours.lines().collect();
    let b: Vec<&str> = reference.lines().collect();
    assert_eq!(a.len(), b.len(), "trace lengths differ: ours {} vs reference {}", a.len(), b.len());
    let mut worst: f64 = 0.0;
    for (i, (la, lb)) in a.iter().zip(&b).enumerate() {
        let ta: Vec<&str> = la.split_whitespace().collect();
        let tb: Vec<&str> = lb.split_whitespace().collect();
        assert_eq!(ta.len(), tb.len(), "line {i} differs in shape:\n ours: {la}\n  ref: {lb}");
        for (x, y) in ta.iter().zip(&tb) {
            match (x.parse::<f64>(), y.parse::<f64>()) {
                (Ok(x), Ok(y)) => {
                    // Equal values (including equal infinities) and NaN vs NaN agree.
                    if x == y || (x.is_nan() && y.is_nan()) {
                        continue;
                    }
                    let d = (x - y).abs();
                    let scale = x.abs().max(y.abs());
                    assert!(
                        d <= abs || d <= rel * scale,
                        "line {i}: {x} vs reference {y} (diff {d:e}, rel {:e}):\n ours: {la}\n  ref: {lb}",
                        d / scale
                    );
                    if scale > abs {
                        worst = worst.max(d / scale);
                    }
                }
                _ => assert_eq!(x, y, "line {i} label differs:\n ours: {la}\n  ref: {lb}"),
            }
        }
    }
    worst
}

/// Tolerance declared on the first line of a C test:
/// `/* DIFF-TOL rel=R abs=A */` (rel=0 abs=0 means identical text).
pub fn declared_tolerance(src: &str) -> (f64, f64) {
    let text = std::fs::read_to_string(root().join("ctests").join(src)).unwrap();
    let first = text.lines().next().unwrap_or("");
    assert!(first.contains("DIFF-TOL"), "{src}: first line must declare DIFF-TOL");
    let get = |key: &str| -> f64 {
        let i = first.find(key).unwrap_or_else(|| panic!("{src}: no {key} in DIFF-TOL")) + key.len();
        first[i..].split_whitespace().next().unwrap().trim_end_matches("*/").parse().unwrap()
    };
    (get("rel="), get("abs="))
}

/// ODE functions `bin` needs that our library does not export.
pub fn missing_symbols(bin: &Path) -> Vec<String> {
    let names = |args: &[&str], file: &Path| -> Vec<String> {
        let o = Command::new("nm").args(args).arg(file).output().expect("cannot run nm");
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter_map(|l| l.split_whitespace().last().map(str::to_string))
            // Versioned names (dup@GLIBC_2.2.5) are the C library's.
            .filter(|n| n.starts_with('d') && !n.contains('@'))
            .collect()
    };
    let ours = names(&["-D", "--defined-only"], &our_lib_dir().join("libode.so"));
    names(&["-D", "--undefined-only"], bin).into_iter().filter(|n| !ours.contains(n)).collect()
}

/// Builds libdrawstuff (`cargo build -p drawstuff --lib`) into the target
/// directory and profile of the running test binary (a no-op when it is
/// fresh) and returns the library, `target/<profile>/deps/libdrawstuff.so`,
/// beside the `libode.so` the tests use. Cargo releases its build lock
/// before it runs tests, so this nested build does not wait on the
/// `cargo test` that started it.
pub fn build_drawstuff() -> PathBuf {
    let profile = profile_dir();
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args(["build", "-p", "drawstuff", "--lib", "--manifest-path"])
        .arg(root().join("Cargo.toml"))
        .arg("--target-dir")
        .arg(profile.parent().unwrap());
    match profile.file_name().and_then(|n| n.to_str()) {
        Some("debug") => {}
        Some("release") => {
            cmd.arg("--release");
        }
        Some(other) => {
            cmd.args(["--profile", other]);
        }
        None => panic!("no profile directory in {}", profile.display()),
    }
    let o = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(o.status.success(), "{cmd:?} failed:\n{}", String::from_utf8_lossy(&o.stderr));
    let lib = profile.join("deps").join("libdrawstuff.so");
    assert!(lib.exists(), "{} missing after {cmd:?}", lib.display());
    lib
}

/// Our drawstuff alone, for programs built against Debian's ODE headers and
/// run with either `libode.so.8`: `target/<profile>/drawstuff-only/` with
/// `include/drawstuff/*.h` and `lib/libdrawstuff.so` (a link to
/// [`build_drawstuff`]'s library) and nothing else of ours.
pub fn drawstuff_only_dir() -> PathBuf {
    let lib = build_drawstuff();
    let dir = profile_dir().join("drawstuff-only");
    let inc = dir.join("include/drawstuff");
    std::fs::create_dir_all(&inc).unwrap();
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    for e in std::fs::read_dir(root().join("include/drawstuff")).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), inc.join(e.file_name())).unwrap();
    }
    let link = dir.join("lib/libdrawstuff.so");
    if std::fs::read_link(&link).ok().as_deref() != Some(lib.as_path()) {
        // Parallel test processes: build the link aside, rename it over.
        let tmp = dir.join(format!("lib/.libdrawstuff.so.{}", std::process::id()));
        let _ = std::fs::remove_file(&tmp);
        std::os::unix::fs::symlink(&lib, &tmp).unwrap();
        std::fs::rename(&tmp, &link).unwrap();
    }
    dir
}

/// The differential test of one `ctests/<name>.c`: built against Debian's
/// headers, run with Debian's and with our `libode.so.8`, traces compared
/// within the tolerance the program declares. Returns the reference trace.
pub fn differential(name: &str) -> String {
    differential_linked(name, &[], &[])
}

/// [`differential`] for a drawstuff program (the demo ports of
/// `scripts/demo.sh`): also linked to our libdrawstuff from
/// [`drawstuff_only_dir`], found through the program's run path, so
/// `LD_LIBRARY_PATH` still chooses only the `libode.so.8`. The program runs
/// headless for its own step count (it sets `DS_FRAMES`).
pub fn differential_drawstuff(name: &str) -> String {
    let ds = drawstuff_only_dir();
    let flags = [
        format!("-I{}", ds.join("include").display()),
        format!("-L{}", ds.join("lib").display()),
        "-ldrawstuff".to_string(),
        format!("-Wl,-rpath,{}", ds.join("lib").display()),
    ];
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let nm = Command::new("nm").args(["-D", "--defined-only"]).arg(ds.join("lib/libdrawstuff.so")).output();
    let drawstuff: Vec<String> = String::from_utf8_lossy(&nm.expect("cannot run nm").stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().last().map(str::to_string))
        .collect();
    differential_linked(name, &flags, &drawstuff)
}

/// [`differential`] with extra compiler flags; `elsewhere` are functions
/// another library of ours provides.
fn differential_linked(name: &str, extra: &[&str], elsewhere: &[String]) -> String {
    require_reference();
    let src = format!("{name}.c");
    let (rel, abs) = declared_tolerance(&src);
    let bin = build_c(name, &[&src], Headers::Debian, extra);
    let missing: Vec<String> = missing_symbols(&bin).into_iter().filter(|n| !elsewhere.contains(n)).collect();
    assert!(missing.is_empty(), "{name} needs functions our library lacks: {missing:?}");
    let reference = run_ok(&bin, Lib::Debian, &[]);
    let ours = run_ok(&bin, Lib::Ours, &[]);
    assert!(!reference.trim().is_empty(), "{name}: empty reference trace");
    if rel == 0.0 && abs == 0.0 {
        if ours != reference {
            let (i, (a, b)) = ours
                .lines()
                .zip(reference.lines())
                .enumerate()
                .find(|(_, (a, b))| a != b)
                .unwrap_or((0, ("<length differs>", "")));
            panic!("{name}: traces differ first at line {i}:\n ours: {a}\n  ref: {b}");
        }
        eprintln!("{name}: {} lines, identical", reference.lines().count());
    } else {
        let worst = compare_traces(&ours, &reference, rel, abs);
        eprintln!("{name}: {} lines, worst relative difference {worst:e}", reference.lines().count());
    }
    reference
}
