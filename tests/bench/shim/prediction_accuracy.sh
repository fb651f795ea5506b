#!/usr/bin/env bash
# Benchmark (not a test; issue 29): how well hetscal's time model predicts the calls it
# computes. Each routine's unchanged example program (examples/scalapack/p?_example.f90) runs
# RUNS times at order N on 2 ranks (1x2 grid, NB 128), rank 1 slowed FACTOR times by
# libhetscal-slowdown.so and hetscal told so (HETSCAL_SPEEDS=1,1/FACTOR, HETSCAL_VERBOSE=1).
# Every computed call's "measured T s (predicted P s" line gives P/T; printed last, per
# routine and over all: min, p10, median, p90, max, and how many lie within 0.67-1.5.
# Run it on a quiet machine and say what else ran: the measured times count the neighbours.
# LOG=path keeps every run's hetscal lines there (plans, stages, predictions).
#
# usage: prediction_accuracy.sh [BUILD_DIR] [N=8000] [RUNS=20] [ROUTINES="pdgetrf pdpotrf pdgeqrf pdgemm"]
#        [FACTOR=3]
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
build=${1:-$repo/build} n=${2:-8000} runs=${3:-20}
routines=${4:-pdgetrf pdpotrf pdgeqrf pdgemm} factor=${5:-3}
export OPENBLAS_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
slowdown=$build/src/tools/libhetscal-slowdown.so hetscal=$build/src/libhetscal.so
field() { awk -v key="$1" '$1 == key { print $2; exit }'; }

if [[ -z ${HETSCAL_SLOWDOWN_RATE:-} ]]; then  # one core's DGEMM rate: the emulator's sleep rate
  gflops=$(mpirun -np 1 "$build/examples/pdgemm_example" 3000 256 1 1 | field gflops)
  HETSCAL_SLOWDOWN_RATE=$(awk -v g="$gflops" 'BEGIN { printf "%.4g", g * 1e9 }')
fi
speed=$(awk -v f="$factor" 'BEGIN { printf "%.6g", 1 / f }')
echo "N=$n, $runs runs per routine, 2 ranks 1x2, rank 1 slowed x$factor" \
     "(HETSCAL_SLOWDOWN_RATE=$HETSCAL_SLOWDOWN_RATE flop/s), HETSCAL_SPEEDS=1,$speed"

ratios=$(mktemp)
trap 'rm -f "$ratios"' EXIT
for routine in $routines; do
  for ((run = 0; run < runs; ++run)); do
    out=$(mpirun -np 2 -x OPENBLAS_NUM_THREADS -x HETSCAL_SLOWDOWN=1:"$factor" \
            -x HETSCAL_SLOWDOWN_RATE="$HETSCAL_SLOWDOWN_RATE" -x LD_PRELOAD="$slowdown:$hetscal" \
            -x HETSCAL_SPEEDS=1,"$speed" -x HETSCAL_VERBOSE=1 \
            "$build/examples/${routine}_example" "$n" 128 1 2 2>&1) ||
      { echo "$out"; echo "$routine run $run failed"; exit 1; }
    grep -q PASSED <<<"$out" || { echo "$out"; echo "$routine run $run: no PASSED"; exit 1; }
    # "... measured 0.236 s (predicted 0.39 s; ..." -> predicted / measured
    lines=$(grep -oE "measured [0-9.e+-]+ s \(predicted [0-9.e+-]+ s" <<<"$out" || true)
    [[ -n $lines ]] || { echo "$out" | grep hetscal; echo "$routine run $run: no computed call"; exit 1; }
    awk -v what="$routine" '{ if ($2 > 0) print $5 / $2, what }' <<<"$lines" >>"$ratios"
    [[ -z ${LOG:-} ]] || { echo "== $routine run $run"; grep "hetscal:" <<<"$out"; } >>"$LOG"
    ((run > 0)) || grep -E "hetscal: .*(computed by|measured)" <<<"$out" | head -n 2 | sed 's/^/  /'
  done
done

# distribution LABEL < ratios
distribution() {
  sort -g | awk -v label="$1" '
    { v[NR] = $1; inside += ($1 >= 0.67 && $1 <= 1.5) }
    END {
      printf "%-8s %4d calls: min %.3g, p10 %.3g, median %.3g, p90 %.3g, max %.3g; within 0.67-1.5: %d (%.0f%%)\n",
        label, NR, v[1], v[int(NR * 0.1) + 1], v[int(NR * 0.5) + 1], v[int(NR * 0.9) + 1], v[NR], inside,
        100 * inside / NR
    }'
}
echo
echo "predicted/measured over the computed calls (rank 0's lines):"
for routine in $routines; do
  awk -v r="$routine" '$2 == r { print $1 }' "$ratios" | distribution "$routine"
done
awk '{ print $1 }' "$ratios" | distribution all
