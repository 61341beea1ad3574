"""Savile Row's output files read back: the `.solution` file and the `.info` statistics.

A `.solution` file holds `letting x be [0, 12, 4, ...;int(0..51)]` (with `$ Minion ...` comment
lines when Minion ran); x lists card numbers in play order, which `Numbering` (the generator's
decode map) turns into cards. The `.info` file holds `Key:value` lines (SolverSatisfiable,
SolverNodes, SolverTotalTime, SavileRowTotalTime, SolverTimeOut, ...).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from patience.answers import AnswerReader
from patience.cards import Card
from patience.deal import Deal
from patience.errors import InputError, quote
from patience.generators.analysis.black_hole import Numbering
from patience.reading import numbered_lines, small_int

_LETTING = re.compile(r"^letting\s+(\w+)\s+be\s+(.*)$")
# possessive `*+`: a lazy list followed by `\s*` would try every split of a long run of spaces
_MATRIX = re.compile(r"^\[([-\d,\s]*+)(?:;\s*int\(\s*(-?[0-9]{1,9})\s*\.\.\s*(-?[0-9]{1,9})\s*\)\s*)?\]$")
_DETECT = re.compile(r"^[ \t]*letting[ \t]+x[ \t]+be[ \t]+\[", re.MULTILINE)
_INFO = re.compile(r"^(\w+):\s*(\S+)\s*$")


@dataclass(frozen=True)
class Letting:
    """One `letting NAME be [...]` line: the values, the index of the first, and where it was."""

    values: tuple[int, ...]
    first_index: int
    line: int


def read_lettings(text: str, source: str) -> dict[str, Letting]:
    """The one-dimensional integer matrices of a `.solution` file, by name."""
    lettings = {}
    for number, raw in numbered_lines(text):
        line = raw.strip()
        if not line or line.startswith("$") or line.lower().startswith("language"):
            continue
        match = _LETTING.match(line)
        if not match:
            raise InputError(source, number, f"not a letting: {quote(line)}")
        matrix = _MATRIX.match(match.group(2).strip())
        if not matrix:
            raise InputError(source, number, f"{match.group(1)} is not a matrix of integers")
        words = matrix.group(1).replace(",", " ").split()
        values = tuple(value for value in map(small_int, words) if value is not None)
        if len(values) != len(words):
            raise InputError(source, number, f"{match.group(1)} holds a value that is not an integer")
        first = int(matrix.group(2)) if matrix.group(2) is not None else 1
        if matrix.group(2) is not None and int(matrix.group(3)) - first + 1 != len(values):
            raise InputError(source, number, f"{match.group(1)} has {len(values)} values for its index range")
        lettings[match.group(1)] = Letting(values, first, number)
    return lettings


def read_solution(text: str, source: str, numbering: Numbering) -> tuple[Card, ...]:
    """The cards in play order from `letting x be [...]` (a permutation of the card numbers, 0 first)."""
    lettings = read_lettings(text, source)
    if "x" not in lettings:
        raise InputError(source, 1, "no `letting x be [...]` in the solution")
    x = lettings["x"]
    if x.first_index != 0 or sorted(x.values) != list(range(numbering.size)) or x.values[0] != 0:
        raise InputError(source, x.line, f"x is not a sequence of the card numbers 0..{numbering.size - 1} "
                                         "starting with the start card 0")
    return numbering.decode(x.values)


def read_info(text: str, source: str) -> dict[str, float]:
    """The `Key:number` lines of a `.info` file."""
    info = {}
    for number, raw in numbered_lines(text):
        if not raw.strip():
            continue
        match = _INFO.match(raw.strip())
        if not match:
            raise InputError(source, number, f"not a Key:value line: {quote(raw.strip())}")
        try:
            value = float(match.group(2))
        except ValueError:
            value = math.nan
        if not math.isfinite(value):  # `nan`, `inf`, `1e400`: no statistic Savile Row writes
            raise InputError(source, number, f"{match.group(1)} is not a finite number: {quote(match.group(2))}")
        info[match.group(1)] = value
    return info


def detect_solution(text: str) -> bool:
    return "letting" in text and _DETECT.search(text) is not None


def _read_answer(text: str, source: str, deal: Deal) -> tuple[Card, ...]:
    return read_solution(text, source, Numbering(deal))


ANSWER_READERS = [AnswerReader("savilerow-solution", detect_solution, _read_answer)]
