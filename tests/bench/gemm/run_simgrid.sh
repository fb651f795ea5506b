#!/usr/bin/env bash
# Simulated GEMM on the 9 workstations (Boudet et al. 1999, Figures 10-11): builds hetscal's
# MPI-only layers and bench_nine_workstations with SimGrid's smpicxx (as cmake/CheckSimgrid.cmake
# does), runs it on tests/simgrid/platforms/nine_workstations.xml and prints the table; the
# CSV and the SVG plot land next to the build.
# Usage: run_simgrid.sh [BUILD_DIR [NB [N_LIST]]]   (default build/simgrid, 64, 1000..8000)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
work=${1:-$repo/build/simgrid}
nb=${2:-64}
sizes=${3:-1000,2000,3000,4000,5000,6000,7000,8000}
platforms=$repo/tests/simgrid/platforms

cmake -S "$repo" -B "$work" -DHETSCAL_SIMGRID=ON -DCMAKE_C_COMPILER=smpicc \
  -DCMAKE_CXX_COMPILER=smpicxx -DCMAKE_BUILD_TYPE=Release -DHETSCAL_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$work" --target bench_nine_workstations -j 2 >/dev/null
export OPENBLAS_NUM_THREADS=1
smpirun -np 9 -platform "$platforms/nine_workstations.xml" -hostfile "$platforms/nine_workstations.hosts" \
  --cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc:global --log=root.thres:warning \
  "$work/tests/simgrid/bench_nine_workstations" "$work/nine_workstations_gemm" "$nb" "$sizes"
