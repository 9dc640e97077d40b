//! ABI of the headers: every struct layout, typedef size, enum constant and
//! macro of Debian's ODE headers must come out the same with ours.
//!
//! The probe program `ctests/abi_dump.c` is generated from Debian's
//! headers (preprocessed with `cc -E -dD`): every macro they define, every
//! enumerator, every typedef and every struct with all its fields. Probes
//! that do not compile even against Debian's headers (sizeof of a function
//! type, the value of a function-like macro, ...) are dropped by compiling
//! and removing the lines the compiler rejects. The program is then built
//! against Debian's headers and against ours and both outputs must match
//! line for line. The checked-in file must equal a fresh generation
//! (`ODE_UPDATE_ABI=1 cargo test --test headers_abi_layout` rewrites it).
mod common;

use common::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What Debian's C headers declare, as seen by the C preprocessor.
#[derive(Default)]
struct Inventory {
    /// Macros: name -> (function-like, body).
    macros: BTreeMap<String, (bool, String)>,
    enumerators: Vec<String>,
    typedefs: Vec<String>,
    /// Structs: the C type to use in probes -> field names.
    structs: Vec<(String, Vec<String>)>,
}

fn debian_inventory() -> Inventory {
    let mut child = Command::new("cc")
        .args(["-E", "-dD", "-std=c11", "-DdDOUBLE", "-I/usr/include", "-x", "c", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("cannot run cc");
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"#include <ode/ode.h>\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "preprocessing Debian's ode.h failed");
    let text = String::from_utf8(out.stdout).unwrap();

    let mut inv = Inventory::default();
    let mut in_ode = false;
    let mut code = String::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# ") {
            // Line marker: # <n> "<file>" <flags>
            if let Some(q) = rest.find('"') {
                let file = &rest[q + 1..];
                in_ode = file.starts_with("/usr/include/ode/");
            }
            continue;
        }
        if !in_ode {
            continue;
        }
        if let Some(def) = line.strip_prefix("#define ") {
            let name: String = def.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            let after = &def[name.len()..];
            let func = after.starts_with('(');
            inv.macros.insert(name, (func, after.trim().to_owned()));
        } else if !line.starts_with('#') {
            code.push_str(line);
            code.push('\n');
        }
    }
    parse_declarations(&code, &mut inv);
    inv
}

fn ident_at(s: &[u8], i: usize) -> Option<(String, usize)> {
    let start = i;
    let mut j = i;
    while j < s.len() && (s[j].is_ascii_alphanumeric() || s[j] == b'_') {
        j += 1;
    }
    (j > start && !s[start].is_ascii_digit()).then(|| (String::from_utf8_lossy(&s[start..j]).into_owned(), j))
}

