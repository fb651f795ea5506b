"""Turns the outputs of the real-run benchmarks (tests/bench/<routine>/bench_<routine>_real,
saved by run.sh as real_<routine>_<scenario>_<N>.txt) into one CSV row per run: the best
ScaLAPACK variant against hetscal's (its block-cyclic kernel on equal ranks, its planned
layout under the slowdown), with the ideal speedup the ranks' speeds allow.

Usage: real_runs.py OUTPUT.csv --speeds 1,0.333333333333 FILE...
"""
import argparse
import csv
import re
import sys
from pathlib import Path

FILE_NAME = re.compile(
    r"real_(?P<routine>[a-z]+)_(?P<scenario>homogeneous|slowed)_(?P<n>\d+)\.txt$"
)
# A variant's result line: its name, then (grid,) nb, median seconds and GFLOP/s.
VARIANT = re.compile(
    r"^(?P<name>(scalapack|hetscal)_\S+)\s+(\S+\s+)?(?P<nb>\d+)\s+(?P<median>[\d.]+)\s+[\d.]+\s*$"
)
COLUMNS = [
    "routine",
    "scenario",
    "n",
    "scalapack_variant",
    "scalapack_nb",
    "scalapack_s",
    "hetscal_variant",
    "hetscal_nb",
    "hetscal_s",
    "speedup",
    "ideal_speedup",
    "fraction",
]


def variants(text, path):
    """{name: (nb, median seconds)} of one benchmark output. Raises ValueError when the
    benchmark did not check its results or printed no variant."""
    if "results checked" not in text:
        raise ValueError(f"{path}: the benchmark did not report 'results checked'")
    found = {}
    for line in text.splitlines():
        match = VARIANT.match(line)
        if match:
            found[match["name"]] = (int(match["nb"]), float(match["median"]))
    if not found:
        raise ValueError(f"{path}: no variant lines")
    return found


def fastest(found, keep, path, what):
    """(name, nb, seconds) of the fastest variant whose name passes `keep`."""
    chosen = [(seconds, name, nb) for name, (nb, seconds) in found.items() if keep(name)]
    if not chosen:
        raise ValueError(f"{path}: no {what} variant")
    seconds, name, nb = min(chosen)
    return name, nb, seconds


def ideal_speedup(scenario, speeds):
    """What perfect balance gains over ScaLAPACK's even split: the aggregate speed over the
    slowest rank's speed times the rank count (2 for speeds 1 and 1/3); 1 on equal ranks."""
    if scenario == "homogeneous":
        return 1.0
    return sum(speeds) / (len(speeds) * min(speeds))


def row_of(path, speeds):
    """The CSV row of one saved benchmark output."""
    name = FILE_NAME.search(path.name)
    if name is None:
        raise ValueError(f"{path}: not named real_<routine>_<homogeneous|slowed>_<N>.txt")
    found = variants(path.read_text(), path)
    scenario = name["scenario"]
    sl_name, sl_nb, sl_s = fastest(found, lambda v: v.startswith("scalapack_"), path, "ScaLAPACK")
    planned = scenario == "slowed"
    hs_name, hs_nb, hs_s = fastest(
        found, lambda v: v.startswith("hetscal_") and ("planned" in v) == planned, path, "hetscal"
    )
    ideal = ideal_speedup(scenario, speeds)
    speedup = sl_s / hs_s
    return [
        name["routine"].upper(),
        "homogeneous" if not planned else "1:3 slowed",
        int(name["n"]),
        sl_name,
        sl_nb,
        f"{sl_s:.4f}",
        hs_name,
        hs_nb,
        f"{hs_s:.4f}",
        f"{speedup:.4f}",
        f"{ideal:.4f}",
        f"{speedup / ideal:.4f}",
    ]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output")
    parser.add_argument(
        "--speeds", required=True, help="relative speed per rank of the slowed runs"
    )
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    speeds = [float(s) for s in args.speeds.split(",")]
    if not speeds or min(speeds) <= 0:
        parser.error(f"--speeds {args.speeds}: every speed must be positive")
    try:
        rows = [row_of(path, speeds) for path in args.files]
    except (OSError, ValueError) as error:
        print(f"real_runs.py: {error}", file=sys.stderr)
        return 1
    with open(args.output, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(COLUMNS)
        writer.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
