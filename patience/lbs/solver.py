"""The native LBS solver: depth-first search over rows of top cards with a failure cache.

A row that once failed fails again wherever it is reached, so each dead row is searched once.
A row is also dead when one of its top cards shares neither suit nor value with any other top:
that pile can never move nor be covered, so two piles at least always remain.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass

from patience.lbs.deal import LBSDeal
from patience.lbs.rules import Move, legal_moves, play


@dataclass(frozen=True)
class Search:
    """The verdict: moves (a win), None with `complete` (no win exists), or None when a limit hit."""

    moves: tuple[Move, ...] | None
    complete: bool
    nodes: int
    seconds: float

    @property
    def verdict(self) -> str:
        if self.moves is not None:
            return "solved"
        return "unsolvable" if self.complete else "unknown"


class _Limit(Exception):
    pass


def stranded(deal: LBSDeal, row: tuple[int, ...]) -> bool:
    """Whether some top card matches no other top card (then the row cannot be won)."""
    values = Counter(deal.value(card) for card in row)
    suits = Counter(deal.suit(card) for card in row)
    return any(values[deal.value(card)] == 1 and suits[deal.suit(card)] == 1 for card in row)


def solve(deal: LBSDeal, timeout: float | None = None, node_limit: int | None = None) -> Search:
    """Decide the deal; stop with verdict unknown at `timeout` seconds or `node_limit` rows."""
    started = time.monotonic()
    failed: set[tuple[int, ...]] = set()
    path: list[Move] = []
    nodes = 0

    def search(row: tuple[int, ...]) -> bool:
        nonlocal nodes
        if len(row) == 1:
            return True
        if row in failed or stranded(deal, row):
            return False
        nodes += 1
        if (node_limit is not None and nodes > node_limit) or (
                timeout is not None and nodes % 1024 == 0 and time.monotonic() - started > timeout):
            raise _Limit
        for move in legal_moves(deal, row):
            path.append(move)
            if search(play(row, move)):
                return True
            path.pop()
        failed.add(row)
        return False

    try:
        won = search(deal.cards)
    except _Limit:
        return Search(None, False, nodes, time.monotonic() - started)
    return Search(tuple(path) if won else None, True, nodes, time.monotonic() - started)
