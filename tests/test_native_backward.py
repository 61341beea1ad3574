"""The search from the back (Board.reversed_of) and the native solver's `direction=both`, which takes
the two directions in turn a round at a time: the same verdicts as the search from the front and as an
exhaustive search, the same nodes as the Python reference, wins that replay forwards, and a result naming
the route."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from patience.errors import UsageError
from patience.generators.deals import pysol_deal, random_deal
from patience.native import engine, reference
from patience.native.board import Board
from patience.native.rules import Rules
from patience.result import Status
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.validator import replay
from tests.helpers import needs_compiled_search

# The whole file runs in the slow set (`pytest -m slow`, in .ci/run): with it the default set passed its
# budget of 300 s of CPU (tests/README.md, "Where the time goes"); the solver contract tests keep each
# route in the default set.
pytestmark = [needs_compiled_search, pytest.mark.slow]

ALL_ON = Rules()


def deals(count: int, shapes, first_seed: int = 0):
    for seed, shape in zip(range(first_seed, first_seed + count), itertools.cycle(shapes), strict=False):
        yield random_deal(*shape, seed, empty_foundation=seed % 5 == 0)


def backward(deal, rules=ALL_ON, choice="c", nodes=None):
    return engine.run_board(Board.reversed_of(deal), choice, rules, False, nodes, None)[0]


def test_backward_matches_exhaustive_search_and_replays_forwards():
    """Every verdict from the back is the exhaustive forward search's, and a win from the back read
    in reverse replays as a win of the deal."""
    seen = Counter()
    for deal in deals(150, [(8, 2, 3), (6, 2, 3), (7, 2, 3), (5, 3, 3), (6, 2, 4), (5, 2, 2)]):
        truth = reference.search(Board.of(deal), Rules.only(), False)
        back = backward(deal)
        assert back.status == truth.status, deal
        if back.status is Status.SOLVED:
            assert replay(deal, list(reversed(back.sequence)), complete=True).valid, deal
        seen[back.status] += 1
    assert seen[Status.SOLVED] >= 10 and seen[Status.UNSOLVABLE] >= 10, seen


@pytest.mark.parametrize("switched_off", ["", *Rules.names()])
def test_backward_is_the_reference_search(switched_off):
    """The compiled and the Python search from the back: the same status and the same nodes, with
    every rule on and with each switched off in turn."""
    rules = Rules.of({name: name != switched_off for name in Rules.names() if name != "noise"})
    for deal in deals(30, [(6, 3, 3), (13, 2, 4), (7, 3, 2)], first_seed=switched_off.__len__()):
        c, python = backward(deal, rules), backward(deal, rules, "python")
        assert (c.status, c.nodes) == (python.status, python.nodes), deal


def test_both_directions_agree_on_many_random_deals():
    """The two directions decide the same deals the same way (26 to 104 cards, at the threshold)."""
    verdicts = Counter()
    for deal in deals(120, [(13, 2, 2), (13, 4, 3), (13, 4, 4), (26, 2, 2), (13, 8, 5)]):
        front = engine.run(deal, "c", ALL_ON, False, 200_000, None)[0]
        back = backward(deal, nodes=200_000)
        if Status.UNKNOWN not in (front.status, back.status):
            assert front.status == back.status, deal
            verdicts[front.status] += 1
    assert verdicts[Status.SOLVED] >= 20 and verdicts[Status.UNSOLVABLE] >= 20, verdicts


def test_an_end_rank_needs_decision_mode_and_one_foundation():
    board = Board.reversed_of(random_deal(6, 2, 3, 1))
    with pytest.raises(ValueError, match="end rank"):
        engine.run_board(board, "c", ALL_ON, True, None, None)
    with pytest.raises(ValueError, match="end rank"):
        engine.run_board(board, "python", ALL_ON, True, None, None)




def test_solve_decides_generalised_deals_by_both_routes_and_names_the_route():
    """`solve` with `direction=both` on generalised deals: each won deal's play replays
    (the runner core validates it), each loss is the exhaustive search's, and the route is named."""
    routes = Counter()
    for deal in deals(40, [(6, 2, 3), (7, 2, 3), (5, 3, 3)]):
        result = solve(deal, "native", Limits(timeout=30), {"direction": "both"})
        truth = reference.search(Board.of(deal), Rules.only(), False)
        assert result.status == truth.status, deal
        assert result.stats["route"] in ("forward", "backward")
        routes[result.status] += 1
    assert routes[Status.SOLVED] and routes[Status.UNSOLVABLE], routes


def test_backward_route_alone_wins_and_the_win_replays():
    deal = random_deal(13, 4, 2, 7)
    result = solve(deal, "native", Limits(timeout=30), {"direction": "backward"})
    assert result.status is Status.SOLVED and result.stats["route"] == "backward"
    assert replay(deal, list(result.sequence), complete=True).valid


