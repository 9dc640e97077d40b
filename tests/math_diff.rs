//! Differential tests of the math headers (matrix.h, misc.h, mass.h, …):
//! each `ctests/diff_math_*.c` program is compiled once against Debian's
//! headers and run with Debian's `libode.so.8` and with ours; the traces must
//! agree within the tolerance on the program's first line
//! (`/* DIFF-TOL rel=R abs=A */`; rel=0 abs=0 means identical text).
mod common;
use common::*;

fn tolerance(src: &str) -> (f64, f64) {
    let text = std::fs::read_to_string(root().join("ctests").join(src)).unwrap();
    let first = text.lines().next().unwrap_or("");
    assert!(first.contains("DIFF-TOL"), "{src}: first line must declare DIFF-TOL");
    let get = |key: &str| -> f64 {
        let i = first.find(key).unwrap_or_else(|| panic!("{src}: no {key} in DIFF-TOL"));
        first[i + key.len()..].split_whitespace().next().unwrap().trim_end_matches("*/").parse().unwrap()
    };
    (get("rel="), get("abs="))
}

fn diff(name: &str) {
    require_reference();
    let src = format!("{name}.c");
    let (rel, abs) = tolerance(&src);
    let bin = build_c(name, &[&src], Headers::Debian, &[]);
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
    } else {
        compare_traces(&ours, &reference, rel, abs);
    }
}

#[test]
fn matrix_routines_match_ode() {
    diff("diff_math_matrix");
}

#[test]
fn mass_functions_match_ode() {
    diff("diff_math_mass");
}

#[test]
fn random_sequences_match_ode() {
    diff("diff_math_random");
}
