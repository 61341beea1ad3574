"""Worm Hole (Solvitaire's `worm-hole`): Black Hole with free cells, any generalised deal, any number of cells."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import ClassVar

from patience.core import Replay
from patience.games import Game, hook
from patience.games.black_hole import smaller_deals
from patience.games.shrinking import simpler_order
from patience.names import WORM_HOLE
from patience.worm_hole import forms, page, rules
from patience.worm_hole.deal import WormHoleDeal
from patience.worm_hole.moves import Move

SOLVER_ANSWERS = "patience.runners.answer_files:read_solver_answer"  # plans, solutions, a solver's output


class WormHole(Game[WormHoleDeal]):
    """A move is a card to the foundation (from its pile or a cell) or a pile's top card parked in an
    empty cell; a win puts every card on the foundation. Answers are `5♠` / `5♠ cell` lines."""

    name: ClassVar[str] = WORM_HOLE
    title: ClassVar[str] = "Worm Hole (Black Hole with free cells) and generalised deals"
    deal_type: ClassVar[type] = WormHoleDeal
    forms: ClassVar[tuple[str, ...]] = forms.FORMS
    native_search: ClassVar[str | None] = "patience.worm_hole.native:native_search"
    survey_search: ClassVar[str | None] = "patience.worm_hole.native:survey_search"
    numbered_deal: ClassVar[str | None] = "patience.worm_hole.deals:numbered_deal"
    random_deal: ClassVar[str | None] = "patience.worm_hole.deals:generalised_deal"
    posed_deals: ClassVar[str | None] = "patience.worm_hole.hunt:posed"

    def detect(self, text: str) -> bool:
        return forms.detect(text)

    def parse_deal(self, text: str, source: str) -> WormHoleDeal:
        return forms.read(text, source)

    def write_deal(self, deal: WormHoleDeal, form: str) -> str:
        return forms.write(deal, form)

    def variant(self, deal: WormHoleDeal) -> str:
        return deal.game

    def describe(self, deal: WormHoleDeal) -> str:
        cells = f"{deal.cells} cell{'s' if deal.cells != 1 else ''}"
        return f"{deal.game}, {len(deal.cards)} cards in {len(deal.piles)} piles, {cells}"

    def read_answer(self, text: str, source: str, deal: WormHoleDeal) -> tuple[Move, ...]:
        """A solver's answer file in any model language (decoded by the deal's model), else `5♠ cell` lines."""
        moves = hook(SOLVER_ANSWERS)(text, source, deal)
        return moves if moves is not None else rules.read_moves(text, source)

    def replay(self, deal: WormHoleDeal, moves: Sequence[Move], complete: bool = True) -> Replay:
        return rules.replay(deal, moves, complete)

    def canonical(self, deal: WormHoleDeal, moves: Sequence[Move]) -> tuple[Move, ...]:
        return rules.without_start_card(deal, moves)

    def move_names(self, deal: WormHoleDeal, moves: Sequence[Move]) -> list[str]:
        return rules.move_names(deal, moves)

    def smaller(self, deal: WormHoleDeal, fixed: bool) -> Iterator[WormHoleDeal]:
        """A cell fewer (unless the shape is fixed), then Black Hole's smaller deals with the same cells."""
        if deal.cells and not fixed:
            yield deal.with_cells(deal.cells - 1)
        for smaller in (simpler_order if fixed else smaller_deals)(deal.black_hole):
            yield WormHoleDeal(smaller, deal.cells)

    def page(self, deal: WormHoleDeal, moves: Sequence[Move] | None, source: str = "") -> dict[str, object]:
        return page.page_data(deal, moves, source)

    def page_script(self) -> str:
        return page.page_script()
