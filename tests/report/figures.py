"""The report's figure kinds. Each draws one PNG from one CSV file with matplotlib (Agg
backend: no display needed) and describes it as a Markdown table and a headline sentence.
Which CSV files become which figures is the list in report.py."""
from dataclasses import dataclass, field

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (the backend must be chosen first)
from matplotlib.ticker import MaxNLocator  # noqa: E402

from csv_table import grouped, markdown_table  # noqa: E402

PANEL_SIZE = (5.2, 3.8)  # inches per panel
DPI = 100


def _save(figure, path):
    figure.tight_layout()
    figure.savefig(path, dpi=DPI)
    plt.close(figure)


def _line(ax, x, y, label):
    ax.plot(x, y, "-o", markersize=3, label=label)


def _finish_axes(ax, xlabel, ylabel):
    """Axis labels, a y axis from 0, a light grid and the legend."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)


def _panels(count):
    figure, axes = plt.subplots(
        1, count, figsize=(PANEL_SIZE[0] * count, PANEL_SIZE[1]), squeeze=False
    )
    return figure, list(axes[0])


@dataclass
class Curve:
    """One plotted series: its legend and how to get its value from a CSV row."""

    label: str
    value: object  # a column name, or a function of the row

    def of(self, row):
        return self.value(row) if callable(self.value) else row[self.value]


@dataclass
class TimesVersusSize:
    """Simulated times against N, one panel per value of `group` (the grid): Boudet1999's
    Figures 10-15. `speedup`, `ideal` and `fraction` name the CSV's columns for the
    achieved speedup over 2DBC, the speedup the work rates predict and their ratio."""

    stem: str
    title: str
    source: str
    curves: list
    group: str = None
    speedup: str = "speedup"
    ideal: str = "w_speedup"
    fraction: str = "fraction"

    def plot(self, rows, path):
        groups = grouped(rows, self.group)
        figure, axes = _panels(len(groups))
        for ax, (name, group_rows) in zip(axes, groups.items()):
            sizes = [r["n"] for r in group_rows]
            for curve in self.curves:
                _line(ax, sizes, [curve.of(r) for r in group_rows], curve.label)
            ax.set_title(f"{self.title}{', ' + name + ' grid' if name else ''}")
            _finish_axes(ax, "matrix size N", "simulated time (s)")
        _save(figure, path)

    def table(self, rows):
        header = ([self.group] if self.group else []) + ["N"] + [c.label for c in self.curves]
        header += ["speedup", "ideal", "fraction"]
        lines = [
            ([r[self.group]] if self.group else [])
            + [int(r["n"])]
            + [c.of(r) for c in self.curves]
            + [r[self.speedup], r[self.ideal], r[self.fraction]]
            for r in rows
        ]
        return markdown_table(header, lines)

    def headline(self, rows):
        parts = []
        for name, group_rows in grouped(rows, self.group).items():
            last = group_rows[-1]
            parts.append(
                f"{name + ': ' if name else ''}at N = {int(last['n'])} speedup "
                f"{last[self.speedup]:.2f} of the ideal {last[self.ideal]:.2f} "
                f"(fraction {last[self.fraction]:.2f})"
            )
        return f"{self.title}: " + "; ".join(parts)


@dataclass
class AnyProcessorCount:
    """Beaumont2023's experiment on a homogeneous cluster: the paper's pattern on all P nodes
    against the best 2DBC on P and on fewer nodes; simulated times and costs T against P."""

    stem: str
    title: str
    source: str
    pattern: str  # its name: "G-2DBC"
    csv_pattern: str  # its CSV column prefix: "g2dbc"
    layouts: list = field(
        default_factory=lambda: [
            ("cyclic_p", "best 2DBC on P"),
            ("cyclic_fewer", "best 2DBC on fewer nodes"),
        ]
    )

    def _named_layouts(self):
        return [(self.csv_pattern, f"{self.pattern} on P")] + self.layouts

    def plot(self, rows, path):
        figure, (times, costs) = _panels(2)
        nodes = [r["p"] for r in rows]
        for prefix, label in self._named_layouts():
            _line(times, nodes, [r[f"{prefix}_s"] for r in rows], label)
            _line(costs, nodes, [r[f"{prefix}_T"] for r in rows], label)
        costs.plot(
            nodes,
            [r[f"paper_{self.csv_pattern}_T"] for r in rows],
            "k*",
            label=f"{self.pattern} (paper)",
        )
        times.set_title(f"{self.title} (simulated)")
        costs.set_title(f"communication cost T ({self.source})")
        _finish_axes(times, "nodes P", "simulated time (s)")
        _finish_axes(costs, "nodes P", "T")
        _save(figure, path)

    def table(self, rows):
        layouts = self._named_layouts()
        header = (
            ["P"]
            + [f"{label}: shape, T, s" for _, label in layouts]
            + [f"paper T ({self.pattern})"]
        )
        lines = [
            [int(r["p"])]
            + [f"{r[p + '_shape']}, {r[p + '_T']:.3f}, {r[p + '_s']:.4g}" for p, _ in layouts]
            + [r[f"paper_{self.csv_pattern}_T"]]
            for r in rows
        ]
        return markdown_table(header, lines)

    def headline(self, rows):
        own = self.csv_pattern + "_s"
        parts = [
            f"P = {int(r['p'])}: {r['cyclic_p_s'] / r[own]:.2f}x faster than 2DBC on P, "
            f"{r['cyclic_fewer_s'] / r[own]:.2f}x than 2DBC on fewer"
            for r in rows
        ]
        return f"{self.title}, {self.pattern}: " + "; ".join(parts)


@dataclass
class PatternCosts:
    """Beaumont2023's Table I: the costs T of 2DBC, G-2DBC (LU) and GCR&M (Cholesky, symmetric
    cost) as hetscal's core builds them, next to the paper's values."""

    stem: str
    title: str
    source: str

    def plot(self, rows, path):
        figure, (lu, cholesky) = _panels(2)
        nodes = [r["p"] for r in rows]
        _line(lu, nodes, [r["cyclic_T"] for r in rows], "best 2DBC")
        _line(lu, nodes, [r["g2dbc_T"] for r in rows], "G-2DBC")
        _line(cholesky, nodes, [r["cyclic_sym_T"] for r in rows], "best 2DBC")
        _line(cholesky, nodes, [r["gcrm_T"] for r in rows], "GCR&M")
        for ax, column, name in (
            (lu, "paper_g2dbc_T", "G-2DBC"),
            (cholesky, "paper_gcrm_T", "GCR&M"),
        ):
            paper = [(r["p"], r[column]) for r in rows if isinstance(r[column], float)]
            if paper:
                ax.plot(*zip(*paper), "k*", label=f"{name} (paper)")
        lu.set_title("LU: T = x̄ + ȳ (Table I(a))")
        cholesky.set_title("Cholesky: z̄ (Table I(b))")
        _finish_axes(lu, "nodes P", "cost T")
        _finish_axes(cholesky, "nodes P", "cost z̄")
        _save(figure, path)

    def table(self, rows):
        header = [
            "P",
            "2DBC",
            "T",
            "z̄",
            "G-2DBC",
            "T",
            "paper T",
            "GCR&M r",
            "z̄",
            "paper r",
            "paper z̄",
        ]
        lines = [
            [
                int(r["p"]),
                r["cyclic_shape"],
                r["cyclic_T"],
                r["cyclic_sym_T"],
                r["g2dbc_shape"],
                r["g2dbc_T"],
                r["paper_g2dbc_T"],
                int(r["gcrm_r"]),
                r["gcrm_T"],
                r["paper_gcrm_r"],
                r["paper_gcrm_T"],
            ]
            for r in rows
        ]
        return markdown_table(header, lines)

    def headline(self, rows):
        parts = [
            f"P = {int(r['p'])}: G-2DBC T {r['g2dbc_T']:.3f} vs 2DBC {r['cyclic_T']:.0f}, "
            f"GCR&M z̄ {r['gcrm_T']:.3f} vs 2DBC {r['cyclic_sym_T']:.0f}"
            for r in rows
        ]
        return f"{self.title}: " + "; ".join(parts)


@dataclass
class RealRuns:
    """The real 2-rank runs: ScaLAPACK against hetscal for every routine, homogeneous and with
    rank 1 slowed 3x; bars of the speedup next to the ideal."""

    stem: str
    title: str
    source: str

    def plot(self, rows, path):
        figure, (ax,) = _panels(1)
        labels = [f"{r['routine']}\n{r['scenario']}\nN={int(r['n'])}" for r in rows]
        positions = range(len(rows))
        ax.bar(
            [p - 0.2 for p in positions],
            [r["speedup"] for r in rows],
            0.4,
            label="hetscal / ScaLAPACK",
        )
        ax.bar(
            [p + 0.2 for p in positions],
            [r["ideal_speedup"] for r in rows],
            0.4,
            label="ideal",
            alpha=0.5,
        )
        ax.set_xticks(list(positions))
        ax.set_xticklabels(labels, fontsize=7)
        ax.set_ylabel("speedup over ScaLAPACK")
        ax.set_title(self.title)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8)
        figure.set_size_inches(max(PANEL_SIZE[0], 0.9 * len(rows) + 1.5), PANEL_SIZE[1])
        _save(figure, path)

    def table(self, rows):
        header = [
            "routine",
            "scenario",
            "N",
            "ScaLAPACK (nb)",
            "s",
            "hetscal (nb)",
            "s",
            "speedup",
            "ideal",
            "fraction",
        ]
        lines = [
            [
                r["routine"],
                r["scenario"],
                int(r["n"]),
                f"{r['scalapack_variant']} ({int(r['scalapack_nb'])})",
                r["scalapack_s"],
                f"{r['hetscal_variant']} ({int(r['hetscal_nb'])})",
                r["hetscal_s"],
                r["speedup"],
                r["ideal_speedup"],
                r["fraction"],
            ]
            for r in rows
        ]
        return markdown_table(header, lines)

    def headline(self, rows):
        slowed = [r for r in rows if r["scenario"] != "homogeneous"]
        parts = [
            f"{r['routine']} N = {int(r['n'])}: {r['speedup']:.2f}x "
            f"({r['fraction']:.0%} of the ideal {r['ideal_speedup']:.2f})"
            for r in slowed
        ]
        return f"{self.title}, rank 1 slowed 3x: " + "; ".join(parts)


@dataclass
class TimePerCall:
    """The adaptive scenario (tests/bench/adaptive/run_real.sh): the time of every call of a
    loop in which rank 1 turns 3x slower at `change_call`, one line per scenario (ScaLAPACK,
    adaptive hetscal, the oracle told each phase's speeds, and both homogeneous runs), one
    panel per routine."""

    stem: str
    title: str
    source: str

    @staticmethod
    def _totals(rows, first=1):
        """{scenario: seconds of its calls from `first` on}."""
        totals = {}
        for r in rows:
            if r["call"] >= first:
                totals[r["scenario"]] = totals.get(r["scenario"], 0.0) + r["seconds"]
        return totals

    def plot(self, rows, path):
        groups = grouped(rows, "routine")
        figure, axes = _panels(len(groups))
        for ax, (routine, routine_rows) in zip(axes, groups.items()):
            for scenario, scenario_rows in grouped(routine_rows, "scenario").items():
                _line(ax, [r["call"] for r in scenario_rows], [r["seconds"] for r in scenario_rows], scenario)
            ax.axvline(routine_rows[0]["change_call"] - 0.5, color="gray", linestyle=":")
            ax.set_title(f"{routine}, N = {int(routine_rows[0]['n'])}")
            _finish_axes(ax, "call (rank 1 3x slower from the dotted line)", "time per call (s)")
        _save(figure, path)

    def table(self, rows):
        header = ["routine", "scenario", "whole loop (s)", "after the change (s)"]
        lines = []
        for routine, routine_rows in grouped(rows, "routine").items():
            whole = self._totals(routine_rows)
            after = self._totals(routine_rows, routine_rows[0]["change_call"])
            lines += [[routine, scenario, whole[scenario], after[scenario]] for scenario in whole]
        return markdown_table(header, lines)

    def headline(self, rows):
        parts = []
        for routine, routine_rows in grouped(rows, "routine").items():
            whole = self._totals(routine_rows)
            after = self._totals(routine_rows, routine_rows[0]["change_call"])
            parts.append(
                f"{routine}: whole loop {whole['scalapack'] / whole['adaptive']:.2f}x faster than "
                f"ScaLAPACK, after the change {after['adaptive'] / after['oracle']:.2f}x the oracle, "
                f"homogeneous {whole['homogeneous_hetscal'] / whole['homogeneous_scalapack']:.3f}x "
                "ScaLAPACK's time"
            )
        return f"{self.title}: " + "; ".join(parts)


@dataclass
class SimulatedAdaptation(TimePerCall):
    """The simulated adaptive scenario (tests/simgrid/bench_adaptive_nine_workstations): the
    time of every call of a GEMM loop on the 9 workstations in which rank 1 turns 3x slower at
    `change_call`, one line per variant (static plan, adaptive, oracle, 2DBC), and rank 1's
    speed: its host's, and in the plan each variant computed with."""

    def plot(self, rows, path):
        figure, (times, speeds) = _panels(2)
        loops = grouped(rows, "scenario")
        for scenario, loop in loops.items():
            calls = [r["call"] for r in loop]
            _line(times, calls, [r["seconds"] for r in loop], scenario)
            if loop[0]["planned_speed"] != "":  # 2DBC has no plan of speeds
                _line(speeds, calls, [r["planned_speed"] / 1e6 for r in loop], f"{scenario}'s plan")
        host = next(iter(loops.values()))
        speeds.plot(
            [r["call"] for r in host], [r["actual_speed"] / 1e6 for r in host], "k--", label="its host"
        )
        for ax in (times, speeds):
            ax.axvline(rows[0]["change_call"] - 0.5, color="gray", linestyle=":")
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        times.set_title(f"GEMM, N = {int(rows[0]['n'])}, 9 workstations (simulated)")
        speeds.set_title("rank 1's speed")
        _finish_axes(times, "call (rank 1 3x slower from the dotted line)", "time per call (s)")
        _finish_axes(speeds, "call", "Mflop/s")
        _save(figure, path)

    @staticmethod
    def replanned_call(rows):
        """The first call at which the adaptive variant's plan gives rank 1 another speed."""
        adaptive = grouped(rows, "scenario")["adaptive"]
        changed = [r["call"] for r in adaptive if r["planned_speed"] != adaptive[0]["planned_speed"]]
        return int(changed[0]) if changed else None

    def headline(self, rows):
        change = int(rows[0]["change_call"])
        replanned = self.replanned_call(rows)
        whole, after = self._totals(rows), self._totals(rows, change)
        return (
            f"{self.title}: rank 1 3x slower from call {change}, adaptive "
            + (f"re-planned at call {replanned}" if replanned else "never re-planned")
            + f"; after the change {after['adaptive'] / after['oracle']:.2f}x the oracle's time "
            f"(static plan {after['static'] / after['oracle']:.2f}x); whole loop "
            f"{whole['2dbc'] / whole['adaptive']:.2f}x faster than 2DBC, "
            f"{whole['static'] / whole['adaptive']:.2f}x than the static plan"
        )
