"""Late Binding Solitaire (Accordion, `accordion`): a row of piles; a move puts pile i onto pile i-1 or i-3."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Sequence
from typing import ClassVar

from patience.answers import solve_moves
from patience.caps import MAX_MOVES, QUOTE_CHARS
from patience.cards import STANDARD_RANKS
from patience.errors import InputError, quote
from patience.games import CARD_LETTERS, Game, Sheet, Sizes
from patience.games.faces import face, rank_label
from patience.lbs.deal import LBSDeal, is_pycsp3, read_param, read_pycsp3, write_param, write_pycsp3
from patience.lbs.rules import STEPS, Move, replay
from patience.lbs.solution import Mapping, read_moves
from patience.names import GAME_TITLES, LBS
from patience.reading import at_most, numbered_lines, small_int
from patience.validator import Replay

# `[ \t]*`, not `\s*`: `\s` also eats newlines, and from every line start of a long run of blank
# lines the search would scan the whole run again
_CARDS_LETTING = re.compile(r"^[ \t]*letting[ \t]+cards[ \t]+(?:be|=)", re.MULTILINE)


def read_pairs(text: str, source: str) -> tuple[Move, ...]:
    """One move a line: `FROM TO` or `FROM->TO`, 1-based positions; `#` comments. A line of several
    `FROM->TO` moves (patience solve's `sequence:`) is those moves."""
    pairs: list[Move] = []
    for number, line in numbered_lines(text):
        words = line.split("#", 1)[0].split()
        if len(words) > 1 and all("->" in word for word in words):
            pairs.extend(_arrow_pairs(words, source, number))
            at_most(len(pairs), MAX_MOVES, "moves", source, number)
            continue
        fields = " ".join(words).replace("->", " ").split()
        if not fields:
            continue
        positions = [position for position in map(small_int, fields) if position is not None]
        if len(positions) != 2 or len(fields) != 2:
            raise InputError(source, number, "expected `FROM TO` (two positions)")
        pairs.append((positions[0], positions[1]))
        at_most(len(pairs), MAX_MOVES, "moves", source, number)
    return tuple(pairs)


def _arrow_pairs(words: list[str], source: str, number: int) -> list[Move]:
    """The moves of a line of `FROM->TO` words."""
    moves = []
    for word in words:
        origin, _, target = word.partition("->")
        first, second = small_int(origin), small_int(target)
        if first is None or second is None:
            raise InputError(source, number, f"expected `FROM->TO` (two positions), not {quote(word[:QUOTE_CHARS])}")
        moves.append((first, second))
    return moves


def read_lbs_answer(text: str, source: str, mapping: Mapping | None = None) -> tuple[Move, ...]:
    """A Savile Row `.solution` (its move variables named by `mapping`, or inferred), else `FROM TO` lines."""
    moves = solve_moves(text, source)
    if moves is not None:
        return read_pairs(moves, source)
    if "letting" in text:
        return read_moves(text, source, mapping)
    return read_pairs(text, source)


# the MiniZinc and Essence Prime data
_DATA_NUMBERS = ("`cards` lists the row from left to right (positions 1..n: n is the number of cards). A card "
                 "is a number c from 0: its value is c mod {ranks} (0 is an ace, 12 a king) and its suit c div "
                 "{ranks} (0 ♥, 1 ♦, 2 ♣, 3 ♠), so 0 is the A♥, a card like any other, and {two} the 2♠.")
SHEET = Sheet(
    rules=(
        "Late Binding Solitaire (Accordion): the cards lie in a row, each a pile of one card. A move takes a "
        "pile and puts it on the pile one place or three places to its left, when the two top cards have the "
        "same suit or the same value; the moved pile's top card becomes the top, and the piles to its right "
        "close the gap. The game is won when one pile is left.",
    ),
    outputs=("actionFrom", "actionTo"),
    asp_shown="move(T, F, D): move T takes the pile at position F onto position D",
    numbers={"mzn": _DATA_NUMBERS, "eprime": _DATA_NUMBERS,
             "asp": "pile(P, C): card C at position P of the row (1..N, left to right). A card is a number c from 0: "
             "its value is c mod {ranks} (0 is an ace, 12 a king) and its suit c div {ranks} (0 ♥, 1 ♦, 2 ♣, 3 "
             "♠), so 0 is the A♥, a card like any other, and {two} the 2♠."},
    deal_form=("param", ".param"),
    card_comment={"asp": CARD_LETTERS + "."},
)


class LateBinding(Game[LBSDeal]):
    """A deal is an LBS `.param` (`letting cards be [...]`) or PyCSP3's Accordion data (`json`:
    `{"cards": [...]}`); an answer is a Savile Row `.solution` (actionFrom/actionTo) or `FROM TO` lines."""

    name: ClassVar[str] = LBS
    title: ClassVar[str] = "Late Binding Solitaire"
    deal_type: ClassVar[type] = LBSDeal
    forms: ClassVar[tuple[str, ...]] = ("param", "json")
    whole_form: ClassVar[str] = "json"
    sheet: ClassVar[Sheet | None] = SHEET
    native_search: ClassVar[str | None] = "patience.runners.native:solve_lbs"
    posed_deals: ClassVar[str | None] = "patience.grading.hunt:posed_lbs"
    certificate_walk: ClassVar[str | None] = "patience.certificates:lbs_walk"

    def detect(self, text: str) -> bool:
        return is_pycsp3(text) or _CARDS_LETTING.search(text) is not None

    def parse_deal(self, text: str, source: str) -> LBSDeal:
        return read_pycsp3(text, source) if is_pycsp3(text) else read_param(text, source)

    def write_deal(self, deal: LBSDeal, form: str) -> str:
        if form not in self.forms:
            raise ValueError(f"an LBS deal is written as {' or '.join(self.forms)}, not {form}")
        return write_pycsp3(deal) if form == "json" else write_param(deal)

    def variant(self, deal: LBSDeal) -> str:
        return LBS

    def describe(self, deal: LBSDeal) -> str:
        return f"lbs, {len(deal.cards)} cards in a row"

    def read_answer(self, text: str, source: str, deal: LBSDeal) -> tuple[Move, ...]:
        return read_lbs_answer(text, source)

    def replay(self, deal: LBSDeal, moves: Sequence[Move], complete: bool = True) -> Replay:
        return replay(deal, moves, complete)

    def canonical(self, deal: LBSDeal, moves: Sequence[Move]) -> tuple[Move, ...]:
        return tuple(moves)

    def move_names(self, deal: LBSDeal, moves: Sequence[Move]) -> list[str]:
        return [f"{source}->{target}" for source, target in moves]

    def label(self, deal: LBSDeal) -> str:
        return deal.name

    def named(self, deal: LBSDeal, name: str) -> LBSDeal:
        return dataclasses.replace(deal, name=name)

    def sizes(self, deal: LBSDeal) -> Sizes:
        """A row of cards, each a pile of one, on no foundation."""
        return Sizes(len(deal.cards), (1,) * len(deal.cards), 0, deal.ranks)

    def certificate_numbers(self, deal: LBSDeal) -> tuple[int, int]:
        """The row's top cards, padded after its last by a number above every card (card numbers: value +
        ranks x suit)."""
        return len(deal.cards), deal.ranks * deal.suits

    def smaller(self, deal: LBSDeal, fixed: bool) -> Iterator[LBSDeal]:
        return smaller_rows(deal)

    def page(self, deal: LBSDeal, moves: Sequence[Move] | None, source: str = "") -> dict[str, object]:
        return page_data(deal, moves, source)


def lbs_face(deal: LBSDeal, card: int) -> dict[str, str]:
    """A card of the row: its value and suit (H D C S, then numbered suits)."""
    value, suit = deal.value(card), deal.suit(card)
    named = deal.ranks == STANDARD_RANKS and deal.suits <= 4
    label = rank_label(value, STANDARD_RANKS if named else 0, "v")
    return face(deal.card_name(card), label, "HDCS"[suit] if suit < 4 else None, suit)


def page_data(deal: LBSDeal, moves: Sequence[Move] | None, source: str = "") -> dict[str, object]:
    """Late Binding Solitaire: the row of cards, and the answer's (from, to) moves, 1-based."""
    game: dict[str, object] = {
        "game": LBS, "title": GAME_TITLES[LBS], "name": deal.name,
        "cards": [lbs_face(deal, card) for card in deal.cards], "row": list(range(len(deal.cards))),
        "steps": list(STEPS), "ranks": deal.ranks, "values": [deal.value(card) for card in deal.cards],
        "suits": [deal.suit(card) for card in deal.cards], "answer": None,
    }
    if moves is None:
        return game
    outcome = replay(deal, moves)
    answer: dict[str, object] = {"source": source, "moves": [list(move) for move in moves[:outcome.moves]],
                                 "verdict": outcome.describe(), "fault": None}
    if outcome.fault is not None:
        illegal = moves[outcome.moves] if outcome.moves < len(moves) else None
        answer["fault"] = {"text": outcome.describe(), "move": outcome.moves + 1 if illegal else None,
                           "name": f"{illegal[0]}->{illegal[1]}" if illegal else None,
                           "from": illegal[0] if illegal else None, "to": illegal[1] if illegal else None}
    game["answer"] = answer
    return game


def smaller_rows(deal: LBSDeal) -> Iterator[LBSDeal]:
    """A card fewer, then a card lowered to the one below it in its suit (where that card is not dealt)."""
    cards = deal.cards
    for index in range(len(cards)):
        if len(cards) > 1:
            yield LBSDeal(cards[:index] + cards[index + 1:], deal.ranks, deal.suits, "counterexample")
    for index, card in enumerate(cards):  # a lower card of the same suit, where that card is not dealt
        lower = card - 1
        if card % deal.ranks and lower not in cards:
            yield LBSDeal(cards[:index] + (lower,) + cards[index + 1:], deal.ranks, deal.suits, "counterexample")
