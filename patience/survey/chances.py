"""Exact chances of deals that stop at once, to set the survey's counts against.

Black Hole: with the ace of spades in the hole a move needs a 2 or a K among the 17 top cards; the
tops are 17 of the other 51 cards, and none of the eight 2s and Ks is among them with chance
C(43,17)/C(51,17).

Binary Star: with A♠ and K♥ on the foundations a move needs a 2, a K, a Q or an A among the 17
top cards; the tops are 17 of the 102 pile cards, 30 of which (eight 2s and eight Qs, seven Ks
and seven As: the first deck's A♠ and K♥ start the foundations) are playable, so no move has
chance C(72,17)/C(102,17).

All in a Row: any top card may go first, so every deal has a move; the deals that stop at once are
those where, whichever top card goes first, nothing follows it: no two top cards have adjacent
ranks, and no pile's second card is adjacent to that pile's top card. `stuck_after_first_chance`
counts those deals exactly (tops by their rank counts; seconds by inclusion-exclusion over the
piles whose second card is forbidden, summed around the rank cycle by dynamic programming).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction


def no_move_chance_black_hole() -> Fraction:
    return Fraction(math.comb(43, 17), math.comb(51, 17))


def no_move_chance_binary_star() -> Fraction:
    return Fraction(math.comb(72, 17), math.comb(102, 17))


def _falling(n: int, k: int) -> int:
    return math.perm(n, k) if 0 <= k <= n else 0


def _top_counts(ranks: int, suits: int, piles: int) -> Iterator[tuple[int, ...]]:
    """Rank counts of the top cards (each at most `suits`, `piles` in all) with no two ranks
    holding tops adjacent on the rank cycle."""
    def extend(prefix: list[int], left: int) -> Iterator[tuple[int, ...]]:
        rank = len(prefix)
        if rank == ranks:
            if left == 0 and not (prefix[0] and prefix[-1]):
                yield tuple(prefix)
            return
        choices = [0] if rank and prefix[-1] else range(min(suits, left) + 1)
        for count in choices:
            yield from extend([*prefix, count], left - count)
    yield from extend([], piles)


def _forbidden_assignments(counts: tuple[int, ...], suits: int) -> dict[int, int]:
    """k -> the number of ways to pick k piles and give each a distinct card of a rank adjacent to
    its top card (each pile's top rank r has gaps r-1 and r+1, which hold no tops)."""
    ranks = len(counts)
    start = counts.index(0)  # a gap; the walk round the cycle ends on it
    order = [(start + step) % ranks for step in range(1, ranks + 1)]
    # state: (piles sent into the first gap from its right, piles pending into the current gap, k)
    states: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}
    for position, rank in enumerate(order):
        following: dict[tuple[int, int, int], int] = {}
        for (first, pending, chosen), ways in states.items():
            if counts[rank] == 0:  # a gap: the previous rank is a gap too, or sent `pending` here already
                if position == len(order) - 1:
                    total = pending + first
                    key = (0, 0, chosen)
                    following[key] = following.get(key, 0) + ways * _falling(suits, total)
                    continue
                if counts[order[position + 1]] == 0:
                    key = (first, 0, chosen)
                    following[key] = following.get(key, 0) + ways * _falling(suits, pending)
                else:
                    following[(first, pending, chosen)] = following.get((first, pending, chosen), 0) + ways
                continue
            size = counts[rank]
            for left in range(size + 1):
                for right in range(size - left + 1):
                    split = math.factorial(size) // (math.factorial(left) * math.factorial(right)
                                                     * math.factorial(size - left - right))
                    if position == 0:  # the gap before it is the first gap, settled at the end
                        key, weight = (left, right, chosen + left + right), split
                    else:
                        key, weight = (first, right, chosen + left + right), split * _falling(suits, pending + left)
                    if weight:
                        following[key] = following.get(key, 0) + ways * weight
        states = following
    by_k: dict[int, int] = {}
    for (_, _, chosen), ways in states.items():
        by_k[chosen] = by_k.get(chosen, 0) + ways
    return by_k


def stuck_after_first_chance(ranks: int = 13, suits: int = 4, piles: int = 13) -> Fraction:
    """The exact chance that an All in a Row style deal (`piles` piles of two or more cards from
    `ranks` x `suits` cards, empty foundation) lets only its first card be played."""
    deck = ranks * suits
    favourable = 0
    seconds_of: dict[tuple[int, ...], int] = {}  # the count is the same for every rotation of the ranks
    for counts in _top_counts(ranks, suits, piles):
        canonical = min(counts[shift:] + counts[:shift] for shift in range(ranks))
        if canonical not in seconds_of:
            seconds_of[canonical] = sum((-1) ** k * ways * _falling(deck - piles - k, piles - k)
                                        for k, ways in _forbidden_assignments(canonical, suits).items())
        tops = math.factorial(piles) * math.prod(math.comb(suits, count) for count in counts)
        favourable += tops * seconds_of[canonical]
    return Fraction(favourable, _falling(deck, 2 * piles))
