"""Golf as a CP model in CP-SAT's own format (a `CpModelProto` in protobuf text).

Black Hole's dual-viewpoint model (`cpsat/black_hole.py`) over every pile and stock card: dealing
is always allowed, so a win extends to an order of all of them, the stock's undealt cards last.
x[i] is the card put on the foundation at step i (x[0] the start card), y[card] its step,
channelled by AddInverse. Numbers: 0 the start card, 1..P the pile cards as Black Hole's models
number them (by depth, then pile), P+1.. the stock in dealing order. The stock is an ordered
sequence: y[stock k] < y[stock k+1], as pile order is y[above] < y[card]. Consecutive cards come
from a table: a pile card may follow a card whose rank the variant's rule allows under it, a stock
card may follow any card. The paper's conditional symmetry breaking (option) holds on pile cards of
one rank (a swap leaves every foundation rank as it was); a stock card is never swapped, its place
in the order being fixed. The decode map drops the stock cards after the last pile card.
"""

from __future__ import annotations

from patience.cards import Card
from patience.generators.analysis.golf import GolfNumbers, win_of
from patience.generators.cpsat.black_hole import MODEL_FILE, order_model, steps
from patience.generators.files import ModelFiles, no_fixed_files
from patience.golf.deal import GolfDeal
from patience.options import Switch

TITLE = "CP-SAT model (CpModelProto text, OR-Tools)"
OPTIONS = (Switch("symmetry-breaking", "on", "the paper's conditional symmetry breaking, on pile cards of one rank"),)
SHOW: dict[str, str] = {}
fixed_files = no_fixed_files


def model_text(deal: GolfDeal, symmetry_breaking: bool = True) -> str:
    """The CpModelProto of one deal, in protobuf text."""
    numbers = GolfNumbers(deal)
    return order_model(f"{deal.game} deal, {len(deal.cards)} pile cards, a stock of {len(deal.stock)}",
                       len(numbers.cards), numbers.follows, (*numbers.piles.pile_numbers, tuple(numbers.stock)),
                       numbers.piles, symmetry_breaking)


def decode(values: dict[str, int], source: str, deal: GolfDeal) -> tuple[Card, ...]:
    """The x values in step order -> the cards put on the foundation, up to the last pile card."""
    cards = GolfNumbers(deal).cards
    return win_of(deal, (cards[number] for number in steps(values, len(cards), source)[1:]))


def build(deal: GolfDeal, symmetry_breaking: bool = True) -> ModelFiles:
    """deal.pbtxt; the decode map reads the x values of a solution back into Golf moves."""
    return ModelFiles({MODEL_FILE: model_text(deal, symmetry_breaking)}, MODEL_FILE,
                      lambda values, source: decode(values, source, deal),
                      {"symmetry-breaking": "on" if symmetry_breaking else "off"})
