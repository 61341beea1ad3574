"""The compiled search against the Python reference and against an exhaustive search with no
pruning: same verdicts, same longest plays, and every win replays."""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

import pytest

from patience.cards import Card
from patience.deal import Deal
from patience.generators.deals import pysol_deal, random_deal
from patience.native import engine, reference
from patience.native.board import Board, live_cards, ranks_reachable, reachable_ranks, unplayable_excess
from patience.native.rules import Rules
from patience.result import Status
from patience.validator import replay
from tests.helpers import needs_compiled_search

# The whole file runs in the slow set (`pytest -m slow`, in .ci/run): with it the default set passed its
# budget of 300 s of CPU (tests/README.md, "Where the time goes"); the solver contract tests keep each
# route in the default set.
pytestmark = [needs_compiled_search, pytest.mark.slow]

ALL_ON = Rules()


def compiled(deal: Deal, rules=ALL_ON, max_cards: bool = False, nodes: int | None = None):
    return engine.run(deal, "c", rules, max_cards, nodes, None)[0]


def exhaustive(deal: Deal, max_cards: bool = False):
    """No pruning and no cache: every play is tried."""
    return reference.search(Board.of(deal), Rules.only(), max_cards=max_cards)


def small_deals(count: int):
    """Random generalised deals of at most 15 cards, with and without a foundation card."""
    shapes = itertools.cycle([(8, 2, 3), (6, 2, 3), (9, 1, 2), (7, 2, 3), (5, 2, 4), (5, 3, 3), (6, 2, 4)])
    for seed, (ranks, suits, height) in zip(range(count), shapes, strict=False):
        yield random_deal(ranks, suits, height, seed, empty_foundation=seed % 3 == 0)


def check_win(deal: Deal, outcome) -> None:
    if outcome.status == Status.SOLVED:
        assert replay(deal, outcome.sequence).valid


@pytest.mark.parametrize("rule", Rules.names())
def test_the_switches_follow_the_fields(rule):
    """The compiled search takes the switches by position, in the fields' order, one for each field."""
    assert Rules.only(rule).switches() == tuple(name == rule for name in Rules.names())


@pytest.mark.parametrize("switched_off", [(), *((rule,) for rule in Rules.names()), Rules.names()])
def test_no_rule_changes_a_verdict(switched_off):
    rules = Rules.of({rule: rule not in switched_off for rule in Rules.names()})
    verdicts = set()
    for deal in small_deals(300):
        truth = exhaustive(deal)
        outcome = compiled(deal, rules)
        assert outcome.status == truth.status, deal
        check_win(deal, outcome)
        verdicts.add(truth.status)
    assert verdicts == {Status.SOLVED, Status.UNSOLVABLE}


def test_max_cards_matches_exhaustive_search():
    for deal in small_deals(300):
        truth = exhaustive(deal, max_cards=True)
        outcome = compiled(deal, max_cards=True)
        assert outcome.max_cards == truth.max_cards, deal
        assert replay(deal, outcome.sequence, complete=False).valid
        assert len(outcome.sequence) == outcome.max_cards


def test_same_search_as_reference_on_pysol_deals():
    """Both engines run the same search, so verdicts and node counts agree exactly (deals 1-150 of
    both games, to the end, in the slow test below)."""
    compared = 0
    for game, seed in itertools.product(("black_hole", "all_in_a_row"), range(1, 21)):
        deal = pysol_deal(game, seed)  # a limit past the first restart
        python = reference.search(Board.of(deal), Rules(),
                                  node_limit=3000)
        if not python.status.decided:
            continue
        outcome = compiled(deal)
        assert (outcome.status, outcome.nodes) == (python.status, python.nodes), (game, seed)
        check_win(deal, outcome)
        compared += 1
    assert compared >= 20


@pytest.mark.slow
def test_same_verdicts_as_reference_on_hundreds_of_pysol_deals():
    for game, seed in itertools.product(("black_hole", "all_in_a_row"), range(1, 151)):
        deal = pysol_deal(game, seed)
        python = reference.search(Board.of(deal), Rules())
        outcome = compiled(deal)
        assert (outcome.status, outcome.nodes) == (python.status, python.nodes), (game, seed)
        check_win(deal, outcome)


def test_limits_never_give_a_verdict():
    deal = pysol_deal("black_hole", 7)  # won in about 3,000 nodes
    outcome = compiled(deal, nodes=1000)  # the node limit: unknown, by the rule of patience.result
    assert outcome.status is Status.UNKNOWN and outcome.nodes == 1000
    assert reference.search(Board.of(deal), Rules(), node_limit=1000).status is Status.UNKNOWN
    for engine_name in ("c", "python"):  # the clock: timeout
        timed = engine.run(deal, engine_name, Rules.only(), False, None, 0.05)[0]
        assert timed.status is Status.TIMEOUT, engine_name


