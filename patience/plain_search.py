"""The plain search: an exhaustive search of the Black Hole family written apart from the native
engine, so that the native search's losses can be checked by a second method.

Why a second search: a win is checked by replaying it, a loss cannot be. Past a few hundred cards
CP-SAT and the SAT encodings answer on none of the native search's losses within minutes
(docs/hardness.md), so a loss the native search finds there rested on that search alone. This one
shares none of its code (neither its board, its rules, its bounds nor its cache): a state is the
number of cards taken from each pile and the rank on the foundation; the one cut is the live-card
bound, computed here from its definition; a failed state is remembered exactly. It searches from the
front and from the back in turns, each turn with twice the nodes, until a direction decides. It is
slow (Python) and plain (no symmetry rules, no move order to speak of); with so few rules there are
few places for a fault, and what it decides it proves.

The live-card bound. Call a card left *live* when every card above it in its pile is live and its
rank is next to the foundation's rank (any rank, with no foundation card) or to the rank of a live
card; the live cards are the least such set. Every card of a play from the state is live, by
induction along the play: the first card is on top and next to the foundation's rank; each later
card has every card above it played before it (live), and comes right after a card of a
neighbouring rank (live). So a state with fewer live cards than cards left has no win.

From the back. A win read backwards is a play of the deal with every pile turned over, from no
foundation card, whose last card is next to the deal's foundation card (the end rank); so the back
searches that board, a full play counting only when its last card is next to the end rank, and cuts
a state none of whose live cards is (the last card of a play is live). Its win, reversed, is a win
of the deal.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from patience.cards import Card, ranks_adjacent
from patience.deal import Deal

FORWARD, BACKWARD = "forward", "backward"
DIRECTIONS = (FORWARD, BACKWARD)
LIMITS = ("nodes", "time", "cpu")  # what ended an undecided search
FIRST_TURN = 1_000  # the nodes of each direction's first turn; each turn after has twice its last
CLOCK_EVERY = 1_024  # nodes between two looks at the clocks
MEMORY_STATES = 1_000_000  # failed states remembered by a direction; past it the memory starts afresh


@dataclass(frozen=True)
class PlainResult:
    """What the plain search found: `won` (the cards of a win, in the deal's order), `lost` (every play
    refuted from `direction`), or neither (a limit came first); `nodes` of both directions."""

    won: tuple[Card, ...] | None
    lost: bool
    nodes: int
    direction: str | None
    limited_by: str | None  # "nodes", "time" or "cpu" when undecided


class _Stop(Exception):
    """A limit came (args: which of LIMITS, the turn's nodes): the turn ends with nothing proved."""


class _Direction:
    """One direction's search: its board (piles of ranks, top first), start rank, end rank and the
    failed states it has proved, kept from turn to turn (a proved failure stays proved)."""

    def __init__(self, piles: Sequence[Sequence[Card]], ranks: int, top: int | None, end: int | None,
                 bound: bool = True) -> None:
        self.cards = [tuple(pile) for pile in piles]
        self.piles = [tuple(card.rank for card in pile) for pile in piles]
        self.ranks = ranks
        self.start, self.end = top, end
        self.neighbours = [tuple(other for other in {(rank - 1) % ranks, (rank + 1) % ranks}
                                 if ranks_adjacent(rank, other, ranks)) for rank in range(ranks)]
        self.before_end = frozenset(() if end is None else self.neighbours[end])  # the ranks a play may end on
        self.failed: set[tuple[int, bytes]] = set()
        self.wide = max(map(len, self.piles)) > 255  # a pile's count no longer fits a byte
        self.bound = bound  # the live-card bound and the memory cap (off: `failed` keeps every state reached)

    def key(self, top: int | None, taken: list[int]) -> tuple[int, bytes]:
        packed = b"".join(count.to_bytes(2, "little") for count in taken) if self.wide else bytes(taken)
        return (-1 if top is None else top, packed)

    def enough_live(self, top: int | None, taken: list[int], left: int) -> bool:
        """Whether the state keeps as many live cards as cards left (and, from the back, a live card
        next to the end rank): False proves it lost."""
        ranks, piles = self.ranks, self.piles
        open_ranks = bytearray(ranks)
        waiting: dict[int, list[int]] = {}
        queue: list[int] = []
        for rank in (range(ranks) if top is None else self.neighbours[top]):
            open_ranks[rank] = 1
            queue.append(rank)
        position = list(taken)
        for index, pile in enumerate(piles):
            if position[index] < len(pile):
                waiting.setdefault(pile[position[index]], []).append(index)
        live, ending = 0, self.end is None
        while queue:
            for index in waiting.pop(queue.pop(), ()):
                pile, depth = piles[index], position[index]
                while depth < len(pile) and open_ranks[pile[depth]]:
                    rank = pile[depth]
                    live += 1
                    if not ending and rank in self.before_end:
                        ending = True
                    for other in self.neighbours[rank]:
                        if not open_ranks[other]:
                            open_ranks[other] = 1
                            queue.append(other)
                    depth += 1
                position[index] = depth
                if depth < len(pile):
                    waiting.setdefault(pile[depth], []).append(index)
            if live >= left and ending:
                return True
        return live >= left and ending

    def ends(self) -> set[tuple[int, bytes]]:
        """The states with every card played that the failed states lead to: from the back, a play
        whose last card is not next to the end rank ends in one, never searched (nothing is left)."""
        if self.end is None:
            return set()
        heights = [len(pile) for pile in self.piles]
        cards, found = sum(heights), set()
        for top, packed in self.failed:
            taken = _counts(packed, self.wide)
            if sum(taken) != cards - 1:
                continue
            short = [index for index, height in enumerate(heights) if taken[index] < height]
            if len(short) == 1 and taken[short[0]] == heights[short[0]] - 1:
                rank = self.piles[short[0]][-1]
                if top < 0 or rank in self.neighbours[top]:
                    found.add(self.key(rank, heights))
        return found

    def turn(self, budget: int, look: Callable[[int], None]) -> tuple[bool, int, list[int]]:
        """One depth-first search from the first play, at most `budget` nodes: (True, nodes, the piles
        played) for a win, (False, nodes, []) when every play is refuted, _Stop at a limit."""
        piles, neighbours, failed = self.piles, self.neighbours, self.failed
        taken = [0] * len(piles)
        left = sum(map(len, piles))
        top = self.start
        played: list[int] = []
        tops: list[int | None] = []
        stack: list[list[int]] = []
        remaining = [0] * self.ranks  # cards left of each rank
        for pile in piles:
            for rank in pile:
                remaining[rank] += 1
        nodes = 0

        def moves() -> list[int] | None:
            """The state's plays, the last tried first (the stack pops them): the rank with most cards left,
            then the tallest pile; None when the state is proved lost."""
            if left == 0:
                return None
            if self.key(top, taken) in failed or (self.bound and not self.enough_live(top, taken, left)):
                return None
            found = [index for index, pile in enumerate(piles)
                     if taken[index] < len(pile) and (top is None or pile[taken[index]] in neighbours[top])]
            found.sort(key=lambda index: (remaining[piles[index][taken[index]]], len(piles[index]) - taken[index]))
            return found

        def won() -> bool:
            return left == 0 and (self.end is None or top in neighbours[self.end])

        def play(index: int) -> None:
            nonlocal top, left
            tops.append(top)
            top = piles[index][taken[index]]
            remaining[top] -= 1
            taken[index] += 1
            left -= 1
            played.append(index)

        def take_back() -> None:
            nonlocal top, left
            index = played.pop()
            taken[index] -= 1
            remaining[piles[index][taken[index]]] += 1
            left += 1
            top = tops.pop()

        nodes += 1
        if won():
            return True, nodes, played
        first = moves()
        if first is None:
            return False, nodes, []
        stack.append(first)
        while stack:
            if not stack[-1]:  # every play from this state failed: it is lost
                stack.pop()
                if self.bound and len(failed) >= MEMORY_STATES:
                    failed.clear()
                failed.add(self.key(top, taken))
                if not played:
                    return False, nodes, []
                take_back()
                continue
            nodes += 1
            if nodes > budget:
                raise _Stop("nodes", budget)
            if nodes % CLOCK_EVERY == 0:
                look(nodes)
            play(stack[-1].pop())
            if won():
                return True, nodes, played
            following = moves()
            if following is None:
                take_back()
            else:
                stack.append(following)
        return False, nodes, []


def search(deal: Deal, node_limit: int | None = None, seconds: float | None = None,
           cpu_seconds: float | None = None) -> PlainResult:
    """Decide `deal` (one foundation card or none) from the front and the back in turns, within a node
    limit and the clocks (wall and CPU, from now)."""
    look = _clock(seconds, cpu_seconds)
    top = None if deal.foundation is None else deal.foundation.rank
    front = _Direction(deal.piles, deal.ranks, top, None)
    back = _Direction([tuple(reversed(pile)) for pile in deal.piles], deal.ranks, None, top)
    spent, budget = 0, FIRST_TURN
    while True:
        for direction, board in ((FORWARD, front), (BACKWARD, back)):
            allowed = budget if node_limit is None else min(budget, node_limit - spent)
            try:
                if allowed <= 0:
                    raise _Stop("nodes", 0)
                verdict, nodes, played = board.turn(allowed, look)
            except _Stop as stop:
                limit, nodes = stop.args
                spent += nodes
                if limit != "nodes" or (node_limit is not None and spent >= node_limit):
                    return PlainResult(None, False, spent, None, limit)
                continue
            spent += nodes
            if not verdict:
                return PlainResult(None, True, spent, direction, None)
            return PlainResult(_cards(board, played, direction), False, spent, direction, None)
        budget *= 2


@dataclass(frozen=True)
class Closure:
    """Every state the plays reach from the start of one direction's board, when none is won (`won`
    False): all dead. `won` True when a win was found, `limited_by` set when a limit came first."""

    states: set[tuple[int, bytes]]  # as the search keeps them (`positions` reads them)
    wide: bool
    won: bool
    limited_by: str | None
    direction: str | None  # the board: the deal's (forward) or the deal's piles turned over (backward)

    def positions(self) -> Iterator[tuple[int, tuple[int, ...]]]:
        """Each state as (the foundation's rank, -1 with none; the cards taken from each pile)."""
        for top, packed in self.states:
            yield top, _counts(packed, self.wide)


def closure(deal: Deal, seconds: float | None = None, cpu_seconds: float | None = None) -> Closure:
    """The positions a certificate of the deal's loss lists (patience.certificates): the search from
    the front and from the back in turns, as `search`, with the bound and the memory cap off, so that
    the failed states of the direction that ends first are every state its board reaches (with, from
    the back, the states of every card played whose last card is not next to the end rank)."""
    look = _clock(seconds, cpu_seconds)
    top = None if deal.foundation is None else deal.foundation.rank
    boards = ((FORWARD, _Direction(deal.piles, deal.ranks, top, None, bound=False)),
              (BACKWARD, _Direction([tuple(reversed(pile)) for pile in deal.piles], deal.ranks, None, top,
                                    bound=False)))
    budget = FIRST_TURN
    while True:
        for direction, board in boards:
            try:
                won, _, _ = board.turn(budget, look)
            except _Stop as stop:
                if stop.args[0] == "nodes":
                    continue
                return Closure(set(), board.wide, False, stop.args[0], None)
            return Closure(set() if won else board.failed | board.ends(), board.wide, won, None, direction)
        budget *= 2


def _counts(packed: bytes, wide: bool) -> tuple[int, ...]:
    """The cards taken from each pile, from a state's key."""
    if not wide:
        return tuple(packed)
    return tuple(int.from_bytes(packed[at:at + 2], "little") for at in range(0, len(packed), 2))


def _clock(seconds: float | None, cpu_seconds: float | None) -> Callable[[int], None]:
    """A look at the clocks (wall and CPU, from now) that stops a turn past either."""
    started, cpu_started = time.monotonic(), time.process_time()

    def look(nodes: int) -> None:
        if seconds is not None and time.monotonic() - started > seconds:
            raise _Stop("time", nodes)
        if cpu_seconds is not None and time.process_time() - cpu_started > cpu_seconds:
            raise _Stop("cpu", nodes)
    return look


def _cards(board: _Direction, played: list[int], direction: str) -> tuple[Card, ...]:
    """The cards of a win found from `direction`, in the order the deal plays them."""
    taken = [0] * len(board.cards)
    cards = []
    for index in played:
        cards.append(board.cards[index][taken[index]])
        taken[index] += 1
    return tuple(cards) if direction == FORWARD else tuple(reversed(cards))
