//! What our `libode.so` exports, measured against ODE's public API
//! (`tests/data/functions.txt`, 640 functions) and against what known
//! programs use (`tests/data/used-by-*.txt`).
//!
//! It fails when one of ODE's functions is not exported, when we export a
//! `d*` function that ODE does not have (a typo or an invented name would
//! shadow nothing but confuse hosts), or when the SONAME is wrong.
//! Run with `-- --nocapture` for the report (scripts/test-all.sh does).
mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Our own extensions, allowed beyond ODE's list. Each must be documented
/// in the README. They use the `odex` prefix (no `d*` name of ours: those
/// could collide with ODE's own internals) and are declared in
/// include/ode/ode_ext.h.
const EXTENSION_ALLOWLIST: &[&str] = &[
    "odexJointCreateCustom",
    "odexJointGetCustomUserData",
    "odexJointLimitTest",
    "odexJointLimitRow",
    "odexJointGetLimitState",
    "odexLimitInit",
    "odexWorldSetStepThreads",
    "odexWorldGetStepThreads",
    "odexWorldSetSolverMode",
    "odexWorldGetSolverMode",
    "odexSpaceSetCollideMode",
    "odexSpaceGetCollideMode",
    "odexSpaceDraw",
    "odexGeomDraw",
];

/// Functions Debian's libode.so.8 exports although no header declares
/// them (ODE's internals that its own demo_ode calls); see
/// src/ffi/ode_internal.rs and the README.
const ODE_UNDECLARED_EXPORTS: &[&str] = &["dGeomMoved", "dGeomGetBodyNext", "dTestSolveLCP", "dTestDataStructures"];

fn lib_path() -> PathBuf {
    common::our_lib_dir().join("libode.so")
}

/// (functions, data objects) exported by the library.
fn dynamic_symbols(lib: &Path) -> (BTreeSet<String>, BTreeSet<String>) {
    let o = Command::new("nm").args(["-D", "--defined-only"]).arg(lib).output().expect("cannot run nm (binutils)");
    assert!(o.status.success(), "nm failed: {}", String::from_utf8_lossy(&o.stderr));
    let mut funcs = BTreeSet::new();
    let mut data = BTreeSet::new();
    for line in String::from_utf8_lossy(&o.stdout).lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 3 {
            continue;
        }
        let name = f[2].split('@').next().unwrap().to_string();
        match f[1] {
            "T" | "W" | "i" => {
                funcs.insert(name);
            }
            "D" | "B" | "R" | "V" | "G" | "S" => {
                data.insert(name);
            }
            _ => {}
        }
    }
    (funcs, data)
}

/// `tests/data/functions.txt`: header -> names.
fn api() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(common::root().join("tests/data/functions.txt")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut it = l.split_whitespace();
            let header = it.next().unwrap().to_string();
            let name = it.next().unwrap_or_else(|| panic!("bad line in functions.txt: {l}")).to_string();
            (name, header)
        })
        .collect()
}

fn used_by_lists() -> Vec<(String, Vec<String>)> {
    let dir = common::root().join("tests/data");
    let mut lists: Vec<(String, Vec<String>)> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            let n = p.file_name()?.to_str()?.to_string();
            let who = n.strip_prefix("used-by-")?.strip_suffix(".txt")?.to_string();
            let names = std::fs::read_to_string(&p)
                .ok()?
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(String::from)
                .collect();
            Some((who, names))
        })
        .collect();
    lists.sort();
    lists
}

fn exported_d_functions() -> BTreeSet<String> {
    let lib = lib_path();
    assert!(lib.exists(), "{} missing: the cdylib was not built", lib.display());
    dynamic_symbols(&lib).0.into_iter().filter(|n| n.starts_with('d') || n.starts_with("odex")).collect()
}

#[test]
fn exports_only_ode_functions() {
    let api = api();
    assert_eq!(api.len(), 640, "tests/data/functions.txt should list ODE 0.16.2's 640 functions");
    let exported = exported_d_functions();
    let unknown: Vec<&String> = exported
        .iter()
        .filter(|n| {
            !api.contains_key(*n)
                && !EXTENSION_ALLOWLIST.contains(&n.as_str())
                && !ODE_UNDECLARED_EXPORTS.contains(&n.as_str())
        })
        .collect();
    assert!(
        unknown.is_empty(),
        "we export d* functions that ODE 0.16.2 does not have (fix the name, make it non-exported, \
         or add a documented extension to EXTENSION_ALLOWLIST): {unknown:?}"
    );
}

#[test]
fn exports_every_ode_function() {
    let exported = exported_d_functions();
    let missing: Vec<String> = api().into_keys().filter(|n| !exported.contains(n)).collect();
    assert!(missing.is_empty(), "ODE functions our library does not export: {missing:?}");
}

#[test]
fn no_ode_named_data_symbols() {
    // ODE exports no variables; a `d*` data symbol would be a mistake.
    let (_, data) = dynamic_symbols(&lib_path());
    let bad: Vec<&String> = data.iter().filter(|n| n.starts_with('d')).collect();
    assert!(bad.is_empty(), "exported d* data symbols: {bad:?}");
}

#[test]
fn soname_is_libode_so_8() {
    let o = Command::new("readelf").arg("-d").arg(lib_path()).output().expect("cannot run readelf");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("Library soname: [libode.so.8]"), "SONAME is not libode.so.8:\n{text}");
    let link = common::our_lib_dir().join("libode.so.8");
    assert!(link.exists(), "{} missing (build.rs creates it)", link.display());
}

#[test]
fn coverage_report() {
    let api = api();
    let exported = exported_d_functions();
    let (all_funcs, _) = dynamic_symbols(&lib_path());

    let mut per_header: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (name, header) in &api {
        let e = per_header.entry(header.as_str()).or_default();
        e.1 += 1;
        if exported.contains(name) {
            e.0 += 1;
        }
    }
    let n = api.keys().filter(|k| exported.contains(*k)).count();
    println!("exported {n} of {}", api.len());
    for (h, (got, total)) in &per_header {
        println!("  {h:<24} {got:>4} of {total:<4}");
    }
    for (who, names) in used_by_lists() {
        let missing: Vec<&String> = names.iter().filter(|f| !exported.contains(*f)).collect();
        println!("used by {who}: {} of {} exported", names.len() - missing.len(), names.len());
        let outside: Vec<&String> = names.iter().filter(|f| !api.contains_key(*f)).collect();
        if !outside.is_empty() {
            println!("  (not in functions.txt: {outside:?})");
        }
        if !missing.is_empty() && missing.len() <= 30 {
            println!("  missing: {}", missing.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" "));
        }
    }
    let others: Vec<&String> = all_funcs.iter().filter(|n| !n.starts_with('d')).collect();
    if !others.is_empty() {
        println!("other exported functions (not ODE API): {others:?}");
    }
}

#[test]
fn extensions_are_exported_declared_and_documented() {
    let exported = exported_d_functions();
    let header = std::fs::read_to_string(common::root().join("include/ode/ode_ext.h")).unwrap();
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    for n in EXTENSION_ALLOWLIST {
        assert!(exported.contains(*n), "{n} is not exported");
        let declared = header
            .match_indices(&format!("{n}("))
            .any(|(i, _)| header[..i].chars().last().is_some_and(|c| c == ' ' || c == '*'));
        assert!(declared, "{n} is not declared in ode_ext.h");
        assert!(readme.contains(n), "{n} is not documented in the README");
    }
    assert!(!exported.iter().any(|n| n.starts_with("dx")), "dx* names belong to ODE's internals");
}
