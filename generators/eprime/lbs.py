"""Late Binding Solitaire as Essence Prime: the coursework model (templates/lbs_eprime.j2) and the
deal's `.param`.

The model's move variables are actionFrom/actionTo (1-based), actionValue and the states matrix.
The deck's ranks and suits are lettings of the model, so the parameter file stays the coursework's
one line `letting cards be [...]`.
"""

from __future__ import annotations

from patience.generators.files import ModelFiles
from patience.generators.texts import template
from patience.lbs.deal import STANDARD_RANKS, STANDARD_SUITS, LBSDeal
from patience.lbs.solution import read_moves
from patience.syntax import identifier

MODEL_FILE = "lbs.eprime"
TITLE = "Essence Prime model and parameters (Savile Row)"
OPTIONS = ()
SHOW = {"model": MODEL_FILE}


def model_text(ranks: int = STANDARD_RANKS, suits: int = STANDARD_SUITS) -> str:
    return template("lbs_eprime.j2").render(ranks=ranks, suits=suits)


def parameters(deal: LBSDeal) -> str:
    """The coursework `.param`: only the cards (ranks and suits live in the model's lettings)."""
    return f"letting cards be [{','.join(map(str, deal.cards))}]\n"


def param_file(deal: LBSDeal) -> str:
    return f"{identifier('file', deal.name)}.param"


def fixed_files() -> dict[str, str]:
    """The files that need no deal: the model for the standard deck."""
    return {MODEL_FILE: model_text()}


def build(deal: LBSDeal) -> ModelFiles:
    """The model and the deal's `.param`; the decode map reads the `.solution`'s actionFrom/actionTo."""
    return ModelFiles({MODEL_FILE: model_text(deal.ranks, deal.suits), param_file(deal): parameters(deal)},
                      param_file(deal), lambda text, source: read_moves(text, source))
