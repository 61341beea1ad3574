"""Late Binding Solitaire as PDDL (STRIPS with typing): the domain models/lbs-domain.pddl and a problem per deal.

Piles keep the slot of their first card (p1..pn); `left` links the slots still in the row, ending at
the slot `end`, so "one place left" and "three places left" are one and three links. Slot p1 never
moves (nothing lies left of it), so the goal is `(left p1 end)`: one pile left.
"""

from __future__ import annotations

from collections.abc import Sequence

from patience.errors import InputError
from patience.generators.files import ModelFiles
from patience.generators.pddl.common import DOMAIN_FILE, PROBLEM_FILE, Action
from patience.generators.texts import fixed_model
from patience.lbs.deal import LBSDeal
from patience.lbs.rules import Move
from patience.syntax import identifier

MODEL_DOMAIN_FILE = "lbs-domain.pddl"  # in models/
TITLE = "PDDL planning task (FF, Fast Downward, pyperplan)"
OPTIONS = ()
SHOW = {"domain": DOMAIN_FILE}


def problem(deal: LBSDeal) -> str:
    n = len(deal.cards)
    slots = [f"p{position}" for position in range(1, n + 1)]
    cards = [f"c{card}" for card in deal.cards]
    facts = [f"(left {a} {b})" for a, b in zip(slots, [*slots[1:], "end"], strict=True)]
    facts += [f"(top {slot} {card})" for slot, card in zip(slots, cards, strict=True)]
    facts += [f"(match c{a} c{b})" for a in deal.cards for b in deal.cards if a != b and deal.matches(a, b)]
    return (f"(define (problem {identifier('pddl', deal.name)}) (:domain late-binding-solitaire)\n"
            f"  (:objects {' '.join(slots)} end - slot {' '.join(cards)} - card)\n"
            f"  (:init\n    " + "\n    ".join(facts) + ")\n"
            "  (:goal (left p1 end)))\n")


def plan_moves(deal: LBSDeal, plan: Sequence[Action], source: str = "plan") -> tuple[Move, ...]:
    """1-based (from, to) positions of a plan's moves, found by following the slots in the row."""
    row = [f"p{position}" for position in range(1, len(deal.cards) + 1)]
    moves = []
    for action in plan:
        if action.operator not in ("move-one", "move-three") or len(action.arguments) < 2:
            raise InputError(source, action.line, f"not an LBS move: {action.operator}")
        moved, target = action.arguments[0], action.arguments[1]
        if moved not in row or target not in row:
            raise InputError(source, action.line, f"slot {moved if moved not in row else target} is not in the row")
        moves.append((row.index(moved) + 1, row.index(target) + 1))
        row.remove(moved)
    return tuple(moves)


def domain() -> str:
    return fixed_model(MODEL_DOMAIN_FILE)


def fixed_files() -> dict[str, str]:
    return {DOMAIN_FILE: domain()}


def build(deal: LBSDeal) -> ModelFiles:
    """domain.pddl and problem.pddl; the decode map follows the slots of a plan's moves."""
    return ModelFiles({DOMAIN_FILE: domain(), PROBLEM_FILE: problem(deal)}, PROBLEM_FILE,
                      lambda plan, source="plan": plan_moves(deal, plan, source))
