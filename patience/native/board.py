"""A deal as flat arrays, the form both searches work on: cards are indices 0..n-1 pile by pile
(top card first), each with its rank and its pile; one or more foundations, each with the rank of
its top card. Any available card may go onto any foundation whose top rank is next to its own."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from patience.cards import Card
from patience.deal import Deal


@dataclass(frozen=True)
class Board:
    """Card i is `cards[i]`, in pile `pile[i]`; a pile's cards leave it top first."""

    cards: tuple[Card, ...]
    rank: tuple[int, ...]
    pile: tuple[int, ...]
    pile_start: tuple[int, ...]
    pile_size: tuple[int, ...]
    ranks: int
    foundations: tuple[int, ...]  # each foundation's top rank, -1 when it starts empty (any card)
    unit: tuple[bool, ...]  # only cards of the same rank lie under it (the paper's "unit" card)
    end: int = -1  # one foundation: the rank the last card played must be next to (-1: any)

    @classmethod
    def of(cls, deal: Deal) -> Board:
        """A deal's board: its one foundation."""
        return cls.of_piles(deal.piles, [deal.foundation], deal.ranks)

    @classmethod
    def of_piles(cls, piles: Sequence[Sequence[Card]], foundations: Sequence[Card | None], ranks: int) -> Board:
        """A board with any number of foundations (None: one that starts empty); piles top card
        first. Cards may repeat (two decks)."""
        if not foundations:
            raise ValueError("a board needs at least one foundation")
        if any(not pile for pile in piles):
            raise ValueError("a pile may not be empty")
        cards = tuple(card for pile in piles for card in pile)
        if any(not 0 <= card.rank < ranks for card in cards + tuple(c for c in foundations if c is not None)):
            raise ValueError(f"a card has no rank in 0..{ranks - 1}")
        starts: list[int] = []
        sizes: list[int] = []
        pile: list[int] = []
        for number, cards_of_pile in enumerate(piles):
            starts.append(len(pile))
            sizes.append(len(cards_of_pile))
            pile.extend([number] * len(cards_of_pile))
        unit = [all(card.rank == cards_of_pile[depth].rank for card in cards_of_pile[depth:])
                for cards_of_pile in piles for depth in range(len(cards_of_pile))]
        tops = tuple(-1 if card is None else card.rank for card in foundations)
        return cls(cards, tuple(card.rank for card in cards), tuple(pile), tuple(starts), tuple(sizes),
                   ranks, tops, tuple(unit))

    @classmethod
    def reversed_of(cls, deal: Deal) -> Board:
        """The deal played backwards: a win read from its last card to its first. The piles are
        turned over (bottom card first), the foundation starts empty (the last card of a win may be
        any bottom card) and the play must end next to the deal's foundation card (anywhere when the
        deal has none). Its wins, reversed,
        are the deal's wins and no others, so a loss here proves the deal lost. A search from the
        front spends its nodes where cards get buried near the end; from the back that end comes
        first (docs/hardness.md)."""
        board = cls.of_piles([pile[::-1] for pile in deal.piles], [None], deal.ranks)
        return replace(board, end=-1 if deal.foundation is None else deal.foundation.rank)

    def __len__(self) -> int:
        return len(self.cards)

    def follows(self, top: int, rank: int) -> bool:
        """Whether a card of `rank` may go on a foundation topped by `top` (-1: empty, any card)."""
        if top < 0:
            return True
        difference = (top - rank) % self.ranks
        return self.ranks > 1 and difference in (1, self.ranks - 1)


def reachable_ranks(tops: Sequence[int], counts: Sequence[int], ranks: int) -> set[int]:
    """The ranks with cards left that some foundation can still reach: a foundation steps only onto
    ranks that still have cards, so from its top it reaches the unbroken runs of such ranks on either
    side of it on the rank cycle (and its own rank when it can step away and back)."""
    reached: set[int] = set()
    for top in tops:
        if top < 0:
            reached.update(rank for rank in range(ranks) if counts[rank])
            continue
        if ranks == 1:
            continue
        forward = 0
        while forward < ranks - 1 and counts[(top + forward + 1) % ranks]:
            forward += 1
            reached.add((top + forward) % ranks)
        backward = 0
        while backward < ranks - 1 - forward and counts[(top - backward - 1) % ranks]:
            backward += 1
            reached.add((top - backward) % ranks)
        if counts[top] and forward + backward:
            reached.add(top)
    return reached


