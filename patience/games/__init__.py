"""The games of the toolkit behind one protocol, and reading a deal of any of them from a file.

A game says how its deals are written (forms, detection), what a move is, how an answer file is
read into moves and how moves are replayed: the replay is the only authority on a win. Adding a
game family is one module implementing `Game` plus one line in FAMILY_CLASSES; `patience solve |
validate | convert | compare | show | gen` then find it from the file's content, or take `--game`
(any game of patience.names: naming one checks that the deal is that game).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib
import json
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeAlias, TypeVar

from patience.errors import InputError, encodable
from patience.names import BINARY_STAR, BLACK_HOLE, LBS, family_of, game_name, is_deal_of
from patience.reading import read_text
from patience.validator import Replay

if TYPE_CHECKING:
    from patience.binary_star.deal import BinaryStarDeal
    from patience.deal import Deal
    from patience.lbs.deal import LBSDeal

Move = Hashable  # a game's move: a Card in the Black Hole family, (from, to) positions in LBS
AnyDeal: TypeAlias = "Deal | BinaryStarDeal | LBSDeal"  # a deal of any game
D = TypeVar("D", bound=AnyDeal)  # the deal type of one game: `Game[D]` plays deals of type D
T = TypeVar("T")


class Game(Protocol[D]):
    """The rules and the file forms of one game (or family of games sharing one deal type `D`)."""

    name: ClassVar[str]  # the family's name in patience.names (its first game)
    title: ClassVar[str]
    deal_type: ClassVar[type]  # the type of its deals (each game has its own)
    forms: ClassVar[tuple[str, ...]]  # deal forms it writes (`patience convert --to`)

    def detect(self, text: str) -> bool:
        """Whether a file's text is a deal of this game."""

    def parse_deal(self, text: str, source: str) -> D:
        """The deal written in `text`; InputError naming `source` and the line if malformed."""

    def write_deal(self, deal: D, form: str) -> str:
        """The deal in the named form; ValueError if that form cannot hold it."""

    def variant(self, deal: D) -> str:
        """Which game exactly (black_hole, all_in_a_row, generalised, lbs...): stored with results."""

    def describe(self, deal: D) -> str:
        """One line for people: variant and size."""

    def read_answer(self, text: str, source: str, deal: D) -> tuple[Move, ...]:
        """An answer file (move list, or a solver's own output) as moves; InputError if unreadable."""

    def replay(self, deal: D, moves: Sequence[Move], complete: bool = True) -> Replay:
        """Play the moves; with `complete`, the game must be won at the end."""

    def canonical(self, deal: D, moves: Sequence[Move]) -> tuple[Move, ...]:
        """The moves as results store them (e.g. without a leading start card)."""

    def move_names(self, deal: D, moves: Sequence[Move]) -> list[str]:
        """The moves as text, in the form read_answer reads back."""


# family -> "module:Class"; the first whose `detect` accepts a file's text reads it (Binary Star's
# two-foundation board text before Black Hole's).
FAMILY_CLASSES: dict[str, str] = {
    BINARY_STAR: "patience.games.binary_star:BinaryStar",
    LBS: "patience.games.late_binding:LateBinding",
    BLACK_HOLE: "patience.games.black_hole:BlackHoleFamily",
}


def get_game(name: str) -> Game[Any]:
    """The family that plays the game `name` (any spelling of any game: `all-in-a-row` is Black Hole's)."""
    return _family(family_of(game_name(name)))


@functools.cache
def _family(family: str) -> Game[Any]:
    module_name, attribute = FAMILY_CLASSES[family].split(":")
    return getattr(importlib.import_module(module_name), attribute)()


def game_of(deal: D) -> Game[D]:
    """The game whose deal type `deal` is."""
    for name in FAMILY_CLASSES:
        game = _family(name)
        if isinstance(deal, game.deal_type):
            return game
    raise TypeError(f"{type(deal).__name__} is the deal type of no game")


def deal_as(kind: type[T], deal: AnyDeal) -> T:
    """`deal` as the one deal type its caller plays (a solver of one game family, after `solve` checked
    the deal's game); another game's deal here is a bug (TypeError), not bad input."""
    if not isinstance(deal, kind):
        raise TypeError(f"a {type(deal).__name__} where a {kind.__name__} was expected")
    return deal


def parse_game_deal(text: str, source: str, game: str | None = None) -> tuple[Game[Any], AnyDeal]:
    """The game and deal written in `text`: the named game, or the first whose form matches. A named
    game must be the deal's: an All in a Row deal is not read as `black_hole`, nor the reverse."""
    if game is not None:
        named = game_name(game)
        chosen = get_game(named)
        deal = _parsed(chosen, text, source)
        if not is_deal_of(chosen.variant(deal), named):
            raise InputError(source, None, f"this deal is {chosen.variant(deal)}, not {named} "
                                           f"(give --game {chosen.variant(deal)}, or leave --game out)")
        return chosen, deal
    for name in FAMILY_CLASSES:
        candidate = _family(name)
        if candidate.detect(text):
            return candidate, _parsed(candidate, text, source)
    raise InputError(source, 1, "not a deal: expected board text ('Foundations: ...'), YAML ('piles:'), "
                                "CSPLib .param, MiniZinc .dzn, PyCSP3 JSON, or an LBS .param ('letting cards be')")


def _parsed(game: Game[D], text: str, source: str) -> D:
    """The game's reader on `text`; a ValueError of the deal it builds (a cap, a card outside the rank
    cycle) is bad input, named by the file, never an internal error."""
    try:
        return game.parse_deal(text, source)
    except ValueError as error:
        raise InputError(source, None, str(error)) from None


def write_game_deal(deal: AnyDeal, form: str, source: str = "") -> str:
    """`deal` written in `form` (`patience convert --to`, `patience.write_deal`); a usage error, naming
    `source` if given, for a form its game does not write or that cannot hold this deal."""
    from patience.errors import UsageError

    game = game_of(deal)
    where = f"{source}: " if source else ""
    if form not in game.forms:
        raise UsageError(f"{where}{game.variant(deal)} deals are written as {', '.join(game.forms)}, not {form!r}")
    try:
        return game.write_deal(deal, form)
    except ValueError as error:
        raise UsageError(f"{where}{error}") from None


def read_game_deal(path: str | Path, game: str | None = None) -> tuple[Game[Any], AnyDeal]:
    """Read a deal file of any game (or of the named one); its name, the source every message and
    label gives, is written as every output takes it (a Latin-1 byte as `\\xe9`: errors.encodable)."""
    return parse_game_deal(read_text(path), encodable(str(path)), game)


def deal_content(game: Game[D], deal: D) -> str:
    """What a deal is, whatever file or spec it came from: the SHA-256 (hex) of its game and its
    fields as canonical JSON. A name the deal carries (an LBS deal's) is a label, not content. Stores
    key every stored deal by this, so that a file changed under the same path is a new deal."""
    text = json.dumps({"game": game.variant(deal), "deal": _plain(deal)}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _plain(value: Any) -> Any:
    """A deal as JSON values: dataclasses as objects of their fields (but a `name`), tuples as lists."""
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: _plain(getattr(value, name)) for name in _content_fields(type(value))}
    return value


@functools.cache
def _content_fields(kind: type) -> tuple[str, ...]:
    return tuple(item.name for item in dataclasses.fields(kind) if item.name != "name")
