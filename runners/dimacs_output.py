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

from patience.errors import InputError, quote

SATISFIABLE, UNSATISFIABLE, UNKNOWN = "SATISFIABLE", "UNSATISFIABLE", "UNKNOWN"

# `c conflicts: 123` (CaDiCaL, Kissat), `c conflicts : 123` (CryptoMiniSat), `conflicts : 123`
# (MiniSat), `c 123 conflicts` (PicoSAT)
_COUNTERS = "(conflicts|decisions|propagations|restarts)"
_STAT = re.compile(rf"^(?:c\s+)?{_COUNTERS}\s*:\s*(\d+)|^c\s+(\d+)\s+{_COUNTERS}\b")


@dataclass(frozen=True)
class SatVerdict:
    """What one solver run said: its status line, the true/false literals, its statistics."""

    status: str
    literals: tuple[int, ...] = ()
    stats: dict[str, int] = field(default_factory=dict)

    @property
    def true_variables(self) -> set[int]:
        return {literal for literal in self.literals if literal > 0}


def read_competition(text: str, source: str) -> SatVerdict:
    """Read `s` and `v` lines; a missing `s` line means the solver decided nothing (UNKNOWN)."""
    status, literals, ended = None, [], False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("s "):
            word = line[2:].strip()
            if word not in (SATISFIABLE, UNSATISFIABLE, "UNKNOWN", "INDETERMINATE"):
                raise InputError(source, number, f"unknown status line {quote(line.strip())}")
            status = UNKNOWN if word == "INDETERMINATE" else word
        elif line.startswith("v ") or line.strip() == "v":
            ended = _literals(line[1:], source, number, literals) or ended
    if status == SATISFIABLE and not (literals and ended):
        raise InputError(source, None, "SATISFIABLE without a complete `v ... 0` model")
    return SatVerdict(status or UNKNOWN, tuple(literals), read_stats(text))


def read_minisat_result(text: str, source: str, log: str = "") -> SatVerdict:
    """MiniSat's result file: `SAT` and a line of literals ending in 0, `UNSAT`, or `INDET`."""
    lines = text.splitlines()
    first = lines[0].strip() if lines else ""
    if first == "UNSAT":
        return SatVerdict(UNSATISFIABLE, (), read_stats(log))
    if first in ("", "INDET"):
        return SatVerdict(UNKNOWN, (), read_stats(log))
    if first != "SAT":
        raise InputError(source, 1, f"expected SAT, UNSAT or INDET, not {quote(first)}")
    literals: list[int] = []
    ended = any(_literals(line, source, number, literals) for number, line in enumerate(lines[1:], 2))
    if not ended:
        raise InputError(source, len(lines), "SAT without a model ending in 0")
    return SatVerdict(SATISFIABLE, tuple(literals), read_stats(log))


def read_stats(text: str) -> dict[str, int]:
    """Conflicts, decisions, propagations, restarts as the solver printed them (last value wins)."""
    stats = {}
    for line in text.splitlines():
        match = _STAT.match(line.strip())
        if match:
            name, value = (match.group(1), match.group(2)) if match.group(1) else (match.group(4), match.group(3))
            stats[name] = int(value)
    return stats


def _literals(text: str, source: str, number: int, literals: list[int]) -> bool:
    """Append the integers of one line; True when the line closes the model with 0."""
    for word in text.split():
        try:
            value = int(word)
        except ValueError:
            raise InputError(source, number, f"not a literal: {quote(word)}") from None
        if value == 0:
            return True
        literals.append(value)
    return False
