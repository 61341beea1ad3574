"""What Golf's models share: the numbering of every card (the start card, the pile cards as Black
Hole's constraint models number them, the stock in dealing order), the pairs of numbers that may
follow each other, and the win inside an order of every card.

Dealing is always allowed, so a win extends to an order of every pile and stock card, the stock's
undealt cards last; every model orders them all and its decode map keeps `win_of` that order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from patience.cards import Card
from patience.deal import Deal
from patience.generators.analysis.black_hole import NO_CARD, Numbering
from patience.golf.deal import GolfDeal


@dataclass(frozen=True)
class GolfNumbers:
    """Number -> card for one deal: 0 the start card, 1..P-1 the pile cards, P.. the stock."""

    deal: GolfDeal

    @cached_property
    def piles(self) -> Numbering:
        """The pile cards' numbering (Black Hole's, on the piles and the start card)."""
        return Numbering(Deal(self.deal.piles, self.deal.foundation, self.deal.ranks))

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        numbering = self.piles
        return (self.deal.foundation, *(numbering.card(number) for number in range(1, numbering.size)),
                *self.deal.stock)

    @property
    def stock(self) -> range:
        """The stock's numbers, in dealing order."""
        return range(self.piles.size, len(self.cards))

    @cached_property
    def above(self) -> list[int]:
        """The card above each one (NO_CARD on a top): the piles' own, and in the stock the card dealt
        before it (the first stock card lies under the start card's place, number P)."""
        piles = self.piles.size
        return [self.piles.above(number) for number in range(piles)] + [
            NO_CARD if number == piles else number - 1 for number in self.stock]

    @cached_property
    def below(self) -> list[int]:
        """The card below each one (NO_CARD at a bottom): in the stock the card dealt after it."""
        piles, n = self.piles.size, len(self.cards)
        return [self.piles.below(number) for number in range(piles)] + [
            number + 1 if number + 1 < n else NO_CARD for number in self.stock]

    @cached_property
    def follows(self) -> list[tuple[int, int]]:
        """(a, b) for every b that may go on the foundation right after a: a pile card as the
        variant's rule allows, a stock card after anything."""
        cards, first_stock = self.cards, self.piles.size
        return [(first, second) for first in range(len(cards)) for second in range(1, len(cards))
                if first != second and (second >= first_stock or self.deal.follows(cards[first], cards[second]))]


def win_of(deal: GolfDeal, order: Iterable[Card]) -> tuple[Card, ...]:
    """The cards of an order of every card up to its last pile card (the rest is the stock left undealt)."""
    cards = list(order)
    while cards and cards[-1] in deal.stock_index:
        cards.pop()
    return tuple(cards)