@pytest.mark.parametrize("deal", [pysol_deal("black_hole", 2), pysol_deal("all_in_a_row", 2),
                                  random_deal(13, 4, 3, 2)], ids=["black_hole", "all_in_a_row", "black_hole_layout"])
def test_black_hole_and_all_in_a_row_are_searched_from_the_front_alone(deal):
    """Their published figures are the front's: answers and node counts stay as they were (a random
    deal of 13 ranks x 4 suits in piles of 3 is a Black Hole deal by its layout)."""
    result = solve(deal, "native", Limits(timeout=30), {})
    assert "route" not in result.stats
    assert result.nodes == engine.run(deal, "c", ALL_ON, False, None, None)[0].nodes


def test_a_generalised_deal_is_searched_both_ways_by_default():
    """The default (`auto`) takes both directions for a generalised deal, the front alone in max-cards
    mode or without restarts."""
    deal = random_deal(13, 8, 6, 39)  # the front leaves it open for millions of nodes, the back wins it
    result = solve(deal, "native", Limits(timeout=30), {})
    assert result.status is Status.SOLVED and result.stats["route"] == "backward"
    assert result.nodes == sum(engine.run_both(deal, "c", ALL_ON, None, None)[3].values())
    for options in ({"max-cards": "on", "nodes": "20000"}, {"restarts": "off", "nodes": "20000"}):
        assert "route" not in solve(deal, "native", Limits(timeout=30), options).stats


def test_max_cards_with_a_direction_other_than_forward_is_a_usage_error():
    with pytest.raises(UsageError, match="max-cards needs direction forward"):
        solve(random_deal(6, 2, 3, 1), "native", Limits(timeout=30), {"direction": "both", "max-cards": "on"})


def test_a_node_limit_ends_the_route_undecided():
    """The limit counts both searches' nodes: they stop together at it, each having run part of it."""
    deal = random_deal(26, 4, 3, 3)  # won, but past 1,000 nodes either way
    result = solve(deal, "native", Limits(timeout=30), {"nodes": "1000", "direction": "both"})
    assert result.status is Status.UNKNOWN and result.nodes == 1000
    assert result.stats["forward_nodes"] + result.stats["backward_nodes"] == 1000
    assert min(result.stats["forward_nodes"], result.stats["backward_nodes"]) > 1


@pytest.mark.parametrize("switched_off", ["", *(name for name in Rules.names() if name != "restarts")])
def test_both_is_the_reference_search(switched_off):
    """The compiled and the Python searches taking turns: the same status, the same direction that
    decided and the same nodes in each direction, with every rule on and each switched off in turn
    (within a node limit, so that some deals end undecided, mid-round)."""
    rules = Rules.of({name: name != switched_off for name in Rules.names() if name != "noise"})
    seen = Counter()
    for deal in deals(24, [(13, 4, 3), (13, 8, 6), (26, 4, 3), (7, 3, 2)], first_seed=len(switched_off)):
        c = engine.run_both(deal, "c", rules, 3000, None)
        python = engine.run_both(deal, "python", rules, 3000, None)
        assert (c[0].status, c[0].nodes, c[1], c[3]) == (python[0].status, python[0].nodes, python[1], python[3]), deal
        assert c[0].sequence == python[0].sequence, deal
        if c[0].status is Status.SOLVED:
            assert replay(deal, list(c[0].sequence), complete=True).valid, deal
        seen[c[0].status, c[1]] += 1
    assert seen[Status.UNKNOWN, "forward"] + seen[Status.UNKNOWN, "backward"] >= 1, seen
    assert seen[Status.SOLVED, "backward"] + seen[Status.UNSOLVABLE, "backward"] >= 1, seen
    assert seen[Status.SOLVED, "forward"] + seen[Status.UNSOLVABLE, "forward"] >= 1, seen


def test_both_decides_at_once_what_the_back_decides_at_once():
    """A deal the front leaves open for a million nodes and the back wins in 186: in turn, the
    front's first round and the back's, and the win replays. (The turns of issue 41 before, each
    starting afresh with four times the last budget, spent 250,000 nodes on the front first.)"""
    deal = random_deal(13, 8, 6, 10)
    assert engine.run(deal, "c", ALL_ON, False, 1_000_000, None)[0].status is Status.UNKNOWN
    result = solve(deal, "native", Limits(timeout=30), {"direction": "both"})
    assert result.status is Status.SOLVED and result.stats["route"] == "backward"
    assert result.stats["backward_nodes"] < 1000 and result.nodes < 2000
    assert replay(deal, list(result.sequence), complete=True).valid


def test_both_needs_restarts():
    with pytest.raises(UsageError, match="needs restarts"):
        solve(random_deal(6, 2, 3, 1), "native", Limits(timeout=30), {"direction": "both", "restarts": "off"})
