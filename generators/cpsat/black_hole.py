"""Deals as the paper's CP model in CP-SAT's own format (a `CpModelProto` in protobuf text).

The model is the one `eprime/black_hole.py` and `xcsp3/black_hole.py` state, built with CP-SAT's Python API: x[i] is
the card played at step i (x[0] the start card), y[card] its step, channelled by AddInverse;
consecutive cards come from the table of following pairs (`Numbering.follows`), pile order is
y[above] < y[card], and the conditional symmetry breaking is optional. The proto text is the
model file, so the data flow is the same as for every other route: deal -> generator -> file ->
runner (`runners/cpsat.py` loads it in a child process and prints the x values).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import pairwise

from patience.cards import Card
from patience.deal import Deal
from patience.errors import InputError
from patience.generators.analysis.black_hole import NO_CARD, Numbering, symmetry_pairs
from patience.generators.files import ModelFiles, no_fixed_files
from patience.options import Switch

MODEL_FILE = "deal.pbtxt"
TITLE = "CP-SAT model (CpModelProto text, OR-Tools)"
OPTIONS = (Switch("symmetry-breaking", "on", "post the paper's conditional symmetry breaking"),)
SHOW: dict[str, str] = {}
fixed_files = no_fixed_files
X_NAME = re.compile(r"x_([0-9]{1,9})")


def model_text(deal: Deal, symmetry_breaking: bool = True) -> str:
    """The CpModelProto of one deal, in protobuf text."""
    numbering = Numbering(deal)
    return order_model(f"{deal.game} deal, {len(deal.cards)} cards, {deal.ranks} ranks", numbering.size,
                       numbering.follows, numbering.pile_numbers, numbering, symmetry_breaking)


def order_model(name: str, n: int, follows: Sequence[tuple[int, int]], orders: Iterable[Sequence[int]],
                numbering: Numbering, symmetry_breaking: bool) -> str:
    """The dual-viewpoint model of an order of card numbers 0..n-1 (0 first), in protobuf text:
    consecutive cards a pair of `follows`, each of `orders` in its order, and the paper's conditional
    symmetry breaking on `numbering`'s pairs."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    model.name = name
    x = [model.new_int_var(0, n - 1, f"x_{step}") for step in range(n)]
    y = [model.new_int_var(0, n - 1, f"y_{card}") for card in range(n)]
    model.add(x[0] == 0)
    model.add_inverse(x, y)
    pairs = follows or ((0, 0),)  # x[1] = 0 is impossible, so a lone (0, 0) allows nothing
    for step in range(n - 1):
        model.add_allowed_assignments([x[step], x[step + 1]], pairs)
    for order in orders:
        for earlier, card in pairwise(order):
            model.add(y[earlier] < y[card])
    if symmetry_breaking:
        for a, b, above_a, below_b in symmetry_pairs(numbering):
            conditions = [holds(model, y[above_a], y[b])] if above_a != NO_CARD else []
            conditions += [holds(model, y[a], y[below_b])] if below_b != NO_CARD else []
            model.add(y[a] < y[b]).only_enforce_if(conditions)
    return str(model.proto)


def holds(model, earlier, later):
    """A literal true exactly when `earlier` < `later`."""
    literal = model.new_bool_var("")
    model.add(earlier < later).only_enforce_if(literal)
    model.add(earlier >= later).only_enforce_if(~literal)
    return literal


def decode(values: dict[str, int], source: str, numbering: Numbering) -> tuple[Card, ...]:
    """The x values (`x_<step>` -> card number) in step order -> cards, the start card dropped."""
    return numbering.decode(steps(values, numbering.size, source))


def steps(values: dict[str, int], size: int, source: str, cards: int | None = None) -> list[int]:
    """The values of x_0..x_{size-1} in order, each a number below `cards` (default `size`);
    InputError for a missing step or a value out of range."""
    found: dict[int, int] = {}
    for name, value in values.items():
        match = X_NAME.fullmatch(name)
        if match is None:
            continue
        if not 0 <= value < (size if cards is None else cards):
            raise InputError(source, None, f"{name} = {value}: no such card number")
        found[int(match.group(1))] = value
    if sorted(found) != list(range(size)):
        raise InputError(source, None, f"expected x_0..x_{size - 1}, got {len(found)} x values")
    return [found[step] for step in range(size)]


def build(deal: Deal, symmetry_breaking: bool = True) -> ModelFiles:
    """deal.pbtxt; the decode map reads the x values of a solution back into cards."""
    numbering = Numbering(deal)
    return ModelFiles({MODEL_FILE: model_text(deal, symmetry_breaking)}, MODEL_FILE,
                      lambda values, source: decode(values, source, numbering),
                      {"symmetry-breaking": "on" if symmetry_breaking else "off"})
