"""What every game shares, whatever its rules: the open base of deal types and a replay's verdict.

Nothing here knows a game: a game's package subclasses `GameDeal` for its deal type and returns a
`Replay` from its validator. A deal draws itself in a notebook through the drawer the page layer
installs (`patience.pages.notebook`, installed when `patience` is imported): the core names no page.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from patience.columns import counted

_drawers: dict[type, Callable[[Any], str]] = {}


def install_drawer(drawer: Callable[[Any], str], kind: type | None = None) -> None:
    """Make `drawer` how every deal (or every `kind`, such as a judged result) draws itself in a
    notebook (`_repr_html_`); the last installed wins."""
    _drawers[kind or GameDeal] = drawer


def drawn(thing: object, kind: type) -> str | None:
    """`thing` drawn by the drawer installed for its `kind`, or None where none is."""
    drawer = _drawers.get(kind)
    return None if drawer is None else drawer(thing)


class GameDeal:
    """The base of every game's deal type: it draws itself in Jupyter as on the replay page, and
    prints as its game writes it. A deal type is a frozen dataclass whose `cards` lists its cards."""

    if TYPE_CHECKING:
        @property
        def cards(self) -> Sequence[Any]: ...

    def _repr_html_(self) -> str | None:
        return drawn(self, GameDeal)

    def __str__(self) -> str:
        """The deal as `patience deal` prints it: its game's first form (board text, an LBS row's
        `.param`), or YAML for a deal that form cannot hold (ranks beyond a standard deck's names)."""
        from patience.games import game_of

        game = game_of(self)
        for form in dict.fromkeys((game.forms[0], "yaml")):
            try:
                return game.write_deal(self, form)
            except ValueError:
                continue
        return repr(self)


@dataclass(frozen=True)
class Replay:
    """What replaying a move list found (in any game): legal moves made, and the first fault."""

    moves: int
    fault: str | None

    @property
    def valid(self) -> bool:
        return self.fault is None

    def __bool__(self) -> bool:
        """True exactly when valid: `if patience.validate(deal, moves):` asks whether the moves win
        (or, with `partial`, are legal)."""
        return self.valid

    def to_dict(self) -> dict[str, object]:
        """The replay as plain data (JSON-ready): `valid`, `moves` (legal moves made) and `fault`."""
        return {"valid": self.valid, "moves": self.moves, "fault": self.fault}

    def describe(self) -> str:
        return f"valid: {counted(self.moves, 'move')}" if self.valid else f"invalid: {self.fault}"
