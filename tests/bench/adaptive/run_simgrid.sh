#!/usr/bin/env bash
# The adaptive scenario simulated (issue 12; README, "Speeds learnt at run time"): builds
# bench_adaptive_nine_workstations with SimGrid's smpicxx and runs it on
# tests/simgrid/platforms/nine_workstations_slowing.xml, a loop of CALLS GEMMs of order N in
# which guinness (rank 1) turns 3x slower after a quarter of the loop: hetscal's static plan,
# the run time's adaptation, the oracle and 2D block-cyclic, each a full loop. Prints the time
# of every call and the summary, writes OUT_DIR/nine_workstations_adaptive.csv and draws the
# time per call into OUT_DIR/nine_workstations_adaptive.png (tests/report/report.py, which
# also writes OUT_DIR/report.md). Simulated times are deterministic: one run is enough.
# Usage: run_simgrid.sh [N [CALLS [OUT_DIR]]]   (default 3000, 20, BUILD/simgrid/adaptive)
# Environment: HETSCAL_SIMGRID_BUILD_DIR (default build/simgrid), HETSCAL_PYTHON (default
# /usr/bin/python3, where python3-matplotlib lives), NB (2DBC's tile size, default 64).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
n=${1:-3000} calls=${2:-20}
work=${HETSCAL_SIMGRID_BUILD_DIR:-$repo/build/simgrid}
out=${3:-$work/adaptive}
python=${HETSCAL_PYTHON:-/usr/bin/python3}
mkdir -p "$out"
"$repo/tests/simgrid/run_benchmark.sh" "$work" bench_adaptive_nine_workstations 9 \
  nine_workstations_slowing "$out/nine_workstations_adaptive" "$n" "$calls" "${NB:-64}"
PYTHONDONTWRITEBYTECODE=1 "$python" "$repo/tests/report/report.py" "$out" \
  --scale "adaptive scenario only" --settings "N = $n, $calls calls" \
  --expect nine_workstations_adaptive >/dev/null
echo "figure: $out/nine_workstations_adaptive.png (report: $out/report.md)"
