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


def compiled() -> bool:
    return _search is not None


def run(deal: Deal, choice: str | None, rules: Mapping[str, bool], max_cards: bool,
        node_limit: int | None, seconds: float | None) -> tuple[Outcome, str]:
    """Search `deal`; returns the outcome and the engine that ran (`c` or `python`)."""
    if choice not in (None, "c", "python"):
        raise UsageError(f"option engine must be c or python, not {choice!r}")
    board = Board.of(deal)
    fits = 1 <= len(board) <= COMPILED_MAX_CARDS
    if choice == "c" and not (compiled() and fits):
        why = "is not built (pip install -e .)" if not compiled() else f"takes at most {COMPILED_MAX_CARDS} cards"
        raise UsageError(f"the compiled search {why}")
    if choice != "python" and compiled() and fits:
        return _compiled(board, rules, max_cards, node_limit, seconds), "c"
    outcome = reference.search(board, rules["cache"], rules["reach"], max_cards, node_limit, seconds,
                               rules["symmetry"], rules["wolter"])
    return outcome, "python"


def _compiled(board: Board, rules: Mapping[str, bool], max_cards: bool, node_limit: int | None,
              seconds: float | None) -> Outcome:
    status, order, nodes, longest, cached = _search.search(
        board.rank, board.above, board.pile, board.ranks, board.start_rank,
        rules["cache"], rules["symmetry"], rules["wolter"], rules["reach"], max_cards,
        node_limit or 0, seconds or 0.0)
    sequence = tuple(board.cards[card] for card in order) if order is not None else None
    return Outcome(status, sequence, nodes, longest, cached)
