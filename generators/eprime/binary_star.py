"""Binary Star deals as parameters of the Essence Prime model `models/binary-star.eprime`.

The model never changes per deal; the `.param` file gives the deal through the position numbering
of `generators/analysis/binary_star.py` (`Positions`), which also decodes Savile Row's answer.
"""

from __future__ import annotations

from collections.abc import Sequence

from patience.binary_star.deal import BinaryStarDeal, Play
from patience.errors import InputError
from patience.generators.analysis.binary_star import NO_POSITION, SYMMETRY_BREAKING, Positions, stats
from patience.generators.files import ModelFiles
from patience.generators.texts import fixed_model

MODEL_FILE = "binary-star.eprime"
PARAM_FILE = "deal.param"
TITLE = "Essence Prime model and parameters (Savile Row)"
OPTIONS = (SYMMETRY_BREAKING,)
SHOW = {"model": MODEL_FILE}  # `gen eprime --model` prints the model


def _matrix(values: Sequence[int], first_index: int = 0) -> str:
    return "[" + ", ".join(str(value) for value in values) + f"; int({first_index}..{first_index + len(values) - 1})]"


def _rows(rows: Sequence[Sequence[int]]) -> str:
    return "[" + ", ".join("[" + ", ".join(str(value) for value in row) + "]" for row in rows) + "]"


def parameters(deal: BinaryStarDeal, symmetry_breaking: bool = True) -> str:
    """The `.param` file of one deal for `models/binary-star.eprime`."""
    positions = Positions(deal)
    numbers = range(positions.size)
    # a table is empty only with one foundation and one rank; a row no f matches stands for it
    tables = [positions.moves(foundation) or ((NO_POSITION, 0, 0, 0),) for foundation in range(positions.foundations)]
    lines = [
        "language ESSENCE' 1.0",
        *(f"$ {line}" for line in positions.description),
        f"letting n be {positions.size}",
        f"letting k be {positions.foundations}",
        f"letting ranks be {deal.ranks}",
        f"letting rank be {_matrix([positions.rank(number) for number in numbers])}",
        f"letting above be {_matrix([positions.above(number) for number in numbers])}",
        f"letting below be {_matrix([positions.below(number) for number in numbers])}",
        f"letting start be {_matrix(positions.start_ranks)}",
        f"letting plays be {_rows(positions.plays)}",
        f"letting moveRows be {len(tables[0])}",
        "letting moves be [" + ", ".join(_rows(table) for table in tables) + f"; int(0..{len(tables) - 1})]",
        f"letting symmetryBreaking be {'true' if symmetry_breaking else 'false'}",
    ]
    return "\n".join(lines) + "\n"


def model_text() -> str:
    """The Essence Prime model (the same for every deal)."""
    return fixed_model(MODEL_FILE)


def fixed_files(symmetry_breaking: bool = True) -> dict[str, str]:
    """The files that need no deal: the model."""
    return {MODEL_FILE: model_text()}


def read_solution(text: str, source: str, positions: Positions) -> tuple[Play, ...]:
    """The plays of a `.solution` file's x (positions) and f (foundations)."""
    from patience.generators.eprime.solution import read_lettings

    lettings = read_lettings(text, source)
    missing = [name for name in ("x", "f") if name not in lettings]
    if missing:
        raise InputError(source, 1, f"no `letting {missing[0]} be [...]` in the solution")
    return positions.decode(lettings["x"].values, lettings["f"].values, source, lettings["x"].line)


def build(deal: BinaryStarDeal, symmetry_breaking: bool = True) -> ModelFiles:
    """The model and the deal's `.param`; the decode map reads Savile Row's `.solution` text."""
    positions = Positions(deal)
    return ModelFiles({MODEL_FILE: model_text(), PARAM_FILE: parameters(deal, symmetry_breaking)}, PARAM_FILE,
                      lambda text, source: read_solution(text, source, positions), stats(deal, symmetry_breaking))
