#!/bin/bash
# The first-touch rate learnt from the allocation stages (runtime/route.cpp): an unchanged
# ScaLAPACK program on 2 ranks with libhetscal.so preloaded, given speeds 1,3 and HETSCAL_FORCE=1
# so that hetscal computes every call, HETSCAL_VERBOSE=2. Only a call that grows the planned
# copies by 4 MiB or more measures the rate, so the first call of a size says so once, in one
# line with a positive rate, and later calls of the same size, which reuse the copies, not again.
# HETSCAL_ADAPT=0 keeps the given plan for every call: adaptation would rightly learn that
# this machine's two cores are equal, re-plan after the first calls and touch fresh memory for
# the new plan (a second line, on an idle machine as on a busy one), which is not the case
# this check is about. HETSCAL_TAKE_OVER=copy: the planned copies are what grows; PDGEMM's
# in-place route, which auto may choose by its price, takes less new memory than a rate is
# learnt from at these sizes.
#
# usage: run_first_touch.sh MPIEXEC LIBHETSCAL EXPECTED_LINES PASSED_REGEX PROGRAM [ARGS ...]
#   EXPECTED_LINES  how many "first touch measured" lines the run must print
#   PASSED_REGEX    what the program prints when its own check passed
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/checks.sh"
mpiexec=$1 library=$2 expected=$3 passed=$4 program=$5
shift 5
output=$(mktemp)
trap 'rm -f "$output"' EXIT
run_joined "$output" "$mpiexec" --oversubscribe --allow-run-as-root -np 2 -x OPENBLAS_NUM_THREADS=1 \
  -x LD_PRELOAD="$library" -x HETSCAL_SPEEDS=1,3 -x HETSCAL_FORCE=1 -x HETSCAL_MIN_N=0 \
  -x HETSCAL_ADAPT=0 -x HETSCAL_TAKE_OVER=copy -x HETSCAL_VERBOSE=2 "$program" "$@"
cat "$output"

[ "$status" -eq 0 ] || fail "the program exited with status $status"
contains "$passed" "$output" || fail "the program's check did not pass"
# Every call computed (the summary of each of the 2 processes): the case ran as it says.
computed=$(sum_of_field "hetscal: summary: PD[A-Z]+ [0-9]+ computed, 0 forwarded" 4 "$output" 2)
[ "$computed" -ge 2 ] || fail "$computed calls computed: every call must be"
# Not anchored: stderr pieces of the two ranks may still meet inside a line.
line="hetscal: first touch measured: [0-9.]+ MiB in [0-9.e+-]+ s on the slowest rank \(([0-9.e+-]+) GB/s\)"
count=$(count_matches "$line" "$output")
[ "$count" -eq "$expected" ] || fail "$count lines say the first touch was measured, not $expected"
rates=$(matches "$line" "$output" | sed -E "s|.*\(([0-9.e+-]+) GB/s\)|\1|")
awk -v expected="$expected" '{ n++; if (!($1 > 0)) bad = 1 } END { exit bad || n != expected }' <<< "$rates" ||
  fail "a measured rate is not positive: $rates"
echo "run_first_touch: passed ($count measured, $computed calls computed)"
