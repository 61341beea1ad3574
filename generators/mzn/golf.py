"""Golf as MiniZinc: Black Hole's model (templates/black_hole_mzn.j2, the paper's dual viewpoint)
unchanged, on every pile and stock card. Dealing is always allowed, so a win extends to an order of
all of them, the stock's undealt cards last. Numbers: 0 the start card, 1..P the pile cards as the
constraint models number them (by depth, then pile), then the stock in dealing order. The stock is
an ordered sequence: each stock card's `above` is the card dealt before it, so the model's pile
order orders the stock; the `follows` table lets a pile card follow what the variant's rule allows
and a stock card follow anything. The conditional symmetry breaking holds on pile cards of one rank;
a stock card's place is fixed, so its `rank` in the data is a class of its own (-1, -2, ...: no
table reads `rank`), and the symmetry breaking never pairs it. The decode map drops the stock
cards after the last pile card.
"""

from __future__ import annotations

from collections.abc import Mapping

from patience.cards import Card
from patience.errors import InputError
from patience.generators.analysis.golf import GolfNumbers, win_of
from patience.generators.files import ModelFiles
from patience.generators.mzn.black_hole import MODEL_FILE, model_text
from patience.generators.mzn.data import DATA_FILE, SEARCH, array, boolean, table
from patience.golf.deal import GolfDeal
from patience.options import Switch

TITLE = "MiniZinc model and data (.dzn)"
OPTIONS = (Switch("symmetry-breaking", "on", "the paper's conditional symmetry breaking, on pile cards of one rank"),
           SEARCH)
SHOW = {"model": MODEL_FILE}


def data(deal: GolfDeal, symmetry_breaking: bool = True) -> str:
    """The `.dzn` of one deal for Black Hole's model."""
    numbers = GolfNumbers(deal)
    numbering, cards, stock = numbers.piles, numbers.cards, numbers.stock
    piles, n = numbering.size, len(cards)
    above, below = numbers.above, numbers.below
    pairs = numbers.follows or [(0, 0)]
    ranks = [cards[number].rank for number in range(piles)] + [piles - 1 - number for number in stock]
    lines = [f"% {deal.game} deal: {len(deal.cards)} pile cards, a stock of {len(deal.stock)}",
             "% card numbers: " + " ".join(f"{number}={deal.name(card)}" for number, card in enumerate(cards)),
             f"n = {n};",
             f"rank = {array(ranks, 0)};",
             f"above = {array(above, 0)};",
             f"below = {array(below, 0)};",
             f"pairs = {len(pairs)};",
             f"follows = {table(pairs)};",
             f"symmetry_breaking = {boolean(symmetry_breaking)};"]
    return "\n".join(lines) + "\n"


def fixed_files(search: str = "paper") -> dict[str, str]:
    """The files that need no deal: Black Hole's model."""
    return {MODEL_FILE: model_text(search)}


def decode(values: Mapping[str, object], source: str, deal: GolfDeal) -> tuple[Card, ...]:
    """x as the cards put on the foundation, up to the last pile card, after checking it is a
    permutation of the card numbers."""
    from patience.generators.mzn.solution import integers

    cards = GolfNumbers(deal).cards
    x = integers(values, "x", source)
    if sorted(x) != list(range(len(cards))) or x[:1] != [0]:
        raise InputError(source, None, f"x is not a sequence of the card numbers 0..{len(cards) - 1} from 0")
    return win_of(deal, (cards[number] for number in x[1:]))


def build(deal: GolfDeal, symmetry_breaking: bool = True, search: str = "paper") -> ModelFiles:
    """The model and the deal's `.dzn`; the decode map reads the values of x."""
    return ModelFiles({MODEL_FILE: model_text(search), DATA_FILE: data(deal, symmetry_breaking)}, DATA_FILE,
                      lambda values, source: decode(values, source, deal),
                      {"symmetry-breaking": "on" if symmetry_breaking else "off", "search": search})
