"""Deals as XCSP3 instances, built with pycsp3 from the model of `models/blackhole.eprime`.

The model is the PyCSP3 notebook's (x and y channelled, the start card first, each pile's cards
played in order, consecutive cards in a table of allowed pairs) plus, as an option, the paper's
conditional symmetry breaking with its simplified forms. Card numbers are `Numbering`'s, so the
value ordering and the preference order are the Essence Prime model's.

pycsp3 keeps the model in global state and compiles whatever is left at interpreter exit (printing
to stdout). So every instance is built in a fresh Python process: the parent sends the deal's
numbers as JSON, the child builds and compiles, the parent reads the file back.
"""

from __future__ import annotations

import json
import sys

from patience.deal import Deal
from patience.generators.analysis.black_hole import NO_CARD, Numbering, symmetry_pairs
from patience.generators.files import ModelFiles, no_fixed_files
from patience.generators.xcsp3.common import compile_in_fresh_process, post_symmetry_breaking
from patience.options import Switch

INSTANCE_FILE = "deal.xml"
TITLE = "XCSP3 instance built with pycsp3 (ACE, Choco)"
OPTIONS = (Switch("symmetry-breaking", "on", "post the paper's conditional symmetry breaking"),)
SHOW: dict[str, str] = {}
fixed_files = no_fixed_files


def model_data(deal: Deal, symmetry_breaking: bool) -> dict[str, object]:
    """Everything the pycsp3 model needs, as plain JSON data."""
    numbering = Numbering(deal)
    return {"n": numbering.size, "piles": numbering.pile_numbers, "follows": numbering.follows,
            "symmetry": symmetry_pairs(numbering) if symmetry_breaking else []}


def instance(deal: Deal, symmetry_breaking: bool = True) -> str:
    """The XCSP3 text of one deal, compiled by pycsp3 in a child process."""
    return compile_in_fresh_process(__name__, model_data(deal, symmetry_breaking), INSTANCE_FILE)


def build_from_stdin() -> None:
    """In the child process: read the model data, state the model in pycsp3, compile it."""
    import pycsp3 as csp

    data = json.load(sys.stdin)
    n, follows = data["n"], [tuple(pair) for pair in data["follows"]] or [(0, 0)]
    x = csp.VarArray(size=n, dom=range(n), id="x")
    y = csp.VarArray(size=n, dom=range(n), id="y")
    csp.satisfy(
        x[0] == 0,
        csp.Channel(x, y),
        [(x[i], x[i + 1]) in follows for i in range(n - 1)],
        [csp.Increasing([y[card] for card in pile], strict=True) for pile in data["piles"] if len(pile) > 1],
    )
    post_symmetry_breaking(y, data["symmetry"], NO_CARD)
    csp.compile(INSTANCE_FILE, verbose=-1)


def build(deal: Deal, symmetry_breaking: bool = True) -> ModelFiles:
    """deal.xml; the decode map reads the x values of a solution back into cards."""
    from patience.generators.xcsp3.solution import sequence

    numbering = Numbering(deal)
    return ModelFiles({INSTANCE_FILE: instance(deal, symmetry_breaking)}, INSTANCE_FILE,
                      lambda output, source: sequence(output, source, numbering),
                      {"symmetry-breaking": "on" if symmetry_breaking else "off"},
                      {"x": numbering.size, "y": numbering.size})
