"""A portfolio for the generalised game's hard band: the native search (from the front and from the
back in turn, on a generalised deal) for a share of the limits, then CP-SAT on the paper's CP model
with its presolve off for the time left, on deals small enough for CP-SAT to answer.

Why: on the band's small deals (104-208 cards at suits / height 1.33) the search leaves open lost
deals that CP-SAT's learnt clauses refute in seconds (docs/hardness.md); on deals of 800 cards
CP-SAT spends its time building the model and answers nothing, so there the search keeps it all.
CP-SAT's presolve stays off: OR-Tools 9.15's presolve calls some won deals infeasible.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from patience.options import Count, Schema, check_options
from patience.result import Answer, Status
from patience.runners.base import Solver
from patience.runners.cpsat import CpSat
from patience.runners.mip import GRACE_SECONDS
from patience.runners.native import Native
from patience.runs.process import Limits


class Portfolio(Solver):
    name = "portfolio"
    paradigm = "native"  # the specialised route first, a model-based second
    description = ("the native search for a share of the time, then CP-SAT without presolve for the rest "
                   "(deals of at most --set cards cards)")
    games = tuple(game for game in Native.games if game in CpSat.games)
    options: ClassVar[Schema] = (
        Count("share", "50", "the native search's share of the time and CPU limits, in percent", maximum=100),
        Count("cards", "420", "CP-SAT runs only on deals of at most this many cards (it answered on none of "
                              "800)", maximum=100_000),
    )

    def available(self) -> bool:
        return CpSat().available()

    def install_hint(self) -> str:
        return CpSat().install_hint()

    def version(self) -> str | None:
        return f"native {Native().version()} + ortools {CpSat().version()}"

    def solve(self, deal: Any, limits: Limits, options: Mapping[str, Any]) -> Answer:
        native, second_solver = Native(), CpSat()
        native_options = check_options(native.options, {}, "native")
        if len(deal.cards) > options["cards"] or options["share"] == 100:
            return _named(native.solve(deal, limits, native_options), "native")
        share = options["share"] / 100
        first = native.solve(deal, _scaled(limits, share), native_options)
        if first.status not in (Status.TIMEOUT, Status.UNKNOWN):  # decided, or an error to report
            return _named(first, "native")
        # CP-SAT stops itself at its wall-clock limit; the runner kills it GRACE_SECONDS after the CPU
        # limit, so that grace comes off here and the whole stays within the limits given
        left = Limits(_left(limits.timeout, first.wall + GRACE_SECONDS), _left(limits.cpu, first.cpu + GRACE_SECONDS),
                      limits.memory_mb)
        second = second_solver.solve(deal, left, check_options(second_solver.options, {"presolve": "off"}, "cpsat"))
        stats = {**second.stats, "native_nodes": first.nodes or 0, "native_cpu": round(first.cpu, 3),
                 **{key: value for key, value in first.stats.items() if key.endswith("_nodes")}}
        answer = replace(second, wall=first.wall + second.wall, cpu=first.cpu + second.cpu, stats=stats)
        return _named(answer, "cpsat") if second.status in (Status.SOLVED, Status.UNSOLVABLE) else answer


def _named(answer: Answer, by: str) -> Answer:
    """The answer with the route that decided it named (`route`: the native search's direction, or cpsat)."""
    route = answer.stats.get("route", "forward") if by == "native" else by
    if answer.status not in (Status.SOLVED, Status.UNSOLVABLE):
        return answer
    return replace(answer, stats={**answer.stats, "route": route})


def _scaled(limits: Limits, share: float) -> Limits:
    return Limits(None if limits.timeout is None else limits.timeout * share,
                  None if limits.cpu is None else limits.cpu * share, limits.memory_mb)


def _left(limit: float | None, spent: float) -> float | None:
    """What a limit leaves after `spent` seconds (a sliver at least: a limit must be more than 0)."""
    return None if limit is None else max(limit - spent, 0.01)
