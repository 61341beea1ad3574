"""Binary Star deals: two decks, two foundations (A♠ and K♥), 17 piles of six cards.

Piles are listed TOP CARD FIRST, as every deal of the project. Two decks put two copies of each
card in play, so a card is not a position: a play names the pile it comes from (see `Play`).
The type also holds smaller or generalised deals of the same rules (any ranks, piles and number
of foundations), which the tests use against exhaustive search.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from patience.cards import STANDARD_RANKS, Card, ranks_adjacent
from patience.deal import Drawn, check_size
from patience.names import BINARY_STAR, BINARY_STAR_GENERALISED

PILES, PILE_HEIGHT, DECKS = 17, 6, 2
START_CARDS = (Card(0, 0), Card(12, 1))  # A♠ on foundation 1, K♥ on foundation 2


@dataclass(frozen=True)
class Play:
    """One move: the top card of `pile` onto `foundation` (both 0-based). `card` is what the
    answer says lies there (checked by the replay); `pile` None lets the replay find the one pile
    with that card on top."""

    card: Card
    foundation: int
    pile: int | None = None


@dataclass(frozen=True)
class BinaryStarDeal(Drawn):
    """Piles (top card first), the foundations' start cards and the rank cycle."""

    piles: tuple[tuple[Card, ...], ...]
    foundations: tuple[Card, ...]
    ranks: int = STANDARD_RANKS

    def __post_init__(self) -> None:
        if not self.foundations:
            raise ValueError("a deal needs at least one foundation")
        if not self.piles:
            raise ValueError("a deal needs at least one pile")
        if self.ranks < 1:
            raise ValueError("a deal needs at least one rank")
        check_size(self.ranks, self.piles, len(self.foundations))
        for card in self.cards + self.foundations:
            if not 0 <= card.rank < self.ranks:
                raise ValueError(f"card {card.name(self.ranks)} has no rank in 0..{self.ranks - 1}")
        if any(not pile for pile in self.piles):
            raise ValueError("a pile may not be empty")

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        """Every card in the piles, pile by pile, each pile top card first."""
        return tuple(card for pile in self.piles for card in pile)

    @property
    def game(self) -> str:
        """binary_star for PySolFC's layout of two full decks, else binary_star_generalised."""
        standard = (self.ranks == STANDARD_RANKS and self.foundations == START_CARDS
                    and len(self.piles) == PILES and {len(pile) for pile in self.piles} == {PILE_HEIGHT}
                    and sorted(self.cards + self.foundations) == sorted(_two_decks()))
        return BINARY_STAR if standard else BINARY_STAR_GENERALISED

    def name(self, card: Card) -> str:
        return card.name(self.ranks)

    def follows(self, top: Card, card: Card) -> bool:
        """Whether `card` may go on a foundation topped by `top`: one rank apart, K and A adjacent."""
        return ranks_adjacent(top.rank, card.rank, self.ranks)


def _two_decks() -> list[Card]:
    return [Card(rank, suit) for _ in range(DECKS) for suit in range(4) for rank in range(STANDARD_RANKS)]
