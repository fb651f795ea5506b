#!/usr/bin/env bash
# Real-run LU benchmarks on 2 ranks (no oversubscription), OPENBLAS_NUM_THREADS=1, one table
# (bench_lu_real, tests/bench/panel_rank_run_real.sh): hetscal's kernel vs ScaLAPACK pdgetrf_
# at its best block size on 2 equal ranks (issue 10's target: >= 1.2), then rank 1 slowed 3x
# with hetscal's planned grid (panels on the diagonal owner and on the fastest rank) vs both.
# Usage: run_real.sh [BUILD_DIR ["N_LIST" [REPS ["NB_LIST" [PRECISION]]]]]
#        (default: build, "4000 8000", 3, "32,64,128,256", d; z: PZGETRF on complex data)
bench_name=lu
routine=PDGETRF
target=1.2
source "$(dirname "${BASH_SOURCE[0]}")/../panel_rank_run_real.sh"
