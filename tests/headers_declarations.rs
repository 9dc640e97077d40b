//! The public headers: checked-in copies are up to date, every API
//! function is declared exactly once with a prototype compatible with
//! ODE's, every header compiles on its own in C99 and C++11, the C++
//! wrappers accept code written for ODE's, and the inline math of
//! odemath.h gives bit-identical results to ODE's.
mod common;

use common::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Our only header without an ODE counterpart (custom joints, `odex*`).
const EXTENSION_HEADER: &str = "ode_ext.h";

fn our_headers() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("include/ode"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "h"))
        .collect();
    v.sort();
    v
}

fn stem(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

#[test]
fn checked_in_headers_are_generated_ones() {
    // build.rs writes its output here (the test binary's build ran it).
    let generated = profile_dir().join("generated-include/ode");
    let mut gen_names: Vec<String> = std::fs::read_dir(&generated)
        .unwrap_or_else(|_| panic!("{} missing: build.rs did not run", generated.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    gen_names.sort();
    let ours: Vec<String> =
        our_headers().iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    let hint = "run `ODE_UPDATE_HEADERS=1 cargo build` and commit include/ode";
    assert_eq!(ours, gen_names, "include/ode has other files than build.rs generates: {hint}");
    for n in &gen_names {
        let a = std::fs::read_to_string(generated.join(n)).unwrap();
        let b = std::fs::read_to_string(root().join("include/ode").join(n)).unwrap();
        assert!(a == b, "include/ode/{n} differs from what build.rs generates: {hint}");
    }
}

#[test]
fn same_header_files_as_debian() {
    require_reference();
    let mut deb: Vec<String> = std::fs::read_dir("/usr/include/ode")
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    deb.sort();
    // Plus exactly one header of ours: the `odex` extensions.
    let ours: Vec<String> = our_headers()
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|n| n != EXTENSION_HEADER)
        .collect();
    assert_eq!(ours, deb);
    assert!(root().join("include/ode").join(EXTENSION_HEADER).exists(), "include/ode/{EXTENSION_HEADER} missing");
}

/// Removes comments and preprocessor lines.
fn strip_c(src: &str) -> String {
    let mut out = String::new();
    let mut rest = src;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find("*/").map(|e| i + e + 2).unwrap_or(rest.len());
        rest = &rest[end..];
    }
    out.push_str(rest);
    let mut joined = String::new();
    let mut continued = false;
    for line in out.lines() {
        let line = line.split("//").next().unwrap();
        let directive = continued || line.trim_start().starts_with('#');
        continued = directive && line.trim_end().ends_with('\\');
        if !directive {
            joined.push_str(line);
            joined.push('\n');
        }
    }
    joined
}

/// Declarations made with ODE_API: name -> statements.
fn api_declarations(src: &str) -> Vec<(String, String)> {
    let code = strip_c(src);
    let mut v = Vec::new();
    for stmt in code.split([';', '{', '}']) {
        let Some(at) = stmt.find("ODE_API") else { continue };
        let decl = stmt[at..].split_whitespace().collect::<Vec<_>>().join(" ");
        // The declared name: the first identifier directly followed by `(`.
        let b = decl.as_bytes();
        let mut name = None;
        let mut i = 0;
        while i < b.len() {
            if b[i].is_ascii_alphabetic() || b[i] == b'_' {
                let s = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let word = &decl[s..i];
                if decl[i..].trim_start().starts_with('(') && !word.starts_with("ODE_") {
                    name = Some(word.to_owned());
                    break;
                }
            } else {
                i += 1;
            }
        }
        if let Some(n) = name {
            v.push((n, decl));
        }
    }
    v
}

fn api_list() -> BTreeMap<String, String> {
    std::fs::read_to_string(root().join("tests/data/functions.txt"))
        .unwrap()
        .lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            Some((it.nth(1)?.to_owned(), l.split_whitespace().next()?.to_owned()))
        })
        .collect()
}

