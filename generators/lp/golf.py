"""Golf as a mixed integer program in CPLEX LP: an assignment of every pile and stock card to a
position, the paper's MIP-3 precedence by prefix sums, and the rank rule as support rows.

Dealing is always allowed, so a win extends to an order of every pile and stock card (the stock's
undealt cards last). Items are numbered 1..P for the pile cards (the paper's layer order: every
top card, then every second card, ...) and P+1..N for the stock in dealing order. Variables:
binary `a_<item>_<position>`, the item goes on the foundation at that position (positions 1..N;
the start card is position 0), one item a position, one position an item. Order: an item goes
only after the item that must precede it (the card above it, or the stock card dealt before it):
a_c_k <= sum_{j<k} a_e_j. The rank rule: a pile card at position k+1 needs at position k an item
it may follow (the variant's rule; the start card at 0): a_c_{k+1} <= sum_{b may precede c} a_b_k;
a stock card follows anything. No objective and no symmetry breaking rows: any feasible point is a
win, and the decode map drops the stock cards after the last pile card.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from patience.cards import Card
from patience.errors import InputError, UsageError
from patience.generators.analysis.golf import win_of
from patience.generators.files import ModelFiles, no_fixed_files
from patience.generators.lp.common import row_text, wrapped
from patience.golf.deal import GolfDeal
from patience.options import Option

LP_FILE = "deal.lp"
TITLE = "mixed integer program in CPLEX LP format (CBC, HiGHS)"
OPTIONS = (Option("objective", "none", "Golf's MIP is pure feasibility", ("none",)),)
SHOW: dict[str, str] = {}
fixed_files = no_fixed_files
_A_NAME = re.compile(r"a_([0-9]{1,9})_([0-9]{1,9})")


def items(deal: GolfDeal) -> tuple[Card, ...]:
    """Item number - 1 -> card: the pile cards layer by layer, then the stock in dealing order."""
    height = max(len(pile) for pile in deal.piles)
    layers = tuple(pile[depth] for depth in range(height) for pile in deal.piles if depth < len(pile))
    return (*layers, *deal.stock)


def lp_model(deal: GolfDeal) -> tuple[str, dict[str, int]]:
    """The LP text and its size."""
    cards = items(deal)
    number = {card: index for index, card in enumerate(cards, 1)}
    n = len(cards)
    earlier = {number[card]: number[over] for pile in deal.piles
               for over, card in zip(pile[:-1], pile[1:], strict=True)}
    earlier |= {number[card]: number[dealt] for dealt, card in zip(deal.stock[:-1], deal.stock[1:], strict=True)}
    positions = range(1, n + 1)

    def a(item: int, position: int) -> str:
        return f"a_{item}_{position}"

    rows: dict[str, list[str]] = {"item": [], "position": [], "order": [], "rank": []}
    for item in positions:
        rows["item"].append(row_text([(1, a(item, k)) for k in positions], "=", 1))
        rows["position"].append(row_text([(1, a(other, item)) for other in positions], "=", 1))
        before = earlier.get(item)
        for k in positions:
            if before is not None:
                rows["order"].append(row_text([(1, a(item, k)), *((-1, a(before, j)) for j in range(1, k))], "<=", 0))
    for item, card in enumerate(cards[:len(deal.cards)], 1):
        if not deal.follows(deal.foundation, card):
            rows["rank"].append(row_text([(1, a(item, 1))], "=", 0))
        supports = [other for other, base in enumerate(cards, 1) if other != item and deal.follows(base, card)]
        for k in range(1, n):
            rows["rank"].append(row_text([(1, a(item, k + 1)), *((-1, a(other, k)) for other in supports)], "<=", 0))
    binaries = [a(item, k) for item in positions for k in positions]
    lines = [f"\\ Golf MIP (assignment, prefix-sum precedence) of a {deal.game} deal: {len(deal.cards)} pile cards, "
             f"a stock of {len(deal.stock)}, foundation {deal.name(deal.foundation)}",
             "\\ a_<item>_<position> = 1: the item goes on the foundation at that position; items "
             + " ".join(f"{index}={deal.name(card)}" for index, card in enumerate(cards, 1)),
             "Minimize", " obj: 0 " + binaries[0], "Subject To"]
    for family, family_rows in rows.items():
        for index, row in enumerate(family_rows, 1):
            lines += list(wrapped(f"{family}_{index}: {row}"))
    lines += ["Binaries", *(" " + " ".join(binaries[start:start + 20]) for start in range(0, len(binaries), 20)), "End"]
    return "\n".join(lines) + "\n", {"rows": sum(map(len, rows.values())), "binaries": len(binaries),
                                     "columns": len(binaries)}


def cards_of(deal: GolfDeal, values: Mapping[str, float], source: str) -> tuple[Card, ...]:
    """The cards put on the foundation, in order up to the last pile card: per position the item with a = 1."""
    cards = items(deal)
    placed: dict[int, int] = {}
    for name, value in values.items():
        match = _A_NAME.fullmatch(name)
        if match is None or value < 0.5:
            continue
        item, position = int(match.group(1)), int(match.group(2))
        if not 1 <= item <= len(cards) or placed.setdefault(position, item) != item:
            raise InputError(source, None, f"{name} = {value:g}: no item, or a second item at position {position}")
    if sorted(placed) != list(range(1, len(cards) + 1)):
        raise InputError(source, None, "the solution does not put an item at every position")
    order = [cards[placed[position] - 1] for position in sorted(placed)]
    return win_of(deal, order)


def build(deal: GolfDeal, objective: str = "none") -> ModelFiles:
    """deal.lp; the decode map reads a solution's a values back into Golf moves."""
    if objective != "none":
        raise UsageError("Golf's MIP has no objective: use objective=none")
    text, size = lp_model(deal)
    return ModelFiles({LP_FILE: text}, LP_FILE, lambda values, source: cards_of(deal, values, source),
                      {"model": "golf", **size})
