"""Golf's native search: depth-first over positions, with a memo of the positions already searched.

A position is the cards taken from each pile, the cards dealt from the stock and the foundation's
rank (suits never matter to what may follow), packed in one integer. A position searched once and
left is dead (it holds no win; in max-cards mode, nothing longer than what was seen), so it is never
searched again: every position is expanded at most once, and the most cards played is the most any
expanded position reached. Pile moves come before the deal, taller piles first. Limits (nodes, the
wall clock, CPU, memory for the memo) end the search undecided, never with a verdict it did not prove.

In decision mode two cuts leave a position at once, each a proof that it holds no win: a pile card
that can never be played (no card left that it may follow) strands it; and, counting from the ranks
alone, whatever the piles' order, each pile card left needs a card of its own to follow (a pile card,
a stock card or the foundation's, each followed once), which the cards left may be too few to give
(`fed`). In max-cards mode the same count bounds how many more pile cards a play from a position can
put on the foundation, and a position that cannot beat the longest play so far is left.
"""

from __future__ import annotations

import hashlib
import importlib
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from patience.cards import Card
from patience.errors import UsageError
from patience.golf.deal import GolfDeal
from patience.result import Answer, Status

if TYPE_CHECKING:
    from patience.runs.process import Limits

CUT_NONE, CUT_BOUND, CUT_DEAD = 0, 1, 2  # no cut; the longest play's bound; the cuts against a win
CHECK_EVERY = 4096  # nodes between two looks at the clocks
MEMO_BYTES = 100  # what one remembered position costs (an int in a set), for the memory limit
Chains = tuple[tuple[tuple[int, ...], bool], ...]  # the follow graph as paths and cycles (closed: True)
_LIMIT_STATUS = {"node limit reached": Status.UNKNOWN, "memory limit reached": Status.MEMOUT}  # else the clock


@dataclass(frozen=True)
class Outcome:
    """What a search found: its verdict, the win (cards in order) or the longest play, its size."""

    status: Status
    sequence: tuple[Card, ...] | None  # the win (SOLVED), else the longest play found
    max_cards: int  # pile cards of the longest play (all of them in a win)
    nodes: int
    cached: int
    limit: str = ""  # which limit ended an undecided search
    engine: str = "python"


def compiled() -> Any:
    """The compiled search (patience/golf/_golf.c, built by setup.py), or None where it is not built
    or was built from another source than the one beside it (an edit not yet compiled)."""
    try:
        module = importlib.import_module("patience.golf._golf")
    except ImportError:
        return None
    source = Path(__file__).with_name("_golf.c")
    header = source.parent.with_name("extension.h")  # patience/extension.h, included: setup.py digests both
    if source.exists() and getattr(module, "SOURCE", "") != hashlib.sha256(
            source.read_bytes() + header.read_bytes()).hexdigest()[:16]:
        return None
    return module


def fits_compiled(deal: GolfDeal) -> bool:
    """Whether a position of `deal` packs into the compiled search's 64-bit number."""
    size = deal.ranks * (len(deal.stock) + 1)
    for pile in deal.piles:
        size *= len(pile) + 1
    return size < 2 ** 63


def search(deal: GolfDeal, max_cards: bool = False, nodes: int | None = None, seconds: float | None = None,
           cpu: float | None = None, memory_mb: int | None = None, cache: bool = True, prune: bool = True,
           engine: str | None = None) -> Outcome:
    """Decide `deal`, or (`max_cards`) find its longest play, a win ending either. `prune` turns the
    cuts on: in decision mode a position is left where a pile card can never be played (not playable
    now, and no card left that it may follow, in the stock, or in a pile but not under it) or where
    the pile cards left cannot each have a card to follow (`fed`); in max-cards mode, where that count
    shows that no play from it is longer than the longest so far. `seconds` and `cpu`
    count from the call (wall clock, this thread's CPU). `engine`: c, python, or None for c where it
    is built and the deal fits it."""
    module = compiled()
    if engine is None:
        engine = "c" if module is not None and fits_compiled(deal) else "python"
    if engine == "c" and (module is None or not fits_compiled(deal)):
        raise ValueError("the compiled Golf search is not built" if module is None
                         else "this deal's positions do not fit the compiled Golf search")
    tables = _Tables.of(deal)
    cuts = CUT_NONE if not prune else CUT_BOUND if max_cards else CUT_DEAD
    if engine == "c":
        return _compiled(module, deal, tables, nodes, seconds, cpu, memory_mb, cache, cuts)
    return _python(deal, tables, nodes, seconds, cpu, memory_mb, cache, cuts)


