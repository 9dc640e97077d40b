#!/usr/bin/env bash
# The project's one test command:   bash scripts/test-all.sh
#
# On a fresh Debian machine (as root) it installs what is missing (cmake,
# gcc/g++, pkg-config, Debian's libode-dev/libode8 as the reference,
# python3-pyode, valgrind), then runs
#   0. cargo fmt --all --check, cargo clippy --workspace --all-targets --
#      -D warnings and cargo doc --no-deps -p ode with RUSTDOCFLAGS="-D warnings",
#   1. cargo test --workspace (every suite of both crates: unit, integration,
#      C differential, install, symbols, PyODE, examples, doc tests), and the
#      crate split check (scripts/check-core-split.sh),
#   2. the criterion bench once in test mode (cargo test --bench step),
#   3. the coverage reports (exported functions, PyODE status),
#   4. the CMake build with the C suite (BUILD_TESTING=ON; cargo build
#      --release through CMake) and ctest, which includes the API fuzzer
#      (10^6 calls) and the soak scenes,
#   5. a representative part of the C suite under valgrind (0 errors),
#   6. ODE's demos built unchanged on our libode and libdrawstuff, run
#      headless, their pictures checked (scripts/ode-demos.sh),
# and prints a summary. Exits non-zero when anything failed.
# Environment: ODE_BUILD_DIR (default build) is the CMake build directory.
set -u -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# shellcheck source=scripts/deps.sh
. scripts/deps.sh

BUILD_DIR=${ODE_BUILD_DIR:-build}
LOG=target/test-all
mkdir -p "$LOG"
T0=$(date +%s)

STEPS=()
FAILED_STEPS=0
record() { # name rc seconds
  local verdict=ok
  [ "$2" -ne 0 ] && { verdict="FAILED (exit $2)"; FAILED_STEPS=$((FAILED_STEPS + 1)); }
  STEPS+=("$(printf '%-40s %-16s %5ss' "$1" "$verdict" "$3")")
}
banner() { printf '\n======== %s ========\n' "$*"; }

# ---------------------------------------------------------------- deps
banner "dependencies"
s=$(date +%s)
ode_ensure_deps cmake make gcc g++ pkg-config binutils python3 libode-dev libode8 python3-pyode valgrind \
  libegl1 libegl-mesa0 libgl1-mesa-dri xvfb xauth xdotool
rc=$?
if [ $rc -eq 0 ]; then ode_find_cargo; rc=$?; fi
record "dependencies" $rc $(( $(date +%s) - s ))
if [ $rc -ne 0 ]; then
  echo "cannot set up the tools; stopping"
  printf '%s\n' "${STEPS[@]}"
  echo "summary: 0 passed, 1 failed"
  exit 1
fi
cargo --version; cmake --version | head -1; cc --version | head -1

# ---------------------------------------------------------------- lints
# Formatting and clippy are part of the suite: a warning fails the run.
# Both crates of the workspace (crates/ode, the safe core, and the C library
# at the top level).
banner "cargo fmt --all --check"
s=$(date +%s)
cargo fmt --all --check 2>&1 | tee "$LOG/fmt.log"
record "cargo fmt --check" "${PIPESTATUS[0]}" $(( $(date +%s) - s ))

banner "cargo clippy --workspace --all-targets -- -D warnings"
s=$(date +%s)
cargo clippy --workspace --all-targets -- -D warnings 2>&1 | tee "$LOG/clippy.log"
record "cargo clippy -D warnings" "${PIPESTATUS[0]}" $(( $(date +%s) - s ))

# The API docs of the Rust crate (only `ode::api` is shown) must build
# without a warning. (Not --workspace: both libraries are named `ode`.)
banner "cargo doc --no-deps -p ode (RUSTDOCFLAGS=-D warnings)"
s=$(date +%s)
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps -p ode 2>&1 | tee "$LOG/doc.log"
record "cargo doc -D warnings" "${PIPESTATUS[0]}" $(( $(date +%s) - s ))

# ---------------------------------------------------------------- cargo test
banner "cargo test --workspace"
s=$(date +%s)
cargo test --workspace --no-fail-fast 2>&1 | tee "$LOG/cargo-test.log"
record "cargo test" "${PIPESTATUS[0]}" $(( $(date +%s) - s ))

banner "crate split (scripts/check-core-split.sh)"
s=$(date +%s)
bash scripts/check-core-split.sh 2>&1 | tee "$LOG/core-split.log"
record "crate split (core: no C symbols)" "${PIPESTATUS[0]}" $(( $(date +%s) - s ))

banner "criterion bench, test mode (cargo test --bench step)"
s=$(date +%s)
cargo test --bench step 2>&1 | tee "$LOG/cargo-bench-test.log"
record "bench smoke (cargo test --bench step)" "${PIPESTATUS[0]}" $(( $(date +%s) - s ))

banner "fast solver mode (ODE_SOLVER=fast physics checks, tests/solver_fast_mode.rs)"
s=$(date +%s)
# The programs re-run in fast mode are listed in FAST_MODE_PROGRAMS there.
cargo test -q --test solver_fast_mode 2>&1 | tee "$LOG/fast-mode.log"
record "fast solver mode" "${PIPESTATUS[0]}" $(( $(date +%s) - s ))

banner "coverage reports (symbols, PyODE)"
s=$(date +%s)
cargo test -q --test exports_coverage --test client_pyode -- --nocapture --test-threads=1 2>&1 | tee "$LOG/reports.log"
record "reports (symbols, pyode)" "${PIPESTATUS[0]}" $(( $(date +%s) - s ))

