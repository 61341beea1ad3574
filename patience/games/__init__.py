"""The games of the toolkit behind one protocol, and reading a deal of any of them from a file.

A game says how its deals are written (forms, detection), what a move is, how an answer file is
read into moves and how moves are replayed: the replay is the only authority on a win. Adding a
game is one module implementing `Game` plus one line in GAMES; `patience solve | validate |
convert | compare | show` then find it from the file's content, or take `--game`.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any, ClassVar, Protocol

from patience.errors import InputError, UsageError
from patience.reading import read_text
from patience.validator import Replay

Move = Hashable  # a game's move: a Card in the Black Hole family, (from, to) positions in LBS


class Game(Protocol):
    """The rules and the file forms of one game (or family of games sharing one deal type)."""

    name: ClassVar[str]  # as given to --game and stored with results
    title: ClassVar[str]
    deal_type: ClassVar[type]  # the type of its deals (each game has its own)
    forms: ClassVar[tuple[str, ...]]  # deal forms it writes (`patience convert --to`)

    def detect(self, text: str) -> bool:
        """Whether a file's text is a deal of this game."""

    def parse_deal(self, text: str, source: str) -> Any:
        """The deal written in `text`; InputError naming `source` and the line if malformed."""

    def write_deal(self, deal: Any, form: str) -> str:
        """The deal in the named form; ValueError if that form cannot hold it."""

    def variant(self, deal: Any) -> str:
        """Which game exactly (black_hole, all_in_a_row, generalised, lbs...): stored with results."""

    def describe(self, deal: Any) -> str:
        """One line for people: variant and size."""

    def read_answer(self, text: str, source: str, deal: Any) -> tuple[Move, ...]:
        """An answer file (move list, or a solver's own output) as moves; InputError if unreadable."""

    def replay(self, deal: Any, moves: Sequence[Move], complete: bool = True) -> Replay:
        """Play the moves; with `complete`, the game must be won at the end."""

    def canonical(self, deal: Any, moves: Sequence[Move]) -> tuple[Move, ...]:
        """The moves as results store them (e.g. without a leading start card)."""

    def move_names(self, deal: Any, moves: Sequence[Move]) -> list[str]:
        """The moves as text, in the form read_answer reads back."""


# name -> "module:Class"; the first whose `detect` accepts a file's text reads it (Binary Star's
# two-foundation board text before Black Hole's).
GAMES: dict[str, str] = {
    "binary-star": "patience.games.binary_star:BinaryStar",
    "lbs": "patience.games.late_binding:LateBinding",
    "black-hole": "patience.games.black_hole:BlackHoleFamily",
}


@functools.cache
def get_game(name: str) -> Game:
    if name not in GAMES:
        raise UsageError(f"unknown game {name!r}; known: {', '.join(GAMES)}")
    module_name, attribute = GAMES[name].split(":")
    return getattr(importlib.import_module(module_name), attribute)()


def game_of(deal: Any) -> Game:
    """The game whose deal type `deal` is."""
    for name in GAMES:
        game = get_game(name)
        if isinstance(deal, game.deal_type):
            return game
    raise TypeError(f"{type(deal).__name__} is the deal type of no game")


def parse_game_deal(text: str, source: str, game: str | None = None) -> tuple[Game, Any]:
    """The game and deal written in `text`: the named game, or the first whose form matches."""
    if game is not None:
        chosen = get_game(game)
        return chosen, chosen.parse_deal(text, source)
    for name in GAMES:
        candidate = get_game(name)
        if candidate.detect(text):
            return candidate, candidate.parse_deal(text, source)
    raise InputError(source, 1, "not a deal: expected board text ('Foundations: ...'), YAML ('piles:'), "
                                "CSPLib .param, MiniZinc .dzn, PyCSP3 JSON, or an LBS .param ('letting cards be')")


def read_game_deal(path: str | Path, game: str | None = None) -> tuple[Game, Any]:
    """Read a deal file of any game (or of the named one)."""
    return parse_game_deal(read_text(path), str(path), game)
