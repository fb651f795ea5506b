#!/usr/bin/env bash
# The main job on a built-in default: set-up (packages, configure, build), then plan the
# 9 heterogeneous workstations of Boudet, Petitet, Rastello & Robert (1999), Table 3, on a
# 2D grid and draw the resulting distribution of a matrix.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${HETSCAL_BUILD_DIR:-$repo/build}
bash "$repo/cmake/bootstrap.sh"
"$build/src/tools/hetscal-plan" --cycle-times 7.8,1.0,1.0,4.0,1.0,6.3,7.8,7.95,8.0 \
  --picture "$build/demo-plan.svg" "$@"
echo "picture of the distribution: $build/demo-plan.svg"
