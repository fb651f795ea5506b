"""Reading the benchmarks' CSV files: rows as dictionaries with numbers converted."""
import csv
from pathlib import Path


def _value(text):
    """A field as a float when it reads as one, else the text ("3x3", "G-2DBC", "")."""
    try:
        return float(text)
    except ValueError:
        return text


def read_rows(path):
    """The data rows of the CSV file `path`, each a dict from column name to value.

    Raises ValueError naming the file when it has no data row: a benchmark that wrote only
    its header has failed, and a figure drawn from nothing would hide it.
    """
    with Path(path).open(newline="") as f:
        rows = [{key: _value(text) for key, text in row.items()} for row in csv.DictReader(f)]
    if not rows:
        raise ValueError(f"{path}: no data rows")
    return rows


def grouped(rows, column):
    """`rows` split by the value of `column`, in order of first appearance; one group of all
    rows when `column` is None."""
    if column is None:
        return {"": rows}
    groups = {}
    for row in rows:
        groups.setdefault(row[column], []).append(row)
    return groups


def markdown_table(header, lines):
    """A Markdown table: `header` a list of column titles, `lines` lists of cells (numbers
    printed with 4 significant digits)."""

    def cell(value):
        return f"{value:.4g}" if isinstance(value, float) else str(value)

    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(cell(v) for v in line) + " |" for line in lines]
    return "\n".join(out)
