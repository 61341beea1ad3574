"""The compiled search on boards the deal type does not hold yet (two foundations, two decks) and
on deals far past 64 cards: against the Python reference, an exhaustive search, and a replay."""

from __future__ import annotations

import itertools
import random

import pytest

from patience.cards import Card
from patience.generators.deals import random_deal
from patience.native import engine, reference
from patience.native.board import Board
from patience.native.rules import Rules
from patience.result import Status
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.validator import replay
from tests.helpers import needs_compiled_search

pytestmark = needs_compiled_search

ALL_ON = Rules()


def two_foundation_board(ranks: int, decks: int, height: int, seed: int, empty: bool = False) -> Board:
    """Random cards of `decks` decks of `ranks` x 2 suits, two foundation cards (or two empty
    foundations), the rest in piles of `height`: a small Binary Star."""
    cards = [Card(rank, suit) for _ in range(decks) for suit in range(2) for rank in range(ranks)]
    rng = random.Random(seed)
    rng.shuffle(cards)
    foundations = [None, None] if empty else [cards.pop(), cards.pop()]
    piles = [cards[start:start + height] for start in range(0, len(cards), height)]
    return Board.of_piles(piles, foundations, ranks)


def binary_star_board(seed: int) -> Board:
    """Binary Star's layout from a random shuffle: two decks, A of spades and K of hearts on the two
    foundations, 17 piles of six cards."""
    deck = [Card(rank, suit) for _ in range(2) for suit in range(4) for rank in range(13)]
    deck.remove(Card(0, 0))
    deck.remove(Card(12, 1))
    random.Random(seed).shuffle(deck)
    return Board.of_piles([deck[start:start + 6] for start in range(0, 102, 6)], [Card(0, 0), Card(12, 1)], 13)


def plays_legally(board: Board, outcome, complete: bool) -> bool:
    """Replay a play on a board of several foundations: each card off its pile's top onto a
    foundation whose top rank is next to its own."""
    piles = [list(board.cards[start:start + size]) for start, size in zip(board.pile_start, board.pile_size,
                                                                          strict=True)]
    tops = list(board.foundations)
    for card, pile, foundation in zip(outcome.sequence, outcome.piles, outcome.foundations, strict=True):
        if not piles[pile] or piles[pile][0] != card or not board.follows(tops[foundation], card.rank):
            return False
        piles[pile].pop(0)
        tops[foundation] = card.rank
    return not complete or not any(piles)


def run_c(board: Board, rules=ALL_ON, max_cards: bool = False, nodes: int | None = None):
    outcome, used = engine.run_board(board, "c", rules, max_cards, nodes, None)
    assert used == "c"
    return outcome


def small_two_foundation_boards(count: int):
    shapes = itertools.cycle([(4, 2, 2), (5, 1, 3), (3, 2, 2), (6, 1, 2), (4, 1, 3), (3, 2, 3)])
    for seed, (ranks, decks, height) in zip(range(count), shapes, strict=False):
        yield two_foundation_board(ranks, decks, height, seed, empty=seed % 5 == 0)


@pytest.mark.parametrize("switched_off", [(), ("cache",), ("symmetry", "wolter"), ("reach",), Rules.names()])
def test_two_foundations_decided_like_an_exhaustive_search(switched_off):
    rules = Rules.of({rule: rule not in switched_off for rule in Rules.names()})
    verdicts = set()
    for board in small_two_foundation_boards(200):
        assert len(board) <= 16
        truth = reference.search(board, Rules.only())
        outcome = run_c(board, rules)
        assert outcome.status == truth.status, board
        if outcome.status == Status.SOLVED:
            assert plays_legally(board, outcome, complete=True)
        verdicts.add(truth.status)
    assert verdicts == {Status.SOLVED, Status.UNSOLVABLE}


def test_two_foundations_longest_play_like_an_exhaustive_search():
    for board in small_two_foundation_boards(200):
        truth = reference.search(board, Rules.only(), max_cards=True)
        outcome = run_c(board, max_cards=True)
        assert outcome.max_cards == truth.max_cards == len(outcome.sequence), board
        assert plays_legally(board, outcome, complete=False)


def test_two_foundations_same_search_as_reference():
    """Larger boards, the same node limit for both: equal status, nodes and longest play."""
    decided = 0
    for seed in range(30):
        board = two_foundation_board(8 + seed % 6, 2 + seed % 3, 3 + seed % 3, seed, empty=seed % 6 == 1)
        for max_cards in (False, True):
            python = reference.search(board, Rules(),
                                      max_cards=max_cards, node_limit=3000)
            outcome = run_c(board, max_cards=max_cards, nodes=3000)
            assert (outcome.status, outcome.nodes, outcome.max_cards) == (python.status, python.nodes,
                                                                          python.max_cards), (seed, max_cards)
            decided += outcome.status.decided
    assert decided >= 20


def test_binary_star_layouts_decided_in_c():
    seen = set()
    for seed in (1, 2, 14, 15):
        board = binary_star_board(seed)
        python = reference.search(board, Rules())
        outcome = run_c(board)
        assert (outcome.status, outcome.nodes) == (python.status, python.nodes)
        if outcome.status == Status.SOLVED:
            assert plays_legally(board, outcome, complete=True) and len(outcome.sequence) == 102
        seen.add(outcome.status)
    assert seen == {Status.SOLVED, Status.UNSOLVABLE}


def test_a_board_with_one_foundation_is_the_deal():
    deal = random_deal(9, 3, 3, 4)
    assert Board.of_piles(deal.piles, [deal.foundation], deal.ranks) == Board.of(deal)


def test_five_hundred_card_deals_in_c():
    won = random_deal(10, 50, 5, 2)  # 499 cards
    result = solve(won, "native", Limits(timeout=60))
    assert result.status is Status.SOLVED and result.stats["engine"] == "c"
    assert replay(won, result.sequence).valid and len(result.sequence) == 499
    lost = random_deal(100, 5, 3, 0)  # 499 cards of 100 ranks
    result = solve(lost, "native", Limits(timeout=60), {"direction": "forward"})
    python = reference.search(Board.of(lost), Rules())
    assert result.status is Status.UNSOLVABLE and python.status == Status.UNSOLVABLE
    assert result.nodes == python.nodes and result.stats["engine"] == "c"


def test_a_thousand_card_deal_in_c():
    deal = random_deal(8, 128, 4, 0)  # 1,023 cards in 256 piles
    result = solve(deal, "native", Limits(timeout=60))
    assert result.status is Status.SOLVED and result.stats["engine"] == "c"
    assert replay(deal, result.sequence).valid


def test_boards_the_compiled_search_refuses_go_to_the_reference():
    board = Board.of_piles([[Card(1, 0)], [Card(2, 0)]], [Card(0, 0)] * 5, 3)  # five foundations
    outcome, used = engine.run_board(board, None, ALL_ON, False, None, None)
    assert used == "python" and outcome.status == Status.SOLVED
    cards = [Card(rank, suit) for suit in range(820) for rank in range(10)]
    assert engine.fits(Board.of_piles([cards[:8192]], [None], 10))
    assert not engine.fits(Board.of_piles([cards[:8193]], [None], 10))
