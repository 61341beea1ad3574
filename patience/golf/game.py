"""Golf (PySolFC's, black-hole-solve's three variants) and generalised Golf, as one game family."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from importlib import resources
from typing import ClassVar

from patience.cards import Card
from patience.core import Replay
from patience.games import CARD_LETTERS, Game, Sheet, hook
from patience.games.faces import card_face
from patience.games.shrinking import simpler_order
from patience.golf import forms
from patience.golf.deal import GolfDeal
from patience.golf.deals import smaller_deals, variant_flags
from patience.golf.rules import Move, move_names, read_moves, replay, resolved
from patience.names import GAME_TITLES, GOLF, GOLF_FAMILY

SOLVER_ANSWERS = "patience.runners.answer_files:read_solver_answer"  # plans, solutions, a solver's output

_BEYOND = " (on a generalised deal beyond a standard deck, r3s1 is rank 3 of suit 1, both from 0)."
_ORDER = ("Dealing is always allowed, so a win can go on to deal the rest of the stock: the play orders every "
          "card, pile and stock, once, and the game is won at its last pile card.")
_RANKS = ("A rank is a number from 0 (an ace) up; the deals have {ranks} ranks, the highest the king (12 in a "
          "standard deck).")
_STOCK_RANK = " A stock card's `rank` is {stock}, one number each: a class of its own, which no rule reads."
_DATA = ("The cards are numbers, the set CARD = 0..n-1. Card 0 is the start card, on the foundation from the start, "
         "in no pile. The pile cards are 1..P: the top cards first, then the cards under them, and so on; then come "
         "the stock's cards, in the order they are dealt. `above` and `below` chain each pile (0 means no card: the "
         "card is on top, or at the bottom), and the stock too (a stock card's `above` is the card dealt just "
         "before it). `follows` lists every pair (a, b) where b may go on the foundation right after a: a pile "
         "card as the variant's rule says, a stock card after any card. " + _ORDER + " ")
SHEET = Sheet(
    rules=(
        "The cards lie face up in piles, and the stock lies face down, to be dealt one card at a time in a fixed "
        "order; one card starts the foundation. Only the top card of a pile may be played: onto the foundation, "
        "when its rank is one above or one below the rank on top of the foundation, whatever the suits. The "
        "stock's next card may be dealt onto the foundation at any time, whatever its rank. The card played or "
        "dealt becomes the foundation's top. The game is won when every pile is empty; the stock need not be.",
        "The variants differ at the ends of the ranks. golf: ranks do not wrap (an ace and a king are not "
        "neighbours), and nothing goes on a king but the stock's next card. golf_queens_on_kings: a queen may "
        "go on a king too. golf_wrap_ranks: ranks wrap, so a king goes on an ace, and a queen or an ace on a "
        "king. PySolFC's Golf deals 7 piles of 5 cards, a stock of 16 and the first card on the foundation; "
        "generalised Golf has any number of ranks (the highest is the king), suits, piles, heights and stock, "
        "in any of the three variants.",
    ),
    outputs=("x",),
    asp_shown="play(C, T): card C (the data's number), a pile card or a stock card, goes on the foundation at "
              "step T; every card once",
    numbers={"mzn": _DATA + _RANKS + _STOCK_RANK.replace("{stock}", "negative (-1, -2, ...)"),
             "eprime": _DATA + _RANKS + _STOCK_RANK.replace("{stock}", "{ranks} or more"),
             "asp": "card(C): the pile cards are numbers 1..P, the top cards first, then the cards under them, and "
                    "so on; stock(C): the stock's cards, numbers P+1..S (steps(S)) in the order they are dealt. "
                    "above(C, D): D lies on C; dealt_after(C, D): C is dealt right after D. The foundation's card "
                    "is given by its rank alone, start_rank(R). follows(R1, R2): a pile card of rank R2 may go on "
                    "rank R1 (the variant's rule); a stock card goes on anything. " + _ORDER + " " + _RANKS},
    deal_form=("board", ".txt"),
    card_comment=dict.fromkeys(("mzn", "eprime", "asp"), CARD_LETTERS + _BEYOND),
)


class Golf(Game[GolfDeal]):
    """A move is the card put onto the foundation (a pile's top card, or the stock's next card:
    `deal`); a win empties every pile. Deals are black-hole-solve's board text or YAML."""

    name: ClassVar[str] = GOLF
    title: ClassVar[str] = "Golf (PySolFC's, black-hole-solve's variants) and generalised Golf"
    deal_type: ClassVar[type] = GolfDeal
    forms: ClassVar[tuple[str, ...]] = forms.FORMS
    sheet: ClassVar[Sheet | None] = SHEET
    native_search: ClassVar[str | None] = "patience.golf.search:native_search"
    survey_search: ClassVar[str | None] = "patience.golf.search:survey_search"
    numbered_deal: ClassVar[str | None] = "patience.golf.pysol:numbered_deal"  # F's: PySolFC's numbers
    posed_deals: ClassVar[str | None] = "patience.golf.deals:posed_deal"
    random_deal: ClassVar[str | None] = "patience.golf.deals:generalised_deal"
    certificate_walk: ClassVar[str | None] = "patience.certificates:golf_walk"

    def certificate_numbers(self, deal: GolfDeal) -> tuple[int, int]:
        """The foundation's rank, the stock's cards dealt, the cards taken from each pile."""
        return 2 + len(deal.piles), 0

    def detect(self, text: str) -> bool:
        return forms.detect(text)

    def parse_deal(self, text: str, source: str) -> GolfDeal:
        return forms.read(text, source)

    def write_deal(self, deal: GolfDeal, form: str) -> str:
        return forms.write(deal, form)

    def variant(self, deal: GolfDeal) -> str:
        return deal.game

    def as_game(self, deal: GolfDeal, game: str, text: str) -> GolfDeal:
        """black-hole-solve's boards carry no variant line: a named variant sets it (a file whose
        `Variant:` line says another is refused by the check that follows)."""
        if forms.says_variant(text) or game not in GOLF_FAMILY:
            return deal
        flags = variant_flags(game)
        return dataclasses.replace(deal, queens_on_kings=flags["queens_on_kings"], wrap_ranks=flags["wrap_ranks"])

    def describe(self, deal: GolfDeal) -> str:
        rules = "wrap ranks" if deal.wrap_ranks else "queens on kings" if deal.queens_on_kings else "nothing on a king"
        return (f"{deal.game}, {len(deal.cards)} cards in {len(deal.piles)} piles, "
                f"a stock of {len(deal.stock)}, {rules}")

    def read_answer(self, text: str, source: str, deal: GolfDeal) -> tuple[Move, ...]:
        """A solver's answer file in any model language (decoded by the deal's model), else Golf's moves."""
        moves = hook(SOLVER_ANSWERS)(text, source, deal)
        return moves if moves is not None else read_moves(text, source, deal)

    def replay(self, deal: GolfDeal, moves: Sequence[Move], complete: bool = True) -> Replay:
        return replay(deal, moves, complete)

    def canonical(self, deal: GolfDeal, moves: Sequence[Move]) -> tuple[Move, ...]:
        """Every move as the card it plays (a deal as its stock card), without the start card."""
        return resolved(deal, moves)

    def move_names(self, deal: GolfDeal, moves: Sequence[Move]) -> list[str]:
        return move_names(deal, moves)

    def smaller(self, deal: GolfDeal, fixed: bool) -> Iterator[GolfDeal]:
        return simpler_order(deal) if fixed else smaller_deals(deal)

    def page(self, deal: GolfDeal, moves: Sequence[Move] | None, source: str = "") -> dict[str, object]:
        return page_data(deal, moves, source)

    def page_script(self) -> str:
        """The page's `golf` layout (patience/golf/page.js): the stock beside the foundation, the variant's rule."""
        return resources.files("patience.golf").joinpath("page.js").read_text(encoding="utf-8")


