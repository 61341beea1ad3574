"""The PDDL encodings: the paper's twelve STRIPS operators each do their own case, and both
encodings decide small deals exactly as an exhaustive search does (planners run for real)."""

from __future__ import annotations

import re
import tempfile
from functools import cache
from pathlib import Path

import pytest

from patience.cards import Card
from patience.deal import Deal
from patience.generators.deals import random_deal
from patience.generators.files import ModelFiles
from patience.generators.pddl.black_hole import model
from patience.options import check_options
from patience.result import Status
from patience.runners.registry import get_solver
from patience.runners.solve import solve
from patience.runs.process import Limits, run_process
from patience.validator import replay
from tests.helpers import needs_solver

LIMITS = Limits(timeout=60)
_ACTION = re.compile(r"\n  \(:action (\S+)\n.*?(?=\n\n  \(:action |\n\)\s*$)", re.DOTALL)


def deal(piles: list[str], ranks: int = 6, foundation: str | None = "r0s0") -> Deal:
    """A generalised deal from pile texts listed top card first, e.g. 'r1s0 r3s1'."""
    def card(name: str) -> Card:
        rank, suit = name[1:].split("s")
        return Card(int(rank), int(suit))
    return Deal(tuple(tuple(card(name) for name in pile.split()) for pile in piles),
                None if foundation is None else card(foundation), ranks)


def operators(domain: str) -> list[str]:
    return [match.group(1) for match in _ACTION.finditer(domain)]


def verdict(game: Deal, keep: set[str], planner_name: str = "fd-ff") -> Status:
    """A planner's verdict on the paper encoding with only the operators in `keep`."""
    task = model(game)
    domain = _ACTION.sub(lambda match: match.group(0) if match.group(1) in keep else "", task.domain)
    assert set(operators(domain)) == keep
    planner = get_solver(planner_name)
    options = check_options(planner.options, {}, planner_name)
    files = ModelFiles({"domain.pddl": domain, "problem.pddl": task.problem}, "problem.pddl", lambda plan: ())
    with tempfile.TemporaryDirectory(prefix="patience-") as scratch:
        folder = Path(scratch)
        for name, text in files.files.items():
            (folder / name).write_text(text)
        run = run_process(planner.command(files, LIMITS, options), LIMITS, cwd=folder)
        return planner.verdict(run, folder, options).status


def test_paper_domain_has_the_twelve_strips_operators_and_no_more():
    domain = model(deal(["r1s0"])).domain
    names = operators(domain)
    cases = ["TOP", "", "SAMESUIT", "SAMERANK", "HOLEABOVE", "HOLEABOVE-SAMESUIT"]
    assert names == [f"PLAY-{way}{'-' + case if case else ''}" for way in ("UP", "DOWN") for case in cases]
    assert ":strips :typing)" in domain
    for forbidden in ("(not (played", "(not (top", "(=", "when", "forall", "negative-preconditions"):
        assert forbidden not in domain
    general = re.search(r"\(:action PLAY-UP\n\s*:parameters \(([^)]*)\)", domain).group(1)
    assert general.count("?") == 5  # FF 2.3 allows at most 5 parameters


def test_empty_foundation_adds_only_the_free_first_move():
    names = operators(model(deal(["r3s0 r4s0"], foundation=None)).domain)
    assert names[0] == "PLAY-FIRST-TOP" and len(names) == 13


def test_problem_classifies_each_card_pair_once_and_goals_only_the_bottoms(paper_deal):
    problem = model(paper_deal).problem
    pairs = sum(len(pile) - 1 for pile in paper_deal.piles)
    assert sum(problem.count(f"({fact} ") for fact in ("under", "underSameSuit", "underSameRank")) == pairs
    goal = problem.split("(:goal", 1)[1]
    assert goal.count("(played ") == 17 and "(played eight diamonds)" in goal  # bottom of pile 8D 2D 9C
    assert "(plusone king ace)" in problem and problem.count("(plusone ") == 13
    assert "(underSameSuit two diamonds eight)" not in problem  # 2D lies under 9C, over 8D
    assert "(underSameSuit eight diamonds two)" in problem


def _mirror(piles: list[str]) -> list[str]:
    """The same deal with ranks reflected (k -> -k mod 6): UP moves become DOWN moves."""
    flip = lambda match: f"r{(6 - int(match.group(1))) % 6}s"  # noqa: E731
    return [re.sub(r"r(\d+)s", flip, pile) for pile in piles]


# case operator (UP form), deal whose every win needs that case, other operators the win uses
CASES = [
    ("TOP", ["r1s0"], set()),
    ("", ["r1s1 r3s0", "r2s0"], {"TOP"}),
    ("SAMESUIT", ["r1s1 r3s1", "r2s0"], {"TOP"}),
    ("SAMERANK", ["r1s0", "r2s0 r2s1", "r1s1"], {"TOP", "DOWN-TOP"}),
    ("HOLEABOVE", ["r1s0 r2s1"], {"TOP"}),
    ("HOLEABOVE-SAMESUIT", ["r1s0 r2s0"], {"TOP"}),
]


