#!/usr/bin/env bash
# The per-call overhead of a cached-plan call against P (issue 32): for each P, P/16 nodes of
# 16 ranks of the cluster of write_platform.py, tests/simgrid/bench_call_overhead.cpp prints
# what a PDGEMM with a cached plan does around its kernel (speed agreement, plan lookup, the
# two redistribution plans, the stage agreements; the grid communicators, built once per
# plan, for scale). Collectives in simulated seconds; local work in CPU seconds of the
# slowest rank (SimGrid runs the ranks one at a time in one thread, so a loaded machine does
# not inflate them).
#
# usage: run_overhead.sh [BUILD_DIR [P ...]]      (default build/simgrid, P = 16 64 256 1024)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
work=${1:-$repo/build/simgrid}
shift || true
counts=("$@")
[[ ${#counts[@]} -gt 0 ]] || counts=(16 64 256 1024)
cmake -S "$repo" -B "$work" -DHETSCAL_SIMGRID=ON -DCMAKE_C_COMPILER=smpicc \
  -DCMAKE_CXX_COMPILER=smpicxx -DCMAKE_BUILD_TYPE=Release -DHETSCAL_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$work" --target bench_call_overhead -j 2 >/dev/null
export OPENBLAS_NUM_THREADS=1
printf '%6s %7s %12s %13s %20s %10s %16s\n' P N agreement_s lookup_cpu_s redistribution_cpu_s \
  stages_s communicators_s
rows=0
for p in "${counts[@]}"; do
  (( p % 16 == 0 )) || { echo "$0: P = $p is not a multiple of 16 ranks per node" >&2; exit 2; }
  platform=$work/scale_$((p / 16))x16
  python3 "$here/write_platform.py" "$platform" $((p / 16)) 16 10 100
  smpirun -np "$p" -platform "$platform.xml" -hostfile "$platform.hosts" \
    --cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc:global --cfg=smpi/coll-selector:ompi --log=root.thres:warning \
    "$work/tests/simgrid/bench_call_overhead" 16
  rows=$((rows + 1))
done
[[ $rows -eq ${#counts[@]} ]] || { echo "run_overhead.sh: $rows rows of ${#counts[@]}" >&2; exit 1; }
