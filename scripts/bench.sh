#!/usr/bin/env bash
# Benchmark:   bash scripts/bench.sh [-n BODIES] [-s STEPS] [-x SCALE] [--criterion]
#
# Builds our library (cargo build --release) and the C benches, then times
# the same scenes against Debian's libode.so.8 and ours in one run and
# prints time per step and the ratio ours/ODE:
#   bench/c/bench_step.c    N free bodies (-n, default 1000), S steps (-s)
#                           of dWorldStep and of dWorldQuickStep
#   bench/c/bench_joints.c  constraint scenes: a 200-link hinge chain
#                           (dWorldStep), a 10-high box stack on hand-made
#                           contacts (QuickStep, 20 iterations), 50 hinge
#                           pendulums (both steppers); -x scales its steps
#   bench/c/quick_stack.c   the box stack alone, QuickStep
#   bench/c/bench_trimesh.c 200 boxes and spheres falling onto a 20k-triangle
#                           terrain mesh (QuickStep), and dCollide of two
#                           5k-triangle closed meshes
#   bench/c/bench_api_calls.c  ns per call of cheap, often-called functions
#                           (pose getters/setters, forces, transforms, joint
#                           parameters); linked by soname, run once per library
# --criterion also runs the criterion benches (cargo bench --bench step and
# --bench joints), which take a few minutes.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/deps.sh
. scripts/deps.sh
ode_ensure_deps gcc libode8 libode-dev
ode_find_cargo

criterion=no
step_args=()
joint_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --criterion) criterion=yes ;;
    -x) joint_args+=(-x "$2"); shift ;;
    -n|-s) step_args+=("$1" "$2"); shift ;;
    *) echo "usage: $0 [-n BODIES] [-s STEPS] [-x SCALE] [--criterion]" >&2; exit 2 ;;
  esac
  shift
done

OURS="$ROOT/target/release/libode.so"
ODE=/usr/lib/x86_64-linux-gnu/libode.so.8

echo "==> cargo build -p libode-sys --release --lib"
cargo build -p libode-sys --release --lib
# ODE's headers give the C benches the dContact layout and constants only;
# both libraries are loaded with dlopen.
for b in bench_step bench_joints quick_stack bench_trimesh; do
  cc -O2 -std=gnu99 -Wall -DdDOUBLE "bench/c/$b.c" -o "target/release/$b" -ldl -lm
done

echo "==> bench_step"
target/release/bench_step "$OURS" "$ODE" ${step_args[@]+"${step_args[@]}"}
echo
echo "==> bench_joints"
target/release/bench_joints "$OURS" "$ODE" ${joint_args[@]+"${joint_args[@]}"}
echo
echo "==> quick_stack"
target/release/quick_stack "$OURS" "$ODE"
echo
echo "==> bench_trimesh"
target/release/bench_trimesh "$OURS" "$ODE"
echo
echo "==> bench_api_calls (ns per call)"
cc -O2 -std=gnu99 -Wall -DdDOUBLE bench/c/bench_api_calls.c -o target/release/bench_api_calls -lode -lm
ours_dir=$(mktemp -d)
cp "$OURS" "$ours_dir/libode.so.8"
printf '%-26s %7s %7s %6s\n' call ours ODE ratio
paste <(LD_LIBRARY_PATH="$ours_dir" target/release/bench_api_calls) <(env -u LD_LIBRARY_PATH target/release/bench_api_calls) |
  awk '{ printf "%-26s %7.2f %7.2f %6.2f\n", $1, $2, $4, $2 / $4 }'
rm -rf "$ours_dir"

if [ "$criterion" = yes ]; then
  echo "==> cargo bench --bench step"
  cargo bench --bench step
  echo "==> cargo bench --bench joints"
  cargo bench --bench joints
fi