def _name(way: str, case: str) -> str:
    if case == "DOWN-TOP":  # the other direction's TOP operator
        return f"PLAY-{'DOWN' if way == 'UP' else 'UP'}-TOP"
    return f"PLAY-{way}{'-' + case if case else ''}"


PLANNERS = [pytest.param("fd-ff"), pytest.param("ff", marks=needs_solver("ff"))]


@pytest.mark.parametrize("planner", PLANNERS)
@pytest.mark.parametrize("way", ["UP", "DOWN"])
@pytest.mark.parametrize(("case", "piles", "helpers"), CASES, ids=[case or "GENERAL" for case, _, _ in CASES])
def test_each_operator_is_needed_for_its_case_and_enough(way, case, piles, helpers, planner):
    game = deal(piles if way == "UP" else _mirror(piles))
    keep = {_name(way, helper) for helper in helpers}
    assert verdict(game, keep | {_name(way, case)}, planner) is Status.SOLVED
    assert verdict(game, keep, planner) is Status.UNSOLVABLE


@pytest.mark.parametrize("planner", PLANNERS)
def test_free_first_move_operator_is_needed_with_an_empty_foundation(planner):
    game = deal(["r3s0 r4s0"], foundation=None)
    assert verdict(game, {"PLAY-FIRST-TOP", "PLAY-UP-HOLEABOVE-SAMESUIT"}, planner) is Status.SOLVED
    others = {"PLAY-UP-HOLEABOVE-SAMESUIT", "PLAY-UP-TOP", "PLAY-DOWN-TOP"}
    assert verdict(game, others, planner) is Status.UNSOLVABLE


@cache
def winnable(game: Deal) -> bool:
    """Exhaustive search over (cards left per pile, hole card): the oracle for tiny deals."""
    def search(depths: tuple[int, ...], hole: Card | None, seen: set) -> bool:
        if all(depth == len(pile) for depth, pile in zip(depths, game.piles, strict=True)):
            return True
        if (depths, hole) in seen:
            return False
        seen.add((depths, hole))
        for index, pile in enumerate(game.piles):
            if depths[index] < len(pile):
                card = pile[depths[index]]
                if (hole is None or game.adjacent(hole, card)) and search(
                        depths[:index] + (depths[index] + 1,) + depths[index + 1:], card, seen):
                    return True
        return False
    return search((0,) * len(game.piles), game.foundation, set())


SMALL = [random_deal(4, 2, 2, seed) for seed in range(8)] + [random_deal(5, 2, 3, seed) for seed in range(4)] + [
    random_deal(3, 3, 2, seed, empty_foundation=True) for seed in range(4)] + [
    random_deal(4, 5, 3, seed, empty_foundation=seed % 2 == 1) for seed in range(4)]  # many suits per rank


@pytest.mark.parametrize(("solver", "encoding"), [("pyperplan", "paper"), ("fd-ff", "compact")])
def test_both_encodings_decide_small_deals_like_exhaustive_search(solver, encoding):
    verdicts = []
    for game in SMALL:
        result = solve(game, solver, LIMITS, {"encoding": encoding})
        assert result.status in (Status.SOLVED, Status.UNSOLVABLE), result.message
        assert (result.status is Status.SOLVED) == winnable(game)
        if result.sequence is not None:
            assert replay(game, result.sequence).valid
        verdicts.append(result.status)
    assert set(verdicts) == {Status.SOLVED, Status.UNSOLVABLE}  # the sample exercises both answers


def test_compact_problem_lists_one_object_per_card_and_a_single_operator(paper_deal):
    task = model(paper_deal, "compact")
    assert operators(task.domain) == ["PLAY"] and ":negative-preconditions" in task.domain
    objects = task.problem.split("(:objects", 1)[1].split(")", 1)[0].split()
    assert len(objects) == 53 and objects[0] == "start" and "card-as" in objects
    assert task.problem.count("(cover ") == 51
    assert task.problem.count("(adjacent ") == sum(
        paper_deal.adjacent(first, second) for first in paper_deal.all_cards for second in paper_deal.cards)


@pytest.mark.parametrize("planner", [*PLANNERS, pytest.param("pyperplan")])
def test_these_planners_bind_two_parameters_to_one_object(planner):
    """Why the HOLEABOVE operators are redundant here: the general operators cover their case by
    binding ?rank2 and ?hole to the same rank. Planners that demand distinct bindings need them."""
    assert verdict(deal(["r1s0 r2s1"]), {"PLAY-UP-TOP", "PLAY-UP"}, planner) is Status.SOLVED
    assert verdict(deal(["r1s0 r2s0"]), {"PLAY-UP-TOP", "PLAY-UP-SAMESUIT"}, planner) is Status.SOLVED


# The whole file runs in the slow set (`pytest -m slow`, in .ci/run): with it the default set passed its
# budget of 300 s of CPU (tests/README.md, "Where the time goes"); the solver contract tests keep each
# route in the default set.
pytestmark = pytest.mark.slow