def test_all_in_a_row_twin_has_the_same_verdict():
    for seed in range(1, 31):
        deal = pysol_deal("all_in_a_row", seed)
        assert compiled(deal).status == compiled(deal.reversed_piles()).status, seed


def test_rank_reachability_finds_gaps_on_the_cycle():
    counts = [0] * 13
    counts[4] = counts[9] = 1  # 5s and 10s left, no 3s and no 7s...
    assert not ranks_reachable(4, counts, 13)
    counts[5] = counts[6] = counts[7] = counts[8] = 1  # ...unless 6 to 9 bridge them
    assert ranks_reachable(4, counts, 13)
    counts = [0] * 13
    counts[4] = 1  # only the hole's own rank left: it can never be played
    assert not ranks_reachable(4, counts, 13)
    assert ranks_reachable(4, [0] * 13, 13)


def test_a_full_cache_forgets_but_never_lies():
    """With the smallest cache a hard deal (won in about 750,000 nodes, the cache holding 16,384
    states) still gets its verdict, with more nodes."""
    deal = pysol_deal("black_hole", 2446)
    roomy = compiled(deal)
    cramped = engine.run(deal, "c", ALL_ON, False, None, None, memory_mb=1)[0]
    assert cramped.status == roomy.status == Status.SOLVED
    assert cramped.nodes > roomy.nodes and cramped.cached < roomy.cached
    check_win(deal, cramped)


# Shapes (ranks, suits, pile height) of 65 to 200 cards, some mostly won, some mostly lost; the last
# has more ranks than a 64-bit mask holds.
LARGE_SHAPES = [(13, 8, 3), (10, 15, 5), (8, 20, 2), (26, 4, 3), (6, 30, 4), (20, 6, 3), (13, 10, 4), (33, 2, 2),
                (70, 2, 2)]


def large_deals(count: int, first_seed: int = 0):
    """Random generalised deals of 65 to 200 cards: more than one 64-bit word per state."""
    shapes = itertools.cycle(LARGE_SHAPES)
    for seed, (ranks, suits, height) in zip(range(first_seed, first_seed + count), shapes, strict=False):
        yield random_deal(ranks, suits, height, seed, empty_foundation=seed % 7 == 3)


def agree_on_large_deals(count: int, nodes: int, max_cards: bool = False) -> Counter:
    """Both engines run the same search: equal status, nodes and longest play, a limit included."""
    seen: Counter = Counter()
    for deal in large_deals(count):
        assert 65 <= len(deal.cards) <= 200
        python = reference.search(Board.of(deal), Rules(),
                                  max_cards=max_cards, node_limit=nodes)
        outcome = compiled(deal, max_cards=max_cards, nodes=nodes)
        assert (outcome.status, outcome.nodes, outcome.max_cards) == (python.status, python.nodes,
                                                                      python.max_cards), deal
        check_win(deal, outcome)
        seen[outcome.status] += 1
    return seen


def test_same_search_as_reference_on_large_generalised_deals():
    seen = agree_on_large_deals(25, 5000)
    assert seen[Status.SOLVED] >= 7 and seen[Status.UNSOLVABLE] >= 1


@pytest.mark.slow
def test_same_verdicts_as_reference_on_hundreds_of_large_generalised_deals():
    seen = agree_on_large_deals(300, 20000)
    assert seen[Status.SOLVED] + seen[Status.UNSOLVABLE] >= 150


def test_same_longest_plays_as_reference_on_large_generalised_deals():
    seen = agree_on_large_deals(12, 4000, max_cards=True)
    assert seen[Status.UNSOLVABLE] >= 1 and seen[Status.SOLVED] >= 5


def test_a_batch_gives_what_single_searches_give():
    deals = [pysol_deal("black_hole", seed) for seed in range(1, 31)] + list(large_deals(6))
    for max_cards in (False, True):
        rows = engine.decide_many([Board.of(deal) for deal in deals], ALL_ON, max_cards, node_limit=50000)
        for deal, row in zip(deals, rows, strict=True):
            single = compiled(deal, max_cards=max_cards, nodes=50000)
            assert (row.status, row.max_cards, row.nodes) == (single.status, single.max_cards, single.nodes)
            assert row.seconds >= 0


def longest_plays(board: Board):
    """The exact longest play from every state (cards taken per pile, the foundation's top rank),
    memoised, with no pruning: the truth the balance bound is checked against."""
    @cache
    def longest(taken: tuple[int, ...], top: int) -> int:
        best = 0
        for pile, (start, size) in enumerate(zip(board.pile_start, board.pile_size, strict=True)):
            if taken[pile] < size and board.follows(top, board.rank[start + taken[pile]]):
                after = taken[:pile] + (taken[pile] + 1,) + taken[pile + 1:]
                best = max(best, 1 + longest(after, board.rank[start + taken[pile]]))
        return best
    return longest


