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

from patience.cards import Card, parse_card
from patience.deal import Deal
from patience.errors import InputError


def detect(text: str) -> bool:
    return "piles:" in text


def read(text: str, source: str) -> Deal:
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(error, "problem", None) or "bad YAML"
        raise InputError(source, line, f"bad YAML: {problem}") from None
    if not isinstance(document, dict) or "piles" not in document:
        raise InputError(source, 1, "a YAML deal needs a 'piles' list")
    line_of = _line_finder(text)
    ranks = document.get("ranks", 13)
    if not isinstance(ranks, int) or ranks < 1:
        raise InputError(source, line_of("ranks:"), "'ranks' must be a positive integer")
    piles_value = document["piles"]
    if not isinstance(piles_value, list) or not piles_value:
        raise InputError(source, line_of("piles:"), "'piles' must be a non-empty list of lists")
    piles = []
    for pile in piles_value:
        if not isinstance(pile, list) or not pile:
            raise InputError(source, line_of("piles:"), "every pile must be a non-empty list of cards")
        piles.append(tuple(_card(value, source, line_of(str(value))) for value in pile))
    foundation_value = document.get("foundation")
    foundation = None if foundation_value is None else _card(foundation_value, source, line_of("foundation:"))
    try:
        return Deal(tuple(piles), foundation, ranks)
    except ValueError as error:
        raise InputError(source, _line_of_message(text, str(error)), str(error)) from None


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


def _card(value: object, source: str, line: int | None) -> Card:
    try:
        return parse_card(str(value))
    except ValueError as error:
        raise InputError(source, line, str(error)) from None


def _line_finder(text: str):
    lines = text.splitlines()

    def line_of(fragment: str) -> int | None:
        for number, line in enumerate(lines, 1):
            if fragment in line:
                return number
        return None

    return line_of


def _line_of_message(text: str, message: str) -> int | None:
    """Point a deal-level error (`card 9S appears twice`) at the card's last line."""
    words = message.split()
    if len(words) > 1 and words[0] == "card":
        hits = [number for number, line in enumerate(text.splitlines(), 1) if words[1] in line]
        return hits[-1] if hits else None
    return None
