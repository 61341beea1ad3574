"""Golf (PySolFC's, black-hole-solve's three variants) and generalised Golf, as one game family."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from patience.golf import forms
from patience.golf.deal import GolfDeal
from patience.golf.rules import Move, move_names, read_moves, replay, resolved
from patience.names import GOLF
from patience.validator import Replay


class Golf:
    """A move is the card put onto the foundation (a pile's top card, or the stock's next card:
    `deal`); a win empties every pile. Deals are black-hole-solve's board text or YAML."""

    name: ClassVar[str] = GOLF
    title: ClassVar[str] = "Golf (PySolFC's, black-hole-solve's variants) and generalised Golf"
    deal_type: ClassVar[type] = GolfDeal
    forms: ClassVar[tuple[str, ...]] = forms.FORMS
    native_search: ClassVar[str | None] = "patience.golf.search:native_search"
    survey_search: ClassVar[str | None] = "patience.golf.search:survey_search"

    def detect(self, text: str) -> bool:
        return forms.detect(text)

    def parse_deal(self, text: str, source: str) -> GolfDeal:
        return forms.read(text, source)

    def write_deal(self, deal: GolfDeal, form: str) -> str:
        return forms.write(deal, form)

    def variant(self, deal: GolfDeal) -> str:
        return deal.game

    def describe(self, deal: GolfDeal) -> str:
        rules = "wrap ranks" if deal.wrap_ranks else "queens on kings" if deal.queens_on_kings else "nothing on a king"
        return (f"{deal.game}, {len(deal.cards)} cards in {len(deal.piles)} piles, "
                f"a stock of {len(deal.stock)}, {rules}")

    def read_answer(self, text: str, source: str, deal: GolfDeal) -> tuple[Move, ...]:
        return read_moves(text, source, deal)

    def replay(self, deal: GolfDeal, moves: Sequence[Move], complete: bool = True) -> Replay:
        return replay(deal, moves, complete)

    def canonical(self, deal: GolfDeal, moves: Sequence[Move]) -> tuple[Move, ...]:
        """Every move as the card it plays (a deal as its stock card), without the start card."""
        return resolved(deal, moves)

    def move_names(self, deal: GolfDeal, moves: Sequence[Move]) -> list[str]:
        return move_names(deal, moves)
