"""Golf's moves, the replay validator (the only authority on a win) and the answer readers.

A move puts one card onto the foundation: a pile's top card whose rank follows the foundation's
(`GolfDeal.follows`, the variant's rule), or the stock's next card, whatever its rank. A move is
written as that card, or as `DEAL` for "the stock's next card, whichever it is"; stored moves are
cards only (`resolved`), since the k-th deal always plays the k-th stock card. Won when every pile
is empty; the stock may still hold cards.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from patience.answers import BLACK_HOLE_SOLVE_VERDICTS, solve_moves
from patience.caps import MAX_MOVES
from patience.cards import Card, parse_card
from patience.core import Replay
from patience.errors import InputError, quote
from patience.golf.deal import GolfDeal
from patience.reading import at_most, first_line, numbered_lines

DEAL: Final = "deal"  # the stock's next card onto the foundation
DEAL_WORDS = ("deal", "talon")  # how an answer may write a deal
Move = Card | str  # a card, or DEAL

_TOKEN = re.compile(r"[^\s,\[\]]+")
_FISH_PILE = re.compile(r"^Move a card from stack ([0-9]{1,9}) to the foundations$")
_FISH_DEAL = "Deal talon"
_FISH_CARD = re.compile(r"^Info: Card moved is (\S+)$")


class Position:
    """Where a play stands: cards taken from each pile, cards dealt from the stock, the foundation card."""

    __slots__ = ("base", "dealt", "taken")

    def __init__(self, deal: GolfDeal) -> None:
        self.taken = [0] * len(deal.piles)
        self.dealt = 0
        self.base = deal.foundation


def legal_moves(deal: GolfDeal, taken: Sequence[int], dealt: int, base: Card) -> Iterator[Card]:
    """Every card that may go onto the foundation now: pile tops in pile order, then the stock's next card."""
    for pile, depth in zip(deal.piles, taken, strict=True):
        if depth < len(pile) and deal.follows(base, pile[depth]):
            yield pile[depth]
    if dealt < len(deal.stock):
        yield deal.stock[dealt]


def fault_of(deal: GolfDeal, position: Position, move: Move) -> str | None:
    """Why `move` cannot be played now, or None (and then `play` may make it)."""
    card = _card_of(deal, position, move)
    if card is None:
        return "the stock is empty"
    where = deal.position.get(card)
    if where is not None:
        pile, depth = where
        if depth < position.taken[pile]:
            return f"{deal.name(card)} is already on the foundation"
        if depth > position.taken[pile]:
            return f"{deal.name(card)} is under {deal.name(deal.piles[pile][position.taken[pile]])}"
        if not deal.follows(position.base, card):
            if position.base.rank == deal.king and not deal.queens_on_kings:
                return f"{deal.name(card)} cannot go on {deal.name(position.base)}: nothing goes on a king"
            return f"{deal.name(card)} does not follow {deal.name(position.base)}"
        return None
    index = deal.stock_index.get(card)
    if index is None:
        return f"{deal.name(card)} {'is the start card' if card == deal.foundation else 'is not in the deal'}"
    if index == position.dealt:
        return None
    if index < position.dealt:
        return f"{deal.name(card)} was already dealt from the stock"
    return f"{deal.name(card)} is not the stock's next card ({deal.name(deal.stock[position.dealt])} is)"


def play(deal: GolfDeal, position: Position, move: Move) -> Card:
    """Make a legal move (fault_of said None); the card now on the foundation."""
    card = _card_of(deal, position, move)
    assert card is not None
    where = deal.position.get(card)
    if where is None:
        position.dealt += 1
    else:
        position.taken[where[0]] += 1
    position.base = card
    return card


def _card_of(deal: GolfDeal, position: Position, move: Move) -> Card | None:
    if isinstance(move, Card):
        return move
    return deal.stock[position.dealt] if position.dealt < len(deal.stock) else None


def without_start_card(deal: GolfDeal, moves: Sequence[Move]) -> Sequence[Move]:
    """Drop a leading start card, so answers may list it or not."""
    return moves[1:] if moves and moves[0] == deal.foundation else moves


