#!/bin/bash
# Runs a ScaLAPACK program under mpirun without and with libhetscal.so preloaded and checks
# that both runs print the same lines (sorted: the processes' lines interleave differently
# from run to run), and that a given line is among them.
#
# usage: run_same_output.sh MPIEXEC LIBRARY RANKS EXPECT_REGEX PROGRAM [VAR=VALUE ...]
#   VAR=VALUE  environment for every rank of the preloaded run (HETSCAL_SPEEDS=..., ...)
set -u
mpiexec=$1 library=$2 ranks=$3 expect=$4 program=$5
shift 5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() {  # run OUTPUT [mpirun options...]
  local output=$1
  shift
  "$mpiexec" --oversubscribe --allow-run-as-root -np "$ranks" -x OPENBLAS_NUM_THREADS=1 "$@" \
    "$program" > "$work/$output" 2>&1
}
run plain.txt || { cat "$work/plain.txt"; echo "run_same_output: the plain run failed"; exit 1; }
env_args=(-x LD_PRELOAD="$library")
for assignment in "$@"; do env_args+=(-x "$assignment"); done
run preloaded.txt "${env_args[@]}" || {
  cat "$work/preloaded.txt"; echo "run_same_output: the preloaded run failed"; exit 1; }

echo "--- without hetscal"; cat "$work/plain.txt"
echo "--- with hetscal preloaded"; cat "$work/preloaded.txt"
grep -q -E "$expect" "$work/plain.txt" || { echo "run_same_output: missing: $expect"; exit 1; }
if ! diff <(sort "$work/plain.txt") <(sort "$work/preloaded.txt"); then
  echo "run_same_output: the outputs differ"
  exit 1
fi
echo "run_same_output: passed"
