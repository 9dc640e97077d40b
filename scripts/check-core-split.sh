#!/usr/bin/env bash
# Checks the crate split (see Cargo.toml): the safe core, package `ode` in
# crates/ode, is a plain Rust library that a Rust program can use beside any
# other ODE binding.
#   1. `cargo metadata`: package `ode` declares no `links` and has no build
#      script (so its build runs neither cbindgen nor a C compiler).
#   2. `cargo build -p ode`: the rlib's object code neither defines nor
#      references any C symbol of ODE's API (tests/data/functions.txt), of
#      our extensions (odex*) or of the C shim (rode_*).
#   3. `cargo run -p ode --example box_stack`: a Rust binary that depends on
#      crates/ode alone links and runs boxes dropped on a plane (collision,
#      contacts, QuickStep).
#   4. A throw-away program (in a temporary directory, with the workspace's
#      Cargo.lock and target dir) depends on crates/ode and on a stand-in for
#      another ODE binding that declares `links = "ode"` and defines
#      `dWorldCreate`: it must build, link and run.
# Usage: bash scripts/check-core-split.sh [--release]   (exit 0 when all hold)
set -u -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/deps.sh
. scripts/deps.sh
ode_find_cargo || exit 1
PROFILE=()
[ "${1:-}" = "--release" ] && PROFILE=(--release)

fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. No `links`, no build script.
cargo metadata --format-version 1 --no-deps >"$tmp/meta.json" || exit 1
python3 - "$tmp/meta.json" <<'EOF' || fail=1
import json, sys
meta = json.load(open(sys.argv[1]))
core = [p for p in meta["packages"] if p["name"] == "ode"]
assert len(core) == 1, "no package `ode` in the workspace"
core = core[0]
bad = []
if core.get("links"):
    bad.append(f"declares links = {core['links']!r}")
if any("custom-build" in t["kind"] for t in core["targets"]):
    bad.append("has a build script")
if bad:
    sys.exit("package ode " + " and ".join(bad))
print("core crate: no links, no build script")
EOF

# 2. The rlib of `cargo build -p ode` (its path from cargo's JSON messages:
# both libraries are named `ode`, so target/<profile>/libode.rlib may be
# either).
cargo build -p ode --lib "${PROFILE[@]}" --message-format=json >"$tmp/build.json" || exit 1
rlib=$(python3 - "$tmp/build.json" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "ode" and "/crates/ode/" in m["manifest_path"]:
        print(next(f for f in m["filenames"] if f.endswith(".rlib")))
EOF
)
if [ -z "$rlib" ] || [ ! -f "$rlib" ]; then
  echo "no rlib found for package ode" >&2
  exit 1
fi
awk '{print $2}' tests/data/functions.txt | sort -u >"$tmp/api.txt"
# nm on an rlib lists each member object; the metadata member has no symbols.
nm "$rlib" 2>/dev/null | awk 'NF >= 2 {print $(NF-1), $NF}' >"$tmp/syms.txt"
is_c_symbol() { grep -qxF "$1" "$tmp/api.txt" || [[ "$1" == odex* || "$1" == rode_* ]]; }
defined=0; referenced=0
while read -r kind name; do
  is_c_symbol "$name" || continue
  if [ "$kind" = U ]; then
    referenced=$((referenced + 1)); echo "core rlib references C symbol $name" >&2
  else
    defined=$((defined + 1)); echo "core rlib defines C symbol $name ($kind)" >&2
  fi
done < <(sort -u "$tmp/syms.txt")
total=$(grep -c . "$tmp/syms.txt")
echo "core rlib $(basename "$rlib"): $total symbols, $defined C API symbols defined, $referenced referenced"
if [ "$defined" -ne 0 ] || [ "$referenced" -ne 0 ] || [ "$total" -eq 0 ]; then
  fail=1
fi

# 3. A Rust binary on the core alone: boxes fall onto a plane and settle.
if out=$(cargo run -q -p ode "${PROFILE[@]}" --example box_stack); then
  echo "$out" | head -1
  echo "$out" | grep -q "^box stack:" || { echo "box_stack printed no summary" >&2; fail=1; }
else
  echo "cargo run -p ode --example box_stack failed" >&2
  fail=1
fi

# 4. Beside another binding.
user="$tmp/user"
mkdir -p "$user/src" "$user/other/src"
cat >"$user/Cargo.toml" <<EOF
[package]
name = "split-user"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
ode = { path = "$ROOT/crates/ode" }
other-ode-sys = { path = "other" }

[workspace]
EOF
cat >"$user/other/Cargo.toml" <<'EOF'
[package]
name = "other-ode-sys"
version = "0.1.0"
edition = "2021"
publish = false
links = "ode"
build = "build.rs"
EOF
echo 'fn main() {}' >"$user/other/build.rs"
cat >"$user/other/src/lib.rs" <<'EOF'
//! Stands for another ODE binding: `links = "ode"` and a C symbol of ODE's API.
#[no_mangle]
pub extern "C" fn dWorldCreate() -> usize {
    42
}
EOF
cat >"$user/src/main.rs" <<'EOF'
use ode::api::{Mass, World};
fn main() {
    let mut world = World::new();
    world.set_gravity([0.0, 0.0, -9.81]).unwrap();
    let b = world.create_body();
    b.set_mass(&mut world, &Mass::box_total(1.0, 1.0, 1.0, 1.0).unwrap()).unwrap();
    world.step(0.01).unwrap();
    let z = b.position(&world).unwrap().z;
    assert!(z < 0.0, "the body did not fall");
    println!("beside another binding: its dWorldCreate = {}, body z = {z}", other_ode_sys::dWorldCreate());
}
EOF
cp Cargo.lock "$user/"
# --offline: the workspace build above has fetched every crate it needs.
if ! (cd "$user" && CARGO_TARGET_DIR="$ROOT/target" cargo run -q --offline "${PROFILE[@]}"); then
  echo "a program using crates/ode beside another ODE binding failed to build or run" >&2
  fail=1
fi

[ "$fail" -eq 0 ] && echo "core split: ok"
exit "$fail"
