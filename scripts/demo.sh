#!/usr/bin/env bash
# Quick start:   bash scripts/demo.sh              (the buggy, demo_buggy)
#                bash scripts/demo.sh demo_spin    (or any ctests/demo_*.c)
#
# Builds the library (cargo build --release), compiles a headless sample
# scene ctests/<demo>.c as any ODE program is compiled (against our headers
# in include/ode, linked to our libode.so), runs it with
# LD_LIBRARY_PATH pointing at our libode.so.8, and then checks its output
# against Debian's libode.so.8 with ctests/compare.py. The default,
# demo_buggy, drives ODE's demo_buggy car (hinge2 wheels with suspension,
# motors, contacts through nested spaces) over a ramp; demo_spin is a scene
# of free spinning bodies.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/deps.sh
. scripts/deps.sh
ode_ensure_deps gcc binutils python3 libode-dev libode8
ode_find_cargo

DEMO=${1:-demo_buggy}
DEMO=$(basename "$DEMO" .c)
SRC=ctests/$DEMO.c
OURS=$ROOT/target/release
REF=/usr/lib/x86_64-linux-gnu
OUT=$OURS/demo
[ -f "$SRC" ] || { echo "no such demo: $SRC" >&2; exit 2; }

echo "==> cargo build -p libode-sys --release --lib"
cargo build -p libode-sys --release --lib
mkdir -p "$OUT"

echo "==> compiling $SRC against our headers (include/ode)"
cc -O2 -std=gnu99 -Wall -I"$ROOT/include" "$SRC" -o "$OUT/$DEMO" -L"$OURS" -lode -lm

echo "==> running $DEMO with LD_LIBRARY_PATH=$OURS (our libode.so.8)"
echo
LD_LIBRARY_PATH=$OURS "$OUT/$DEMO"
echo

if [ -e "$REF/libode.so.8" ]; then
  echo "==> the same binary with Debian's libode.so.8, compared:"
  python3 ctests/compare.py --src "$SRC" --ref-bin "$OUT/$DEMO" --ref-libdir "$REF" \
    --bin "$OUT/$DEMO" --libdir "$OURS"
fi
