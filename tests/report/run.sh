#!/usr/bin/env bash
# The benchmark report in one command (README, "Benchmark report"): runs the benchmark suite
# at one scale with a one-line progress indicator, writes a CSV file for every figure into
# OUT_DIR, then draws the figures with matplotlib and writes OUT_DIR/report.md
# (tests/report/report.py). Everything the benchmarks print goes to OUT_DIR/report.log.
#   - Boudet1999's Figures 10-15 and Cholesky, simulated (SimGrid) on the 9 workstations;
#   - Beaumont2023's Table I costs and its any-P experiments on simulated switched clusters;
#   - the real runs on 2 ranks: every routine, homogeneous and with rank 1 slowed 3x;
#   - the adaptive scenario on 2 ranks: loops where rank 1 turns 3x slower after a quarter;
#     and simulated on the 9 workstations (GEMM: static, adaptive, oracle and 2DBC);
#   - hetscal-plan's pictures of the chosen distributions.
# Usage: run.sh [smoke|quick|full [OUT_DIR]]   (default: quick, build/report)
#   smoke: tiny sizes, for the report_smoke test (a minute or two once built);
#   quick: fewer sizes (N <= 4000) and block sizes, meant for about 15 minutes on 2 cores;
#   full: the papers' sizes.
# Environment: HETSCAL_BUILD_DIR (default build; configured by cmake/bootstrap.sh when
# missing), HETSCAL_SIMGRID_BUILD_DIR (default BUILD/simgrid), HETSCAL_PYTHON (default
# /usr/bin/python3, Debian's, where python3-matplotlib lives).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
scale=${1:-quick}
build=${HETSCAL_BUILD_DIR:-$repo/build}
simgrid_build=${HETSCAL_SIMGRID_BUILD_DIR:-$build/simgrid}
out=${2:-$build/report}
python=${HETSCAL_PYTHON:-/usr/bin/python3}

case $scale in
  smoke) nine_sizes=500,1000; cluster_n=1500; cluster_nb=50; node_counts=23; gcrm_seeds=2
         clusters=switched_cluster_64; real_sizes="500"; real_reps=1; real_nb=64,128; rate_n=1000
         adaptive_loops=("pdgemm 600 8"); adaptive_simulation="1000 8" ;;
  quick) nine_sizes=1000,2000,3000,4000; cluster_n=5000; cluster_nb=125; node_counts=23,31,35,39
         gcrm_seeds=10; clusters=switched_cluster_64; real_sizes="2000"; real_reps=3
         real_nb=64,128; rate_n=3000; adaptive_loops=("pdgemm 3000 20" "pdgetrf 4000 10")
         adaptive_simulation="3000 20" ;;
  full)  nine_sizes=1000,2000,3000,4000,5000,6000,7000,8000; cluster_n=10000; cluster_nb=125
         node_counts=23,31,35,39; gcrm_seeds=25; clusters="switched_cluster_64 omnipath_cluster_44"
         real_sizes="4000 8000"; real_reps=3; real_nb=32,64,128,256; rate_n=3000
         adaptive_loops=("pdgemm 3000 20" "pdgetrf 4000 10" "pdpotrf 4000 10" "pdgeqrf 4000 10")
         adaptive_simulation="3000 20" ;;
  *) echo "usage: $0 [smoke|quick|full [OUT_DIR]]" >&2; exit 2 ;;
