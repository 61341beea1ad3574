"""Black Hole, All in a Row and generalised Black Hole: one deal type, one validator, five deal forms."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import ClassVar

from patience.answers import read_answer
from patience.cards import Card
from patience.deal import Deal
from patience.formats import FORMATS, parse_deal, write_deal
from patience.games import CARD_LETTERS, Game, Sheet
from patience.games.faces import card_face
from patience.games.shrinking import simpler_order, smaller_piles
from patience.names import BLACK_HOLE, GAME_TITLES
from patience.validator import Replay, replay, without_start_card

# the MiniZinc and Essence Prime data
_DATA_NUMBERS = ("The cards are numbers, the set CARD = 0..n-1. Card 0 is the start card: the card on the "
                 "foundation (A♠ in Black Hole), or, where the foundation starts empty (All in a Row), a "
                 "virtual card that every card may follow. Card 0 lies in no pile, so 0 in `above` or `below` "
                 "means no card (the card is on top, or at the bottom), never a card of the deal. The pile "
                 "cards are 1..n-1: the top cards first, then the cards under them, and so on. A rank is a "
                 "number from 0 (an ace) up (12 is a king in a standard deck).")
_BEYOND = " (on a generalised deal beyond a standard deck, r3s1 is rank 3 of suit 1, both from 0)."
SHEET = Sheet(
    rules=(
        "The cards lie face up in piles; only the top card of a pile may be played. A card is played onto the "
        "foundation (the black hole) when its rank is one above or one below the rank on top of the foundation, "
        "whatever the suits; ranks wrap around, so a king goes on an ace and an ace on a king. The played card "
        "becomes the foundation's top. The game is won when every card has been played.",
        "Black Hole: 17 piles of 3 cards, the ace of spades on the foundation. All in a Row: 13 piles of 4, the "
        "foundation empty, so the first card played may be any top card. Generalised Black Hole: any number of "
        "ranks and suits, piles of any height, a foundation card or none.",
    ),
    outputs=("x",),
    asp_shown="play(C, T): card C (the data's number) is played at step T",
    numbers={"mzn": _DATA_NUMBERS, "eprime": _DATA_NUMBERS,
             "asp": "card(C): the pile cards are numbers 1..S (steps(S)): the top cards first, then the cards under "
             "them, and so on. There is no card 0: the foundation's card is given by its rank alone, "
             "start_rank(R) (none when the foundation starts empty). A rank is a number from 0 (an ace) up (12 "
             "is a king in a standard deck)."},
    card_comment=dict.fromkeys(("mzn", "eprime", "asp"), CARD_LETTERS + _BEYOND),
)


class BlackHoleFamily(Game[Deal]):
    """A move is the card played onto the foundation; a win plays every card."""

    name: ClassVar[str] = BLACK_HOLE
    title: ClassVar[str] = "Black Hole, All in a Row and generalised deals"
    deal_type: ClassVar[type] = Deal
    forms: ClassVar[tuple[str, ...]] = tuple(FORMATS)
    sheet: ClassVar[Sheet | None] = SHEET
    native_search: ClassVar[str | None] = "patience.runners.native:solve_black_hole"
    survey_search: ClassVar[str | None] = "patience.survey.decide:decide_black_hole"
    posed_deals: ClassVar[str | None] = "patience.grading.hunt:posed_black_hole"
    certificate_walk: ClassVar[str | None] = "patience.certificates:black_hole_walk"
    certificate_search: ClassVar[str | None] = "patience.certificates:black_hole_search"

    def detect(self, text: str) -> bool:
        return any(form.detect(text) for form in FORMATS.values())

    def parse_deal(self, text: str, source: str) -> Deal:
        return parse_deal(text, source)

    def write_deal(self, deal: Deal, form: str) -> str:
        return write_deal(deal, form)

    def variant(self, deal: Deal) -> str:
        return deal.game

    def describe(self, deal: Deal) -> str:
        return f"{deal.game}, {len(deal.cards)} cards in {len(deal.piles)} piles"

    def read_answer(self, text: str, source: str, deal: Deal) -> tuple[Card, ...]:
        return read_answer(text, source, deal)

    def replay(self, deal: Deal, moves: Sequence[Card], complete: bool = True) -> Replay:
        return replay(deal, moves, complete)

    def canonical(self, deal: Deal, moves: Sequence[Card]) -> tuple[Card, ...]:
        return without_start_card(deal, moves)

    def move_names(self, deal: Deal, moves: Sequence[Card]) -> list[str]:
        """The cards played, the foundation's start card first (as the paper prints solutions)."""
        start = [deal.name(deal.foundation)] if deal.foundation is not None else []
        return start + [deal.name(card) for card in without_start_card(deal, moves)]

    def smaller(self, deal: Deal, fixed: bool) -> Iterator[Deal]:
        return simpler_order(deal) if fixed else smaller_deals(deal)

    def page(self, deal: Deal, moves: Sequence[Card] | None, source: str = "") -> dict[str, object]:
        return page_data(deal, moves, source)


def page_data(deal: Deal, sequence: Sequence[Card] | None, source: str = "") -> dict[str, object]:
    """The replay page's data of Black Hole, All in a Row or a generalised deal, with the answer `sequence`
    (None: nothing to replay)."""
    cards = list(deal.all_cards)
    index = {card: number for number, card in enumerate(cards)}
    game: dict[str, object] = {
        "game": deal.game, "title": GAME_TITLES[deal.game], "ranks": deal.ranks,
        "cards": [card_face(card, deal.ranks) for card in cards], "values": [card.rank for card in cards],
        "foundation": None if deal.foundation is None else index[deal.foundation],
        "piles": [[index[card] for card in pile] for pile in deal.piles],
        "answer": None,
    }
    if sequence is None:
        return game
    moves = without_start_card(deal, sequence)
    outcome = replay(deal, sequence)  # as `patience validate` calls it, so the words and numbers are the same
    answer: dict[str, object] = {"source": source, "moves": [index[card] for card in moves[:outcome.moves]],
                                 "verdict": outcome.describe(), "fault": None}
    if outcome.fault is not None:
        illegal = moves[outcome.moves] if outcome.moves < len(moves) else None
        answer["fault"] = {"text": outcome.describe(), "move": outcome.moves + 1 if illegal else None,
                           "name": deal.name(illegal) if illegal else None,
                           "card": index.get(illegal) if illegal else None}
    game["answer"] = answer
    return game


def smaller_deals(deal: Deal) -> Iterator[Deal]:
    """A pile fewer, a card fewer, a rank fewer (its cards gone), then a simpler order."""
    piles = deal.piles
    yield from smaller_piles(deal)
    for rank in reversed(range(deal.ranks)):  # a rank fewer: its cards gone, the ranks above moved down
        if deal.ranks > 1 and (deal.foundation is None or deal.foundation.rank != rank):
            lowered = tuple(tuple(Card(card.rank - (card.rank > rank), card.suit) for card in pile
                                  if card.rank != rank) for pile in piles)
            foundation = deal.foundation and Card(deal.foundation.rank - (deal.foundation.rank > rank),
                                                  deal.foundation.suit)
            if all(lowered):
                yield Deal(lowered, foundation, deal.ranks - 1)
    yield from simpler_order(deal)
