"""The native LBS solver: depth-first search over rows of top cards with a failure cache.

A row that once failed fails again wherever it is reached, so each dead row is searched once.
A row is also dead when one of its top cards shares neither suit nor value with any other top:
that pile can never move nor be covered, so two piles at least always remain.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from patience.lbs.deal import LBSDeal
from patience.lbs.rules import STEPS, Move, play
from patience.result import Status


@dataclass(frozen=True)
class Search:
    """The verdict: moves (a win), None with `complete` (no win exists), or None when a limit hit."""

    moves: tuple[Move, ...] | None
    complete: bool
    nodes: int
    seconds: float
    cpu_limited: bool = False  # stopped at the CPU budget (not the wall clock or the node limit)
    longest: tuple[Move, ...] | None = None  # max-cards mode, a lost deal: a play of the most moves any makes

    @property
    def verdict(self) -> Status:
        """Solved, unsolvable, or unknown when a limit stopped it (the native runner, which knows the
        limits, says which: runners/native.py)."""
        if self.moves is not None:
            return Status.SOLVED
        return Status.UNSOLVABLE if self.complete else Status.UNKNOWN


class _Limit(Exception):
    pass


class _Budget:
    """The limits of one search, from its start: `spend` raises _Limit (with True for the CPU budget)
    once the nodes pass `node_limit`, or, looked at every 1,024 nodes, the wall clock `timeout` or
    this thread's CPU `cpu_seconds`."""

    def __init__(self, timeout: float | None, node_limit: int | None, cpu_seconds: float | None) -> None:
        self.started = time.monotonic()
        self.timeout, self.node_limit = timeout, node_limit
        self.cpu_deadline = None if cpu_seconds is None else time.thread_time() + cpu_seconds

    def spend(self, nodes: int) -> None:
        if (self.node_limit is not None and nodes > self.node_limit) or (
                self.timeout is not None and nodes % 1024 == 0 and time.monotonic() - self.started > self.timeout):
            raise _Limit
        if self.cpu_deadline is not None and nodes % 1024 == 0 and time.thread_time() > self.cpu_deadline:
            raise _Limit(True)

    def seconds(self) -> float:
        return time.monotonic() - self.started


def partner_masks(deal: LBSDeal) -> dict[int, int]:
    """Per card, the bit set of the other cards of the deal it matches (bit i = the deal's i-th card)."""
    return {card: sum(1 << index for index, other in enumerate(deal.cards)
                      if other != card and deal.matches(card, other))
            for card in deal.cards}


def stranded(row: tuple[int, ...], bits: dict[int, int], partners: dict[int, int]) -> bool:
    """Whether some top card matches no other top card (then the row cannot be won)."""
    present = sum(bits[card] for card in row)
    return any(not partners[card] & present for card in row)


def solve(deal: LBSDeal, timeout: float | None = None, node_limit: int | None = None,
          cpu_seconds: float | None = None, dead: set[tuple[int, ...]] | None = None) -> Search:
    """Decide the deal; stop with verdict unknown at `timeout` seconds of wall clock, `cpu_seconds`
    of this thread's CPU or `node_limit` rows, whichever comes first. Given a set `dead`, the search
    cuts no stranded row and fills `dead` with its failed rows: after a loss, every row reached (the
    positions of a certificate, patience.certificates)."""
    return _decide(deal, _Budget(timeout, node_limit, cpu_seconds), dead)


def _moves(row: tuple[int, ...], bits: dict[int, int],
           partners: dict[int, int]) -> Iterator[tuple[Move, tuple[int, ...]]]:
    """Each legal move of `row` and the row after it: the moves of rules.legal_moves in its order, on bit masks."""
    for source in range(len(row), 1, -1):
        moved = row[source - 1]
        for step in STEPS:
            target = source - step
            if target >= 1 and partners[moved] & bits[row[target - 1]]:
                yield (source, target), row[:target - 1] + (moved,) + row[target:source - 1] + row[source:]


def _decide(deal: LBSDeal, budget: _Budget, dead: set[tuple[int, ...]] | None = None) -> Search:
    failed: set[tuple[int, ...]] = set() if dead is None else dead
    path: list[Move] = []
    nodes = 0
    bits = {card: 1 << index for index, card in enumerate(deal.cards)}
    partners = partner_masks(deal)

    def search(row: tuple[int, ...]) -> bool:
        nonlocal nodes
        if len(row) == 1:
            return True
        if row in failed or (dead is None and stranded(row, bits, partners)):
            return False
        nodes += 1
        budget.spend(nodes)
        for move, after in _moves(row, bits, partners):
            path.append(move)
            if search(after):
                return True
            path.pop()
        failed.add(row)
        return False

    try:
        won = search(deal.cards)
    except _Limit as limit:
        return Search(None, False, nodes, budget.seconds(), bool(limit.args))
    return Search(tuple(path) if won else None, True, nodes, budget.seconds())


def most_moves(deal: LBSDeal, timeout: float | None = None, node_limit: int | None = None,
               cpu_seconds: float | None = None) -> Search:
    """Max-cards mode (Wolter's analysis, as the Black Hole family's search has it): the deal decided
    as `solve` decides it, and of a lost deal a play of the most moves any play makes, found by a
    search of every row reached, each row's most moves kept (its nodes add to the decision's). The
    limits hold for both searches together; a limit reached ends it with verdict unknown."""
    budget = _Budget(timeout, node_limit, cpu_seconds)
    decided = _decide(deal, budget)
    if not decided.complete or decided.moves is not None:
        return decided
    most: dict[tuple[int, ...], tuple[int, Move | None]] = {}  # a row's most moves, and its first move
    nodes = decided.nodes
    bits = {card: 1 << index for index, card in enumerate(deal.cards)}
    partners = partner_masks(deal)

    def longest(row: tuple[int, ...]) -> int:
        nonlocal nodes
        known = most.get(row)
        if known is not None:
            return known[0]
        nodes += 1
        budget.spend(nodes)
        best: tuple[int, Move | None] = (0, None)
        for move, after in _moves(row, bits, partners):
            made = 1 + longest(after)
            if made > best[0]:
                best = (made, move)
        most[row] = best
        return best[0]

    try:
        longest(deal.cards)
    except _Limit as limit:
        return Search(None, False, nodes, budget.seconds(), bool(limit.args))
    moves: list[Move] = []
    row = deal.cards
    while (move := most[row][1]) is not None:
        moves.append(move)
        row = play(row, move)
    return Search(None, True, nodes, budget.seconds(), longest=tuple(moves))
