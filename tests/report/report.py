"""Renders the benchmark report: every figure of FIGURES whose CSV file the run wrote into
OUT_DIR becomes OUT_DIR/<stem>.png, and OUT_DIR/report.md shows the figures, their tables and
their headline numbers, then the pictures of the planned distributions (plan_*.png, each
with hetscal-plan's text report plan_*.txt). The headlines are also printed.

Usage: report.py OUT_DIR --scale NAME --settings TEXT [--expect STEM...]
Adding a routine's figure is one entry in FIGURES.
"""
import argparse
import datetime
import sys
from pathlib import Path

from csv_table import read_rows
from figures import (
    AnyProcessorCount,
    Curve,
    PatternCosts,
    RealRuns,
    SimulatedAdaptation,
    TimePerCall,
    TimesVersusSize,
)

SEED_000 = "Boudet, Petitet, Rastello & Robert 1999"
SEED_002 = "Beaumont et al. 2023"


def _theoretical(row):
    """2DBC's simulated time divided by the speedup the work rates predict."""
    return row["cyclic_s"] / row["w_speedup"]


def pivoting_factorization(routine, title, source):
    """LU or QR on the 9 workstations (tests/simgrid/bench_<routine>_nine_workstations): 2DBC,
    the heterogeneous grid with panels on the diagonal owner and on the fastest rank."""
    return TimesVersusSize(
        f"nine_workstations_{routine}",
        title,
        source,
        [
            Curve("cyclic (2DBC)", "cyclic_s"),
            Curve("heterogeneous", "hetero_s"),
            Curve("heterogeneous, fastest rank's panels", "hetero_fastest_s"),
            Curve("theoretical", _theoretical),
        ],
        group="grid",
    )


NINE_WORKSTATIONS = [
    TimesVersusSize(
        "nine_workstations_gemm",
        "GEMM",
        "Boudet1999, Figures 10-11",
        [
            Curve("cyclic (2DBC)", "cyclic_s"),
            Curve("heterogeneous", "hetero_s"),
            Curve("theoretical", "theoretical_s"),
        ],
        group="grid",
        ideal="theoretical_speedup",
    ),
    pivoting_factorization("lu", "LU", "Boudet1999, Figures 12-13"),
    pivoting_factorization("qr", "QR", "Boudet1999, Figures 14-15"),
    TimesVersusSize(
        "nine_workstations_cholesky",
        "Cholesky",
        "hetscal's plan on the same ranks",
        [
            Curve("cyclic (2DBC)", "cyclic_s"),
            Curve("hetscal's plan", "plan_s"),
            Curve("theoretical", _theoretical),
        ],
    ),
]
ANY_P = [
    fig
    for cluster in ("switched_cluster_64", "omnipath_cluster_44")
    for fig in (
        AnyProcessorCount(f"{cluster}_lu", f"LU on {cluster}", "Table I(a)", "G-2DBC", "g2dbc"),
        AnyProcessorCount(
            f"{cluster}_cholesky", f"Cholesky on {cluster}", "Table I(b)", "GCR&M", "gcrm"
        ),
    )
]
FIGURES = [
    (
        "Boudet1999: the 9 workstations, simulated (Figures 10-15, and Cholesky)",
        f"{SEED_000}, Table 3's nine workstations on one shared Ethernet (SimGrid): the same "
        "kernel on ScaLAPACK's 2D block-cyclic distribution (cyclic) and on the planner's "
        "heterogeneous grid, next to the theoretical time 2DBC / S, S the speedup the "
        "steady-state work rates predict. Fraction = achieved speedup / S.",
        NINE_WORKSTATIONS,
    ),
    (
        "Beaumont2023: Table I's costs",
        f"{SEED_002}: the communication costs of the patterns hetscal's core builds "
        "(`bench_table_one`), next to the paper's. For P = 23 the paper prints T = 9.261 for "
        "G-2DBC, below 2√23 = 9.59, the bound every balanced pattern meets; the paper's own "
        "construction gives 9.652. A p×q 2DBC grid costs T = p + q (Table I prints P for the P×1 "
        "grids) and z̄ = p + q − 1.",
        [PatternCosts("table_one", "Table I", "Beaumont2023")],
    ),
    (
        "Beaumont2023: any number of nodes, simulated",
        "Homogeneous switched clusters (SimGrid): G-2DBC (LU) and GCR&M (Cholesky) on all P nodes "
        "against the best 2D block-cyclic grid on P nodes and on fewer nodes.",
        ANY_P,
    ),
    (
        "Real runs on 2 ranks of this machine",
        "Open MPI, OPENBLAS_NUM_THREADS=1, medians of interleaved repetitions. ScaLAPACK at its "
        "best block size and grid against hetscal: its block-cyclic kernel on equal ranks, its "
        "planned layout when rank 1 is slowed 3x by libhetscal-slowdown.so (applied to both). "
        "Ideal: the speedup perfect balance allows (the aggregate speed over twice the slowest "
        "rank's).",
        [RealRuns("real_two_ranks", "2 ranks", "real runs")],
    ),
    (
        "The adaptive scenario on the 9 workstations, simulated",
        f"Speeds learnt at run time (issue 12), on {SEED_000}'s nine workstations (SimGrid): a "
        "loop of GEMMs in which guinness (rank 1, one of the three fastest) turns 3x slower "
        "after a quarter of the loop (a speed profile of "
        "`tests/simgrid/platforms/nine_workstations_slowing.xml`; the change falls between two "
        "calls). hetscal's plan for the starting speeds kept throughout (static); the run "
        "time's adaptation, each call observing every rank's kernel flops over the simulated "
        "seconds they took and re-planning by the run time's rule (adaptive); planned for the "
        "true speeds of each call (oracle); ScaLAPACK's 2D block-cyclic distribution on 3x3 "
        "(2dbc). Kernel times only (`tests/bench/adaptive/run_simgrid.sh`).",
        [SimulatedAdaptation("nine_workstations_adaptive", "Adaptive scenario, 9 workstations", "SimGrid")],
    ),
    (
        "The adaptive scenario on 2 ranks of this machine",
        "Speeds learnt at run time (issue 12): a loop of calls where rank 1 turns 3x slower "
        "after a quarter of the loop (libhetscal-slowdown.so), no speeds given, medians of "
        "interleaved repetitions (`tests/bench/adaptive/run_real.sh`). Adaptive hetscal against "
        "ScaLAPACK and against the oracle, hetscal told each phase's true speeds with "
        "HETSCAL_ADAPT=0; and the same loop without slowdown, hetscal against ScaLAPACK. "
        "Targets: after the change within 1.15x of the oracle, the whole loop 1.7x faster than "
        "ScaLAPACK, homogeneous within 2 % of ScaLAPACK.",
        [TimePerCall("adaptive_two_ranks", "Adaptive scenario, 2 ranks", "real runs")],
    ),
]


