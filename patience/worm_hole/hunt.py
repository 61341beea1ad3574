"""Worm Hole's posed deals for a hunt (`grade --hunt`): Black Hole's, with cells."""

from __future__ import annotations

import random

from patience.grading.hunt import posed_black_hole
from patience.names import BLACK_HOLE
from patience.worm_hole.deal import STANDARD_CELLS, WormHoleDeal


def posed(game: str, index: int, seed: int, rng: random.Random, fixed: bool) -> WormHoleDeal:
    """With `fixed`, Black Hole's layout and one cell; else Black Hole's growing deals and 0-2 cells."""
    deal = posed_black_hole(BLACK_HOLE if fixed else game, index, seed, rng, fixed)
    return WormHoleDeal(deal, STANDARD_CELLS if fixed else rng.randint(0, 2))
