#!/usr/bin/env bash
# The whole test suite: set-up (packages, configure, build), then every ctest test.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$repo/cmake/bootstrap.sh"
export OPENBLAS_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cd "${HETSCAL_BUILD_DIR:-$repo/build}"
ctest --output-on-failure -j "$(nproc)" --timeout 600