def balanced(tops: Sequence[int], counts: Sequence[int], ranks: int) -> bool:
    """Whether the cards left can still all be played, counted by rank (several foundations). In a
    win every card left comes right after a card of a neighbouring rank or onto a foundation top of
    a neighbouring rank (or an empty foundation), and no card or top comes before two cards, so for
    every set of ranks S the cards of S are at most the cards and tops of the ranks next to S (plus
    the empty foundations). Tested, as the compiled search does, on the sets r, r+2, ..., r+2k whose
    neighbours r-1, ..., r+2k+1 are all distinct ranks."""
    empty = sum(1 for top in tops if top < 0)

    def predecessors(rank: int) -> int:
        return counts[rank % ranks] + sum(1 for top in tops if top == rank % ranks)

    for start in range(ranks):
        if not counts[start]:
            continue
        cards, before = 0, empty + predecessors(start - 1)
        for k in range((ranks - 1) // 2):
            cards += counts[(start + 2 * k) % ranks]
            before += predecessors(start + 2 * k + 1)
            if cards > before:
                return False
    return True


BALANCE_SETS = 6  # one foundation: the balance bound tries sets of up to this many ranks


def unplayable_excess(top: int, counts: Sequence[int], within: set[int], ranks: int) -> int:
    """One foundation: how many of the cards of the ranks `within` (those still reachable) can never
    be played, by the balance test. In any play each card of a set S of ranks comes right after a card
    of a rank next to it or after the foundation's top (any card onto an empty foundation), and no
    card comes right before two; so for S = r, r+2, ..., r+2k (neighbours r-1, ..., r+2k+1 distinct
    ranks, up to BALANCE_SETS ranks in S) the cards of S played are at most the cards left of the
    neighbours' ranks plus one for the top among them. Three 5s left, one 4, no 6 and the top on
    a 9: at most one 5 can still be played, two cards are lost. Returns the largest such excess."""
    best = 0
    for start in range(ranks):
        if start not in within:
            continue
        cards = 0
        before = counts[(start - 1) % ranks] + (top < 0 or top == (start - 1) % ranks)
        for k in range(min(BALANCE_SETS, (ranks - 1) // 2)):
            rank = (start + 2 * k) % ranks
            cards += counts[rank] if rank in within else 0
            before += counts[(rank + 1) % ranks] + (top == (rank + 1) % ranks)
            best = max(best, cards - before)
    return best


def ranks_reachable(hole: int, counts: list[int], ranks: int) -> bool:
    """Whether every rank with cards left is reachable from the hole (one foundation): a gap (no 3s
    and no 7s left while 5s and 10s remain) strands the cards beyond it."""
    return len(reachable_ranks((hole,), counts, ranks)) == sum(1 for count in counts if count)


def live_cards(board: Board, played: int, top: int) -> int:
    """One foundation: how many of the cards left (`played` is the set of cards gone, as bits) can
    still be played at all. A card can go only after every card above it in its pile, and right after
    a card of a neighbouring rank (or onto the top, any card onto an empty foundation) that is not
    beneath it: the cards that pass are the least fixpoint of that rule, grown from the top. Every card
    of a play from here is among them (by induction along the play), so their count bounds the play: a
    10 on a 9 with the top on an 8 and no other 9s, 10s or 11s leaves no live card, where reachability
    counts both. The compiled search's `live_cards` counts the same."""
    ranks = board.ranks
    frontier = set(range(ranks)) if top < 0 else {(top + 1) % ranks, (top - 1) % ranks}
    piles = []
    for start, size in zip(board.pile_start, board.pile_size, strict=True):
        card = start
        while card < start + size and played >> card & 1:
            card += 1
        piles.append([card, start + size])
    count, grown = 0, True
    while grown:
        grown = False
        for pile in piles:
            while pile[0] < pile[1] and board.rank[pile[0]] in frontier:
                rank = board.rank[pile[0]]
                frontier |= {(rank + 1) % ranks, (rank - 1) % ranks}
                pile[0] += 1
                count += 1
                grown = True
    return count
