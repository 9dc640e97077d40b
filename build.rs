//! Build script: compiles the C-variadic shim, sets the SONAME, leaves a
//! `libode.so.8` link beside `libode.so` so hosts linked against Debian's
//! `libode.so.8` load ours through `LD_LIBRARY_PATH` alone, and generates
//! the public headers `include/ode/*.h` (see `headers` below).
use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());

    cc::Build::new().file(root.join("csrc/variadic.c")).compile("ode_variadic");
    println!("cargo:rerun-if-changed=csrc/variadic.c");
    println!("cargo:rerun-if-changed=csrc/variadic.map");
    // The variadic functions come from C, so rustc does not list them for
    // export; a second version script makes them global.
    for s in ["dError", "dDebug", "dMessage"] {
        println!("cargo:rustc-cdylib-link-arg=-Wl,--undefined={s}");
    }
    println!("cargo:rustc-cdylib-link-arg=-Wl,--version-script={}", root.join("csrc/variadic.map").display());
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libode.so.8");

    soname_link();
    headers::generate(&root);
}

/// `target/<profile>` (OUT_DIR = `<target>/<profile>/build/libode-sys-<hash>/out`).
fn profile_dir() -> Option<PathBuf> {
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    out.ancestors().nth(3).map(Path::to_path_buf)
}

/// `target/<profile>/libode.so.8 -> libode.so` (the link may precede its target).
fn soname_link() {
    let Some(profile_dir) = profile_dir() else { return };
    let link = profile_dir.join("libode.so.8");
    if std::fs::symlink_metadata(&link).is_err() {
        let _ = std::os::unix::fs::symlink(Path::new("libode.so"), &link);
    }
}

/// Header generation.
///
/// Every header `<stem>.h` has a hand-written template
/// `include-src/<stem>.h.in`. Its `@TYPES@` marker receives the types and
/// constants cbindgen finds in the header's Rust files, its `@FUNCTIONS@`
/// marker the prototypes of the functions those files export (ODE's API
/// as listed in `tests/data/functions.txt`, or `odex*` for ode_ext.h) that
/// the template does not spell itself. A header's Rust files are
/// `crates/ode/src/abi/<stem>.rs` (the C types live in the core crate),
/// `src/ffi/<stem>.rs` and `src/ffi/<stem>_*.rs`
/// (a file goes to the longest stem it matches, so `collision_space.rs`
/// belongs to collision_space.h, not collision.h).
///
/// Output: `$OUT_DIR/include/ode/`, a copy in
/// `target/<profile>/generated-include/ode/` (read by tests/headers_declarations.rs),
/// and, with `ODE_UPDATE_HEADERS=1`, the checked-in `include/ode/`.
mod headers {
    use std::collections::{BTreeMap, BTreeSet};
    use std::fs;
    use std::path::{Path, PathBuf};

    const TYPES_MARKER: &str = "@TYPES@";
    const FUNCTIONS_MARKER: &str = "@FUNCTIONS@";
    /// The C types and constants of the headers, in the core crate.
    const ABI_DIR: &str = "crates/ode/src/abi";

    pub fn generate(root: &Path) {
        for p in ["include-src", "src/ffi", ABI_DIR, "cbindgen.toml", "tests/data/functions.txt"] {
            println!("cargo:rerun-if-changed={p}");
        }
        println!("cargo:rerun-if-env-changed=ODE_UPDATE_HEADERS");

        let api = api_functions(&root.join("tests/data/functions.txt"));
        let base = cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cannot read cbindgen.toml");

        let mut stems: Vec<String> = read_dir_names(&root.join("include-src"))
            .into_iter()
            .filter_map(|n| n.strip_suffix(".h.in").map(str::to_owned))
            .collect();
        stems.sort();
        let ffi_files = ffi_files_by_stem(root, &stems);

        let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("include/ode");
        let mut dirs = vec![out_dir];
        if let Some(p) = super::profile_dir() {
            dirs.push(p.join("generated-include/ode"));
        }
        let update = std::env::var("ODE_UPDATE_HEADERS").map(|v| v == "1").unwrap_or(false);
        if update {
            dirs.push(root.join("include/ode"));
        }
        for d in &dirs {
            fs::create_dir_all(d).unwrap();
        }

        let mut stale = Vec::new();
        for stem in &stems {
            let empty = BTreeSet::new();
            let text = header(
                root,
                stem,
                ffi_files.get(stem).map(Vec::as_slice).unwrap_or(&[]),
                api.get(stem).unwrap_or(&empty),
                &base,
            );
            let name = format!("{stem}.h");
            for d in &dirs {
                write_if_changed(&d.join(&name), &text);
            }
            if fs::read_to_string(root.join("include/ode").join(&name)).ok().as_deref() != Some(text.as_str()) {
                stale.push(name);
            }
        }
        if !stale.is_empty() {
            println!(
                "cargo:warning=include/ode is out of date ({}): run `ODE_UPDATE_HEADERS=1 cargo build` and commit it",
                stale.join(", ")
            );
        }
    }

