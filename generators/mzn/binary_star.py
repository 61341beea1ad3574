"""Binary Star deals as MiniZinc: the project's model (templates/binary_star_mzn.j2, the twin of
models/binary-star.eprime) and the deal's `.dzn`, with the positions, tables and decode map of
`binary_star_eprime.Positions`."""

from __future__ import annotations

from collections.abc import Mapping

from patience.binary_star.deal import BinaryStarDeal, Play
from patience.generators.analysis.binary_star import NO_POSITION, Positions
from patience.generators.files import ModelFiles
from patience.generators.mzn.data import DATA_FILE, SEARCH, array, boolean, render, table
from patience.options import Switch

MODEL_FILE = "model.mzn"
TITLE = "MiniZinc model and data (.dzn)"
OPTIONS = (Switch("symmetry-breaking", "on", "post the symmetry breaking (equal foundation tops and the "
                                             "paper's conditional one on same-rank cards)"), SEARCH)
SHOW = {"model": MODEL_FILE}


def model_text(search: str = "paper") -> str:
    return render("binary_star_mzn.j2", search=search)


def data(deal: BinaryStarDeal, symmetry_breaking: bool = True) -> str:
    """The `.dzn` of one deal."""
    positions = Positions(deal)
    numbers = range(positions.size)
    # a table is empty only with one foundation and one rank; a row no f matches stands for it
    tables = [positions.moves(foundation) or ((NO_POSITION, 0, 0, 0),) for foundation in range(positions.foundations)]
    lines = [
        *(f"% {line}" for line in positions.description),
        f"n = {positions.size};",
        f"k = {positions.foundations};",
        f"ranks = {deal.ranks};",
        f"rank = {array([positions.rank(number) for number in numbers], 0)};",
        f"above = {array([positions.above(number) for number in numbers], 0)};",
        f"below = {array([positions.below(number) for number in numbers], 0)};",
        f"start = {array(positions.start_ranks, 0)};",
        f"plays = {table(positions.plays)};",
        f"moveRows = {len(tables[0])};",
        f"moves = {table([row for rows in tables for row in rows])};",
        f"symmetry_breaking = {boolean(symmetry_breaking)};",
    ]
    return "\n".join(lines) + "\n"


def fixed_files(search: str = "paper") -> dict[str, str]:
    """The files that need no deal: the model."""
    return {MODEL_FILE: model_text(search)}


def build(deal: BinaryStarDeal, symmetry_breaking: bool = True, search: str = "paper") -> ModelFiles:
    """The model and the deal's `.dzn`; the decode map reads x (positions) and f (foundations)."""
    positions = Positions(deal)
    return ModelFiles({MODEL_FILE: model_text(search), DATA_FILE: data(deal, symmetry_breaking)}, DATA_FILE,
                      lambda values, source: decode(values, source, positions),
                      {"positions": len(deal.cards), "foundations": len(deal.foundations),
                       "symmetry-breaking": "on" if symmetry_breaking else "off", "search": search})


def decode(values: Mapping[str, object], source: str, positions: Positions) -> tuple[Play, ...]:
    from patience.generators.mzn.solution import integers

    return positions.decode(integers(values, "x", source), integers(values, "f", source), source, None)
