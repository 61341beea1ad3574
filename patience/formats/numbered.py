"""The community's numbered deal formats, each a list of card numbers, piles TOP card first.

- CSPLib prob081 / Savile Row `.param`: `letting initialStacks be [...]`, 51 numbers 0..51,
  0 = A♠ (on the foundation, not listed), rank c mod 13, suit c div 13, entries 3k..3k+2 = pile k.
- MiniZinc `.dzn`: `layout = array2d(1..P, 1..H, [...]);` numbers 1..52, 1 = A♠; a row is a pile.
  A♠ missing from the layout means it starts on the foundation.
- PyCSP3 JSON: `{"m": cards per suit, "piles": [[...]]}`, 0-based numbers, rank c mod m,
  suit c div m; card 0 starts on the foundation.
"""

from __future__ import annotations

import json
import re

from patience.caps import MAX_CARDS, MAX_PILES, MAX_RANKS, MAX_SUITS
from patience.cards import STANDARD_RANKS, Card
from patience.deal import Deal
from patience.errors import InputError, quote
from patience.numeric import whole, whole_value
from patience.reading import at_most, load_json

# Each pattern ends at the list's `[`; the list runs to the first `]` (found by str.find, so no
# pattern ever scans an unclosed list to the end of the file again and again).
_PARAM = re.compile(r"letting\s+initialStacks\s+(?:be|=)\s*\[")
_DZN = re.compile(r"layout\s*=\s*array2d\(\s*1\s*\.\.\s*(\d{1,9})\s*,\s*1\s*\.\.\s*(\d{1,9})\s*,\s*\[")
_DZN_END = re.compile(r"\s*\)")
_NUMBER = re.compile(r"-?\d{1,9}")
_TOKEN = re.compile(r"[^\s,]+")


def detect_param(text: str) -> bool:
    return "initialStacks" in text


def detect_dzn(text: str) -> bool:
    return "array2d" in text and "layout" in text


def detect_json(text: str) -> bool:
    return text.lstrip().startswith("{")


def read_param(text: str, source: str) -> Deal:
    match = _PARAM.search(text)
    end = -1 if match is None else text.find("]", match.end())
    if match is None or end < 0:
        raise InputError(source, 1, "expected 'letting initialStacks be [...]'")
    numbers = _numbers(text, match.end(), end, source)
    if len(numbers) != 51:
        raise InputError(source, _line(text, match.start()), f"expected 51 card numbers, found {len(numbers)}")
    cards = [_numbered_card(number, 0, 52, STANDARD_RANKS, text, offset, source) for number, offset in numbers]
    piles = tuple(tuple(cards[k:k + 3]) for k in range(0, 51, 3))
    return _checked(piles, Card(0, 0), STANDARD_RANKS, text, numbers, source)


def write_param(deal: Deal) -> str:
    _require_black_hole(deal, "param")
    numbers = [standard_number(card) for pile in deal.piles for card in pile]
    return "letting initialStacks be [" + ", ".join(map(str, numbers)) + "]\n"


def read_dzn(text: str, source: str) -> Deal:
    match = _DZN.search(text)
    end = -1 if match is None else text.find("]", match.end())
    if match is None or end < 0 or not _DZN_END.match(text, end + 1):
        raise InputError(source, 1, "expected 'layout = array2d(1..P, 1..H, [...]);'")
    line = _line(text, match.start())
    pile_count = whole(match.group(1), "the piles of array2d(1..P, 1..H)", 1, MAX_PILES, source, line)
    height = whole(match.group(2), "the pile height of array2d(1..P, 1..H)", 1, MAX_CARDS, source, line)
    numbers = _numbers(text, match.end(), end, source)
    if len(numbers) != pile_count * height:
        raise InputError(source, line,
                         f"array2d(1..{pile_count}, 1..{height}) needs {pile_count * height} numbers, "
                         f"found {len(numbers)}")
    cards = [_numbered_card(number - 1, 0, 52, STANDARD_RANKS, text, offset, source) for number, offset in numbers]
    piles = tuple(tuple(cards[k:k + height]) for k in range(0, len(cards), height))
    foundation = None if Card(0, 0) in cards else Card(0, 0)
    return _checked(piles, foundation, STANDARD_RANKS, text, numbers, source)


