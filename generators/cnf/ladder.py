"""The paper's permutation with its ladder, for the CNF models that order cards over positions
1..n (Black Hole's, Golf's, Worm Hole's): ("M", card, j) the card at position j, ("O", card, j) the
card after position j (j = 1..n-1; after 0 is true, after n false), one card a position, one
position a card; and the paper's conditional symmetry breaking on that ladder."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from patience.cards import Card
from patience.generators.cnf.common import ClauseBuilder, Literal, negate


class LadderBuilder(ClauseBuilder):
    """A pool holding the M and O variables of `items` (then the variables of `extra` kinds, one
    per item and position 1..n), and the permutation's clauses on them."""

    def __init__(self, items: Sequence[Hashable], extra: Sequence[str] = ()) -> None:
        super().__init__()
        self.items = tuple(items)
        self.n = len(self.items)
        for kind, last in (("M", self.n), ("O", self.n - 1), *((kind, self.n) for kind in extra)):
            for item in self.items:
                for position in range(1, last + 1):
                    self.pool.id((kind, item, position))

    def at(self, item: Hashable, position: int) -> int:
        return self.var("M", item, position)

    def after(self, item: Hashable, position: int) -> Literal:
        """Ladder literal: `item` is played after `position`."""
        if position <= 0:
            return True
        return False if position >= self.n else self.var("O", item, position)

    def permutation(self, encoding: int) -> None:
        """One item a position, one position an item (PySAT's cardinality `encoding`), each item's
        ladder a run of trues then falses, false from its position on."""
        positions = range(1, self.n + 1)
        for position in positions:
            self.exactly_one([self.at(item, position) for item in self.items], encoding)
        for item in self.items:
            self.exactly_one([self.at(item, position) for position in positions], encoding)
            for position in positions:
                placed, now = self.at(item, position), self.after(item, position)
                before = self.after(item, position - 1)
                self.add([-placed, before])
                self.add([-placed, negate(now)])
                self.add([placed, negate(before), now])
                if position < self.n:
                    self.add([negate(self.after(item, position + 1)), now])


def break_symmetry(build: LadderBuilder, first: Card, second: Card, above_first: Card | None,
                   below_second: Card | None) -> None:
    """The paper's second ladder on its ("E", first, second, j) variables, made beforehand: if
    `second` is played while `first` is free, `first` goes before the card under `second`."""
    n = build.n

    def ladder(position: int) -> Literal:
        return False if position <= 0 else build.var("E", first, second, position) if position < n else True

    for position in range(1, n):
        free = True if above_first is None else negate(build.after(above_first, position - 1))
        build.add([negate(ladder(position - 1)), ladder(position)])
        build.add([-build.at(second, position), negate(free), ladder(position)])
    for position in range(2, n + 1):
        under_gone = False if below_second is None else negate(build.after(below_second, position - 1))
        build.add([-build.at(first, position), negate(ladder(position - 1)), under_gone])
