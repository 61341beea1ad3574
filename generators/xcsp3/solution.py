"""XCSP3 solver output read back: the competition's `s` and `v` lines, as ACE and Choco print them.

`s SATISFIABLE` / `s UNSATISFIABLE` / `s UNKNOWN` give the verdict; the `v` lines (one or several)
hold `<instantiation> <list> x[] y[] </list> <values> ... </values> </instantiation>`. Lists may
name whole arrays (`x[]`), ranges (`x[2..5]`) or single cells; a value repeated k times may be
compressed (`3x4` or `3*4`). The x values are card numbers in play order, decoded through the
model's `Numbering`. ANSI colour codes (ACE's default) are ignored. The solvers that print it run
on the template of runners/xcsp_output.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from patience.answers import AnswerReader
from patience.caps import MAX_VALUES
from patience.cards import Card
from patience.deal import Deal
from patience.errors import InputError, quote
from patience.generators.analysis.black_hole import Numbering
from patience.reading import at_most, numbered_lines
from patience.result import Status

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# `s UNKNOWN`: ACE and Choco say it when the time limit they are given (-t, -limit) stops them, so it
# is the clock's (the rule of patience.result), as CP-SAT's, clingo's and MiniZinc's UNKNOWN are
_STATUS = {"SATISFIABLE": Status.SOLVED, "OPTIMUM FOUND": Status.SOLVED, "UNSATISFIABLE": Status.UNSOLVABLE,
           "UNKNOWN": Status.TIMEOUT, "UNSUPPORTED": Status.ERROR}
_CELL = re.compile(r"^(\w+)\[(?:([0-9]{1,9})(?:\.\.([0-9]{1,9}))?)?\]$")
_VALUE = re.compile(r"^(-?[0-9]{1,9}|\*)(?:[*x]([0-9]{1,9}))?$")
_DETECT = re.compile(r"^[ \t]*v[ \t]+<instantiation", re.MULTILINE)
_WORD = re.compile(r"\S+")


def _words(text: str) -> Iterator[str]:
    """The words of `text` one at a time: a long `v` line costs no list of its words."""
    return (word.group() for word in _WORD.finditer(text))


@dataclass(frozen=True)
class XcspOutput:
    """The verdict line and the solution's values by variable name (`x[3]` -> 12); a variable the
    solver printed as `*` (any value: no constraint involves it) has none."""

    status: Status | None
    values: dict[str, int]
    status_line: int | None
    values_line: int | None


def clean(text: str) -> str:
    return _ANSI.sub("", text)


def read_output(text: str, source: str, sizes: dict[str, int]) -> XcspOutput:
    """Parse `s` and `v` lines; `sizes` gives the length of each array a list may name whole."""
    status, status_line, v_lines, v_start = None, None, [], None
    for number, raw in numbered_lines(clean(text)):
        line = raw.strip()
        if line.startswith("s "):
            verdict = line[2:].strip()
            if verdict not in _STATUS:
                raise InputError(source, number, f"unknown verdict {quote(verdict)}")
            status, status_line = _STATUS[verdict], number
        elif line.startswith("v ") or line == "v":
            v_start = v_start or number
            v_lines.append(line[1:])
    if not v_lines:
        return XcspOutput(status, {}, status_line, None)
    instantiation = " ".join(v_lines)
    if "</instantiation>" in instantiation:  # Choco prints its last solution twice; keep one
        instantiation = instantiation[:instantiation.index("</instantiation>")]
    names, values = _between(instantiation, "list"), _between(instantiation, "values")
    if names is None or values is None or v_start is None:
        raise InputError(source, v_start, "the v lines hold no <list> and <values>")
    cells, numbers = [], []
    for token in _words(names):
        cells.extend(_expand_cell(token, sizes, source, v_start))
        at_most(len(cells), MAX_VALUES, "variables", source, v_start)
    for token in _words(values):
        numbers.extend(_expand_value(token, source, v_start))
        at_most(len(numbers), MAX_VALUES, "values", source, v_start)
    if len(cells) != len(numbers):
        raise InputError(source, v_start, f"{len(cells)} variables but {len(numbers)} values")
    assigned = {cell: number for cell, number in zip(cells, numbers, strict=True) if number is not None}
    return XcspOutput(status, assigned, status_line, v_start)


def _between(text: str, tag: str) -> str | None:
    """The text between the first `<tag>` and the `</tag>` after it (str.find: one pass)."""
    start = text.find(f"<{tag}>")
    end = -1 if start < 0 else text.find(f"</{tag}>", start)
    return None if end < 0 else text[start + len(tag) + 2:end]


def _expand_cell(token: str, sizes: dict[str, int], source: str, line: int) -> list[str]:
    match = _CELL.match(token)
    if not match:
        raise InputError(source, line, f"not a variable of the model: {quote(token)}")
    name, first, last = match.groups()
    if first is None:
        if name not in sizes:
            raise InputError(source, line, f"unknown array {quote(name)}")
        return [f"{name}[{index}]" for index in range(sizes[name])]
    low, high = int(first), int(last if last is not None else first)
    at_most(high - low + 1, MAX_VALUES, f"cells of {quote(token)}", source, line)
    return [f"{name}[{index}]" for index in range(low, high + 1)]


def _expand_value(token: str, source: str, line: int) -> list[int | None]:
    match = _VALUE.match(token)
    if not match:
        raise InputError(source, line, f"not a value: {quote(token)}")
    value = None if match.group(1) == "*" else int(match.group(1))
    count = int(match.group(2) or 1)
    at_most(count, MAX_VALUES, f"repeats of {quote(token)}", source, line)
    return [value] * count


def sequence(output: XcspOutput, source: str, numbering: Numbering) -> tuple[Card, ...]:
    """The cards in play order from the x values (a permutation of the card numbers, 0 first)."""
    x = [value for position in range(numbering.size) if (value := output.values.get(f"x[{position}]")) is not None]
    if len(x) != numbering.size or sorted(x) != list(range(numbering.size)) or x[0] != 0:
        raise InputError(source, output.values_line, f"x is not a sequence of the card numbers "
                                                     f"0..{numbering.size - 1} starting with the start card 0")
    return numbering.decode(x)


def detect(text: str) -> bool:
    return "<instantiation" in text and _DETECT.search(clean(text)) is not None


def _read_answer(text: str, source: str, deal: Deal) -> tuple[Card, ...]:
    numbering = Numbering(deal)
    output = read_output(text, source, {"x": numbering.size, "y": numbering.size})
    return sequence(output, source, numbering)


ANSWER_READERS = [AnswerReader("xcsp3-output", detect, _read_answer)]