@dataclass(frozen=True)
class _Tables:
    """What both engines read of a deal: the variant's rule as the ranks that may go onto each rank,
    and for the pruning each pile card's acceptors (the ranks it may follow, with how many cards of
    that rank lie under it in its pile) and each rank's watchers (the pile cards that may follow it)."""

    onto: list[tuple[int, ...]]  # base rank -> the ranks a pile card may have to go onto it (at most 2)
    acceptors: list[list[tuple[tuple[int, int], ...]]]  # [pile][depth] -> ((rank, cards of it below), ...)
    watchers: list[list[tuple[int, int]]]  # rank -> (pile, depth) of the cards that may follow that rank
    left: list[int]  # rank -> the stock and pile cards of that rank
    chains: Chains  # the follow graph's paths and cycles, for the cuts

    @classmethod
    def of(cls, deal: GolfDeal) -> _Tables:
        ranks = deal.ranks
        def near(rank: int) -> tuple[int, ...]:
            return tuple(dict.fromkeys(((rank - 1) % ranks, (rank + 1) % ranks)))
        onto = [tuple(rank for rank in near(base) if deal.rank_follows(base, rank)) for base in range(ranks)]
        acceptors: list[list[tuple[tuple[int, int], ...]]] = []
        watchers: list[list[tuple[int, int]]] = [[] for _ in range(ranks)]
        left = [0] * ranks
        for card in (*deal.stock, *deal.cards):
            left[card.rank] += 1
        for index, pile in enumerate(deal.piles):
            column = []
            for depth, card in enumerate(pile):
                bases = tuple(base for base in near(card.rank) if card.rank in onto[base])
                column.append(tuple((base, sum(under.rank == base for under in pile[depth + 1:])) for base in bases))
                for base in bases:
                    watchers[base].append((index, depth))
            acceptors.append(column)
        return cls(onto, acceptors, watchers, left, follow_chains(onto))


def follow_chains(onto: list[tuple[int, ...]]) -> Chains:
    """The graph of which card may follow which, split in its paths and cycles (closed: True).

    Each rank r is two vertices, 2r (a card of r, followed) and 2r + 1 (a card of r, following), and
    an edge joins 2a and 2b + 1 when rank b may go onto rank a. A rank goes onto at most two ranks
    and at most two ranks go onto it, so no vertex has more than two edges: the graph is paths and
    cycles, listed vertex by vertex (a path from one end)."""
    edges: list[list[int]] = [[] for _ in range(2 * len(onto))]
    for base, row in enumerate(onto):
        for rank in row:
            edges[2 * base].append(2 * rank + 1)
            edges[2 * rank + 1].append(2 * base)
    seen = [False] * len(edges)
    chains = []

    def walk(start: int) -> tuple[int, ...]:
        chain, before, vertex = [start], -1, start
        seen[start] = True
        while True:
            ahead = [other for other in edges[vertex] if other != before and not seen[other]]
            if not ahead:
                return tuple(chain)
            before, vertex = vertex, ahead[0]
            seen[vertex] = True
            chain.append(vertex)

    for start in range(len(edges)):  # the paths, from their ends; then what is left is cycles
        if not seen[start] and len(edges[start]) < 2:
            chains.append((walk(start), False))
    for start in range(len(edges)):
        if not seen[start]:
            chains.append((walk(start), True))
    return tuple(chains)