esac
cluster_ranks=${node_counts##*,}  # the largest P, listed last
commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
settings="9 workstations N = $nine_sizes, adaptive GEMM loop (N, calls) $adaptive_simulation; \
clusters $clusters, N = $cluster_n in tiles of $cluster_nb, P = $node_counts, $gcrm_seeds GCR&M \
seeds per size; real runs N = $real_sizes, \
$real_reps repetitions, nb in $real_nb; $(nproc) cores, commit $commit"

# The simulated figures, one entry each: CSV name, smpicxx target, ranks, platform, then the
# program's arguments after its output prefix.
simulations=(
  "nine_workstations_gemm bench_nine_workstations 9 nine_workstations 64 $nine_sizes"
  "nine_workstations_lu bench_lu_nine_workstations 9 nine_workstations $nine_sizes"
  "nine_workstations_cholesky bench_cholesky_nine_workstations 9 nine_workstations $nine_sizes"
  "nine_workstations_qr bench_qr_nine_workstations 9 nine_workstations $nine_sizes"
  "nine_workstations_adaptive bench_adaptive_nine_workstations 9 nine_workstations_slowing $adaptive_simulation"
)
for cluster in $clusters; do
  on_cluster="$cluster_ranks $cluster $cluster $cluster_n $cluster_nb"
  simulations+=(
    "${cluster}_lu bench_lu_switched_cluster $on_cluster $node_counts"
    "${cluster}_cholesky bench_cholesky_switched_cluster $on_cluster $gcrm_seeds $node_counts")
done
# The real-run benchmarks, one entry each: the routine (tests/bench/ROUTINE/bench_ROUTINE_real)
# and its block-size options, NB standing for the scale's list.
real_routines=("gemm --scalapack-nb NB --hetscal-nb NB" "cholesky --nb NB" "lu --nb NB"
               "qr --nb NB")
slowed_speeds=1,0.333333333333  # rank 1 slowed 3x: what the planner is told
# hetscal-plan's pictures, one entry each: picture name, then hetscal-plan's options.
nine_cycle_times=7.8,1,1,4,1,6.3,7.8,7.95,8
equal_23=$(printf '1,%.0s' {1..22})1
plans=(
  "nine_workstations_3x3 --cycle-times $nine_cycle_times --grid 3x3"
  "nine_workstations_2x4 --cycle-times $nine_cycle_times --grid 2x4"
  "two_ranks_1_to_3 --speeds $slowed_speeds"
  "g2dbc_23_nodes --speeds $equal_23 --pattern g2dbc"
  "gcrm_23_nodes --speeds $equal_23 --pattern gcrm"
)
host_targets=(hetscal hetscal-slowdown hetscal-plan pdgemm_example bench_table_one adaptive_loop)
for entry in "${real_routines[@]}"; do host_targets+=("bench_${entry%% *}_real"); done

export OPENBLAS_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PYTHONDONTWRITEBYTECODE=1  # no __pycache__ in the source tree
# Only what this run writes may be drawn: the previous run's outputs go first.
rm -rf "$out/raw"
rm -f "$out"/*.csv "$out"/*.png "$out"/plan_*.txt "$out/report.md" "$out/headlines.txt"
mkdir -p "$out/raw"
log=$out/report.log
: >"$log"

build_host_programs() {
  [ -f "$build/CMakeCache.txt" ] || bash "$repo/cmake/bootstrap.sh"
  cmake --build "$build" -j 2 --target "${host_targets[@]}"
}

# simulate CSV TARGET RANKS PLATFORM ARGS...: one simulated benchmark writing OUT/CSV.csv.
simulate() {
  local csv=$1 target=$2 ranks=$3 platform=$4
  shift 4
  "$repo/tests/simgrid/run_benchmark.sh" "$simgrid_build" "$target" "$ranks" "$platform" \
    "$out/$csv" "$@"
}

table_one() {
  "$build/tests/bench/bench_table_one" "$node_counts" "$gcrm_seeds" >"$out/table_one.csv"
}

draw_plan() {
  local name=$1
  shift
  "$build/src/tools/hetscal-plan" "$@" --picture "$out/plan_$name.png" >"$out/plan_$name.txt"
}

# One core's DGEMM rate: what libhetscal-slowdown.so's sleeps are computed against.
measure_rate() {
  local gflops
  gflops=$(mpirun -np 1 "$build/examples/pdgemm_example" "$rate_n" 256 1 1 |
    awk '$1 == "gflops" { print $2 }')
  rate=$(awk -v g="$gflops" 'BEGIN { printf "%.4g", g * 1e9 }')
  echo "one core: $gflops GFLOP/s, HETSCAL_SLOWDOWN_RATE=$rate"
}

# real_run ROUTINE SCENARIO N NB_OPTIONS...: one benchmark run saved for real_runs.py.
real_run() {
  local routine=$1 scenario=$2 n=$3
  shift 3
  local mpi=(mpirun -np 2 -x OPENBLAS_NUM_THREADS) speeds=()
  if [ "$scenario" = slowed ]; then
    mpi+=(-x LD_PRELOAD="$build/src/tools/libhetscal-slowdown.so" -x HETSCAL_SLOWDOWN=1:3
          -x HETSCAL_SLOWDOWN_RATE="$rate")
    speeds=(--speeds "$slowed_speeds")
  fi
  "${mpi[@]}" "$build/tests/bench/$routine/bench_${routine}_real" --n "$n" --reps "$real_reps" \
    "$@" "${speeds[@]}" | tee "$out/raw/real_${routine}_${scenario}_$n.txt"
}

collect_real_runs() {
  "$python" "$repo/tests/report/real_runs.py" "$out/real_two_ranks.csv" --speeds "$slowed_speeds" \
    "$out"/raw/real_*.txt
}

# adaptive_run ROUTINE N CALLS: the adaptive scenario of one loop (its CSV into raw/).
adaptive_run() {
  HETSCAL_BUILD_DIR=$build REPS=$real_reps HETSCAL_SLOWDOWN_RATE=$rate HETSCAL_PYTHON=$python \
    "$repo/tests/bench/adaptive/run_real.sh" "$@" "$out/raw"
}

collect_adaptive_runs() {
  local csvs=("$out"/raw/adaptive_*.csv)
  { head -n 1 "${csvs[0]}"; tail -q -n +2 "${csvs[@]}"; } >"$out/adaptive_two_ranks.csv"
}

render() {
  "$python" "$repo/tests/report/report.py" "$out" --scale "$scale" --settings "$settings" \
    --expect table_one real_two_ranks adaptive_two_ranks "${simulations[@]%% *}" >"$out/headlines.txt"
  cat "$out/headlines.txt"
}

# The steps, in order: a label for the progress line and a command (words, no quoting).
labels=() commands=()
step() { labels+=("$1"); commands+=("$2"); }
step "building hetscal's programs" build_host_programs
step "Table I's costs" table_one
for entry in "${plans[@]}"; do step "picture ${entry%% *}" "draw_plan $entry"; done
for entry in "${simulations[@]}"; do
  step "simulating ${entry%% *} (SimGrid)" "simulate $entry"
done
step "measuring one core's DGEMM rate" measure_rate
for entry in "${real_routines[@]}"; do
  for n in $real_sizes; do
    for scenario in homogeneous slowed; do
      step "real ${entry%% *}, N = $n, $scenario" "real_run ${entry%% *} $scenario $n ${entry#* }"
    done
  done
done
step "collecting the real runs" collect_real_runs
for entry in "${adaptive_loops[@]}"; do step "adaptive scenario, $entry" "adaptive_run $entry"; done
step "collecting the adaptive runs" collect_adaptive_runs
step "drawing the figures, writing report.md" render

start=$SECONDS
for i in "${!labels[@]}"; do
  printf '\r\033[K[%d/%d %ds] %s' $((i + 1)) ${#labels[@]} $((SECONDS - start)) "${labels[$i]}"
  echo "== [$((i + 1))/${#labels[@]}] ${labels[$i]}" >>"$log"
  read -r -a command <<<"${commands[$i]//NB/$real_nb}"
  step_start=$SECONDS
  if ! "${command[@]}" >>"$log" 2>&1; then
    printf '\n%s failed; the end of %s:\n' "${labels[$i]}" "$log"
    tail -n 25 "$log"
    exit 1
  fi
  echo "== took $((SECONDS - step_start)) s" >>"$log"
done
printf '\r\033[K%s scale done in %ds.\n' "$scale" $((SECONDS - start))
sed 's/^/  /' "$out/headlines.txt"
echo "report: $out/report.md (figures and CSV next to it; log: $log)"
