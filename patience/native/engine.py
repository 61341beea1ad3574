"""Choose and call a search engine: the compiled one when it is built, else the Python reference.
Both return the same `Outcome`. `run` takes a deal (one foundation), `run_board` any board (one or
more foundations), `decide_many` a batch of boards in one compiled call."""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from patience.deal import Deal
from patience.errors import UsageError, quote
from patience.native import reference
from patience.native.board import Board
from patience.native.reference import Outcome
from patience.native.rules import Rules
from patience.result import Status

__all__ = ["Decision", "Rules", "choose", "compiled", "decide_many", "run",
           "run_board", "run_compiled", "search_ranks", "survey_ranks"]

try:
    from patience.native import _search
except ImportError:  # not built: the package still works through the reference
    _search = None  # type: ignore[assignment]  # mypy has no "module or None" type (python/mypy#1106)


def stale_build() -> bool:
    """Whether the compiled search was built from another `_search.c` than the one beside it: an
    editable checkout pulled or edited since its last build, whose functions may take other arguments.
    (A wheel ships no source: nothing to compare, so it is taken as built.)"""
    source = Path(__file__).with_name("_search.c")
    if _search is None or not source.is_file():
        return False
    return getattr(_search, "SOURCE", "") != hashlib.sha256(source.read_bytes()).hexdigest()[:16]


STALE = "is out of date (built from another patience/native/_search.c: `pip install -e .` rebuilds it)"
if stale_build():
    warnings.warn(f"the compiled search {STALE}; the Python search runs instead", RuntimeWarning, stacklevel=1)
    _search = None  # type: ignore[assignment]
    _stale = True
else:
    _stale = False

COMPILED_MAX_CARDS = 8192  # the recursion takes a few hundred bytes of stack per card: well within 8 MiB
COMPILED_MAX_FOUNDATIONS = 4
COMPILED_MAX_RANKS = 2**14
DEFAULT_CACHE_BYTES = 2**27  # the failure cache's table when no memory limit is given


@dataclass(frozen=True)
class Decision:
    """One deal of a batch: its status, the most cards played, nodes searched, CPU seconds."""

    status: Status
    max_cards: int
    nodes: int
    seconds: float


def compiled() -> bool:
    return _search is not None


def _missing() -> str:
    """Why there is no compiled search to call."""
    return STALE if _stale else "is not built (pip install -e .)"


def fits(board: Board) -> bool:
    """Whether the compiled search takes the board."""
    return (1 <= len(board) <= COMPILED_MAX_CARDS and 1 <= len(board.foundations) <= COMPILED_MAX_FOUNDATIONS
            and board.ranks <= COMPILED_MAX_RANKS)


def run(deal: Deal, choice: str | None, rules: Rules, max_cards: bool,
        node_limit: int | None, seconds: float | None, memory_mb: int | None = None,
        cpu_seconds: float | None = None) -> tuple[Outcome, str]:
    """Search `deal`; returns the outcome and the engine that ran (`c` or `python`)."""
    return run_board(Board.of(deal), choice, rules, max_cards, node_limit, seconds, memory_mb, cpu_seconds)


def run_board(board: Board, choice: str | None, rules: Rules, max_cards: bool,
              node_limit: int | None, seconds: float | None, memory_mb: int | None = None,
              cpu_seconds: float | None = None) -> tuple[Outcome, str]:
    """Search `board` in this process for at most `seconds` of wall clock and `cpu_seconds` of CPU
    (whichever ends first; None: no limit); the compiled cache stops growing at about half of
    `memory_mb` (a full cache only slows the search). The `native` solver runs the Python search in a
    child process instead (patience.runners.python_search), under the runner core's limits."""
    used = choose(board, choice)
    if used == "c":
        return run_compiled(board, rules, max_cards, node_limit, seconds, memory_mb, cpu_seconds), "c"
    outcome = reference.search(board, rules, max_cards, node_limit, seconds, cpu_seconds)
    return outcome, "python"


