"""The replay page: a deal and an answer as one self-contained HTML file.

Each game is described once in Python as plain JSON (its cards, its layout, the answer's moves and
the validator's verdict) by one small function per game family; the page's script only draws that
description and applies the same rules for interactive play. The verdict and the first illegal move
come from the project's validators, so the page says what `patience validate` says.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import resources

import jinja2

from patience.binary_star import rules as binary_star_rules
from patience.binary_star.deal import BinaryStarDeal, Play
from patience.cards import RANK_LETTERS, STANDARD_RANKS, SUIT_SYMBOLS, Card
from patience.deal import Deal
from patience.errors import UsageError
from patience.lbs import rules as lbs_rules
from patience.lbs.deal import LBSDeal
from patience.names import BINARY_STAR, BLACK_HOLE, GAME_TITLES, LBS, family_of, game_name
from patience.validator import replay, without_start_card

SYMBOLS = SUIT_SYMBOLS
RED = ("H", "D")
# suits beyond the four standard ones (generalised deals) get their own colours
EXTRA_COLOURS = ("blue", "green", "purple", "orange", "teal", "brown")


def face(name: str, rank_label: str, suit_letter: str | None, suit: int) -> dict[str, str]:
    """How a card is drawn: its name (as the validator writes it), rank label, suit symbol, colour."""
    if suit_letter is not None:
        return {"name": name, "rank": rank_label, "suit": SYMBOLS[suit_letter],
                "colour": "red" if suit_letter in RED else "black"}
    return {"name": name, "rank": rank_label, "suit": f"s{suit}", "colour": EXTRA_COLOURS[suit % len(EXTRA_COLOURS)]}


def black_hole_face(card: Card, ranks: int) -> dict[str, str]:
    standard_rank = ranks == STANDARD_RANKS
    label = ("10" if RANK_LETTERS[card.rank] == "T" else RANK_LETTERS[card.rank]) if standard_rank else f"r{card.rank}"
    return face(card.name(ranks), label, "SHDC"[card.suit] if card.suit < 4 else None, card.suit)


def black_hole_game(deal: Deal, sequence: Sequence[Card] | None, source: str = "") -> dict[str, object]:
    """Black Hole, All in a Row or a generalised deal, with the answer `sequence` (None: nothing to replay)."""
    cards = list(deal.all_cards)
    index = {card: number for number, card in enumerate(cards)}
    game: dict[str, object] = {
        "game": deal.game, "title": GAME_TITLES[deal.game], "ranks": deal.ranks,
        "cards": [black_hole_face(card, deal.ranks) for card in cards], "values": [card.rank for card in cards],
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


def lbs_face(deal: LBSDeal, card: int) -> dict[str, str]:
    value, suit = deal.value(card), deal.suit(card)
    named = deal.ranks == STANDARD_RANKS and deal.suits <= 4
    label = ("10" if RANK_LETTERS[value] == "T" else RANK_LETTERS[value]) if named else f"v{value}"
    return face(deal.card_name(card), label, "HDCS"[suit] if suit < 4 else None, suit)


def lbs_game(deal: LBSDeal, moves: Sequence[lbs_rules.Move] | None, source: str = "") -> dict[str, object]:
    """Late Binding Solitaire: the row of cards, and the answer's (from, to) moves, 1-based."""
    game: dict[str, object] = {
        "game": LBS, "title": GAME_TITLES[LBS], "name": deal.name,
        "cards": [lbs_face(deal, card) for card in deal.cards], "row": list(range(len(deal.cards))),
        "steps": list(lbs_rules.STEPS), "ranks": deal.ranks, "values": [deal.value(card) for card in deal.cards],
        "suits": [deal.suit(card) for card in deal.cards], "answer": None,
    }
    if moves is None:
        return game
    outcome = lbs_rules.replay(deal, moves)
    answer: dict[str, object] = {"source": source, "moves": [list(move) for move in moves[:outcome.moves]],
                                 "verdict": outcome.describe(), "fault": None}
    if outcome.fault is not None:
        illegal = moves[outcome.moves] if outcome.moves < len(moves) else None
        answer["fault"] = {"text": outcome.describe(), "move": outcome.moves + 1 if illegal else None,
                           "name": f"{illegal[0]}->{illegal[1]}" if illegal else None,
                           "from": illegal[0] if illegal else None, "to": illegal[1] if illegal else None}
    game["answer"] = answer
    return game


def binary_star_game(deal: BinaryStarDeal, plays: Sequence[Play] | None, source: str = "") -> dict[str, object]:
    """Binary Star: cards are numbered by position (two decks repeat every card), the pile cards pile by
    pile, then the foundations' start cards; a move is [card, foundation] (0-based), its pile the card's."""
    cards = list(deal.cards) + list(deal.foundations)
    starts = range(len(deal.cards), len(cards))
    positions = [[sum(map(len, deal.piles[:index])) + depth for depth in range(len(pile))]
                 for index, pile in enumerate(deal.piles)]
    game: dict[str, object] = {
        "game": deal.game, "title": GAME_TITLES[deal.game], "ranks": deal.ranks,
        "cards": [black_hole_face(card, deal.ranks) for card in cards], "values": [card.rank for card in cards],
        "piles": positions, "foundations": list(starts), "answer": None,
    }
    if plays is None:
        return game
    outcome = binary_star_rules.replay(deal, plays)  # as `patience validate` calls it: the same words
    legal = binary_star_rules.resolved(deal, plays)[:outcome.moves]
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
                           "name": binary_star_rules.play_names(deal, [illegal])[0] if illegal else None,
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


# game family -> its page description; a new game adds its function here
PAGE_BUILDERS: dict[str, Callable[..., dict[str, object]]] = {
    BLACK_HOLE: black_hole_game, LBS: lbs_game, BINARY_STAR: binary_star_game}


def game_page(game: str, deal: object, moves: Sequence | None, source: str = "") -> dict[str, object]:
    """The page's description of a deal of any game and of the answer's moves (None: play by hand)."""
    family = family_of(game_name(game))
    if family not in PAGE_BUILDERS:
        raise UsageError(f"there is no replay page for {game} deals yet; pages exist for: "
                         f"{', '.join(PAGE_BUILDERS)}")
    return PAGE_BUILDERS[family](deal, moves, source)


def verdict(game: dict[str, object]) -> str | None:
    """The replay's verdict on the answer of a page's game description (`game_page`); None without an answer."""
    answer = game["answer"]
    return str(answer["verdict"]) if isinstance(answer, dict) else None


def asset(name: str) -> str:
    return resources.files("patience.templates").joinpath(name).read_text(encoding="utf-8")


def environment() -> jinja2.Environment:
    """The pages' templates; HTML-escaped by default, JSON embedded with `tojson` (safe inside <script>)."""
    return jinja2.Environment(loader=jinja2.PackageLoader("patience.templates", "."),
                              autoescape=True, keep_trailing_newline=True, undefined=jinja2.StrictUndefined)


def render(game: dict[str, object], heading: str, notes: Sequence[str] = (), back: str | None = None) -> str:
    """The whole page: template, style, script and the game description in one HTML file
    (`back`: where a link back to the page that led here points, such as a report)."""
    return environment().get_template("replay.html.j2").render(
        game=game, heading=heading, notes=list(notes), back=back, style=asset("replay.css"), script=asset("replay.js"))
