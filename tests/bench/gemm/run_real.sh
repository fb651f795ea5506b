#!/usr/bin/env bash
# Real-run GEMM benchmarks on 2 ranks (no oversubscription), OPENBLAS_NUM_THREADS=1, one table:
#  1. homogeneous: hetscal's kernel on block-cyclic (data in place) vs ScaLAPACK pdgemm_ at
#     its best block size among 32, 64, 128, 256 (bench_gemm_real);
#  2. forwarded path: the unchanged Fortran example with libhetscal.so preloaded and
#     HETSCAL_DISABLE=1 vs the same example plain (alternating launches, one call each), and
#     within one preloaded process pdgemm_ through the shim vs ScaLAPACK's own (interleaved);
#  3. heterogeneous: rank 1 slowed 3x by libhetscal-slowdown.so for every variant; hetscal's
#     planned distribution (speeds 1 : 1/3) vs its block-cyclic kernel and vs ScaLAPACK, with
#     the flop balance. The sleep rate is one core's DGEMM rate, measured first unless
#     HETSCAL_SLOWDOWN_RATE is set;
#  4. calibration (issue 8): the unchanged Fortran example under the same slowdown, preloaded
#     with HETSCAL_SPEEDS=1,0.3333 HETSCAL_VERBOSE=1: hetscal's predicted time (redistribution
#     and the first fill of its copies included) against the measured one (target 0.67–1.5).
# Usage: run_real.sh [BUILD_DIR ["N_LIST" [REPS [PRECISION]]]]
#        (default: build, "4000 8000", 3, d). PRECISION z (issue 13): rows 1 and 3 only, on
#        complex double data against pzgemm_ (the Fortran example of rows 2 and 4 is PDGEMM's).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
build=${1:-$repo/build}
sizes=${2:-"4000 8000"}
reps=${3:-3}
precision=${4:-d}
[[ $precision == d || $precision == z ]] || { echo "PRECISION must be d or z, not '$precision'" >&2; exit 2; }
export OPENBLAS_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi=(mpirun -np 2 -x OPENBLAS_NUM_THREADS)
bench=$build/tests/bench/gemm/bench_gemm_real
example=$build/examples/pdgemm_example
slowdown=$build/src/tools/libhetscal-slowdown.so
hetscal=$build/src/libhetscal.so
log=$build/bench-gemm-real${precision/d/}.log  # bench-gemm-realz.log for Z
scalapack=scalapack_p${precision}gemm  # the benchmark's name of ScaLAPACK's variant
: >"$log"
field() { awk -v key="$1" -v col="$2" '$1 == key { print $col; exit }'; }
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# The sleep rate of libhetscal-slowdown.so: one core's DGEMM rate, unless given.
if [[ -n ${HETSCAL_SLOWDOWN_RATE:-} ]]; then
  rate=$HETSCAL_SLOWDOWN_RATE
  echo "slowdown rate given: HETSCAL_SLOWDOWN_RATE=$rate" | tee -a "$log"
else
  rate_gflops=$(mpirun -np 1 "$example" 3000 256 1 1 | field gflops 2)
  rate=$(awk -v g="$rate_gflops" 'BEGIN { printf "%.4g", g * 1e9 }')
  echo "single-core DGEMM rate: $rate_gflops GFLOP/s (HETSCAL_SLOWDOWN_RATE=$rate)" | tee -a "$log"
fi