def run_both(deal: Deal, choice: str | None, rules: Rules, node_limit: int | None, seconds: float | None,
             memory_mb: int | None = None,
             cpu_seconds: float | None = None) -> tuple[Outcome, str, str, dict[str, int]]:
    """Decide `deal` by the search from the front and the search from the back (Board.reversed_of)
    taking turns a round at a time, each with its own failure cache (half the memory each) and its
    own restarts, until one decides or the shared limits end both. Returns the outcome of the one
    that ended (a win from the back is given read forwards, the deal's own play), the direction
    (`forward` or `backward`), the engine, and the nodes of each direction."""
    forward, backward = Board.of(deal), Board.reversed_of(deal)
    used = choose(forward, choice)  # the turned-over board has the same cards and ranks: it fits as well
    if used == "c":
        word, which, order, _, front, back = _search.both(
            forward.rank, forward.pile_size, backward.rank, backward.pile_size, forward.ranks, forward.foundations,
            backward.foundations, backward.end, *rules.switches(), node_limit or 0, seconds or 0.0, cpu_seconds or 0.0,
            cache_bytes(memory_mb))
        status, cpu_limited = compiled_status(word, front + back, node_limit), word == "cpu"
        board = (forward, backward)[which]
        play = None if order is None or word != "solved" else tuple(board.cards[card] for card in order)
    else:
        found, which, (front, back) = reference.search_both(forward, backward, rules, node_limit, seconds, cpu_seconds)
        status, cpu_limited, play = found.status, found.cpu_limited, found.sequence
    if play is not None and which == 1:
        play = tuple(reversed(play))
    outcome = Outcome(status, play, front + back, 0, 0, cpu_limited=cpu_limited)
    return outcome, ("forward", "backward")[which], used, {"forward_nodes": front, "backward_nodes": back}


def choose(board: Board, choice: str | None) -> str:
    """The engine that searches `board`: `c` when built and it takes the board (or when asked for,
    else a usage error), `python` otherwise."""
    if choice not in (None, "c", "python"):
        raise UsageError(f"option engine must be c or python, not {quote(choice)}")
    takes = compiled() and fits(board)
    if choice == "c" and not takes:
        why = (_missing() if not compiled() else
               f"takes 1 to {COMPILED_MAX_CARDS} cards, 1 to {COMPILED_MAX_FOUNDATIONS} foundations and at "
               f"most {COMPILED_MAX_RANKS} ranks")
        raise UsageError(f"the compiled search {why}")
    return "c" if choice != "python" and takes else "python"


def run_compiled(board: Board, rules: Rules, max_cards: bool, node_limit: int | None,
                 seconds: float | None, memory_mb: int | None = None, cpu_seconds: float | None = None) -> Outcome:
    """The compiled search on a board it takes (see `choose`); it stops at `seconds` of wall clock or
    `cpu_seconds` of its thread's CPU, whichever comes first."""
    return _compiled(board, rules, max_cards, node_limit, seconds, cpu_seconds, cache_bytes(memory_mb))


def decide_many(boards: Iterable[Board], rules: Rules, max_cards: bool,
                node_limit: int | None = None, seconds: float | None = None,
                memory_mb: int | None = None, cpu_seconds: float | None = None) -> list[Decision]:
    """Search every board in one compiled call (no Python between deals; the cache's table is
    reused); limits (wall clock and CPU seconds too) apply to each board. Needs the compiled search."""
    boards = list(boards)
    if not compiled():
        raise UsageError(f"the compiled search {_missing()}")
    if not all(fits(board) and board.end < 0 for board in boards):
        raise UsageError("a board the compiled search does not take (or with an end rank)")
    rows = _search.batch([_arrays(board) for board in boards], *rules.switches(), max_cards, node_limit or 0,
                         seconds or 0.0, cpu_seconds or 0.0, cache_bytes(memory_mb))
    return [Decision(compiled_status(word, nodes, node_limit), most, nodes, spent) for word, most, nodes, spent in rows]


def compiled_status(word: str, nodes: int, node_limit: int | None) -> Status:
    """The compiled search's word as a Status, the one place it is read. Its `limit` is the node
    limit or the wall-clock deadline; it checks the node limit first, so it stopped there exactly
    when it searched that many nodes (unknown, by the rule of patience.result), else at its clock
    (timeout); its `cpu` is the CPU budget (a clock too: timeout)."""
    if word == "limit":
        return Status.UNKNOWN if node_limit and nodes >= node_limit else Status.TIMEOUT
    if word == "cpu":
        return Status.TIMEOUT
    return Status(word)


def cache_bytes(memory_mb: int | None) -> int:
    """The largest table: it and the half-size table it grew from fit in half the limit."""
    if memory_mb is None:
        return DEFAULT_CACHE_BYTES
    return memory_mb * 2**20 // 2 * 2 // 3


def _arrays(board: Board) -> tuple[tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]:
    return board.rank, board.pile_size, board.ranks, board.foundations


