"""Late Binding Solitaire as an answer set program: the fixed program models/asp-lbs.lp and the
deal's facts (the row, and which cards match: same suit or same value)."""

from __future__ import annotations

from collections.abc import Sequence

from patience.errors import InputError
from patience.generators.asp.facts import FACTS_FILE, atoms, facts, program, steps
from patience.generators.files import ModelFiles
from patience.lbs.deal import LBSDeal
from patience.syntax import comment

PROGRAM_FILE = "asp-lbs.lp"
TITLE = "answer set program and facts (clingo)"
OPTIONS = ()
SHOW = {"program": PROGRAM_FILE}


def deal_facts(deal: LBSDeal) -> str:
    """The row and the matching pairs among its cards."""
    cards = " ".join(deal.card_name(card) for card in deal.cards)
    return (comment("asp", f"LBS deal {deal.name}: {cards}" if deal.name else f"LBS deal: {cards}") + "\n"
            f"cards({len(deal.cards)}).\n" + facts("pile", enumerate(deal.cards, 1))
            + facts("matches", ((moved, target) for moved in deal.cards for target in deal.cards
                                if moved != target and deal.matches(moved, target))))


def fixed_files() -> dict[str, str]:
    """The files that need no deal: the program."""
    return {PROGRAM_FILE: program(PROGRAM_FILE)}


def build(deal: LBSDeal) -> ModelFiles:
    """The program and the deal's facts; the decode map reads the move(T, F, D) atoms."""
    return ModelFiles({**fixed_files(), FACTS_FILE: deal_facts(deal)}, FACTS_FILE,
                      lambda shown, source: decode(shown, source, len(deal.cards) - 1))


def decode(shown: Sequence[object], source: str, moves: int) -> tuple[tuple[int, int], ...]:
    """(from, to) 1-based pairs in order from one answer set's move(T, F, D) atoms."""
    found = steps([(origin, distance, step) for step, origin, distance in atoms(shown, "move", 3, source)],
                  moves, source)
    if any(distance not in (1, 3) for _, distance, _ in found):
        raise InputError(source, None, "a move of neither 1 nor 3 places in the answer set")
    return tuple((origin, origin - distance) for origin, distance, _ in found)
