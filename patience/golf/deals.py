"""Seeded random generalised Golf deals (PySolFC's numbered Golf deals are patience.golf.pysol's)."""

from __future__ import annotations

import random

from patience.cards import STANDARD_RANKS, Card
from patience.golf.deal import PILE_HEIGHT, PILES, STANDARD_SUITS, STOCK, GolfDeal


def random_deal(seed: int, ranks: int = STANDARD_RANKS, suits: int = STANDARD_SUITS, piles: int = PILES,
                height: int = PILE_HEIGHT, stock: int = STOCK, queens_on_kings: bool = False,
                wrap_ranks: bool = False) -> GolfDeal:
    """`piles` piles of `height`, a stock of `stock` and a start card, drawn from the deck of `ranks`
    ranks and `suits` suits shuffled by Python's generator seeded with `seed` (the start card first,
    then the stock in dealing order, then the piles, each top card first); ValueError if the deck is
    too small. The same arguments always give the same deal."""
    needed = 1 + stock + piles * height
    if piles < 1 or height < 1 or stock < 0 or ranks < 1 or suits < 1:
        raise ValueError("a Golf deal needs at least one pile of one card, a rank and a suit")
    if needed > ranks * suits:
        raise ValueError(f"{piles} piles of {height}, a stock of {stock} and a start card need {needed} cards; "
                         f"{ranks} ranks of {suits} suits have {ranks * suits}")
    deck = [Card(rank, suit) for suit in range(suits) for rank in range(ranks)]
    cards = random.Random(seed).sample(deck, needed)
    table = cards[1 + stock:]
    return GolfDeal(tuple(tuple(table[index * height:(index + 1) * height]) for index in range(piles)),
                    tuple(cards[1:1 + stock]), cards[0], ranks, queens_on_kings, wrap_ranks)
