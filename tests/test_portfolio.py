"""CP-SAT after the native search: the native solver's `then` option (auto: on generalised deals of at
most 128 cards in decision mode without a node limit) and the `portfolio` preset (CP-SAT after the
search on deals of up to 420 cards). The search gets its share of the limits, CP-SAT with its presolve
off the rest; the result names the route that decided, and every win is replayed by the runner core
like any answer."""

from __future__ import annotations

import pytest

from patience.errors import UsageError
from patience.generators.deals import pysol_deal, random_deal
from patience.options import check_options
from patience.result import Status
from patience.runners.cpsat import CpSat
from patience.runners.native import THEN_CARDS, runs_cpsat
from patience.runners.registry import get_solver
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.validator import replay
from tests.helpers import needs_compiled_search, needs_solver

pytestmark = [needs_compiled_search, needs_solver("cpsat")]

OPEN_104 = random_deal(26, 4, 3, 14)  # lost; open to the search from both ends at 60 s of CPU (docs/hardness.md)


def test_the_native_search_decides_first_and_is_named():
    deal = random_deal(13, 8, 6, 10)  # the back wins it at once
    result = solve(deal, "portfolio", Limits(timeout=60, cpu=20))
    assert result.status is Status.SOLVED and result.stats["route"] == "backward"
    assert replay(deal, list(result.sequence), complete=True).valid
    assert "search_cpu" not in result.stats  # CP-SAT never ran


def test_a_deal_past_the_card_limit_is_left_to_the_native_search():
    deal = random_deal(26, 4, 3, 3)  # won by the search within seconds
    result = solve(deal, "portfolio", Limits(timeout=60, cpu=5), {"then-cards": "50"})
    assert result.status is Status.SOLVED and result.stats["route"] in ("forward", "backward")


def test_cpsat_needs_a_second_past_its_kill_grace_or_the_search_keeps_all_the_time():
    """Two seconds of CPU on a deal CP-SAT's stage would take: half of it is less than CP-SAT's kill
    grace, so the search keeps it all (CP-SAT could not stop within the limit)."""
    assert len(OPEN_104.cards) <= THEN_CARDS and CpSat.grace == 5
    result = solve(OPEN_104, "native", Limits(timeout=60, cpu=2))
    assert result.status is Status.TIMEOUT and "search_cpu" not in result.stats
    assert result.cpu > 1.5


@pytest.mark.parametrize(("solver", "deal", "options", "cpu", "runs"), [
    ("native", OPEN_104, {}, 60, True),
    ("native", OPEN_104, {"nodes": "100000"}, 60, False),  # a node limit: the search alone
    ("native", OPEN_104, {"then": "none"}, 60, False),
    ("native", OPEN_104, {"share": "100"}, 60, False),
    ("native", OPEN_104, {"then-cards": "100"}, 60, False),
    ("native", OPEN_104, {}, 2, False),  # no time left for CP-SAT past its grace
    ("native", OPEN_104, {"share": "90"}, 30, False),  # 3 s: less than the grace and a second
    ("native", random_deal(52, 4, 3, 10), {}, 60, False),  # 208 cards: past then-cards
    ("native", pysol_deal("black_hole", 1), {}, 60, False),  # not a generalised deal
    ("native", pysol_deal("black_hole", 1), {"then": "cpsat"}, 60, True),
    ("native", OPEN_104, {"max-cards": "on"}, 60, False),
    ("portfolio", random_deal(52, 4, 3, 10), {}, 60, True),  # the preset: up to 420 cards
    ("portfolio", random_deal(100, 8, 3, 1), {}, 60, False),
])
def test_cpsat_runs_only_where_asked(solver, deal, options, cpu, runs):
    runner = get_solver(solver)
    assert runs_cpsat(check_options(runner.options, options, solver), deal, Limits(timeout=600, cpu=cpu)) is runs


def test_then_cpsat_needs_decision_mode():
    with pytest.raises(UsageError, match="then=cpsat"):
        solve(pysol_deal("black_hole", 1), "native", Limits(timeout=10), {"then": "cpsat", "max-cards": "on"})


@pytest.mark.slow
def test_cpsat_refutes_what_the_search_leaves_open():
    """With 10% of 40 s for the search (its default route, both directions), CP-SAT refutes the deal,
    as `patience solve` does by default at 60 s; the two stages keep within the CPU limit."""
    result = solve(OPEN_104, "native", Limits(timeout=300, cpu=40), {"share": "10"})
    assert result.status is Status.UNSOLVABLE and result.stats["route"] == "cpsat"
    assert result.stats["search_nodes"] > 1_000_000 and 3.5 < result.stats["search_cpu"] <= 4.2
    assert result.cpu <= 40


@pytest.mark.slow
def test_cpsat_stage_on_little_time_is_killed_undecided_within_the_limit():
    """Thirteen seconds: six and a half for the search, one and a half for CP-SAT before its grace
    (at twelve, the moment spent reading the deal, which the limits count, leaves CP-SAT less than its
    second and the search keeps all); whatever CP-SAT answers in that time is a refutation or nothing,
    and the whole stays within the limit and its grace."""
    result = solve(OPEN_104, "native", Limits(timeout=120, cpu=13))
    assert result.status in (Status.UNSOLVABLE, Status.TIMEOUT, Status.UNKNOWN), result.status
    assert 6.0 < result.stats["search_cpu"] <= 6.7 and result.cpu <= 13 + CpSat.grace
