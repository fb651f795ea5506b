#!/usr/bin/env bash
# Benchmark (not a test): the unchanged ScaLAPACK program examples/scalapack/pdgeqrf_example.f90 on 2 ranks
# with rank 1 slowed, plain ScaLAPACK against hetscal preloaded (tests/bench/factorization_run_shim.sh).
# Usage: run_shim.sh [BUILD_DIR ["N_LIST" [RUNS [NB [FACTOR]]]]]
#        (default: build, "4000 8000", 3, 128, 3)
routine=PDGEQRF
example=pdgeqrf_example
source "$(dirname "${BASH_SOURCE[0]}")/../factorization_run_shim.sh"
