"""Reports and tables as text: one format for every number, and lines that fit TABLE_WIDTH columns.

Every report and table (`patience report`, `survey report`, the grade table) writes its numbers with
`number` and lays its columns out with `aligned`, so that no report mixes `8.69e-05` with `0.733`,
or `2,131` with `2933208`, and none runs past 100 columns.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence

TABLE_WIDTH = 100  # the widest line of a report or a table
_DECIMALS = 9  # the most decimals a number is given
_CUT = "..."


def number(value: float | int | None) -> str:
    """The one way a report writes a number: whole numbers with thousands separated (`2,933,208`);
    others in fixed point with at most three significant digits below 1,000 (`0.733`, `12.3`, `0.5`,
    `0.0000869`: never an exponent, never more than nine decimals) and no decimals above (`2,131`);
    None (no value) as `-`."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if math.isnan(value) or math.isinf(value):
        return str(value)
    if value == 0:
        return "0"
    size = abs(value)
    decimals = 0 if size >= 1000 else min(_DECIMALS, max(0, 2 - math.floor(math.log10(size))))
    shown = f"{value:,.{decimals}f}"
    return shown.rstrip("0").rstrip(".") if "." in shown else shown  # `0.5`, as `%g` writes it


def counted(count: int, noun: str) -> str:
    """`count` and `noun`, the noun plural unless the count is one ("1 move", "51 moves")."""
    return f"{count:,} {noun}" if count == 1 else f"{count:,} {noun}s"


def fit(line: str, width: int = TABLE_WIDTH) -> str:
    """A line cut to `width` columns, its end marked by `...` where something was cut."""
    return line if len(line) <= width else line[:max(width - len(_CUT), 0)] + _CUT


def wrapped(line: str, width: int = TABLE_WIDTH, indent: str = "  ") -> list[str]:
    """A line of prose as lines of at most `width` columns, the later ones indented."""
    return textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=True, break_on_hyphens=False) or [""]


def aligned(rows: Sequence[Sequence[str]], right: Sequence[bool], width: int = TABLE_WIDTH,
            gap: str = "  ") -> list[str]:
    """The rows' cells in columns, each as wide as its widest cell, right-aligned where `right` says.
    While the table is wider than `width`, its widest left-aligned (text) column after the first is
    narrowed, and the cells that no longer fit end in `...`; a table still too wide (many columns of
    numbers) is shown in parts, one under the other after a blank line, each with the first column
    again; and last, the first column is narrowed too."""
    if not rows:
        return []
    count = len(rows[0])
    widths = [max(len(row[column]) for row in rows) for column in range(count)]

    def total(columns: Sequence[int]) -> int:
        return sum(widths[column] for column in columns) + len(gap) * (len(columns) - 1)

    def narrow(columns: Sequence[int], narrowed: Sequence[int]) -> None:
        while total(columns) > width:
            text = [column for column in narrowed if not right[column] and widths[column] > len(_CUT) + 1]
            if not text:
                return
            widest = max(text, key=lambda column: widths[column])
            widths[widest] = max(len(_CUT) + 1, widths[widest] - (total(columns) - width))

    narrow(range(count), range(1, count))
    parts: list[list[int]] = [[0]]
    for column in range(1, count):
        if len(parts[-1]) > 1 and total([*parts[-1], column]) > width:
            parts.append([0])
        parts[-1].append(column)
    for part in parts:
        narrow(part, part)
    lines: list[str] = []
    for part in parts:
        if lines:
            lines.append("")
        for row in rows:
            cells = [(fit(row[column], widths[column]), widths[column], right[column]) for column in part]
            lines.append(fit(gap.join(cell.rjust(size) if flush else cell.ljust(size)
                                      for cell, size, flush in cells).rstrip(), width))
    return lines
