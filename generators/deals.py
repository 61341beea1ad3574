"""Making deals: PySol's numbered deals (through pysol_cards) and seeded random generalised deals."""

from __future__ import annotations

import random

from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random import RandomBase

from patience.cards import Card
from patience.deal import ALL_IN_A_ROW, BLACK_HOLE, Deal
from patience.formats import board

PYSOL_GAMES = (BLACK_HOLE, ALL_IN_A_ROW)

PYSOL_SEED_END = 2 ** 64  # pysol_cards deals seeds up to 2**64 - 1 (its 64-bit generator)


def pysol_board(game: str, seed: int) -> str:
    """The board text pysol_cards prints for PySol deal `seed` of `game`, byte for byte."""
    if game not in PYSOL_GAMES:
        raise ValueError(f"unknown PySol game {game!r}; known: {', '.join(PYSOL_GAMES)}")
    if not 1 <= seed < PYSOL_SEED_END:
        raise ValueError(f"PySol deals are numbered 1 to {PYSOL_SEED_END - 1}, not {seed}")
    dealer = Game(game, seed, RandomBase.DEALS_PYSOL, 13)
    return dealer.calc_deal_string(seed, CardRenderer(True))


def pysol_deal(game: str, seed: int) -> Deal:
    return board.read(pysol_board(game, seed), f"pysol:{game}:{seed}")


def random_deal(ranks: int, suits: int, pile_height: int, seed: int, empty_foundation: bool = False) -> Deal:
    """A reproducible random generalised deal: `ranks` x `suits` cards, the rank-0 suit-0 card on
    the foundation (unless empty), the rest shuffled into piles of `pile_height` (the last may be
    shorter)."""
    if ranks < 1 or suits < 1 or pile_height < 1:
        raise ValueError("ranks, suits and pile height must be positive")
    cards = [Card(rank, suit) for suit in range(suits) for rank in range(ranks)]
    foundation = None if empty_foundation else cards.pop(0)
    if not cards:
        raise ValueError("the deal needs at least one card outside the foundation")
    random.Random(seed).shuffle(cards)
    piles = tuple(tuple(cards[start:start + pile_height]) for start in range(0, len(cards), pile_height))
    return Deal(piles, foundation, ranks)
