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
from patience.deal import check_size
from patience.names import BINARY_STAR, BINARY_STAR_GENERALISED
from patience.pages.notebook import deal_html

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
class BinaryStarDeal:
    """Piles (top card first), the foundations' start cards and the rank cycle."""

    piles: tuple[tuple[Card, ...], ...]
    foundations: tuple[Card, ...]
    ranks: int = STANDARD_RANKS

    _repr_html_ = deal_html  # drawn as on the replay page in Jupyter

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


def pysolfc_deal(seed: int) -> BinaryStarDeal:
    """PySolFC's Binary Star game number `seed`, dealt as every numbered game is
    (`patience.generators.deals`): the two decks shuffled by the generator PySolFC picks for the
    number, the first deck's A♠ and K♥ moved to the bottom of the talon (they are dealt last, onto
    the foundations), then six rows of 17 cards from the top of the talon."""
    from patience.generators.deals import pysol_deal  # it reads the board through this package

    deal = pysol_deal(BINARY_STAR, seed)
    assert isinstance(deal, BinaryStarDeal)  # pysol_deal's Binary Star deals are read as BinaryStarDeal
    return deal
