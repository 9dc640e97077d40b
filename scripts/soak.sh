#!/usr/bin/env bash
# Soak test (fuzz/soak_scenes.c): steps each bench-like scene (box pyramid
# with QuickStep, joint chain with dWorldStep, mixed geoms in a hash space,
# trimesh terrain) with random pushes and checks no NaN, bounded energy and
# nothing below the ground.
#
#   bash scripts/soak.sh                 10^6 steps of each scene (a few minutes)
#   bash scripts/soak.sh --steps 30000   the CI length (ctest runs this one)
#   bash scripts/soak.sh --seed 7 --scene terrain
set -u -o pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
cargo build -p libode-sys --release --lib -q || exit 1
mkdir -p target/fuzz
cc -O2 -g -std=gnu99 -Wall -I include -o target/fuzz/soak_scenes fuzz/soak_scenes.c -L target/release -lode -lm || exit 1
export LD_LIBRARY_PATH="$ROOT/target/release${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--steps 1000000)
exec nice -n 19 target/fuzz/soak_scenes "${args[@]}"
