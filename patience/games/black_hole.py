"""Black Hole, All in a Row and generalised Black Hole: one deal type, one validator, five deal forms."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import ClassVar

from patience.answers import read_answer
from patience.cards import Card
from patience.deal import Deal
from patience.formats import FORMATS, parse_deal, write_deal
from patience.games import Game
from patience.games.faces import card_face
from patience.games.shrinking import simpler_order, smaller_piles
from patience.names import BLACK_HOLE, GAME_TITLES
from patience.validator import Replay, replay, without_start_card


class BlackHoleFamily(Game[Deal]):
    """A move is the card played onto the foundation; a win plays every card."""

    name: ClassVar[str] = BLACK_HOLE
    title: ClassVar[str] = "Black Hole, All in a Row and generalised deals"
    deal_type: ClassVar[type] = Deal
    forms: ClassVar[tuple[str, ...]] = tuple(FORMATS)
    native_search: ClassVar[str | None] = "patience.runners.native:solve_black_hole"
    survey_search: ClassVar[str | None] = "patience.survey.decide:decide_black_hole"
    posed_deals: ClassVar[str | None] = "patience.grading.hunt:posed_black_hole"

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
