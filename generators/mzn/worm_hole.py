"""Worm Hole as MiniZinc: the fixed model models/worm-hole.mzn (Black Hole's dual viewpoint, the parks
following from the play: a card leaves its pile at the first play of it and the cards under it, and the
cells are a cumulative of the cards' times in them; the reach rule, Black Hole's symmetry breaking as it
holds with cells, and the native search's order of steps as its search) and the deal's `.dzn`: Black
Hole's card numbers (0 the start card, then by depth, then by pile), the card above each, the following
pairs and the number of cells. The model works out the rest (the card under each, the ranks as the cards
with the same followers), so a student's model reads the same data.
"""

from __future__ import annotations

from collections.abc import Mapping

from patience.errors import InputError
from patience.generators.analysis.black_hole import Numbering
from patience.generators.files import ModelFiles
from patience.generators.mzn.data import DATA_FILE, array, table
from patience.generators.texts import fixed_model
from patience.worm_hole.deal import WormHoleDeal
from patience.worm_hole.moves import Move

MODEL_FILE = "model.mzn"
TITLE = "MiniZinc model and data (.dzn)"
OPTIONS = ()
SHOW = {"model": MODEL_FILE}


def data(deal: WormHoleDeal) -> str:
    """The `.dzn` of one deal."""
    numbering = Numbering(deal.black_hole)
    pairs = numbering.follows or ((0, 0),)
    game, *numbers = numbering.description  # Black Hole's first line names its game: this deal's instead
    cells = f"{deal.cells} cell{'' if deal.cells == 1 else 's'}"
    lines = [f"% {deal.game} deal: {game.partition(': ')[2]}, {cells}", *(f"% {line}" for line in numbers),
             f"n = {numbering.size};",
             f"above = {array([numbering.above(number) for number in range(numbering.size)], 0)};",
             f"pairs = {len(pairs)};",
             f"follows = {table(pairs)};",
             f"cells = {deal.cells};"]
    return "\n".join(lines) + "\n"


def fixed_files() -> dict[str, str]:
    return {MODEL_FILE: fixed_model("worm-hole.mzn")}


def decode(values: Mapping[str, object], source: str, deal: WormHoleDeal) -> tuple[Move, ...]:
    """x and g as moves: before each play, the cards parked in its gap (top card first), then the play."""
    from patience.generators.mzn.solution import integers

    numbering = Numbering(deal.black_hole)
    x, gaps = integers(values, "x", source), integers(values, "g", source)
    if sorted(x) != list(range(numbering.size)) or x[:1] != [0] or len(gaps) != numbering.size:
        raise InputError(source, None, f"x is not a sequence of the card numbers 0..{numbering.size - 1} from 0, "
                                       "or g not one gap per card")
    moves = []
    for step, card in enumerate(x[1:], 1):
        moves += [Move.parked(numbering.card(parked)) for parked in range(1, numbering.size) if gaps[parked] == step]
        moves.append(Move.play(numbering.card(card)))
    return tuple(moves)


def build(deal: WormHoleDeal) -> ModelFiles:
    """The model and the deal's `.dzn`; the decode map reads the values of x and g."""
    return ModelFiles({**fixed_files(), DATA_FILE: data(deal)}, DATA_FILE,
                      lambda values, source: decode(values, source, deal), {"cells": deal.cells})