def write_dzn(deal: Deal) -> str:
    heights = {len(pile) for pile in deal.piles}
    if deal.ranks != STANDARD_RANKS or len(heights) != 1 or deal.foundation not in (None, Card(0, 0)):
        raise ValueError("dzn holds only standard cards in piles of equal height with A♠ or no foundation card")
    rows = [", ".join(str(standard_number(card) + 1) for card in pile) for pile in deal.piles]
    return (f"layout = array2d(1..{len(deal.piles)}, 1..{heights.pop()}, [\n  "
            + ",\n  ".join(rows) + "\n]);\n")


def read_json(text: str, source: str) -> Deal:
    # a deal has one comma per card: counted before json.loads builds every value of a long document
    at_most(text.count(","), MAX_CARDS, "cards (commas)", source, None)
    document = load_json(text, source)
    if not isinstance(document, dict) or "m" not in document:
        raise InputError(source, 1, "expected {\"m\": cards per suit, \"piles\": [[...], ...]}")
    ranks = whole_value(document["m"], "m (cards per suit)", 1, MAX_RANKS, source, 1)  # `true` is no number
    piles_value = document.get("piles")
    if not isinstance(piles_value, list) or not all(isinstance(pile, list) and pile for pile in piles_value):
        raise InputError(source, 1, "'piles' must be a list of non-empty lists of card numbers")
    flat = [number for pile in piles_value for number in pile]
    if not all(isinstance(number, int) and not isinstance(number, bool) and number >= 0 for number in flat):
        raise InputError(source, 1, "card numbers must be non-negative integers")
    at_most(len(flat), MAX_CARDS, "cards", source, 1)
    at_most(max(flat) // ranks + 1, MAX_SUITS, "suits", source, 1)
    piles = tuple(tuple(Card(number % ranks, number // ranks) for number in pile) for pile in piles_value)
    foundation = None if 0 in flat else Card(0, 0)
    try:
        return Deal(piles, foundation, ranks)
    except ValueError as error:
        raise InputError(source, 1, str(error)) from None


def write_json(deal: Deal) -> str:
    if deal.foundation not in (None, Card(0, 0)):
        raise ValueError("PyCSP3 JSON holds only deals whose foundation is card 0 or empty")
    suits = 1 + max(card.suit for card in deal.all_cards)
    number = {card: card.suit * deal.ranks + card.rank for card in deal.all_cards}
    if len(set(number.values())) != len(number) or max(number.values()) >= suits * deal.ranks:
        raise ValueError("PyCSP3 JSON numbers cards rank + m * suit")
    piles = [[number[card] for card in pile] for pile in deal.piles]
    return json.dumps({"m": deal.ranks, "piles": piles}) + "\n"


def standard_number(card: Card) -> int:
    """CSPLib's number of a standard card: rank + 13 * suit."""
    return card.rank + STANDARD_RANKS * card.suit


def _require_black_hole(deal: Deal, form: str) -> None:
    if deal.game != "black_hole":
        raise ValueError(f"{form} holds only standard Black Hole deals (A♠ on the foundation, 17 piles of 3)")


def _numbers(text: str, start: int, end: int, source: str) -> list[tuple[int, int]]:
    """The integers of text[start:end] (a list's body) with their offsets in the whole text."""
    result = []
    for match in _TOKEN.finditer(text, start, end):
        if not _NUMBER.fullmatch(match.group(0)):
            raise InputError(source, _line(text, match.start()), f"{quote(match.group(0))} is not a card number")
        result.append((int(match.group(0)), match.start()))
        if len(result) > MAX_CARDS:
            raise InputError(source, _line(text, match.start()), f"more than {MAX_CARDS:,} card numbers")
    return result


def _numbered_card(number: int, low: int, high: int, ranks: int, text: str, offset: int, source: str) -> Card:
    if not low <= number < high:
        raise InputError(source, _line(text, offset), f"card number {number} out of range")
    return Card(number % ranks, number // ranks)


def _checked(piles: tuple[tuple[Card, ...], ...], foundation: Card | None, ranks: int, text: str,
             numbers: list[tuple[int, int]], source: str) -> Deal:
    seen: set[Card] = set() if foundation is None else {foundation}
    flat = [card for pile in piles for card in pile]
    for card, (number, offset) in zip(flat, numbers, strict=True):
        if card in seen:
            raise InputError(source, _line(text, offset), f"card number {number} appears twice")
        seen.add(card)
    return Deal(piles, foundation, ranks)


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1
