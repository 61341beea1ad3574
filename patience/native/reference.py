"""The pure-Python reference of the native search: depth-first over the plays possible next, with
the failure cache of Gent et al. (section 5.1). It is the oracle the compiled search is tested
against, and the engine when the compiled search is not built.

A state is the set of cards played (an int used as a bitset) and the foundations' top ranks
(sorted: the foundations obey the same rule, so swapping two of them changes nothing): whether a
play can be completed depends on nothing else, so a state that failed once is never searched again.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from dataclasses import dataclass

from patience.cards import Card
from patience.native.board import Board, balanced, live_cards, reachable_ranks, unplayable_excess
from patience.native.rules import Rules
from patience.result import Status

_CLOCK_EVERY = 1024  # nodes between looks at the clock
_CLOCK_CARDS = 256  # past this many cards a node costs a millisecond or more: the clock is read at every node
PLAIN = Rules.only("cache")  # the reference's default: the exhaustive search with its failure cache
ONE_LUBY_UNIT = 250  # restarts, one foundation: rounds of Luby's sequence times this many nodes,
ONE_LUBY_PER_CARD = 4  # or this many a card if more: a round must be able to play a large deal
ONE_BONUS_ONE_IN = 2  # restarts, one foundation: the share of piles counted one card taller
LUBY_UNIT = 1000  # restarts with several foundations: the same
BONUS_ONE_IN = 4
NOISE_ONE_IN = 2  # noise: the share of nodes whose move order it changes
RANDOM_STEP = 0x9E3779B97F4A7C15  # the restarts' shuffles' stream (splitmix64)
_WORD = (1 << 64) - 1


@dataclass(frozen=True)
class Outcome:
    """What a search found: `sequence` is a win (solved) or, in max-cards mode, a longest play;
    `piles` and `foundations` say where each of its cards came from and went (two decks may put
    two equal cards on top of two piles)."""

    status: Status  # solved, unsolvable, timeout (the clock) or unknown (the node limit)
    sequence: tuple[Card, ...] | None
    nodes: int
    max_cards: int
    cached: int
    foundations: tuple[int, ...] | None = None
    piles: tuple[int, ...] | None = None
    cpu_limited: bool = False  # a timeout at the CPU budget, not the wall-clock deadline


Move = tuple[int, int, int]  # (minus the pile's height, card, foundation)


def search(board: Board, rules: Rules = PLAIN, max_cards: bool = False, node_limit: int | None = None,
           seconds: float | None = None, cpu_seconds: float | None = None) -> Outcome:
    """Decide `board` under `rules` (the plain search with the failure cache by default). With
    `max_cards` the search never stops at a win it cannot find: it keeps the longest play, and the
    `reach` rule then cuts only the plays whose reachable cards cannot make it longer (less the cards
    the balance bound of `unplayable_excess` shows can never be played, with one foundation), and
    with one foundation the plays whose live cards (`live_cards`) cannot make it longer. It stops at
    `seconds` of wall clock or `cpu_seconds` of this thread's CPU, whichever comes first (as the
    compiled search): the status is then TIMEOUT, at a node limit UNKNOWN (the rule of
    patience.result), never a guess. `symmetry` and `wolter` switch on the same interchangeability rules as the compiled
    search (see `interchangeable`). With `restarts` a round gives up after a budget of nodes and the
    next one orders the piles another way (see `Rounds`), and with `noise` too puts a random move first
    at some nodes (see `shake`); failed states stay known."""
    deadline = None if seconds is None else time.monotonic() + seconds
    cpu_deadline = None if cpu_seconds is None else time.thread_time() + cpu_seconds
    rounds = _search_rounds(board, rules, max_cards, [node_limit], deadline, cpu_deadline)
    while True:
        try:
            next(rounds)
        except StopIteration as done:
            return done.value


def search_both(forward: Board, backward: Board, rules: Rules, node_limit: int | None = None,
                seconds: float | None = None, cpu_seconds: float | None = None) -> tuple[Outcome, int, tuple[int, int]]:
    """The search from the front (`forward`) and from the back (`backward`, Board.reversed_of) taking
    turns a round at a time, each with its own failure cache and its own rounds, until one decides or
    the limits, shared, end both (a node limit counts the nodes of both), as the compiled search's
    `both` does: (the outcome of the one that ended, 0 front or 1 back, the nodes of each)."""
    if not rules.restarts:
        raise ValueError("the two searches take turns at their restarts: they need restarts")
    deadline = None if seconds is None else time.monotonic() + seconds
    cpu_deadline = None if cpu_seconds is None else time.thread_time() + cpu_seconds
    limits: list[list[int | None]] = [[node_limit], [node_limit]]
    searches = [_search_rounds(board, rules, False, limit, deadline, cpu_deadline)
                for board, limit in zip((forward, backward), limits, strict=True)]
    nodes = [1, 1]
    while True:
        for which in (0, 1):
            other = nodes[1 - which]
            if node_limit is not None and other >= node_limit:
                return Outcome(Status.UNKNOWN, None, nodes[0] + nodes[1], 0, 0), which, (nodes[0], nodes[1])
            limits[which][0] = None if node_limit is None else node_limit - other
            try:
                nodes[which] = next(searches[which])
            except StopIteration as done:
                outcome: Outcome = done.value
                nodes[which] = outcome.nodes
                return outcome, which, (nodes[0], nodes[1])


def _search_rounds(board: Board, rules: Rules, max_cards: bool, limit: list[int | None], deadline: float | None,
                   cpu_deadline: float | None) -> Generator[int, None, Outcome]:
    """The search of `search`, a round at a time: it yields its nodes so far each time a round is
    given up (restarts) and returns the outcome. `limit[0]` is the node limit, read at every node,
    so that a caller running two searches in turn can share one limit between them."""
    if board.end >= 0 and (max_cards or len(board.foundations) != 1 or board.ranks < 2):
        raise ValueError("an end rank needs one foundation, 2 or more ranks and decision mode")
    cache, reach, symmetry, wolter, restarts = rules.cache, rules.reach, rules.symmetry, rules.wolter, rules.restarts
    noise = restarts and rules.noise
    size = len(board)
    every = (1 << size) - 1
    clock_every = _CLOCK_EVERY if size <= _CLOCK_CARDS else 1  # 10,000 cards: 150 nodes a CPU second
    counts = [0] * board.ranks
    for rank in board.rank:
        counts[rank] += 1
    failed: set[tuple[int, tuple[int, ...]]] = set()
    path: list[tuple[int, int, int]] = []  # (card, foundation, the top it covered)
    best: list[tuple[int, int, int]] = []
    played, tops, nodes = 0, list(board.foundations), 1
    piles = len(board.pile_size)
    rounds = Rounds(piles, len(board.foundations), len(board.rank))
    # as the compiled search: the balance and live-card bounds with one foundation, in 64-bit masks
    # (at most 64 ranks, piles and cards a pile) or, with `wide`, on any board
    masks = board.ranks <= 64 and piles <= 64 and max(board.pile_size) <= 64
    one_balance = len(board.foundations) == 1 and board.ranks >= 3 and (board.ranks <= 64 or rules.wide)
    live = one_balance and (masks or rules.wide)
    # as the compiled search: in decision mode on boards of more than 64 cards, where the live-card bound
    # runs, the balance bound is left out (the live-card bound decides the same deals, in less CPU)
    balance = one_balance and (max_cards or size <= 64 or not live)

    def pruned(card: int, foundation: int) -> bool:
        """Whether the play leads to a failed state or, with `reach`, cannot help."""
        rank = board.rank[card]
        after = list(tops)
        after[foundation] = rank
        if reach:
            counts[rank] -= 1
            reached = reachable_ranks(after, counts, board.ranks)
            excess = unplayable_excess(after[0], counts, reached, board.ranks) if balance else 0
            if max_cards:
                hopeless = len(path) + 1 + sum(counts[r] for r in reached) - excess <= len(best)
            else:
                hopeless = len(reached) < sum(1 for count in counts if count) or excess > 0 or (
                    len(tops) > 1 and not balanced(after, counts, board.ranks))
            counts[rank] += 1
            if hopeless:
                return True
            if live:
                need = len(best) - len(path) if max_cards else size - len(path) - 1
                if live_cards(board, played | 1 << card, rank) < need:
                    return True
        return cache and (played | 1 << card, tuple(sorted(after))) in failed

    def moves() -> list[Move]:
        """Plays possible now, the most cards left of their rank first, then the tallest pile
        (ties: this round's pile order), one foundation of each top rank; none when the board has an
        end rank and no card next to it is left."""
        if board.end >= 0 and not any(counts[rank] for rank in neighbours(board.end, board.ranks)):
            return []
        found = []
        for pile, start in enumerate(board.pile_start):
            left = board.pile_size[pile]
            for card in range(start, start + board.pile_size[pile]):
                if not played >> card & 1:
                    break
                left -= 1
            else:
                continue
            for foundation, top in enumerate(tops):
                if board.follows(top, board.rank[card]) and top not in tops[:foundation]:
                    found.append((-counts[board.rank[card]], -left - rounds.bonus[pile], rounds.position[pile], card,
                                  foundation, -left))
        kept = interchangeable(board, [(height, card, foundation) for *_, card, foundation, height in sorted(found)],
                               symmetry, wolter)
        return shake(kept, nodes) if noise and rounds.round else kept

    while True:
        stop_at = nodes + rounds.budget if restarts else None
        stack = [moves()]
        while stack:
            if played == every and (board.end < 0 or board.follows(board.end, board.rank[path[-1][0]])):
                return _outcome(board, Status.SOLVED, path, nodes, size, len(failed))
            if len(path) > len(best):
                best = list(path)
            options = stack[-1]
            while options and pruned(options[0][1], options[0][2]):
                options.pop(0)
            if options:
                if limit[0] is not None and nodes >= limit[0]:
                    return Outcome(Status.UNKNOWN, None, nodes, len(best), len(failed))
                if nodes % clock_every == 0 and (deadline is not None or cpu_deadline is not None):
                    if deadline is not None and time.monotonic() > deadline:
                        return Outcome(Status.TIMEOUT, None, nodes, len(best), len(failed))
                    if cpu_deadline is not None and time.thread_time() > cpu_deadline:
                        return Outcome(Status.TIMEOUT, None, nodes, len(best), len(failed), cpu_limited=True)
                if stop_at is not None and nodes >= stop_at:
                    break
                _, card, foundation = options.pop(0)
                nodes += 1
                played |= 1 << card
                path.append((card, foundation, tops[foundation]))
                tops[foundation] = board.rank[card]
                counts[board.rank[card]] -= 1
                stack.append(moves())
                continue
            stack.pop()
            if cache:
                failed.add((played, tuple(sorted(tops))))
            if path:
                card, foundation, covered = path.pop()
                played &= ~(1 << card)
                counts[board.rank[card]] += 1
                tops[foundation] = covered
        else:
            break
        while path:  # a round given up: back to the start
            card, foundation, covered = path.pop()
            played &= ~(1 << card)
            counts[board.rank[card]] += 1
            tops[foundation] = covered
        yield nodes
        rounds.next()
    if not max_cards:
        return Outcome(Status.UNSOLVABLE, None, nodes, len(best), len(failed))
    return _outcome(board, Status.UNSOLVABLE, best, nodes, len(best), len(failed))


def neighbours(rank: int, ranks: int) -> set[int]:
    """The ranks next to `rank` on the cycle."""
    return {(rank + 1) % ranks, (rank - 1) % ranks}


class Rounds:
    """The restarts' rounds as the compiled search runs them: each round's node budget and the
    move order: the piles' positions in its tie-break order and the height each pile is counted
    above its own. Budgets follow Luby's sequence (1 1 2 1 1 2 4 ...) times luby_unit's nodes, and
    every round after the first shuffles the piles (Fisher-Yates on a splitmix64 stream) and counts
    one pile in ONE_BONUS_ONE_IN (BONUS_ONE_IN) one card taller (the same stream), since wins are many
    but one early choice can bury them deep."""

    def __init__(self, piles: int, foundations: int, cards: int) -> None:
        self.piles, self.round, self.random = piles, 0, 0
        self.unit, self.bonus_one_in = luby_unit(foundations, cards), (ONE_BONUS_ONE_IN if foundations == 1
                                                                       else BONUS_ONE_IN)
        self.budget = self.unit * luby(1)
        self.position = list(range(piles))
        self.bonus = [0] * piles

    def next(self) -> None:
        self.round += 1
        self.budget = self.unit * luby(self.round + 1)
        order = list(range(self.piles))
        for pile in range(self.piles - 1, 0, -1):
            self.random = (self.random + RANDOM_STEP) & _WORD
            other = _mix(self.random) % (pile + 1)
            order[pile], order[other] = order[other], order[pile]
        for place, pile in enumerate(order):
            self.position[pile] = place
        for pile in range(self.piles):
            self.random = (self.random + RANDOM_STEP) & _WORD
            self.bonus[pile] = int(_mix(self.random) % self.bonus_one_in == 0)


def shake(moves: list[Move], node: int) -> list[Move]:
    """Noise, as the compiled search's `shake`: at one node in NOISE_ONE_IN (by a hash of the node's
    number, unique in a search, so a search is repeatable) a move drawn at random goes first, the
    others keep their order. The rounds' shuffles break only ties, so without it every round tries
    the same first plays."""
    mixed = _mix(node * RANDOM_STEP & _WORD)
    if len(moves) < 2 or mixed % NOISE_ONE_IN:
        return moves
    first = (mixed >> 32) % len(moves)
    return [moves[first], *moves[:first], *moves[first + 1:]]


def luby_unit(foundations: int, cards: int) -> int:
    """The restarts' unit of nodes, as the compiled search's: with one foundation ONE_LUBY_UNIT, or
    ONE_LUBY_PER_CARD a card when that is more (Black Hole and All in a Row keep 250), since a round
    of 250 nodes cannot play an 831-card deal through; with several, LUBY_UNIT."""
    return max(ONE_LUBY_UNIT, ONE_LUBY_PER_CARD * cards) if foundations == 1 else LUBY_UNIT


def luby(term: int) -> int:
    """Term `term` >= 1 of Luby's sequence 1 1 2 1 1 2 4 1 1 2 ..."""
    while True:
        k = 1
        while (1 << k) - 1 < term:
            k += 1
        if (1 << k) - 1 == term:
            return 1 << (k - 1)
        term -= (1 << (k - 1)) - 1


