"""The one deal type: Black Hole, All in a Row and generalised Black Hole.

Orientation, fixed once for the whole project: every pile is a tuple listed TOP CARD FIRST,
so ``pile[0]`` is the card that can be played now and ``pile[-1]`` lies at the bottom.
(Board text lists piles bottom first; its reader and writer reverse them.)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from patience.caps import MAX_CARDS, MAX_FOUNDATIONS, MAX_PILES, MAX_RANKS, MAX_SUITS
from patience.cards import STANDARD_RANKS, Card, ranks_adjacent
from patience.core import GameDeal
from patience.names import ALL_IN_A_ROW, BLACK_HOLE, GENERALISED

__all__ = ["ALL_IN_A_ROW", "BLACK_HOLE", "GENERALISED", "Deal", "Drawn"]


_CAPS = {"ranks": MAX_RANKS, "suits": MAX_SUITS, "piles": MAX_PILES, "foundations": MAX_FOUNDATIONS,
         "cards": MAX_CARDS}


def check_caps(**counts: int) -> None:
    """ValueError for a count beyond its cap in `patience.caps` (ranks, suits, piles, foundations, cards)."""
    for what, count in counts.items():
        if count > _CAPS[what]:
            raise ValueError(f"{what}: {count:,} is more than the cap of {_CAPS[what]:,}")


def check_size(ranks: int, piles: tuple[tuple[Card, ...], ...], foundations: int) -> None:
    """ValueError for a deal beyond the caps."""
    check_caps(ranks=ranks, piles=len(piles), foundations=foundations,
               cards=foundations + sum(map(len, piles)),
               suits=1 + max((card.suit for pile in piles for card in pile), default=0))


Drawn = GameDeal  # the base of every deal type, under its old name


@dataclass(frozen=True)
class Deal(GameDeal):
    """A deal: piles (top card first), the foundation card (None = empty) and the rank cycle."""

    piles: tuple[tuple[Card, ...], ...]
    foundation: Card | None
    ranks: int = STANDARD_RANKS

    def __post_init__(self) -> None:
        seen: set[Card] = set() if self.foundation is None else {self.foundation}
        if self.ranks < 1:
            raise ValueError("a deal needs at least one rank")
        check_size(self.ranks, self.piles, 0 if self.foundation is None else 1)
        for pile in self.piles:
            if not pile:
                raise ValueError("a pile may not be empty")
            for card in pile:
                if not 0 <= card.rank < self.ranks:
                    raise ValueError(f"card {card.name(self.ranks)} has no rank in 0..{self.ranks - 1}")
                if card in seen:
                    raise ValueError(f"card {card.name(self.ranks)} appears twice")
                seen.add(card)
        if self.foundation is not None and not 0 <= self.foundation.rank < self.ranks:
            raise ValueError(f"foundation card has no rank in 0..{self.ranks - 1}")

    @property
    def game(self) -> str:
        """Which game this deal is: black_hole, all_in_a_row, or generalised."""
        heights = {len(pile) for pile in self.piles}
        standard_cards = self.ranks == STANDARD_RANKS and all(
            card.suit < 4 for pile in self.piles for card in pile
        )
        if standard_cards and self.foundation == Card(0, 0) and len(self.piles) == 17 and heights == {3}:
            return BLACK_HOLE
        if standard_cards and self.foundation is None and len(self.piles) == 13 and heights == {4}:
            return ALL_IN_A_ROW
        return GENERALISED

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        """Every card in the piles, pile by pile, each pile top card first."""
        return tuple(card for pile in self.piles for card in pile)

    @cached_property
    def position(self) -> dict[Card, tuple[int, int]]:
        """Card -> (pile index, depth), depth 0 being the top card."""
        return {card: (index, depth) for index, pile in enumerate(self.piles) for depth, card in enumerate(pile)}

    def above(self, card: Card) -> Card | None:
        """The card lying on top of `card` initially (None if `card` starts on top)."""
        index, depth = self.position[card]
        return self.piles[index][depth - 1] if depth > 0 else None

    def below(self, card: Card) -> Card | None:
        """The card lying directly under `card` (None if `card` is at the bottom)."""
        index, depth = self.position[card]
        pile = self.piles[index]
        return pile[depth + 1] if depth + 1 < len(pile) else None

    def adjacent(self, first: Card, second: Card) -> bool:
        """True when `second` may be played on `first` (ranks one apart on the cycle)."""
        return ranks_adjacent(first.rank, second.rank, self.ranks)

    def name(self, card: Card) -> str:
        """The card's text name in this deal."""
        return card.name(self.ranks)

    @property
    def suits_per_rank(self) -> dict[int, int]:
        """How many cards of each rank the deal holds (foundation included)."""
        counts = dict.fromkeys(range(self.ranks), 0)
        for card in self.all_cards:
            counts[card.rank] += 1
        return counts

    @property
    def all_cards(self) -> tuple[Card, ...]:
        """The foundation card (if any) followed by the pile cards."""
        return ((self.foundation,) if self.foundation is not None else ()) + self.cards

    def reversed_piles(self) -> Deal:
        """The same cards with every pile upside down (All in a Row's solvability twin)."""
        return Deal(tuple(tuple(reversed(pile)) for pile in self.piles), self.foundation, self.ranks)
