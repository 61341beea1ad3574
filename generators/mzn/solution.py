"""MiniZinc's output, read back: the last solution (printed with `--output-mode json`), the status
line and the `%%%mzn-stat` statistics (`-s`).

A solution is a JSON object followed by `----------`; a verdict is a line `=====WORD=====`
(UNSATISFIABLE, UNKNOWN, ERROR, ...), or `==========` when an optimisation's search is
complete. Statistics and comments start with `%`. Anything else is
part of the solution being printed. Nothing here is trusted: the values go to the model's decode
map, which checks them, and the moves to the validator.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from patience.errors import InputError, quote
from patience.numeric import count_or_none
from patience.reading import numbered_lines

SOLUTION_END = "----------"
SEARCH_COMPLETE = "=========="
_STAT = "%%%mzn-stat: "


@dataclass(frozen=True)
class MiniZincOutput:
    """What one `minizinc` run printed: the last solution's values, the verdict line, statistics."""

    values: Mapping[str, object] | None
    verdict: str | None  # UNSATISFIABLE, UNKNOWN, ERROR, ... (None: no verdict line)
    stats: Mapping[str, str] = field(default_factory=dict)


def read_output(text: str, source: str) -> MiniZincOutput:
    """The solutions, verdict and statistics of MiniZinc's stdout; InputError for a line that fits
    none of them, or a solution that is not a JSON object."""
    solution: list[str] = []
    last: tuple[int, str] | None = None
    verdict, stats = None, {}
    for number, line in numbered_lines(text):
        if line == SOLUTION_END:
            last, solution = (number, "\n".join(solution)), []
        elif line == SEARCH_COMPLETE:  # an optimisation (or -a) run ended its search: the last solution stands
            continue
        elif line.startswith("=====") and line.endswith("=====") and len(line) > 10:
            verdict = line.strip("=")
        elif line.startswith(_STAT):
            name, _, value = line[len(_STAT):].partition("=")
            stats[name] = value
        elif not line.startswith("%"):
            solution.append(line)
    if any(line.strip() for line in solution):
        raise InputError(source, None, f"output that is neither a solution nor a verdict: {quote(solution[0])}")
    return MiniZincOutput(None if last is None else _values(*last, source), verdict, stats)


def _values(line: int, text: str, source: str) -> dict[str, object]:
    try:
        values = json.loads(text)
    except RecursionError:  # `[[[...` nested past Python's stack: refused, never an internal error
        raise InputError(source, line, "a solution nested too deep") from None
    except ValueError:  # bad JSON, or a number past Python's integer digit limit
        raise InputError(source, line, "a solution that is not JSON (was --output-mode json given?)") from None
    if not isinstance(values, dict):
        raise InputError(source, line, "a solution that is not a JSON object")
    return values


def stat_count(stats: Mapping[str, str], name: str) -> int | None:
    """A count statistic (`nodes`) as printed, or None unless it is a plain ASCII integer of at most
    18 digits: the model or backend prints it, so `²` or 5,000 digits are no count, never a crash."""
    return count_or_none(stats.get(name, "").strip())


def stat_seconds(stats: Mapping[str, str], name: str) -> float | None:
    """A time statistic (`solveTime`) in seconds, or None unless it is a finite number of sane length."""
    text = stats.get(name, "").strip()
    try:
        value = float(text) if len(text) <= 40 else math.nan
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None


def integers(values: Mapping[str, object], name: str, source: str) -> list[int]:
    """A one-dimensional array of integers from a solution; InputError if it is missing or not one."""
    array = values.get(name)
    if not isinstance(array, list) or not all(type(item) is int for item in array):
        raise InputError(source, None, f"no array of integers {name} in the solution")
    return array