#[test]
fn every_api_function_declared_exactly_once_in_its_header() {
    let api = api_list();
    assert_eq!(api.len(), 640);
    let mut seen: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for h in our_headers() {
        let header = format!("{}.h", stem(&h));
        if header.starts_with("odecpp") {
            continue; // C++ members (some marked ODE_API_DEPRECATED), not C functions
        }
        for (name, _) in api_declarations(&std::fs::read_to_string(&h).unwrap()) {
            if header == EXTENSION_HEADER && name.starts_with("odex") {
                continue; // our extensions, checked by tests/custom_api.rs
            }
            seen.entry(name).or_default().push(header.clone());
        }
    }
    let mut problems = Vec::new();
    for (name, header) in &api {
        match seen.get(name) {
            None => problems.push(format!("{name}: not declared")),
            Some(hs) if hs.len() != 1 => problems.push(format!("{name}: declared {} times ({hs:?})", hs.len())),
            Some(hs) if &hs[0] != header => problems.push(format!("{name}: declared in {} instead of {header}", hs[0])),
            _ => {}
        }
    }
    for (name, hs) in &seen {
        if !api.contains_key(name) {
            problems.push(format!("{name}: declared in {hs:?} but not an ODE function"));
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

/// Redeclares every function with the exact prototype of ODE's header
/// after including ours: C rejects a conflicting redeclaration, C++ a
/// second C-linkage function of the same name.
#[test]
fn prototypes_are_compatible_with_debian() {
    require_reference();
    let mut decls = Vec::new();
    for e in std::fs::read_dir("/usr/include/ode").unwrap() {
        let p = e.unwrap().path();
        if stem(&p).starts_with("odecpp") {
            continue;
        }
        for (_, d) in api_declarations(&std::fs::read_to_string(&p).unwrap()) {
            decls.push(d);
        }
    }
    decls.sort();
    assert_eq!(decls.len(), 640, "expected ODE's 640 prototypes");
    let mut src = String::from("#include <ode/ode.h>\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n");
    for d in &decls {
        src.push_str(d);
        src.push_str(";\n");
    }
    src.push_str("#ifdef __cplusplus\n}\n#endif\n");
    let dir = scratch();
    for (file, compiler, std) in [("redecl.c", "cc", "-std=c99"), ("redecl.cpp", "g++", "-std=c++11")] {
        let path = dir.join(file);
        std::fs::write(&path, &src).unwrap();
        let o = Command::new(compiler)
            .args([std, "-Wall", "-Wno-deprecated-declarations", "-fsyntax-only", "-I"])
            .arg(root().join("include"))
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "ODE's prototypes conflict with ours ({compiler}):\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// Compiles `src` with our headers; returns the compiler's complaint.
fn compile_alone(compiler: &str, args: &[&str], src: &Path) -> Option<String> {
    let o = Command::new(compiler)
        .args(args)
        .arg("-I")
        .arg(root().join("include"))
        .arg("-c")
        .arg(src)
        .arg("-o")
        .arg("/dev/null")
        .output()
        .unwrap();
    (!o.status.success()).then(|| String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn each_header_compiles_alone_in_c99_and_cpp11() {
    let dir = scratch().join("hdr_alone");
    std::fs::create_dir_all(&dir).unwrap();
    let mut jobs = Vec::new();
    for h in our_headers() {
        let s = stem(&h);
        // A declaration keeps the C translation unit non-empty (odecpp.h is C++ only).
        let text = format!("#include <ode/{s}.h>\nint hdr_alone_{};\n", s.replace('-', "_"));
        let c = dir.join(format!("{s}.c"));
        let cpp = dir.join(format!("{s}.cpp"));
        std::fs::write(&c, &text).unwrap();
        std::fs::write(&cpp, &text).unwrap();
        jobs.push(("cc", vec!["-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror"], c));
        jobs.push(("g++", vec!["-std=c++11", "-Wall", "-Wextra", "-Werror"], cpp));
    }
    // Two compilers at a time.
    let failures: Vec<String> = std::thread::scope(|sc| {
        let half = jobs.len() / 2;
        let (a, b) = jobs.split_at(half);
        let run = |part: &[(&str, Vec<&str>, PathBuf)]| {
            part.iter()
                .filter_map(|(cc, args, src)| {
                    compile_alone(cc, args, src).map(|e| format!("{} ({cc}):\n{e}", src.display()))
                })
                .collect::<Vec<_>>()
        };
        let h = sc.spawn(move || run(a));
        let mut f = run(b);
        f.extend(h.join().unwrap());
        f
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn cpp_wrappers_accept_code_written_for_ode() {
    require_reference();
    let src = root().join("ctests/hdr_odecpp.cpp");
    let common = ["-std=c++11", "-Wall", "-Werror", "-Wno-unused-variable"];
    // The program itself is valid for ODE's headers...
    let o = Command::new("g++")
        .args(common)
        .args(["-DdDOUBLE", "-I/usr/include", "-c", "-o", "/dev/null"])
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "hdr_odecpp.cpp does not compile with ODE's headers:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // ...and must be for ours (compiled only: the wrappers are inline).
    for std in ["-std=c++98", "-std=c++11", "-std=c++17"] {
        let mut args = common.to_vec();
        args[0] = std;
        if let Some(e) = compile_alone("g++", &args, &src) {
            panic!("hdr_odecpp.cpp does not compile with our headers ({std}):\n{e}");
        }
    }
}

#[test]
fn inline_math_is_bit_identical_to_ode() {
    require_reference();
    let deb = build_c("hdr_odemath", &["hdr_odemath.c"], Headers::Debian, &[]);
    let ours = build_c("hdr_odemath", &["hdr_odemath.c"], Headers::Ours, &[]);
    // Only inline code runs: the library is not called.
    let a = run_ok(&deb, Lib::Debian, &[]);
    let b = run_ok(&ours, Lib::Debian, &[]);
    assert!(a.lines().count() > 10_000);
    let first_diff = a.lines().zip(b.lines()).find(|(x, y)| x != y);
    assert!(a == b, "odemath.h results differ from ODE's: {first_diff:?}");
}
