#!/usr/bin/env bash
# Benchmark (not a test), shared by tests/bench/{cholesky,lu,qr}/run_shim.sh, which set `routine`
# (PDPOTRF, PDGETRF, PDGEQRF) and `example` (the unchanged ScaLAPACK program examples/scalapack/
# <example>.f90 calling it) and source this file: that program on 2 ranks with rank 1 slowed
# FACTOR times by libhetscal-slowdown.so, plain ScaLAPACK against the same binary with
# libhetscal.so preloaded (HETSCAL_SPEEDS=1,1/FACTOR), on the 1x2 and 2x1 grids; interleaved
# runs, medians of the time the program prints for the routine. The first hetscal run of each
# case shows its plan and its measured stages (HETSCAL_VERBOSE=1).
# The sleep rate is one core's DGEMM rate, measured first unless HETSCAL_SLOWDOWN_RATE is set.
# Arguments: [BUILD_DIR ["N_LIST" [RUNS [NB [FACTOR]]]]] (default: build, "4000 8000", 3, 128, 3)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$repo/build}
sizes=${2:-"4000 8000"}
runs=${3:-3}
nb=${4:-128}
factor=${5:-3}
export OPENBLAS_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
program=$build/examples/$example
slowdown=$build/src/tools/libhetscal-slowdown.so
hetscal=$build/src/libhetscal.so
field() { awk -v key="$1" '$1 == key { print $2; exit }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

if [[ -z ${HETSCAL_SLOWDOWN_RATE:-} ]]; then
  gflops=$(mpirun -np 1 "$build/examples/pdgemm_example" 3000 256 1 1 | field gflops)
  HETSCAL_SLOWDOWN_RATE=$(awk -v g="$gflops" 'BEGIN { printf "%.4g", g * 1e9 }')
fi
speed=$(awk -v f="$factor" 'BEGIN { printf "%.6g", 1 / f }')
slowed=(mpirun -np 2 -x OPENBLAS_NUM_THREADS -x HETSCAL_SLOWDOWN=1:"$factor"
        -x HETSCAL_SLOWDOWN_RATE="$HETSCAL_SLOWDOWN_RATE")
echo "rank 1 slowed x$factor (HETSCAL_SLOWDOWN_RATE=$HETSCAL_SLOWDOWN_RATE flop/s); hetscal told HETSCAL_SPEEDS=1,$speed"

# one_run <plain|hetscal> <n> <grid rows> <grid cols>: the program's output (it checks its residual).
one_run() {
  if [[ $1 == hetscal ]]; then
    "${slowed[@]}" -x LD_PRELOAD="$slowdown:$hetscal" -x HETSCAL_SPEEDS=1,"$speed" -x HETSCAL_VERBOSE=1 \
      "$program" "$2" "$nb" "$3" "$4" 2>&1
  else
    "${slowed[@]}" -x LD_PRELOAD="$slowdown" "$program" "$2" "$nb" "$3" "$4" 2>&1
  fi
}

table=()
for n in $sizes; do
  for grid in "1 2" "2 1"; do
    plain=() hetero=()
    for ((i = 0; i < runs; ++i)); do
      out=$(one_run plain "$n" $grid)
      grep -q PASSED <<<"$out" || { echo "$out"; echo "plain run failed"; exit 1; }
      plain+=("$(field time_s <<<"$out")")
      out=$(one_run hetscal "$n" $grid)
      grep -q PASSED <<<"$out" || { echo "$out"; echo "hetscal run failed"; exit 1; }
      hetero+=("$(field time_s <<<"$out")")
      if ((i == 0)); then
        echo "N=$n grid ${grid/ /x}:"
        grep -E "hetscal: $routine .*(plan|computed|forwarded|measured)" <<<"$out" | sed 's/^/  /'
      fi
    done
    p=$(printf "%s\n" "${plain[@]}" | median)
    h=$(printf "%s\n" "${hetero[@]}" | median)
    table+=("$(printf "%6s %5s %12s %12s %8.2f" "$n" "${grid/ /x}" "$p" "$h" \
      "$(awk -v a="$p" -v b="$h" 'BEGIN { print a / b }')")")
  done
done
echo
echo "$routine through the shim, NB=$nb, medians of $runs interleaved runs (seconds)"
printf "%6s %5s %12s %12s %8s\n" N grid ScaLAPACK hetscal speedup
printf "%s\n" "${table[@]}"
