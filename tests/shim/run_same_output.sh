#!/bin/bash
# Runs a ScaLAPACK program under mpirun without and with libhetscal.so preloaded and checks
# that both runs print the same lines (sorted: the processes' lines interleave differently
# from run to run), and that a given line is among them.
#
# usage: run_same_output.sh MPIEXEC LIBRARY RANKS EXPECT_REGEX PROGRAM [VAR=VALUE ...] [-- ARGS ...]
#   VAR=VALUE  environment for every rank of the preloaded run (HETSCAL_SPEEDS=..., ...)
#   ARGS       the program's arguments, in both runs
set -u
mpiexec=$1 library=$2 ranks=$3 expect=$4 program=$5
shift 5
assignments=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do assignments+=("$1"); shift; done
[ $# -gt 0 ] && shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

arguments=("$@")
# run OUTPUT [mpirun options...]. Stdout and stderr are captured apart and then joined:
# mpirun forwards each stream in pieces of up to 4 KiB, so merged as they come a line of one
# can be cut by the other.
run() {
  local output=$1 status
  shift
  "$mpiexec" --oversubscribe --allow-run-as-root -np "$ranks" -x OPENBLAS_NUM_THREADS=1 "$@" \
    "$program" "${arguments[@]}" > "$work/$output" 2> "$work/$output.stderr"
  status=$?
  cat "$work/$output.stderr" >> "$work/$output"
  return $status
}
run plain.txt || { cat "$work/plain.txt"; echo "run_same_output: the plain run failed"; exit 1; }
env_args=(-x LD_PRELOAD="$library")
for assignment in "${assignments[@]}"; do env_args+=(-x "$assignment"); done
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