def page_data(deal: GolfDeal, moves: Sequence[Move] | None, source: str = "") -> dict[str, object]:
    """The replay page's data: cards numbered start card, stock (dealing order), piles (top card
    first); the variant's rule as its two flags; a move is the card put onto the foundation."""
    cards = list(deal.all_cards)
    index = {card: number for number, card in enumerate(cards)}
    game: dict[str, object] = {
        "game": deal.game, "title": GAME_TITLES[deal.game], "ranks": deal.ranks,
        "cards": [card_face(card, deal.ranks) for card in cards], "values": [card.rank for card in cards],
        "foundation": 0, "stock": [index[card] for card in deal.stock],
        "piles": [[index[card] for card in pile] for pile in deal.piles],
        "queens_on_kings": deal.queens_on_kings, "wrap_ranks": deal.wrap_ranks, "layout": "golf", "answer": None,
    }
    if moves is None:
        return game
    outcome = replay(deal, moves)  # as `patience validate` calls it: the same words
    played = resolved(deal, moves)
    answer: dict[str, object] = {"source": source, "moves": [index[card] for card in played[:outcome.moves]
                                                       if isinstance(card, Card)],  # legal: all cards
                                 "verdict": outcome.describe(), "fault": None}
    if outcome.fault is not None:
        illegal = played[outcome.moves] if outcome.moves < len(played) else None
        name = illegal if illegal is None or isinstance(illegal, str) else deal.name(illegal)
        answer["fault"] = {"text": outcome.describe(), "move": outcome.moves + 1 if illegal is not None else None,
                           "name": name, "card": index.get(illegal) if isinstance(illegal, Card) else None}
    game["answer"] = answer
    return game
