#!/bin/bash
# The memory budget (issue 28, item 6) and HETSCAL_TAKE_OVER: an unchanged ScaLAPACK program
# factoring one N×N matrix on a 1x2 grid, libhetscal.so preloaded with HETSCAL_FORCE=1
# (hetscal computes whatever the times, unless no route fits) and HETSCAL_VERBOSE=1, under
# HETSCAL_MEMORY set to OPERAND_SHARE of the memory a rank may use: its operand A (LLD × LOCc
# doubles on the rank with most columns) over OPERAND_SHARE. The program's own check must pass
# whatever the route, and the call must be computed (EXPECT=computed) or forwarded with a
# reason matching REASON (EXPECT=forwarded).
#
# usage: run_memory_budget.sh MPIEXEC LIBHETSCAL PROGRAM ROUTINE N NB OPERAND_SHARE EXPECT [REASON] [VAR=VALUE ...]
#   ROUTINE        PDGETRF, PDPOTRF ... (the summary counted)
#   OPERAND_SHARE  e.g. 0.6: the operands use 60 % of HETSCAL_MEMORY; "-": HETSCAL_MEMORY unset
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/checks.sh"
mpiexec=$1 library=$2 program=$3 routine=$4 n=$5 nb=$6 share=$7 expect=$8
shift 8
reason="-"
if [ $# -gt 0 ] && [[ "$1" != *=* ]]; then reason=$1; shift; fi
env_args=(-x OPENBLAS_NUM_THREADS=1 -x LD_PRELOAD="$library" -x HETSCAL_SPEEDS=3,1 -x HETSCAL_FORCE=1
          -x HETSCAL_MIN_N=0 -x HETSCAL_ADAPT=0 -x HETSCAL_VERBOSE=1)
if [ "$share" != "-" ]; then
  # Rank 0 holds ceil(N/NB/2) blocks of columns (at most N), LLD = N on a 1x2 grid.
  columns=$(( ((n + nb - 1) / nb + 1) / 2 * nb )); [ "$columns" -le "$n" ] || columns=$n
  memory=$(awk -v n="$n" -v c="$columns" -v s="$share" 'BEGIN { printf "%.0f", n * c * 8 / s }')
  env_args+=(-x HETSCAL_MEMORY="$memory")
  echo "run_memory_budget: A uses $((n * columns * 8)) bytes of rank 0, HETSCAL_MEMORY=$memory"
fi
for assignment in "$@"; do env_args+=(-x "$assignment"); done
output=$(mktemp)
trap 'rm -f "$output"' EXIT
run_joined "$output" "$mpiexec" --oversubscribe --allow-run-as-root -np 2 "${env_args[@]}" "$program" "$n" "$nb" 1 2
cat "$output"

[ "$status" -eq 0 ] || fail "the program exited with status $status"
contains "PASSED" "$output" || fail "the program's check did not pass"
summary="hetscal: summary: $routine [0-9]+ computed, [0-9]+ forwarded"
computed=$(sum_of_field "$summary" 4 "$output" 2)
forwarded=$(sum_of_field "$summary" 6 "$output" 2)
case "$expect" in
  computed) [ "$computed" -eq 2 ] && [ "$forwarded" -eq 0 ] || fail "$computed computed, $forwarded forwarded: not computed on both ranks" ;;
  forwarded) [ "$computed" -eq 0 ] && [ "$forwarded" -eq 2 ] || fail "$computed computed, $forwarded forwarded: not forwarded on both ranks" ;;
  *) fail "EXPECT is computed or forwarded, not $expect" ;;
esac
if [ "$reason" != "-" ]; then contains "$reason" "$output" || fail "no reason matching: $reason"; fi
echo "run_memory_budget: $routine $expect as expected"
