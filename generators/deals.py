"""Making deals: PySol's numbered deals (through pysol_cards) and seeded random generalised deals."""

from __future__ import annotations

import random

from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random import RandomBase

from patience.cards import Card
from patience.deal import ALL_IN_A_ROW, BLACK_HOLE, Deal, check_caps
from patience.formats import board

PYSOL_GAMES = (BLACK_HOLE, ALL_IN_A_ROW)

# How a deal number becomes a shuffle. All three deal Microsoft's FreeCell shuffle up to 32,000;
# above it PySolFC (the PySol played today, and Fish's range solving) uses a Mersenne Twister,
# old PySol a 64-bit linear congruential generator, `ms` keeps Microsoft's shuffle.
NUMBERINGS = {"pysolfc": RandomBase.DEALS_PYSOLFC, "pysol": RandomBase.DEALS_PYSOL, "ms": RandomBase.DEALS_MS}
DEFAULT_NUMBERING = "pysolfc"
# The largest deal number each generator takes (pysol_cards' own bounds).
LAST_SEED = {"pysolfc": 10 ** 20, "pysol": 2 ** 64 - 1, "ms": 2 ** 33 - 1}


def pysol_board(game: str, seed: int, numbering: str = DEFAULT_NUMBERING) -> str:
    """The board text pysol_cards prints for deal `seed` of `game` (`-t`, and `-F` for PySolFC's
    numbering), byte for byte."""
    if game not in PYSOL_GAMES:
        raise ValueError(f"unknown PySol game {game!r}; known: {', '.join(PYSOL_GAMES)}")
    if numbering not in NUMBERINGS:
        raise ValueError(f"unknown deal numbering {numbering!r}; known: {', '.join(NUMBERINGS)}")
    if not 1 <= seed <= LAST_SEED[numbering]:
        raise ValueError(f"{numbering} deals are numbered 1 to {LAST_SEED[numbering]}, not {seed}")
    dealer = Game(game, seed, NUMBERINGS[numbering], 13)
    return dealer.calc_deal_string(seed, CardRenderer(True))


def pysol_deal(game: str, seed: int, numbering: str = DEFAULT_NUMBERING) -> Deal:
    """The deal; errors name it `NUMBERING:GAME:SEED`."""
    return board.read(pysol_board(game, seed, numbering), f"{numbering}:{game}:{seed}")


def random_deal(ranks: int, suits: int, pile_height: int, seed: int, empty_foundation: bool = False) -> Deal:
    """A reproducible random generalised deal: `ranks` x `suits` cards, the rank-0 suit-0 card on
    the foundation (unless empty), the rest shuffled into piles of `pile_height` (the last may be
    shorter)."""
    if ranks < 1 or suits < 1 or pile_height < 1:
        raise ValueError("ranks, suits and pile height must be positive")
    check_caps(ranks=ranks, suits=suits, cards=ranks * suits)
    cards = [Card(rank, suit) for suit in range(suits) for rank in range(ranks)]
    foundation = None if empty_foundation else cards.pop(0)
    if not cards:
        raise ValueError("the deal needs at least one card outside the foundation")
    random.Random(seed).shuffle(cards)
    piles = tuple(tuple(cards[start:start + pile_height]) for start in range(0, len(cards), pile_height))
    return Deal(piles, foundation, ranks)
