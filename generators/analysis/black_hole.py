"""Black Hole, All in a Row and generalised deals: card numbers, symmetric pairs, reachable ranks.

`Numbering` is the card numbering of the constraint models (Essence Prime, XCSP3, CP-SAT, MiniZinc,
ASP, the CNF's symmetry order) and the decode map of their answers: number 0 is the start card (the
foundation card, or a virtual card every card may follow when the foundation is empty), then the pile
cards by depth, then by pile, so that ascending values are the paper's value ordering and the symmetry
breaking's preference order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from patience.cards import Card
from patience.deal import Deal

NO_CARD = 0  # in `above` / `below`: nothing there (card 0 never lies in a pile)


@dataclass(frozen=True)
class Numbering:
    """Card numbers of one deal for the constraint models, both ways."""

    deal: Deal

    @cached_property
    def cards(self) -> tuple[Card | None, ...]:
        """Number -> card; number 0 is the start card (None when the foundation is empty)."""
        by_depth = sorted(self.deal.cards, key=lambda card: self.deal.position[card][::-1])
        return (self.deal.foundation, *by_depth)

    @cached_property
    def numbers(self) -> dict[Card, int]:
        return {card: number for number, card in enumerate(self.cards) if card is not None}

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def description(self) -> tuple[str, str]:
        """The deal and its card numbers in words: the comment atop a data file in any language."""
        deal = self.deal
        start = "empty foundation (virtual start card 0)" if deal.foundation is None else \
            f"foundation {deal.name(deal.foundation)}"
        return (f"{deal.game} deal: {len(deal.cards)} cards in {len(deal.piles)} piles, {deal.ranks} ranks, {start}",
                "card numbers: " + " ".join(f"{number}={'start' if card is None else deal.name(card)}"
                                            for number, card in enumerate(self.cards)))

    def card(self, number: int) -> Card:
        """The pile card of a number (1 and up)."""
        card = self.cards[number]
        assert card is not None, "number 0 is the start card, no pile card"
        return card

    def rank(self, number: int) -> int:
        card = self.cards[number]
        return 0 if card is None else card.rank

    def above(self, number: int) -> int:
        neighbour = None if number == 0 else self.deal.above(self.card(number))
        return NO_CARD if neighbour is None else self.numbers[neighbour]

    def below(self, number: int) -> int:
        neighbour = None if number == 0 else self.deal.below(self.card(number))
        return NO_CARD if neighbour is None else self.numbers[neighbour]

    @cached_property
    def follows(self) -> tuple[tuple[int, int], ...]:
        """(a, b) for every card b that may be played right after card a."""
        return tuple((first, second) for first in range(self.size) for second in range(1, self.size)
                     if first != second and self._may_follow(first, second))

    def _may_follow(self, first: int, second: int) -> bool:
        start = self.cards[first]
        return start is None or self.deal.adjacent(start, self.card(second))

    @property
    def pile_numbers(self) -> tuple[tuple[int, ...], ...]:
        """Each pile as card numbers, top card first."""
        return tuple(tuple(self.numbers[card] for card in pile) for pile in self.deal.piles)

    def decode(self, sequence: Sequence[int]) -> tuple[Card, ...]:
        """Card numbers in play order (x) -> cards, the start card dropped."""
        return tuple(self.card(number) for number in sequence if number != 0)


def symmetry_pairs(numbering: Numbering) -> list[tuple[int, int, int, int]]:
    """(a, b, above a, below b) for same-rank pile cards with a preferred (a < b); 0 = no such card."""
    numbers = range(1, numbering.size)
    return [(a, b, numbering.above(a), numbering.below(b)) for a in numbers for b in numbers
            if a < b and numbering.rank(a) == numbering.rank(b)]


def symmetric_cards(deal: Deal) -> list[tuple[Card, Card]]:
    """(a, b): same rank, a preferred in the constraint models' order (top layers first): the pairs of
    `symmetry_pairs` as cards, for the models that name cards rather than numbers."""
    numbering = Numbering(deal)
    return [(numbering.card(a), numbering.card(b)) for a, b, _, _ in symmetry_pairs(numbering)]


def reachable(rank: int, steps: int, ranks: int) -> frozenset[int]:
    """Ranks reachable from `rank` in exactly `steps` moves of +-1 on the cycle of `ranks`
    (none on a one-rank cycle, where no card follows another)."""
    if ranks == 1:
        return frozenset()
    return frozenset((rank + steps - 2 * down) % ranks for down in range(steps + 1))
