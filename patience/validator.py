"""The replay validator: the only authority on whether a card sequence wins a deal."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from patience.cards import Card, ranks_adjacent
from patience.core import Replay
from patience.deal import Deal

__all__ = ["Replay", "replay", "replay_numbers", "without_start_card"]  # Replay lives in patience.core

T = TypeVar("T")  # a card: a Card object, or its number


def without_start_card(deal: Deal, sequence: Sequence[Card]) -> tuple[Card, ...]:
    """Drop a leading foundation card, so answers may list it or not."""
    if deal.foundation is not None and sequence and sequence[0] == deal.foundation:
        return tuple(sequence[1:])
    return tuple(sequence)


def replay(deal: Deal, sequence: Sequence[Card], complete: bool = True) -> Replay:
    """Play `sequence` (start card optional) on `deal`; with `complete`, every card must be played.

    Move k is the k-th card played after the foundation card.
    """
    return _replay(deal.piles, deal.foundation, deal.position, len(deal.cards), deal.adjacent, deal.name,
                   without_start_card(deal, sequence), complete)


def replay_numbers(piles: Sequence[Sequence[int]], foundation: int | None, ranks: int, sequence: Sequence[int],
                   complete: bool = True) -> Replay:
    """`replay` of a deal whose cards are numbers, card `suit * ranks + rank` (piles top card first,
    as `numbered_piles` deals them), under the same rules and with the same faults: a survey replays a
    million plays, and card objects cost most of a replay's time. The tests hold the two to the same
    answer on random plays, legal and not."""
    def name(card: int) -> str:
        return Card(card % ranks, card // ranks).name(ranks)

    def adjacent(first: int, second: int) -> bool:
        return ranks_adjacent(first % ranks, second % ranks, ranks)

    moves = sequence[1:] if foundation is not None and sequence and sequence[0] == foundation else sequence
    position = {card: (index, depth) for index, pile in enumerate(piles) for depth, card in enumerate(pile)}
    return _replay(piles, foundation, position, sum(map(len, piles)), adjacent, name, moves, complete)


def _replay(piles: Sequence[Sequence[T]], foundation: T | None, position: Mapping[T, tuple[int, int]], total: int,
            adjacent: Callable[[T, T], bool], name: Callable[[T], str], moves: Sequence[T],
            complete: bool) -> Replay:
    """The one replay, of cards of any kind: `replay` plays Card objects, `replay_numbers` numbers."""
    depth_left = [0] * len(piles)  # index of the current top card of each pile
    played_at: dict[T, int] = {}
    hole = foundation
    for number, card in enumerate(moves, 1):
        where = position.get(card)
        if where is None:
            what = "is the foundation card" if card == foundation else "is not in the deal"
            return Replay(number - 1, f"move {number}: {name(card)} {what}")
        if card in played_at:
            return Replay(number - 1, f"move {number}: {name(card)} was already played at move {played_at[card]}")
        pile_index, depth = where
        if depth != depth_left[pile_index]:
            blocker = piles[pile_index][depth_left[pile_index]]
            return Replay(number - 1, f"move {number}: {name(card)} is under {name(blocker)}")
        if hole is not None and not adjacent(hole, card):
            return Replay(number - 1, f"move {number}: {name(card)} does not follow {name(hole)}")
        depth_left[pile_index] += 1
        played_at[card] = number
        hole = card
    left = total - len(moves)
    if complete and left:
        return Replay(len(moves), f"{left} card{'s' if left != 1 else ''} left")
    return Replay(len(moves), None)
