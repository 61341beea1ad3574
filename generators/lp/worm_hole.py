"""Worm Hole as a mixed integer program in CPLEX LP: Black Hole's assignment of cards to plays with
a park gap per card, the pile order through what has left the pile, and the cells as a count.

Cards are numbered 1..n as Black Hole's constraint models number them (by depth, then pile); gap j
is just before play j, parks in one gap top card first. Variables: binary `a_<card>_<play>` (one
card a play, one play a card); binary `p_<card>_<gap>`, the card parked in that gap (at most one
gap, and only before the card's play: parking in the gap of one's own play would be playing it);
continuous `q_<card>_<gap>` in [0, 1], at least 1 when the card sits in a cell during that gap
(parked by then, not played before), at most `cells` of them a gap. Pile order: a card leaves its
pile (parked in gap j, or played at j) only once the card above it has left before play j (parked
in a gap up to j, or played before j). The rank rule: a card at play k+1 needs at play k a card it
follows (Black Hole's cycle; the foundation card at 0). No objective, no symmetry breaking.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from patience.errors import InputError, UsageError
from patience.generators.analysis.black_hole import Numbering
from patience.generators.files import ModelFiles, no_fixed_files
from patience.generators.lp.common import row_text, wrapped
from patience.options import Option
from patience.worm_hole.deal import WormHoleDeal
from patience.worm_hole.moves import Move

LP_FILE = "deal.lp"
TITLE = "mixed integer program in CPLEX LP format (CBC, HiGHS)"
OPTIONS = (Option("objective", "none", "Worm Hole's MIP is pure feasibility", ("none",)),)
SHOW: dict[str, str] = {}
fixed_files = no_fixed_files
_NAME = re.compile(r"(a|p)_([0-9]{1,9})_([0-9]{1,9})")


def lp_model(deal: WormHoleDeal) -> tuple[str, dict[str, int]]:
    """The LP text and its size."""
    numbering = Numbering(deal.black_hole)
    n = numbering.size - 1
    cards, steps = range(1, n + 1), range(1, n + 1)
    parking = deal.cells > 0
    rows: dict[str, list[str]] = {"card": [], "play": [], "park": [], "order": [], "cell": [], "rank": []}

    def left(card: int, step: int) -> list[tuple[int, str]]:
        """Terms that add to at least 1 when `card` has left its pile before play `step`."""
        parked = [(1, f"p_{card}_{gap}") for gap in range(1, step + 1)] if parking else []
        return parked + [(1, f"a_{card}_{earlier}") for earlier in range(1, step)]

    for card in cards:
        rows["card"].append(row_text([(1, f"a_{card}_{k}") for k in steps], "=", 1))
        rows["play"].append(row_text([(1, f"a_{other}_{card}") for other in cards], "=", 1))
        if parking:
            rows["park"].append(row_text([(1, f"p_{card}_{gap}") for gap in steps], "<=", 1))
            for gap in steps:
                later = [(-1, f"a_{card}_{k}") for k in range(gap + 1, n + 1)]
                rows["park"].append(row_text([(1, f"p_{card}_{gap}"), *later], "<=", 0))
                parked = [(-1, f"p_{card}_{earlier}") for earlier in range(1, gap + 1)]
                played = [(1, f"a_{card}_{k}") for k in range(1, gap)]
                rows["cell"].append(row_text([(1, f"q_{card}_{gap}"), *parked, *played], ">=", 0))
        above = numbering.above(card)
        for step in steps if above else ():
            for leaving in [f"a_{card}_{step}"] + ([f"p_{card}_{step}"] if parking else []):
                rows["order"].append(row_text([(1, leaving), *((-1, term) for _, term in left(above, step))], "<=", 0))
    if parking and deal.cells < n:
        for gap in steps:
            rows["cell"].append(row_text([(1, f"q_{card}_{gap}") for card in cards], "<=", deal.cells))
    follows = numbering.follows
    for card in cards:
        if (0, card) not in follows:
            rows["rank"].append(row_text([(1, f"a_{card}_1")], "=", 0))
        supports = [first for first, second in follows if second == card and first != 0]
        for k in range(1, n):
            rows["rank"].append(row_text([(1, f"a_{card}_{k + 1}"), *((-1, f"a_{other}_{k}") for other in supports)],
                                         "<=", 0))
    binaries = [f"a_{card}_{k}" for card in cards for k in steps]
    binaries += [f"p_{card}_{gap}" for card in cards for gap in steps] if parking else []
    continuous = [f"q_{card}_{gap}" for card in cards for gap in steps] if parking else []
    lines = [f"\\ Worm Hole MIP of a {deal.game} deal: {n} cards, {deal.cells} cells",
             "\\ a_<card>_<play> = 1: the card is played then; p_<card>_<gap> = 1: parked in the gap before that play;"
             " cards " + " ".join(f"{card}={deal.name(numbering.card(card))}" for card in cards),
             "Minimize", " obj: 0 " + binaries[0], "Subject To"]
    for family, family_rows in rows.items():
        for index, row in enumerate(family_rows, 1):
            lines += list(wrapped(f"{family}_{index}: {row}"))
    lines += ["Bounds", *(f" 0 <= {name} <= 1" for name in continuous), "Binaries",
              *(" " + " ".join(binaries[start:start + 20]) for start in range(0, len(binaries), 20)), "End"]
    return "\n".join(lines) + "\n", {"rows": sum(map(len, rows.values())), "binaries": len(binaries),
                                     "continuous": len(continuous), "columns": len(binaries) + len(continuous)}


def moves_of(deal: WormHoleDeal, values: Mapping[str, float], source: str) -> tuple[Move, ...]:
    """The moves of a solution: before each play the cards parked in its gap (top card first), then the play."""
    numbering = Numbering(deal.black_hole)
    n = numbering.size - 1
    chosen: dict[str, dict[int, int]] = {"a": {}, "p": {}}
    for name, value in values.items():
        match = _NAME.fullmatch(name)
        if match is None or value < 0.5:
            continue
        kind, card, step = match.group(1), int(match.group(2)), int(match.group(3))
        if not 1 <= card <= n or (kind == "a" and chosen["a"].setdefault(step, card) != card):
            raise InputError(source, None, f"{name} = {value:g}: no card, or a second card at play {step}")
        if kind == "p":
            chosen["p"][card] = step
    if sorted(chosen["a"]) != list(range(1, n + 1)):
        raise InputError(source, None, "the solution does not play a card at every play")
    moves = []
    for step in range(1, n + 1):
        moves += [Move.parked(numbering.card(card)) for card in sorted(chosen["p"]) if chosen["p"][card] == step]
        moves.append(Move.play(numbering.card(chosen["a"][step])))
    return tuple(moves)


def build(deal: WormHoleDeal, objective: str = "none") -> ModelFiles:
    """deal.lp; the decode map reads a solution's a and p values back into Worm Hole moves."""
    if objective != "none":
        raise UsageError("Worm Hole's MIP has no objective: use objective=none")
    text, size = lp_model(deal)
    return ModelFiles({LP_FILE: text}, LP_FILE, lambda values, source: moves_of(deal, values, source),
                      {"model": "worm_hole", **size})
