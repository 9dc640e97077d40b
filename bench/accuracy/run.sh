#!/usr/bin/env bash
# Accuracy table of the solver modes:   bash bench/accuracy/run.sh
# Builds bench/accuracy/accuracy.c against Debian's headers and runs it with
# Debian's libode.so.8, ours (exact mode) and ours with ODE_SOLVER=fast.
# Needs our release library (cargo build --release --lib).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT="$ROOT/target/release/accuracy"
mkdir -p "$OUT/lib"
ln -sf "$ROOT/target/release/libode.so" "$OUT/lib/libode.so.8"
cc -O2 -std=gnu99 -Wall -DdDOUBLE "$ROOT/bench/accuracy/accuracy.c" -o "$OUT/accuracy" -lode -lm
env -u LD_LIBRARY_PATH "$OUT/accuracy" > "$OUT/ode.txt"
LD_LIBRARY_PATH="$OUT/lib" ODE_SOLVER=exact "$OUT/accuracy" > "$OUT/exact.txt"
LD_LIBRARY_PATH="$OUT/lib" ODE_SOLVER=fast "$OUT/accuracy" > "$OUT/fast.txt"
echo "| scene | measure | Debian ODE | ours exact | ours fast |"
echo "|---|---|---|---|---|"
paste "$OUT/ode.txt" "$OUT/exact.txt" "$OUT/fast.txt" | awk '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $6, $9 }'