def replay(deal: GolfDeal, moves: Sequence[Move], complete: bool = True) -> Replay:
    """Play `moves` (start card optional); with `complete`, every pile must be empty at the end."""
    position = Position(deal)
    moves = without_start_card(deal, moves)
    for number, move in enumerate(moves, 1):
        fault = fault_of(deal, position, move)
        if fault:
            return Replay(number - 1, f"move {number}: {fault}")
        play(deal, position, move)
    left = len(deal.cards) - sum(position.taken)
    if complete and left:
        return Replay(len(moves), f"{left} card{'s' if left != 1 else ''} left in the piles")
    return Replay(len(moves), None)


def resolved(deal: GolfDeal, moves: Sequence[Move]) -> tuple[Move, ...]:
    """The moves as cards (the k-th DEAL is the k-th stock card), without a leading start card; a
    DEAL beyond the stock stays DEAL, for the replay to refuse."""
    cards: list[Move] = []
    dealt = 0
    for move in without_start_card(deal, moves):
        if isinstance(move, Card):
            dealt += move in deal.stock_index
            cards.append(move)
        else:
            cards.append(deal.stock[dealt] if dealt < len(deal.stock) else move)
            dealt += 1
    return tuple(cards)


def move_names(deal: GolfDeal, moves: Sequence[Move]) -> list[str]:
    """The cards put onto the foundation, the start card first (as Black Hole's answers), in the
    form `read_moves` reads back."""
    return [deal.name(deal.foundation)] + [
        move if isinstance(move, str) else deal.name(move) for move in resolved(deal, moves)]


def read_moves(text: str, source: str, deal: GolfDeal) -> tuple[Move, ...]:
    """An answer: black-hole-solve's output, `patience solve`'s, or moves separated by white space,
    commas or lines (a card name, or `deal` / `talon`), with `#` comments."""
    if not text or text.isspace():
        raise InputError(source, 1, "empty answer")
    if first_line(text) in BLACK_HOLE_SOLVE_VERDICTS:
        return read_fish(text, source, deal)
    moves_text = solve_moves(text, source)
    text = text if moves_text is None else moves_text
    moves: list[Move] = []
    for number, line in numbered_lines(text):
        for token in _TOKEN.finditer(line.split("#", 1)[0]):
            word = token.group()
            if word.lower() in DEAL_WORDS:
                moves.append(DEAL)
            else:
                moves.append(_parsed(word, source, number))
            at_most(len(moves), MAX_MOVES, "moves", source, number)
    if not moves:
        raise InputError(source, 1, "no moves in the answer")
    return tuple(moves)


def read_fish(text: str, source: str, deal: GolfDeal) -> tuple[Move, ...]:
    """black-hole-solve's output for `--game golf`: `Solved!`, then per move `Move a card from stack
    N to the foundations` (N 0-based, the board's pile order) or `Deal talon`, each followed by
    `Info: Card moved is XY`, which must name the card that move puts there."""
    verdict = first_line(text)
    if verdict != "Solved!":
        raise InputError(source, 1, f"the answer says {quote(verdict)}: there are no moves to replay")
    taken = [0] * len(deal.piles)
    dealt = 0
    moves: list[Move] = []
    expected: Card | None = None  # the card the last move line puts on the foundation
    for number, raw in numbered_lines(text):
        line = raw.strip()
        pile_match = _FISH_PILE.match(line)
        card_match = _FISH_CARD.match(line)
        if pile_match:
            pile = int(pile_match.group(1))
            if pile >= len(deal.piles) or taken[pile] >= len(deal.piles[pile]):
                raise InputError(source, number, f"stack {pile} has no card to move")
            expected = deal.piles[pile][taken[pile]]
            taken[pile] += 1
            moves.append(expected)
        elif line == _FISH_DEAL:
            if dealt >= len(deal.stock):
                raise InputError(source, number, "the talon is empty")
            expected = deal.stock[dealt]
            dealt += 1
            moves.append(DEAL)
        elif card_match:
            card = _parsed(card_match.group(1), source, number)
            if card != expected:
                said = "no move" if expected is None else deal.name(expected)
                raise InputError(source, number, f"the card moved is {deal.name(card)}, but the move before it "
                                                 f"puts {said} on the foundation")
            expected = None
        else:
            continue
        at_most(len(moves), MAX_MOVES, "moves", source, number)
    return tuple(moves)


def _parsed(word: str, source: str, number: int) -> Card:
    try:
        return parse_card(word)
    except ValueError as error:
        raise InputError(source, number, str(error)) from None
