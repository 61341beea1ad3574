"""Certificates of a loss (docs/certificates.md): positions of a lost deal, every one dead, closed
under the moves (up to the bounds and twins the checker works out itself), written so that a checker
apart from every search (patience.checker) can verify that no play wins.

Where the positions come from, after a search has said "lost" (`certificate_pass`, in a child process
under the limits of the solve, or in a campaign's worker): in the Black Hole family with the compiled
search, that search's own failure cache (the game's `certificate_search`: `searched`, the search run
keeping its cache, as `survey --certify` keeps the survey's), which lists far fewer positions than
the plays reach (the search's symmetry rule drops twins the checker excuses); else the game's walk
(`certificate_walk`, `dead_positions`): every position the plays reach, which is closed by itself
(for the Black Hole family the compiled walk, or the plain search, from the front and the back in
turns, the direction that ends first giving the positions; the deal's piles turned over, played from
no foundation card to a last card next to the deal's foundation card, have a win exactly when the
deal has: a win read backwards); for Late Binding Solitaire the LBS search with its cut off; for
Binary Star, Golf and Worm Hole the short walk here. A pass that finds a win (a search's fault)
writes nothing.

The file: gzip of one JSON header line (the game, the SHA-256 of the deal's content, the direction,
the numbers per position, their width in bytes, the count) and the positions, each its numbers big-endian in that
width, sorted, no two alike. It is written whole or not at all (patience.outputs.write_file).
"""

from __future__ import annotations

import base64
import gzip
import json
import pickle
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from patience.binary_star.deal import BinaryStarDeal
from patience.cards import ranks_adjacent
from patience.deal import Deal
from patience.errors import InputError, UsageError
from patience.games import AnyDeal, deal_content, game_of, hook
from patience.golf.deal import GolfDeal
from patience.lbs.deal import LBSDeal
from patience.outputs import write_file
from patience.runs.process import Limits, caller_environment, end_with_caller, python_command, run_process
from patience.worm_hole.deal import WormHoleDeal

FORMAT, VERSION = "patience-loss-certificate", 3  # 2: a move may lead to a position a bound cuts; 3: a twin left out
GRACE_SECONDS = 0.5  # the pass looks at its clocks every thousand positions; the kill comes this much later
CLOCK_EVERY = 1_024  # positions between two looks at the clocks (Binary Star's walk)
FIRST_TURN = 1_000  # the compiled walk: positions of each direction's first turn; each next, TURN_GROWTH times more
TURN_GROWTH = 4
MOST_POSITIONS = 20_000_000  # the compiled walk's cap: some hundred bytes a position kept, with its hash sets
FIRST_NODES = 100_000  # the compiled search's pass (decision mode): nodes of each direction's first turn; each
SEARCH_GROWTH = 4  # next turn this many times more


@dataclass(frozen=True)
class Pass:
    """What a certificate pass found: the dead positions (each its numbers), or a win, or a limit."""

    positions: list[tuple[int, ...]]
    won: bool = False
    limited_by: str | None = None  # "time", "cpu" or (the compiled walk) "positions"
    direction: str = "forward"  # the Black Hole family's board: the deal's, or its piles turned over
    packed: tuple[int, int, bytes] | None = None  # the compiled walk's (positions, width, sorted records)

    @property
    def count(self) -> int:
        return len(self.positions) if self.packed is None else self.packed[0]

    def file(self, deal: AnyDeal) -> bytes:
        """The certificate file of these positions."""
        if self.packed is None:
            return encode(deal, self.positions, self.direction)
        count, width, body = self.packed
        return _file(deal, self.direction, game_of(deal).certificate_numbers(deal)[0], width, count, body)


@dataclass(frozen=True)
class Written:
    """What `certify` did: `positions` and `size` (bytes) of the certificate written, else `reason`."""

    positions: int = 0
    size: int = 0
    reason: str | None = None

    def said(self, path: str, kind: str = "positions") -> str:
        """`PATH (N positions, B bytes)`, as `solve --certificate` says what it wrote (`kind` counted)."""
        counted = kind.removesuffix("s") if self.positions == 1 else kind
        return f"{path} ({self.positions:,} {counted}, {self.size:,} bytes)"


