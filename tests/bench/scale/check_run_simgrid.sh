#!/bin/bash
# The machinery of run_simgrid.sh on a small simulated cluster (4 nodes x 4 ranks, three
# generations, N = 2048): it builds, plans with the run time's planners, simulates every
# routine on hetscal's plan and on 2DBC (each simulated run checks its own flop count), and
# prints last one summary line per routine, GEMM, LU, QR, Cholesky, in the issue's exact
# form, with sane values: a speed-up above 1/4 and at most 1.5 of the theory's, a
# model/simulated ratio within a factor of 4. Not the performance targets (those are the
# 256-rank run's, README "At scale").
#
# usage: check_run_simgrid.sh BUILD_DIR      (the SimGrid build tree run_simgrid.sh uses)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../support/checks.sh"
output=$(mktemp)
trap 'rm -f "$output"' EXIT
NODES=4 RANKS_PER_NODE=4 N=2048 run_joined "$output" bash "$(dirname "${BASH_SOURCE[0]}")/run_simgrid.sh" "$1"
cat "$output"
[ "$status" -eq 0 ] || fail "run_simgrid.sh exited with status $status"
number='[0-9]+\.[0-9]{2}'
[ "$(count_matches '^scale: ' "$output")" -eq 4 ] || fail "not 4 summary lines"
routines=(GEMM LU QR Cholesky)
mapfile -t last < <(tail -n 4 "$output")
for i in 0 1 2 3; do
  line=${last[$i]}
  [[ $line =~ ^scale:\ ranks=16\ ${routines[$i]}\ N=2048\ hetscal\ vs\ 2DBC\ ($number)x,\ of\ theory\ ($number),\ model/simulated\ ($number)$ ]] ||
    fail "line $((i + 1)) of the last 4 is not ${routines[$i]}'s summary: '$line'"
  speedup=${BASH_REMATCH[1]} of_theory=${BASH_REMATCH[2]} ratio=${BASH_REMATCH[3]}
  awk -v s="$speedup" -v t="$of_theory" -v r="$ratio" \
    'BEGIN { exit !(s > 0.25 && t > 0 && t <= 1.5 && r >= 0.25 && r <= 4 && s / t > 1.9 && s / t < 2.1) }' ||
    fail "${routines[$i]}: insane figures ${speedup}x, of theory $of_theory, model/simulated $ratio"
done
echo "check_run_simgrid: 4 summary lines in the issue's form"
