"""Golf deals: piles of face-up cards, a stock dealt onto one foundation in a fixed order.

Golf as PySolFC deals it: 7 piles of 5 cards, a stock of 16 and the foundation's start card (the
first card PySolFC takes from its stock of 17). A pile's top card goes onto the foundation when its
rank is one above or one below the foundation card's, whatever its suit; the stock's next card may
be dealt onto the foundation at any time, whatever its rank; the game is won when every pile is
empty (the stock need not be: black-hole-solve stops there, and PySolFC's Golf is won when its rows
are empty).

Fish's black-hole-solve plays three variants, and a deal carries which one it is:

- golf (default): no wrap (A and K are not neighbours) and nothing may be played on a King;
- queens_on_kings: a Queen may go on a King (`--queens-on-kings`);
- wrap_ranks: K and A are neighbours both ways (`--wrap-ranks`), which lets a Queen go on a King too:
  a deal with `wrap_ranks` always has `queens_on_kings` set, as black-hole-solve plays it.

Generalised Golf: any number of ranks (the King is the highest rank, `ranks - 1`), any suits
(copies of each rank), piles, heights and stock size (the stock may be empty).

Orientation, as every deal of the project: each pile is listed TOP CARD FIRST (`pile[0]` may be
played now); the stock is listed in DEALING ORDER (`stock[0]` is dealt first).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from patience.cards import STANDARD_RANKS, Card, ranks_adjacent
from patience.core import GameDeal
from patience.deal import check_caps
from patience.names import GOLF, GOLF_GENERALISED, GOLF_QUEENS_ON_KINGS, GOLF_WRAP_RANKS

PILES, PILE_HEIGHT, STOCK = 7, 5, 16  # PySolFC's Golf (and black-hole-solve's `--game golf`)
STANDARD_SUITS = 4


@dataclass(frozen=True)
class GolfDeal(GameDeal):
    """Piles (top card first), the stock (dealing order), the foundation's start card, the rank
    count and the variant flags. Every card appears once."""

    piles: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    foundation: Card
    ranks: int = STANDARD_RANKS
    queens_on_kings: bool = False
    wrap_ranks: bool = False

    def __post_init__(self) -> None:
        if self.wrap_ranks and not self.queens_on_kings:
            object.__setattr__(self, "queens_on_kings", True)  # wrapping ranks put a Queen on a King
        if self.ranks < 1:
            raise ValueError("a deal needs at least one rank")
        if not self.piles:
            raise ValueError("a Golf deal needs at least one pile")
        check_caps(ranks=self.ranks, piles=len(self.piles), cards=1 + len(self.stock) + sum(map(len, self.piles)))
        seen: set[Card] = set()
        for card in (self.foundation, *self.stock, *self.cards):
            if not 0 <= card.rank < self.ranks:
                raise ValueError(f"card {card.name(self.ranks)} has no rank in 0..{self.ranks - 1}")
            if card in seen:
                raise ValueError(f"card {card.name(self.ranks)} appears twice")
            seen.add(card)
        if any(not pile for pile in self.piles):
            raise ValueError("a pile may not be empty")
        check_caps(suits=self.suits)

    @property
    def game(self) -> str:
        """Which game this deal is: golf, golf_queens_on_kings, golf_wrap_ranks or golf_generalised."""
        if not self.standard_shape:
            return GOLF_GENERALISED
        if self.wrap_ranks:
            return GOLF_WRAP_RANKS
        return GOLF_QUEENS_ON_KINGS if self.queens_on_kings else GOLF

    @property
    def standard_shape(self) -> bool:
        """PySolFC's Golf: a full standard deck in 7 piles of 5, a stock of 16 and the start card."""
        return (self.ranks == STANDARD_RANKS and len(self.piles) == PILES and len(self.stock) == STOCK
                and all(len(pile) == PILE_HEIGHT for pile in self.piles)
                and all(card.suit < STANDARD_SUITS for card in self.all_cards))

    @property
    def standard_deck(self) -> bool:
        """Whether every card has a player's name (13 ranks, at most 4 suits): `3♠`, not `r2s0`."""
        return self.ranks == STANDARD_RANKS and self.suits <= STANDARD_SUITS

    @property
    def king(self) -> int:
        """The highest rank, on which nothing may be played unless `queens_on_kings`."""
        return self.ranks - 1

    @property
    def suits(self) -> int:
        """Copies of a rank the deal may hold: one more than its highest suit number."""
        return 1 + max(card.suit for card in self.all_cards)

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        """Every pile card, pile by pile, each pile top card first."""
        return tuple(card for pile in self.piles for card in pile)

    @property
    def all_cards(self) -> tuple[Card, ...]:
        """The start card, then the stock in dealing order, then the pile cards."""
        return (self.foundation, *self.stock, *self.cards)

    @cached_property
    def position(self) -> dict[Card, tuple[int, int]]:
        """Pile card -> (pile index, depth), depth 0 being the top card."""
        return {card: (index, depth) for index, pile in enumerate(self.piles) for depth, card in enumerate(pile)}

    @cached_property
    def stock_index(self) -> dict[Card, int]:
        """Stock card -> its place in the dealing order (0 = dealt first)."""
        return {card: index for index, card in enumerate(self.stock)}

    def rank_follows(self, base: int, rank: int) -> bool:
        """Whether a pile card of `rank` may go onto a foundation showing `base` (the variant's rule)."""
        if base == self.king and not self.queens_on_kings:
            return False
        if self.wrap_ranks:
            return ranks_adjacent(base, rank, self.ranks)
        return abs(base - rank) == 1

    def follows(self, base: Card, card: Card) -> bool:
        """Whether pile card `card` may go onto a foundation showing `base`."""
        return self.rank_follows(base.rank, card.rank)

    def name(self, card: Card) -> str:
        """The card's text name in this deal (`3S`; `r3s0` in a deal of other than 13 ranks)."""
        return card.name(self.ranks)

    def with_variant(self, queens_on_kings: bool = False, wrap_ranks: bool = False) -> GolfDeal:
        """The same cards under another variant's rules."""
        return GolfDeal(self.piles, self.stock, self.foundation, self.ranks, queens_on_kings, wrap_ranks)
