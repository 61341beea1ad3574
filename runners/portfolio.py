"""A portfolio for the generalised game's hard band: the native search for a node budget, then CP-SAT
on the paper's CP model for the time left.

On random generalised deals of 200-800 cards at the threshold (docs/hardness.md) the search decides
most deals in a few thousand nodes or not at all, and what it leaves open are mostly lost deals whose
whole space it would have to search; CP-SAT's learnt clauses refute some of those in a second. The
budget keeps the search's share small, so that CP-SAT gets nearly all of the time where it is needed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from patience.options import Count, Schema, check_options
from patience.result import Answer, Status
from patience.runners.base import Solver
from patience.runners.cpsat import CpSat
from patience.runners.native import Native
from patience.runners.process import Limits


class Portfolio(Solver):
    name = "portfolio"
    paradigm = "native"  # the specialised route, with a model-based second stage
    description = "the native search for a node budget, then CP-SAT on the paper's CP model for the time left"
    games = tuple(game for game in Native.games if game in CpSat.games)
    options: ClassVar[Schema] = (
        Count("nodes", "1000000", "the native search's node budget; CP-SAT runs only if the search is still "
                                  "undecided after it"),
    )

    def available(self) -> bool:
        return CpSat().available()

    def install_hint(self) -> str:
        return CpSat().install_hint()

    def version(self) -> str | None:
        return f"native {Native().version()} + ortools {CpSat().version()}"

    def solve(self, deal: Any, limits: Limits, options: Mapping[str, Any]) -> Answer:
        native = Native()
        first = native.solve(deal, limits, check_options(native.options, {"nodes": str(options["nodes"])}, "native"))
        if first.status is not Status.UNKNOWN:  # decided, or the time (not the budget) ran out
            return replace(first, stats={**first.stats, "answered_by": "native"})
        timeout, cpu = _left(limits.timeout, first.wall), _left(limits.cpu, first.cpu)
        if 0 in (timeout, cpu):
            return replace(first, status=Status.TIMEOUT, message="time limit reached in the native search")
        second_solver = CpSat()
        second = second_solver.solve(deal, Limits(timeout, cpu, limits.memory_mb),
                                     check_options(second_solver.options, {}, "cpsat"))
        stats = {**second.stats, "native_nodes": first.nodes or 0, "native_cpu": round(first.cpu, 3),
                 "answered_by": "cpsat"}
        return replace(second, wall=first.wall + second.wall, cpu=first.cpu + second.cpu, stats=stats,
                       command=second.command, message=second.message)


def _left(limit: float | None, spent: float) -> float | None:
    """What a limit leaves after `spent` seconds (0 when nothing is left, None for no limit)."""
    return None if limit is None else max(limit - spent, 0)