# ---------------------------------------------------------------- cmake + ctest
banner "cmake configure ($BUILD_DIR)"
s=$(date +%s)
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON 2>&1 | tee "$LOG/cmake-configure.log"
rc=${PIPESTATUS[0]}
record "cmake configure" "$rc" $(( $(date +%s) - s ))

ctest_rc=1
if [ "$rc" -eq 0 ]; then
  banner "cmake build (cargo build --release + C suite)"
  s=$(date +%s)
  # Keep going past a test program that fails to build: ctest then reports
  # that one test as failed and runs the others.
  gen=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$BUILD_DIR/CMakeCache.txt")
  case "$gen" in
    Ninja*) keep=(-- -k 0) ;;
    *Makefiles*) keep=(-- -k) ;;
    *) keep=() ;;
  esac
  cmake --build "$BUILD_DIR" -j 2 "${keep[@]}" 2>&1 | tee "$LOG/cmake-build.log"
  record "cmake build" "${PIPESTATUS[0]}" $(( $(date +%s) - s ))

  banner "ctest"
  s=$(date +%s)
  ctest --test-dir "$BUILD_DIR" --output-on-failure -j 2 2>&1 | tee "$LOG/ctest.log"
  ctest_rc=${PIPESTATUS[0]}
  record "ctest" "$ctest_rc" $(( $(date +%s) - s ))

  # The fuzzer (fuzz_api, 10^6 calls) and the soak scenes run inside ctest
  # above (label "fuzz"); here the C suite runs again under valgrind.
  banner "valgrind (memcheck) on the C suite"
  s=$(date +%s)
  bash scripts/valgrind.sh "$BUILD_DIR" 2>&1 | tee "$LOG/valgrind.log"
  record "valgrind (C suite, 0 errors)" "${PIPESTATUS[0]}" $(( $(date +%s) - s ))

  # ODE's own demos, unchanged, on our libode and libdrawstuff (headless,
  # pictures checked and compared with the same demos on Debian's ODE).
  banner "ODE's demos with libdrawstuff (scripts/ode-demos.sh)"
  s=$(date +%s)
  # Inside this checkout's target/: two checkouts testing at once (a clone
  # under CI and a working tree) must not share the demos' output.
  demo_work=$ROOT/target/ode-demos
  { cargo build --release -p drawstuff &&
    bash scripts/ode-demos.sh target/release "$demo_work" 200 50 &&
    ODE_DEMOS_OUT="$demo_work/demos" cargo test -p drawstuff --test ode_demos -- --nocapture; } 2>&1 | tee "$LOG/ode-demos.log"
  record "ODE demos (drawstuff)" "${PIPESTATUS[0]}" $(( $(date +%s) - s ))
fi

# ---------------------------------------------------------------- summary
cargo_pass=0; cargo_fail=0; cargo_ign=0
while read -r p f i; do
  cargo_pass=$((cargo_pass + p)); cargo_fail=$((cargo_fail + f)); cargo_ign=$((cargo_ign + i))
done < <(sed -n 's/^test result: [A-Za-z]*\. \([0-9]*\) passed; \([0-9]*\) failed; \([0-9]*\) ignored.*/\1 \2 \3/p' "$LOG/cargo-test.log")

ct_total=0; ct_fail=0; ct_skip=0
if [ -f "$LOG/ctest.log" ]; then
  line=$(grep -E '[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$LOG/ctest.log" | tail -1)
  if [ -n "$line" ]; then
    ct_fail=$(echo "$line" | sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/')
    ct_total=$(echo "$line" | sed -E 's/.* failed out of ([0-9]+).*/\1/')
  fi
  ct_skip=$(grep -cE '\((Skipped|Disabled)\)$' "$LOG/ctest.log" || true)
fi
ct_pass=$((ct_total - ct_fail - ct_skip))

banner "summary"
printf '%s\n' "${STEPS[@]}"
echo
echo "cargo test : $cargo_pass passed, $cargo_fail failed, $cargo_ign ignored"
echo "ctest      : $ct_pass passed, $ct_fail failed, $ct_skip skipped (of $ct_total)"
# One line per solver mode (fuzz_api, fuzz_api_fast).
grep -h '^fuzz: [0-9]* calls' "$BUILD_DIR/Testing/Temporary/LastTest.log" 2>/dev/null | sed 's/^/fuzz       : /'
grep -h '^valgrind: [0-9]* passed' "$LOG/valgrind.log" 2>/dev/null | tail -1 | sed 's/^valgrind: /valgrind   : /' 
grep -m1 '^exported [0-9]* of [0-9]*' "$LOG/reports.log" | sed 's/^/symbols    : /'
grep '^used by ' "$LOG/reports.log" | sed 's/^/symbols    : /'
grep '^PYODE-STATUS:' "$LOG/reports.log" | sed 's/^PYODE-STATUS: /pyode      : /'
if [ "$ct_skip" -gt 0 ]; then
  echo "skipped ctests:"
  grep -E '\((Skipped|Disabled)\)$' "$LOG/ctest.log" | sed 's/^ */  /'
fi
echo "logs in $LOG/; total time $(( $(date +%s) - T0 ))s"

extra_fail=0
[ "$FAILED_STEPS" -gt 0 ] && [ $((cargo_fail + ct_fail)) -eq 0 ] && extra_fail=$FAILED_STEPS
echo "summary: $((cargo_pass + ct_pass)) passed, $((cargo_fail + ct_fail + extra_fail)) failed, $((cargo_ign + ct_skip)) skipped"
[ "$FAILED_STEPS" -eq 0 ]
