"""MiniZinc and clingo against the native search: on small deals of every game (generalised Black
Hole with and without a foundation card, Binary Star, LBS) both decide every deal, their verdicts
are native's, and every win they claim replays (`solve` judges it). Both symmetry breakings are
sound: switching them off changes no verdict."""

from __future__ import annotations

from collections import Counter

import pytest

from patience.games import read_game_deal
from patience.generators.deals import random_deal
from patience.lbs.deal import random_deal as random_lbs_deal
from patience.result import Status
from patience.runners.solve import solve
from patience.runs.process import Limits
from tests.helpers import COURSE, INSTANCES, needs_solver
from tests.test_binary_star import small_deal

LIMITS = Limits(timeout=60)
SOLVERS = [pytest.param(name, marks=needs_solver(name)) for name in ("minizinc", "clingo")]
DECIDED = (Status.SOLVED, Status.UNSOLVABLE)


def agree(name: str, deals, options=None) -> Counter:
    """Each deal decided by `name` as native decides it; the verdicts counted."""
    verdicts: Counter = Counter()
    for deal in deals:
        truth = solve(deal, "native", LIMITS).status
        result = solve(deal, name, LIMITS, options or {})
        assert result.status in DECIDED and result.status is truth, (deal, result.message)
        verdicts[result.status] += 1
    return verdicts


@pytest.mark.parametrize("name", SOLVERS)
@pytest.mark.parametrize("symmetry", ["on", "off"])
def test_generalised_black_hole_deals(name, symmetry):
    deals = [random_deal(7, 2, 3, seed) for seed in range(6)]
    deals += [random_deal(7, 3, 4, seed, empty_foundation=True) for seed in range(4)]  # All in a Row's start
    verdicts = agree(name, deals, {"symmetry-breaking": symmetry})
    assert verdicts[Status.SOLVED] >= 2 and verdicts[Status.UNSOLVABLE] >= 2


@pytest.mark.parametrize("name", SOLVERS)
def test_the_paper_example_and_an_all_in_a_row_deal(name):
    deals = [read_game_deal(INSTANCES / "black_hole" / "paper-example.txt")[1],
             read_game_deal(INSTANCES / "pysol" / "all_in_a_row" / "all_in_a_row-1.txt")[1]]
    assert sum(agree(name, deals).values()) == 2


@pytest.mark.parametrize("name", SOLVERS)
@pytest.mark.parametrize("symmetry", ["on", "off"])
def test_binary_star_deals(name, symmetry):
    verdicts = agree(name, [small_deal(seed) for seed in range(8)], {"symmetry-breaking": symmetry})
    assert verdicts[Status.SOLVED] >= 2 and verdicts[Status.UNSOLVABLE] >= 2


@pytest.mark.parametrize("name", SOLVERS)
def test_lbs_deals(name):
    deals = [read_game_deal(COURSE / folder / f"{instance}.param")[1] for folder, instance in (
        ("SolvableInstances", "LBS4_13"), ("SolvableInstances", "LBS5_0"), ("SolvableInstances", "LBS7_47"),
        ("UnsolvableInstances", "LBS6_12"))]
    deals += [random_lbs_deal(n, seed) for n in (8, 10) for seed in range(3)]
    verdicts = agree(name, deals)
    assert verdicts[Status.SOLVED] >= 2 and verdicts[Status.UNSOLVABLE] >= 1


# The whole file runs in the slow set (`pytest -m slow`, in .ci/run): with it the default set passed its
# budget of 300 s of CPU (tests/README.md, "Where the time goes"); the solver contract tests keep each
# route in the default set.
pytestmark = pytest.mark.slow
