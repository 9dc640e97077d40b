#!/usr/bin/env bash
# ODE's own test program demo_ode (ode/demo/demo_ode.cpp) against our
# library: its source comes from Debian's `ode` source package, fetched with
# `apt-get source` (scripts/deps.sh: ode_fetch_source) into a scratch
# directory, never into the repository. It is
# built against our headers and run against our library, and against
# Debian's headers and library; the sequence of results (every "passed" /
# "FAILED" and dTestSolveLCP's NL/NH/C counts) must be the same and contain
# no failure.
#   scripts/demo-ode.sh OUR_LIB_DIR [OUR_INCLUDE_DIR] [WORK_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
libdir=$(cd "$1" && pwd)
incdir=${2:-$here/include}
work=${3:-${TMPDIR:-/tmp}/ode-demo-ode}
# shellcheck source=scripts/deps.sh
. "$here/scripts/deps.sh"
ode_ensure_deps g++ libode-dev libode8

mkdir -p "$work"
tree=$(ode_fetch_source "$work") || tree=
src=${tree:+$tree/ode/demo/demo_ode.cpp}
[ -n "$src" ] || { echo "demo-ode: could not obtain demo_ode.cpp from Debian's ode source package"; exit 1; }

g++ -O1 -I"$incdir" -o "$work/demo_ode_ours" "$src" -L"$libdir" -lode
g++ -O1 -DdDOUBLE -o "$work/demo_ode_deb" "$src" -lode

results() {
  grep -o -E 'passed( \([0-9]+\))?|FAILED.*|NL= *[0-9]+ NH= *[0-9]+ C= *[0-9]+' "$1"
}
LD_LIBRARY_PATH="$libdir" "$work/demo_ode_ours" > "$work/ours.txt"
"$work/demo_ode_deb" > "$work/debian.txt"
results "$work/ours.txt" > "$work/ours.res"
results "$work/debian.txt" > "$work/debian.res"
if grep -q FAILED "$work/ours.res"; then
  echo "demo_ode: failures against our library:"; grep FAILED "$work/ours.res"; exit 1
fi
if ! diff -q "$work/debian.res" "$work/ours.res" >/dev/null; then
  echo "demo_ode: results differ from Debian's:"; diff "$work/debian.res" "$work/ours.res" | head -20; exit 1
fi
echo "demo_ode: $(grep -c passed "$work/ours.res") results passed, as with Debian's library"