def fed(chains: Chains, cards: list[int], starters: list[int]) -> int:
    """An upper bound on how many of `cards` (rank -> pile cards left) can each have a card to follow:
    a pile card goes onto the foundation's card, a dealt stock card or a pile card played just before
    it, and each card is followed at most once. So a position with a win has a matching of the follow
    graph that covers every pile card, the followed side of each rank taking its pile cards and
    `starters` (its stock cards left, and the foundation's card)."""
    capacity = [cards[vertex >> 1] + (0 if vertex & 1 else starters[vertex >> 1]) for vertex in range(2 * len(cards))]
    return matching(chains, capacity)


def matching(chains: Chains, capacity: list[int]) -> int:
    """An upper bound on the largest matching of the follow graph with vertex v taking at most
    `capacity[v]` edges (exact but for cycles with no empty vertex): on a path the greedy matching
    from one end is largest, and a cycle is cut at a vertex of no capacity, or else given its cut
    edge's smaller end."""
    total = 0
    for chain, closed in chains:
        length, start = len(chain), 0
        if closed:
            empty = [at for at, vertex in enumerate(chain) if not capacity[vertex]]
            if empty:
                start = empty[0]
            else:
                total += min(capacity[chain[0]], capacity[chain[-1]])
        spare = capacity[chain[start]]
        for at in range(1, length):
            held = capacity[chain[(start + at) % length]]
            edge = min(spare, held)
            total += edge
            spare = held - edge
    return total


_COMPILED_STATUS = {"won": Status.SOLVED, "lost": Status.UNSOLVABLE, "nodes": Status.UNKNOWN, "time": Status.TIMEOUT,
                    "cpu": Status.TIMEOUT, "memory": Status.MEMOUT}
_COMPILED_LIMIT = {"nodes": "node limit reached", "time": "time limit reached", "cpu": "CPU limit reached",
                   "memory": "memory limit reached"}


def _compiled(module: Any, deal: GolfDeal, tables: _Tables, nodes: int | None, seconds: float | None,
              cpu: float | None, memory_mb: int | None, cache: bool, cuts: int) -> Outcome:
    onto = [rank for row in tables.onto for rank in (*row, -1, -1)[:2]]
    accepted = [pair for column in tables.acceptors for card in column for pair in (*card, (-1, 0), (-1, 0))[:2]]
    first = {(index, depth): sum(map(len, deal.piles[:index])) + depth
             for index, pile in enumerate(deal.piles) for depth in range(len(pile))}
    starts, watched = [0], []
    for watchers in tables.watchers:
        watched += [first[where] for where in watchers]
        starts.append(len(watched))
    chain_starts, chain_vertices = [0], list[int]()
    for chain, _ in tables.chains:
        chain_vertices += chain
        chain_starts.append(len(chain_vertices))
    status, path, best, expanded, cached = module.search(
        [card.rank for card in deal.cards], [len(pile) for pile in deal.piles], [card.rank for card in deal.stock],
        deal.ranks, deal.foundation.rank, onto, cache, cuts, [rank for rank, _ in accepted],
        [below for _, below in accepted], starts, watched, tables.left, chain_vertices, chain_starts,
        [int(closed) for _, closed in tables.chains], -1 if nodes is None else nodes,
        seconds or 0.0, cpu or 0.0, 0 if memory_mb is None else memory_mb * 1024 * 1024)
    return Outcome(_COMPILED_STATUS[status], _cards(deal, [(index, 0) for index in path]), best, expanded, cached,
                   _COMPILED_LIMIT.get(status, ""), "c")


