"""Binary Star as PDDL (STRIPS with typing): the domain models/binary-star-domain.pddl and a problem
per deal. Objects are positions `c<pile>-<depth>` (1-based, depth 1 on top), foundations `f1`, `f2`
and ranks; a plan's step names the position played and the foundation, which decode to a `Play`.
"""

from __future__ import annotations

from collections.abc import Sequence

from patience.binary_star.deal import BinaryStarDeal, Play
from patience.errors import InputError, quote
from patience.generators.files import ModelFiles
from patience.generators.pddl.common import DOMAIN_FILE, PROBLEM_FILE, RANK_WORDS, Action
from patience.generators.texts import fixed_model
from patience.numeric import whole_or_none

MODEL_DOMAIN_FILE = "binary-star-domain.pddl"  # in models/
TITLE = "PDDL planning task (FF, Fast Downward, pyperplan)"
OPTIONS = ()
SHOW = {"domain": DOMAIN_FILE}
_FOUNDATION_ARGUMENT = {"play": 2, "play-bottom": 1}


def _rank_names(deal: BinaryStarDeal) -> tuple[str, ...]:
    return RANK_WORDS if deal.ranks == len(RANK_WORDS) else tuple(f"rank{rank}" for rank in range(deal.ranks))


def problem(deal: BinaryStarDeal) -> str:
    ranks = _rank_names(deal)
    positions = {(pile, depth): f"c{pile + 1}-{depth + 1}"
                 for pile, cards in enumerate(deal.piles) for depth in range(len(cards))}
    foundations = [f"f{number}" for number in range(1, len(deal.foundations) + 1)]
    facts = [f"(top {name} {ranks[card.rank]})" for name, card in zip(foundations, deal.foundations, strict=True)]
    facts += [f"(next {ranks[rank]} {ranks[(rank + step) % deal.ranks]})"
              for rank in range(deal.ranks) for step in (1, -1) if deal.ranks > 2 or (deal.ranks == 2 and step == 1)]
    for (pile, depth), name in positions.items():
        below = positions.get((pile, depth + 1))
        facts.append(f"(rank-of {name} {ranks[deal.piles[pile][depth].rank]})")
        facts.append(f"(on {name} {below})" if below else f"(bottom {name})")
        if depth == 0:
            facts.append(f"(available {name})")
    goal = [f"(played {name})" for (pile, depth), name in positions.items() if depth == len(deal.piles[pile]) - 1]
    return (f"; {deal.game} deal: {len(deal.cards)} cards in {len(deal.piles)} piles, "
            f"{len(deal.foundations)} foundations\n"
            f"(define (problem deal) (:domain binary-star)\n"
            f"  (:objects {' '.join(positions.values())} - position\n"
            f"    {' '.join(foundations)} - foundation {' '.join(ranks)} - rank)\n"
            f"  (:init\n    " + "\n    ".join(facts) + ")\n"
            f"  (:goal (and {' '.join(goal)})))\n")


def plan_plays(deal: BinaryStarDeal, plan: Sequence[Action], source: str = "plan") -> tuple[Play, ...]:
    """The plays of a plan: its position argument names the pile and card, the other the foundation."""
    plays = []
    for action in plan:
        where = _FOUNDATION_ARGUMENT.get(action.operator)
        if where is None or len(action.arguments) <= where:
            raise InputError(source, action.line, f"not a Binary Star play: {action.operator}")
        pile, depth = _position(action.arguments[0], deal, source, action.line)
        foundation = action.arguments[where]
        number = whole_or_none(foundation[1:]) if foundation.startswith("f") else None
        if number is None:
            raise InputError(source, action.line, f"{quote(foundation)} is not a foundation")
        plays.append(Play(deal.piles[pile][depth], number - 1, pile))
    return tuple(plays)


def _position(name: str, deal: BinaryStarDeal, source: str, line: int) -> tuple[int, int]:
    pile_text, _, depth_text = name.removeprefix("c").partition("-")
    pile, depth = whole_or_none(pile_text), whole_or_none(depth_text)
    if not name.startswith("c") or pile is None or depth is None:
        raise InputError(source, line, f"{quote(name)} is not a position c<pile>-<depth>")
    pile, depth = pile - 1, depth - 1
    if not (0 <= pile < len(deal.piles) and 0 <= depth < len(deal.piles[pile])):
        raise InputError(source, line, f"the deal has no position {name}")
    return pile, depth


def domain() -> str:
    return fixed_model(MODEL_DOMAIN_FILE)


def fixed_files() -> dict[str, str]:
    return {DOMAIN_FILE: domain()}


def build(deal: BinaryStarDeal) -> ModelFiles:
    """domain.pddl and problem.pddl; the decode map reads a plan's positions back into plays."""
    return ModelFiles({DOMAIN_FILE: domain(), PROBLEM_FILE: problem(deal)}, PROBLEM_FILE,
                      lambda plan, source="plan": plan_plays(deal, plan, source),
                      {"positions": len(deal.cards), "foundations": len(deal.foundations)})
