"""The `plain` solver: the plain search (patience.plain_search), an exhaustive search written apart
from the native engine, in a child process under the runner core's limits. It exists to check the
native search's losses by a second method where CP-SAT and SAT answer on nothing (deals of hundreds of
cards); its wins are replayed like any other's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from patience.deal import Deal
from patience.errors import InputError, UsageError
from patience.games import AnyDeal, deal_as, game_of
from patience.names import BLACK_HOLE
from patience.options import Count, Schema
from patience.result import Answer
from patience.runners import python_search
from patience.runners.base import Solver
from patience.runners.native import child_verdict, failed_run
from patience.runs.process import Limits


class Plain(Solver):
    name = "plain"
    paradigm = "native"
    description = ("an exhaustive search written apart from the native one (Python; the live-card bound alone; "
                   "the front and the back in turns): a second method for the native search's losses")
    options: ClassVar[Schema] = (Count("nodes", None, "node limit; reaching it gives status unknown"),)

    def version(self) -> str | None:
        return "python"

    def solve(self, deal: AnyDeal, limits: Limits, options: Mapping[str, Any]) -> Answer:
        if game_of(deal).name != BLACK_HOLE:  # its games are the Black Hole family's: `solve` refuses the others
            raise UsageError("the plain search plays the Black Hole family's deals only")
        run = python_search.run_plain(deal_as(Deal, deal), options["nodes"], limits)
        stats: dict[str, float | int | str] = {"engine": "python"}
        if run.out_of_time or run.memout:
            return failed_run(run, stats)
        try:
            found = python_search.read_plain(run)
        except InputError as error:
            return failed_run(run, stats, error)
        if found.direction is not None:
            stats["route"] = found.direction
        return child_verdict(run, stats, found.won, found.lost, found.nodes, found.limited_by == "cpu",
                             found.limited_by == "nodes")
