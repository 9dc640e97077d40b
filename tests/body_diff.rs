//! Differential tests of the dBody* functions: the same C program runs
//! against Debian's libode.so.8 and ours; traces must agree within the
//! tolerance declared on the program's first line.
mod common;
use common::*;

/// Reads `/* DIFF-TOL rel=… abs=… */` from the first line of a C test.
fn tolerance(src: &str) -> (f64, f64) {
    let text = std::fs::read_to_string(root().join("ctests").join(src)).unwrap();
    let first = text.lines().next().unwrap_or_default();
    let field = |key: &str| -> f64 {
        let at = first.find(key).unwrap_or_else(|| panic!("{src}: first line lacks {key}"));
        first[at + key.len()..].split_whitespace().next().unwrap().parse().unwrap()
    };
    (field("rel="), field("abs="))
}

/// `compare_traces` computes inf - inf = NaN and so rejects equal
/// infinities; turn infinite numbers into labels, which must match exactly.
fn infinities_as_labels(trace: &str) -> String {
    let mut out = String::with_capacity(trace.len());
    for line in trace.lines() {
        let toks: Vec<String> = line
            .split_whitespace()
            .map(|t| match t.parse::<f64>() {
                Ok(v) if v.is_infinite() => if v > 0.0 { "+INFINITE".into() } else { "-INFINITE".into() },
                _ => t.to_string(),
            })
            .collect();
        out.push_str(&toks.join(" "));
        out.push('\n');
    }
    out
}

fn differential(name: &str, src: &str) {
    require_reference();
    let (rel, abs) = tolerance(src);
    let bin = build_c(name, &[src], Headers::Debian, &[]);
    let reference = run_ok(&bin, Lib::Debian, &[]);
    let ours = run_ok(&bin, Lib::Ours, &[]);
    assert!(reference.ends_with("done\n"), "reference run incomplete");
    let worst = compare_traces(&infinities_as_labels(&ours), &infinities_as_labels(&reference), rel, abs);
    eprintln!("{src}: {} lines, worst relative difference {worst:e}", reference.lines().count());
}

#[test]
fn body_state_matches_ode() {
    differential("diff_body_state", "diff_body_state.c");
}

#[test]
fn body_world_defaults_match_ode() {
    differential("diff_body_worlddefaults", "diff_body_worlddefaults.c");
}

#[test]
fn body_settings_drive_steps_like_ode() {
    differential("diff_body_dynamics", "diff_body_dynamics.c");
}
