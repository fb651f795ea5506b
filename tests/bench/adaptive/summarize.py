"""Figures of the adaptive scenario (run_real.sh): reads the lines adaptive_loop printed, each
prefixed "<scenario> rep <k>: ", takes the median over repetitions of every call's time, writes
them as CSV (routine, n, scenario, change_call, call, seconds) for the report (tests/report, "the adaptive
scenario"), and prints the figures issue 12 sets targets for:
  - after the change (calls >= CHANGE_CALL): adaptive hetscal's time over the oracle's (<= 1.15)
  - the whole loop: ScaLAPACK's time over adaptive hetscal's (>= 1.7), beside what the
    oracle reached and an optimistic bound for any method that learns of the change only
    after the call it happened in (learning_bound)
  - homogeneous: hetscal's time over ScaLAPACK's (<= 1.02)

Usage: summarize.py RAW_FILE OUT_CSV --change-call C
"""
import argparse
import re
import statistics
import sys
from collections import defaultdict

LINE = re.compile(r"^(\w+) rep (\d+): adaptive_loop: (\w+) N=(\d+) call (\d+) seconds ([0-9.eE+-]+)$")
TARGETS = {"after the change": 1.15, "whole loop": 1.7, "homogeneous": 1.02}


def read_medians(path):
    """{(routine, n, scenario): {call: median seconds}}, calibration runs left out."""
    times = defaultdict(lambda: defaultdict(list))
    with open(path) as raw:
        for text in raw:
            match = LINE.match(text.strip())
            if not match or match.group(1) == "calibration":
                continue
            scenario, _, routine, n, call, seconds = match.groups()
            times[(routine, int(n), scenario)][int(call)].append(float(seconds))
    return {key: {call: statistics.median(v) for call, v in calls.items()} for key, calls in times.items()}


def total(per_call, first=1):
    return sum(seconds for call, seconds in per_call.items() if call >= first)


def learning_bound(scenario, change_call):
    """An optimistic whole-loop time for a method that is told nothing and learns of the change
    only after the call it happened in: each call before the change at the best of ScaLAPACK,
    the oracle and hetscal on the unslowed machine (its own learning included), the change's
    call at the better of ScaLAPACK and the adaptive run (both planned with the old speeds),
    then the oracle's calls. Per call minima of different runs: no one run can beat it."""
    best = 0.0
    for call, seconds in scenario["scalapack"].items():
        if call < change_call:
            best += min(seconds, scenario["oracle"][call], scenario["homogeneous_hetscal"][call])
        elif call == change_call:
            best += min(seconds, scenario["adaptive"][call])
        else:
            best += scenario["oracle"][call]
    return best


def figures(medians, change_call):
    """One line per (routine, n): the three ratios against their targets."""
    lines = []
    for routine, n in sorted({(r, n) for r, n, _ in medians}):
        scenario = {s: calls for (r, m, s), calls in medians.items() if (r, m) == (routine, n)}
        needed = ["scalapack", "adaptive", "oracle", "homogeneous_scalapack", "homogeneous_hetscal"]
        missing = [s for s in needed if s not in scenario]
        if missing:
            lines.append(f"{routine} N={n}: missing runs {', '.join(missing)}")
            continue
        after = total(scenario["adaptive"], change_call) / total(scenario["oracle"], change_call)
        settled = total(scenario["adaptive"], change_call + 2) / total(scenario["oracle"], change_call + 2)
        speedup = total(scenario["scalapack"]) / total(scenario["adaptive"])
        oracle = total(scenario["scalapack"]) / total(scenario["oracle"])
        bound = total(scenario["scalapack"]) / learning_bound(scenario, change_call)
        homogeneous = total(scenario["homogeneous_hetscal"]) / total(scenario["homogeneous_scalapack"])
        lines.append(
            f"{routine} N={n}: after the change adaptive/oracle x{after:.3f} "
            f"(from call {change_call + 2}: x{settled:.3f}; target <= {TARGETS['after the change']}), "
            f"whole loop ScaLAPACK/adaptive x{speedup:.3f} (target >= {TARGETS['whole loop']}; "
            f"the oracle x{oracle:.3f}, learning at most x{bound:.3f}), "
            f"homogeneous hetscal/ScaLAPACK x{homogeneous:.3f} (target <= {TARGETS['homogeneous']})"
        )
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("raw")
    parser.add_argument("csv")
    parser.add_argument("--change-call", type=int, required=True)
    args = parser.parse_args()
    medians = read_medians(args.raw)
    if not medians:
        sys.exit(f"summarize: no adaptive_loop lines in {args.raw}")
    with open(args.csv, "w") as out:
        out.write("routine,n,scenario,change_call,call,seconds\n")
        for (routine, n, scenario), calls in sorted(medians.items()):
            for call, seconds in sorted(calls.items()):
                out.write(f"{routine},{n},{scenario},{args.change_call},{call},{seconds:.6g}\n")
    for line in figures(medians, args.change_call):
        print("adaptive: " + line)


if __name__ == "__main__":
    main()
