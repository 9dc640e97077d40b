#!/usr/bin/env bash
# Runs the C-API fuzzer (fuzz/fuzz_api.c, see fuzz/README.md) against our
# release library, at low priority.
#
#   bash scripts/fuzz.sh                      the CI budget: seeds 1-60 x 20,000 calls (10^6 calls)
#   bash scripts/fuzz.sh --hours 2            as many seeds as fit in 2 hours
#   bash scripts/fuzz.sh --hours 8 --jobs 2 --first-seed 100000
#   bash scripts/fuzz.sh --no-exclusions      also the inputs of the known-issue list
#   bash scripts/fuzz.sh -- --seed 123 --calls 5000 --trace   (replay a finding)
#
# Builds target/release/libode.so (cargo build --release --lib) and the
# driver target/fuzz/fuzz_api, then runs it with LD_LIBRARY_PATH pointing at
# our library. Prints "fuzz: N calls, N seeds, N findings" and exits 1 on
# any finding. The log of a long run is kept in target/fuzz/.
set -u -o pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

hours="" jobs=1 first=1 calls=20000 extra=() passthru=()
while [ $# -gt 0 ]; do
  case "$1" in
    --hours) hours=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --first-seed) first=$2; shift 2 ;;
    --calls) calls=$2; shift 2 ;;
    --no-exclusions) extra+=(--no-exclusions); shift ;;
    --) shift; passthru=("$@"); break ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "unknown argument $1 (see --help)"; exit 2 ;;
  esac
done

cargo build -p libode-sys --release --lib -q || exit 1
mkdir -p target/fuzz
cc -O2 -g -std=gnu99 -Wall -Wno-deprecated-declarations -I include -o target/fuzz/fuzz_api fuzz/fuzz_api.c \
   -L target/release -lode -lm || exit 1
export LD_LIBRARY_PATH="$ROOT/target/release${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

if [ ${#passthru[@]} -gt 0 ]; then
  exec nice -n 19 target/fuzz/fuzz_api "${passthru[@]}"
fi
if [ -n "$hours" ]; then
  secs=$(python3 -c "print(int(float('$hours') * 3600))")
  log="target/fuzz/run-$(date +%Y%m%d-%H%M%S).log"
  echo "fuzzing for $hours h from seed $first with $jobs job(s); log: $log"
  nice -n 19 target/fuzz/fuzz_api --seeds "$first-$((first + 1000000000))" --calls "$calls" \
    --seconds "$secs" --jobs "$jobs" "${extra[@]}" 2>&1 | tee "$log"
  exit "${PIPESTATUS[0]}"
fi
nice -n 19 target/fuzz/fuzz_api --seeds "$first-$((first + 59))" --calls "$calls" --jobs "$jobs" "${extra[@]}"