def _mix(x: int) -> int:
    """splitmix64's finaliser, as the compiled search's `mix`."""
    x ^= x >> 30
    x = (x * 0xBF58476D1CE4E5B9) & _WORD
    x ^= x >> 27
    x = (x * 0x94D049BB133111EB) & _WORD
    return x ^ (x >> 31)


def _outcome(board: Board, status: Status, plays: list[tuple[int, int, int]], nodes: int, longest: int,
             cached: int) -> Outcome:
    return Outcome(status, tuple(board.cards[card] for card, _, _ in plays), nodes, longest, cached,
                   tuple(foundation for _, foundation, _ in plays), tuple(board.pile[card] for card, _, _ in plays))


def interchangeable(board: Board, moves: list[Move], symmetry: bool, wolter: bool) -> list[Move]:
    """Drop the cards that some kept card of the same rank makes redundant (a card's plays onto
    several foundations are kept or dropped together).

    A unit card (only its own rank beneath it) exposes no other rank, so any play of it can be
    swapped with a same-rank card still to be played: with symmetry, no unit card is tried while
    a general card of its rank can be played, and only one unit card per rank. Wolter's rules are
    the cases of it he stated: no last card of a pile while its rank tops a pile of two or more,
    and one card of each rank among the one-card piles. A card counts as seen only once kept: a
    one-card pile dropped for a taller unit pile of its rank (which a restart's order may put
    after it) must not then drop that pile too."""
    if not (symmetry or wolter):
        return moves
    general_ranks = {board.rank[card] for _, card, _ in moves if not board.unit[card]}
    tall_ranks = {board.rank[card] for height, card, _ in moves if height < -1}
    kept: list[Move] = []
    unit_seen: set[int] = set()
    single_seen: set[int] = set()
    decided: dict[int, bool] = {}
    for height, card, foundation in moves:
        if card not in decided:
            decided[card] = _keep(board.rank[card], board.unit[card], height, symmetry, wolter,
                                  general_ranks, tall_ranks, unit_seen, single_seen)
        if decided[card]:
            kept.append((height, card, foundation))
    return kept


def _keep(rank: int, unit: bool, height: int, symmetry: bool, wolter: bool, general_ranks: set[int],
          tall_ranks: set[int], unit_seen: set[int], single_seen: set[int]) -> bool:
    unit_rule, single_rule = symmetry and unit, wolter and height == -1
    if (unit_rule and (rank in general_ranks or rank in unit_seen)) or (
            single_rule and (rank in tall_ranks or rank in single_seen)):
        return False
    if unit_rule:
        unit_seen.add(rank)
    if single_rule:
        single_seen.add(rank)
    return True