    /// Builds the text of `<stem>.h`.
    fn header(
        root: &Path,
        stem: &str,
        rust_files: &[PathBuf],
        api: &BTreeSet<String>,
        base: &cbindgen::Config,
    ) -> String {
        let template_path = root.join("include-src").join(format!("{stem}.h.in"));
        let template = fs::read_to_string(&template_path).unwrap();
        let in_template: BTreeSet<String> = declared_functions(&template).into_iter().collect();

        // Functions the Rust files export, split into the header's API and
        // the rest (internal entry points that no header declares).
        let mut exported = BTreeSet::new();
        let mut decl_src = String::new();
        for f in rust_files {
            let src = fs::read_to_string(f).unwrap();
            exported.extend(extern_fns(&src));
            if f.parent().and_then(Path::file_name).is_some_and(|n| n == "abi") {
                decl_src = src;
            }
        }
        // Our extensions (ode_ext.h, prefix `odex`) are not in ODE's list.
        let is_api = |n: &str| api.contains(n) || (stem == "ode_ext" && n.starts_with("odex"));
        let defined: BTreeSet<String> =
            exported.iter().filter(|n| is_api(n) && !in_template.contains(*n)).cloned().collect();

        let (types, functions) = if rust_files.is_empty() {
            (String::new(), String::new())
        } else {
            let mut cfg = base.clone();
            cfg.export.include = decl_types(&decl_src);
            cfg.export.exclude.extend(exported.iter().filter(|n| !defined.contains(*n)).cloned());
            use cbindgen::ItemType::*;
            let mut types =
                run_cbindgen(&cfg, rust_files, vec![Constants, Globals, Enums, Structs, Unions, Typedefs, OpaqueItems]);
            // cbindgen has no hook for extra enumerators of a plain enum:
            // add the aliases before the closing `} Name;` of each enum.
            for (enum_name, body) in enum_aliases(&decl_src) {
                let close = format!("\n}} {enum_name};");
                let at = types.find(&close).unwrap_or_else(|| panic!("{stem}.h: enum {enum_name} not emitted"));
                types.insert_str(at + 1, &body);
            }
            let types = join_defines(&types);
            let functions = run_cbindgen(&cfg, rust_files, vec![Functions]);
            (types, functions)
        };

        let functions = functions.trim();
        let body = template.replace(TYPES_MARKER, types.trim()).replace(FUNCTIONS_MARKER, functions);
        let mut text =
            format!("/* Generated by build.rs from include-src/{stem}.h.in and the Rust sources: do not edit. */\n\n");
        text.push_str(&squeeze_blank_lines(&body));
        text
    }

    fn run_cbindgen(cfg: &cbindgen::Config, files: &[PathBuf], kinds: Vec<cbindgen::ItemType>) -> String {
        let mut cfg = cfg.clone();
        cfg.export.item_types = kinds;
        let mut b = cbindgen::Builder::new().with_config(cfg);
        for f in files {
            b = b.with_src(f);
        }
        let bindings = b.generate().unwrap_or_else(|e| panic!("cbindgen failed on {files:?}: {e}"));
        let mut out = Vec::new();
        bindings.write(&mut out);
        String::from_utf8(out).unwrap()
    }

    /// `tests/data/functions.txt`: `<header>.h <name>` per line.
    fn api_functions(path: &Path) -> BTreeMap<String, BTreeSet<String>> {
        let mut m: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for line in fs::read_to_string(path).unwrap().lines() {
            let mut it = line.split_whitespace();
            if let (Some(h), Some(n)) = (it.next(), it.next()) {
                let stem = h.strip_suffix(".h").unwrap_or(h).to_owned();
                m.entry(stem).or_default().insert(n.to_owned());
            }
        }
        m
    }

    fn read_dir_names(dir: &Path) -> Vec<String> {
        match fs::read_dir(dir) {
            Ok(rd) => rd.filter_map(|e| e.ok()).filter_map(|e| e.file_name().into_string().ok()).collect(),
            Err(_) => Vec::new(),
        }
    }

    /// Rust files of each stem (see the module comment).
    fn ffi_files_by_stem(root: &Path, stems: &[String]) -> BTreeMap<String, Vec<PathBuf>> {
        let mut m: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
        let rust_stem = |s: &str| s.replace('-', "_");
        for n in read_dir_names(&root.join(ABI_DIR)) {
            let Some(base) = n.strip_suffix(".rs") else { continue };
            if let Some(s) = stems.iter().find(|s| rust_stem(s) == base) {
                m.entry(s.clone()).or_default().push(root.join(ABI_DIR).join(&n));
            }
        }
        let mut names = read_dir_names(&root.join("src/ffi"));
        names.sort();
        for n in names {
            let Some(base) = n.strip_suffix(".rs") else { continue };
            let owner = stems
                .iter()
                .filter(|s| {
                    let s = rust_stem(s);
                    base == s || base.strip_prefix(&s).is_some_and(|rest| rest.starts_with('_'))
                })
                .max_by_key(|s| s.len());
            if let Some(s) = owner {
                m.entry(s.clone()).or_default().push(root.join("src/ffi").join(&n));
            }
        }
        m
    }

