"""Golf as PDDL (STRIPS with typing): the domain models/golf-domain.pddl and a problem per deal.

One object per card (`card-3s`), one base per pile (`base1`..) and `talon-end`. The foundation holds
a card, `(hole ?c)`; a pile is a chain of `(on ?c ?p)` facts ending at its base, `(clear ?p)` marks
its top. The stock is an ordered sequence, a linked list in dealing order: `(after ?c ?p)` says ?p is
dealt right after ?c, and `(talon ?p)` is the next card (talon-end once the stock is empty). `play`
puts a clear pile card on the foundation when the variant allows its rank there (static
`(follows ?r ?s)` facts, made from the deal's own `rank_follows`); `deal` puts the next stock card
on it, any rank. The goal is every base clear: every pile empty, the stock as it may be.

No symmetry breaking: the planner searches states (which pile cards are left, which card is on the
foundation, how far the stock is dealt), where Black Hole's interchangeable cards would already be
one state only if the same cards were left. A plan's steps name the card put on the foundation, a
pile card or a stock card, which is exactly a Golf move.
"""

from __future__ import annotations

from collections.abc import Sequence

from patience.cards import Card
from patience.errors import InputError, quote
from patience.generators.files import ModelFiles
from patience.generators.pddl import piles
from patience.generators.pddl.common import DOMAIN_FILE, PROBLEM_FILE, Action
from patience.generators.texts import fixed_model
from patience.golf.deal import GolfDeal

MODEL_DOMAIN_FILE = "golf-domain.pddl"  # in models/
TITLE = "PDDL planning task (Fast Downward, pyperplan, FF)"
OPTIONS = ()
SHOW = {"domain": DOMAIN_FILE}
TALON_END = "talon-end"
_OPERATORS = ("play", "deal")


def card_objects(deal: GolfDeal) -> dict[Card, str]:
    """The object of every card of the deal: the decode map, read backwards by `plan_moves`."""
    return piles.card_objects(deal.all_cards, deal.name)


def problem(deal: GolfDeal) -> str:
    ranks, cards = piles.rank_names(deal.ranks), card_objects(deal)
    bases = piles.base_names(len(deal.piles))
    facts = [f"(hole {cards[deal.foundation]})"]
    facts += [f"(rank-of {cards[card]} {ranks[card.rank]})" for card in deal.all_cards]
    facts += [f"(follows {ranks[base]} {ranks[rank]})" for base in range(deal.ranks) for rank in range(deal.ranks)
              if deal.rank_follows(base, rank)]
    facts += piles.pile_facts(deal.piles, cards)
    stock = [cards[card] for card in deal.stock] + [TALON_END]
    facts.append(f"(talon {stock[0]})")
    facts += [f"(after {card} {following})" for card, following in zip(stock[:-1], stock[1:], strict=True)]
    return (f"; {deal.game} deal: {len(deal.cards)} cards in {len(deal.piles)} piles, a stock of "
            f"{len(deal.stock)}, foundation {deal.name(deal.foundation)}\n"
            f"(define (problem deal) (:domain golf)\n"
            f"  (:objects {' '.join(cards.values())} - card\n"
            f"    {' '.join(bases)} {TALON_END} - place {' '.join(ranks)} - rank)\n"
            f"  (:init\n    " + "\n    ".join(facts) + ")\n"
            f"  (:goal (and {' '.join(f'(clear {base})' for base in bases)})))\n")


def plan_moves(deal: GolfDeal, plan: Sequence[Action], source: str = "plan") -> tuple[Card, ...]:
    """The cards a plan puts on the foundation, in order: each step's first argument names the card
    (a pile card played or the stock card dealt); the replay judges whether each was allowed."""
    cards = {name: card for card, name in card_objects(deal).items()}
    moves = []
    for action in plan:
        if action.operator not in _OPERATORS:
            raise InputError(source, action.line, f"not a Golf move: {quote(action.operator)}")
        card = piles.card_of(action, cards, source)
        if card == deal.foundation:
            raise InputError(source, action.line, f"{quote(action.arguments[0])} is the start card, never moved")
        if (action.operator == "deal") != (card in deal.stock_index):
            what = "not a stock card" if action.operator == "deal" else "a stock card"
            raise InputError(source, action.line, f"{action.operator} of {quote(action.arguments[0])}: {what}")
        moves.append(card)
    return tuple(moves)


def domain() -> str:
    return fixed_model(MODEL_DOMAIN_FILE)


def fixed_files() -> dict[str, str]:
    return {DOMAIN_FILE: domain()}


def build(deal: GolfDeal) -> ModelFiles:
    """domain.pddl and problem.pddl; the decode map reads a plan's cards back into Golf moves."""
    return ModelFiles({DOMAIN_FILE: domain(), PROBLEM_FILE: problem(deal)}, PROBLEM_FILE,
                      lambda plan, source="plan": plan_moves(deal, plan, source),
                      {"cards": len(deal.cards), "stock": len(deal.stock)})
