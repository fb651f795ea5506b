#!/usr/bin/env bash
# Planning time against the number of processors (issue 32): hetscal-plan --model runs the
# runtime's own planner (core::choose_lu_plan, choose_qr_plan, choose_cholesky_plan; GEMM the
# model's generic candidates through the same search) on P processors of speeds 1, 2, 4 in
# turn, a network (NETWORK, default switched), for each routine and order, and prints per run the wall seconds
# of the planner in this one process (planning_s) and its CPU seconds (cpu_s), the largest share of one rank when the
# runtime splits the pricing over the P ranks (planning_per_rank_s), the candidates built and
# pruned, the choice, and the CPU seconds of the whole command (planning, the split's timed
# slices and the report: on a busy machine the wall times count the other processes too).
# With EXHAUSTIVE=1 the full search is run instead (P <= 128).
# Not a test: run on a quiet machine and say what else was running.
#
# Last, a table of the planner's CPU seconds against P (one column per routine and order), and
# the same as a PNG plot (planning_time.png, or $PLOT) when python3 has matplotlib.
#
# usage: planning_time.sh [P ...]      (default 2 16 128 1024 16384)
# Environment: HETSCAL_BUILD_DIR (default build), ROUTINES (default "lu qr cholesky gemm"),
# ORDERS (default "100000 1000000"), FLOPS (flop/s of the fastest processor, default 1e10),
# MEMORY (bytes per processor, default 6.4e10), EXHAUSTIVE (0), NETWORK (hetscal-plan's
# network options, default "--network switched": 100 Mb/s links, where most large problems
# keep the caller's layout; the README's table also runs "--network shared" at the default
# flop rate, and a cluster's "--network switched --bandwidth 1.25e10 --latency 2e-6
# --ranks-per-node 32", where heterogeneous grids win and many of them are priced).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
build=${HETSCAL_BUILD_DIR:-$repo/build}
plan=$build/src/tools/hetscal-plan
routines=${ROUTINES:-lu qr cholesky gemm}
orders=${ORDERS:-100000 1000000}
flops=${FLOPS:-1e10} memory=${MEMORY:-6.4e10}
read -r -a network <<<"${NETWORK:---network switched}"
counts=("$@")
[[ ${#counts[@]} -gt 0 ]] || counts=(2 16 128 1024 16384)
extra=()
[[ ${EXHAUSTIVE:-0} == 1 ]] && extra=(--exhaustive)
speeds_file=$(mktemp) cpu_file=$(mktemp) json_file=$(mktemp) table_file=$(mktemp) error_file=$(mktemp)
trap 'rm -f "$speeds_file" "$cpu_file" "$json_file" "$table_file" "$error_file"' EXIT

printf '%-9s %6s %9s %10s %10s %12s %10s %7s  %s\n' routine P N planning_s cpu_s per_rank_s candidates pruned chosen
runs=0
for p in "${counts[@]}"; do
  python3 -c "import sys; print(','.join(('1','2','4')[i % 3] for i in range(int(sys.argv[1]))))" "$p" >"$speeds_file"
  for routine in $routines; do
    for n in $orders; do
      # The whole command's CPU seconds too: on a shared machine, wall time counts the others.
      if ! /usr/bin/time -f "%U %S" -o "$cpu_file" "$plan" --speeds "$(cat "$speeds_file")" --model "$routine" \
        --order "$n" "${network[@]}" --flops "$flops" --memory "$memory" --json "${extra[@]}" \
        >"$json_file" 2>"$error_file"; then
        # A problem too large for P processors' memory is a result (no plan), anything else a failure.
        grep -q "fits in memory" "$error_file" || { cat "$error_file" >&2; exit 1; }
        printf '%-9s %6s %9s  none of the candidates fits in memory\n' "$routine" "$p" "$n"
        runs=$((runs + 1))
        continue
      fi
      python3 - "$routine" "$p" "$n" "$(cat "$cpu_file")" "$json_file" "$table_file" <<'PY'
import json, sys
routine, p, n, cpu, path, table = sys.argv[1:]
m = json.load(open(path))["model"]
user, system = (float(x) for x in cpu.split())
with open(table, "a") as t:
    t.write(f"{routine} {p} {n} {m['planning_cpu_s']} {m['planning_per_rank_s']}\n")
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

# Planning CPU seconds against P: one row per P, one column per routine and order (and the
# largest one-rank share when split over the P ranks, per_rank).
python3 - "$table_file" "${PLOT:-planning_time.png}" <<'PY'
import sys
rows = [line.split() for line in open(sys.argv[1])]
columns = sorted({(r[0], int(r[2])) for r in rows}, key=lambda c: (c[0], c[1]))
counts = sorted({int(r[1]) for r in rows})
cpu = {(r[0], int(r[1]), int(r[2])): (float(r[3]), float(r[4])) for r in rows}
print()
print("planning CPU seconds (per rank when split over P ranks) against P")
print(f"{'P':>6} " + " ".join(f"{f'{c[0]} N={c[1]:.0e}':>22}" for c in columns))
for p in counts:
    cells = []
    for c in columns:
        value = cpu.get((c[0], p, c[1]))
        cells.append(f"{f'{value[0]:.3f} ({value[1]:.3f})' if value else '-':>22}")
    print(f"{p:>6} " + " ".join(cells))
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("(no plot: python3 has no matplotlib)")
    sys.exit(0)
for c in columns:
    points = [(p, cpu[(c[0], p, c[1])][0]) for p in counts if (c[0], p, c[1]) in cpu]
    plt.loglog([x for x, _ in points], [y for _, y in points], marker="o", label=f"{c[0]} N={c[1]:.0e}")
plt.xlabel("processors P")
plt.ylabel("planning CPU seconds")
plt.legend()
plt.savefig(sys.argv[2], dpi=100)
print(f"plot: {sys.argv[2]}")
PY
