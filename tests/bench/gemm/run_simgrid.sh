#!/usr/bin/env bash
# Simulated GEMM on the 9 workstations (Boudet et al. 1999, Figures 10-11): builds
# bench_nine_workstations with SimGrid's smpicxx, runs it on
# tests/simgrid/platforms/nine_workstations.xml and prints the table; the CSV lands in the
# build directory (tests/report/run.sh draws the figure).
# Usage: run_simgrid.sh [BUILD_DIR [NB [N_LIST]]]   (default build/simgrid, 64, 1000..8000)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
work=${1:-$repo/build/simgrid}
"$repo/tests/simgrid/run_benchmark.sh" "$work" bench_nine_workstations 9 nine_workstations \
  "$work/nine_workstations_gemm" "${2:-64}" "${3:-1000,2000,3000,4000,5000,6000,7000,8000}"
