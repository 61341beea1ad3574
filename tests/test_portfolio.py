"""The `portfolio` solver: the native search (both directions on a generalised deal) for a share of the
limits, then CP-SAT with its presolve off for the rest on small deals; the result names the route
that decided, and every win is replayed by the runner core like any answer."""

from __future__ import annotations

import pytest

from patience.generators.deals import random_deal
from patience.result import Status
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.validator import replay
from tests.helpers import needs_compiled_search, needs_solver

pytestmark = [needs_compiled_search, needs_solver("cpsat")]


def test_the_native_search_decides_first_and_is_named():
    deal = random_deal(13, 8, 6, 10)  # the back wins it at once
    result = solve(deal, "portfolio", Limits(timeout=60, cpu=20))
    assert result.status is Status.SOLVED and result.stats["route"] == "backward"
    assert replay(deal, list(result.sequence), complete=True).valid
    assert "native_cpu" not in result.stats  # CP-SAT never ran


def test_a_deal_past_the_card_limit_is_left_to_the_native_search():
    deal = random_deal(26, 4, 3, 3)  # won by the search within seconds
    result = solve(deal, "portfolio", Limits(timeout=60, cpu=5), {"cards": "50"})
    assert result.status is Status.SOLVED and result.stats["route"] in ("forward", "backward")


@pytest.mark.slow
def test_cpsat_refutes_what_the_search_leaves_open():
    """26 x 4 x 3 seed 14: open to the search from both ends at 60 s of CPU (docs/hardness.md), refuted
    by CP-SAT without presolve in seconds. With 10% of 40 s for the search, CP-SAT decides it."""
    deal = random_deal(26, 4, 3, 14)
    result = solve(deal, "portfolio", Limits(timeout=300, cpu=40), {"share": "10"})
    assert result.status is Status.UNSOLVABLE and result.stats["route"] == "cpsat"
    assert result.stats["native_nodes"] > 1_000_000
