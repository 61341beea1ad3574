"""Binary Star deals: position numbers, their tables and symmetric pairs, reachable foundation tops.

`Positions` is the numbering the Binary Star constraint models share (Essence Prime, XCSP3, MiniZinc,
ASP), and their decode map. Two decks put equal cards in play, so the models' values are positions
(pile, depth), never cards: position numbers run by depth, then pile (the top cards first), so
ascending values are the paper's value ordering (a card near the top before one of the same rank lower
down) and the symmetry breaking's preference order. A step's play is coded
`play = position * k + foundation` (k foundations) for the search to branch on one variable a step.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from patience.binary_star.deal import BinaryStarDeal, Play
from patience.cards import ranks_adjacent
from patience.errors import InputError
from patience.generators.analysis.black_hole import reachable
from patience.options import Switch

NO_POSITION = -1  # in `above` / `below`: nothing lies there
# the constraint models' one option (Essence Prime, XCSP3): both post the same symmetry breaking
SYMMETRY_BREAKING = Switch("symmetry-breaking", "on", "post the symmetry breaking (Binary Star: equal foundation "
                                                     "tops and the paper's conditional one on same-rank cards)")


@dataclass(frozen=True)
class Positions:
    """The positions of one deal for the constraint models, both ways, and the models' tables."""

    deal: BinaryStarDeal

    @cached_property
    def cells(self) -> tuple[tuple[int, int], ...]:
        """Position number -> (pile, depth), by depth then pile."""
        cells = [(pile, depth) for pile, cards in enumerate(self.deal.piles) for depth in range(len(cards))]
        return tuple(sorted(cells, key=lambda cell: (cell[1], cell[0])))

    @cached_property
    def numbers(self) -> dict[tuple[int, int], int]:
        return {cell: number for number, cell in enumerate(self.cells)}

    @property
    def description(self) -> tuple[str, str]:
        """The deal and its position numbers in words: the comment atop a data file in any language."""
        deal = self.deal
        return (f"{deal.game} deal: {self.size} pile cards in {len(deal.piles)} piles, {deal.ranks} ranks, "
                f"foundations {' '.join(deal.name(card) for card in deal.foundations)}",
                "positions: " + " ".join(f"{number}={deal.name(deal.piles[pile][depth])}@{pile + 1}"
                                         for number, (pile, depth) in enumerate(self.cells)))

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def foundations(self) -> int:
        return len(self.deal.foundations)

    def rank(self, position: int) -> int:
        pile, depth = self.cells[position]
        return self.deal.piles[pile][depth].rank

    def above(self, position: int) -> int:
        pile, depth = self.cells[position]
        return self.numbers[(pile, depth - 1)] if depth > 0 else NO_POSITION

    def below(self, position: int) -> int:
        pile, depth = self.cells[position]
        return self.numbers.get((pile, depth + 1), NO_POSITION)

    @property
    def pile_positions(self) -> tuple[tuple[int, ...], ...]:
        """Each pile as position numbers, top first."""
        return tuple(tuple(self.numbers[(pile, depth)] for depth in range(len(cards)))
                     for pile, cards in enumerate(self.deal.piles))

    @property
    def start_ranks(self) -> tuple[int, ...]:
        return tuple(card.rank for card in self.deal.foundations)

    @cached_property
    def plays(self) -> tuple[tuple[int, int, int, int], ...]:
        """(play, position, foundation, rank): what each value of a step's play variable means."""
        k = self.foundations
        return tuple((position * k + foundation, position, foundation, self.rank(position))
                     for position in range(self.size) for foundation in range(k))

    def moves(self, foundation: int) -> tuple[tuple[int, int, int, int], ...]:
        """(f, top, rank, top after) allowed for one foundation at one step: played on (f is the
        foundation, rank follows top and becomes the top) or not (the top stays)."""
        ranks, k = range(self.deal.ranks), self.foundations
        played = [(foundation, top, rank, rank) for top in ranks for rank in ranks
                  if ranks_adjacent(top, rank, self.deal.ranks)]
        kept = [(other, top, rank, top) for other in range(k) if other != foundation for top in ranks for rank in ranks]
        return tuple(played + kept)

    def symmetry_pairs(self) -> list[tuple[int, int, int, int]]:
        """(a, b, above a, below b) for same-rank positions with a preferred (a < b)."""
        numbers = range(self.size)
        return [(a, b, self.above(a), self.below(b)) for a in numbers for b in numbers
                if a < b and self.rank(a) == self.rank(b)]

    def decode(self, x: Sequence[int | None], f: Sequence[int | None], source: str, line: int | None
               ) -> tuple[Play, ...]:
        """Positions and foundations in play order -> plays; InputError unless x is a permutation
        of the positions and every f a foundation."""
        order = [position for position in x if position is not None]
        if len(order) != len(x) or sorted(order) != list(range(self.size)):
            raise InputError(source, line, f"x is not a sequence of the positions 0..{self.size - 1}")
        onto = [foundation for foundation in f if foundation is not None and foundation in range(self.foundations)]
        if len(onto) != len(f) or len(f) != self.size:
            raise InputError(source, line, f"f is not a foundation 0..{self.foundations - 1} for each step")
        return tuple(Play(self.deal.piles[self.cells[position][0]][self.cells[position][1]], foundation,
                          self.cells[position][0]) for position, foundation in zip(order, onto, strict=True))


def stats(deal: BinaryStarDeal, symmetry_breaking: bool) -> Mapping[str, int | str]:
    """The figures every Binary Star constraint model reports about its instance."""
    return {"positions": len(deal.cards), "foundations": len(deal.foundations),
            "symmetry-breaking": "on" if symmetry_breaking else "off"}


def neighbours(rank: int, ranks: int) -> set[int]:
    """The ranks a card of `rank` may be played on (and that may follow it), K-A adjacent."""
    return {(rank + step) % ranks for step in (1, -1)} if ranks > 1 else set()


@functools.cache
def reachable_tops(start: int, steps: int, ranks: int) -> frozenset[int]:
    """Ranks a foundation starting at `start` can show after at most `steps` plays on it."""
    return frozenset({start}.union(*(reachable(start, m, ranks) for m in range(1, steps + 1))))
