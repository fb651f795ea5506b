# Sourced by the run_real.sh of the benchmarks whose panels are factorised on one rank (lu, qr;
# panel_rank_bench.hpp), which set `bench_name` ("lu", "qr"), `routine` ("PDGETRF",
# "PDGEQRF") and `target` (issue's homogeneous target, "1.2"): one table of medians of
# interleaved repetitions,
#  1. homogeneous: hetscal's kernel on block-cyclic (data in place) vs ScaLAPACK at its best
#     block size, on the 1×2 grid and on the 2×1 grid;
#  2. heterogeneous: rank 1 slowed 3x by libhetscal-slowdown.so for every variant; hetscal's
#     planned grid (speeds 1 : 1/3), panels on the diagonal owner and on the fastest rank, vs
#     its block-cyclic kernel and vs ScaLAPACK, with the flop balance. The sleep rate is one
#     core's DGEMM rate, measured first unless HETSCAL_SLOWDOWN_RATE is set.
# Arguments: [BUILD_DIR ["N_LIST" [REPS ["NB_LIST" [PRECISION]]]]] (factorization_run_common.sh)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/factorization_run_common.sh"
routine=${routine/#PD/P${precision^^}}  # PZGETRF, PZGEQRF with PRECISION z

declare -A row
for n in $sizes; do
  out=$("${mpi[@]}" "$bench" --n "$n" --reps "$reps" --nb "$block_sizes" | tee -a "$log")
  grep -q "results checked" <<<"$out" || { echo "N=$n homogeneous: wrong results (see $log)"; exit 1; }
  row[$n,hom]=""
  for grid in 1xP Px1; do
    row[$n,hom]+=$(printf "%-58s %8s %8s %8s  %s, ceiling %s\n" \
      "${grid/P/2}: ScaLAPACK (nb=$(field scalapack_$grid 3 <<<"$out")) / hetscal (nb=$(field hetscal_$grid 3 <<<"$out"))" \
      "$(field scalapack_$grid 4 <<<"$out")" "$(field hetscal_$grid 4 <<<"$out")" \
      "$(ratio "hetscal_$grid/scalapack_$grid" <<<"$out")" "target >= $target" \
      "$(ceiling "hetscal_$grid/scalapack_$grid" <<<"$out")")$'\n'
  done

  out=$("${mpi[@]}" -x LD_PRELOAD="$slowdown" -x HETSCAL_SLOWDOWN=1:3 -x HETSCAL_SLOWDOWN_RATE \
    "$bench" --n "$n" --reps "$reps" --nb "$block_sizes" --speeds 1,0.333333333333 | tee -a "$log")
  grep -q "results checked" <<<"$out" || { echo "N=$n slowed: wrong results (see $log)"; exit 1; }
  row[$n,het]=""
  for panel in diagonal fastest; do
    row[$n,het]+=$(printf "%-58s %8s\n%-58s %8s" \
      "slowed 1:3: best cyclic / planned, $panel panel rank" \
      "$(ratio "hetscal_planned_$panel/best_cyclic" <<<"$out")" \
      "slowed 1:3: best ScaLAPACK / planned, $panel panel rank" \
      "$(ratio "hetscal_planned_$panel/best_scalapack" <<<"$out")")$'\n'
  done
  row[$n,het]+=$(grep '^flops' <<<"$out")
done

print_rows "${bench_name^^} ($routine)" 58
