"""Binary Star (Thomas Warfield): Black Hole with two decks and two foundations, A♠ and K♥."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import ClassVar

from patience.answers import solve_moves
from patience.binary_star import forms
from patience.binary_star.deal import BinaryStarDeal, Play
from patience.binary_star.rules import play_names, read_plays, replay, resolved
from patience.games import CARD_LETTERS, Game, Sheet, Sizes
from patience.games.faces import card_face
from patience.games.shrinking import simpler_order, smaller_piles
from patience.names import BINARY_STAR, GAME_TITLES
from patience.validator import Replay

# the MiniZinc and Essence Prime data
_DATA_NUMBERS = ("Two decks hold every card twice, so a card is known by its place: the set POSITION = 0..n-1 "
                 "numbers the pile cards, the top cards first, then the cards under them. -1 in `above` or "
                 "`below` means no position (on top, or at the bottom); 0 is a card like any other. FOUNDATION "
                 "= 0..k-1: foundation 0 starts with A♠, foundation 1 with K♥ in Binary Star (`start` gives "
                 "their ranks). RANK = 0..ranks-1: 0 is an ace (12 a king in a standard deck). In the comment, "
                 "8H@3 is the 8♥ of pile 3.")
_BEYOND = " (on a generalised deal beyond a standard deck, r3s1 is rank 3 of suit 1, both from 0)."
SHEET = Sheet(
    rules=(
        "Two decks are dealt face up in piles, with two foundations: one starts with an ace, the other with a "
        "king. Only the top card of a pile may be played, onto either foundation, when its rank is one above or "
        "one below the rank on top of that foundation, whatever the suits; ranks wrap around (king on ace, ace "
        "on king). The game is won when every pile card has been played.",
    ),
    outputs=("x", "f"),
    asp_shown="play(P, F, T): the pile card at position P goes on foundation F at step T",
    numbers={"mzn": _DATA_NUMBERS, "eprime": _DATA_NUMBERS,
             "asp": "Two decks hold every card twice, so a card is known by its place: card(P) numbers the pile cards' "
             "positions 1..S, the top cards first, then the cards under them. Foundation 0 starts with A♠, "
             "foundation 1 with K♥ in Binary Star (start(F, R) gives their ranks). A rank is a number from 0 "
             "(an ace; 12 is a king in a standard deck). In the comment, 8H@3 is the 8♥ of pile 3."},
    card_comment=dict.fromkeys(("mzn", "eprime", "asp"), CARD_LETTERS + _BEYOND),
)


class BinaryStar(Game[BinaryStarDeal]):
    """A move is a `Play`: the top card of a pile onto one of the foundations; a win plays every
    pile card. Answers are `CARD FOUNDATION PILE` lines."""

    name: ClassVar[str] = BINARY_STAR
    title: ClassVar[str] = "Binary Star (two decks, two foundations)"
    deal_type: ClassVar[type] = BinaryStarDeal
    forms: ClassVar[tuple[str, ...]] = forms.FORMS
    sheet: ClassVar[Sheet | None] = SHEET
    native_search: ClassVar[str | None] = "patience.runners.native:solve_binary_star"
    survey_search: ClassVar[str | None] = "patience.survey.decide:decide_binary_star"
    certificate_walk: ClassVar[str | None] = "patience.certificates:binary_star_walk"
    posed_deals: ClassVar[str | None] = "patience.grading.hunt:posed_binary_star"

    def detect(self, text: str) -> bool:
        return forms.detect(text)

    def parse_deal(self, text: str, source: str) -> BinaryStarDeal:
        return forms.read(text, source)

    def write_deal(self, deal: BinaryStarDeal, form: str) -> str:
        return forms.write(deal, form)

    def variant(self, deal: BinaryStarDeal) -> str:
        return deal.game

    def describe(self, deal: BinaryStarDeal) -> str:
        return (f"{deal.game}, {len(deal.cards)} cards in {len(deal.piles)} piles, "
                f"{len(deal.foundations)} foundations")

    def read_answer(self, text: str, source: str, deal: BinaryStarDeal) -> tuple[Play, ...]:
        moves = solve_moves(text, source)
        return read_plays(text if moves is None else moves, source)

    def replay(self, deal: BinaryStarDeal, moves: Sequence[Play], complete: bool = True) -> Replay:
        return replay(deal, moves, complete)

    def canonical(self, deal: BinaryStarDeal, moves: Sequence[Play]) -> tuple[Play, ...]:
        """Every play with its pile named, so a stored answer never depends on a search."""
        named = resolved(deal, moves)
        return named if len(named) == len(moves) else tuple(moves)

    def move_names(self, deal: BinaryStarDeal, moves: Sequence[Play]) -> list[str]:
        return play_names(deal, moves)

    def sizes(self, deal: BinaryStarDeal) -> Sizes:
        return Sizes(len(deal.cards), tuple(map(len, deal.piles)), len(deal.foundations), deal.ranks)

    def smaller(self, deal: BinaryStarDeal, fixed: bool) -> Iterator[BinaryStarDeal]:
        return simpler_order(deal) if fixed else smaller_piles(deal)

    def page(self, deal: BinaryStarDeal, moves: Sequence[Play] | None, source: str = "") -> dict[str, object]:
        return page_data(deal, moves, source)


def page_data(deal: BinaryStarDeal, plays: Sequence[Play] | None, source: str = "") -> dict[str, object]:
    """The replay page's data of Binary Star: cards are numbered by position (two decks repeat every
    card), the pile cards pile by pile, then the foundations' start cards; a move is [card, foundation]
    (0-based), its pile the card's."""
    cards = list(deal.cards) + list(deal.foundations)
    starts = range(len(deal.cards), len(cards))
    positions = [[sum(map(len, deal.piles[:index])) + depth for depth in range(len(pile))]
                 for index, pile in enumerate(deal.piles)]
    game: dict[str, object] = {
        "game": deal.game, "title": GAME_TITLES[deal.game], "ranks": deal.ranks,
        "cards": [card_face(card, deal.ranks) for card in cards], "values": [card.rank for card in cards],
        "piles": positions, "foundations": list(starts), "answer": None,
    }
    if plays is None:
        return game
    outcome = replay(deal, plays)  # as `patience validate` calls it: the same words
    legal = resolved(deal, plays)[:outcome.moves]
    taken, moves = [0] * len(deal.piles), []
    for play in legal:
        pile = play.pile
        assert pile is not None, "a resolved play names its pile"
        moves.append([positions[pile][taken[pile]], play.foundation])
        taken[pile] += 1
    answer: dict[str, object] = {"source": source, "moves": moves, "verdict": outcome.describe(), "fault": None}
    if outcome.fault is not None:
        illegal = plays[outcome.moves] if outcome.moves < len(plays) else None
        answer["fault"] = {"text": outcome.describe(), "move": outcome.moves + 1 if illegal else None,
                           "name": play_names(deal, [illegal])[0] if illegal else None,
                           "card": _played_card(deal, positions, taken, illegal) if illegal else None,
                           "foundation": illegal.foundation if illegal and illegal.foundation < len(deal.foundations)
                           else None}
    game["answer"] = answer
    return game


def _played_card(deal: BinaryStarDeal, positions: list[list[int]], taken: list[int], play: Play) -> int | None:
    """The position of the card an illegal play names, when exactly one pile it may come from has it on top
    (to mark it on the table)."""
    piles = range(len(deal.piles)) if play.pile is None else [play.pile] if play.pile < len(deal.piles) else []
    tops = [pile for pile in piles
            if taken[pile] < len(deal.piles[pile]) and deal.piles[pile][taken[pile]] == play.card]
    return positions[tops[0]][taken[tops[0]]] if len(tops) == 1 else None
