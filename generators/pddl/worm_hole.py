"""Worm Hole as PDDL (STRIPS with typing): the domain models/worm-hole-domain.pddl and a problem per deal.

Black Hole with free cells, one object per card (`card-5s`), one base per pile (`base1`..), the
foundation holding a card, `(hole ?c)` (the virtual `start` when the deal has no foundation card,
which every rank follows). The cells are interchangeable, so the model counts them rather than
naming them: `(free ?n)` with count objects `free0`..`freeK`, and `park` / `play-parked` step the
count down and up; naming cells would give the planner K! equal states for every set of parked
cards. `play` and `play-parked` follow the rank cycle (static `(next ?r ?s)` facts from the deal's
`adjacent`). The goal is every base clear and every cell free.

A plan's step names the card first: `play` and `play-parked` put it on the foundation, `park`
puts it in a cell, which is exactly a Worm Hole move.
"""

from __future__ import annotations

from collections.abc import Sequence

from patience.errors import InputError, quote
from patience.generators.files import ModelFiles
from patience.generators.pddl import piles
from patience.generators.pddl.common import DOMAIN_FILE, PROBLEM_FILE, Action
from patience.generators.texts import fixed_model
from patience.worm_hole.deal import WormHoleDeal
from patience.worm_hole.moves import Move

MODEL_DOMAIN_FILE = "worm-hole-domain.pddl"  # in models/
TITLE = "PDDL planning task (Fast Downward, pyperplan, FF)"
OPTIONS = ()
SHOW = {"domain": DOMAIN_FILE}
START, ANY_RANK = "start", "any-rank"  # the virtual start card of a deal without a foundation card, and its rank
_PARKS = {"play": False, "play-parked": False, "park": True}


def problem(deal: WormHoleDeal) -> str:
    ranks, cards = piles.rank_names(deal.ranks), piles.card_objects(deal.all_cards, deal.name)
    counts = [f"free{number}" for number in range(deal.cells + 1)]
    hole = START if deal.foundation is None else cards[deal.foundation]
    facts = [f"(hole {hole})", f"(free {counts[-1]})"]
    facts += [f"(less {low} {high})" for low, high in zip(counts[:-1], counts[1:], strict=True)]
    facts += [f"(rank-of {cards[card]} {ranks[card.rank]})" for card in deal.all_cards]
    examples = {card.rank: card for card in deal.all_cards}  # adjacency is by rank: one card of each stands in
    facts += [f"(next {ranks[low]} {ranks[high]})" for low in examples for high in examples
              if deal.adjacent(examples[low], examples[high])]
    if deal.foundation is None:
        facts += [f"(rank-of {START} {ANY_RANK})", *(f"(next {ANY_RANK} {ranks[rank]})" for rank in sorted(examples))]
    facts += piles.pile_facts(deal.piles, cards)
    bases = piles.base_names(len(deal.piles))
    start_object = f" {START}" if deal.foundation is None else ""
    start_rank = f" {ANY_RANK}" if deal.foundation is None else ""
    return (f"; {deal.game} deal: {len(deal.cards)} cards in {len(deal.piles)} piles, {deal.cells} cells, "
            f"{'no foundation card' if deal.foundation is None else 'foundation ' + deal.name(deal.foundation)}\n"
            f"(define (problem deal) (:domain worm-hole)\n"
            f"  (:objects {' '.join(cards.values())}{start_object} - card\n"
            f"    {' '.join(bases)} - place {' '.join(ranks)}{start_rank} - rank {' '.join(counts)} - count)\n"
            f"  (:init\n    " + "\n    ".join(facts) + ")\n"
            f"  (:goal (and {' '.join(f'(clear {base})' for base in bases)} (free {counts[-1]}))))\n")


def plan_moves(deal: WormHoleDeal, plan: Sequence[Action], source: str = "plan") -> tuple[Move, ...]:
    """The moves of a plan: each step's first argument names the card played or parked."""
    cards = {name: card for card, name in piles.card_objects(deal.cards, deal.name).items()}
    moves = []
    for action in plan:
        park = _PARKS.get(action.operator)
        if park is None:
            raise InputError(source, action.line, f"not a Worm Hole move: {quote(action.operator)}")
        moves.append(Move(piles.card_of(action, cards, source), park))
    return tuple(moves)


def domain() -> str:
    return fixed_model(MODEL_DOMAIN_FILE)


def fixed_files() -> dict[str, str]:
    return {DOMAIN_FILE: domain()}


def build(deal: WormHoleDeal) -> ModelFiles:
    """domain.pddl and problem.pddl; the decode map reads a plan's cards back into Worm Hole moves."""
    return ModelFiles({DOMAIN_FILE: domain(), PROBLEM_FILE: problem(deal)}, PROBLEM_FILE,
                      lambda plan, source="plan": plan_moves(deal, plan, source),
                      {"cards": len(deal.cards), "cells": deal.cells})