def test_balance_bound_never_cuts_a_play_on_every_state_of_small_deals():
    """One foundation: on every state of small deals (any cards taken from each pile, any top rank
    or none), the cards the balance bound lets through are never fewer than the longest play from
    there, so neither a win nor a longest play is ever cut; and the bound does cut somewhere."""
    cut, tight = 0, 0
    for deal in small_deals(40):
        board = Board.of(deal)
        longest = longest_plays(board)
        for taken in itertools.product(*(range(size + 1) for size in board.pile_size)):
            counts = [0] * board.ranks
            for start, size, gone in zip(board.pile_start, board.pile_size, taken, strict=True):
                for card in range(start + gone, start + size):
                    counts[board.rank[card]] += 1
            for top in range(-1, board.ranks):
                reached = reachable_ranks((top,), counts, board.ranks)
                excess = unplayable_excess(top, counts, reached, board.ranks)
                bound = sum(counts[rank] for rank in reached) - excess
                truth = longest(taken, top)
                assert excess >= 0 and truth <= bound, (deal, taken, top)
                cut += excess > 0
                tight += excess > 0 and truth == bound
    assert cut > 1000 and tight > 100


def test_live_card_bound_never_cuts_a_play_on_every_state_of_small_deals():
    """One foundation: on every state of small deals (any cards taken from each pile, any top rank
    or none), the live cards are never fewer than the longest play from there, and never more than
    the cards of the reachable ranks; and the bound is below reachability's and tight somewhere."""
    below, tight = 0, 0
    for deal in small_deals(40):
        board = Board.of(deal)
        longest = longest_plays(board)
        for taken in itertools.product(*(range(size + 1) for size in board.pile_size)):
            played, counts = 0, [0] * board.ranks
            for start, size, gone in zip(board.pile_start, board.pile_size, taken, strict=True):
                played |= (1 << (start + gone)) - (1 << start)
                for card in range(start + gone, start + size):
                    counts[board.rank[card]] += 1
            for top in range(-1, board.ranks):
                live = live_cards(board, played, top)
                reach = sum(counts[rank] for rank in reachable_ranks((top,), counts, board.ranks))
                truth = longest(taken, top)
                assert truth <= live <= reach, (deal, taken, top)
                below += live < reach
                tight += live < reach and truth == live
    assert below > 1000 and tight > 100


def test_live_card_bound_counts_cards_stuck_under_cards_that_cannot_go():
    """A 10 on a 9, the top on an 8, no other 9, 10 or J: reachability counts both, yet the 10
    needs the 9 (or a J) first and the 9 lies under it: neither can go."""
    stuck = Board.of(Deal(((Card(9, 0), Card(8, 0)), (Card(2, 0),)), Card(7, 0), 13))
    assert live_cards(stuck, 0, 7) == 0
    assert live_cards(stuck, 0, 10) == 2  # on a J: the 10, then the 9
    assert live_cards(stuck, 0b1, 7) == 1  # the 10 gone: the 9 goes on the 8
    assert live_cards(stuck, 0, -1) == 3  # an empty foundation takes any card first


def test_balance_bound_counts_what_cannot_follow():
    counts = [0] * 13
    counts[4], counts[3] = 3, 1  # three 5s, one 4, no 6
    assert unplayable_excess(2, counts, {3, 4}, 13) == 2  # on a 3: 4, 5 and no more
    assert unplayable_excess(3, counts, {3, 4}, 13) == 1  # on a 4: 5, 4, 5
    assert unplayable_excess(2, counts, {3}, 13) == 0  # the 5s out of reach are not counted
    assert unplayable_excess(-1, counts, {3, 4}, 13) == 1  # an empty foundation takes any card first


def test_shuffled_restarts_keep_the_verdicts(monkeypatch):
    """Rounds of a few nodes each (many restarts, each in a shuffled pile order with some piles
    counted taller) still decide every small deal as the exhaustive search does. Before the
    interchangeability rules marked a rank only for a kept card, an order with a one-card pile ahead
    of a taller pile of one rank dropped both, and wins were lost."""
    monkeypatch.setattr(reference, "ONE_LUBY_UNIT", 2)
    monkeypatch.setattr(reference, "ONE_LUBY_PER_CARD", 0)
    restarted = 0
    shapes = itertools.cycle([(4, 4, 2), (6, 3, 2)])  # piles of two: one-card piles beside unit piles
    for seed, shape in zip(range(400), shapes, strict=False):
        deal = random_deal(*shape, seed, empty_foundation=seed % 3 == 0)
        python = reference.search(Board.of(deal), Rules())
        assert python.status == exhaustive(deal).status, deal
        check_win(deal, python)
        restarted += python.nodes > 8  # past the first rounds' budgets of 2, 2, 4
    assert restarted > 50


