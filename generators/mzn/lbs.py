"""Late Binding Solitaire as MiniZinc: the coursework model in MiniZinc's words
(templates/lbs_mzn.j2: actionFrom, actionTo, actionValue, states) and the deal's `.dzn`, which holds
only `cards = [...];` as a student's instance does (the deck's ranks and suits live in the model)."""

from __future__ import annotations

from collections.abc import Mapping

from patience.errors import InputError
from patience.generators.files import ModelFiles
from patience.generators.mzn.data import DATA_FILE, SEARCH, array, render
from patience.lbs.deal import STANDARD_RANKS, STANDARD_SUITS, LBSDeal

MODEL_FILE = "model.mzn"
TITLE = "MiniZinc model and data (.dzn)"
OPTIONS = (SEARCH,)
SHOW = {"model": MODEL_FILE}


def model_text(ranks: int = STANDARD_RANKS, suits: int = STANDARD_SUITS, search: str = "paper") -> str:
    return render("lbs_mzn.j2", ranks=ranks, suits=suits, search=search)


def data(deal: LBSDeal) -> str:
    """The instance: only the cards, left to right."""
    return f"cards = {array(deal.cards)};\n"


def fixed_files(search: str = "paper") -> dict[str, str]:
    """The files that need no deal: the model for the standard deck."""
    return {MODEL_FILE: model_text(search=search)}


def build(deal: LBSDeal, search: str = "paper") -> ModelFiles:
    """The model and the deal's `.dzn`; the decode map reads actionFrom and actionTo (1-based)."""
    return ModelFiles({MODEL_FILE: model_text(deal.ranks, deal.suits, search), DATA_FILE: data(deal)}, DATA_FILE,
                      lambda values, source: decode(values, source, len(deal.cards) - 1), {"search": search})


def decode(values: Mapping[str, object], source: str, moves: int, origin: str = "actionFrom",
           target: str = "actionTo", first_position: int = 1) -> tuple[tuple[int, int], ...]:
    """(from, to) 1-based pairs from two arrays of a solution (the grader names them for a student's model)."""
    from patience.generators.mzn.solution import integers

    sources, targets = integers(values, origin, source), integers(values, target, source)
    if len(sources) != moves or len(targets) != moves:
        raise InputError(source, None, f"{origin} and {target} need {moves} moves each, "
                                       f"not {len(sources)} and {len(targets)}")
    shift = 1 - first_position
    return tuple((a + shift, b + shift) for a, b in zip(sources, targets, strict=True))
