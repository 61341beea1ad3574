"""Worm Hole's native search: depth first, with a memo of dead positions.

A position is the number of cards taken from each pile, the foundation's rank and the SET of parked
cards (cells are interchangeable, so the set is kept sorted): whatever led there, the same moves are
open, and which cards are on the foundation follows from it. Decision mode remembers the positions
from which no win exists; max-cards mode (Wolter's measure: the most cards a play puts on the
foundation) decides first, then for a lost deal remembers for each position the most cards still
playable from it.

A step plays one card onto the foundation: a parked card, or a pile's card after parking the k >= 0
cards above it. This loses no win and no longest play: a park can always wait until just before the
next move from its pile (nothing else needs the card off the pile, and the cells it leaves empty
meanwhile only help), the move right after it then comes from its pile, and a park followed by
playing the parked card at once is that card's play from the pile. So every step adds one card to
the foundation, and a win of N pile cards is N steps deep, as in Black Hole.

Three sound rules cut steps (each can be switched off, so that its effect can be measured):
- stranded ranks (decision mode): a position is dead when a rank still has cards off the foundation
  but no neighbour rank has any, and the foundation card is no neighbour either;
- leaves: a card whose play reveals nothing (a parked card, a one-card pile's) is interchangeable
  with another of its rank: of the parked cards of a rank that can go up, only one is tried, and then
  no one-card pile of that rank; else of the one-card piles only one, and none while a pile of two
  or more tops that rank (playing the leaf later never hurts: it stays where it is);
- the memo itself.
A search stops at a node limit (status unknown) or a wall-clock or CPU limit (timeout), never with a
verdict it did not prove. Its wins are move lists the caller replays with `rules.replay`.

Two engines run this search: the compiled one (patience/worm_hole/_worm_hole.c, built by setup.py),
chosen where it is built, and this module's Python one; they take the same steps in the same order
(the C one draws the restarts' shuffles from Python's own Mersenne Twister), so they report the same
verdict, nodes, most cards and play.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import itertools
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from patience.native.reference import ONE_BONUS_ONE_IN, luby, luby_unit
from patience.result import Status
from patience.worm_hole.deal import WormHoleDeal
from patience.worm_hole.moves import Move

_CHECK_EVERY = 4096  # nodes between two looks at the clocks
ENTRY_BYTES = 200  # about what one remembered position costs at most (its key and the table's slot)
FROM_CELL = -1  # a step's pile for a parked card's play
Step = tuple[int, int]  # (pile, parks first) or (FROM_CELL, card)
Key = tuple[int | None, ...] | bytes


@dataclass(frozen=True)
class Outcome:
    """What the search found: a win (solved), or in max-cards mode a longest play (`moves`);
    `max_cards` is the most cards it put on the foundation."""

    status: Status  # solved, unsolvable, timeout (a clock) or unknown (the node limit)
    moves: tuple[Move, ...] | None
    nodes: int
    max_cards: int
    cached: int
    cpu_limited: bool = False
    engine: str = "python"


class _Limit(Exception):
    """A limit ended the search."""

    def __init__(self, status: Status, cpu_limited: bool = False) -> None:
        super().__init__(status.value)
        self.status, self.cpu_limited = status, cpu_limited


class _Position:
    """The position, made and unmade step by step; cards are numbers, indices into `deal.cards`."""

    def __init__(self, deal: WormHoleDeal, leaves: bool = True) -> None:
        self.deal = deal
        number = {card: index for index, card in enumerate(deal.cards)}
        self.piles = [[number[card] for card in pile] for pile in deal.piles]
        self.rank = [card.rank for card in deal.cards]
        ranks = deal.ranks
        # the ranks next to each on the cycle (none with one rank, one with two)
        self.neighbours = [tuple(sorted({(rank - 1) % ranks, (rank + 1) % ranks} - {rank})) for rank in range(ranks)]
        self.left = [0] * ranks  # cards of each rank off the foundation (in piles and cells)
        for card in deal.cards:
            self.left[card.rank] += 1
        self.taken = [0] * len(self.piles)
        self.cells: list[int] = []  # sorted
        self.hole_rank = None if deal.foundation is None else deal.foundation.rank
        self.played = 0
        self.total = len(deal.cards)
        self.leaves = leaves
        # a position as bytes where every number fits one (a Black Hole deal's: 19 bytes, not a tuple of 19 ints)
        self.compact = len(self.rank) < 256 and ranks < 255 and all(len(pile) < 256 for pile in self.piles)
        self.tie = list(range(len(self.piles)))  # each pile's place among equals (restarts shuffle it)
        self.bonus = [0] * len(self.piles)  # and the height it is counted above its own

    def key(self) -> Key:
        if self.compact:
            return bytes((*self.taken, 255 if self.hole_rank is None else self.hole_rank, *self.cells))
        return (*self.taken, self.hole_rank, *self.cells)

    def follows(self, card: int) -> bool:
        return self.hole_rank is None or self.rank[card] in self.neighbours[self.hole_rank]

    def steps(self) -> list[Step]:
        """The steps open now, the likeliest first: a parked card (it frees a cell), then pile cards,
        the most cards left of their rank first (as Black Hole's search), then the tallest pile,
        then the fewest parks."""
        free = self.deal.cells - len(self.cells)
        cell_ranks: dict[int, int] = {}
        cell_steps: list[Step] = []
        for card in self.cells:
            if self.follows(card) and (not self.leaves or self.rank[card] not in cell_ranks):
                cell_ranks.setdefault(self.rank[card], card)
                cell_steps.append((FROM_CELL, card))
        found: list[tuple[int, int, int, int, int, int]] = []  # (-left, parks, -height, tie, pile, rank)
        general: set[int] = set()
        for index, pile in enumerate(self.piles):
            depth = self.taken[index]
            height = len(pile) - depth
            for parks in range(min(free, height - 1) + 1):
                card = pile[depth + parks]
                if self.follows(card):
                    rank = self.rank[card]
                    found.append((-self.left[rank], parks, -height - self.bonus[index], self.tie[index], index, rank))
                    if parks == 0 and height > 1:
                        general.add(rank)
        found.sort()
        steps = cell_steps
        single_seen: set[int] = set()
        for _, parks, _, _, index, rank in found:
            if self.leaves and parks == 0 and self.taken[index] + 1 == len(self.piles[index]):  # a one-card pile
                if rank in cell_ranks or rank in general or rank in single_seen:
                    continue
                single_seen.add(rank)
            steps.append((index, parks))
        return steps

    def make(self, step: Step) -> int | None:
        """Play `step`; the foundation's rank before, to undo it."""
        before = self.hole_rank
        pile, how = step
        if pile == FROM_CELL:
            card = how
            self.cells.remove(card)
        else:
            cards, depth = self.piles[pile], self.taken[pile]
            if how:
                self.cells.extend(cards[depth:depth + how])
                self.cells.sort()
            card = cards[depth + how]
            self.taken[pile] = depth + how + 1
        self.hole_rank = self.rank[card]
        self.left[self.hole_rank] -= 1
        self.played += 1
        return before

    def unmake(self, step: Step, before: int | None) -> None:
        pile, how = step
        assert self.hole_rank is not None
        self.left[self.hole_rank] += 1
        self.played -= 1
        self.hole_rank = before
        if pile == FROM_CELL:
            self.cells.append(how)
            self.cells.sort()
        else:
            depth = self.taken[pile] - how - 1
            self.taken[pile] = depth
            for card in self.piles[pile][depth:depth + how]:
                self.cells.remove(card)

    def hopeless(self, before: int | None) -> bool:
        """Whether the last play left cards that can never all be played (see the module)."""
        return not self.reaches_all() or self.unbalanced(before)

    def reaches_all(self) -> bool:
        """Whether every rank with cards left can be reached from the foundation's rank, stepping
        along the rank cycle through ranks with cards left (an exhausted rank is a wall)."""
        ranks, hole, left = self.deal.ranks, self.hole_rank, self.left
        if hole is None:
            return True
        reached = 0
        for step in (1, -1):
            rank = (hole + step) % ranks
            while left[rank] and rank != hole and reached < ranks:
                reached += 1
                rank = (rank + step) % ranks
            if rank == hole:  # all the way round: every rank has cards left
                return True
        wanted = sum(1 for count in left if count) - (1 if left[hole] else 0)
        if left[hole] and not reached:
            return False
        return reached >= wanted

    def unbalanced(self, before: int | None) -> bool:
        """Whether a rank has more cards left than cards left next to it (and the foundation card if
        it is next to it): each card played needs the card played just before it next to it."""
        near = range(self.deal.ranks) if before is None else {
            *self.neighbours[self.hole_rank], *self.neighbours[before]}  # type: ignore[index]
        left, neighbours, hole = self.left, self.neighbours, self.hole_rank
        return any(left[rank] > sum(left[other] for other in neighbours[rank]) + (hole in neighbours[rank])
                   for rank in near)

    def moves(self, path: list[Step]) -> tuple[Move, ...]:
        return steps_as_moves(self.deal, path)


def steps_as_moves(deal: WormHoleDeal, path: list[Step]) -> tuple[Move, ...]:
    """The steps from the deal's start as moves (each park, then the play); a card number is its index
    in `deal.cards` (pile by pile, top card first)."""
    taken = [0] * len(deal.piles)
    moves: list[Move] = []
    for pile, how in path:
        if pile == FROM_CELL:
            moves.append(Move.play(deal.cards[how]))
        else:
            cards, depth = deal.piles[pile], taken[pile]
            moves += [Move.parked(card) for card in cards[depth:depth + how]]
            moves.append(Move.play(cards[depth + how]))
            taken[pile] = depth + how + 1
    return tuple(moves)


class _Counter:
    """Nodes, and the limits that end a search."""

    def __init__(self, node_limit: int | None, seconds: float | None, cpu_seconds: float | None) -> None:
        self.nodes = 0
        self.node_limit = node_limit
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.cpu_deadline = None if cpu_seconds is None else time.process_time() + cpu_seconds

    def count(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _Limit(Status.UNKNOWN)
        if self.nodes % _CHECK_EVERY == 0:
            if self.deadline is not None and time.monotonic() >= self.deadline:
                raise _Limit(Status.TIMEOUT)
            if self.cpu_deadline is not None and time.process_time() >= self.cpu_deadline:
                raise _Limit(Status.TIMEOUT, cpu_limited=True)


@functools.cache
def compiled() -> Any:
    """The compiled search (patience/worm_hole/_worm_hole.c, built by setup.py), or None where it is not
    built or was built from another source than the one beside it (an edit not yet compiled); looked
    at once a process."""
    try:
        module = importlib.import_module("patience.worm_hole._worm_hole")
    except ImportError:
        return None
    source = Path(__file__).with_name("_worm_hole.c")
    header = source.parent.with_name("extension.h")  # patience/extension.h, included: setup.py digests both
    if source.exists() and getattr(module, "SOURCE", "") != hashlib.sha256(
            source.read_bytes() + header.read_bytes()).hexdigest()[:16]:
        return None
    return module


def search(deal: WormHoleDeal, max_cards: bool = False, node_limit: int | None = None,
           seconds: float | None = None, cpu_seconds: float | None = None, stranded: bool = True,
           leaves: bool = True, memo: bool = True, memory_mb: int | None = None, restarts: bool = True,
           engine: str | None = None) -> Outcome:
    """Decide `deal` (or with `max_cards`, find a longest play: the decision first, with its rules and
    restarts, then for a lost deal the longest play). `stranded`, `leaves` and `memo`
    switch the rules of the module's list; `memory_mb` bounds the memo (a full memo takes no more
    positions: the search stays exact, only slower). `seconds` and `cpu_seconds` (this process's CPU)
    count from the call. `engine`: c, python, or None for c where it is built (ValueError for c
    where it is not)."""
    room = 0 if not memo else None if memory_mb is None else memory_mb * 2**20 // 2 // ENTRY_BYTES
    module = compiled()
    if engine not in (None, "c", "python"):
        raise ValueError(f"no engine {engine!r}: c or python")
    if engine == "c" and module is None:
        raise ValueError("the compiled Worm Hole search is not built (setup.py builds it; engine=python runs without)")
    if module is not None and engine != "python":
        memo_bytes = 0 if memory_mb is None else memory_mb * 2**20 // 2
        return _compiled(module, deal, max_cards, node_limit, seconds, cpu_seconds, stranded, leaves, room, memo_bytes,
                         restarts)
    position, counter = _Position(deal, leaves), _Counter(node_limit, seconds, cpu_seconds)
    best = [0]
    try:
        decided = _decide(position, counter, stranded, best, room, restarts)
        if not max_cards or decided.status is Status.SOLVED:  # a win plays every card: the most there is
            return decided
        return _longest(_Position(deal, leaves), counter, room, best)  # lost: how far a play gets
    except _Limit as limit:
        return Outcome(limit.status, None, counter.nodes, best[0], 0, limit.cpu_limited)


_COMPILED_STATUS = {"won": Status.SOLVED, "lost": Status.UNSOLVABLE, "nodes": Status.UNKNOWN, "time": Status.TIMEOUT,
                    "cpu": Status.TIMEOUT}


def _compiled(module: Any, deal: WormHoleDeal, max_cards: bool, node_limit: int | None, seconds: float | None,
              cpu_seconds: float | None, stranded: bool, leaves: bool, room: int | None, memo_bytes: int,
              restarts: bool) -> Outcome:
    """The search in C: the same outcome as the Python engine's, the play decoded here from its steps. Its
    memo takes no more positions at `room`, as the Python one's, or where its table would outgrow
    `memo_bytes` (which a deal of many cells' keys may reach first)."""
    status, flat, most, nodes, cached = module.search(
        [card.rank for card in deal.cards], [len(pile) for pile in deal.piles], deal.ranks,
        -1 if deal.foundation is None else deal.foundation.rank, deal.cells, max_cards, stranded, leaves, restarts,
        -1 if node_limit is None else node_limit, -1 if room is None else room, memo_bytes,
        -1.0 if seconds is None else max(0.0, seconds), -1.0 if cpu_seconds is None else max(0.0, cpu_seconds))
    verdict = _COMPILED_STATUS[status]
    if verdict not in (Status.SOLVED, Status.UNSOLVABLE):  # a limit: no play, nothing remembered reported
        return Outcome(verdict, None, nodes, most, 0, status == "cpu", "c")
    moves = None if flat is None else steps_as_moves(deal, list(zip(flat[::2], flat[1::2], strict=True)))
    return Outcome(verdict, moves, nodes, most, cached, False, "c")


def _decide(position: _Position, counter: _Counter, stranded: bool, best: list[int], room: int | None,
            restarts: bool) -> Outcome:
    """Depth first without recursion (a generalised deal may be thousands of steps deep), in rounds
    (with `restarts`): each round's node budget follows Luby's sequence, as Black Hole's search's, and
    each round after the first shuffles which pile goes first among equals and counts some piles a
    card taller; the dead positions stay known from round to round."""
    counter.count()
    if position.played == position.total:
        return Outcome(Status.SOLVED, (), counter.nodes, 0, 0)
    if stranded and position.hole_rank is not None and position.hopeless(None):
        return Outcome(Status.UNSOLVABLE, None, counter.nodes, 0, 0)
    dead: set[Key] = set()
    shuffle, unit = random.Random(len(position.piles)), luby_unit(1, position.total)
    for round_number in itertools.count(1):
        stop_at = counter.nodes + unit * luby(round_number) if restarts else None
        path: list[Step] = []
        undo: list[int | None] = []
        frames: list[tuple[Key, list[Step]]] = [(position.key(), position.steps()[::-1])]
        while frames:
            key, steps = frames[-1]
            if not steps:
                if room is None or len(dead) < room:
                    dead.add(key)
                frames.pop()
                if path:
                    position.unmake(path.pop(), undo.pop())
                continue
            if stop_at is not None and counter.nodes >= stop_at:
                break
            step = steps.pop()
            before = position.make(step)
            counter.count()
            if position.played > best[0]:
                best[0] = position.played
            if position.played == position.total:  # every card on the foundation, the cells empty
                path.append(step)
                return Outcome(Status.SOLVED, position.moves(path), counter.nodes, position.total, len(dead))
            child = position.key()
            if child in dead or (stranded and position.hopeless(before)):
                position.unmake(step, before)
                continue
            path.append(step)
            undo.append(before)
            frames.append((child, position.steps()[::-1]))
        else:
            return Outcome(Status.UNSOLVABLE, None, counter.nodes, best[0], len(dead))
        while path:  # a round given up: back to the start, the piles reordered
            position.unmake(path.pop(), undo.pop())
        shuffle.shuffle(position.tie)
        position.bonus = [int(shuffle.random() < 1 / ONE_BONUS_ONE_IN) for _ in position.piles]
    raise AssertionError("unreachable: the rounds end in a verdict or at a limit")


def _longest(position: _Position, counter: _Counter, room: int | None, best: list[int]) -> Outcome:
    """Max-cards: the most cards playable from each position, by depth-first dynamic programming
    (each step plays a card, so no position repeats on a path); stops early at a win. The longest
    play is the longest path walked: a position's count of cards played is its own, so a path cut
    short at a remembered position was walked to its end before, from that position on."""
    memo: dict[Key, int] = {}
    path: list[Step] = []
    undo: list[int | None] = []
    longest: list[Step] = []
    counter.count()
    # a frame: its position, the steps still to try, the most cards found after it
    frames: list[tuple[Key, list[Step], list[int]]] = [(position.key(), position.steps()[::-1], [0])]
    while frames:
        key, steps, found = frames[-1]
        if not steps or found[0] == position.total - position.played:
            if room is None or len(memo) < room:
                memo[key] = found[0]
            frames.pop()
            if path:
                position.unmake(path.pop(), undo.pop())
                frames[-1][2][0] = max(frames[-1][2][0], found[0] + 1)
            continue
        step = steps.pop()
        before = position.make(step)
        counter.count()
        if position.played > len(longest):
            longest = [*path, step]
            best[0] = max(best[0], len(longest))
            if best[0] == position.total:
                break
        known = memo.get(position.key())
        if known is not None:
            position.unmake(step, before)
            found[0] = max(found[0], known + 1)
            continue
        path.append(step)
        undo.append(before)
        frames.append((position.key(), position.steps()[::-1], [0]))
    status = Status.SOLVED if len(longest) == position.total else Status.UNSOLVABLE
    return Outcome(status, position.moves(longest), counter.nodes, len(longest), len(memo))
