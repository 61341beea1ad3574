"""Golf as an XCSP3 instance, built with pycsp3: Black Hole's model (`xcsp3/black_hole.py`: x and y
channelled, the start card first, each chain's cards in order, consecutive cards in a table) on
every pile and stock card. Dealing is always allowed, so a win extends to an order of all of them,
the stock's undealt cards last. Numbers: 0 the start card, 1..P the pile cards as the constraint
models number them, then the stock in dealing order; the stock is one more chain (an ordered
sequence), and the table lets a pile card follow what the variant's rule allows and a stock card
follow anything. The conditional symmetry breaking (option) pairs pile cards of one rank only: a
stock card's place is fixed. The decode map drops the stock cards after the last pile card.
"""

from __future__ import annotations

from patience.cards import Card
from patience.errors import InputError
from patience.generators.analysis.black_hole import symmetry_pairs
from patience.generators.analysis.golf import GolfNumbers, win_of
from patience.generators.files import ModelFiles, no_fixed_files
from patience.generators.xcsp3 import black_hole
from patience.generators.xcsp3.common import compile_in_fresh_process
from patience.golf.deal import GolfDeal
from patience.options import Switch

INSTANCE_FILE = black_hole.INSTANCE_FILE
TITLE = "XCSP3 instance built with pycsp3 (ACE, Choco)"
OPTIONS = (Switch("symmetry-breaking", "on", "the paper's conditional symmetry breaking, on pile cards of one rank"),)
SHOW: dict[str, str] = {}
fixed_files = no_fixed_files


def model_data(deal: GolfDeal, symmetry_breaking: bool) -> dict[str, object]:
    """What Black Hole's pycsp3 model reads: the chains (piles, then the stock), the following pairs
    and the symmetric pile-card pairs."""
    numbers = GolfNumbers(deal)
    return {"n": len(numbers.cards), "piles": [*numbers.piles.pile_numbers, list(numbers.stock)],
            "follows": numbers.follows, "symmetry": symmetry_pairs(numbers.piles) if symmetry_breaking else []}


def decode(output, source: str, deal: GolfDeal) -> tuple[Card, ...]:
    """The x values (a permutation of the numbers, 0 first) as the cards put on the foundation."""
    cards = GolfNumbers(deal).cards
    x = [value for position in range(len(cards)) if (value := output.values.get(f"x[{position}]")) is not None]
    if sorted(x) != list(range(len(cards))) or x[0] != 0:
        raise InputError(source, output.values_line, f"x is not a sequence of the numbers 0..{len(cards) - 1} from 0")
    return win_of(deal, (cards[number] for number in x[1:]))


def build(deal: GolfDeal, symmetry_breaking: bool = True) -> ModelFiles:
    """deal.xml; the decode map reads the x values of a solution back into Golf moves."""
    size = 1 + len(deal.cards) + len(deal.stock)
    text = compile_in_fresh_process(black_hole.__name__, model_data(deal, symmetry_breaking), INSTANCE_FILE)
    return ModelFiles({INSTANCE_FILE: text}, INSTANCE_FILE, lambda output, source: decode(output, source, deal),
                      {"symmetry-breaking": "on" if symmetry_breaking else "off"}, {"x": size, "y": size})
