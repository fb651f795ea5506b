#!/usr/bin/env bash
# How well hetscal's run-time prediction matches what it measures (issue 8 point 2): the
# unchanged Fortran PDGEMM example on 2 ranks, rank 1 slowed 3x by libhetscal-slowdown.so,
# libhetscal.so preloaded with HETSCAL_SPEEDS=1,0.3333 and HETSCAL_VERBOSE=1, which prints the
# predicted time of hetscal's route (redistribution included), ScaLAPACK's predicted time,
# and after the call the measured time. One launch per N and repetition; the table gives
# the medians and measured / predicted (the target is 0.67–1.5).
# Usage: run_calibration.sh [BUILD_DIR ["N_LIST" [REPS]]]   (default: build, "4000 8000", 3)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
build=${1:-$repo/build}
sizes=${2:-"4000 8000"}
reps=${3:-3}
export OPENBLAS_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
example=$build/examples/pdgemm_example
preload=$build/src/tools/libhetscal-slowdown.so:$build/src/libhetscal.so
log=$build/bench-gemm-calibration.log
: >"$log"
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

rate_gflops=$(mpirun -np 1 "$example" 3000 256 1 1 | awk '$1 == "gflops" { print $2; exit }')
rate=$(awk -v g="$rate_gflops" 'BEGIN { printf "%.4g", g * 1e9 }')
echo "single-core DGEMM rate: $rate_gflops GFLOP/s (HETSCAL_SLOWDOWN_RATE=$rate)" | tee -a "$log"
printf "%6s %14s %14s %14s %10s\n" N "predicted_s" "measured_s" "scalapack_pred" "meas/pred"
for n in $sizes; do
  predicted=() measured=() forward=()
  for ((r = 0; r < reps; ++r)); do
    out=$(mpirun -np 2 -x OPENBLAS_NUM_THREADS -x LD_PRELOAD="$preload" -x HETSCAL_SLOWDOWN=1:3 \
      -x HETSCAL_SLOWDOWN_RATE="$rate" -x HETSCAL_SPEEDS=1,0.3333 -x HETSCAL_VERBOSE=1 \
      "$example" "$n" 64 1 2 2>&1 | tee -a "$log")
    line=$(grep -o "measured [0-9.e+-]* s (predicted [0-9.e+-]* s" <<<"$out" | head -1)
    measured+=("$(awk '{ print $2 }' <<<"$line")")
    predicted+=("$(awk '{ gsub(/[(;]/, "", $5); print $5 }' <<<"$line")")
    forward+=("$(grep -o "vs ScaLAPACK [0-9.e+-]* s" <<<"$out" | head -1 | awk '{ print $3 }')")
  done
  p=$(median <<<"${predicted[*]}") m=$(median <<<"${measured[*]}") f=$(median <<<"${forward[*]}")
  printf "%6s %14s %14s %14s %10.2f\n" "$n" "$p" "$m" "$f" "$(awk -v m="$m" -v p="$p" 'BEGIN { print m / p }')"
done
echo "full log: $log"
