"""The successor MIP (`generators/lp/successor.py`): verdicts equal the native solver's on small
deals with every MIP solver installed here, answers replay, and the decode map refuses arcs that
do not make one path."""

from __future__ import annotations

import pytest

from patience.errors import InputError
from patience.generators.deals import random_deal
from patience.generators.lp import successor as lp_successor
from patience.generators.lp.black_hole import card_numbers
from patience.result import Status
from patience.runners.registry import get_solver
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.validator import replay

DEALS = {
    "solvable-5x4": random_deal(5, 4, 3, 0),
    "unsolvable-5x4": random_deal(5, 4, 3, 80),
    "all-in-a-row-5x4": random_deal(5, 4, 4, 2, empty_foundation=True),
    "uneven-6x3": random_deal(6, 3, 4, 5),
}
# SCIP takes seconds a deal (its start and its search on the unsolvable one): slow, run in CI.
SOLVERS = [pytest.param(name, marks=[pytest.mark.skipif(not get_solver(name).available(), reason=f"{name} missing"),
                                     *([pytest.mark.slow] if name == "scip" else [])])
           for name in ("highs", "cpsat-mip", "scip")]


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("name", sorted(DEALS))
def test_the_successor_model_agrees_with_native(solver, name):
    deal = DEALS[name]
    result = solve(deal, solver, Limits(timeout=60), {"model": "succ"})
    assert result.status is solve(deal, "native", Limits(timeout=30)).status, result.message
    if result.status is Status.SOLVED:
        assert replay(deal, result.sequence).valid and len(result.sequence) == len(deal.cards)
    assert result.stats["model"] == "succ"


def test_arcs_exist_only_between_adjacent_ranks():
    deal = DEALS["solvable-5x4"]
    cards = card_numbers(deal)
    for i, j in lp_successor.arcs(deal, cards):
        first = deal.foundation if i == 0 else cards[i - 1]
        assert deal.adjacent(first, cards[j - 1])


def test_decode_refuses_a_broken_path():
    deal = DEALS["solvable-5x4"]
    cards = card_numbers(deal)
    with pytest.raises(InputError, match="one path"):
        lp_successor.cards_in_order(cards, {"s_0_1": 1.0, "s_1_e": 1.0}, "test")
    with pytest.raises(InputError, match="second successor"):
        lp_successor.cards_in_order(cards, {"s_0_1": 1.0, "s_0_2": 1.0}, "test")


# The whole file runs in the slow set (`pytest -m slow`, in .ci/run): with it the default set passed its
# budget of 300 s of CPU (tests/README.md, "Where the time goes"); the solver contract tests keep each
# route in the default set.
pytestmark = pytest.mark.slow