    /// Names of `extern "C" fn` items (exported or not; the caller filters).
    fn extern_fns(src: &str) -> Vec<String> {
        let mut v = Vec::new();
        let mut rest = src;
        while let Some(i) = rest.find("extern \"C\" fn ") {
            rest = &rest[i + "extern \"C\" fn ".len()..];
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                v.push(name);
            }
        }
        v
    }

    /// `pub struct|enum|type NAME` of a decl file: emitted even when no
    /// function uses them yet.
    fn decl_types(src: &str) -> Vec<String> {
        let mut v = Vec::new();
        for line in src.lines() {
            let l = line.trim_start();
            for kw in ["pub struct ", "pub enum ", "pub type "] {
                if let Some(r) = l.strip_prefix(kw) {
                    let name: String = r.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    if !name.is_empty() {
                        v.push(name);
                    }
                }
            }
        }
        v
    }

    /// C enums may give several names to one value, Rust enums may not: a
    /// decl file writes the extra names as `pub const A: E = E::V;`. These
    /// become enumerators `A = <value of V>,` at the end of enum E.
    fn enum_aliases(src: &str) -> BTreeMap<String, String> {
        // Variant values of each enum (all decl enums give explicit values).
        let mut values: BTreeMap<(String, String), String> = BTreeMap::new();
        let mut current: Option<String> = None;
        for line in src.lines() {
            let l = line.trim();
            if let Some(r) = l.strip_prefix("pub enum ") {
                current = Some(r.trim_end_matches('{').trim().to_owned());
            } else if l.starts_with('}') {
                current = None;
            } else if let (Some(e), Some((v, val))) = (&current, l.trim_end_matches(',').split_once('=')) {
                values.insert((e.clone(), v.trim().to_owned()), val.trim().to_owned());
            }
        }
        let mut bodies: BTreeMap<String, String> = BTreeMap::new();
        for line in src.lines() {
            let Some(r) = line.trim().strip_prefix("pub const ") else { continue };
            let Some((name, rest)) = r.split_once(':') else { continue };
            let Some((ty, value)) = rest.split_once('=') else { continue };
            let (ty, value) = (ty.trim(), value.trim().trim_end_matches(';'));
            let Some(variant) = value.strip_prefix(&format!("{ty}::")) else { continue };
            let val = values
                .get(&(ty.to_owned(), variant.to_owned()))
                .unwrap_or_else(|| panic!("alias {name}: no value for {ty}::{variant}"));
            bodies.entry(ty.to_owned()).or_default().push_str(&format!("    {} = {val},\n", name.trim()));
        }
        bodies
    }

    /// Function names a template declares itself (`ODE_API ... name(`).
    fn declared_functions(template: &str) -> Vec<String> {
        template.lines().filter(|l| l.trim_start().starts_with("ODE_API")).filter_map(prototype_name).collect()
    }

    /// Name of the function a one-line prototype declares.
    fn prototype_name(line: &str) -> Option<String> {
        let l = line.trim();
        if !l.starts_with("ODE_API") {
            return None;
        }
        let head = &l[..l.find('(')?];
        let name: String = head
            .trim_end()
            .chars()
            .rev()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        (!name.is_empty()).then_some(name)
    }

    /// Drops the blank lines cbindgen leaves between consecutive `#define`s.
    fn join_defines(s: &str) -> String {
        let lines: Vec<&str> = s.lines().collect();
        let mut out = String::with_capacity(s.len());
        for (i, line) in lines.iter().enumerate() {
            let between_defines = line.trim().is_empty()
                && i > 0
                && lines[i - 1].starts_with("#define")
                && lines.get(i + 1).is_some_and(|n| n.starts_with("#define"));
            if !between_defines {
                out.push_str(line);
                out.push('\n');
            }
        }
        out
    }

    fn squeeze_blank_lines(s: &str) -> String {
        let mut out = String::with_capacity(s.len());
        let mut blank = 0;
        for line in s.lines() {
            let line = line.trim_end();
            if line.is_empty() {
                blank += 1;
                if blank > 1 {
                    continue;
                }
            } else {
                blank = 0;
            }
            out.push_str(line);
            out.push('\n');
        }
        out
    }

    fn write_if_changed(path: &Path, text: &str) {
        if fs::read_to_string(path).ok().as_deref() != Some(text) {
            fs::write(path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        }
    }
}
