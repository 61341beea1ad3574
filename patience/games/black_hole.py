"""Black Hole, All in a Row and generalised Black Hole: one deal type, one validator, five deal forms."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from patience.answers import read_answer
from patience.cards import Card
from patience.deal import Deal
from patience.formats import FORMATS, parse_deal, write_deal
from patience.names import BLACK_HOLE
from patience.validator import Replay, replay, without_start_card


class BlackHoleFamily:
    """A move is the card played onto the foundation; a win plays every card."""

    name: ClassVar[str] = BLACK_HOLE
    title: ClassVar[str] = "Black Hole, All in a Row and generalised deals"
    deal_type: ClassVar[type] = Deal
    forms: ClassVar[tuple[str, ...]] = tuple(FORMATS)

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
