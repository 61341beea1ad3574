"""The DIMACS SAT solvers' outputs: the competition format (`s SATISFIABLE`, `v ... 0` lines,
printed by CaDiCaL, PicoSAT, CryptoMiniSat, Kissat) and MiniSat's result file (`SAT` then the
literals, or `UNSAT`). Statistics lines (conflicts, decisions) are read where a solver prints them.

A model holds variables, not cards: it decodes only through the CNF's header map
(`patience.generators.cnf.black_hole.read_header`), so no answer reader is registered; `patience decode`
joins the two.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from patience.caps import MAX_VALUES
from patience.errors import InputError, quote
from patience.numeric import count_or_none
from patience.reading import at_most, lines, numbered_lines, small_int

SATISFIABLE, UNSATISFIABLE, UNKNOWN = "SATISFIABLE", "UNSATISFIABLE", "UNKNOWN"

# `c conflicts: 123` (CaDiCaL, Kissat), `c conflicts : 123` (CryptoMiniSat), `conflicts : 123`
# (MiniSat), `c 123 conflicts` (PicoSAT)
_COUNTERS = "(conflicts|decisions|propagations|restarts)"
_WORD = re.compile(r"\S+")
# counts of at most 18 ASCII digits (a longer one is no count: the line is skipped, not int()'d)
_STAT = re.compile(rf"^(?:c\s+)?{_COUNTERS}\s*:\s*([0-9]{{1,18}})(?![0-9])|^c\s+([0-9]{{1,18}})\s+{_COUNTERS}\b")


@dataclass(frozen=True)
class SatVerdict:
    """What one solver run said: its status line, the true/false literals, its statistics."""

    status: str
    literals: tuple[int, ...] = ()
    stats: dict[str, int] = field(default_factory=dict)

    @property
    def true_variables(self) -> set[int]:
        return {literal for literal in self.literals if literal > 0}


def read_competition(text: str, source: str, variables: int | None = None) -> SatVerdict:
    """Read `s` and `v` lines; a missing `s` line means the solver decided nothing (UNKNOWN). With
    `variables` (the formula's), a literal beyond them is refused as it is read."""
    status: str | None = None
    literals: list[int] = []
    ended = False
    for number, line in numbered_lines(text):
        if line.startswith("s "):
            word = line[2:].strip()
            if word not in (SATISFIABLE, UNSATISFIABLE, "UNKNOWN", "INDETERMINATE"):
                raise InputError(source, number, f"unknown status line {quote(line.strip())}")
            status = UNKNOWN if word == "INDETERMINATE" else word
        elif line.startswith("v ") or line.strip() == "v":
            ended = _literals(line, 1, source, number, literals, variables) or ended
    if status == SATISFIABLE and not (literals and ended):
        raise InputError(source, None, "SATISFIABLE without a complete `v ... 0` model")
    return SatVerdict(status or UNKNOWN, tuple(literals), read_stats(text))


def read_minisat_result(text: str, source: str, log: str = "", variables: int | None = None) -> SatVerdict:
    """MiniSat's result file: `SAT` and a line of literals ending in 0, `UNSAT`, or `INDET`."""
    numbered = numbered_lines(text)
    first = next((line.strip() for _, line in numbered), "")
    if first == "UNSAT":
        return SatVerdict(UNSATISFIABLE, (), read_stats(log))
    if first in ("", "INDET"):
        return SatVerdict(UNKNOWN, (), read_stats(log))
    if first != "SAT":
        raise InputError(source, 1, f"expected SAT, UNSAT or INDET, not {quote(first)}")
    literals: list[int] = []
    number = 1
    ended = False
    for number, line in numbered:
        if _literals(line, 0, source, number, literals, variables):
            ended = True
            break
    if not ended:
        raise InputError(source, number, "SAT without a model ending in 0")
    return SatVerdict(SATISFIABLE, tuple(literals), read_stats(log))


def read_stats(text: str) -> dict[str, int]:
    """Conflicts, decisions, propagations, restarts as the solver printed them (last value wins)."""
    stats = {}
    for line in lines(text):
        match = _STAT.match(line.strip())
        if match:
            name, value = (match.group(1), match.group(2)) if match.group(1) else (match.group(4), match.group(3))
            count = count_or_none(value)
            if count is not None:
                stats[name] = count
    return stats


def _literals(line: str, start: int, source: str, number: int, literals: list[int], variables: int | None) -> bool:
    """Append the integers of one line (from `start`), word by word so that a long line costs no
    list of its words; True when the line closes the model with 0. Refused as soon as a literal
    lies beyond `variables`, or the literals outnumber them (MAX_VALUES without a formula)."""
    cap = MAX_VALUES if variables is None else variables
    for word in _WORD.finditer(line, start):
        value = small_int(word.group())
        if value is None:
            raise InputError(source, number, f"not a literal: {quote(word.group())}")
        if value == 0:
            return True
        if variables is not None and abs(value) > variables:
            raise InputError(source, number, f"literal {value} names a variable beyond the formula's "
                                             f"{variables}: a model of another formula?")
        literals.append(value)
        at_most(len(literals), cap, "literals (one per variable)", source, number)
    return False
