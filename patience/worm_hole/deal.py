"""A Worm Hole deal: a Black Hole family deal (patience.deal.Deal) and a number of free cells.

Worm Hole is Solvitaire's `worm-hole` preset: Black Hole with one free cell. A pile's top card may
be parked in an empty cell; a parked card may later go on the foundation (one rank above or below
the foundation card, suits ignored, K and A touching, as in Black Hole) and never back to a pile.
The game is won when every card is on the foundation (the cells empty). The deal is generalised
as Black Hole's is (any ranks, suits, piles, heights, start card or none), with any number of cells;
every deal starts with its cells empty.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from patience.caps import MAX_CARDS
from patience.cards import Card
from patience.core import GameDeal
from patience.deal import Deal
from patience.names import BLACK_HOLE, WORM_HOLE, WORM_HOLE_GENERALISED

STANDARD_CELLS = 1  # Worm Hole proper: Solvitaire's `"cells": {"count": 1}`
MAX_CELLS = MAX_CARDS  # more cells than cards change nothing, but the count is still bounded


@dataclass(frozen=True)
class WormHoleDeal(GameDeal):
    """A Black Hole family deal (`black_hole`: piles top card first, foundation card, rank cycle)
    played with `cells` free cells, all empty at the start."""

    black_hole: Deal
    cells: int = STANDARD_CELLS

    def __post_init__(self) -> None:
        if not isinstance(self.black_hole, Deal):
            raise TypeError("a Worm Hole deal is built on a patience.deal.Deal")
        if isinstance(self.cells, bool) or not isinstance(self.cells, int) or self.cells < 0:
            raise ValueError("cells: the number of cells must be a whole number, 0 or more")
        if self.cells > MAX_CELLS:
            raise ValueError(f"cells: {self.cells:,} is more than the cap of {MAX_CELLS:,}")

    @property
    def game(self) -> str:
        """worm_hole (a Black Hole deal, one cell) or worm_hole_generalised (anything else)."""
        if self.cells == STANDARD_CELLS and self.black_hole.game == BLACK_HOLE:
            return WORM_HOLE
        return WORM_HOLE_GENERALISED

    # The Black Hole deal's view, so that code written for a Deal's cards reads a Worm Hole deal too.
    @property
    def piles(self) -> tuple[tuple[Card, ...], ...]:
        return self.black_hole.piles

    @property
    def foundation(self) -> Card | None:
        return self.black_hole.foundation

    @property
    def ranks(self) -> int:
        return self.black_hole.ranks

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every pile card, pile by pile, top card first: the cards a win plays."""
        return self.black_hole.cards

    @property
    def all_cards(self) -> tuple[Card, ...]:
        return self.black_hole.all_cards

    @cached_property
    def position(self) -> dict[Card, tuple[int, int]]:
        """Card -> (pile index, depth), depth 0 being the top card."""
        return self.black_hole.position

    def adjacent(self, first: Card, second: Card) -> bool:
        """True when `second` may be played on `first` (ranks one apart on the cycle)."""
        return self.black_hole.adjacent(first, second)

    def name(self, card: Card) -> str:
        """The card's text name in this deal (`5S`, or `r14s2` on a generalised deal)."""
        return self.black_hole.name(card)

    def with_cells(self, cells: int) -> WormHoleDeal:
        """The same cards with another number of cells."""
        return WormHoleDeal(self.black_hole, cells)
