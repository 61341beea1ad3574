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

import yaml

from patience.binary_star.deal import BinaryStarDeal
from patience.cards import STANDARD_RANKS, Card, parse_card
from patience.errors import InputError

FOUNDATIONS = "Foundations:"
FORMS = ("board", "yaml")
_TWO_FOUNDATIONS = re.compile(r"^\s*Foundations:\s*\S+(\s+\S+)+\s*$")
_YAML_KEY = re.compile(r"^foundations:", re.MULTILINE)


def detect(text: str) -> bool:
    """Board text with more than one foundation card, or YAML with a `foundations` list."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return bool(_TWO_FOUNDATIONS.match(first)) or _YAML_KEY.search(text) is not None


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
    numbered = [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not numbered or not numbered[0][1].startswith(FOUNDATIONS):
        raise InputError(source, numbered[0][0] if numbered else 1, f"expected '{FOUNDATIONS} AS KH'")
    first_number, first_line = numbered[0]
    foundations = tuple(_card(token, source, first_number) for token in first_line[len(FOUNDATIONS):].split())
    if not foundations:
        raise InputError(source, first_number, "expected a start card for each foundation")
    piles = tuple(tuple(reversed([_card(token, source, number) for token in line.split()]))
                  for number, line in numbered[1:])
    if not piles:
        raise InputError(source, first_number, "no piles after the foundation line")
    return BinaryStarDeal(piles, foundations, STANDARD_RANKS)


def write_board(deal: BinaryStarDeal) -> str:
    if deal.ranks != STANDARD_RANKS or any(card.suit >= 4 for card in deal.cards + deal.foundations):
        raise ValueError("board text holds only 13-rank, 4-suit cards: use --to yaml")
    lines = [f"{FOUNDATIONS} " + " ".join(deal.name(card) for card in deal.foundations)]
    lines += [" ".join(deal.name(card) for card in reversed(pile)) for pile in deal.piles]
    return "\n".join(lines) + "\n"


def read_yaml(text: str, source: str) -> BinaryStarDeal:
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise InputError(source, mark.line + 1 if mark is not None else None,
                         f"bad YAML: {getattr(error, 'problem', None) or 'unreadable'}") from None
    if not isinstance(document, dict) or "piles" not in document or "foundations" not in document:
        raise InputError(source, 1, "a Binary Star YAML deal needs 'foundations' and 'piles' lists")
    lines = text.splitlines()

    def line_of(fragment: str) -> int | None:
        return next((number for number, line in enumerate(lines, 1) if fragment in line), None)

    ranks = document.get("ranks", STANDARD_RANKS)
    if not isinstance(ranks, int) or isinstance(ranks, bool) or ranks < 1:
        raise InputError(source, line_of("ranks:"), "'ranks' must be a positive integer")
    foundations = document["foundations"]
    if not isinstance(foundations, list) or not foundations:
        raise InputError(source, line_of("foundations:"), "'foundations' must be a non-empty list of cards")
    piles = document["piles"]
    if not isinstance(piles, list) or not piles or not all(isinstance(pile, list) and pile for pile in piles):
        raise InputError(source, line_of("piles:"), "'piles' must be a non-empty list of non-empty lists")
    try:
        return BinaryStarDeal(
            tuple(tuple(_card(value, source, line_of(str(value))) for value in pile) for pile in piles),
            tuple(_card(value, source, line_of("foundations:")) for value in foundations), ranks)
    except ValueError as error:
        raise InputError(source, 1, str(error)) from None


def write_yaml(deal: BinaryStarDeal) -> str:
    names = [f"[{', '.join(deal.name(card) for card in pile)}]" for pile in deal.piles]
    lines = [f"# {deal.game} deal: {len(deal.cards)} cards in {len(deal.piles)} piles, each pile TOP card first",
             "game: binary_star", f"ranks: {deal.ranks}",
             f"foundations: [{', '.join(deal.name(card) for card in deal.foundations)}]", "piles:"]
    lines += [f"  - {pile}" for pile in names]
    return "\n".join(lines) + "\n"


def _card(value: object, source: str, line: int | None) -> Card:
    try:
        return parse_card(str(value))
    except ValueError as error:
        raise InputError(source, line, str(error)) from None
