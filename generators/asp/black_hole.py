"""Black Hole, All in a Row and generalised deals as an answer set program: the fixed programs
models/asp-black-hole.lp and models/asp-symmetry.lp, and the deal's facts (card numbers of the
constraint models, `eprime.Numbering`: 1.. by depth, then pile; 0, the start card, is no fact)."""

from __future__ import annotations

from collections.abc import Sequence

from patience.cards import Card
from patience.deal import Deal
from patience.errors import InputError
from patience.generators.analysis.black_hole import NO_CARD, Numbering
from patience.generators.asp.facts import (
    SEARCH,
    SEARCH_PREFIX,
    SYMMETRY_FILE,
    atoms,
    deal_model,
    facts,
    pile_facts,
    programs,
    steps,
)
from patience.generators.files import ModelFiles
from patience.options import Switch

PROGRAM_FILE = "asp-black-hole.lp"
TITLE = "answer set program and facts (clingo)"
OPTIONS = (Switch("symmetry-breaking", "on", "post the paper's conditional symmetry breaking"), SEARCH)
SHOW = {"program": PROGRAM_FILE, "symmetry": SYMMETRY_FILE, "heuristic": PROGRAM_FILE.replace("asp-", SEARCH_PREFIX, 1)}


def deal_facts(deal: Deal, symmetry_breaking: bool = True) -> str:
    """The facts of one deal."""
    numbering = Numbering(deal)
    cards = range(1, numbering.size)
    lines = [f"% {deal.game} deal: {len(deal.cards)} cards in {len(deal.piles)} piles, {deal.ranks} ranks",
             "% cards: " + " ".join(f"{number}={deal.name(numbering.card(number))}" for number in cards) + "\n"]
    start = [] if deal.foundation is None else [(deal.foundation.rank,)]
    return ("\n".join(lines) + f"steps({len(cards)}).\n" + facts("start_rank", start)
            + pile_facts(cards, numbering.rank, lambda number: None if numbering.above(number) == NO_CARD
                         else numbering.above(number), deal.ranks, symmetry_breaking))


def fixed_files(search: str = "paper") -> dict[str, str]:
    """The files that need no deal: the programs."""
    return programs(PROGRAM_FILE, search)


def build(deal: Deal, symmetry_breaking: bool = True, search: str = "paper") -> ModelFiles:
    """The programs and the deal's facts; the decode map reads the play(C, T) atoms."""
    numbering = Numbering(deal)
    return deal_model(PROGRAM_FILE, search, deal_facts(deal, symmetry_breaking), symmetry_breaking,
                      lambda shown, source: decode(shown, source, numbering))


def decode(shown: Sequence[object], source: str, numbering: Numbering) -> tuple[Card, ...]:
    """Cards in play order from one answer set's play(C, T) atoms."""
    plays = steps(atoms(shown, "play", 2, source), numbering.size - 1, source)
    if sorted(card for card, _ in plays) != list(range(1, numbering.size)):
        raise InputError(source, None, "the answer set does not play every card once")
    return numbering.decode([card for card, _ in plays])
