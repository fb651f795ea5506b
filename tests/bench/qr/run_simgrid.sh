#!/usr/bin/env bash
# Simulated QR (issue 11): builds bench_qr_nine_workstations with SimGrid's smpicxx, runs it
# and prints its table; the CSV and the SVG plot land in the build directory. The 9
# workstations (Boudet et al. 1999, Table 3, Figures 14-15; shared 100 Mb/s Ethernet) on 3x3
# and 2x4 grids: the heterogeneous grid (panels on the diagonal owner and on the fastest rank)
# versus 2DBC, N = 1000..8000, with the speedup W predicts (S_W) and achieved/S_W (of_S_W).
# Usage: run_simgrid.sh [BUILD_DIR [N_LIST]]   defaults: build/simgrid, 1000..8000
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
work=${1:-$repo/build/simgrid}
"$repo/tests/simgrid/run_benchmark.sh" "$work" bench_qr_nine_workstations 9 nine_workstations \
  "$work/nine_workstations_qr" "${2:-1000,2000,3000,4000,5000,6000,7000,8000}"
