#!/usr/bin/env bash
# Builds one simulated benchmark with SimGrid's smpicxx (hetscal's MPI-only layers, as
# cmake/CheckSimgrid.cmake does) and runs it on a platform of tests/simgrid/platforms/, with
# flops injected and matrices in SMPI shared memory. Shared by tests/bench/*/run_simgrid.sh.
# Usage: run_benchmark.sh BUILD_DIR TARGET RANKS PLATFORM [PROGRAM_ARGS...]
#   PLATFORM names PLATFORM.xml and PLATFORM.hosts (rank i on the i-th host).
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 BUILD_DIR TARGET RANKS PLATFORM [PROGRAM_ARGS...]" >&2
  exit 2
fi
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$1 target=$2 ranks=$3 platform=$repo/tests/simgrid/platforms/$4
shift 4
for file in "$platform.xml" "$platform.hosts"; do
  [ -f "$file" ] || { echo "$0: no platform file $file" >&2; exit 2; }
done

cmake -S "$repo" -B "$work" -DHETSCAL_SIMGRID=ON -DCMAKE_C_COMPILER=smpicc \
  -DCMAKE_CXX_COMPILER=smpicxx -DCMAKE_BUILD_TYPE=Release -DHETSCAL_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$work" --target "$target" -j 2 >/dev/null
export OPENBLAS_NUM_THREADS=1
# smpi/test: SimGrid charges each MPI_Test 100 µs by default (to keep busy-wait loops from
# spinning), about 100 times what a test costs a real MPI; the Cholesky kernel tests for a
# late diagonal factor between its update's tile columns: charge 1 µs, as its smoke check does.
smpirun -np "$ranks" -platform "$platform.xml" -hostfile "$platform.hosts" \
  --cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc:global --cfg=smpi/test:1e-6 \
  --log=root.thres:warning \
  "$work/tests/simgrid/$target" "$@"
