#!/usr/bin/env bash
# Quick start:   bash scripts/demo.sh              (the buggy, demo_buggy)
#                bash scripts/demo.sh demo_spin    (or any ctests/demo_*.c)
#                DS_OUTPUT=/tmp/buggy bash scripts/demo.sh   (also writes pictures)
#                bash scripts/demo.sh demo_buggy -window     (flags go to the program)
#
# Builds the library and libdrawstuff (cargo build --release), compiles the
# sample scene ctests/<demo>.c, a drawstuff program, as any ODE sample is
# compiled (against our headers in include/, linked to our libode.so and
# libdrawstuff.so), runs it with LD_LIBRARY_PATH pointing at our
# libraries, and then checks its printed trace against Debian's
# libode.so.8 with ctests/compare.py: the same source compiled against
# Debian's ODE headers and linked to Debian's libode plus our libdrawstuff
# alone. The run is headless unless -window is given with a display; with
# DS_OUTPUT=DIR (or -output DIR) it writes PNG frames and animation.gif
# there. The default, demo_buggy, drives ODE's demo_buggy car (hinge2
# wheels with suspension, motors, contacts through nested spaces) over a
# ramp; demo_spin is a scene of free spinning bodies.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/deps.sh
. scripts/deps.sh
ode_ensure_deps gcc binutils python3 libode-dev libode8
ode_find_cargo

DEMO=${1:-demo_buggy}
DEMO=$(basename "$DEMO" .c)
[ $# -gt 0 ] && shift
SRC=ctests/$DEMO.c
OURS=$ROOT/target/release
REF=/usr/lib/x86_64-linux-gnu
OUT=$OURS/demo
[ -f "$SRC" ] || { echo "no such demo: $SRC" >&2; exit 2; }
# Pictures and windows (DS_OUTPUT, or flags such as -output and -window)
# are drawn with OpenGL through EGL (Mesa); the headless trace needs none.
if [ -n "${DS_OUTPUT:-}" ] || [ $# -gt 0 ]; then
  ode_ensure_deps libegl1 libegl-mesa0 libgl1-mesa-dri
fi

echo "==> cargo build -p libode-sys -p drawstuff --release --lib"
cargo build -p libode-sys -p drawstuff --release --lib
mkdir -p "$OUT"

echo "==> compiling $SRC against our headers (include/ode, include/drawstuff)"
cc -O2 -std=gnu99 -Wall -I"$ROOT/include" "$SRC" -o "$OUT/$DEMO" -L"$OURS" -ldrawstuff -lode -lm

echo "==> running $DEMO with LD_LIBRARY_PATH=$OURS (our libode.so.8 and libdrawstuff.so)"
echo
LD_LIBRARY_PATH=$OURS "$OUT/$DEMO" "$@"
echo

if [ -e "$REF/libode.so.8" ]; then
  # Our drawstuff alone beside Debian's ODE headers and library.
  DS=$OUT/drawstuff-only
  rm -rf "$DS"; mkdir -p "$DS/include" "$DS/lib"
  cp -r "$ROOT/include/drawstuff" "$DS/include/"
  cp "$OURS/libdrawstuff.so" "$DS/lib/"
  cc -O2 -std=gnu99 -Wall -I"$DS/include" "$SRC" -o "$OUT/$DEMO.debian" -L"$DS/lib" -ldrawstuff -lode -lm
  echo "==> the same source built against Debian's ODE and run with its libode.so.8, compared:"
  # Only the printed traces are compared: no pictures for these two runs.
  env -u DS_OUTPUT python3 ctests/compare.py --src "$SRC" --ref-bin "$OUT/$DEMO.debian" --ref-libdir "$REF:$DS/lib" \
    --bin "$OUT/$DEMO" --libdir "$OURS"
fi
