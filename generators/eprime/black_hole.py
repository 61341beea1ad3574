"""Deals as parameters of the Essence Prime model `models/blackhole.eprime` (Savile Row).

The model never changes per deal; `gen eprime DEAL` prints the `.param` file (`letting ...`),
`gen eprime --model` the model itself. `Numbering` is the card numbering shared by the constraint
models (Essence Prime here, XCSP3 in `xcsp3/black_hole.py`) and the decode map of their answers: number 0 is
the start card (the foundation card, or a virtual card every card may follow when the foundation
is empty), then the pile cards by depth, then by pile, so that ascending values are the paper's
value ordering and the symmetry breaking's preference order.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from patience.cards import Card
from patience.deal import Deal
from patience.generators.files import ModelFiles
from patience.generators.texts import fixed_model
from patience.options import Switch

MODEL_FILE = "blackhole.eprime"
NO_CARD = 0  # in `above` / `below`: nothing there (card 0 never lies in a pile)
PARAM_FILE = "deal.param"
TITLE = "Essence Prime model and parameters (Savile Row)"
OPTIONS = (Switch("symmetry-breaking", "on", "post the paper's conditional symmetry breaking"),)
SHOW = {"model": MODEL_FILE}  # `gen eprime --model` prints the model


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

    def rank(self, number: int) -> int:
        card = self.cards[number]
        return 0 if card is None else card.rank

    def above(self, number: int) -> int:
        card = self.cards[number]
        neighbour = None if number == 0 else self.deal.above(card)
        return NO_CARD if neighbour is None else self.numbers[neighbour]

    def below(self, number: int) -> int:
        card = self.cards[number]
        neighbour = None if number == 0 else self.deal.below(card)
        return NO_CARD if neighbour is None else self.numbers[neighbour]

    @cached_property
    def follows(self) -> tuple[tuple[int, int], ...]:
        """(a, b) for every card b that may be played right after card a."""
        return tuple((first, second) for first in range(self.size) for second in range(1, self.size)
                     if first != second and self._may_follow(first, second))

    def _may_follow(self, first: int, second: int) -> bool:
        start = self.cards[first]
        return start is None or self.deal.adjacent(start, self.cards[second])

    @property
    def pile_numbers(self) -> tuple[tuple[int, ...], ...]:
        """Each pile as card numbers, top card first."""
        return tuple(tuple(self.numbers[card] for card in pile) for pile in self.deal.piles)

    def decode(self, sequence: list[int] | tuple[int, ...]) -> tuple[Card, ...]:
        """Card numbers in play order (x) -> cards, the start card dropped."""
        return tuple(self.cards[number] for number in sequence if number != 0)


def _matrix(values: list[int] | tuple[int, ...], first_index: int = 0) -> str:
    index = f"; int({first_index}..{first_index + len(values) - 1})" if first_index != 1 else ""
    return "[" + ", ".join(str(value) for value in values) + index + "]"


def parameters(deal: Deal, symmetry_breaking: bool = True) -> str:
    """The `.param` file of one deal for `models/blackhole.eprime`."""
    numbering = Numbering(deal)
    numbers = range(numbering.size)
    pairs = numbering.follows or ((0, 0),)  # x[1] = 0 is impossible, so a lone (0, 0) allows nothing
    lines = [
        "language ESSENCE' 1.0",
        *(f"$ {line}" for line in numbering.description),
        f"letting n be {numbering.size}",
        f"letting rank be {_matrix([numbering.rank(number) for number in numbers])}",
        f"letting above be {_matrix([numbering.above(number) for number in numbers])}",
        f"letting below be {_matrix([numbering.below(number) for number in numbers])}",
        f"letting pairs be {len(pairs)}",
        "letting follows be [" + ", ".join(f"[{a}, {b}]" for a, b in pairs) + "]",
        f"letting symmetryBreaking be {'true' if symmetry_breaking else 'false'}",
    ]
    return "\n".join(lines) + "\n"


def model_text() -> str:
    """The Essence Prime model (the same for every deal)."""
    return fixed_model(MODEL_FILE)


def fixed_files(symmetry_breaking: bool = True) -> dict[str, str]:
    """The files that need no deal: the model."""
    return {MODEL_FILE: model_text()}


def build(deal: Deal, symmetry_breaking: bool = True) -> ModelFiles:
    """The model and the deal's `.param`; the decode map reads Savile Row's `.solution` text."""
    from patience.runners.savilerow_output import read_solution

    numbering = Numbering(deal)
    return ModelFiles({MODEL_FILE: model_text(), PARAM_FILE: parameters(deal, symmetry_breaking)}, PARAM_FILE,
                      lambda text, source: read_solution(text, source, numbering),
                      {"symmetry-breaking": "on" if symmetry_breaking else "off"})
