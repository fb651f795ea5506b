#!/usr/bin/env bash
# The main job: set-up (packages, configure, build), then
#  1. four unchanged ScaLAPACK programs (examples/scalapack/pdgemm_example.f90, then
#     pdpotrf_example.f90, pdgetrf_example.f90 and pdgeqrf_example.f90) run on 2 ranks of
#     this machine made heterogeneous: rank 1 slowed 3x by the emulator
#     (libhetscal-slowdown.so), once with plain ScaLAPACK and once with libhetscal.so
#     preloaded (HETSCAL_SPEEDS=1,0.3333), side by side;
#  2. the grid planner on the 9 heterogeneous workstations of Boudet, Petitet, Rastello &
#     Robert (1999), Table 3, with a picture of the distribution;
#  3. the summary table: every routine, ScaLAPACK against hetscal (residuals, times, speedup,
#     the ideal speedup and the fraction of it reached).
# The set-up's output goes to build/setup.log, the programs' whole output to build/demo.log.
# Environment: HETSCAL_DEMO_N (matrix size, default 4000), HETSCAL_DEMO_NB (block size, 128).
# Arguments after demo.sh are passed to hetscal-plan.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${HETSCAL_BUILD_DIR:-$repo/build}
bash "$repo/cmake/bootstrap.sh"

export OPENBLAS_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
n=${HETSCAL_DEMO_N:-4000}
nb=${HETSCAL_DEMO_NB:-128}
example=$build/examples/pdgemm_example
slowdown=$build/src/tools/libhetscal-slowdown.so
field() { awk -v key="$1" '$1 == key { print $2; exit }'; }

echo
echo "== 1. Unchanged ScaLAPACK programs on a heterogeneous machine (N=$n, NB=$nb, 2 ranks) =="
# The emulator sleeps (3 - 1) x flops / rate after each of rank 1's BLAS calls: the rate is
# one core's DGEMM rate, measured here with the same program on one rank.
gflops=$(mpirun --oversubscribe -np 1 "$example" 2000 "$nb" 1 1 | field gflops)
rate=$(awk -v g="$gflops" 'BEGIN { printf "%.4g", g * 1e9 }')
echo "one core: $gflops GFLOP/s; rank 1 slowed 3x (HETSCAL_SLOWDOWN=1:3 HETSCAL_SLOWDOWN_RATE=$rate)"
log=$build/demo.log
: >"$log"
slowed=(mpirun --oversubscribe -np 2 -x OPENBLAS_NUM_THREADS -x HETSCAL_SLOWDOWN=1:3 -x HETSCAL_SLOWDOWN_RATE="$rate")

# side_by_side <example> <ideal-speedup text>: the example plain, then preloaded; their whole
# output (hetscal's plan included) goes to the log, one line here, and a row to the summary.
summary=()
side_by_side() {
  local example=$1 ideal=$2 plain hetero routine
  routine=$(basename "$example" _example | tr '[:lower:]' '[:upper:]')
  echo "== $routine plain ScaLAPACK" >>"$log"
  plain=$("${slowed[@]}" -x LD_PRELOAD="$slowdown" "$example" "$n" "$nb" 1 2 2>>"$log")
  echo "$plain" >>"$log"
  if [ ! -f "$build/src/libhetscal.so" ]; then
    echo "   libhetscal.so is not built: only the plain run was made"
    return
  fi
  echo "== $routine with libhetscal.so (HETSCAL_SPEEDS=1,0.3333 HETSCAL_VERBOSE=1)" >>"$log"
  hetero=$("${slowed[@]}" -x LD_PRELOAD="$slowdown:$build/src/libhetscal.so" -x HETSCAL_SPEEDS=1,0.3333 \
    -x HETSCAL_VERBOSE=1 "$example" "$n" "$nb" 1 2 2>>"$log")
  echo "$hetero" >>"$log"
  local plain_s hetero_s
  plain_s=$(field time_s <<<"$plain") hetero_s=$(field time_s <<<"$hetero")
  awk -v tp="$plain_s" -v th="$hetero_s" -v ideal="$ideal" \
    'BEGIN { printf "   ScaLAPACK %.2f s, hetscal %.2f s: speedup %.2f (%s)\n", tp, th,
             (th > 0 ? tp / th : 0), ideal }'
  summary+=("$(summary_row "$routine" "$(field residual <<<"$plain")" \
    "$(field residual <<<"$hetero")" "$plain_s" "$hetero_s" "$ideal")")
}

# summary_row ROUTINE RESIDUAL_PLAIN RESIDUAL_HETSCAL SECONDS_PLAIN SECONDS_HETSCAL IDEAL_TEXT:
# one row of the final table (the ideal speedup is the first number of IDEAL_TEXT).
summary_row() {
  awk -v r="$1" -v rp="$2" -v rh="$3" -v tp="$4" -v th="$5" -v ideal="$6" \
    'BEGIN { match(ideal, /[0-9]+([.][0-9]+)?/); i = substr(ideal, RSTART, RLENGTH)
             s = th > 0 ? tp / th : 0
             printf "%-8s %13.3g %11.3g %11.2f %9.2f %8.2f %6.2f %8.0f%%", r, rp, rh, tp, th, s, i,
                    (i > 0 ? 100 * s / i : 0) }'
}

echo "-- PDGEMM: examples/scalapack/pdgemm_example.f90 (C = A*B)"
side_by_side "$build/examples/pdgemm_example" "ideal 2.00: speeds 1 + 1/3 against 2 x 1/3"
echo
echo "-- PDPOTRF: examples/scalapack/pdpotrf_example.f90 (A = L*L**T, then PDPOTRS)"
side_by_side "$build/examples/pdpotrf_example" "ideal 2.00 from balance alone"
echo
echo "-- PDGETRF: examples/scalapack/pdgetrf_example.f90 (P*A = L*U, then ScaLAPACK's PDGETRS)"
side_by_side "$build/examples/pdgetrf_example" "ideal 2.00 from balance alone"
echo
echo "-- PDGEQRF: examples/scalapack/pdgeqrf_example.f90 (A = Q*R, then ScaLAPACK's PDORMQR and PDTRSM)"
side_by_side "$build/examples/pdgeqrf_example" "ideal 2.00 from balance alone"

echo
echo "== 2. The grid planner on the 9 workstations of Boudet et al. (1999), Table 3 =="
if [ -x "$build/src/tools/hetscal-plan" ]; then
  echo "== hetscal-plan" >>"$log"
  "$build/src/tools/hetscal-plan" --cycle-times 7.8,1.0,1.0,4.0,1.0,6.3,7.8,7.95,8.0 \
    --picture "$build/demo-plan.svg" "$@" | tee -a "$log" | sed -n -E 's/^(plan:|W = )/   &/p'
  echo "   picture of the distribution: $build/demo-plan.svg (the whole plan: $log)"
else
  echo "hetscal-plan is not built"
fi

echo
echo "== Summary: N=$n, NB=$nb, 2 ranks, rank 1 slowed 3x; SL = plain ScaLAPACK (details: $log) =="
printf "%-8s %13s %11s %11s %9s %8s %6s %9s\n" routine "residual: SL" hetscal "time: SL s" hetscal \
  speedup ideal "of ideal"
printf "%s\n" "${summary[@]}"
