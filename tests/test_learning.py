"""The search that learns (_search.learning, issue 55 item 1; docs/hardness.md): a failure whose refutation kept
the foundation within an arc of ranks cuts every position with the same piles in the arc widened by one. Every
learned cut must be sound: on random small deals, from the front and from the back, the verdict with learning on
is the exhaustive search's (the failure cache alone), under several sets of rules, and learned cuts are made."""

import random

import pytest

from patience.api import random_deal
from patience.native import engine
from patience.native.board import Board
from patience.native.rules import Rules

pytestmark = pytest.mark.skipif(not engine.compiled(), reason="needs the compiled search")

EXHAUSTIVE = Rules.only("cache")
LEARNING = (Rules(), Rules(reach=False), Rules(reach=False, symmetry=False, wolter=False, restarts=False))
LIMIT = 2_000_000


def verdict(board: Board, rules: Rules, learn: bool) -> tuple[str, tuple[int, int, int]]:
    from patience.native import _search

    _search.learning(learn)
    try:
        found = _search.search(board.rank, board.pile_size, board.ranks, board.foundations, *rules.switches(), False,
                               LIMIT, 0.0, 0.0, 1 << 22, board.end)
    finally:
        counts = _search.learning(False)
    return found[0], counts


def boards(count: int, seed: int) -> list[Board]:
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        ranks = rng.choice((7, 8, 9, 10, 13))
        suits = rng.choice((2, 3, 4)) if ranks <= 10 else 2
        deal = random_deal(ranks, suits, rng.choice((2, 3, 4, 5)), rng.randrange(10**6))
        found += [Board.of(deal), Board.reversed_of(deal)]
    return found


def agree(count: int, seed: int) -> tuple[int, int]:
    """(boards decided, learned cuts made), asserting every verdict with learning is the exhaustive one's."""
    decided = cuts = 0
    for board in boards(count, seed):
        truth, _ = verdict(board, EXHAUSTIVE, False)
        if truth == "limit":
            continue
        decided += 1
        for rules in LEARNING:
            found, (_, hits, _) = verdict(board, rules, True)
            assert found == truth, (board, rules)
            cuts += hits
    return decided, cuts


def test_learned_cuts_are_sound_on_small_deals() -> None:
    decided, cuts = agree(20, 55)  # 40 boards, about 0.25 s of CPU
    assert decided >= 35 and cuts > 1000


@pytest.mark.slow
def test_learned_cuts_are_sound_on_thousands_of_small_deals() -> None:
    decided, cuts = agree(1500, 5501)  # 3,000 boards, about 17 s of CPU
    assert decided >= 2900 and cuts > 1_000_000


def test_learning_is_off_by_default() -> None:
    board = boards(1, 3)[0]
    from patience.native import _search

    _search.learning(False)
    before = _search.search(board.rank, board.pile_size, board.ranks, board.foundations, *Rules().switches(), False,
                            LIMIT, 0.0, 0.0, 1 << 22, board.end)
    assert _search.learning(False) == (0, 0, 0)
    assert before[0] in ("solved", "unsolvable")