def _python(deal: GolfDeal, tables: _Tables, nodes: int | None, seconds: float | None, cpu: float | None,
            memory_mb: int | None, cache: bool, cuts: int) -> Outcome:
    """The search in Python, move for move as the compiled one."""
    piles = [[card.rank for card in pile] for pile in deal.piles]
    stock = [card.rank for card in deal.stock]
    heights = [len(pile) for pile in piles]
    total = sum(heights)
    ranks = deal.ranks
    onto, acceptors, watchers, left = tables.onto, tables.acceptors, tables.watchers, list(tables.left)
    pile_left = [0] * ranks  # rank -> pile cards of it not yet played
    for pile in piles:
        for rank in pile:
            pile_left[rank] += 1
    # the position's number: base rank + ranks * (dealt + (len(stock) + 1) * (taken[0] + ...))
    dealt_step = ranks
    steps, step = [], ranks * (len(stock) + 1)
    for height in heights:
        steps.append(step)
        step *= height + 1
    started, cpu_started = time.monotonic(), time.thread_time()
    wall_end = None if seconds is None else started + seconds
    cpu_end = None if cpu is None else cpu_started + cpu
    memo_cap = None if memory_mb is None else memory_mb * 1024 * 1024 // MEMO_BYTES
    taken = [0] * len(piles)
    seen: set[int] = set()
    key = deal.foundation.rank
    seen.add(key)
    path: list[tuple[int, int]] = []  # (pile index or -1 for the stock, the base rank before it)
    best, best_path, played, dealt, base = 0, [], 0, 0, deal.foundation.rank
    expanded = 0

    def moves() -> list[int]:
        """The piles whose top may go on `base`, tallest first, then -1 (the stock) if it has cards."""
        row = onto[base]
        found = [index for index in range(len(piles)) if taken[index] < heights[index]
                 and piles[index][taken[index]] in row]
        found.sort(key=lambda index: taken[index] - heights[index])
        if dealt < len(stock):
            found.append(-1)
        return found

    def saved(index: int, depth: int) -> bool:
        """Whether the pile card may still be played: now (a top card that follows the base), or after
        some card left that it may follow (not under it)."""
        if depth == taken[index] and piles[index][depth] in onto[base]:
            return True
        return any(left[rank] > below for rank, below in acceptors[index][depth])

    def stranded(rank: int) -> bool:
        """Whether a pile card can never be played, after a move put `rank` on the foundation: only the
        cards that may follow `rank` and the top cards (the base changed) can have become so."""
        for index, depth in watchers[rank]:
            if depth >= taken[index] and not saved(index, depth):
                return True
        return any(taken[index] < heights[index] and not saved(index, taken[index]) for index in range(len(piles)))

    prune = cuts == CUT_DEAD

    def beaten() -> bool:
        """Whether no play from here puts more pile cards on the foundation than a win less one
        (decision mode) or the longest play so far (max-cards mode): each needs a card to follow (`fed`)."""
        starters = [left[rank] - pile_left[rank] + (rank == base) for rank in range(ranks)]
        return played + fed(tables.chains, pile_left, starters) <= (total - 1 if prune else best)

    dead_start = (prune and any(not saved(index, depth) for index in range(len(piles))
                                for depth in range(heights[index]))) or (cuts != CUT_NONE and beaten())
    frames: list[tuple[list[int], int]] = [([] if dead_start else moves(), 0)]
    limit = ""
    while frames:
        options, next_option = frames[-1]
        if next_option == len(options):  # every move of this position searched: back up one move
            frames.pop()
            if not path:
                break
            index, before = path.pop()
            if index < 0:
                dealt -= 1
                key -= dealt_step
            else:
                taken[index] -= 1
                played -= 1
                key -= steps[index]
                pile_left[base] += 1
            left[base] += 1
            key += before - base
            base = before
            continue
        frames[-1] = (options, next_option + 1)
        index = options[next_option]
        if index < 0:
            rank = stock[dealt]
            new_key = key + dealt_step + rank - base
        else:
            rank = piles[index][taken[index]]
            new_key = key + steps[index] + rank - base
        if cache and new_key in seen:
            continue
        path.append((index, base))
        if index < 0:
            dealt += 1
        else:
            taken[index] += 1
            played += 1
            pile_left[rank] -= 1
        left[rank] -= 1
        key, base = new_key, rank
        if played > best:
            best, best_path = played, list(path)
            if played == total:
                break
        if cache:
            seen.add(key)
        if (prune and stranded(rank)) or (cuts != CUT_NONE and beaten()):
            frames.append(([], 0))  # a dead position: backed out of at once, not counted as a node
            continue
        expanded += 1
        if expanded % CHECK_EVERY == 0:
            limit = _limit(expanded, nodes, wall_end, cpu_end, len(seen), memo_cap)
            if limit:
                break
        elif nodes is not None and expanded >= nodes:
            limit = "node limit reached"
            break
        frames.append((moves(), 0))
    sequence = _cards(deal, best_path)
    if best == total:
        return Outcome(Status.SOLVED, sequence, best, expanded, len(seen))
    if limit:
        status = _LIMIT_STATUS.get(limit, Status.TIMEOUT)
        return Outcome(status, sequence, best, expanded, len(seen), limit)
    return Outcome(Status.UNSOLVABLE, sequence, best, expanded, len(seen))