fn skip_ws(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && s[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// Index of the bracket closing the one at `open`.
fn matching(s: &[u8], open: usize) -> usize {
    let (o, c) = (s[open], if s[open] == b'{' { b'}' } else { b')' });
    let mut depth = 0;
    for (k, &ch) in s.iter().enumerate().skip(open) {
        if ch == o {
            depth += 1;
        } else if ch == c {
            depth -= 1;
            if depth == 0 {
                return k;
            }
        }
    }
    panic!("unbalanced brackets in Debian's headers");
}

/// Splits at `sep` outside of brackets.
fn split_top(s: &str, sep: char) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for ch in s.chars() {
        match ch {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
        if ch == sep && depth == 0 {
            parts.push(std::mem::take(&mut cur));
        } else {
            cur.push(ch);
        }
    }
    parts.push(cur);
    parts.into_iter().map(|p| p.trim().to_owned()).filter(|p| !p.is_empty()).collect()
}

/// Name a declarator declares: `(*name)(...)`, `name[4]`, `name(...)`.
fn declarator_name(decl: &str) -> Option<String> {
    let d = decl.split('=').next().unwrap();
    if let Some(p) = d.find("(*") {
        let s = d[p + 2..].trim_start().as_bytes();
        return ident_at(s, 0).map(|(n, _)| n);
    }
    if let Some(p) = d.find('(') {
        // `T (name)(args)`: a parenthesised name followed by parameters.
        let inner = d[p + 1..].trim_start();
        if let Some((n, e)) = ident_at(inner.as_bytes(), 0) {
            let rest = inner[e..].trim_start();
            if let Some(r) = rest.strip_prefix(')') {
                if r.trim_start().starts_with('(') {
                    return Some(n);
                }
            }
        }
        // `T name(args)`
        return last_ident(&d[..p]);
    }
    last_ident(d.split('[').next().unwrap())
}

fn last_ident(s: &str) -> Option<String> {
    let t: String = s.trim_end().chars().rev().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    (!t.is_empty()).then(|| t.chars().rev().collect())
}

fn parse_declarations(code: &str, inv: &mut Inventory) {
    let s = code.as_bytes();
    let mut i = 0;
    let mut typedef_start: Option<usize> = None;
    while i < s.len() {
        if !(s[i].is_ascii_alphabetic() || s[i] == b'_')
            || (i > 0 && (s[i - 1].is_ascii_alphanumeric() || s[i - 1] == b'_'))
        {
            if s[i] == b';' {
                if let Some(t) = typedef_start.take() {
                    let stmt = &code[t..i];
                    if let Some(n) = split_top(stmt, ',').first().and_then(|d| declarator_name(d)) {
                        inv.typedefs.push(n);
                    }
                }
            }
            i += 1;
            continue;
        }
        let (word, end) = ident_at(s, i).unwrap();
        match word.as_str() {
            "typedef" => {
                typedef_start = Some(end);
                i = end;
            }
            "enum" | "struct" | "union" => {
                let mut j = skip_ws(s, end);
                let tag = ident_at(s, j).map(|(t, e)| {
                    j = skip_ws(s, e);
                    t
                });
                if j < s.len() && s[j] == b'{' {
                    let close = matching(s, j);
                    let body = &code[j + 1..close];
                    let mut after = skip_ws(s, close + 1);
                    let alias = if typedef_start.is_some() {
                        ident_at(s, after).map(|(n, e)| {
                            after = e;
                            n
                        })
                    } else {
                        None
                    };
                    if word == "enum" {
                        for e in split_top(body, ',') {
                            if let Some((n, _)) = ident_at(e.as_bytes(), 0) {
                                inv.enumerators.push(n);
                            }
                        }
                    } else {
                        let ty = match (&tag, &alias) {
                            (Some(t), _) => format!("{word} {t}"),
                            (None, Some(a)) => a.clone(),
                            (None, None) => {
                                i = close + 1;
                                continue;
                            }
                        };
                        let mut fields = Vec::new();
                        for decl in split_top(body, ';') {
                            let parts = split_top(&decl, ',');
                            for (k, p) in parts.iter().enumerate() {
                                let n =
                                    if k == 0 { declarator_name(p) } else { last_ident(p.split('[').next().unwrap()) };
                                fields.extend(n);
                            }
                        }
                        inv.structs.push((ty, fields));
                    }
                    if let (Some(_), Some(a)) = (typedef_start, alias) {
                        inv.typedefs.push(a);
                        typedef_start = None;
                        i = after;
                        continue;
                    }
                    i = close + 1;
                } else {
                    i = j;
                }
            }
            _ => i = end,
        }
    }
}

const PRELUDE: &str = r#"/* Generated by tests/headers_abi_layout.rs from Debian's ODE headers: do not edit.
 * Prints the layout of every struct, the size of every typedef and the
 * value of every enumerator and macro of ODE's C headers. */
#include <ode/ode.h>
#include <stdio.h>
#include <stddef.h>

static void pv_i(const char *n, size_t z, long long v) { printf("value %s int%zu %lld\n", n, z, v); }
static void pv_u(const char *n, size_t z, unsigned long long v) { printf("value %s uint%zu %llu\n", n, z, v); }
static void pv_f(const char *n, size_t z, float v) { printf("value %s float%zu %.9g\n", n, z, v); }
static void pv_d(const char *n, size_t z, double v) { printf("value %s double%zu %.17g\n", n, z, v); }
static void pv_ld(const char *n, size_t z, long double v) { printf("value %s ldouble%zu %.21Lg\n", n, z, v); }
static void pv_s(const char *n, size_t z, const char *v) { printf("value %s string%zu \"%s\"\n", n, z, v); }
static void pv_other(const char *n, size_t z, ...) { printf("value %s other%zu\n", n, z); }
#define KIND(x) _Generic((x), _Bool: "bool", char: "char", signed char: "schar", unsigned char: "uchar", \
    short: "short", unsigned short: "ushort", int: "int", unsigned int: "uint", long: "long", \
    unsigned long: "ulong", long long: "llong", unsigned long long: "ullong", float: "float", \
    double: "double", long double: "ldouble", default: "other")
#define PV(n, x) _Generic((x), _Bool: pv_u, char: pv_i, signed char: pv_i, unsigned char: pv_u, short: pv_i, \
    unsigned short: pv_u, int: pv_i, unsigned int: pv_u, long: pv_i, unsigned long: pv_u, long long: pv_i, \
    unsigned long long: pv_u, float: pv_f, double: pv_d, long double: pv_ld, char *: pv_s, const char *: pv_s, \
    default: pv_other)(n, sizeof(x), (x))
