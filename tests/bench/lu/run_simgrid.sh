#!/usr/bin/env bash
# Simulated LU (issue 10): builds the two benchmarks with SimGrid's smpicxx, runs them and
# prints their tables; the CSVs land in the build directory (tests/report draws them).
#  1. the 9 workstations (Boudet et al. 1999, Table 3, Figures 12-13; shared 100 Mb/s
#     Ethernet) on 3x3 and 2x4 grids: the heterogeneous grid (panels on the diagonal owner
#     and on the fastest rank) versus 2DBC, N = 1000..8000, with the speedup W predicts and
#     achieved/predicted;
#  2. homogeneous switched clusters, P = 23, 31, 35, 39 (Beaumont2023, Table I(a), Figure 7a):
#     G-2DBC versus the best 2DBC on P and on fewer nodes; on switched_cluster_64 (10 Gflop/s
#     nodes, 10 Gb/s links) and on omnipath_cluster_44 (Beaumont2023's ratio of tile transfer to
#     update).
# Usage: run_simgrid.sh [BUILD_DIR [N_LIST [CLUSTER_N [CLUSTER_NB [CLUSTERS]]]]]
#   defaults: build/simgrid, 1000..8000, 10000, 125, "switched_cluster_64 omnipath_cluster_44"
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
work=${1:-$repo/build/simgrid}
run=$repo/tests/simgrid/run_benchmark.sh
"$run" "$work" bench_lu_nine_workstations 9 nine_workstations \
  "$work/nine_workstations_lu" "${2:-1000,2000,3000,4000,5000,6000,7000,8000}"
for cluster in ${5:-switched_cluster_64 omnipath_cluster_44}; do
  echo
  "$run" "$work" bench_lu_switched_cluster 39 "$cluster" \
    "$work/${cluster}_lu" "$cluster" "${3:-10000}" "${4:-125}"
done
