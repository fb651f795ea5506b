#!/usr/bin/env bash
# Planning time against the number of processors (issue 32): hetscal-plan --model runs the
# runtime's own planner (core::choose_lu_plan, choose_qr_plan, choose_cholesky_plan; GEMM the
# model's generic candidates through the same search) on P processors of speeds 1, 2, 4 in
# turn, a switched network, for each routine and order, and prints per run the wall seconds
# of the planner in this one process (planning_s) and its CPU seconds (cpu_s), the largest share of one rank when the
# runtime splits the pricing over the P ranks (planning_per_rank_s), the candidates built and
# pruned, the choice, and the CPU seconds of the whole command (planning, the split's timed
# slices and the report: on a busy machine the wall times count the other processes too).
# With EXHAUSTIVE=1 the full search is run instead (P <= 128).
# Not a test: run on a quiet machine and say what else was running.
#
# usage: planning_time.sh [P ...]      (default 16 128 1024 16384)
# Environment: HETSCAL_BUILD_DIR (default build), ROUTINES (default "lu qr cholesky gemm"),
# ORDERS (default "100000 1000000"), FLOPS (flop/s of the fastest processor, default 1e10),
# MEMORY (bytes per processor, default 6.4e10), EXHAUSTIVE (0).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
build=${HETSCAL_BUILD_DIR:-$repo/build}
plan=$build/src/tools/hetscal-plan
routines=${ROUTINES:-lu qr cholesky gemm}
orders=${ORDERS:-100000 1000000}
flops=${FLOPS:-1e10} memory=${MEMORY:-6.4e10}
counts=("$@")
[[ ${#counts[@]} -gt 0 ]] || counts=(16 128 1024 16384)
extra=()
[[ ${EXHAUSTIVE:-0} == 1 ]] && extra=(--exhaustive)
speeds_file=$(mktemp) cpu_file=$(mktemp) json_file=$(mktemp)
trap 'rm -f "$speeds_file" "$cpu_file" "$json_file"' EXIT

printf '%-9s %6s %9s %10s %10s %12s %10s %7s  %s\n' routine P N planning_s cpu_s per_rank_s candidates pruned chosen
runs=0
for p in "${counts[@]}"; do
  python3 -c "import sys; print(','.join(('1','2','4')[i % 3] for i in range(int(sys.argv[1]))))" "$p" >"$speeds_file"
  for routine in $routines; do
    for n in $orders; do
      # The whole command's CPU seconds too: on a shared machine, wall time counts the others.
      /usr/bin/time -f "%U %S" -o "$cpu_file" "$plan" --speeds "$(cat "$speeds_file")" --model "$routine" \
        --order "$n" --network switched --flops "$flops" --memory "$memory" --json "${extra[@]}" >"$json_file"
      python3 - "$routine" "$p" "$n" "$(cat "$cpu_file")" "$json_file" <<'PY'
import json, sys
routine, p, n, cpu, path = sys.argv[1:]
m = json.load(open(path))["model"]
user, system = (float(x) for x in cpu.split())
print(f"{routine:<9} {p:>6} {n:>9} {m['planning_s']:>10.3f} {m['planning_cpu_s']:>10.3f} {m['planning_per_rank_s']:>12.4f} "
      f"{m['candidates']:>10} {m['pruned']:>7}  {m['chosen']['label']} nb={m['chosen']['tile']} "
      f"{m['chosen']['total_s']:.4g} s; command cpu {user + system:.2f} s")
PY
      runs=$((runs + 1))
    done
  done
done
expected=$(( ${#counts[@]} * $(wc -w <<<"$routines") * $(wc -w <<<"$orders") ))
[[ $runs -eq $expected ]] || { echo "planning_time.sh: $runs runs of $expected" >&2; exit 1; }
