"""The portfolio: the native search within its node budget, then CP-SAT for the time left. Real
runs on small deals, judged by replay and compared with the native search's own verdict."""

from __future__ import annotations

import pytest

from patience.generators.deals import random_deal
from patience.result import Status
from patience.runners.portfolio import Portfolio
from patience.runners.process import Limits
from patience.runners.solve import solve

pytest.importorskip("ortools")

DEALS = [random_deal(13, 4, 3, seed) for seed in range(1, 4)] + [random_deal(13, 2, 2, seed) for seed in range(1, 3)]


def test_a_deal_the_search_decides_within_its_budget_never_reaches_cpsat():
    deal = DEALS[0]
    native = solve(deal, "native", Limits(timeout=30))
    result = solve(deal, "portfolio", Limits(timeout=30))
    assert native.status in (Status.SOLVED, Status.UNSOLVABLE)
    assert result.status == native.status
    assert result.nodes == native.nodes
    assert Portfolio().solve(deal, Limits(timeout=30), {"nodes": 1_000_000}).stats["answered_by"] == "native"


@pytest.mark.parametrize("deal", DEALS, ids=[f"deal{number}" for number in range(len(DEALS))])
def test_what_the_search_leaves_open_cpsat_decides_as_the_search_would(deal):
    native = solve(deal, "native", Limits(timeout=30))
    result = solve(deal, "portfolio", Limits(timeout=60), {"nodes": "1"})
    assert native.status in (Status.SOLVED, Status.UNSOLVABLE)
    assert result.status == native.status, result.message  # a win has been replayed by `solve`
    answer = Portfolio().solve(deal, Limits(timeout=60), {"nodes": 1})
    assert answer.stats["answered_by"] == ("cpsat" if native.nodes > 1 else "native")

