"""One campaign row: a validated run of one configuration on one deal, as the store keeps it."""

from __future__ import annotations

from dataclasses import astuple, dataclass, fields, replace
from typing import TYPE_CHECKING

from patience.result import Status

if TYPE_CHECKING:
    from patience.games import D, Game, Move


@dataclass(frozen=True)
class RunRecord:
    """The store's `runs` row; `sequence` holds the moves by name, space-separated (solved runs only).
    The status is a Status here and its name in the store (`values`, `stored`)."""

    deal: str
    configuration: str
    solver: str
    options: str  # JSON
    status: Status
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
        row = astuple(self)[:len(RUN_COLUMNS)]
        at = RUN_COLUMNS.index("status")
        return (*row[:at], Status(self.status).value, *row[at + 1:])

    @classmethod
    def stored(cls, row: tuple) -> RunRecord:
        """A row as the store reads it back (its status a name the store's check admitted)."""
        record = cls(*row)
        return replace(record, status=Status(record.status))


def stored_moves(game: Game[D], deal: D, sequence: str, source: str) -> tuple[Move, ...]:
    """A stored sequence (move names, space-separated) read back into the game's moves, one name a line
    as its answer reader takes them; InputError if a name is not a move of the deal."""
    return game.read_answer("\n".join(sequence.split()), source, deal)


RUN_COLUMNS = tuple(field.name for field in fields(RunRecord) if field.name not in ("finished", "content", "source"))