def search_ranks(rank: Sequence[int], pile_size: Sequence[int], ranks: int, foundations: Sequence[int], rules: Rules,
                 max_cards: bool, node_limit: int | None, seconds: float | None, end: int = -1,
                 kept: list[tuple[int, bytes]] | None = None) -> tuple[Status, list[int] | None, int, int]:
    """The compiled search on a deal given only as its cards' ranks (pile by pile, each top card
    first), its piles' sizes and its foundations' top ranks, without the Board and cards that `run`
    makes: (status, the play found as indices into `rank` or None, nodes, the most cards played).
    In max-cards mode the play is the longest one met even when the search is cut short (a lower
    bound then; `run` reports none). For a survey's million deals, whose play is replayed by the
    caller; needs the compiled search, on a deal it takes (`fits`); `end` as Board.end. With `kept` (one
    foundation), a search that proves the deal lost appends to it its failure cache as a loss
    certificate's body (the width of a number, the records: patience.certificates), unless the cache
    had to forget states."""
    if kept is None:
        word, order, _, nodes, longest, _ = _call(rank, pile_size, ranks, foundations, rules, max_cards, node_limit,
                                                  seconds, None, DEFAULT_CACHE_BYTES, end)
    else:
        word, order, _, nodes, longest, _, width, records = _search.search_kept(
            rank, pile_size, ranks, foundations, *rules.switches(), max_cards, node_limit or 0, seconds or 0.0, 0.0,
            DEFAULT_CACHE_BYTES, end)
        if records is not None:
            kept.append((width, records))
    return compiled_status(word, nodes, node_limit), order, nodes, longest


def survey_ranks(rank: Sequence[int], pile_size: Sequence[int], back_rank: Sequence[int], ranks: int, top: int,
                 rules: Rules, node_limit: int | None, seconds: float | None, alone: int = 0,
                 kept: list[tuple[str, int, bytes]] | None = None, share: int = 0,
                 ) -> tuple[Status, int, list[int], list[int] | None, int, int]:
    """A deal of one foundation (`top`: its rank, -1 empty) in max-cards mode as `search_ranks` gives
    it, by the compiled search from the front and, once the front has searched `alone` nodes, from the
    back (`back_rank`: each pile's cards in turned order; decision mode, `top` its end rank) in turn,
    a round of each (_search.c, survey_turns; with `share` > 0 the back takes its turn only while `share`
    times its nodes are at most the front's): (status, 0 if the front decided and 1 if the back did,
    the front's longest play (its win, if it won) as indices into `rank`, the back's win as indices
    into `back_rank` or None, the nodes of both, the length the search claims for its longest play).
    A loss from the back proves the deal lost; the front's longest play is then the most cards once it
    leaves one card, else the front searches to its end. The caller replays the plays. With `kept`, of a
    lost deal the failure cache of a search that proved it lost is appended to it as a loss certificate's
    body (its direction, `forward` or `backward`, the width of a number and the records; the smaller of
    the two caches), unless the caches had to forget states."""
    arguments = (rank, pile_size, back_rank, ranks, top, top, *rules.switches(), node_limit or 0, seconds or 0.0, 0.0,
                 DEFAULT_CACHE_BYTES, alone, share)
    if kept is None:
        word, which, longest, back_win, front_nodes, back_nodes, length = _search.survey(*arguments)
    else:
        word, which, longest, back_win, front_nodes, back_nodes, length, board, width, records = _search.survey_kept(
            *arguments)
        if records is not None:
            kept.append((("forward", "backward")[board], width, records))
    nodes = front_nodes + back_nodes
    return compiled_status(word, nodes, node_limit), which, longest, back_win, nodes, length


def _call(rank: Sequence[int], pile_size: Sequence[int], ranks: int, foundations: Sequence[int], rules: Rules,
          max_cards: bool, node_limit: int | None, seconds: float | None, cpu_seconds: float | None,
          table_bytes: int, end: int = -1) -> tuple[str, list[int] | None, list[int] | None, int, int, int]:
    return _search.search(rank, pile_size, ranks, foundations, *rules.switches(), max_cards, node_limit or 0,
                          seconds or 0.0, cpu_seconds or 0.0, table_bytes, end)


def _compiled(board: Board, rules: Rules, max_cards: bool, node_limit: int | None,
              seconds: float | None, cpu_seconds: float | None, table_bytes: int) -> Outcome:
    word, order, onto, nodes, longest, cached = _call(*_arrays(board), rules, max_cards, node_limit, seconds,
                                                      cpu_seconds, table_bytes, board.end)
    status = compiled_status(word, nodes, node_limit)
    if order is None or onto is None or word not in ("solved", "unsolvable"):  # no play of a search cut short
        return Outcome(status, None, nodes, longest, cached, cpu_limited=word == "cpu")
    return Outcome(status, tuple(board.cards[card] for card in order), nodes, longest, cached, tuple(onto),
                   tuple(board.pile[card] for card in order))
