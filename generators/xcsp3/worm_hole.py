"""Worm Hole as an XCSP3 instance, built with pycsp3: Black Hole's model (`xcsp3/black_hole.py`: x
and y channelled, the start card first, consecutive cards in a table) with parking in the gaps
between plays. g[c] is the gap card c is parked in (gap j is just before play j), 0 if it never
is, and before its play; a card leaves its pile at 2g - 1 if parked, 2y if not, and the card under
it leaves no earlier, strictly later after a play; cell[c * n + j] says card c sits in a cell
during gap j, at most `cells` of them a gap. The cells are a count, so no cell symmetry arises; the
paper's card-order symmetry breaking is not posted (parks free cards too). Numbers are Black
Hole's (0 the start card, then by depth, then by pile); the model runs in a fresh Python process,
as Black Hole's does (pycsp3 keeps global state).
"""

from __future__ import annotations

import json
import sys

from patience.errors import InputError
from patience.generators.analysis.black_hole import Numbering
from patience.generators.files import ModelFiles, no_fixed_files
from patience.generators.xcsp3.common import compile_in_fresh_process
from patience.worm_hole.deal import WormHoleDeal
from patience.worm_hole.moves import Move

INSTANCE_FILE = "deal.xml"
TITLE = "XCSP3 instance built with pycsp3 (ACE, Choco)"
OPTIONS = ()
SHOW: dict[str, str] = {}
fixed_files = no_fixed_files


def model_data(deal: WormHoleDeal) -> dict[str, object]:
    numbering = Numbering(deal.black_hole)
    return {"n": numbering.size, "piles": numbering.pile_numbers, "follows": numbering.follows, "cells": deal.cells}


def build_from_stdin() -> None:
    """In the child process: read the model data, state the model in pycsp3, compile it."""
    import pycsp3 as csp

    data = json.load(sys.stdin)
    n, follows, cells = data["n"], [tuple(pair) for pair in data["follows"]] or [(0, 0)], data["cells"]
    x = csp.VarArray(size=n, dom=range(n), id="x")
    y = csp.VarArray(size=n, dom=range(n), id="y")
    g = csp.VarArray(size=n, dom=range(n), id="g")
    cell = csp.VarArray(size=n * n, dom={0, 1}, id="cell")

    def leave(card):
        return (g[card] > 0) * (2 * g[card] - 1) + (g[card] == 0) * (2 * y[card])

    csp.satisfy(
        x[0] == 0,
        csp.Channel(x, y),
        [(x[i], x[i + 1]) in follows for i in range(n - 1)],
        g[0] == 0,
        [g[card] < y[card] for card in range(1, n)],
        [g[card] == 0 for card in range(1, n) if cells == 0],
        [leave(under) >= leave(card) + (g[card] == 0) for pile in data["piles"]
         for card, under in zip(pile[:-1], pile[1:], strict=True)],
        [cell[card * n + j] == ((g[card] > 0) & (g[card] <= j) & (y[card] >= j))
         for card in range(n) for j in range(n)],
        [csp.Sum(cell[card * n + j] for card in range(1, n)) <= cells for j in range(1, n)],
    )
    csp.compile(INSTANCE_FILE, verbose=-1)


def decode(output, source: str, deal: WormHoleDeal) -> tuple[Move, ...]:
    """x and g as moves: before each play the cards parked in its gap (top card first), then the play."""
    numbering = Numbering(deal.black_hole)
    size = numbering.size
    x = [output.values.get(f"x[{position}]") for position in range(size)]
    gaps = [output.values.get(f"g[{card}]") for card in range(size)]
    if sorted(value for value in x if value is not None) != list(range(size)) or x[0] != 0 or None in gaps:
        raise InputError(source, output.values_line, f"x is not a sequence of the numbers 0..{size - 1} from 0, "
                                                     "or g lacks a card's gap")
    moves = []
    for step, card in enumerate(x[1:], 1):
        moves += [Move.parked(numbering.card(parked)) for parked in range(1, size) if gaps[parked] == step]
        moves.append(Move.play(numbering.card(card)))
    return tuple(moves)


def build(deal: WormHoleDeal) -> ModelFiles:
    """deal.xml; the decode map reads the x and g values of a solution back into Worm Hole moves."""
    size = len(deal.cards) + 1
    text = compile_in_fresh_process(__name__, model_data(deal), INSTANCE_FILE)
    return ModelFiles({INSTANCE_FILE: text}, INSTANCE_FILE, lambda output, source: decode(output, source, deal),
                      {"cells": deal.cells}, {"x": size, "y": size, "g": size, "cell": size * size})
