#!/usr/bin/env bash
# Real-run QR benchmarks on 2 ranks (no oversubscription), OPENBLAS_NUM_THREADS=1, one table
# (bench_qr_real, tests/bench/panel_rank_run_real.sh): hetscal's kernel vs ScaLAPACK pdgeqrf_
# at its best block size on 2 equal ranks (issue 11's target: >= 1.3), then rank 1 slowed 3x
# with hetscal's planned grid (panels on the diagonal owner and on the fastest rank) vs both;
# GFLOP/s by LAWN 41's GEQRF count.
# Usage: run_real.sh [BUILD_DIR ["N_LIST" [REPS ["NB_LIST" [PRECISION]]]]]
#        (default: build, "4000 8000", 3, "32,64,128,256", d; z: PZGEQRF on complex data)
bench_name=qr
routine=PDGEQRF
target=1.3
source "$(dirname "${BASH_SOURCE[0]}")/../panel_rank_run_real.sh"
