"""Binary Star deal forms.

Board text, as pysol_cards prints a Binary Star deal: `Foundations: AS KH` (one start card per
foundation, foundations numbered 1, 2 in this order), then one pile per line, BOTTOM card first.

YAML, the form that also holds generalised deals:

    game: binary_star
    ranks: 13
    foundations: [AS, KH]
    piles:                  # each pile TOP card first
      - [3D, QC, ...]
"""

from __future__ import annotations

import re

from patience.binary_star.deal import BinaryStarDeal
from patience.caps import MAX_CARDS, MAX_FOUNDATIONS, MAX_PILES, MAX_RANKS
from patience.cards import STANDARD_RANKS, Card, parse_card
from patience.errors import InputError
from patience.formats.yaml_form import card_in_deal
from patience.reading import (
    at_most,
    compose_yaml,
    construct_yaml,
    first_line,
    numbered_lines,
    yaml_child,
    yaml_items,
    yaml_line,
)

FOUNDATIONS = "Foundations:"
FORMS = ("board", "yaml")
_TWO_FOUNDATIONS = re.compile(r"^\s*Foundations:\s*\S+(\s+\S+)+\s*$")
_WORD = re.compile(r"\S+")
_YAML_KEY = re.compile(r"^foundations:", re.MULTILINE)


def detect(text: str) -> bool:
    """Board text with more than one foundation card, or YAML with a `foundations` list."""
    return bool(_TWO_FOUNDATIONS.match(first_line(text))) or _YAML_KEY.search(text) is not None


def read(text: str, source: str) -> BinaryStarDeal:
    if text.lstrip().startswith(FOUNDATIONS):
        return read_board(text, source)
    return read_yaml(text, source)


def write(deal: BinaryStarDeal, form: str) -> str:
    if form == "board":
        return write_board(deal)
    if form == "yaml":
        return write_yaml(deal)
    raise ValueError(f"a Binary Star deal is written as {' or '.join(FORMS)}, not {form}")


def read_board(text: str, source: str) -> BinaryStarDeal:
    """The board form; foundations, piles and cards are counted against their caps as the lines are read."""
    numbered = ((number, line.strip()) for number, line in numbered_lines(text) if line.strip())
    first_number, first_line = next(numbered, (1, ""))
    if not first_line.startswith(FOUNDATIONS):
        raise InputError(source, first_number, f"expected '{FOUNDATIONS} AS KH'")
    at_most(_count_words(first_line) - 1, MAX_FOUNDATIONS, "foundations", source, first_number)
    foundations = tuple(_card(token, source, first_number) for token in first_line[len(FOUNDATIONS):].split())
    if not foundations:
        raise InputError(source, first_number, "expected a start card for each foundation")
    piles: list[tuple[Card, ...]] = []
    cards = len(foundations)
    for number, line in numbered:
        at_most(cards + _count_words(line), MAX_CARDS, "cards", source, number)
        piles.append(tuple(reversed([_card(token, source, number) for token in line.split()])))
        cards += len(piles[-1])
        at_most(len(piles), MAX_PILES, "piles", source, number)
    if not piles:
        raise InputError(source, first_number, "no piles after the foundation line")
    return BinaryStarDeal(tuple(piles), foundations, STANDARD_RANKS)


def _count_words(line: str) -> int:
    """The words of a line, counted without a list of them."""
    return sum(1 for _ in _WORD.finditer(line))


def write_board(deal: BinaryStarDeal) -> str:
    if deal.ranks != STANDARD_RANKS or any(card.suit >= 4 for card in deal.cards + deal.foundations):
        raise ValueError("board text holds only 13-rank, 4-suit cards: use --to yaml")
    lines = [f"{FOUNDATIONS} " + " ".join(deal.name(card) for card in deal.foundations)]
    lines += [" ".join(deal.name(card) for card in reversed(pile)) for pile in deal.piles]
    return "\n".join(lines) + "\n"


def read_yaml(text: str, source: str) -> BinaryStarDeal:
    root = compose_yaml(text, source)
    document = construct_yaml(root, source)
    if not isinstance(document, dict) or "piles" not in document or "foundations" not in document:
        raise InputError(source, 1, "a Binary Star YAML deal needs 'foundations' and 'piles' lists")
    ranks = document.get("ranks", STANDARD_RANKS)
    ranks_line = yaml_line(yaml_child(root, "ranks"))
    if not isinstance(ranks, int) or isinstance(ranks, bool) or ranks < 1:
        raise InputError(source, ranks_line, "'ranks' must be a positive integer")
    at_most(ranks, MAX_RANKS, "ranks", source, ranks_line)
    foundations, foundations_node = document["foundations"], yaml_child(root, "foundations")
    if not isinstance(foundations, list) or not foundations:
        raise InputError(source, yaml_line(foundations_node), "'foundations' must be a non-empty list of cards")
    at_most(len(foundations), MAX_FOUNDATIONS, "foundations", source, yaml_line(foundations_node))
    piles, piles_node = document["piles"], yaml_child(root, "piles")
    if not isinstance(piles, list) or not piles or not all(isinstance(pile, list) and pile for pile in piles):
        raise InputError(source, yaml_line(piles_node), "'piles' must be a non-empty list of non-empty lists")
    at_most(len(piles), MAX_PILES, "piles", source, yaml_line(piles_node))
    at_most(sum(map(len, piles)), MAX_CARDS, "cards", source, yaml_line(piles_node))
    try:
        return BinaryStarDeal(
            tuple(tuple(card_in_deal(value, ranks, source, yaml_line(node))
                        for value, node in zip(pile, yaml_items(pile_node), strict=True))
                  for pile, pile_node in zip(piles, yaml_items(piles_node), strict=True)),
            tuple(card_in_deal(value, ranks, source, yaml_line(node))
                  for value, node in zip(foundations, yaml_items(foundations_node), strict=True)), ranks)
    except ValueError as error:
        raise InputError(source, 1, str(error)) from None


def write_yaml(deal: BinaryStarDeal) -> str:
    names = [f"[{', '.join(deal.name(card) for card in pile)}]" for pile in deal.piles]
    lines = [f"# {deal.game} deal: {len(deal.cards)} cards in {len(deal.piles)} piles, each pile TOP card first",
             "game: binary_star", f"ranks: {deal.ranks}",
             f"foundations: [{', '.join(deal.name(card) for card in deal.foundations)}]", "piles:"]
    lines += [f"  - {pile}" for pile in names]
    return "\n".join(lines) + "\n"


def _card(value: str, source: str, line: int) -> Card:
    try:
        return parse_card(value)
    except ValueError as error:
        raise InputError(source, line, str(error)) from None
