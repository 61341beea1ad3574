"""The LBS deal: a row of card numbers, and its `.param` form (`letting cards be [...]`).

The coursework numbers cards 0..51 with value = card mod 13 and suit = card div 13 (0 hearts,
1 diamonds, 2 clubs, 3 spades). Generalised deals have R ranks (values) and S suits; their `.param`
files add `letting ranks be R` and `letting suits be S`. PyCSP3's Accordion model (xcsp3team/
PyCSP3-models, recreational/Accordion) reads the same numbers of the standard deck as JSON data,
`{"cards": [17, 11, 49]}`: `read_pycsp3` and `write_pycsp3`.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass

from patience import syntax
from patience.caps import MAX_CARDS, MAX_RANKS, MAX_SUITS
from patience.cards import RANK_LETTERS, in_players_words
from patience.deal import Drawn
from patience.errors import InputError, quote
from patience.reading import at_most, lines, load_json, numbered_lines, read_text, small_int

STANDARD_RANKS, STANDARD_SUITS = 13, 4
SUIT_LETTERS = "HDCS"  # the coursework's suit order
_LETTING = re.compile(r"^letting\s+(\w+)\s+be\s+(.+)$")
# PyCSP3's Accordion data: a JSON object with a "cards" key (Black Hole's PyCSP3 JSON has "m" and "piles")
_PYCSP3_CARDS = re.compile(r'"cards"[ \t\r\n]*:')
PYCSP3_SHAPE = '{"cards": [card numbers 0..51]} (PyCSP3\'s Accordion data)'


@dataclass(frozen=True)
class LBSDeal(Drawn):
    """n cards in a row, left to right (position 1 first)."""

    cards: tuple[int, ...]
    ranks: int = STANDARD_RANKS
    suits: int = STANDARD_SUITS
    name: str = ""

    def __post_init__(self) -> None:
        if not self.cards:
            raise ValueError("a deal needs at least one card")
        if self.ranks < 1 or self.suits < 1:
            raise ValueError("ranks and suits must be positive")
        deck = self.ranks * self.suits
        for card in self.cards:
            if not 0 <= card < deck:
                raise ValueError(f"card {card} is outside 0..{deck - 1}")
        if len(set(self.cards)) != len(self.cards):
            raise ValueError("a card appears twice")

    def value(self, card: int) -> int:
        return card % self.ranks

    def suit(self, card: int) -> int:
        return card // self.ranks

    def matches(self, moved: int, target: int) -> bool:
        """Whether a pile topped by `moved` may go onto one topped by `target`."""
        return self.value(moved) == self.value(target) or self.suit(moved) == self.suit(target)

    def card_name(self, card: int) -> str:
        """`6S`, `TH` for a standard deck; `v14s2` for generalised cards, and for a number past a standard deck's
        (a certificate's position may hold one)."""
        if self.ranks == STANDARD_RANKS and self.suits <= STANDARD_SUITS and card < STANDARD_RANKS * STANDARD_SUITS:
            return _standard_name(card)
        return f"v{self.value(card)}s{self.suit(card)}"

    @property
    def standard(self) -> bool:
        return self.ranks == STANDARD_RANKS and self.suits == STANDARD_SUITS


def read_param(text: str, source: str) -> LBSDeal:
    """An Essence Prime parameter file: `letting cards be [...]`, `$` comments, optional ranks/suits."""
    lettings: dict[str, tuple[str, int]] = {}
    for number, raw in numbered_lines(text):
        line = raw.split("$", 1)[0].strip()
        if not line or line.lower().startswith("language"):
            continue
        match = _LETTING.match(line)
        if not match:
            raise InputError(source, number, f"not a letting: {quote(line)}")
        lettings[match.group(1)] = (match.group(2).strip(), number)
    if "cards" not in lettings:
        raise InputError(source, 1, "no `letting cards be [...]`")
    cards_text, cards_line = lettings["cards"]
    # counted before the list is matched: a repeated group's matching costs memory per repeat
    at_most(cards_text.count(",") + 1, MAX_CARDS, "cards", source, cards_line)
    if not re.fullmatch(r"\[\s*-?[0-9]{1,9}(?:\s*,\s*-?[0-9]{1,9})*+\s*\]", cards_text):
        raise InputError(source, cards_line, "cards must be a list of integers like [44, 29, 31]")
    sizes = {}
    for key, default, cap in (("ranks", STANDARD_RANKS, MAX_RANKS), ("suits", STANDARD_SUITS, MAX_SUITS)):
        value_text, value_line = lettings.get(key, (str(default), 1))
        value = small_int(value_text)
        if value is None or value < 1:
            raise InputError(source, value_line, f"{key} must be a positive integer")
        at_most(value, cap, key, source, value_line)
        sizes[key] = value
    cards = tuple(int(token) for token in cards_text.strip("[] ").split(","))
    at_most(len(cards), MAX_CARDS, "cards", source, cards_line)
    name = source.rsplit("/", 1)[-1].removesuffix(".param")
    try:
        return LBSDeal(cards, sizes["ranks"], sizes["suits"], name)
    except ValueError as error:
        raise InputError(source, cards_line, str(error)) from None


def read_dzn(text: str, source: str) -> LBSDeal:
    """A MiniZinc instance of the coursework: `cards = [...];` (over one line or several) and `%`
    comments, nothing else (a student's model declares the cards only; the deck is the standard one)."""
    body = "\n".join(raw.split("%", 1)[0] for raw in lines(text))
    first = next((number for number, line in numbered_lines(body) if line.strip()), 1)
    # counted before the list is matched; possessive, so the match keeps no state per card
    at_most(body.count(",") + 1, MAX_CARDS, "cards", source, first)
    match = re.fullmatch(r"\s*cards\s*=\s*\[\s*([0-9]{1,9}(?:\s*,\s*[0-9]{1,9})*+)\s*\]\s*;?\s*", body)
    if match is None:
        raise InputError(source, first, "expected only `cards = [44, 29, 31];`")
    name = source.rsplit("/", 1)[-1].removesuffix(".dzn")
    try:
        return LBSDeal(tuple(int(token) for token in match.group(1).split(",")), name=name)
    except ValueError as error:
        raise InputError(source, first, str(error)) from None


def is_pycsp3(text: str) -> bool:
    """Whether `text` is a JSON object with a "cards" key: PyCSP3's Accordion data."""
    return text.lstrip().startswith("{") and _PYCSP3_CARDS.search(text) is not None


def read_pycsp3(text: str, source: str) -> LBSDeal:
    """PyCSP3's Accordion data, `{"cards": [...]}`: the standard deck's numbers 0..51 (value c mod 13,
    suit c div 13, as the coursework numbers them), left to right; named by the file, as `.param` deals."""
    # one comma a card: counted before json.loads builds every value of a long document
    at_most(text.count(","), MAX_CARDS, "cards (commas)", source, None)
    document = load_json(text, source)
    if not isinstance(document, dict) or "cards" not in document:
        raise InputError(source, 1, f"expected {PYCSP3_SHAPE}")
    extra = sorted(set(document) - {"cards"})
    if extra:
        raise InputError(source, None, f"unknown key {quote(extra[0])}: PyCSP3's Accordion data holds only \"cards\"")
    cards = document["cards"]
    if not isinstance(cards, list) or not cards:
        raise InputError(source, None, "\"cards\" must be a non-empty list of card numbers 0..51")
    deck = STANDARD_RANKS * STANDARD_SUITS
    seen: set[int] = set()
    for index, card in enumerate(cards):
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < deck:
            raise InputError(source, None, f"cards[{index}] is {quote(json.dumps(card))}, not a card number 0..51")
        if card in seen:
            raise InputError(source, None, f"cards[{index}]: card {card} "
                                           f"({in_players_words(_standard_name(card), True)}) appears twice")
        seen.add(card)
    return LBSDeal(tuple(cards), name=source.rsplit("/", 1)[-1].removesuffix(".json"))


def write_pycsp3(deal: LBSDeal) -> str:
    """The deal as PyCSP3's Accordion data, laid out byte for byte as its example 11-01.json; a
    ValueError for a generalised deal, which the model (cards 0..51, rank c mod 13) cannot hold."""
    if not deal.standard:
        raise ValueError(f"PyCSP3's Accordion data holds only standard deals (13 values, 4 suits), "
                         f"not {deal.ranks} values of {deal.suits} suits")
    return '{\n    "cards": [' + ", ".join(map(str, deal.cards)) + "]\n}\n"


def _standard_name(card: int) -> str:
    return RANK_LETTERS[card % STANDARD_RANKS] + SUIT_LETTERS[card // STANDARD_RANKS]


def write_param(deal: LBSDeal, comment: str = "") -> str:
    """The `.param` text Savile Row reads; ranks and suits only for generalised deals."""
    lines = [syntax.comment("eprime", comment)] if comment else []
    lines.append(f"letting cards be [{','.join(map(str, deal.cards))}]")
    if not deal.standard:
        lines += [f"letting ranks be {deal.ranks}", f"letting suits be {deal.suits}"]
    return "\n".join(lines) + "\n"


def random_deal(n: int, seed: int, ranks: int = STANDARD_RANKS, suits: int = STANDARD_SUITS) -> LBSDeal:
    """n distinct cards drawn from the deck by Python's seeded generator; named LBS<n>_<seed>."""
    if not 1 <= n <= min(ranks * suits, MAX_CARDS):
        raise ValueError(f"--cards must be between 1 and {min(ranks * suits, MAX_CARDS)}")
    cards = random.Random(seed).sample(range(ranks * suits), n)
    return LBSDeal(tuple(cards), ranks, suits, f"LBS{n}_{seed}")


def deal_text(n: int, seed: int, ranks: int = STANDARD_RANKS, suits: int = STANDARD_SUITS) -> tuple[str, str]:
    """(file name, `.param` text) of the seeded deal."""
    deal = random_deal(n, seed, ranks, suits)
    return f"{deal.name}.param", write_param(deal, f"LBS instance with n = {n}, seed = {seed}")


def load_deal(path: str) -> LBSDeal:
    """Read an LBS `.param` file; a missing or unreadable file is an InputError like any bad input."""
    return read_param(read_text(path), path)
