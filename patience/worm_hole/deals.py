"""Worm Hole's numbered and random deals: Black Hole's, with the cells added.

PySolFC deals no Worm Hole; a numbered Worm Hole deal is PySolFC's Black Hole deal of that number
with one cell (Solvitaire plays worm-hole on Black Hole's layout), so the two games' figures are of
the same deals. A random generalised deal is Black Hole's random generalised deal with `cells` cells.
"""

from __future__ import annotations

from patience.deal import Deal
from patience.errors import UsageError
from patience.games import deal_as
from patience.generators.deals import pysol_deal
from patience.generators.deals import random_deal as black_hole_random_deal
from patience.names import BLACK_HOLE, DEFAULT_NUMBERING, WORM_HOLE, game_name
from patience.worm_hole.deal import STANDARD_CELLS, WormHoleDeal


def numbered_deal(game: str, seed: int, numbering: str = DEFAULT_NUMBERING) -> WormHoleDeal:
    """Deal `seed` of `game` (worm_hole): PySolFC's Black Hole deal `seed` (in `numbering`), one cell."""
    if game_name(game) != WORM_HOLE:
        raise UsageError(f"{game} deals have no numbers; {WORM_HOLE} deals are numbered as Black Hole's")
    try:
        deal = pysol_deal(BLACK_HOLE, seed, numbering)
    except ValueError as error:
        raise UsageError(str(error).replace(BLACK_HOLE, WORM_HOLE)) from None
    return WormHoleDeal(deal_as(Deal, deal), STANDARD_CELLS)


def random_deal(ranks: int, suits: int, pile_height: int, seed: int, empty_foundation: bool = False,
                cells: int = STANDARD_CELLS) -> WormHoleDeal:
    """Black Hole's reproducible random generalised deal of this shape and seed, with `cells` cells."""
    return WormHoleDeal(black_hole_random_deal(ranks, suits, pile_height, seed, empty_foundation), cells)


def generalised_deal(game: str, seed: int, ranks: int, suits: int = 4, pile_height: int = 3) -> WormHoleDeal:
    """`patience deal --game worm_hole_generalised --ranks R --suits S --pile-height H`: Black Hole's
    random generalised deal of that shape and seed (`patience deal --ranks R ...`), with one cell."""
    return random_deal(ranks, suits, pile_height, seed)
