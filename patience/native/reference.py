"""The pure-Python reference of the native search: depth-first over the cards that can be played
next, with the failure cache of Gent et al. (section 5.1). It is the oracle the compiled search is
tested against, and the engine for deals the compiled search cannot take.

A state is the set of cards played (an int used as a bitset) and the hole's rank: whether a play
can be completed depends on nothing else, so a state that failed once is never searched again.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from patience.cards import Card
from patience.native.board import Board, ranks_reachable

SOLVED, UNSOLVABLE, LIMIT = "solved", "unsolvable", "limit"
_CLOCK_EVERY = 1024  # nodes between looks at the clock


@dataclass(frozen=True)
class Outcome:
    """What a search found: `sequence` is a win (solved) or, in max-cards mode, a longest play."""

    status: str
    sequence: tuple[Card, ...] | None
    nodes: int
    max_cards: int
    cached: int


def search(board: Board, cache: bool = True, reach: bool = False, max_cards: bool = False,
           node_limit: int | None = None, seconds: float | None = None, symmetry: bool = False,
           wolter: bool = False) -> Outcome:
    """Decide `board`. With `max_cards` the search never stops at a win it cannot find: it keeps
    the longest play (rank reachability is then ignored, since it cuts partial plays short).
    On a node or time limit the status is LIMIT, never a guess. `symmetry` and `wolter` switch on
    the same interchangeability rules as the compiled search (see `interchangeable`)."""
    reach = reach and not max_cards
    size = len(board)
    every = (1 << size) - 1
    deadline = None if seconds is None else time.monotonic() + seconds
    counts = [0] * board.ranks
    for rank in board.rank:
        counts[rank] += 1
    failed: set[tuple[int, int]] = set()
    path: list[int] = []
    best: list[int] = []
    played, hole, nodes = 0, board.start_rank, 1

    def moves() -> list[int]:
        """Cards playable now, not known to fail, tallest pile first (the move ordering)."""
        found = []
        for pile, start in enumerate(board.pile_start):
            left = board.pile_size[pile]
            for card in range(start, start + board.pile_size[pile]):
                if not played >> card & 1:
                    break
                left -= 1
            else:
                continue
            rank = board.rank[card]
            if not board.follows(hole, rank):
                continue
            found.append((-left, card))
        kept = []
        for _, card in interchangeable(board, sorted(found), symmetry, wolter):
            rank = board.rank[card]
            if cache and (played | 1 << card, rank) in failed:
                continue
            if reach:
                counts[rank] -= 1
                stranded = not ranks_reachable(rank, counts, board.ranks)
                counts[rank] += 1
                if stranded:
                    continue
            kept.append(card)
        return kept

    stack = [moves()]
    while stack:
        if played == every:
            return Outcome(SOLVED, tuple(board.cards[card] for card in path), nodes, size, len(failed))
        if len(path) > len(best):
            best = list(path)
        options = stack[-1]
        if options:
            if (node_limit is not None and nodes >= node_limit) or (
                    deadline is not None and nodes % _CLOCK_EVERY == 0 and time.monotonic() > deadline):
                return Outcome(LIMIT, None, nodes, len(best), len(failed))
            card = options.pop(0)
            nodes += 1
            played |= 1 << card
            hole = board.rank[card]
            counts[hole] -= 1
            path.append(card)
            stack.append(moves())
            continue
        stack.pop()
        if cache:
            failed.add((played, hole))
        if path:
            card = path.pop()
            played &= ~(1 << card)
            counts[board.rank[card]] += 1
            hole = board.rank[path[-1]] if path else board.start_rank
    longest = tuple(board.cards[card] for card in best) if max_cards else None
    return Outcome(UNSOLVABLE, longest, nodes, len(best), len(failed))


def interchangeable(board: Board, moves: list[tuple[int, int]], symmetry: bool,
                    wolter: bool) -> list[tuple[int, int]]:
    """Drop moves that some kept move of the same rank makes redundant, (minus height, card) pairs.

    A unit card (only its own rank beneath it) exposes no other rank, so any play of it can be
    swapped with a same-rank card still to be played: with symmetry, no unit card is tried while
    a general card of its rank can be played, and only one unit card per rank. Wolter's rules are
    the cases of it he stated: no last card of a pile while its rank tops a pile of two or more,
    and one card of each rank among the one-card piles."""
    if not (symmetry or wolter):
        return moves
    general_ranks = {board.rank[card] for _, card in moves if not board.unit[card]}
    tall_ranks = {board.rank[card] for height, card in moves if height < -1}
    kept, unit_seen, single_seen = [], set(), set()
    for height, card in moves:
        rank = board.rank[card]
        if symmetry and board.unit[card]:
            if rank in general_ranks or rank in unit_seen:
                continue
            unit_seen.add(rank)
        if wolter and height == -1:
            if rank in tall_ranks or rank in single_seen:
                continue
            single_seen.add(rank)
        kept.append((height, card))
    return kept
