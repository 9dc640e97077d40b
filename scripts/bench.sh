#!/usr/bin/env bash
# Benchmark:   bash scripts/bench.sh [-n BODIES] [-s STEPS] [--criterion]
#
# Builds our library (cargo build --release) and bench/c/bench_step.c, then
# times the same scene (N free bodies, S steps of dWorldStep and of
# dWorldQuickStep) against Debian's libode.so.8 and ours in one run and
# prints time per step and the ratio ours/ODE. --criterion also runs the
# criterion bench (cargo bench --bench step), which takes about a minute.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/deps.sh
. scripts/deps.sh
ode_ensure_deps gcc libode8
ode_find_cargo

criterion=no
args=()
for a in "$@"; do
  if [ "$a" = --criterion ]; then criterion=yes; else args+=("$a"); fi
done

echo "==> cargo build --release"
cargo build --release --lib
cc -O2 -std=gnu99 -Wall bench/c/bench_step.c -o target/release/bench_step -ldl
echo "==> bench_step"
target/release/bench_step "$ROOT/target/release/libode.so" /usr/lib/x86_64-linux-gnu/libode.so.8 "${args[@]}"

if [ "$criterion" = yes ]; then
  echo "==> cargo bench --bench step"
  cargo bench --bench step
fi
