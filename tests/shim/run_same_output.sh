#!/bin/bash
# Runs a ScaLAPACK program under mpirun without and with libhetscal.so preloaded and checks
# that both runs print the same lines (sorted: the processes' lines interleave differently
# from run to run), and that a given line is among them.
#
# usage: run_same_output.sh MPIEXEC LIBRARY RANKS EXPECT_REGEX PROGRAM [VAR=VALUE ...] [-- ARGS ...]
#   VAR=VALUE  environment for every rank of the preloaded run (HETSCAL_SPEEDS=..., ...)
#   ARGS       the program's arguments, in both runs
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/checks.sh"
mpiexec=$1 library=$2 ranks=$3 expect=$4 program=$5
shift 5
assignments=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do assignments+=("$1"); shift; done
[ $# -gt 0 ] && shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

arguments=("$@")
# run OUTPUT [mpirun options...]: the program under mpirun, its output in $work/OUTPUT; fails
# the check unless it exits with status 0.
run() {
  local output=$1
  shift
  run_joined "$work/$output" "$mpiexec" --oversubscribe --allow-run-as-root -np "$ranks" \
    -x OPENBLAS_NUM_THREADS=1 "$@" "$program" ${arguments[@]+"${arguments[@]}"}
  if [ "$status" -ne 0 ]; then
    cat "$work/$output"
    fail "the run ($output) exited with status $status"
  fi
}
run plain.txt
env_args=(-x LD_PRELOAD="$library")
for assignment in ${assignments[@]+"${assignments[@]}"}; do env_args+=(-x "$assignment"); done
run preloaded.txt "${env_args[@]}"

echo "--- without hetscal"; cat "$work/plain.txt"
echo "--- with hetscal preloaded"; cat "$work/preloaded.txt"
contains "$expect" "$work/plain.txt" || fail "missing: $expect"
sort "$work/plain.txt" > "$work/plain.sorted"
sort "$work/preloaded.txt" > "$work/preloaded.sorted"
diff "$work/plain.sorted" "$work/preloaded.sorted" || fail "the outputs differ"
echo "run_same_output: passed ($(wc -l < "$work/plain.txt") lines alike)"
