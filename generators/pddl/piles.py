"""What the one-object-per-card PDDL models (Golf, Worm Hole) share: rank and card objects, and
piles as chains of `(on ?c ?p)` facts ending at a base object per pile, `(clear ?p)` on each top."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from patience.cards import Card
from patience.errors import InputError, quote
from patience.generators.pddl.common import RANK_WORDS, Action


def rank_names(ranks: int) -> tuple[str, ...]:
    """ace..king for 13 ranks, rank0.. otherwise."""
    return RANK_WORDS if ranks == len(RANK_WORDS) else tuple(f"rank{rank}" for rank in range(ranks))


def card_objects(cards: Iterable[Card], name: Callable[[Card], str]) -> dict[Card, str]:
    """Card -> its object (`card-3s`, `card-r3s0`, from the deal's `name`), the decode map `card_of`
    reads backwards."""
    return {card: "card-" + name(card).lower() for card in cards}


def base_names(piles: int) -> list[str]:
    return [f"base{number}" for number in range(1, piles + 1)]


def pile_facts(piles: Sequence[Sequence[Card]], objects: Mapping[Card, str]) -> list[str]:
    """Each pile (top card first) as `(clear top)` and `(on card under)` down to its base."""
    facts = []
    for pile, base in zip(piles, base_names(len(piles)), strict=True):
        places = [objects[card] for card in pile] + [base]
        facts.append(f"(clear {places[0]})")
        facts += [f"(on {card} {under})" for card, under in zip(places[:-1], places[1:], strict=True)]
    return facts


def card_of(action: Action, cards: Mapping[str, Card], source: str) -> Card:
    """The card a plan step names first; InputError naming the plan's line if it names none."""
    card = cards.get(action.arguments[0]) if action.arguments else None
    if card is None:
        step = " ".join((action.operator, *action.arguments))
        raise InputError(source, action.line, f"no card of this deal in {quote(step)}")
    return card
