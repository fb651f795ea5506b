#!/bin/bash
# Runs a ScaLAPACK program under mpirun without and with libhetscal.so preloaded and checks
# that both runs print the same lines (sorted: the processes' lines interleave differently
# from run to run; hetscal's idle-rank line aside), and that a given line is among them.
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
# hetscal's one line naming the ranks a plan leaves idle (printed once per run whatever the
# verbosity, when the speeds leave slower ranks nothing to do) is its own, not the program's.
idle='^hetscal: P[SDCZ][A-Z]+ [0-9x]+ is planned on ranks? [0-9,-]+ of [0-9]+ and leaves ranks? [0-9,-]+ idle: '
idle_lines=$({ grep -E -c "$idle" "$work/preloaded.txt" || true; })
[ "$idle_lines" -le 1 ] || fail "$idle_lines lines name idle ranks; hetscal prints at most one per run"
sort "$work/plain.txt" > "$work/plain.sorted"
{ grep -E -v "$idle" "$work/preloaded.txt" || true; } | sort > "$work/preloaded.sorted"
diff "$work/plain.sorted" "$work/preloaded.sorted" || fail "the outputs differ"
echo "run_same_output: passed ($(wc -l < "$work/plain.txt") lines alike)"
