"""Choose and call a search engine: the compiled one when it is built and can take the deal,
else the Python reference. Both return the same `Outcome`."""

from __future__ import annotations

from collections.abc import Mapping

from patience.deal import Deal
from patience.errors import UsageError
from patience.native import reference
from patience.native.board import Board
from patience.native.reference import LIMIT, SOLVED, UNSOLVABLE, Outcome

__all__ = ["LIMIT", "SOLVED", "UNSOLVABLE", "compiled", "run"]

try:
    from patience.native import _search
except ImportError:  # not built: the package still works through the reference
    _search = None

COMPILED_MAX_CARDS = 64  # one 64-bit word per state in the compiled search
CACHE_ENTRY_BYTES = 16
DEFAULT_CACHE_BITS = 23  # 8M failed states, 128 MiB, when no memory limit is given


def compiled() -> bool:
    return _search is not None


def run(deal: Deal, choice: str | None, rules: Mapping[str, bool], max_cards: bool,
        node_limit: int | None, seconds: float | None, memory_mb: int | None = None) -> tuple[Outcome, str]:
    """Search `deal`; returns the outcome and the engine that ran (`c` or `python`). The compiled
    cache stops growing at about half of `memory_mb` (a full cache only slows the search)."""
    if choice not in (None, "c", "python"):
        raise UsageError(f"option engine must be c or python, not {choice!r}")
    board = Board.of(deal)
    fits = 1 <= len(board) <= COMPILED_MAX_CARDS
    if choice == "c" and not (compiled() and fits):
        why = "is not built (pip install -e .)" if not compiled() else f"takes at most {COMPILED_MAX_CARDS} cards"
        raise UsageError(f"the compiled search {why}")
    if choice != "python" and compiled() and fits:
        return _compiled(board, rules, max_cards, node_limit, seconds, cache_bits(memory_mb)), "c"
    outcome = reference.search(board, rules["cache"], rules["reach"], max_cards, node_limit, seconds,
                               rules["symmetry"], rules["wolter"])
    return outcome, "python"


def cache_bits(memory_mb: int | None) -> int:
    """log2 of the most cache entries: a table and its doubled successor fit in half the limit."""
    if memory_mb is None:
        return DEFAULT_CACHE_BITS
    entries = memory_mb * 2**20 // 2 // (3 * CACHE_ENTRY_BYTES // 2)
    return max(entries.bit_length() - 1, 0)


def _compiled(board: Board, rules: Mapping[str, bool], max_cards: bool, node_limit: int | None,
              seconds: float | None, bits: int) -> Outcome:
    status, order, nodes, longest, cached = _search.search(
        board.rank, board.above, board.pile, board.ranks, board.start_rank,
        rules["cache"], rules["symmetry"], rules["wolter"], rules["reach"], max_cards,
        node_limit or 0, seconds or 0.0, bits)
    sequence = tuple(board.cards[card] for card in order) if order is not None else None
    return Outcome(status, sequence, nodes, longest, cached)
