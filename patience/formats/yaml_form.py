"""YAML deals, the one text form that holds generalised deals (any ranks, suits, pile heights).

    ranks: 13
    foundation: AS          # or null for an empty foundation
    piles:                  # each pile TOP card first
      - [4D, 9S, 8S]
    meta: {...}             # optional, ignored by the deal (e.g. the SAT reduction's labels)
"""

from __future__ import annotations

from typing import Any

import yaml

from patience.caps import MAX_CARDS, MAX_PILES, MAX_RANKS, MAX_SUITS
from patience.cards import STANDARD_RANKS, Card, parse_card
from patience.deal import Deal
from patience.errors import InputError
from patience.reading import at_most, compose_yaml, construct_yaml, yaml_child, yaml_items, yaml_line


def detect(text: str) -> bool:
    return "piles:" in text


def read(text: str, source: str) -> Deal:
    root = compose_yaml(text, source)
    document = construct_yaml(root, source)
    if not isinstance(document, dict) or "piles" not in document:
        raise InputError(source, 1, "a YAML deal needs a 'piles' list")
    ranks = document.get("ranks", STANDARD_RANKS)
    ranks_line = yaml_line(yaml_child(root, "ranks"))
    if not isinstance(ranks, int) or isinstance(ranks, bool) or ranks < 1:
        raise InputError(source, ranks_line, "'ranks' must be a positive integer")
    at_most(ranks, MAX_RANKS, "ranks", source, ranks_line)
    piles_node = yaml_child(root, "piles")
    piles_value = document["piles"]
    if not isinstance(piles_value, list) or not piles_value:
        raise InputError(source, yaml_line(piles_node), "'piles' must be a non-empty list of lists")
    at_most(len(piles_value), MAX_PILES, "piles", source, yaml_line(piles_node))
    foundation_node = yaml_child(root, "foundation")
    foundation_value = document.get("foundation")
    foundation = None if foundation_value is None else card_in_deal(
        foundation_value, ranks, source, yaml_line(foundation_node))
    start = {} if foundation is None else {foundation: yaml_line(foundation_node)}
    return Deal(tuple(read_piles(piles_value, piles_node, ranks, source, start)), foundation, ranks)


def read_piles(piles_value: list, piles_node: yaml.Node | None, ranks: int, source: str,
               start_cards: dict[Card, int | None]) -> list[tuple[Card, ...]]:
    """The piles of a YAML deal, each card checked where it is written: name, rank, not seen before
    (`start_cards`, the foundations' cards, by their lines)."""
    seen = dict(start_cards)
    piles, count = [], len(seen)
    pile_nodes: list[yaml.Node | None] = [*yaml_items(piles_node)] or [None] * len(piles_value)
    for pile, pile_node in zip(piles_value, pile_nodes, strict=True):
        if not isinstance(pile, list) or not pile:
            raise InputError(source, yaml_line(pile_node), "every pile must be a non-empty list of cards")
        count += len(pile)
        at_most(count, MAX_CARDS, "cards", source, yaml_line(pile_node))
        cards = []
        card_nodes: list[yaml.Node | None] = [*yaml_items(pile_node)] or [pile_node] * len(pile)
        for value, node in zip(pile, card_nodes, strict=True):
            line = yaml_line(node)
            card = card_in_deal(value, ranks, source, line)
            if card in seen:
                raise InputError(source, line, f"card {card.name(ranks)} appears twice (first on line {seen[card]})")
            seen[card] = line
            cards.append(card)
        piles.append(tuple(cards))
    return piles


def write(deal: Deal, meta: dict[str, Any] | None = None) -> str:
    foundation = "null" if deal.foundation is None else deal.name(deal.foundation)
    lines = [
        f"# {deal.game} deal: {len(deal.cards)} cards in {len(deal.piles)} piles, each pile TOP card first",
        f"ranks: {deal.ranks}",
        f"foundation: {foundation}",
        "piles:",
    ]
    lines += ["  - [" + ", ".join(deal.name(card) for card in pile) + "]" for pile in deal.piles]
    text = "\n".join(lines) + "\n"
    if meta:
        text += yaml.safe_dump({"meta": meta}, sort_keys=False, default_flow_style=None)
    return text


def card_in_deal(value: object, ranks: int, source: str, line: int | None) -> Card:
    """A card name of a deal with `ranks` ranks; InputError at `line` if it is none."""
    try:
        card = parse_card(str(value))
    except ValueError as error:
        raise InputError(source, line, str(error)) from None
    if card.rank >= ranks:
        raise InputError(source, line, f"card {card.name(ranks)} has no rank in 0..{ranks - 1}")
    at_most(card.suit + 1, MAX_SUITS, "suits", source, line)
    return card
