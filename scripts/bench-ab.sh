#!/usr/bin/env bash
# A/B benchmark against Debian's ODE:   bash scripts/bench-ab.sh [-p PAIRS] [SCENE...]
#
# Builds our library (cargo build --release) and the scenes of
# bench/scenes/ (ordinary ODE programs linked by soname against Debian's
# headers and library), then runs each scene PAIRS times (default 5) with
# Debian's libode.so.8 and with ours, interleaved (ODE, ours, ODE, ours, …),
# switching only LD_LIBRARY_PATH. Prints per scene the median ms/step of
# each library, the median of the per-pair ratios ours/ODE, whether the
# final-state checksums agree (bit-identical trajectories), and the
# geometric mean of the ratios; then the same for our library in the fast
# solver mode (ODE_SOLVER=fast, a third run interleaved in each pair;
# checksums are not expected to agree there). With -t N, a fourth run of
# ours with ODE_THREADS=N (islands stepped in parallel) is interleaved too,
# and a last table gives its median time, its ratio to our one-thread run
# of the same pair, and whether its checksums equal ODE's (they must: exact
# mode keeps the bits at any thread count); a fifth run of ours in fast mode
# with ODE_THREADS=N adds a table of the same for fast mode, whose checksums
# must equal its own one-thread run's. Scenes: pyramid, container, ragdolls,
# collide, hinge_chain, trimesh_terrain, free_bodies (free_step and
# free_quick). Timings are wall-clock on whatever else the machine runs:
# use a quiet machine, and never put them in a test.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/deps.sh
. scripts/deps.sh
ode_ensure_deps gcc libode8 libode-dev python3
ode_find_cargo

PAIRS=5
THREADS=0
SCENES=()
while [ $# -gt 0 ]; do
  case "$1" in
    -p) PAIRS=$2; shift ;;
    -t) THREADS=$2; shift ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) SCENES+=("$1") ;;
  esac
  shift
done
[ ${#SCENES[@]} -eq 0 ] && SCENES=(pyramid container ragdolls collide hinge_chain trimesh_terrain free_bodies)

echo "==> cargo build -p libode-sys --release --lib" >&2
cargo build -p libode-sys --release --lib >&2
OURS_DIR="$ROOT/target/release/ode-ab"
mkdir -p "$OURS_DIR"
ln -sf "$ROOT/target/release/libode.so" "$OURS_DIR/libode.so.8"

BIN="$ROOT/target/release/bench-scenes"
mkdir -p "$BIN"
for s in "${SCENES[@]}"; do
  cc -O2 -std=gnu99 -Wall -DdDOUBLE "bench/scenes/$s.c" -o "$BIN/$s" -lode -lm
done

RESULTS=$(mktemp)
trap 'rm -f "$RESULTS"' EXIT
for ((p = 1; p <= PAIRS; p++)); do
  for s in "${SCENES[@]}"; do
    echo "==> pair $p/$PAIRS: $s" >&2
    env -u LD_LIBRARY_PATH "$BIN/$s" | sed "s/^/ode $p /" >> "$RESULTS"
    env -u ODE_THREADS -u ODE_SOLVER LD_LIBRARY_PATH="$OURS_DIR" "$BIN/$s" | sed "s/^/ours $p /" >> "$RESULTS"
    env -u ODE_THREADS ODE_SOLVER=fast LD_LIBRARY_PATH="$OURS_DIR" "$BIN/$s" | sed "s/^/fast $p /" >> "$RESULTS"
    if [ "$THREADS" -gt 1 ]; then
      env -u ODE_SOLVER ODE_THREADS="$THREADS" LD_LIBRARY_PATH="$OURS_DIR" "$BIN/$s" | sed "s/^/threads $p /" >> "$RESULTS"
      env ODE_SOLVER=fast ODE_THREADS="$THREADS" LD_LIBRARY_PATH="$OURS_DIR" "$BIN/$s" | sed "s/^/fastthreads $p /" >> "$RESULTS"
    fi
  done
done

python3 - "$RESULTS" "$THREADS" <<'PY'
import math, statistics, sys
runs = {}  # (scene, lib) -> {pair: (ms, checksum)}
order = []
for line in open(sys.argv[1]):
    t = line.split()
    # lib pair "scene" NAME "steps" N "ms_per_step" T "checksum" C
    lib, pair, name, ms, cs = t[0], int(t[1]), t[3], float(t[7]), t[9]
    if name not in order:
        order.append(name)
    runs.setdefault((name, lib), {})[pair] = (ms, cs)
print(f"{'scene':<16} {'ODE ms/step':>12} {'ours ms/step':>13} {'ours/ODE':>9}  {'checksums':<9} "
      f"{'fast ms/step':>13} {'fast/ODE':>9}")
ratios, fast_ratios = [], []
for name in order:
    ode, ours, fast = runs.get((name, "ode"), {}), runs.get((name, "ours"), {}), runs.get((name, "fast"), {})
    pairs = sorted(set(ode) & set(ours))
    if not pairs:
        print(f"{name:<16} missing runs")
        continue
    r = statistics.median(ours[p][0] / ode[p][0] for p in pairs)
    ratios.append(r)
    same = all(ours[p][1] == ode[p][1] for p in pairs)
    line = (f"{name:<16} {statistics.median(ode[p][0] for p in pairs):12.4f} "
            f"{statistics.median(ours[p][0] for p in pairs):13.4f} {r:9.3f}  {'same' if same else 'DIFFER':<9}")
    fpairs = sorted(set(ode) & set(fast))
    if fpairs:
        fr = statistics.median(fast[p][0] / ode[p][0] for p in fpairs)
        fast_ratios.append(fr)
        line += f" {statistics.median(fast[p][0] for p in fpairs):13.4f} {fr:9.3f}"
    print(line)
def geomean(rs):
    return math.exp(sum(math.log(r) for r in rs) / len(rs))
if ratios:
    line = f"{'geometric mean':<16} {'':>12} {'':>13} {geomean(ratios):9.3f}  {'':<9}"
    if fast_ratios:
        line += f" {'':>13} {geomean(fast_ratios):9.3f}"
    print(line)
threads = int(sys.argv[2])
if threads > 1:
    # (one-thread run, N-thread run, run whose checksums they must equal)
    for mode, one, many, ref in (("exact", "ours", "threads", "ode"), ("fast", "fast", "fastthreads", "fast")):
        print()
        print(f"{mode + ' mode':<16} {'1 thread ms':>13} {f'{threads} threads':>11} {'ratio':>7}  "
              f"checksums vs {'ODE' if ref == 'ode' else 'fast, 1 thread'}")
        for name in order:
            base, thr, want = runs.get((name, one), {}), runs.get((name, many), {}), runs.get((name, ref), {})
            pairs = sorted(set(base) & set(thr))
            if not pairs:
                continue
            r = statistics.median(thr[p][0] / base[p][0] for p in pairs)
            same = all(p in want and thr[p][1] == want[p][1] for p in pairs)
            print(f"{name:<16} {statistics.median(base[p][0] for p in pairs):13.4f} "
                  f"{statistics.median(thr[p][0] for p in pairs):11.4f} {r:7.3f}  {'same' if same else 'DIFFER'}")
PY