def _limit(expanded: int, nodes: int | None, wall_end: float | None, cpu_end: float | None, cached: int,
           memo_cap: int | None) -> str:
    if nodes is not None and expanded >= nodes:
        return "node limit reached"
    if wall_end is not None and time.monotonic() >= wall_end:
        return "time limit reached"
    if cpu_end is not None and time.thread_time() >= cpu_end:
        return "CPU limit reached"
    if memo_cap is not None and cached >= memo_cap:
        return "memory limit reached"
    return ""


def _cards(deal: GolfDeal, path: list[tuple[int, int]]) -> tuple[Card, ...]:
    """The cards a path of (pile or -1, base) steps puts on the foundation."""
    taken = [0] * len(deal.piles)
    dealt = 0
    cards = []
    for index, _ in path:
        if index < 0:
            cards.append(deal.stock[dealt])
            dealt += 1
        else:
            cards.append(deal.piles[index][taken[index]])
            taken[index] += 1
    return tuple(cards)


def native_search(deal: GolfDeal, limits: Limits, options: Mapping[str, Any]) -> Answer:
    """The native runner's hook: the search under the run's limits (already what is left of them);
    of the runner's options, `engine`, `nodes`, `max-cards`, `cache` and `reach` (the pruning) apply to Golf."""
    started, cpu_started = time.monotonic(), time.thread_time()
    try:
        outcome = search(deal, bool(options.get("max-cards")), options.get("nodes"), limits.timeout,
                         limits.cpu_limit, limits.memory_mb, options.get("cache", True) is not False,
                         options.get("reach", True) is not False, options.get("engine"))
    except ValueError as error:  # engine=c where it is not built or the deal does not fit it
        raise UsageError(f"engine=c: {error}") from None
    wall, cpu = time.monotonic() - started, time.thread_time() - cpu_started
    stats: dict[str, float | int | str] = {"engine": outcome.engine, "cached_states": outcome.cached,
                                           "nodes_per_s": round(outcome.nodes / wall) if wall > 0 else 0}
    if options.get("max-cards"):
        stats["max_cards"] = outcome.max_cards
    if outcome.status is Status.SOLVED:
        return Answer(Status.SOLVED, outcome.sequence, wall, cpu, outcome.nodes, stats)
    if outcome.status is Status.UNSOLVABLE and outcome.sequence:
        stats["longest_play"] = " ".join(map(deal.name, outcome.sequence))
    return Answer(outcome.status, None, wall, cpu, outcome.nodes, stats, message=outcome.limit)


def survey_search(deal: GolfDeal, seconds: float, nodes: int | None, max_cards: bool) -> tuple[Status, int, int]:
    """The survey's hook: (verdict, most pile cards played, nodes) within `seconds` of CPU."""
    outcome = search(deal, max_cards, nodes, None, seconds)
    return outcome.status, outcome.max_cards, outcome.nodes
