"""The games of the toolkit behind one base class, and reading a deal of any of them from a file.

A game says how its deals are written (forms, detection), what a move is, how an answer file is
read into moves and how moves are replayed: the replay is the only authority on a win. It also owns
everything else that is game-specific (hooks with defaults, below): its labels and sizes, the
shrinker a hunt uses, its exercise sheet's text, its replay page's data, and (by "module:function",
imported by the layer that calls it) its native search, its survey search, the hunt's random deals
and its numbered deals. Adding a game is one package implementing `Game` plus one line in patience/games/registry.py;
its models are found by name (generators/LANGUAGE/FAMILY.py). `patience solve | validate | convert |
compare | show | gen` then find it from the file's content, or take `--game` (any game of
patience.names: naming one checks that the deal is that game).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib
import json
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeAlias, TypeVar

from patience.core import GameDeal, Replay
from patience.errors import InputError, UsageError, encodable
from patience.games.registry import FAMILY_CLASSES
from patience.names import GAMES, family_of, game_name, is_deal_of
from patience.reading import read_text

__all__ = ["CARD_LETTERS", "FAMILY_CLASSES", "AnyDeal", "Game", "GameDeal", "Move", "Replay", "Sheet", "Sizes",
           "deal_as", "deal_content", "game_of", "games_with", "get_game", "hook", "parse_game_deal", "read_game_deal",
           "write_game_deal"]

Move = Hashable  # a game's move: a Card in the Black Hole family, (from, to) positions in LBS
AnyDeal: TypeAlias = GameDeal  # a deal of any game: every deal type subclasses GameDeal
D = TypeVar("D", bound=GameDeal)  # the deal type of one game: `Game[D]` plays deals of type D
T = TypeVar("T")


@dataclass(frozen=True)
class Sizes:
    """How big a deal is, as listings, stores and pages count it."""

    cards: int  # the cards to play (pile cards; a row's cards)
    heights: tuple[int, ...]  # the piles' heights, as laid out (an LBS row: one card a pile)
    foundations: int = 1
    ranks: int | None = None  # the rank cycle, if the game has one


@dataclass(frozen=True)
class Sheet:
    """What an exercise sheet (`patience coursework`) says of a game beyond the common text."""

    rules: tuple[str, ...]  # the rules, a paragraph each
    outputs: tuple[str, ...]  # the names a student's model shows, as the toolkit's own models name them
    asp_shown: str  # the atoms an ASP model shows, for a sheet whose model text declares none
    numbers: Mapping[str, str]  # language -> what the data's numbers mean ({ranks} and {two} filled in)
    deal_form: tuple[str, str] = ("board", ".txt")  # the form and suffix of the students' deal files
    card_comment: Mapping[str, str] = field(default_factory=dict)  # language -> how the data's comment
    # names the cards, after "The comment at the head of each instance names each card: " (none: no such line)


# How the data's comments write a card (every game of standard cards): a sheet's `card_comment` starts so
CARD_LETTERS = ("a card is its rank, A 2-9 T (for 10) J Q K, and its suit, S ♠, H ♥, D ♦ or "
                "C ♣: AS is A♠ and TH is 10♥")


def hook(reference: str) -> Any:
    """The function a game names by "module:attribute" (a hook of a layer above the core)."""
    module_name, attribute = reference.split(":")
    return getattr(importlib.import_module(module_name), attribute)


class Game(Generic[D]):
    """The rules and the file forms of one game (or family of games sharing one deal type `D`), and
    every hook the generic layers call instead of asking a deal's type. Subclass it; the methods that
    raise NotImplementedError are required, the rest have defaults."""

    name: ClassVar[str]  # the family's name in patience.names (its first game)
    title: ClassVar[str]
    deal_type: ClassVar[type]  # the type of its deals (each game has its own, a GameDeal)
    forms: ClassVar[tuple[str, ...]]  # deal forms it writes (`patience convert --to`)
    whole_form: ClassVar[str] = "yaml"  # the form of `forms` that holds any deal of the game, whatever its shape
    sheet: ClassVar[Sheet | None] = None  # coursework's text of the game (None: no exercises)
    # Hooks of the layers above the core, "module:function", imported by the layer that calls them:
    native_search: ClassVar[str | None] = None  # runners/native.py: f(deal, limits, options) -> Answer
    survey_search: ClassVar[str | None] = None  # survey/decide.py: f(deal, seconds, nodes, max_cards)
    # -> (Status, cards, nodes)
    posed_deals: ClassVar[str | None] = None  # grading/hunt.py: f(game, index, seed, rng, fixed) -> deal
    numbered_deal: ClassVar[str | None] = None  # commands/deal.py: f(game, seed, numbering) -> deal
    # (PySolFC's deal `seed` of the game, or a UsageError for a number it has no deal for)
    random_deal: ClassVar[str | None] = None  # commands/deal.py: f(game, seed, ranks, suits, pile_height)
    # -> deal, a generalised game's seeded random deal (ValueError for a shape it cannot deal)
    certificate_walk: ClassVar[str | None] = None  # certificates.py: f(deal, seconds, cpu_seconds, cut) -> Pass,
    # the positions of a lost deal its plays reach, a loss certificate's (docs/certificates.md)
    certificate_search: ClassVar[str | None] = None  # certificates.py: f(deal, seconds, cpu_seconds, max_cards)
    # -> Pass or None, a search's own failure cache as a loss certificate (None: the walk instead)

    def detect(self, text: str) -> bool:
        """Whether a file's text is a deal of this game."""
        raise NotImplementedError

    def parse_deal(self, text: str, source: str) -> D:
        """The deal written in `text`; InputError naming `source` and the line if malformed."""
        raise NotImplementedError

    def write_deal(self, deal: D, form: str) -> str:
        """The deal in the named form; ValueError if that form cannot hold it."""
        raise NotImplementedError

    def variant(self, deal: D) -> str:
        """Which game exactly (black_hole, all_in_a_row, generalised, lbs...): stored with results."""
        raise NotImplementedError

    def describe(self, deal: D) -> str:
        """One line for people: variant and size."""
        raise NotImplementedError

    def read_answer(self, text: str, source: str, deal: D) -> tuple[Move, ...]:
        """An answer file (move list, or a solver's own output) as moves; InputError if unreadable."""
        raise NotImplementedError

    def replay(self, deal: D, moves: Sequence[Any], complete: bool = True) -> Replay:
        """Play the moves; with `complete`, the game must be won at the end."""
        raise NotImplementedError

    def canonical(self, deal: D, moves: Sequence[Any]) -> tuple[Move, ...]:
        """The moves as results store them (e.g. without a leading start card)."""
        return tuple(moves)

    def move_names(self, deal: D, moves: Sequence[Any]) -> list[str]:
        """The moves as text, in the form read_answer reads back."""
        raise NotImplementedError

    # Hooks with defaults

    def label(self, deal: D) -> str:
        """The name the deal itself carries (an LBS instance's), "" if none: pages and hunts show it."""
        return ""

    def named(self, deal: D, name: str) -> D:
        """The deal under `name`, for a game whose deals carry one (LBS's); by default the deal itself."""
        return deal

    def as_game(self, deal: D, game: str, text: str) -> D:
        """The deal read from `text` as the game a user named (`--game`), where the file leaves it
        open: black-hole-solve's Golf boards say no variant, so `--game golf_wrap_ranks` sets it. By
        default the deal as read; the named game is then checked against the deal's own."""
        return deal

    def sizes(self, deal: D) -> Sizes:
        """The deal's size: by default a deal of `piles` (top card first) on one foundation, of `ranks`."""
        return Sizes(len(deal.cards), tuple(map(len, deal.piles)), 1, deal.ranks)  # type: ignore[attr-defined]

    def certificate_numbers(self, deal: D) -> tuple[int, int]:
        """A loss certificate's positions (docs/certificates.md): how many numbers each has, and the least
        number the width must hold (above every card, when shorter positions are padded). By default a
        number for each foundation and each pile, and no least."""
        sizes = self.sizes(deal)
        return sizes.foundations + len(sizes.heights), 0

    def smaller(self, deal: D, fixed: bool) -> Iterator[D]:
        """The hunt's shrink candidates, one step simpler than `deal`, the biggest steps first; with
        `fixed` (a model of one shape) the same shape only. By default none: a hunt keeps the deal found."""
        return iter(())

    def page(self, deal: D, moves: Sequence[Any] | None, source: str = "") -> dict[str, object]:
        """The replay page's description of the deal and of the answer's `moves` (None: play by hand),
        as plain JSON data that the page's script draws (patience/pages/replay.py)."""
        raise UsageError(f"there is no replay page for {self.name} deals yet")

    def page_script(self) -> str:
        """JavaScript the replay page runs before its own, for a game whose `page` data names a layout the
        page does not draw (`layout`): it sets `window.patienceLayouts[layout] = (kit) => rules`, the
        rules, drawing and clicks of that layout (templates/replay.js says what `kit` holds and what
        the rules object has). "" (the default): the page's own layouts, piles and a foundation
        (Black Hole), piles and foundations (Binary Star) or a row (LBS), draw the data."""
        return ""


def get_game(name: str) -> Game[Any]:
    """The family that plays the game `name` (any spelling of any game: `all-in-a-row` is Black Hole's)."""
    return _family(family_of(game_name(name)))


@functools.cache
def _family(family: str) -> Game[Any]:
    return hook(FAMILY_CLASSES[family])()


def games_with(hook_name: str) -> tuple[str, ...]:
    """Every game (each game of each registered family) whose `Game` sets the hook `hook_name`
    (`native_search`...): the games a layer above the core plays, without a list of its own."""
    hooked = {family for family in FAMILY_CLASSES if getattr(_family(family), hook_name) is not None}
    return tuple(game for game in GAMES if family_of(game) in hooked)  # in the vocabulary's order


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
        deal = chosen.as_game(_parsed(chosen, text, source), named, text)
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
