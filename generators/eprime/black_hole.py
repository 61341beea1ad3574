"""Deals as parameters of the Essence Prime model `models/blackhole.eprime` (Savile Row).

The model never changes per deal; `gen eprime DEAL` prints the `.param` file (`letting ...`),
`gen eprime --model` the model itself. The cards are numbered as every constraint model numbers them
(`Numbering`, in `generators/analysis/black_hole.py`), which also decodes Savile Row's answer.
"""

from __future__ import annotations

from patience.deal import Deal
from patience.generators.analysis.black_hole import Numbering
from patience.generators.files import ModelFiles
from patience.generators.texts import fixed_model
from patience.options import Switch

MODEL_FILE = "blackhole.eprime"
PARAM_FILE = "deal.param"
TITLE = "Essence Prime model and parameters (Savile Row)"
OPTIONS = (Switch("symmetry-breaking", "on", "post the paper's conditional symmetry breaking"),)
SHOW = {"model": MODEL_FILE}  # `gen eprime --model` prints the model


def _matrix(values: list[int] | tuple[int, ...], first_index: int = 0) -> str:
    index = f"; int({first_index}..{first_index + len(values) - 1})" if first_index != 1 else ""
    return "[" + ", ".join(str(value) for value in values) + index + "]"


def parameters(deal: Deal, symmetry_breaking: bool = True) -> str:
    """The `.param` file of one deal for `models/blackhole.eprime`."""
    numbering = Numbering(deal)
    numbers = range(numbering.size)
    pairs = numbering.follows or ((0, 0),)  # x[1] = 0 is impossible, so a lone (0, 0) allows nothing
    lines = [
        "language ESSENCE' 1.0",
        *(f"$ {line}" for line in numbering.description),
        f"letting n be {numbering.size}",
        f"letting rank be {_matrix([numbering.rank(number) for number in numbers])}",
        f"letting above be {_matrix([numbering.above(number) for number in numbers])}",
        f"letting below be {_matrix([numbering.below(number) for number in numbers])}",
        f"letting pairs be {len(pairs)}",
        "letting follows be [" + ", ".join(f"[{a}, {b}]" for a, b in pairs) + "]",
        f"letting symmetryBreaking be {'true' if symmetry_breaking else 'false'}",
    ]
    return "\n".join(lines) + "\n"


def model_text() -> str:
    """The Essence Prime model (the same for every deal)."""
    return fixed_model(MODEL_FILE)


def fixed_files(symmetry_breaking: bool = True) -> dict[str, str]:
    """The files that need no deal: the model."""
    return {MODEL_FILE: model_text()}


def build(deal: Deal, symmetry_breaking: bool = True) -> ModelFiles:
    """The model and the deal's `.param`; the decode map reads Savile Row's `.solution` text."""
    from patience.generators.eprime.solution import read_solution

    numbering = Numbering(deal)
    return ModelFiles({MODEL_FILE: model_text(), PARAM_FILE: parameters(deal, symmetry_breaking)}, PARAM_FILE,
                      lambda text, source: read_solution(text, source, numbering),
                      {"symmetry-breaking": "on" if symmetry_breaking else "off"})
