#!/usr/bin/env bash
# Real-run Cholesky benchmarks on 2 ranks (no oversubscription), OPENBLAS_NUM_THREADS=1, one
# table (bench_cholesky_real, medians of interleaved repetitions):
#  1. homogeneous: hetscal's kernel on block-cyclic (data in place) vs ScaLAPACK pdpotrf_ at
#     its best block size, on the 1×2 grid (target >= 1.5) and on the 2×1 grid (>= 1.15);
#  2. heterogeneous: rank 1 slowed 3x by libhetscal-slowdown.so for every variant; hetscal's
#     planned grid (speeds 1 : 1/3) vs its block-cyclic kernel and vs ScaLAPACK, with the flop
#     balance. The sleep rate is one core's DGEMM rate, measured first unless
#     HETSCAL_SLOWDOWN_RATE is set.
# Usage: run_real.sh [BUILD_DIR ["N_LIST" [REPS ["NB_LIST" [PRECISION]]]]]
#        (default: build, "4000 8000", 3, "32,64,128,256", d; z: PZPOTRF on complex data)
set -euo pipefail
bench_name=cholesky
source "$(dirname "${BASH_SOURCE[0]}")/../factorization_run_common.sh"

declare -A row
for n in $sizes; do
  out=$("${mpi[@]}" "$bench" --n "$n" --reps "$reps" --nb "$block_sizes" | tee -a "$log")
  grep -q "results checked" <<<"$out" || { echo "N=$n homogeneous: wrong results (see $log)"; exit 1; }
  row[$n,hom]=$(printf "%-44s %8s %8s %8s  %s, ceiling %s\n%-44s %8s %8s %8s  %s, ceiling %s" \
    "1x2: ScaLAPACK (nb=$(field scalapack_1xP 3 <<<"$out")) / hetscal (nb=$(field hetscal_1xP 3 <<<"$out"))" \
    "$(field scalapack_1xP 4 <<<"$out")" "$(field hetscal_1xP 4 <<<"$out")" \
    "$(ratio "hetscal_1xP/scalapack_1xP" <<<"$out")" "target >= 1.5" \
    "$(ceiling "hetscal_1xP/scalapack_1xP" <<<"$out")" \
    "2x1: ScaLAPACK (nb=$(field scalapack_Px1 3 <<<"$out")) / hetscal (nb=$(field hetscal_Px1 3 <<<"$out"))" \
    "$(field scalapack_Px1 4 <<<"$out")" "$(field hetscal_Px1 4 <<<"$out")" \
    "$(ratio "hetscal_Px1/scalapack_Px1" <<<"$out")" "target >= 1.15" \
    "$(ceiling "hetscal_Px1/scalapack_Px1" <<<"$out")")

  out=$("${mpi[@]}" -x LD_PRELOAD="$slowdown" -x HETSCAL_SLOWDOWN=1:3 -x HETSCAL_SLOWDOWN_RATE \
    "$bench" --n "$n" --reps "$reps" --nb "$block_sizes" --speeds 1,0.333333333333 | tee -a "$log")
  grep -q "results checked" <<<"$out" || { echo "N=$n slowed: wrong results (see $log)"; exit 1; }
  row[$n,het]=$(printf "%-44s %8s  %s\n%-44s %8s\n%s" \
    "slowed 1:3: best cyclic / hetscal planned" "$(ratio "hetscal_planned/best_cyclic" <<<"$out")" \
    "$(awk '/^ratio hetscal_planned\/best_cyclic/ { $1 = $2 = $3 = ""; print }' <<<"$out")" \
    "slowed 1:3: best ScaLAPACK / hetscal planned" "$(ratio "hetscal_planned/best_scalapack" <<<"$out")" \
    "$(grep '^flops' <<<"$out")")
done

print_rows "Cholesky (P${precision^^}POTRF, UPLO=L)" 44
