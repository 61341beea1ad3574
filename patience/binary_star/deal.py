"""Binary Star deals: two decks, two foundations (A♠ and K♥), 17 piles of six cards.

Piles are listed TOP CARD FIRST, as every deal of the project. Two decks put two copies of each
card in play, so a card is not a position: a play names the pile it comes from (see `Play`).
The type also holds smaller or generalised deals of the same rules (any ranks, piles and number
of foundations), which the tests use against exhaustive search.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from pysol_cards.cards import createCards
from pysol_cards.random import LCRandom31, MTRandom

from patience.cards import STANDARD_RANKS, Card, ranks_adjacent
from patience.deal import check_size

BINARY_STAR = "binary_star"
GENERALISED = "binary_star_generalised"
PILES, PILE_HEIGHT, DECKS = 17, 6, 2
START_CARDS = (Card(0, 0), Card(12, 1))  # A♠ on foundation 1, K♥ on foundation 2
# PySolFC: a game number below this is dealt by the 31-bit LCG of Microsoft's FreeCell, from it on
# by the Mersenne Twister.
PYSOLFC_LCG_END = 32000
PYSOLFC_SEED_END = 2**64
_PYSOL_SUITS = (3, 0, 1, 2)  # PySol's suit numbers are clubs, spades, hearts, diamonds
_PYSOL_START_IDS = frozenset((13, 38))  # first deck's A♠ and K♥ in PySol's card numbering


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
        return BINARY_STAR if standard else GENERALISED

    def name(self, card: Card) -> str:
        return card.name(self.ranks)

    def follows(self, top: Card, card: Card) -> bool:
        """Whether `card` may go on a foundation topped by `top`: one rank apart, K and A adjacent."""
        return ranks_adjacent(top.rank, card.rank, self.ranks)


def _two_decks() -> list[Card]:
    return [Card(rank, suit) for _ in range(DECKS) for suit in range(4) for rank in range(STANDARD_RANKS)]


def pysolfc_deal(seed: int) -> BinaryStarDeal:
    """PySolFC's Binary Star game number `seed`, dealt as PySolFC deals it: the two decks
    shuffled by the generator PySolFC picks for the number, the first deck's A♠ and K♥ moved to
    the bottom of the talon (they are dealt last, onto the foundations), then six rows of 17
    cards from the top of the talon."""
    if not 1 <= seed < PYSOLFC_SEED_END:
        raise ValueError(f"PySolFC deals are numbered 1 to {PYSOLFC_SEED_END - 1}, not {seed}")
    generator = LCRandom31() if seed < PYSOLFC_LCG_END else MTRandom()
    generator.setSeed(seed)
    talon = generator.shuffle(createCards(DECKS, STANDARD_RANKS))  # the last card is the top
    rest = [card for card in talon if card.id not in _PYSOL_START_IDS]
    dealt = list(reversed(rest))  # first dealt first
    columns: list[list[Card]] = [[] for _ in range(PILES)]
    for index, card in enumerate(dealt):
        columns[index % PILES].append(Card(card.rank - 1, _PYSOL_SUITS[card.suit]))
    return BinaryStarDeal(tuple(tuple(reversed(column)) for column in columns), START_CARDS)