def encode(deal: AnyDeal, positions: Iterable[tuple[int, ...]], direction: str = "forward") -> bytes:
    """The certificate file of `deal` listing `positions` (each a tuple of the game's numbers) of the
    deal's board (`forward`) or, in the Black Hole family, of its piles turned over (`backward`)."""
    records = [tuple(position) for position in positions]
    numbers, least = game_of(deal).certificate_numbers(deal)  # LBS: a row, padded by a number above every card
    top = max(least, max((max(record) for record in records), default=0))
    width = max(1, (top.bit_length() + 7) // 8)
    pad = (1 << 8 * width) - 1
    padded = (record + (pad,) * (numbers - len(record)) for record in records)
    body = sorted(bytes(record) if width == 1 else b"".join(number.to_bytes(width, "big") for number in record)
                  for record in padded)
    return _file(deal, direction, numbers, width, len(body), b"".join(body))


def _file(deal: AnyDeal, direction: str, numbers: int, width: int, count: int, body: bytes) -> bytes:
    """The header line and the records, compressed."""
    game = game_of(deal)
    header = {"format": FORMAT, "version": VERSION, "game": game.variant(deal), "deal": deal_content(game, deal),
              "direction": direction, "numbers": numbers, "width": width, "positions": count}
    # level 5: on Black Hole deal 265's million positions 0.28 s, smaller than level 6's 0.71 s and level 9's 5 s
    return gzip.compress(json.dumps(header, sort_keys=True).encode() + b"\n" + body, compresslevel=5, mtime=0)


def dead_positions(deal: AnyDeal, seconds: float | None = None, cpu_seconds: float | None = None,
                   cut: bool = True) -> Pass:
    """Every position of `deal` the plays reach, when none is won (the walk, the game's `certificate_walk`); in
    the Black Hole family with the compiled search and `cut`, those the live-card bound does not cut."""
    game = game_of(deal)
    if game.certificate_walk is None:
        raise UsageError(f"there are no certificates of {game.name} losses")
    walk: Walk = hook(game.certificate_walk)
    return walk(deal, seconds, cpu_seconds, cut)


def certificate_pass(deal: AnyDeal, seconds: float | None = None, cpu_seconds: float | None = None,
                     max_cards: bool = False, memory_mb: int | None = None) -> Pass:
    """The certificate of a loss `solve --certificate` and campaigns' `certify: true` make: the game's
    `certificate_search` (the Black Hole family's, with the compiled search: its own failure cache, as `survey
    --certify` keeps it), else (or when the cache had to forget states) the walk of `dead_positions`, on what the
    search left of the limits. `max_cards`: of "no play plays more than k", k the longest play; `memory_mb`: the
    memory limit the search's cache keeps within, as the native solver's does."""
    started, cpu_started = time.monotonic(), time.process_time()
    game = game_of(deal)
    if game.certificate_search is not None:
        search: Search = hook(game.certificate_search)
        found = search(deal, seconds, cpu_seconds, max_cards, memory_mb)
        if found is not None:
            return found
    return dead_positions(deal, _left(seconds, time.monotonic() - started),
                          _left(cpu_seconds, time.process_time() - cpu_started))


Walk = Callable[[Any, float | None, float | None, bool], Pass]  # a game's certificate_walk (`cut`)
Search = Callable[[Any, float | None, float | None, bool, int | None], Pass | None]  # certificate_search's


def black_hole_walk(deal: Deal, seconds: float | None, cpu_seconds: float | None, cut: bool = True) -> Pass:
    """The Black Hole family's walk: the compiled walk (`_walked`) where the compiled search takes the deal, else
    the plain search's closure (its bound and memory cap off: every position reached)."""
    from patience.native import engine
    from patience.native.board import Board

    if engine.compiled() and engine.fits(Board.of(deal)):
        return _walked(deal, seconds, cpu_seconds, cut)
    from patience.plain_search import closure

    found = closure(deal, seconds, cpu_seconds)
    return Pass([(top + 1, *taken) for top, taken in found.positions()], found.won, found.limited_by,
                found.direction or "forward")


def lbs_walk(deal: LBSDeal, seconds: float | None, cpu_seconds: float | None, cut: bool = True) -> Pass:
    """Late Binding Solitaire's: the LBS search with its stranded-card cut off, its failed rows every row reached."""
    from patience.lbs.solver import solve

    rows: set[tuple[int, ...]] = set()
    search = solve(deal, seconds, None, cpu_seconds, dead=rows)
    limit = None if search.complete else ("cpu" if search.cpu_limited else "time")
    return Pass(list(rows) if search.complete and search.moves is None else [], search.moves is not None, limit)


def golf_walk(deal: GolfDeal, seconds: float | None, cpu_seconds: float | None, cut: bool = True) -> Pass:
    return _walk(*_golf(deal), seconds, cpu_seconds)


def worm_hole_walk(deal: WormHoleDeal, seconds: float | None, cpu_seconds: float | None, cut: bool = True) -> Pass:
    return _walk(*_worm_hole(deal), seconds, cpu_seconds)


def binary_star_walk(deal: BinaryStarDeal, seconds: float | None, cpu_seconds: float | None,
                     cut: bool = True) -> Pass:
    return _binary_star(deal, seconds, cpu_seconds)


def black_hole_search(deal: Deal, seconds: float | None, cpu_seconds: float | None, max_cards: bool = False,
                      memory_mb: int | None = None) -> Pass | None:
    """The Black Hole family's certificate_search: `searched` where the compiled search takes the deal."""
    from patience.native import engine
    from patience.native.board import Board

    if not (engine.compiled() and engine.fits(Board.of(deal))):
        return None
    return searched(deal, seconds, cpu_seconds, max_cards, engine.cache_bytes(memory_mb))


def _left(limit: float | None, spent: float) -> float | None:
    return None if limit is None else max(limit - spent, 0.001)


def searched(deal: Deal, seconds: float | None, cpu_seconds: float | None, max_cards: bool = False,
             table_bytes: int | None = None) -> Pass | None:
    """The compiled search's failure cache of a lost deal as its certificate (engine.search_ranks' `kept`; no second
    walk): in max-cards mode the search from the front, whose cache bounds every play by its longest (the checker's
    most cards); in decision mode the searches from the front and from the back (the piles turned over) in turns,
    each turn SEARCH_GROWTH times the nodes of the last, from FIRST_NODES, the first to decide giving it (the back
    decides some deals at once that the front takes millions of nodes on). A win, or a limit, as `dead_positions`
    says them; None when the cache had to forget states (no certificate: the walk then). `table_bytes`: the
    cache's largest table (engine.cache_bytes)."""
    from patience.native import _search
    from patience.native.engine import DEFAULT_CACHE_BYTES
    from patience.native.rules import Rules

    top, sizes = -1 if deal.foundation is None else deal.foundation.rank, [len(pile) for pile in deal.piles]
    boards = [("forward", [card.rank for pile in deal.piles for card in pile], top, -1)]
    if not max_cards and (top < 0 or deal.ranks > 1):  # an end rank needs two ranks
        boards.append(("backward", [card.rank for pile in deal.piles for card in reversed(pile)], -1, top))
    started, cpu_started, budget = time.monotonic(), time.process_time(), 0 if max_cards else FIRST_NODES
    while True:
        for direction, ranks, on, end in boards:
            wall = _left(seconds, time.monotonic() - started)
            cpu = _left(cpu_seconds, time.process_time() - cpu_started)
            word, _, _, nodes, _, _, width, records = _search.search_kept(
                ranks, sizes, deal.ranks, (on,), *Rules().switches(), max_cards, budget, wall or 0.0, cpu or 0.0,
                table_bytes or DEFAULT_CACHE_BYTES, end)
            if word == "unsolvable":
                return None if records is None else kept_pass(deal, direction, width, records)
            if word == "solved":  # a win from the back, read forwards, wins too
                return Pass([], won=True)
            if word == "cpu" or (word == "limit" and not (budget and nodes >= budget)):
                return Pass([], limited_by="cpu" if word == "cpu" else "time")
        budget *= SEARCH_GROWTH


def kept_pass(deal: Deal, direction: str, width: int, records: bytes) -> Pass:
    """The Pass of a search's failure cache (engine.search_ranks' `kept`): `records` of `width`-byte
    numbers, the deal's positions or (`backward`) those of its piles turned over."""
    return Pass([], direction=direction, packed=(len(records) // ((1 + len(deal.piles)) * width), width, records))


def _walked(deal: Deal, seconds: float | None, cpu_seconds: float | None, cut: bool) -> Pass:
    """The compiled walk (patience.native._search.closure) from the front and from the back in turns,
    each turn TURN_GROWTH times the positions of the last, each walk going on where it stopped, until
    a direction ends (as the plain search's closure, whose positions it lists, without its `ends`: a
    full play of the back that ends elsewhere is listed, or cut by the bound)."""
    from patience.native import _search

    top = -1 if deal.foundation is None else deal.foundation.rank
    boards = [([card.rank for pile in piles for card in pile], [len(pile) for pile in piles], start, end)
              for piles, start, end in ((deal.piles, top, -1), ([pile[::-1] for pile in deal.piles], -1, top))]
    status, which, count, width, body = _search.closure(boards, deal.ranks, cut, FIRST_TURN, TURN_GROWTH,
                                                        MOST_POSITIONS, seconds or 0.0, cpu_seconds or 0.0)
    if status == "lost":
        return Pass([], direction=("forward", "backward")[which], packed=(count, width, body))
    return Pass([], won=status == "won", limited_by=None if status == "won" else {"limit": "time"}.get(status, status))


def _binary_star(deal: BinaryStarDeal, seconds: float | None, cpu_seconds: float | None) -> Pass:
    """Binary Star's positions (the rank on each foundation, the cards taken from each pile), walked
    depth first from the start."""
    ranks, heights = deal.ranks, [len(pile) for pile in deal.piles]
    start = (*(card.rank for card in deal.foundations), *(0,) * len(deal.piles))
    count = len(deal.foundations)

    def moves(position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        taken = position[count:]
        for index, pile in enumerate(deal.piles):
            if taken[index] == heights[index]:
                continue
            rank = pile[taken[index]].rank
            for foundation in range(count):
                if ranks_adjacent(position[foundation], rank, ranks):
                    after = list(position)
                    after[foundation], after[count + index] = rank, taken[index] + 1
                    yield tuple(after)

    def won(position: tuple[int, ...]) -> bool:
        return all(gone == height for gone, height in zip(position[count:], heights, strict=True))

    return _walk(start, moves, won, seconds, cpu_seconds)


Moves = Callable[[tuple[int, ...]], Iterator[tuple[int, ...]]]  # a position's successors


def _golf(deal: GolfDeal) -> tuple[tuple[int, ...], Moves, Callable[[tuple[int, ...]], bool]]:
    """Golf's start, moves and win on its positions (the foundation's rank, the stock's cards dealt, the
    cards taken from each pile; docs/certificates.md)."""
    piles, stock = [[card.rank for card in pile] for pile in deal.piles], [card.rank for card in deal.stock]
    onto = [[deal.rank_follows(base, rank) for rank in range(deal.ranks)] for base in range(deal.ranks)]
    heights = tuple(len(pile) for pile in piles)

    def moves(position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        base, dealt, taken = position[0], position[1], position[2:]
        for index, pile in enumerate(piles):
            if taken[index] < len(pile) and onto[base][pile[taken[index]]]:
                yield (pile[taken[index]], dealt, *taken[:index], taken[index] + 1, *taken[index + 1:])
        if dealt < len(stock):
            yield (stock[dealt], dealt + 1, *taken)

    return (deal.foundation.rank, 0, *(0,) * len(piles)), moves, lambda position: position[2:] == heights


def _worm_hole(deal: WormHoleDeal) -> tuple[tuple[int, ...], Moves, Callable[[tuple[int, ...]], bool]]:
    """Worm Hole's start, moves and win on its positions (the foundation's rank + 1, 0 for none; the
    cards taken from each pile; the rank + 1 of each cell's card, 0 for an empty one, sorted)."""
    piles, ranks, count = [[card.rank for card in pile] for pile in deal.piles], deal.ranks, len(deal.piles)
    heights, top = tuple(len(pile) for pile in piles), 0 if deal.foundation is None else deal.foundation.rank + 1

    def moves(position: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        on, taken, cells = position[0], position[1:1 + count], position[1 + count:]
        for index, pile in enumerate(piles):
            if taken[index] < len(pile):
                rank, after = pile[taken[index]], (*taken[:index], taken[index] + 1, *taken[index + 1:])
                if on == 0 or ranks_adjacent(on - 1, rank, ranks):
                    yield (rank + 1, *after, *cells)
                if cells and cells[0] == 0:  # an empty cell (sorted, so the first)
                    yield (on, *after, *sorted((*cells[1:], rank + 1)))
        for index, held in enumerate(cells):
            if held and held not in cells[:index] and (on == 0 or ranks_adjacent(on - 1, held - 1, ranks)):
                yield (held, *taken, *sorted((0, *cells[:index], *cells[index + 1:])))

    def won(position: tuple[int, ...]) -> bool:
        return position[1:1 + count] == heights and not any(position[1 + count:])

    return (top, *(0,) * (count + deal.cells)), moves, won


def _walk(start: tuple[int, ...], moves: Moves, won: Callable[[tuple[int, ...]], bool], seconds: float | None,
          cpu_seconds: float | None) -> Pass:
    """Every position the plays reach from `start`, depth first (Golf's, Worm Hole's), or a win, or a limit."""
    started, cpu_started = time.monotonic(), time.process_time()
    seen, waiting, visited = {start}, [start], 0
    while waiting:
        position = waiting.pop()
        visited += 1
        if visited % CLOCK_EVERY == 0:
            if seconds is not None and time.monotonic() - started > seconds:
                return Pass([], limited_by="time")
            if cpu_seconds is not None and time.process_time() - cpu_started > cpu_seconds:
                return Pass([], limited_by="cpu")
        if won(position):
            return Pass([], won=True)
        for following in moves(position):
            if following not in seen:
                seen.add(following)
                waiting.append(following)
    return Pass(list(seen))


def certify(deal: AnyDeal, path: Path, limits: Limits, max_cards: bool = False) -> Written:
    """Run the certificate pass (`certificate_pass`) on `deal` (a loss) in a child process under `limits`
    (counted from its start); the child writes the certificate to `path` whole, or nothing."""
    hard = limits.with_grace(GRACE_SECONDS)
    payload = base64.b64encode(pickle.dumps((deal, str(path), limits.timeout, limits.cpu_limit, max_cards,
                                             limits.memory_mb))).decode("ascii")
    run = run_process(python_command("-m", "patience.certificates"), hard, env=caller_environment(),
                      stdin_text=payload)
    if run.out_of_time or run.memout:
        return Written(reason="the certificate pass reached the " + ("memory" if run.memout else "time") + " limit")
    lines = run.stdout.splitlines()
    try:
        result = json.loads(lines[-1]) if run.returncode == 0 and lines else None
    except ValueError:
        result = None
    if not isinstance(result, dict):
        detail = (run.stderr.strip().splitlines() or [f"exit {run.returncode}"])[-1]
        return Written(reason=f"the certificate pass failed: {detail[:200]}")
    if result.get("reason") is not None:
        return Written(reason=str(result["reason"]))
    return Written(int(result["positions"]), int(result["size"]))


def main() -> int:
    """The child: the pass on the pickled deal, the certificate written, one JSON line of what it did."""
    end_with_caller()
    deal, path, seconds, cpu_seconds, max_cards, memory_mb = pickle.loads(base64.b64decode(sys.stdin.read()))
    found = certificate_pass(deal, seconds, cpu_seconds, max_cards, memory_mb)
    result: dict[str, object]
    if found.limited_by is not None:
        result = {"reason": f"the certificate pass reached the {found.limited_by} limit"}
    elif found.won:
        result = {"reason": "the certificate pass found a win: the loss is wrong (a fault of the search)"}
    else:
        data = found.file(deal)
        try:
            write_file(Path(path), data)
        except InputError as error:
            result = {"reason": str(error)}
        else:
            result = {"positions": found.count, "size": len(data)}
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
