#!/usr/bin/env bash
# The native API under changing speeds on 2 real ranks (issue 12 item 4): native_loop's CALLS
# hetero_pdgemm calls on an N×N context's matrices, rank 1 turning 3x slower after a quarter
# of the loop (libhetscal-slowdown.so, HETSCAL_SLOWDOWN=1:3@t=T..), no speeds given, with the
# matrices registered by hetscal_context_keep_balanced (kept) and without (plain), REPS times
# interleaved. T is a quarter of the loop at the pace of a first unslowed plain run. Prints,
# per mode, the median time per call and the medians' sum after the change, and their ratio
# (plain over kept: what keeping the matrices balanced gains once a rank slows down).
# Not a test: the lead engineer runs it on a quiet machine.
#
# usage: run_native.sh N CALLS       Environment: HETSCAL_BUILD_DIR (default build), REPS
# (default 3), HETSCAL_SLOWDOWN_RATE (one core's DGEMM rate, default 1e10).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
n=${1:?usage: run_native.sh N CALLS} calls=${2:?CALLS}
build=${HETSCAL_BUILD_DIR:-$repo/build}
reps=${REPS:-3} rate=${HETSCAL_SLOWDOWN_RATE:-1e10}
program=$build/tests/bench/adaptive/native_loop
emulator=$build/src/tools/libhetscal-slowdown.so
quarter=$((calls / 4))
export OPENBLAS_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT

# run MODE SLOWDOWN: one loop, its per-call lines kept.
run() {
  mpirun -np 2 -x OPENBLAS_NUM_THREADS -x LD_PRELOAD="$emulator" -x HETSCAL_SLOWDOWN="$2" \
    -x HETSCAL_SLOWDOWN_RATE="$rate" -x HETSCAL_VERBOSE=1 "$program" "$1" "$n" "$calls"
}

pace=$(run plain 1:1 | awk '/ seconds / { print $NF }' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
change=$(awk -v p="$pace" -v q="$quarter" 'BEGIN { printf "%.3f", p * q }')
echo "run_native: rank 1 turns 3x slower ${change} s after its first BLAS call (call ~$((quarter + 1)))"
for ((rep = 1; rep <= reps; ++rep)); do
  for mode in plain kept; do
    run "$mode" "1:3@t=$change.." 2>&1 | tee -a "$raw" | grep -E "final shares|rebalanced automatically" || true
  done
done
awk -v first=$((quarter + 2)) '
  / seconds / { mode = $2; call = $5; t[mode, call, ++count[mode, call]] = $7; calls[call] = 1; modes[mode] = 1 }
  function median(mode, call,   k, n, v, i, j, x) {
    n = count[mode, call]
    for (k = 1; k <= n; ++k) v[k] = t[mode, call, k]
    for (i = 2; i <= n; ++i) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; --j) v[j + 1] = v[j]; v[j + 1] = x }
    return v[int((n + 1) / 2)]
  }
  END {
    for (mode in modes) {
      after[mode] = 0
      for (call in calls) if (call + 0 >= first) after[mode] += median(mode, call)
    }
    printf "run_native: median seconds per call:\ncall"
    for (mode in modes) printf " %s", mode
    printf "\n"
    for (call = 1; (call in calls); ++call) {
      printf "%d", call
      for (mode in modes) printf " %.4f", median(mode, call)
      printf "\n"
    }
    printf "run_native: from call %d on, plain %.3f s, kept %.3f s: plain/kept %.2f\n", first, after["plain"], after["kept"], after["plain"] / after["kept"]
  }' "$raw"
