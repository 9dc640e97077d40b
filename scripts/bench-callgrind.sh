#!/usr/bin/env bash
# Instruction counts (valgrind --tool=callgrind) of the bench scenes, Debian's
# libode.so.8 against ours:   bash scripts/bench-callgrind.sh [SCENE...]
#
# Deterministic where wall-clock timings on a shared machine are not. Each
# scene is rebuilt with a reduced step count (callgrind runs ~50x slower) and
# only the stepping/collision calls are counted (--toggle-collect on
# dWorldStep, dWorldQuickStep, dSpaceCollide), so set-up is excluded.
# The library is copied first, so rebuilding meanwhile does not matter. Prints
# per scene the instructions of each library per step and the ratio
# ours/ODE. Expects target/release/libode.so (cargo build --release --lib).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# OURS_LIB=path/to/libode.so measures another build (e.g. a saved baseline).
OURS_DIR=$(mktemp -d)
trap 'rm -rf "$OURS_DIR"' EXIT
cp "${OURS_LIB:-$ROOT/target/release/libode.so}" "$OURS_DIR/libode.so.8"
BIN="$ROOT/target/release/bench-callgrind"
mkdir -p "$BIN"
SCENES=("$@")
[ ${#SCENES[@]} -eq 0 ] && SCENES=(pyramid container ragdolls collide hinge_chain trimesh_terrain free_bodies)
steps_for() {
  case "$1" in
    pyramid) echo 60 ;; container) echo 40 ;; ragdolls) echo 100 ;; collide) echo 4 ;;
    hinge_chain) echo 4 ;; trimesh_terrain) echo 60 ;; free_bodies) echo 100 ;; *) echo 20 ;;
  esac
}
printf '%-16s %14s %14s %9s\n' scene "ODE Ir/step" "ours Ir/step" ours/ODE
for s in "${SCENES[@]}"; do
  n=$(steps_for "$s")
  sed "s/^#define STEPS .*/#define STEPS $n/" "bench/scenes/$s.c" > "$BIN/$s.c"
  cc -O2 -std=gnu99 -Wall -DdDOUBLE -I bench/scenes "$BIN/$s.c" -o "$BIN/$s" -lode -lm
  for lib in ode ours; do
    out="$BIN/$s.$lib.cg"
    if [ $lib = ode ]; then envs=(env -u LD_LIBRARY_PATH); else envs=(env LD_LIBRARY_PATH="$OURS_DIR"); fi
    "${envs[@]}" valgrind --tool=callgrind --callgrind-out-file="$out" --collect-atstart=no \
      --toggle-collect=dWorldStep --toggle-collect=dWorldQuickStep --toggle-collect=dSpaceCollide \
      "$BIN/$s" > "$BIN/$s.$lib.txt" 2> "$BIN/$s.$lib.log"
    grep -h '^summary:' "$out" | awk '{print $2}' > "$BIN/$s.$lib.ir"
  done
  o=$(cat "$BIN/$s.ode.ir"); u=$(cat "$BIN/$s.ours.ir")
  printf '%-16s %14d %14d %9.3f\n' "$s" $((o / n)) $((u / n)) "$(echo "$u / $o" | bc -l)"
done