def test_a_one_card_pile_first_never_drops_its_rank():
    """A unit pile of two 3s and a one-card pile of a 3, the one-card pile ordered first: one of
    them is kept (the taller), never neither."""
    deal = Deal(((Card(2, 1), Card(2, 2)), (Card(2, 3),)), Card(1, 0))  # 3H 3D | 3C, the hole on 2S
    board = Board.of(deal)
    tall, single = board.pile_start
    kept = reference.interchangeable(board, [(-1, single, 0), (-2, tall, 0)], symmetry=True, wolter=True)
    assert [card for _, card, _ in kept] == [tall]


def test_restart_rounds_grow_with_a_large_deal_and_keep_black_holes():
    """A round of one foundation gets ONE_LUBY_PER_CARD nodes a card when that beats ONE_LUBY_UNIT:
    Black Hole's 51 cards keep 250, an 831-card deal gets 3,324; several foundations keep theirs."""
    assert reference.luby_unit(1, 51) == reference.luby_unit(1, 62) == reference.ONE_LUBY_UNIT == 250
    assert reference.luby_unit(1, 831) == 4 * 831
    assert reference.luby_unit(2, 831) == reference.LUBY_UNIT
    rounds = reference.Rounds(167, 1, 831)
    budgets = [rounds.budget] + [(rounds.next(), rounds.budget)[1] for _ in range(6)]
    assert budgets == [3324 * term for term in (1, 1, 2, 1, 1, 2, 4)]


# Shapes past the 64-bit masks (more than 64 piles, or ranks) near the threshold, whose exact search
# (the failure cache only) ends within a few thousand nodes on many seeds, won and lost: where the
# rule `wide` puts the balance and live-card bounds.
WIDE_SHAPES = [(22, 6, 2), (33, 5, 2), (44, 3, 2), (70, 3, 2), (65, 4, 3), (33, 4, 2)]


def wide_deals(count: int):
    shapes = itertools.cycle(WIDE_SHAPES)
    for seed, shape in zip(range(count), shapes, strict=False):
        yield random_deal(*shape, seed, empty_foundation=seed % 5 == 2)


def test_wide_bounds_never_change_a_verdict_past_the_masks():
    """Rule `wide` (the balance and live-card bounds on boards of more than 64 piles or ranks) against
    the exact search, the failure cache alone: the same verdict wherever the exact search ends, won
    and lost; and it cuts there (fewer nodes than with `wide` off, on most deals)."""
    verdicts, fewer = Counter(), 0
    for deal in wide_deals(60):
        board = Board.of(deal)
        assert len(board.pile_size) > 64 or board.ranks > 64
        truth = engine.run_board(board, "c", Rules.only("cache"), False, 20000, None)[0]
        wide = engine.run_board(board, "c", Rules(), False, 20000, None)[0]
        narrow = engine.run_board(board, "c", Rules(wide=False), False, 20000, None)[0]
        if truth.status.decided:
            assert wide.status == truth.status, deal
            verdicts[truth.status] += 1
        check_win(deal, wide)
        fewer += wide.nodes < narrow.nodes
    assert verdicts[Status.SOLVED] >= 10 and verdicts[Status.UNSOLVABLE] >= 5 and fewer >= 25


@pytest.mark.parametrize("wide", [True, False])
def test_same_search_as_reference_past_the_masks(wide):
    """The compiled live-card count and balance bound for any board (live_cards_any,
    unplayable_excess_any) run the reference's search node for node, in both modes, with `wide` on
    and off (off: the search before the rule)."""
    rules = Rules(wide=wide)
    for max_cards in (False, True):
        for deal in wide_deals(6):
            python = reference.search(Board.of(deal), rules, max_cards=max_cards, node_limit=1200)
            outcome = compiled(deal, rules, max_cards=max_cards, nodes=1200)
            assert (outcome.status, outcome.nodes, outcome.max_cards) == (python.status, python.nodes,
                                                                          python.max_cards), (deal, max_cards)
            check_win(deal, outcome)


def test_reachability_runs_on_a_multiple_of_64_ranks():
    """With 128 ranks the mask of every rank came out 0, the same as the mask of ranks present (kept
    only up to 64), and the compiled search never ran reachability: 211 nodes against the
    reference's 192 on seed 3."""
    for seed in range(6):
        deal = random_deal(128, 2, 2, seed)
        for rules in (Rules(), Rules(wide=False)):
            python = reference.search(Board.of(deal), rules, node_limit=2000)
            outcome = compiled(deal, rules, nodes=2000)
            assert (outcome.status, outcome.nodes) == (python.status, python.nodes), (seed, rules)
