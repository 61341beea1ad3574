"""One campaign row: a validated run of one configuration on one deal, as the store keeps it."""

from __future__ import annotations

from dataclasses import astuple, dataclass, fields
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from patience.games import Game, Move


@dataclass(frozen=True)
class RunRecord:
    """The store's `runs` row; `sequence` holds the moves by name, space-separated (solved runs only)."""

    deal: str
    configuration: str
    solver: str
    options: str  # JSON
    status: str
    sequence: str | None
    wall: float
    cpu: float
    nodes: int | None
    version: str | None
    host: str
    command: str
    message: str
    stats: str  # JSON
    finished: str | None = None  # set by the store when the row is written
    content: str = ""  # the deal's content key (`deal_content`); "" in runs stored before it was kept
    source: str = ""  # the deal's stored name, where `deal` is its label in a report (name#content)

    def values(self) -> tuple:
        """The columns the store writes (all but `finished` and `content`, which it writes apart)."""
        return astuple(self)[:len(RUN_COLUMNS)]


def stored_moves(game: Game, deal: Any, sequence: str, source: str) -> tuple[Move, ...]:
    """A stored sequence (move names, space-separated) read back into the game's moves, one name a line
    as its answer reader takes them; InputError if a name is not a move of the deal."""
    return game.read_answer("\n".join(sequence.split()), source, deal)


RUN_COLUMNS = tuple(field.name for field in fields(RunRecord) if field.name not in ("finished", "content", "source"))
