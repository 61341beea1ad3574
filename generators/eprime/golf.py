"""Golf deals as parameters of Black Hole's Essence Prime model `models/blackhole.eprime`, unchanged.

Dealing is always allowed, so a win extends to an order of every pile and stock card, the stock's
undealt cards last. Numbers (`GolfNumbers`): 0 the start card, 1..P the pile cards as the
constraint models number them (by depth, then pile), then the stock in dealing order. The stock is
an ordered sequence the play interleaves: each stock card's `above` is the card dealt before it, so
the model's pile order (`y[above[c]] < y[c]`) orders the stock; the `follows` table lets a pile
card follow what the variant's rule allows and a stock card follow any card. The conditional
symmetry breaking holds on pile cards of one rank (swapping them leaves every foundation rank as it
was); a stock card's place is fixed, so its `rank` in the parameters is a class of its own (ranks,
ranks + 1, ...: only the symmetry breaking reads `rank`), and it is never paired. The decode map
reads Savile Row's `.solution` (`letting x be [...]`) and drops the stock cards after the last pile card.
"""

from __future__ import annotations

from patience.cards import Card
from patience.errors import InputError
from patience.generators.analysis.golf import GolfNumbers, win_of
from patience.generators.eprime.black_hole import MODEL_FILE, PARAM_FILE, model_text
from patience.generators.files import ModelFiles
from patience.golf.deal import GolfDeal
from patience.options import Switch

TITLE = "Essence Prime model and parameters (Savile Row)"
OPTIONS = (Switch("symmetry-breaking", "on", "the paper's conditional symmetry breaking, on pile cards of one rank"),)
SHOW = {"model": MODEL_FILE}  # `gen eprime --model` prints the model


def _matrix(values: list[int]) -> str:
    return "[" + ", ".join(map(str, values)) + f"; int(0..{len(values) - 1})]"


def parameters(deal: GolfDeal, symmetry_breaking: bool = True) -> str:
    """The `.param` file of one deal for `models/blackhole.eprime`."""
    numbers = GolfNumbers(deal)
    numbering, cards, stock = numbers.piles, numbers.cards, numbers.stock
    piles, n = numbering.size, len(cards)
    above, below = numbers.above, numbers.below
    ranks = [cards[number].rank for number in range(piles)] + [deal.ranks + number - piles for number in stock]
    pairs = numbers.follows or [(0, 0)]  # x[1] = 0 is impossible, so a lone (0, 0) allows nothing
    lines = [
        "language ESSENCE' 1.0",
        f"$ {deal.game} deal: {len(deal.cards)} pile cards, a stock of {len(deal.stock)}"
        f"{', queens on kings' if deal.queens_on_kings and not deal.wrap_ranks else ''}"
        f"{', ranks wrap' if deal.wrap_ranks else ''}",
        "$ card numbers: " + " ".join(f"{number}={deal.name(card)}" for number, card in enumerate(cards)),
        f"$ the stock: {stock.start}..{stock.stop - 1} in dealing order" if stock else "$ no stock",
        f"letting n be {n}",
        f"letting rank be {_matrix(ranks)}",
        f"letting above be {_matrix(above)}",
        f"letting below be {_matrix(below)}",
        f"letting pairs be {len(pairs)}",
        "letting follows be [" + ", ".join(f"[{a}, {b}]" for a, b in pairs) + "]",
        f"letting symmetryBreaking be {'true' if symmetry_breaking else 'false'}",
    ]
    return "\n".join(lines) + "\n"


def fixed_files(symmetry_breaking: bool = True) -> dict[str, str]:
    """The files that need no deal: Black Hole's model."""
    return {MODEL_FILE: model_text()}


def read_solution(text: str, source: str, deal: GolfDeal) -> tuple[Card, ...]:
    """The cards put on the foundation, from `letting x be [...]` (a permutation of the card
    numbers from the start card 0), up to the last pile card."""
    from patience.generators.eprime.solution import read_lettings

    cards = GolfNumbers(deal).cards
    lettings = read_lettings(text, source)
    if "x" not in lettings:
        raise InputError(source, 1, "no `letting x be [...]` in the solution")
    x = lettings["x"]
    if x.first_index != 0 or sorted(x.values) != list(range(len(cards))) or x.values[0] != 0:
        raise InputError(source, x.line, f"x is not a sequence of the card numbers 0..{len(cards) - 1} "
                                         "starting with the start card 0")
    return win_of(deal, (cards[number] for number in x.values[1:]))


def build(deal: GolfDeal, symmetry_breaking: bool = True) -> ModelFiles:
    """The model and the deal's `.param`; the decode map reads Savile Row's `.solution` text."""
    return ModelFiles({MODEL_FILE: model_text(), PARAM_FILE: parameters(deal, symmetry_breaking)}, PARAM_FILE,
                      lambda text, source: read_solution(text, source, deal),
                      {"symmetry-breaking": "on" if symmetry_breaking else "off"})