declare -A row
for n in $sizes; do
  out=$("${mpi[@]}" "$bench" --n "$n" --reps "$reps" --precision "$precision" | tee -a "$log")
  sl_nb=$(field $scalapack 2 <<<"$out"); hs_nb=$(field hetscal_cyclic 2 <<<"$out")
  row[$n,hom]=$(printf "%-42s %8s %8s %8s  %s" "homogeneous: ScaLAPACK (nb=$sl_nb) / hetscal cyclic (nb=$hs_nb)" \
    "$(field $scalapack 3 <<<"$out")" "$(field hetscal_cyclic 3 <<<"$out")" \
    "$(awk '/^ratio hetscal_cyclic/ { print $3 }' <<<"$out")" "target >= 1.2")

  if [[ $precision == d ]]; then
    plain=() forwarded=()
    for ((r = 0; r < reps; ++r)); do
      plain+=("$("${mpi[@]}" "$example" "$n" "$sl_nb" 1 2 | tee -a "$log" | field time_s 2)")
      forwarded+=("$("${mpi[@]}" -x LD_PRELOAD="$hetscal" -x HETSCAL_DISABLE=1 "$example" "$n" "$sl_nb" 1 2 \
        | tee -a "$log" | field time_s 2)")
    done
    p=$(median <<<"${plain[*]}"); f=$(median <<<"${forwarded[*]}")
    out=$("${mpi[@]}" -x LD_PRELOAD="$hetscal" -x HETSCAL_DISABLE=1 "$bench" --n "$n" --reps "$reps" \
      --scalapack-nb "$sl_nb" --forward-check 1 | tee -a "$log" | grep '^forward-check')
    row[$n,fwd]=$(printf "%-42s %8s %8s %8.3f  %s\n%-42s %8s %8s %8s  %s" \
      "forwarded, 2 launches: plain / preloaded" "$p" "$f" \
      "$(awk -v p="$p" -v f="$f" 'BEGIN { print p / f }')" "target >= 0.99" \
      "forwarded, 1 process: direct / via shim" "$(awk '{ print $9 }' <<<"$out")" \
      "$(awk '{ print $6 }' <<<"$out")" "$(awk '{ print $NF }' <<<"$out")" "target >= 0.99")
  fi

  out=$("${mpi[@]}" -x LD_PRELOAD="$slowdown" -x HETSCAL_SLOWDOWN=1:3 -x HETSCAL_SLOWDOWN_RATE="$rate" \
    "$bench" --n "$n" --reps "$reps" --speeds 1,0.333333333333 --scalapack-nb "$sl_nb" --hetscal-nb "$hs_nb" \
    --precision "$precision" | tee -a "$log")
  row[$n,het]=$(printf "%-42s %8s %8s %8s  %s\n%-42s %8s %8s %8s  %s" \
    "slowed 1:3: hetscal cyclic / planned" "$(field hetscal_cyclic 3 <<<"$out")" \
    "$(field hetscal_planned 3 <<<"$out")" "$(awk '/^ratio hetscal_planned\/cyclic/ { print $3 }' <<<"$out")" \
    "target >= 1.85 (ideal 2.0)" \
    "slowed 1:3: ScaLAPACK / hetscal planned" "$(field $scalapack 3 <<<"$out")" \
    "$(field hetscal_planned 3 <<<"$out")" "$(awk '/^ratio hetscal_planned\/scalapack/ { print $3 }' <<<"$out")" \
    "target >= 2.2")
  row[$n,bal]=$(grep '^flop balance' <<<"$out")

  if [[ $precision == d ]]; then
    predicted=() measured=()
    for ((r = 0; r < reps; ++r)); do
      out=$("${mpi[@]}" -x LD_PRELOAD="$slowdown:$hetscal" -x HETSCAL_SLOWDOWN=1:3 -x HETSCAL_SLOWDOWN_RATE="$rate" \
        -x HETSCAL_SPEEDS=1,0.3333 -x HETSCAL_VERBOSE=1 "$example" "$n" 64 1 2 2>&1 | tee -a "$log" \
        | grep -o "measured [0-9.e+-]* s (predicted [0-9.e+-]* s" | head -1)
      measured+=("$(awk '{ print $2 }' <<<"$out")")
      predicted+=("$(awk '{ gsub(/[(;]/, "", $5); print $5 }' <<<"$out")")
    done
    p=$(median <<<"${predicted[*]}"); m=$(median <<<"${measured[*]}")
    row[$n,cal]=$(printf "%-42s %8s %8s %8.3f  %s" "slowed 1:3, preloaded: predicted / measured" "$p" "$m" \
      "$(awk -v p="$p" -v m="$m" 'BEGIN { print m / p }')" "target 0.67-1.5")
  fi
done

echo
echo "GEMM (P${precision^^}GEMM), 2 ranks, OPENBLAS_NUM_THREADS=1, medians of $reps interleaved repetitions (seconds); full log: $log"
for n in $sizes; do
  echo "N = $n"
  printf "  %-42s %8s %8s %8s\n" "comparison (baseline / candidate)" "base_s" "cand_s" "ratio"
  for k in hom fwd het cal; do
    if [[ -v row[$n,$k] ]]; then sed 's/^/  /' <<<"${row[$n,$k]}"; fi
  done
  echo "  ${row[$n,bal]}"
done
