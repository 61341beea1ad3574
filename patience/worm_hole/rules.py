"""Worm Hole's rules: the replay (the only authority on a win), the answer reader and move names.

A move plays a card onto the foundation (from its pile's top or from a cell: one rank above or
below the foundation card, suits ignored, the rank cycle wrapping), or parks a pile's top card in
an empty cell. A parked card never returns to a pile (Solvitaire's no-build tableau). A win puts
every card on the foundation, so it plays each card once and leaves every cell empty.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from patience.answers import solve_moves
from patience.caps import MAX_MOVES
from patience.cards import SUIT_SYMBOLS, Card, parse_card
from patience.core import Replay
from patience.errors import InputError, quote
from patience.reading import at_most, numbered_lines
from patience.worm_hole.deal import WormHoleDeal
from patience.worm_hole.moves import Move

MAX_WORM_MOVES = 2 * MAX_MOVES  # a win plays each card once and parks each at most once
CELL = "cell"  # the word after a card that parks it: `5♠ cell`
_LETTERS = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}
_TOKEN = re.compile(r"[^\s,\[\]]+")  # what lies between separators (white space, commas, brackets)


def without_start_card(deal: WormHoleDeal, moves: Sequence[Move]) -> tuple[Move, ...]:
    """Drop a leading play of the foundation's own card, so answers may list it or not."""
    if deal.foundation is not None and moves and moves[0] == Move.play(deal.foundation):
        return tuple(moves[1:])
    return tuple(moves)


def replay(deal: WormHoleDeal, moves: Sequence[Move], complete: bool = True) -> Replay:
    """Play `moves` (start card optional) on `deal`; with `complete`, every card must end on the
    foundation. Move k is the k-th move after the start card; the first illegal one is the fault."""
    moves = without_start_card(deal, moves)
    taken = [0] * len(deal.piles)  # cards gone from each pile (to the foundation or a cell)
    cells: dict[Card, int] = {}  # parked card -> the move that parked it
    played_at: dict[Card, int] = {}
    hole = deal.foundation
    for number, move in enumerate(moves, 1):
        fault = _fault(deal, move, taken, cells, played_at, hole)
        if fault is not None:
            return Replay(number - 1, f"move {number}: {fault}")
        card = move.card
        if card not in cells:
            taken[deal.position[card][0]] += 1
        if move.park:
            cells[card] = number
        else:
            cells.pop(card, None)
            played_at[card] = number
            hole = card
    left = len(deal.cards) - len(played_at)
    if complete and left:
        parked = f", {len(cells)} of them in {'a cell' if len(cells) == 1 else 'cells'}" if cells else ""
        return Replay(len(moves), f"{left} card{'s' if left != 1 else ''} left{parked}")
    return Replay(len(moves), None)


def _fault(deal: WormHoleDeal, move: Move, taken: list[int], cells: dict[Card, int],
           played_at: dict[Card, int], hole: Card | None) -> str | None:
    """Why `move` is illegal now, or None."""
    card, name = move.card, deal.name(move.card)
    where = deal.position.get(card)
    if where is None:
        return f"{name} {'is the foundation card' if card == deal.foundation else 'is not in the deal'}"
    if card in played_at:
        return f"{name} was already played at move {played_at[card]}"
    if card in cells:
        if move.park:
            return f"{name} is already in a cell (parked at move {cells[card]})"
    else:
        pile, depth = where
        if depth != taken[pile]:
            return f"{name} is under {deal.name(deal.piles[pile][taken[pile]])}"
    if move.park:
        if deal.cells == 0:
            return f"{name} cannot be parked: the deal has no cells"
        if len(cells) >= deal.cells:
            held = ", ".join(deal.name(parked) for parked in cells)
            return f"{name} cannot be parked: no empty cell (they hold {held})"
        return None
    if hole is not None and not deal.adjacent(hole, card):
        return f"{name} does not follow {deal.name(hole)}"
    return None


def move_name(deal: WormHoleDeal, move: Move) -> str:
    """A move as answers write it: `5S` (to the foundation) or `5S cell` (parked)."""
    return f"{deal.name(move.card)} {CELL}" if move.park else deal.name(move.card)


def move_names(deal: WormHoleDeal, moves: Sequence[Move]) -> list[str]:
    """The moves as text, the foundation's start card first (as Black Hole's solutions print it)."""
    start = [deal.name(deal.foundation)] if deal.foundation is not None else []
    return start + [move_name(deal, move) for move in without_start_card(deal, moves)]


def read_card(token: str) -> Card:
    """A card as answers write it: `5S`, `10d`, `r4s0`, or in players' words `5♠`, `10♥`."""
    if token and token[-1] in _LETTERS:
        token = token[:-1] + _LETTERS[token[-1]]
    return parse_card(token)


def read_moves(text: str, source: str) -> tuple[Move, ...]:
    """An answer: one move a line, each a card (`5♠`: to the foundation from its pile or its cell)
    optionally followed by the word `cell` (`5♠ cell`: parked from its pile in an empty cell); `#`
    starts a comment. Moves are words apart, so several on a line (spaces or commas between them) or
    the word `cell` on the line after its card (as stores keep move names, one word a line) read the
    same; a Black Hole answer (a list of cards) is a Worm Hole answer that parks nothing. `patience
    solve`'s own output is read by its `sequence:` line."""
    moves_text = solve_moves(text, source)
    text = text if moves_text is None else moves_text
    moves: list[Move] = []
    parkable = False  # whether the last word was a card, which a `cell` may follow
    for number, line in numbered_lines(text):
        for match in _TOKEN.finditer(line.split("#", 1)[0]):
            token = match.group()
            if token.lower() == CELL:
                if not parkable:
                    raise InputError(source, number, f"{quote(token)} must follow the card it parks (`5♠ cell`)")
                moves[-1], parkable = Move.parked(moves[-1].card), False
                continue
            try:
                moves.append(Move.play(read_card(token)))
            except ValueError as error:
                raise InputError(source, number, str(error)) from None
            parkable = True
            at_most(len(moves), MAX_WORM_MOVES, "moves", source, number)
    if not moves:
        raise InputError(source, 1, "no moves in the answer")
    return tuple(moves)
