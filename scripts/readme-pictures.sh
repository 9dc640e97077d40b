#!/usr/bin/env bash
# Regenerates the README's pictures (docs/pictures/) with this library:
# ODE's own demos, unchanged, built by scripts/ode-demos.sh against our
# libode and libdrawstuff, run headless with scripted keys, recorded as
# animated GIFs and a PNG by libdrawstuff.
#   bash scripts/readme-pictures.sh          (after: cargo build --release -p libode-sys -p drawstuff)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
work=${TMPDIR:-/tmp}/ode-demo-ode
lib=$here/target/release
out=$here/docs/pictures
[ -f "$lib/libode.so" ] && [ -f "$lib/libdrawstuff.so" ] || {
  echo "build first: cargo build --release -p libode-sys -p drawstuff"; exit 1; }
[ -x "$work/demos/demo_buggy/demo_buggy" ] || bash "$here/scripts/ode-demos.sh" "$lib" "$work" 2 1 > /dev/null || true
mkdir -p "$out"
record() { # demo frames interval keys size name
  local d=$work/demos/$1 tmp
  tmp=$(mktemp -d)
  (cd "$d" && LD_LIBRARY_PATH="$lib" DS_HEADLESS=1 DS_FRAMES="$2" DS_INTERVAL="$3" DS_KEYS="$4" \
     DS_SIZE="$5" DS_OUTPUT="$tmp" "./$1" < /dev/null > /dev/null 2>&1)
  cp "$tmp/animation.gif" "$out/$6.gif"
  cp "$(ls "$tmp"/frame*.png | tail -1)" "$out/$6.png"
  rm -rf "$tmp"
  echo "$out/$6.gif ($(du -k "$out/$6.gif" | cut -f1) kB), $out/$6.png"
}
# The buggy: accelerate (a × 2), steer left (, × 6) and drive a circle.
record demo_buggy 300 10 "aa,,,,,," 256x192 buggy
# The box stack: drop boxes, spheres, capsules and cylinders, one per frame.
record demo_boxstack 240 8 "bsbcybsbcybsbcybsbcybsbcy" 256x192 boxstack
# The crash: a cannon ball through a wall of boxes.
record demo_crash 240 8 "" 256x192 crash
