"""Seeded random generalised Golf deals, the hunt's deals and its shrink steps (PySolFC's numbered
Golf deals are patience.golf.pysol's)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

from patience.cards import STANDARD_RANKS, Card
from patience.deal import check_caps
from patience.games.shrinking import simpler_order, smaller_piles
from patience.golf.deal import PILE_HEIGHT, PILES, STANDARD_SUITS, STOCK, GolfDeal
from patience.names import GOLF_QUEENS_ON_KINGS, GOLF_WRAP_RANKS


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
    check_caps(ranks=ranks, suits=suits, cards=needed)  # before any card is made: not a deck of 10,000 x 10,000
    cards = [Card(index % ranks, index // ranks) for index in random.Random(seed).sample(range(ranks * suits), needed)]
    table = cards[1 + stock:]
    return GolfDeal(tuple(tuple(table[index * height:(index + 1) * height]) for index in range(piles)),
                    tuple(cards[1:1 + stock]), cards[0], ranks, queens_on_kings, wrap_ranks)


def generalised_deal(game: str, seed: int, ranks: int, suits: int = STANDARD_SUITS,
                     pile_height: int = PILE_HEIGHT) -> GolfDeal:
    """`patience deal --game golf_generalised --ranks R --suits S --pile-height H`: the whole deck of R
    ranks and S suits dealt as PySolFC deals Golf, into 7 piles of H (fewer where the deck is short),
    the start card, and the rest to the stock; 13, 4 and 5 give PySolFC's shape."""
    cards = ranks * suits - 1
    piles = min(PILES, cards // pile_height)
    if piles < 1:
        raise ValueError(f"{ranks} ranks of {suits} suits make no pile of {pile_height} beside the start card")
    return random_deal(seed, ranks, suits, piles, pile_height, cards - piles * pile_height, **variant_flags(game))


def variant_flags(game: str) -> dict[str, bool]:
    """The flags of the variant a game's name says (generalised Golf: the default rules)."""
    return {"queens_on_kings": game == GOLF_QUEENS_ON_KINGS, "wrap_ranks": game == GOLF_WRAP_RANKS}


def posed_deal(game: str, index: int, seed: int, rng: random.Random, fixed: bool) -> GolfDeal:
    """The hunt's deal `index` (grading/hunt.py's `posed_deals` hook): PySolFC's shape when `fixed`,
    else deals growing from a few cards, their shape drawn by the hunt's `rng`, their cards by `seed`."""
    flags = variant_flags(game)
    if fixed:
        return random_deal(seed, **flags)
    ranks, suits = min(3 + index // 8, STANDARD_RANKS), rng.randint(1, STANDARD_SUITS)
    piles = rng.randint(1, min(PILES, ranks * suits - 1))
    height = rng.randint(1, max(1, min(PILE_HEIGHT, (ranks * suits - 1) // piles)))
    stock = rng.randint(0, ranks * suits - 1 - piles * height)
    return random_deal(seed, ranks, suits, piles, height, stock, **flags)


def smaller_deals(deal: GolfDeal) -> Iterator[GolfDeal]:
    """The hunt's shrink steps: a pile fewer, a pile card fewer, a stock card fewer, then a simpler order."""
    yield from smaller_piles(deal)
    for index in range(len(deal.stock)):
        yield replace(deal, stock=deal.stock[:index] + deal.stock[index + 1:])
    yield from simpler_order(deal)
