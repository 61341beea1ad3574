"""The plain search (patience.plain_search, `--solver plain`): the second method for the native
search's losses. Held to a brute force written here (every play tried, no bound), its live-card bound
to the truth on every state of small deals, and to the native search on larger random deals."""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from patience.cards import ranks_adjacent
from patience.deal import Deal
from patience.generators.deals import pysol_deal, random_deal
from patience.names import GENERALISED
from patience.plain_search import BACKWARD, FORWARD, _Direction, search
from patience.result import Status
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.validator import replay


def small_deals(count: int):
    """Random deals of at most 15 cards, a third without a foundation card."""
    shapes = itertools.cycle([(8, 2, 3), (6, 2, 3), (9, 1, 2), (7, 2, 3), (5, 2, 4), (5, 3, 3), (6, 2, 4), (3, 4, 2)])
    for seed, (ranks, suits, height) in zip(range(count), shapes, strict=False):
        yield random_deal(ranks, suits, height, seed, empty_foundation=seed % 3 == 0)


def winnable_from(piles: list[tuple[int, ...]], ranks: int, end: int | None):
    """Brute force: whether every card left can be played from (cards taken per pile, top rank or -1),
    the last card next to `end` when there is one."""
    @cache
    def wins(taken: tuple[int, ...], top: int) -> bool:
        if all(gone == len(pile) for gone, pile in zip(taken, piles, strict=True)):
            return end is None or ranks_adjacent(top, end, ranks)
        return any(wins(taken[:index] + (taken[index] + 1,) + taken[index + 1:], pile[taken[index]])
                   for index, pile in enumerate(piles)
                   if taken[index] < len(pile) and (top < 0 or ranks_adjacent(top, pile[taken[index]], ranks)))
    return wins


def test_the_plain_search_decides_as_the_brute_force_and_its_wins_replay():
    verdicts = set()
    for deal in small_deals(400):
        top = -1 if deal.foundation is None else deal.foundation.rank
        truth = winnable_from([tuple(card.rank for card in pile) for pile in deal.piles], deal.ranks, None)(
            (0,) * len(deal.piles), top)
        found = search(deal)
        assert found.limited_by is None and (found.won is not None) != found.lost, deal
        assert (found.won is not None) == truth, deal
        if found.won is not None:
            assert replay(deal, found.won).valid, deal
        verdicts.add((truth, found.direction))
    assert {(True, FORWARD), (False, FORWARD)} <= verdicts


@pytest.mark.parametrize("direction", [FORWARD, BACKWARD])
def test_the_live_card_bound_never_cuts_a_win_on_every_state_of_small_deals(direction):
    """On every state (any cards taken from each pile, any top rank or none) of small deals, from the
    front and (piles turned over, ending next to the foundation card) from the back: a state the bound
    calls lost has no win, and the bound does cut somewhere."""
    cut = 0
    for deal in small_deals(60):
        if direction == BACKWARD and deal.foundation is None:
            continue
        piles = deal.piles if direction == FORWARD else [tuple(reversed(pile)) for pile in deal.piles]
        end = None if direction == FORWARD else deal.foundation.rank
        board = _Direction(piles, deal.ranks, None, end)
        ranked = [tuple(card.rank for card in pile) for pile in piles]
        wins = winnable_from(ranked, deal.ranks, end)
        for taken in itertools.product(*(range(len(pile) + 1) for pile in piles)):
            left = sum(len(pile) - gone for pile, gone in zip(piles, taken, strict=True))
            if left == 0:
                continue
            for top in [None, *range(deal.ranks)]:
                if not board.enough_live(top, list(taken), left):
                    cut += 1
                    assert not wins(taken, -1 if top is None else top), (deal, taken, top)
    assert cut > 0


def test_the_back_decides_what_the_front_leaves_open():
    """A held-out deal of 800 cards (docs/hardness.md) the plain search refutes from the back within
    its first turn, where the front's first turn of 1,000 nodes does not."""
    deal = random_deal(100, 8, 4, 7)
    found = search(deal, node_limit=100_000)
    assert found.lost and found.direction == BACKWARD and found.nodes > 1_000


def test_a_node_limit_and_the_cpu_clock_end_it_undecided():
    deal = random_deal(52, 16, 6, 1)  # open to every method tried (docs/hardness.md)
    by_nodes = search(deal, node_limit=5_000)
    assert (by_nodes.won, by_nodes.lost, by_nodes.limited_by, by_nodes.nodes) == (None, False, "nodes", 5_000)
    by_cpu = search(deal, cpu_seconds=0.3)
    assert (by_cpu.won, by_cpu.lost, by_cpu.limited_by) == (None, False, "cpu")


def agreeing(deal: Deal, limits: Limits) -> tuple[Status, Status]:
    plain = solve(deal, "plain", limits)
    native = solve(deal, "native", limits, {"direction": "forward", "then": "none"})
    return plain.status, native.status


def test_plain_agrees_with_the_native_search_on_random_deals_at_the_threshold():
    """Deals of 26 to 104 cards near the won-lost threshold and the PySolFC games, through `patience
    solve`: the same verdict by both wherever both decide, every win replayed by the runner core."""
    seen = []
    deals = [random_deal(ranks, suits, height, seed) for seed in range(8)
             for ranks, suits, height in ((13, 2, 2), (13, 4, 3), (26, 2, 2))]
    deals += [random_deal(13, 8, 6, 0), random_deal(13, 8, 6, 5), random_deal(26, 4, 3, 0),
              pysol_deal("black_hole", 2), pysol_deal("all_in_a_row", 4)]
    for deal in deals:
        plain, native = agreeing(deal, Limits(timeout=20))
        if Status.SOLVED in (plain, native) and Status.UNSOLVABLE in (plain, native):
            raise AssertionError(f"plain {plain}, native {native}: {deal}")
        seen.append(plain)
    assert seen.count(Status.SOLVED) >= 5 and seen.count(Status.UNSOLVABLE) >= 5


def test_the_plain_solver_reports_limits_and_its_route():
    deal = random_deal(100, 8, 4, 7)
    lost = solve(deal, "plain", Limits(timeout=60))
    assert lost.status == Status.UNSOLVABLE and lost.stats["route"] == BACKWARD and lost.nodes > 0
    open_deal = random_deal(52, 16, 6, 1)
    assert solve(open_deal, "plain", Limits(timeout=60), {"nodes": "3000"}).status == Status.UNKNOWN
    timed = solve(open_deal, "plain", Limits(timeout=60, cpu=1.5))
    assert timed.status == Status.TIMEOUT and timed.message == "CPU time limit reached"
    assert deal.game == GENERALISED


# The whole file runs in the slow set (`pytest -m slow`, in .ci/run): with it the default set passed its
# budget of 300 s of CPU (tests/README.md, "Where the time goes"); the solver contract tests keep each
# route in the default set.
pytestmark = pytest.mark.slow
