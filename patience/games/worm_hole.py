"""Worm Hole (Solvitaire's `worm-hole`): Black Hole with free cells, any generalised deal, any number of cells."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import ClassVar

from patience.core import Replay
from patience.games import CARD_LETTERS, Game, Sheet, hook
from patience.games.black_hole import smaller_deals
from patience.games.shrinking import simpler_order
from patience.names import WORM_HOLE
from patience.worm_hole import forms, page, rules
from patience.worm_hole.deal import WormHoleDeal
from patience.worm_hole.moves import Move

SOLVER_ANSWERS = "patience.runners.answer_files:read_solver_answer"  # plans, solutions, a solver's output

_BEYOND = " (on a generalised deal beyond a standard deck, r3s1 is rank 3 of suit 1, both from 0)."
_GAPS = ("Gap j is the moment just before play j: the cards parked in one gap go into the cells top card first, "
         "and a parked card is played at a later play.")
_DATA = ("The cards are numbers, the set CARD = 0..n-1. Card 0 is the start card: the card on the foundation (A♠ "
         "in Worm Hole), or, where the foundation starts empty, a virtual card that every card may follow. Card 0 "
         "lies in no pile, so 0 in `above` means no card (the card is on top), never a card of the deal. The pile "
         "cards are 1..n-1: the top cards first, then the cards under them, and so on. `follows` lists every pair "
         "(a, b) where b may be played right after a, and `cells` is the number of cells. x[i] is the card played "
         "at position i (x[0] = 0), g[c] the gap card c is parked in, 0 if it is never parked. " + _GAPS)
SHEET = Sheet(
    rules=(
        "The cards lie face up in piles, with free cells beside them, empty at the start. Only the top card of a "
        "pile may be moved. It may be played onto the foundation when its rank is one above or one below the "
        "rank on top of the foundation, whatever the suits; ranks wrap around, so a king goes on an ace and an "
        "ace on a king. It may also be parked in an empty cell (a cell holds one card), and a parked card may "
        "be played onto the foundation later by the same rule; it never goes back to a pile. The played card "
        "becomes the foundation's top. The game is won when every card has been played, so every pile and "
        "every cell is empty.",
        "Worm Hole is Black Hole with one cell: 17 piles of 3 cards, the ace of spades on the foundation. "
        "Generalised Worm Hole: any number of ranks, suits and cells, piles of any height, a foundation card "
        "or none.",
    ),
    outputs=("x", "g"),
    asp_shown="play(C, T): card C (the data's number) is played at step T; park(C, T): card C is parked in a "
              "cell in the gap before step T. " + _GAPS,
    numbers={"mzn": _DATA, "eprime": _DATA,
             "asp": "card(C): the pile cards are numbers 1..S (steps(S)): the top cards first, then the cards under "
                    "them, and so on. There is no card 0: the foundation's card is given by its rank alone, "
                    "start_rank(R) (none when the foundation starts empty). rank(C, R); above(C, D): D lies on "
                    "C; next_rank(R1, R2): a card of rank R2 may be played on R1; cells(K): the number of cells. "
                    "A rank is a number from 0 (an ace) up (12 is a king in a standard deck)."},
    card_comment=dict.fromkeys(("mzn", "eprime", "asp"), CARD_LETTERS + _BEYOND),
)


class WormHole(Game[WormHoleDeal]):
    """A move is a card to the foundation (from its pile or a cell) or a pile's top card parked in an
    empty cell; a win puts every card on the foundation. Answers are `5♠` / `5♠ cell` lines."""

    name: ClassVar[str] = WORM_HOLE
    title: ClassVar[str] = "Worm Hole (Black Hole with free cells) and generalised deals"
    deal_type: ClassVar[type] = WormHoleDeal
    forms: ClassVar[tuple[str, ...]] = forms.FORMS
    sheet: ClassVar[Sheet | None] = SHEET
    native_search: ClassVar[str | None] = "patience.worm_hole.native:native_search"
    survey_search: ClassVar[str | None] = "patience.worm_hole.native:survey_search"
    numbered_deal: ClassVar[str | None] = "patience.worm_hole.deals:numbered_deal"
    random_deal: ClassVar[str | None] = "patience.worm_hole.deals:generalised_deal"
    posed_deals: ClassVar[str | None] = "patience.worm_hole.hunt:posed"
    certificate_walk: ClassVar[str | None] = "patience.certificates:worm_hole_walk"

    def certificate_numbers(self, deal: WormHoleDeal) -> tuple[int, int]:
        """Black Hole's numbers (the foundation, each pile) and a number for each cell."""
        return 1 + len(deal.piles) + deal.cells, 0

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
