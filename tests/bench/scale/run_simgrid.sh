#!/usr/bin/env bash
# A simulated heterogeneous cluster at scale (issue 32): NODES nodes of RANKS_PER_NODE ranks
# (default 16 x 16 = 256), three node generations of relative speed 1, 2 and 4 (the first
# third of the nodes old, the next third middle, the rest new; SPEED Gflop/s per core for the
# old ones), every node's ranks sharing one LINK_GBPS link into a non-blocking switch (ranks of
# one node talk over a 50 GB/s memory bus; write_platform.py). For GEMM, LU, QR and Cholesky
# at order N, the run time's own planner chooses a layout and hetscal's kernel runs on it and
# on 2D block-cyclic over all ranks (tests/simgrid/bench_scale_cluster.cpp); flops are injected and matrices live
# in SMPI shared memory, so real memory stays small whatever N.
# N defaults to the smallest multiple of 1024 at which 2DBC gives every rank MIB_PER_RANK MiB
# of matrix (default 64: N = 47104 on 256 ranks).
#
# Prints the plans and times, then, last, one line per routine:
#   scale: ranks=256 LU N=47104 hetscal vs 2DBC 1.93x, of theory 0.83, model/simulated 1.04
#
# usage: run_simgrid.sh [BUILD_DIR]          (default build/simgrid, configured with smpicxx)
# Environment: NODES (16), RANKS_PER_NODE (16), N, MIB_PER_RANK (64), ROUTINES
# ("gemm,lu,qr,cholesky"), SPEED (10, Gflop/s of an old core), LINK_GBPS (100), SMPI_OPTIONS
# (more smpirun options).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
work=${1:-$repo/build/simgrid}
nodes=${NODES:-16} per_node=${RANKS_PER_NODE:-16}
ranks=$((nodes * per_node))
speed=${SPEED:-10} link_gbps=${LINK_GBPS:-100}
routines=${ROUTINES:-gemm,lu,qr,cholesky}
if [[ -z ${N:-} ]]; then
  N=$(python3 -c "import math,sys; p,mib=int(sys.argv[1]),float(sys.argv[2]); \
n=math.ceil(math.sqrt(p*mib*2**20/8)); print(-(-n//1024)*1024)" "$ranks" "${MIB_PER_RANK:-64}")
fi
(( nodes >= 1 && per_node >= 1 && N >= 1 )) || { echo "$0: bad NODES, RANKS_PER_NODE or N" >&2; exit 2; }

mkdir -p "$work"
platform=$work/scale_${nodes}x${per_node}
python3 "$here/write_platform.py" "$platform" "$nodes" "$per_node" "$speed" "$link_gbps"

cmake -S "$repo" -B "$work" -DHETSCAL_SIMGRID=ON -DCMAKE_C_COMPILER=smpicc \
  -DCMAKE_CXX_COMPILER=smpicxx -DCMAKE_BUILD_TYPE=Release -DHETSCAL_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$work" --target bench_scale_cluster -j 2 >/dev/null
export OPENBLAS_NUM_THREADS=1
link_bytes=$(python3 -c "import sys; print(float(sys.argv[1]) * 1e9 / 8)" "$link_gbps")
# smpi/test: 1 µs per MPI_Test instead of SimGrid's 100 µs (tests/simgrid/run_benchmark.sh).
# smpi/coll-selector: Open MPI's choice of collective algorithms; SMPI's default Allgather
# posts all P² messages at once, which at 256 ranks keeps the network solver busy for minutes.
# smpi/shared-malloc-blocksize: every shared allocation (matrices and, shared_workspace.cpp,
# the kernels' workspace) maps a 16 MiB file block after block; 1 MiB blocks would need
# tens of thousands of mappings at N = 47104.
smpirun -np "$ranks" -platform "$platform.xml" -hostfile "$platform.hosts" \
  --cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc:global --cfg=smpi/coll-selector:ompi --cfg=smpi/test:1e-6 \
  --cfg=smpi/shared-malloc-blocksize:16777216 \
  --log=root.thres:warning ${SMPI_OPTIONS:-} \
  "$work/tests/simgrid/bench_scale_cluster" "$per_node" "$link_bytes" 2e-6 "$N" "$routines"
