#!/bin/bash
# The first-touch rate learnt from the allocation stages (runtime/route.cpp): an unchanged
# ScaLAPACK program on 2 ranks with libhetscal.so preloaded, given speeds 1,3 and HETSCAL_FORCE=1
# so that hetscal computes every call, HETSCAL_VERBOSE=2. Only a call that grows the planned
# copies by 4 MiB or more measures the rate, so the first call of a size says so once, in one
# line with a positive rate, and later calls of the same size, which reuse the copies, not again.
#
# usage: run_first_touch.sh MPIEXEC LIBHETSCAL EXPECTED_LINES PASSED_REGEX PROGRAM [ARGS ...]
#   EXPECTED_LINES  how many "first touch measured" lines the run must print
#   PASSED_REGEX    what the program prints when its own check passed
set -u
mpiexec=$1 library=$2 expected=$3 passed=$4 program=$5
shift 5
output=$(mktemp) errors=$(mktemp)
trap 'rm -f "$output" "$errors"' EXIT
# Stdout and stderr apart, then joined (run_adaptation.sh says why).
"$mpiexec" --oversubscribe --allow-run-as-root -np 2 -x OPENBLAS_NUM_THREADS=1 \
  -x LD_PRELOAD="$library" -x HETSCAL_SPEEDS=1,3 -x HETSCAL_FORCE=1 -x HETSCAL_MIN_N=0 \
  -x HETSCAL_VERBOSE=2 "$program" "$@" > "$output" 2> "$errors"
status=$?
cat "$errors" >> "$output"
cat "$output"

fail() { echo "run_first_touch: $*"; exit 1; }
[ $status -eq 0 ] || fail "the program exited with status $status"
grep -q -E "$passed" "$output" || fail "the program's check did not pass"
# Not anchored: stderr pieces of the two ranks may still meet inside a line.
line="hetscal: first touch measured: [0-9.]+ MiB in [0-9.e+-]+ s on the slowest rank \(([0-9.e+-]+) GB/s\)"
count=$(grep -c -E "$line" "$output")
[ "$count" -eq "$expected" ] || fail "$count lines say the first touch was measured, not $expected"
rates=$(grep -E "$line" "$output" | sed -E "s|.*$line.*|\1|")
echo "$rates" | awk -v expected="$expected" '{ n++; if (!($1 > 0)) bad = 1 } END { exit bad || n != expected }' ||
  fail "a measured rate is not positive: $rates"
echo "run_first_touch: passed ($count measured)"
