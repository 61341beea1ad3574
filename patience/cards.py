"""Cards of any patience deal: a rank on a cycle of R ranks and a suit number.

A standard deck has R = 13 ranks (0 = ace ... 12 = king) and suits 0..3 named S, H, D, C
(this order is the project's one naming choice for numbered formats such as CSPLib `.param`).
Generalised deals may have any number of ranks and any number of suits per rank; their cards
are written ``r<rank>s<suit>`` (e.g. ``r14s2``) whenever the standard name does not apply.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from patience.caps import MAX_RANKS, MAX_SUITS
from patience.errors import quote
from patience.numeric import whole

RANK_LETTERS = "A23456789TJQK"
SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}  # as players write them: 3♠
STANDARD_RANKS = 13

_STANDARD = re.compile(r"^([A2-9TJQK]|10)([SHDC])$", re.IGNORECASE | re.ASCII)  # ASCII: the Kelvin sign K is no K
_GENERAL = re.compile(r"^r([0-9]{1,9})s([0-9]{1,9})$", re.IGNORECASE | re.ASCII)


@dataclass(frozen=True, order=True)
class Card:
    """One card; ranks and suits are 0-based numbers."""

    rank: int
    suit: int

    def name(self, ranks: int = STANDARD_RANKS) -> str:
        """The card's text name in a deal with `ranks` ranks."""
        if ranks == STANDARD_RANKS and self.rank < STANDARD_RANKS and self.suit < len(SUIT_LETTERS):
            return RANK_LETTERS[self.rank] + SUIT_LETTERS[self.suit]
        return f"r{self.rank}s{self.suit}"

    def __str__(self) -> str:
        return self.name(STANDARD_RANKS) if self.rank < STANDARD_RANKS else self.name(0)

    def spoken(self) -> str:
        """The card as players write it (`3♠`, `10♥`), if a standard deck has it; else `r14s2`."""
        if self.rank < STANDARD_RANKS and self.suit < len(SUIT_LETTERS):
            return _spoken(RANK_LETTERS[self.rank], SUIT_LETTERS[self.suit])
        return self.name(0)


def _spoken(rank_letter: str, suit_letter: str) -> str:
    return ("10" if rank_letter == "T" else rank_letter) + SUIT_SYMBOLS[suit_letter]


# a card's name in a message: `3S`, `TH` (any standard-deck game, LBS's too) or `r3s0` (a generalised deal's)
_NAMED = re.compile(r"(?<![\w])(?:([A2-9TJQK])([SHDC])|r([0-9]{1,9})s([0-9]{1,9}))(?![\w])")


def in_players_words(text: str, standard_deck: bool) -> str:
    """A message of the toolkit's (a replay's fault, a winning play) with every card named as players
    write it: `r3s0 is under r2s1` becomes `4♠ is under 3♥`. `standard_deck`: every card of the deal
    is one a standard deck has (at most 13 ranks and 4 suits); otherwise `r3s0` names stay, as no
    player's name fits them."""
    def spoken(match: re.Match[str]) -> str:
        if match.group(1):
            return _spoken(match.group(1), match.group(2))
        return Card(int(match.group(3)), int(match.group(4))).spoken() if standard_deck else match.group(0)
    return _NAMED.sub(spoken, text)


def parse_card(text: str) -> Card:
    """Read a card name (`9S`, `TD`, `10d`, `r14s2`); raise ValueError if it is none."""
    token = text.strip()
    match = _STANDARD.match(token)
    if match:
        rank_text = "T" if match.group(1) == "10" else match.group(1).upper()
        return Card(RANK_LETTERS.index(rank_text), SUIT_LETTERS.index(match.group(2).upper()))
    match = _GENERAL.match(token)
    if match:
        return Card(whole(match.group(1), f"the rank of card {quote(token)}", 0, MAX_RANKS - 1),
                    whole(match.group(2), f"the suit of card {quote(token)}", 0, MAX_SUITS - 1))
    odd = next((char for char in token if not char.isascii()), None)
    hint = "" if odd is None else f" ({unicodedata.name(odd, f'U+{ord(odd):04X}')} is not an ASCII letter or digit)"
    raise ValueError(f"unknown card {quote(token)}{hint}")


def ranks_adjacent(first: int, second: int, ranks: int) -> bool:
    """True when two ranks are one apart on the cycle of `ranks` ranks (K-A wraps)."""
    difference = (first - second) % ranks
    return difference in (1, ranks - 1) and ranks > 1
