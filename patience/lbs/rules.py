"""The rules of Late Binding Solitaire and the replay validator of move sequences.

A move is (source, target) in 1-based positions of the current row, as Savile Row prints
`actionFrom`/`actionTo`. Only the top card of each pile matters for play, so a row of tops is the state.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from patience.lbs.deal import LBSDeal
from patience.validator import Replay

Move = tuple[int, int]
STEPS = (1, 3)  # a pile moves one or three places to the left


def legal_moves(deal: LBSDeal, row: Sequence[int]) -> Iterator[Move]:
    """Every legal (source, target), rightmost source first."""
    for source in range(len(row), 1, -1):
        for step in STEPS:
            target = source - step
            if target >= 1 and deal.matches(row[source - 1], row[target - 1]):
                yield source, target


def play(row: Sequence[int], move: Move) -> tuple[int, ...]:
    """The row after a legal move: the moved pile's top covers the target; the gap closes."""
    source, target = move
    tops = list(row)
    tops[target - 1] = tops[source - 1]
    del tops[source - 1]
    return tuple(tops)


def fault_of(deal: LBSDeal, row: Sequence[int], move: Move) -> str | None:
    """Why `move` is illegal in `row`, or None."""
    source, target = move
    if not 1 <= source <= len(row):
        return f"there is no pile at position {source} (only {len(row)} piles)"
    if source - target not in STEPS:
        return f"a pile moves 1 or 3 places left, not from {source} to {target}"
    if target < 1:
        return f"there is no pile at position {target}"
    moved, covered = row[source - 1], row[target - 1]
    if not deal.matches(moved, covered):
        return (f"{deal.card_name(moved)} (position {source}) shares neither suit nor value with "
                f"{deal.card_name(covered)} (position {target})")
    return None


def replay(deal: LBSDeal, moves: Sequence[Move], complete: bool = True) -> Replay:
    """Play `moves` from the deal; with `complete`, the game must end with one pile."""
    row: tuple[int, ...] = deal.cards
    for number, move in enumerate(moves, 1):
        fault = fault_of(deal, row, move)
        if fault:
            return Replay(number - 1, f"move {number} ({move[0]}->{move[1]}): {fault}")
        row = play(row, move)
    if complete and len(row) > 1:
        return Replay(len(moves), f"{len(row)} piles left")
    return Replay(len(moves), None)
