"""A deal as flat arrays, the form both searches work on: cards are indices 0..n-1 pile by pile
(top card first), each with its rank, its pile and the index of the card lying on it."""

from __future__ import annotations

from dataclasses import dataclass

from patience.cards import Card
from patience.deal import Deal


@dataclass(frozen=True)
class Board:
    """Card i is `cards[i]`; it can be played once `above[i]` (-1: none) has been played."""

    cards: tuple[Card, ...]
    rank: tuple[int, ...]
    above: tuple[int, ...]
    pile: tuple[int, ...]
    pile_start: tuple[int, ...]
    pile_size: tuple[int, ...]
    ranks: int
    start_rank: int  # rank on the foundation, -1 when it starts empty (any first card)
    unit: tuple[bool, ...]  # only cards of the same rank lie under it (the paper's "unit" card)

    @classmethod
    def of(cls, deal: Deal) -> Board:
        rank, above, pile, starts, sizes = [], [], [], [], []
        for number, cards in enumerate(deal.piles):
            starts.append(len(rank))
            sizes.append(len(cards))
            for depth, card in enumerate(cards):
                above.append(len(rank) - 1 if depth else -1)
                rank.append(card.rank)
                pile.append(number)
        start = deal.foundation.rank if deal.foundation is not None else -1
        unit = [all(card.rank == cards[depth].rank for card in cards[depth:])
                for cards in deal.piles for depth in range(len(cards))]
        return cls(deal.cards, tuple(rank), tuple(above), tuple(pile), tuple(starts), tuple(sizes),
                   deal.ranks, start, tuple(unit))

    def __len__(self) -> int:
        return len(self.cards)

    def follows(self, hole: int, rank: int) -> bool:
        """Whether a card of `rank` may go on the hole (`hole` -1: the empty foundation)."""
        if hole < 0:
            return True
        difference = (hole - rank) % self.ranks
        return self.ranks > 1 and difference in (1, self.ranks - 1)


def ranks_reachable(hole: int, counts: list[int], ranks: int) -> bool:
    """Whether every rank with cards left lies on one unbroken run of the rank cycle through the
    hole's rank: the hole can only step onto ranks that still have cards, so a gap (no 3s and no
    7s left while 5s and 10s remain) strands the cards beyond it."""
    left = sum(1 for count in counts if count)
    forward = 0
    while forward < ranks - 1 and counts[(hole + forward + 1) % ranks]:
        forward += 1
    backward = 0
    while backward < ranks - 1 - forward and counts[(hole - backward - 1) % ranks]:
        backward += 1
    own = 1 if counts[hole] and forward + backward else 0
    return forward + backward + own == left
