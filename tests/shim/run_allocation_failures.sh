#!/bin/bash
# Issue 15 item 1: one allocation fails on one rank, for every large allocation the run
# makes on that rank in turn (tests/shim/programs/fail_allocation.c preloaded ahead of
# libhetscal.so), while an unchanged ScaLAPACK program calls PDGEMM in a loop. Every run must
# end within the time limit, either with the right result and the same route on every rank
# (the per-process summaries agree), or through an error path (a nonzero exit: ScaLAPACK's
# or the program's own "not enough memory"); never a hang, never a wrong result.
#
# usage: run_allocation_failures.sh MPIEXEC LIBHETSCAL LIBFAIL PROGRAM RANKS [VAR=VALUE ...]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/checks.sh"
mpiexec=$1 hetscal=$2 failing=$3 program=$4 ranks=$5
shift 5
limit=${ALLOCATION_FAILURE_LIMIT:-60}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

env_args=(-x OPENBLAS_NUM_THREADS=1 -x LD_PRELOAD="$failing:$hetscal" -x HETSCAL_VERBOSE=1)
for assignment in "$@"; do env_args+=(-x "$assignment"); done
run() {  # run FAIL_ALLOCATION-value: output in $work/out, exit status in $status
  run_joined "$work/out" timeout --kill-after=10 "$limit" "$mpiexec" --oversubscribe --allow-run-as-root \
    -np "$ranks" "${env_args[@]}" -x FAIL_ALLOCATION="$1" "$program" 1000 2
}

run count
[ "$status" -eq 0 ] || { cat "$work/out"; fail "the clean run failed (exit status $status)"; }
contains "ALL CHECKS PASSED" "$work/out" || { cat "$work/out"; fail "the clean run's check did not pass"; }
cp "$work/out" "$work/counts"
declare -A outcomes
bad=0 runs=0
for ((rank = 0; rank < ranks; ++rank)); do
  count=$(sum_of_field "fail_allocation: rank $rank made [0-9]+" 5 "$work/counts" 1)
  [ "$count" -ge 1 ] || { cat "$work/counts"; fail "rank $rank made no large allocation to fail"; }
  for ((n = 1; n <= count; ++n)); do
    run "$rank:$n"
    runs=$((runs + 1))
    summaries=$(matches "hetscal: summary: PDGEMM [0-9]+ computed, [0-9]+ forwarded" "$work/out" | sort -u | wc -l)
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
      outcome="HANG (killed after ${limit} s)"
    elif contains "SOME CHECKS FAILED" "$work/out"; then
      outcome="WRONG RESULT"
    elif [ "$status" -eq 0 ] && contains "ALL CHECKS PASSED" "$work/out"; then
      if [ "$summaries" -eq 1 ]; then outcome="right result"; else outcome="ROUTES DIFFER"; fi
    elif contains "hetscal-check: the program's own allocation failed" "$work/out"; then
      outcome="the program's own allocation failed (it aborts)"
    elif [ "$status" -ne 0 ]; then
      outcome="error path (exit $status)"
    else
      outcome="NO VERDICT"
    fi
    echo "rank $rank, large allocation $n of $count: $outcome"
    case $outcome in [A-Z][A-Z]*) bad=1; sed 's/^/    /' "$work/out" | tail -15 ;; esac
    outcomes[$outcome]=$(( ${outcomes[$outcome]:-0} + 1 ))
  done
done
echo "run_allocation_failures: outcomes over all $runs injection points:"
for outcome in "${!outcomes[@]}"; do echo "  ${outcomes[$outcome]} × $outcome"; done
[ $bad -eq 0 ] || fail "FAILED"
echo "run_allocation_failures: passed"