def render_figure(figure, out_dir, lines, headlines):
    """Draws one figure and appends its section; returns False when its CSV is missing."""
    csv_path = out_dir / f"{figure.stem}.csv"
    if not csv_path.exists():
        return False
    rows = read_rows(csv_path)
    figure.plot(rows, out_dir / f"{figure.stem}.png")
    headline = figure.headline(rows)
    headlines.append(headline)
    lines += [
        f"### {figure.title} ({figure.source})",
        "",
        f"![{figure.title}]({figure.stem}.png)",
        "",
        f"**{headline}**",
        "",
        figure.table(rows),
        "",
        f"Data: `{figure.stem}.csv`.",
        "",
    ]
    return True


def plan_pictures(out_dir, lines):
    """The section of hetscal-plan's pictures found in `out_dir`."""
    pictures = sorted(out_dir.glob("plan_*.png"))
    if not pictures:
        return
    lines += ["## The chosen distributions (hetscal-plan)", ""]
    for picture in pictures:
        lines += [f"### {picture.stem}", "", f"![{picture.stem}]({picture.name})", ""]
        text = picture.with_suffix(".txt")
        if text.exists():
            lines += [
                "<details><summary>hetscal-plan's report</summary>",
                "",
                "```",
                text.read_text().rstrip(),
                "```",
                "",
                "</details>",
                "",
            ]


def render(out_dir, scale, settings):
    """Writes the PNGs and report.md; returns the headlines."""
    lines = [
        "# hetscal benchmark report",
        "",
        f"Scale **{scale}** ({settings}); rendered {datetime.datetime.now():%Y-%m-%d %H:%M}. "
        "Every figure below is drawn from the CSV file next to it, written by this run "
        "(`tests/report/run.sh`).",
        "",
    ]
    headlines, missing = [], []
    for heading, intro, figures in FIGURES:
        section = ["## " + heading, "", intro, ""]
        drawn = 0
        for figure in figures:
            if render_figure(figure, out_dir, section, headlines):
                drawn += 1
            else:
                missing.append(figure.stem)
        if drawn:
            lines += section
    plan_pictures(out_dir, lines)
    if missing:
        lines += [f"Not run at this scale: {', '.join(missing)}.", ""]
    (out_dir / "report.md").write_text("\n".join(lines))
    return headlines


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--scale", required=True)
    parser.add_argument("--settings", required=True, help="what the scale ran: sizes, repetitions")
    parser.add_argument("--expect", nargs="*", default=[], help="stems whose CSV must exist")
    args = parser.parse_args(argv)
    try:
        for stem in args.expect:
            if not (args.out_dir / f"{stem}.csv").exists():
                raise ValueError(f"{args.out_dir}/{stem}.csv was not written")
        headlines = render(args.out_dir, args.scale, args.settings)
    except (OSError, ValueError, KeyError) as error:
        print(f"report.py: {error}", file=sys.stderr)
        return 1
    print("\n".join(headlines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
