"""How a card is drawn on the replay page, for the games' `page` hooks: plain data the page's script shows."""

from __future__ import annotations

from patience.cards import RANK_LETTERS, STANDARD_RANKS, SUIT_SYMBOLS, Card

RED = ("H", "D")
# suits beyond the four standard ones (generalised deals) get their own colours
EXTRA_COLOURS = ("blue", "green", "purple", "orange", "teal", "brown")


def face(name: str, rank_label: str, suit_letter: str | None, suit: int) -> dict[str, str]:
    """How a card is drawn: its name (as the validator writes it), rank label, suit symbol, colour."""
    if suit_letter is not None:
        return {"name": name, "rank": rank_label, "suit": SUIT_SYMBOLS[suit_letter],
                "colour": "red" if suit_letter in RED else "black"}
    return {"name": name, "rank": rank_label, "suit": f"s{suit}", "colour": EXTRA_COLOURS[suit % len(EXTRA_COLOURS)]}


def rank_label(rank: int, ranks: int, prefix: str = "r") -> str:
    """A rank as a card shows it: A 2-10 J Q K in a standard deck's ranks, else `r3` (from 0)."""
    if ranks != STANDARD_RANKS:
        return f"{prefix}{rank}"
    return "10" if RANK_LETTERS[rank] == "T" else RANK_LETTERS[rank]


def card_face(card: Card, ranks: int) -> dict[str, str]:
    """A `Card` of a deal of `ranks` ranks (suits S H D C, then numbered suits)."""
    return face(card.name(ranks), rank_label(card.rank, ranks), "SHDC"[card.suit] if card.suit < 4 else None,
                card.suit)