#define PT(n, T) printf("typedef %s size %zu align %zu kind %s\n", n, sizeof(T), _Alignof(T), KIND(*(T *)0))
#define PS(n, T) printf("struct %s size %zu align %zu\n", n, sizeof(T), _Alignof(T))
#define PF(n, T, f) printf("field %s.%s offset %zu size %zu kind %s\n", n, #f, offsetof(T, f), sizeof(((T *)0)->f), KIND(((T *)0)->f))

int main(void)
{
"#;

/// One probe per line, so compiler errors map to probes.
fn probes(inv: &Inventory) -> Vec<String> {
    let mut p = Vec::new();
    for (name, (func, body)) in &inv.macros {
        p.push(format!(
            "#ifdef {name}\n    puts(\"macro {name} defined\");\n#else\n    puts(\"macro {name} MISSING\");\n#endif"
        ));
        if !func && !body.is_empty() {
            p.push(format!("    PV(\"{name}\", {name});"));
        }
    }
    let mut seen = BTreeSet::new();
    for e in &inv.enumerators {
        if seen.insert(e.clone()) {
            p.push(format!("    PV(\"{e}\", {e});"));
        }
    }
    for t in &inv.typedefs {
        if seen.insert(t.clone()) {
            p.push(format!("    PT(\"{t}\", {t});"));
        }
    }
    for (ty, fields) in &inv.structs {
        p.push(format!("    PS(\"{ty}\", {ty});"));
        for f in fields {
            p.push(format!("    PF(\"{ty}\", {ty}, {f});"));
        }
    }
    p
}

fn render(probes: &[String]) -> String {
    let mut s = PRELUDE.to_owned();
    for p in probes {
        s.push_str(p);
        s.push('\n');
    }
    s.push_str("    return 0;\n}\n");
    s
}

fn compile_dump(src: &Path, headers: Headers, out: &Path) -> std::process::Output {
    let mut cmd = Command::new("cc");
    cmd.args(["-std=c11", "-pedantic-errors", "-o"]).arg(out).arg(src);
    match headers {
        Headers::Debian => {
            cmd.args(["-DdDOUBLE", "-I/usr/include"]);
        }
        Headers::Ours => {
            cmd.arg("-I").arg(root().join("include"));
        }
    }
    cmd.arg("-lm");
    cmd.output().expect("cannot run cc")
}

/// Generates the probe program, dropping probes Debian's headers reject.
fn generate_dump() -> String {
    let inv = debian_inventory();
    assert!(
        inv.structs.len() >= 10 && inv.enumerators.len() >= 200 && inv.macros.len() >= 100,
        "inventory too small: {} structs, {} enumerators, {} macros",
        inv.structs.len(),
        inv.enumerators.len(),
        inv.macros.len()
    );
    let mut probes = probes(&inv);
    let tmp = scratch().join("abi_dump_gen.c");
    let bin = scratch().join("abi_dump_gen");
    for _round in 0..10 {
        let src = render(&probes);
        std::fs::write(&tmp, &src).unwrap();
        let o = compile_dump(&tmp, Headers::Debian, &bin);
        if o.status.success() {
            return src;
        }
        // Map error lines back to probes.
        let first_probe_line = PRELUDE.lines().count() + 1;
        let mut line_of = Vec::new(); // line number -> probe index
        for (k, p) in probes.iter().enumerate() {
            for _ in p.lines() {
                line_of.push(k);
            }
        }
        let stderr = String::from_utf8_lossy(&o.stderr);
        let prefix = format!("{}:", tmp.display());
        // Diagnostics as (is_error, line). An error inside a prelude macro
        // belongs to the probe named by the next "in expansion of" note.
        let diags: Vec<(bool, usize)> = stderr
            .lines()
            .filter_map(|l| {
                let rest = l.strip_prefix(&prefix)?;
                let n: usize = rest.split(':').next()?.parse().ok()?;
                Some((l.contains(": error:"), n))
            })
            .collect();
        let mut bad = BTreeSet::new();
        for (k, &(is_error, n)) in diags.iter().enumerate() {
            if !is_error {
                continue;
            }
            let at = if n >= first_probe_line {
                n
            } else {
                diags[k + 1..]
                    .iter()
                    .take_while(|d| !d.0)
                    .map(|d| d.1)
                    .find(|&m| m >= first_probe_line)
                    .unwrap_or_else(|| panic!("probe prelude does not compile:\n{stderr}"))
            };
            bad.insert(line_of[at - first_probe_line]);
        }
        assert!(!bad.is_empty(), "cannot attribute compile errors:\n{stderr}");
        probes = probes.into_iter().enumerate().filter(|(k, _)| !bad.contains(k)).map(|(_, p)| p).collect();
    }
    panic!("probe elimination did not converge");
}

fn checked_in_dump() -> PathBuf {
    root().join("ctests/abi_dump.c")
}

#[test]
fn abi_dump_matches_debian() {
    require_reference();
    let fresh = generate_dump();
    let path = checked_in_dump();
    if std::env::var("ODE_UPDATE_ABI").as_deref() == Ok("1") {
        std::fs::write(&path, &fresh).unwrap();
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        stored == fresh,
        "ctests/abi_dump.c is not what Debian's headers give: run `ODE_UPDATE_ABI=1 cargo test --test headers_abi_layout` and commit it"
    );

    let deb_bin = scratch().join("abi_dump-deb");
    let our_bin = scratch().join("abi_dump-ours");
    let o = compile_dump(&path, Headers::Debian, &deb_bin);
    assert!(o.status.success(), "abi_dump.c against Debian's headers:\n{}", String::from_utf8_lossy(&o.stderr));
    let o = compile_dump(&path, Headers::Ours, &our_bin);
    assert!(o.status.success(), "abi_dump.c against our headers:\n{}", String::from_utf8_lossy(&o.stderr));

    let run = |b: &Path| {
        let o = Command::new(b).output().unwrap();
        assert!(o.status.success());
        String::from_utf8(o.stdout).unwrap()
    };
    let (deb, ours) = (run(&deb_bin), run(&our_bin));
    let probes = deb.lines().count();
    assert!(probes > 400, "suspiciously few probes: {probes}");
    let diffs: Vec<String> = deb
        .lines()
        .zip(ours.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("  debian: {a}\n  ours:   {b}"))
        .collect();
    assert!(
        diffs.is_empty() && deb.lines().count() == ours.lines().count(),
        "{} of {probes} ABI probes differ:\n{}",
        diffs.len(),
        diffs.join("\n")
    );
}

/// The Rust mirrors of the C records (crates/ode/src/abi) have the C layout.
#[test]
fn rust_records_match_c_layout() {
    use ode::ffi::decl::*;
    use std::mem::{align_of, offset_of, size_of};
    require_reference();
    let path = checked_in_dump();
    let bin = scratch().join("abi_dump-layout");
    let o = compile_dump(&path, Headers::Debian, &bin);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(Command::new(&bin).output().unwrap().stdout).unwrap();
    let c_struct = |ty: &str| -> (usize, usize) {
        let key = format!("struct {ty} size ");
        let l = out.lines().find(|l| l.starts_with(&key)).unwrap_or_else(|| panic!("no probe for {ty}"));
        let w: Vec<&str> = l.split_whitespace().collect();
        (w[w.len() - 3].parse().unwrap(), w[w.len() - 1].parse().unwrap())
    };
    let c_offset = |ty: &str, f: &str| -> usize {
        let key = format!("field {ty}.{f} offset ");
        let l = out.lines().find(|l| l.starts_with(&key)).unwrap_or_else(|| panic!("no probe for {ty}.{f}"));
        let w: Vec<&str> = l.split_whitespace().collect();
        let at = w.iter().position(|x| *x == "offset").unwrap();
        w[at + 1].parse().unwrap()
    };
    macro_rules! check {
        ($cty:expr, $rty:ty, [$($f:ident),*]) => {{
            assert_eq!(c_struct($cty), (size_of::<$rty>(), align_of::<$rty>()), "size/align of {}", $cty);
            $( assert_eq!(c_offset($cty, stringify!($f)), offset_of!($rty, $f), "offset of {}.{}", $cty, stringify!($f)); )*
        }};
    }
    check!("struct dMass", mass::dMass, [mass, c, I]);
    check!("struct dJointFeedback", common::dJointFeedback, [f1, t1, f2, t2]);
    check!("struct dContactGeom", contact::dContactGeom, [pos, normal, depth, g1, g2, side1, side2]);
    check!(
        "struct dSurfaceParameters",
        contact::dSurfaceParameters,
        [
            mode, mu, mu2, rho, rho2, rhoN, bounce, bounce_vel, soft_erp, soft_cfm, motion1, motion2, motionN, slip1,
            slip2
        ]
    );
    check!("struct dContact", contact::dContact, [surface, geom, fdir1]);
    check!("struct dStopwatch", timer::dStopwatch, [time, cc]);
    check!("struct dGeomClass", collision::dGeomClass, [bytes, collider, aabb, aabb_test, dtor]);
    check!("dWorldStepReserveInfo", objects::dWorldStepReserveInfo, [struct_size, reserve_factor, reserve_minimum]);
    check!(
        "dWorldStepMemoryFunctionsInfo",
        objects::dWorldStepMemoryFunctionsInfo,
        [struct_size, alloc_block, shrink_block, free_block]
    );
    check!("struct dxThreadedWaitTime", threading::dThreadedWaitTime, [wait_sec, wait_nsec]);
    check!(
        "struct dxThreadingFunctionsInfo",
        threading::dThreadingFunctionsInfo,
        [
            struct_size,
            alloc_mutex_group,
            free_mutex_group,
            lock_group_mutex,
            unlock_group_mutex,
            alloc_call_wait,
            reset_call_wait,
            free_call_wait,
            post_call,
            alter_call_dependencies_count,
            wait_call,
            retrieve_thread_count,
            preallocate_resources_for_calls
        ]
    );
}
