"""The portfolio's stages on Golf and Worm Hole, as on the Black Hole family: the game's own search
(its `native_search` hook) for its share of the limits, then CP-SAT without presolve on the game's
CP-SAT model for what it leaves open. The stages are found through the game's hooks, not the deal's
type; a win of either stage counts only once the game's replay accepts it."""

from __future__ import annotations

import pytest

from patience.errors import UsageError
from patience.games import game_of
from patience.golf.deals import random_deal as golf_deal
from patience.golf.pysol import golf_deal as pysol_golf
from patience.options import check_options
from patience.result import Answer, Status
from patience.runners.native import runs_cpsat
from patience.runners.registry import get_solver
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.worm_hole.deals import numbered_deal as worm_hole_deal
from patience.worm_hole.deals import random_deal as worm_hole_random
from tests.helpers import needs_solver

pytestmark = needs_solver("cpsat")

GOLF_WON = golf_deal(1, 6, 2, 3, 1, 2)  # 3 piles of one card, a stock of 2: won
WORM_WON = worm_hole_random(5, 2, 3, 1, cells=2)  # 9 cards in 3 piles, two cells: won


def _options(solver, given=None):
    return check_options(get_solver(solver).options, given or {}, solver)


@pytest.mark.parametrize("deal", [pysol_golf(2), pysol_golf(2, wrap_ranks=True), worm_hole_deal("worm_hole", 1),
                                  GOLF_WON, WORM_WON], ids=["golf", "golf_wrap", "worm_hole", "golf_small",
                                                            "worm_small"])
def test_cpsat_follows_the_search_in_the_portfolio_not_in_the_native_default(deal):
    limits = Limits(timeout=600, cpu=60)
    assert runs_cpsat(_options("portfolio"), deal, limits) is True
    assert runs_cpsat(_options("native"), deal, limits) is False  # auto: generalised Black Hole deals only
    assert runs_cpsat(_options("portfolio", {"share": "100"}), deal, limits) is False
    assert runs_cpsat(_options("portfolio"), deal, Limits(timeout=600, cpu=2)) is False  # no time past the grace


@pytest.mark.parametrize("deal", [pysol_golf(2), worm_hole_deal("worm_hole", 1)], ids=["golf", "worm_hole"])
def test_the_portfolio_decides_by_the_search_first_and_the_win_replays(deal):
    result = solve(deal, "portfolio", Limits(timeout=120, cpu=30))
    assert result.status in (Status.SOLVED, Status.UNSOLVABLE) and "search_cpu" not in result.stats
    native = solve(deal, "native", Limits(timeout=120, cpu=30))
    assert result.status is native.status
    if result.status is Status.SOLVED:
        assert game_of(deal).replay(deal, list(result.sequence), complete=True).valid


def _gives_up(deal, limits, options):
    """A search that decides nothing: what the search leaves open on a hard deal, at once."""
    return Answer(Status.TIMEOUT, None, 0.01, 0.01, 7, {"engine": "stub"}, message="stub")


@pytest.mark.slow  # CP-SAT's start: 2 to 15 s of wall on a loaded machine
@pytest.mark.parametrize(("hook", "deal"), [("patience.golf.search.native_search", GOLF_WON),
                                            ("patience.worm_hole.native.native_search", WORM_WON)],
                         ids=["golf", "worm_hole"])
def test_what_the_search_leaves_open_cpsat_decides_and_the_runner_replays(monkeypatch, hook, deal):
    """The game's search replaced by one that gives up: CP-SAT decides the deal on the time left, the
    answer names it (route cpsat, the search's nodes kept) and its win passed the game's replay
    (`solve` turns a win that does not replay into an error)."""
    monkeypatch.setattr(hook, _gives_up)
    result = solve(deal, "portfolio", Limits(timeout=120, cpu=30))
    assert result.status is Status.SOLVED, result.message
    assert result.stats["route"] == "cpsat" and result.stats["search_nodes"] == 7
    assert game_of(deal).replay(deal, list(result.sequence), complete=True).valid


@pytest.mark.slow
def test_a_lost_golf_deal_the_search_leaves_open_is_refuted_by_cpsat(monkeypatch):
    deal = golf_deal(3, 5, 2, 2, 2, 0)  # 4 pile cards, no stock
    assert solve(deal, "native", Limits(timeout=60)).status is Status.UNSOLVABLE
    monkeypatch.setattr("patience.golf.search.native_search", _gives_up)
    result = solve(deal, "portfolio", Limits(timeout=120, cpu=30))
    assert (result.status, result.stats["route"]) == (Status.UNSOLVABLE, "cpsat")


def test_then_cpsat_on_a_game_cpsat_has_no_model_of_is_a_usage_error():
    from patience.lbs.deal import random_deal as lbs_deal

    with pytest.raises(UsageError, match="then=cpsat: CP-SAT has no model of lbs"):
        solve(lbs_deal(5, 1), "native", Limits(timeout=10), {"then": "cpsat"})
