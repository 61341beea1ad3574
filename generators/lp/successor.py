"""A successor (assignment) MIP of a Black Hole deal: which card is played right after which.

MIP-1..4 (`black_hole.py`) decide the card of each of the n moves: n^2 binaries, almost all of them free
in the LP relaxation. Here a binary `s_<i>_<j>` exists only for the arcs the rules allow (card j
may follow card i: ranks one apart), so a 52-card deal has a few hundred binaries instead of
2,601. Node 0 is the foundation card (or a virtual start every card may follow), node `e` the
end of play. Every node has one successor and every card one predecessor; the move number
`p_<i>` of each card steps by exactly one along an arc (Miller-Tucker-Zemlin rows, which also
exclude cycles), and pile order is `p_above < p_card`. Cards are numbered as in `black_hole.py`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import pairwise

from patience.cards import Card
from patience.deal import Deal
from patience.errors import InputError
from patience.generators.files import ModelFiles
from patience.generators.lp.common import expression, wrapped

_ARC = re.compile(r"s_([0-9]{1,9})_([0-9]{1,9}|e)")


def arcs(deal: Deal, cards: tuple[Card, ...]) -> list[tuple[int, int]]:
    """(i, j) for every card number j that may be played right after node i (0: the start)."""
    start = [(0, j) for j, card in enumerate(cards, 1)
             if deal.foundation is None or deal.adjacent(deal.foundation, card)]
    return start + [(i, j) for i, first in enumerate(cards, 1) for j, second in enumerate(cards, 1)
                    if i != j and deal.adjacent(first, second)]


def rows(deal: Deal, cards: tuple[Card, ...], objective: list[tuple[int, str]]) -> tuple[list[str], int]:
    """The LP text's lines from `Minimize` to `End`, and the number of constraints."""
    n = len(cards)
    allowed = arcs(deal, cards)
    out: dict[int, list[str]] = {i: [f"s_{i}_e"] if i else [] for i in range(n + 1)}
    into: dict[int, list[str]] = {j: [] for j in range(1, n + 1)}
    constraints: list[str] = []
    for i, j in allowed:
        out[i].append(f"s_{i}_{j}")
        into[j].append(f"s_{i}_{j}")
        if i == 0:
            constraints.append(f"p_{j} + {n} s_0_{j} <= {n + 1}")
        else:
            constraints.append(f"p_{j} - p_{i} - {n} s_{i}_{j} >= {1 - n}")
            constraints.append(f"p_{j} - p_{i} + {n} s_{i}_{j} <= {n + 1}")
    constraints += [" + ".join(names) + " = 1" for names in out.values() if names]
    constraints += [" + ".join(names) + " = 1" if names else f"p_{j} <= 0" for j, names in into.items()]
    constraints.append(" + ".join(f"s_{i}_e" for i in range(1, n + 1)) + " = 1")
    number = {card: index for index, card in enumerate(cards, 1)}
    for pile in deal.piles:
        constraints += [f"p_{number[above]} - p_{number[card]} <= -1" for above, card in pairwise(pile)]
    lines = ["Minimize", *wrapped("obj: " + (expression(objective) if objective else "0 p_1")), "Subject To"]
    for index, row in enumerate(constraints, 1):
        lines += list(wrapped(f"c{index}: {row}"))
    lines.append("Bounds")
    lines += [f" 1 <= p_{card} <= {n}" for card in range(1, n + 1)]
    binaries = [f"s_{i}_{j}" for i, j in allowed] + [f"s_{i}_e" for i in range(1, n + 1)]
    lines.append("Binaries")
    lines += [" " + " ".join(binaries[start:start + 20]) for start in range(0, len(binaries), 20)]
    lines.append("Generals")
    lines += [" " + " ".join(f"p_{card}" for card in range(start, min(start + 20, n + 1)))
              for start in range(1, n + 1, 20)]
    lines.append("End")
    return lines, len(constraints)


def cards_in_order(cards: tuple[Card, ...], values: Mapping[str, float], source: str) -> tuple[Card, ...]:
    """Follow the arcs set to 1 from the start: the cards in play order."""
    successor: dict[int, int | None] = {}
    for name, value in values.items():
        match = _ARC.fullmatch(name)
        if match is None or value < 0.5:
            continue
        i, j = int(match.group(1)), None if match.group(2) == "e" else int(match.group(2))
        if i in successor or not 0 <= i <= len(cards) or (j is not None and not 1 <= j <= len(cards)):
            raise InputError(source, None, f"{name}: a second successor of {i}, or no such card")
        successor[i] = j
    order: list[Card] = []
    node = successor.get(0)
    while node is not None and len(order) < len(cards):
        order.append(cards[node - 1])
        node = successor.get(node)
    if len(order) != len(cards) or node is not None:
        raise InputError(source, None, f"the arcs set to 1 do not make one path through all {len(cards)} cards")
    return tuple(order)


def breadth_first(deal: Deal, n: int) -> list[tuple[int, str]]:
    """The paper's artificial objective of `black_hole.py` on the move numbers p."""
    from patience.generators.lp.black_hole import BREADTH_WEIGHT

    piles = len(deal.piles)
    return [(BREADTH_WEIGHT * index if index <= piles else index, f"p_{index}")
            for index in range(1, min(2 * piles, n) + 1)]


def build(deal: Deal, objective: str = "paper") -> ModelFiles:
    """succ.lp; the decode map follows the arcs of a solution from the start."""
    from patience.generators.lp.black_hole import card_numbers

    cards = card_numbers(deal)
    header = [f"\\ successor MIP of a {deal.game} deal: {len(cards)} cards, {deal.ranks} ranks, "
              f"{len(deal.piles)} piles",
              "\\ s_<i>_<j> = 1: card number <j> is played right after card <i> (0: the start, e: the end);"
              " p_<i>: its move",
              f"\\ foundation: {deal.name(deal.foundation) if deal.foundation else '- (move 1 is free)'}"]
    header += [f"\\ card {i} {deal.name(card)}" for i, card in enumerate(cards, 1)]
    lines, constraints = rows(deal, cards, breadth_first(deal, len(cards)) if objective == "paper" else [])
    columns = len(arcs(deal, cards)) + 2 * len(cards)
    text = "\n".join(header + lines) + "\n"
    return ModelFiles({"succ.lp": text}, "succ.lp", lambda values, source: cards_in_order(cards, values, source),
                      {"model": "succ", "objective": objective, "rows": constraints, "columns": columns})
