"""A Worm Hole move: a card to the foundation (from its pile's top or from a cell), or a pile's top
card parked in an empty cell. A card is in one place at a time, so the card and whether it is
parked say the whole move: which pile or which cell it comes from follows from the position."""

from __future__ import annotations

from dataclasses import dataclass

from patience.cards import Card


@dataclass(frozen=True, order=True)
class Move:
    """`card` to the foundation (`park` False), or from its pile's top into an empty cell (`park` True)."""

    card: Card
    park: bool = False

    @classmethod
    def play(cls, card: Card) -> Move:
        return cls(card, False)

    @classmethod
    def parked(cls, card: Card) -> Move:
        return cls(card, True)
