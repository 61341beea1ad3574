"""Board text of black-hole-solve and PySol: `Foundations: AS`, then one pile per line, BOTTOM
card first (the last card on a line is the one that can be played)."""

from __future__ import annotations

from patience.cards import STANDARD_RANKS, Card, parse_card
from patience.deal import Deal
from patience.errors import InputError

FOUNDATIONS = "Foundations:"


def detect(text: str) -> bool:
    return text.lstrip().startswith(FOUNDATIONS)


def read(text: str, source: str) -> Deal:
    lines = text.splitlines()
    numbered = [(number, line.strip()) for number, line in enumerate(lines, 1) if line.strip()]
    if not numbered:
        raise InputError(source, 1, "empty deal")
    first_number, first_line = numbered[0]
    if not first_line.startswith(FOUNDATIONS):
        raise InputError(source, first_number, f"expected '{FOUNDATIONS} AS' or '{FOUNDATIONS} -'")
    foundation_text = first_line[len(FOUNDATIONS):].split()
    if len(foundation_text) != 1:
        raise InputError(source, first_number, "expected exactly one foundation card or '-'")
    foundation = None if foundation_text[0] == "-" else _card(foundation_text[0], source, first_number)
    piles = []
    for number, line in numbered[1:]:
        bottom_first = [_card(token, source, number) for token in line.split()]
        piles.append(tuple(reversed(bottom_first)))
    if not piles:
        raise InputError(source, first_number, "no piles after the foundation line")
    return _deal(tuple(piles), foundation, source, numbered)


def write(deal: Deal) -> str:
    if deal.ranks != STANDARD_RANKS or any(card.suit >= 4 for card in deal.all_cards):
        raise ValueError("board text holds only 13-rank, 4-suit cards: use --to yaml")
    foundation = "-" if deal.foundation is None else deal.name(deal.foundation)
    lines = [f"{FOUNDATIONS} {foundation}"]
    lines += [" ".join(deal.name(card) for card in reversed(pile)) for pile in deal.piles]
    return "\n".join(lines) + "\n"


def _card(token: str, source: str, line: int) -> Card:
    try:
        return parse_card(token)
    except ValueError as error:
        raise InputError(source, line, str(error)) from None


def _deal(piles: tuple[tuple[Card, ...], ...], foundation: Card | None, source: str,
          numbered: list[tuple[int, str]]) -> Deal:
    """Build the deal, pointing a duplicate card at the line where it appears the second time."""
    seen: dict[Card, int] = {} if foundation is None else {foundation: numbered[0][0]}
    for (number, _), pile in zip(numbered[1:], piles, strict=True):
        for card in pile:
            if card in seen:
                raise InputError(source, number, f"card {card} appears twice (first on line {seen[card]})")
            seen[card] = number
    return Deal(piles, foundation, STANDARD_RANKS)
