"""Worm Hole as a CP model in CP-SAT's own format (a `CpModelProto` in protobuf text).

Black Hole's dual-viewpoint model (`cpsat/black_hole.py`: x[i] the card played at step i, y[card]
its step, AddInverse, the table of following pairs) with parking. Parks happen in the gaps between
plays (gap j just before play j, top card first within a gap): g[card] is the gap it is parked in,
0 if it never is, and a parked card is played later (g < y: parking in the gap of one's own play
would be playing it from its pile). A card leaves its pile at time 2g - 1 if parked, 2y if not, and
the card under it leaves no earlier, and strictly later after a play: leave[under] >= leave[card]
+ 1 - parked[card]. A parked card holds a cell over gaps g..y: an optional interval, and at most K
of them overlap (AddCumulative). The cells are a count, never named, so they have no symmetry to
break; the paper's card-order symmetry breaking is not posted (parks free cards too).

CP-SAT's runner prints the x array, so the gaps are x too: x_0..x_n the plays, x_{n+c} = g[c].
"""

from __future__ import annotations

from itertools import pairwise

from patience.errors import InputError
from patience.generators.analysis.black_hole import Numbering
from patience.generators.cpsat.black_hole import MODEL_FILE, steps
from patience.generators.files import ModelFiles, no_fixed_files
from patience.worm_hole.deal import WormHoleDeal
from patience.worm_hole.moves import Move

TITLE = "CP-SAT model (CpModelProto text, OR-Tools)"
OPTIONS = ()
SHOW: dict[str, str] = {}
fixed_files = no_fixed_files


def model_text(deal: WormHoleDeal) -> str:
    """The CpModelProto of one deal, in protobuf text."""
    from ortools.sat.python import cp_model

    numbering = Numbering(deal.black_hole)
    n = numbering.size - 1  # pile cards 1..n
    model = cp_model.CpModel()
    model.name = f"{deal.game} deal, {n} cards, {deal.cells} cells"
    x = [model.new_int_var(0, n, f"x_{step}") for step in range(n + 1)]
    gap = [model.new_int_var(0, 0, "g_0")] + [model.new_int_var(0, n if deal.cells else 0, f"x_{n + card}")
                                               for card in range(1, n + 1)]
    y = [model.new_int_var(0, n, f"y_{card}") for card in range(n + 1)]
    model.add(x[0] == 0)
    model.add_inverse(x, y)
    pairs = numbering.follows or ((0, 0),)
    for step in range(n):
        model.add_allowed_assignments([x[step], x[step + 1]], pairs)
    parked = [model.new_bool_var(f"parked_{card}") for card in range(n + 1)]
    leave = [model.new_int_var(0, 2 * n, f"leave_{card}") for card in range(n + 1)]
    cells = []
    for card in range(1, n + 1):
        model.add(gap[card] == 0).only_enforce_if(~parked[card])
        model.add(gap[card] >= 1).only_enforce_if(parked[card])
        model.add(gap[card] < y[card]).only_enforce_if(parked[card])
        model.add(leave[card] == 2 * gap[card] - 1).only_enforce_if(parked[card])
        model.add(leave[card] == 2 * y[card]).only_enforce_if(~parked[card])
        held = model.new_int_var(0, n + 1, f"held_{card}")
        end = model.new_int_var(0, n + 1, f"end_{card}")
        model.add(end == y[card] + 1)
        cells.append(model.new_optional_interval_var(gap[card], held, end, parked[card], f"cell_{card}"))
    for pile in numbering.pile_numbers:
        for card, under in pairwise(pile):
            model.add(leave[under] >= leave[card] + 1 - parked[card])
    if deal.cells < n:
        model.add_cumulative(cells, [1] * n, deal.cells)
    return str(model.proto)


def decode(values: dict[str, int], source: str, deal: WormHoleDeal) -> tuple[Move, ...]:
    """x_0..x_n in step order and each card's gap x_{n+c} -> the moves: before each play, the cards
    parked in its gap (top card first), then the play."""
    numbering = Numbering(deal.black_hole)
    n = numbering.size - 1
    found = steps(values, 2 * n + 1, source, n + 1)
    parks: dict[int, list[int]] = {}
    for card in range(1, n + 1):
        if found[n + card]:
            parks.setdefault(found[n + card], []).append(card)
    moves = []
    for step in range(1, n + 1):
        moves += [Move.parked(numbering.card(card)) for card in sorted(parks.get(step, ()))]
        if found[step] == 0:
            raise InputError(source, None, f"x_{step} = 0: the start card is played at step 0 only")
        moves.append(Move.play(numbering.card(found[step])))
    return tuple(moves)


def build(deal: WormHoleDeal) -> ModelFiles:
    """deal.pbtxt; the decode map reads the x values of a solution back into Worm Hole moves."""
    return ModelFiles({MODEL_FILE: model_text(deal)}, MODEL_FILE, lambda values, source: decode(values, source, deal),
                      {"cells": deal.cells})
