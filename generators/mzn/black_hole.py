"""Black Hole, All in a Row and generalised deals as MiniZinc: the project's model
(templates/black_hole_mzn.j2, the Essence Prime model's twin) or, with `formulation=benchmark`, the
public minizinc-benchmarks model (models/minizinc-benchmarks-black-hole.mzn) unchanged.

The project's model reads the card numbering of the constraint models (`eprime.Numbering`: 0 the
start card, then by depth, then by pile) from `deal.dzn`; the benchmark model reads the standard
`layout` array that `patience convert --to dzn` writes (1 = A♠, piles of 3 under A♠), so it plays
only standard Black Hole deals.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from importlib import resources

from patience.cards import Card
from patience.deal import Deal
from patience.errors import InputError, UsageError
from patience.formats.numbered import standard_number, write_dzn
from patience.generators.analysis.black_hole import Numbering
from patience.generators.files import ModelFiles
from patience.generators.mzn.data import DATA_FILE, SEARCH, array, boolean, render, table
from patience.options import Option, Switch

MODEL_FILE = "model.mzn"
BENCHMARK_FILE = "minizinc-benchmarks-black-hole.mzn"
TITLE = "MiniZinc model and data (.dzn)"
OPTIONS = (
    Switch("symmetry-breaking", "on", "post the paper's conditional symmetry breaking (the project's model)"),
    SEARCH,
    Option("formulation", "project",
           "project: the project's model; benchmark: the public minizinc-benchmarks model unchanged (standard "
           "Black Hole deals only; it has neither symmetry breaking nor a search choice)", ("project", "benchmark")),
)
SHOW = {"model": MODEL_FILE}  # `gen mzn --model` prints the model


def model_text(search: str = "paper", formulation: str = "project") -> str:
    if formulation == "benchmark":
        return resources.files("patience.models").joinpath(BENCHMARK_FILE).read_text()
    return render("black_hole_mzn.j2", search=search)


def data(deal: Deal, symmetry_breaking: bool = True) -> str:
    """The `.dzn` of one deal for the project's model."""
    numbering = Numbering(deal)
    numbers = range(numbering.size)
    pairs = numbering.follows or ((0, 0),)  # x[1] = 0 is impossible, so a lone (0, 0) allows nothing
    lines = [
        *(f"% {line}" for line in numbering.description),
        f"n = {numbering.size};",
        f"rank = {array([numbering.rank(number) for number in numbers], 0)};",
        f"above = {array([numbering.above(number) for number in numbers], 0)};",
        f"below = {array([numbering.below(number) for number in numbers], 0)};",
        f"pairs = {len(pairs)};",
        f"follows = {table(pairs)};",
        f"symmetry_breaking = {boolean(symmetry_breaking)};",
    ]
    return "\n".join(lines) + "\n"


def fixed_files(search: str = "paper", formulation: str = "project") -> dict[str, str]:
    """The files that need no deal: the model."""
    return {MODEL_FILE: model_text(search, formulation)}


def build(deal: Deal, symmetry_breaking: bool = True, search: str = "paper",
          formulation: str = "project") -> ModelFiles:
    """The model and the deal's `.dzn`; the decode map reads the values of x."""
    if formulation == "benchmark":
        return _benchmark(deal)
    numbering = Numbering(deal)
    return ModelFiles({MODEL_FILE: model_text(search), DATA_FILE: data(deal, symmetry_breaking)}, DATA_FILE,
                      lambda values, source: _decode(values, source, numbering.size, numbering.decode),
                      {"symmetry-breaking": "on" if symmetry_breaking else "off", "search": search})


def _benchmark(deal: Deal) -> ModelFiles:
    """The public model on the standard `layout`; x holds standard numbers 1..52 (1 = A♠)."""
    try:
        layout = write_dzn(deal)
    except ValueError as error:
        raise UsageError(f"formulation=benchmark: {error}") from None
    if deal.foundation is None or len(deal.piles) != 17:
        raise UsageError("formulation=benchmark plays standard Black Hole deals only (17 piles of 3 under A♠)")
    by_number = {standard_number(card) + 1: card for card in (*deal.cards, deal.foundation)}

    def play_order(sequence: Sequence[int]) -> tuple[Card, ...]:
        return tuple(by_number[number] for number in sequence[1:])

    return ModelFiles({MODEL_FILE: model_text(formulation="benchmark"), DATA_FILE: layout}, DATA_FILE,
                      lambda values, source: _decode(values, source, 53, play_order, first=1),
                      {"formulation": "benchmark"})


def _decode(values: Mapping[str, object], source: str, size: int,
            cards: Callable[[Sequence[int]], tuple[Card, ...]], first: int = 0) -> tuple[Card, ...]:
    """x as cards, after checking it is a permutation of the card numbers (nothing else is trusted)."""
    from patience.generators.mzn.solution import integers

    x = integers(values, "x", source)
    if sorted(x) != list(range(first, first + len(x))) or len(x) != size - first:
        raise InputError(source, None, f"x is not a sequence of the card numbers {first}..{size - 1}")
    return cards(x)
