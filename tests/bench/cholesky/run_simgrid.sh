#!/usr/bin/env bash
# Simulated Cholesky (issue 9): builds the two benchmarks with SimGrid's smpicxx, runs them
# and prints their tables; the CSVs land in the build directory (tests/report draws them).
#  1. the 9 workstations (Boudet et al. 1999, Table 3; shared 100 Mb/s Ethernet): hetscal's
#     plan versus the same kernel on 2DBC over the same ranks, N = 1000..8000, with the
#     speedup W predicts and achieved/predicted;
#  2. homogeneous switched clusters, P = 23, 31, 35, 39: GCR&M versus the best 2DBC on P and
#     on fewer nodes, next to Beaumont2023's Table I(b); on switched_cluster_64 (10 Gflop/s nodes,
#     10 Gb/s links) and on omnipath_cluster_44 (Beaumont2023's ratio of tile transfer to update).
# Usage: run_simgrid.sh [BUILD_DIR [N_LIST [CLUSTER_N [CLUSTER_NB [SEEDS]]]]]
#   defaults: build/simgrid, 1000..8000, 10000, 125, 25
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
work=${1:-$repo/build/simgrid}
run=$repo/tests/simgrid/run_benchmark.sh
"$run" "$work" bench_cholesky_nine_workstations 9 nine_workstations \
  "$work/nine_workstations_cholesky" "${2:-1000,2000,3000,4000,5000,6000,7000,8000}"
for cluster in switched_cluster_64 omnipath_cluster_44; do
  echo
  "$run" "$work" bench_cholesky_switched_cluster 39 $cluster \
    "$work/${cluster}_cholesky" $cluster "${3:-10000}" "${4:-125}" "${5:-25}"
done
