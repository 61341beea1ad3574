"""Worm Hole deals as parameters of the Essence Prime model `models/worm-hole.eprime` (Savile Row).

The model never changes per deal: Black Hole's dual viewpoint with a park gap per card, a leaving
time for pile order and at most `cells` parked cards in any gap, as models/worm-hole.mzn. The
`.param` gives Black Hole's card numbers (0 the start card, then by depth, then by pile), the card
above each, the following pairs and the number of cells. No symmetry breaking: the paper's
card-order argument needs freedom by plays alone, and the cells are a count, never named. The
decode map reads Savile Row's `.solution` (`letting x be [...]`, `letting g be [...]`).
"""

from __future__ import annotations

from patience.errors import InputError
from patience.generators.analysis.black_hole import Numbering
from patience.generators.files import ModelFiles
from patience.generators.texts import fixed_model
from patience.worm_hole.deal import WormHoleDeal
from patience.worm_hole.moves import Move

MODEL_FILE = "worm-hole.eprime"
PARAM_FILE = "deal.param"
TITLE = "Essence Prime model and parameters (Savile Row)"
OPTIONS = ()
SHOW = {"model": MODEL_FILE}  # `gen eprime --model` prints the model


def _matrix(values: list[int]) -> str:
    return "[" + ", ".join(map(str, values)) + f"; int(0..{len(values) - 1})]"


def parameters(deal: WormHoleDeal) -> str:
    """The `.param` file of one deal for `models/worm-hole.eprime`."""
    numbering = Numbering(deal.black_hole)
    pairs = numbering.follows or ((0, 0),)  # x[1] = 0 is impossible, so a lone (0, 0) allows nothing
    game, *numbers = numbering.description  # Black Hole's first line names its game: this deal's instead
    cells = f"{deal.cells} cell{'' if deal.cells == 1 else 's'}"
    lines = [
        "language ESSENCE' 1.0",
        f"$ {deal.game} deal: {game.partition(': ')[2]}, {cells}",
        *(f"$ {line}" for line in numbers),
        f"letting n be {numbering.size}",
        f"letting above be {_matrix([numbering.above(number) for number in range(numbering.size)])}",
        f"letting pairs be {len(pairs)}",
        "letting follows be [" + ", ".join(f"[{a}, {b}]" for a, b in pairs) + "]",
        f"letting cells be {deal.cells}",
    ]
    return "\n".join(lines) + "\n"


def model_text() -> str:
    """The Essence Prime model (the same for every deal)."""
    return fixed_model(MODEL_FILE)


def fixed_files() -> dict[str, str]:
    """The files that need no deal: the model."""
    return {MODEL_FILE: model_text()}


def read_solution(text: str, source: str, deal: WormHoleDeal) -> tuple[Move, ...]:
    """x and g as moves: before each play, the cards parked in its gap (top card first), then the play."""
    from patience.generators.eprime.solution import read_lettings

    numbering = Numbering(deal.black_hole)
    lettings = read_lettings(text, source)
    missing = [name for name in ("x", "g") if name not in lettings]
    if missing:
        raise InputError(source, 1, f"no `letting {missing[0]} be [...]` in the solution")
    x, gaps = lettings["x"], lettings["g"]
    size = numbering.size
    if x.first_index != 0 or sorted(x.values) != list(range(size)) or x.values[0] != 0:
        raise InputError(source, x.line, f"x is not a sequence of the card numbers 0..{size - 1} "
                                         "starting with the start card 0")
    if gaps.first_index != 0 or len(gaps.values) != size or not all(0 <= gap < size for gap in gaps.values):
        raise InputError(source, gaps.line, f"g is not one gap in 0..{size - 1} for each card 0..{size - 1}")
    moves = []
    for step, card in enumerate(x.values[1:], 1):
        moves += [Move.parked(numbering.card(parked)) for parked in range(1, size) if gaps.values[parked] == step]
        moves.append(Move.play(numbering.card(card)))
    return tuple(moves)


def build(deal: WormHoleDeal) -> ModelFiles:
    """The model and the deal's `.param`; the decode map reads Savile Row's `.solution` text."""
    return ModelFiles({MODEL_FILE: model_text(), PARAM_FILE: parameters(deal)}, PARAM_FILE,
                      lambda text, source: read_solution(text, source, deal), {"cells": deal.cells})
