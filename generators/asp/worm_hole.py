"""Worm Hole as an answer set program: the fixed program models/asp-worm-hole.lp and the deal's
facts, Black Hole's (cards numbered as its constraint models number them) and the number of cells.
No symmetry breaking: the paper's card-order argument needs a card's freedom to depend on plays
alone, and here parks free cards too; the cells are a count, so no cell symmetry arises.
"""

from __future__ import annotations

from collections.abc import Sequence

from patience.errors import InputError
from patience.generators.analysis.black_hole import NO_CARD, Numbering
from patience.generators.asp.facts import FACTS_FILE, atoms, facts, pile_facts, program, steps
from patience.generators.files import ModelFiles
from patience.worm_hole.deal import WormHoleDeal
from patience.worm_hole.moves import Move

PROGRAM_FILE = "asp-worm-hole.lp"
TITLE = "answer set program and facts (clingo)"
OPTIONS = ()
SHOW = {"program": PROGRAM_FILE}


def deal_facts(deal: WormHoleDeal) -> str:
    """The facts of one deal."""
    numbering = Numbering(deal.black_hole)
    cards = range(1, numbering.size)
    header = (f"% {deal.game} deal: {len(deal.cards)} cards in {len(deal.piles)} piles, {deal.cells} cells, "
              f"{deal.ranks} ranks\n% cards: " + " ".join(f"{number}={deal.name(numbering.card(number))}"
                                                          for number in cards) + "\n")
    start = [] if deal.foundation is None else [(deal.foundation.rank,)]
    return (header + f"steps({len(cards)}).\ncells({deal.cells}).\n" + facts("start_rank", start)
            + pile_facts(cards, numbering.rank, lambda number: None if numbering.above(number) == NO_CARD
                         else numbering.above(number), deal.ranks, False))


def fixed_files() -> dict[str, str]:
    """The files that need no deal: the program."""
    return {PROGRAM_FILE: program(PROGRAM_FILE)}


def build(deal: WormHoleDeal) -> ModelFiles:
    """The program and the deal's facts; the decode map reads the play(C, T) and park(C, T) atoms."""
    return ModelFiles({**fixed_files(), FACTS_FILE: deal_facts(deal)}, FACTS_FILE,
                      lambda shown, source: decode(shown, source, deal),
                      {"cards": len(deal.cards), "cells": deal.cells})


def decode(shown: Sequence[object], source: str, deal: WormHoleDeal) -> tuple[Move, ...]:
    """The moves of one answer set: before step T the cards parked in its gap (top card first), then
    the card played at T."""
    numbering = Numbering(deal.black_hole)
    plays = steps(atoms([atom for atom in shown if not str(atom).startswith("park(")], "play", 2, source),
                  numbering.size - 1, source)
    if sorted(number for number, _ in plays) != list(range(1, numbering.size)):
        raise InputError(source, None, "the answer set does not play every card once")
    parks: dict[int, list[int]] = {}
    for number, gap in atoms([atom for atom in shown if str(atom).startswith("park(")], "park", 2, source):
        if not 0 < number < numbering.size:
            raise InputError(source, None, f"park({number},{gap}) names no card")
        parks.setdefault(gap, []).append(number)
    moves = []
    for number, step in plays:
        moves += [Move.parked(numbering.card(parked)) for parked in sorted(parks.get(step, ()))]  # top card first
        moves.append(Move.play(numbering.card(number)))
    return tuple(moves)
