"""One campaign row: a validated run of one configuration on one deal, as the store keeps it: the
judged result's record (patience.result.Result.to_record) under the campaign's keys."""

from __future__ import annotations

import json
from dataclasses import astuple, dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from patience.result import Status

if TYPE_CHECKING:
    from patience.campaign.config import Configuration
    from patience.games import D, Game, Move
    from patience.result import Result
    from patience.runs.specs import NamedDeal


@dataclass(frozen=True)
class RunRecord:
    """The store's `runs` row: the keys (the deal, the configuration and its options, the host) and a
    judged result's record (`kept`), whose `sequence` holds the moves by name, space-separated (solved
    runs only) and `stats` is JSON. The status is a Status here and its name in the store (`values`,
    `stored`)."""

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
    def kept(cls, deal: NamedDeal, configuration: Configuration, result: Result, host: str) -> RunRecord:
        """The row of `result`, a run of `configuration` on `deal` made on `host`: its record as it is,
        but for the moves joined into one text and the figures as JSON."""
        record = result.to_record()
        sequence = None if record["sequence"] is None else " ".join(record["sequence"])
        columns: dict[str, Any] = {**record, "status": result.status, "sequence": sequence,
                                   "stats": json.dumps(record["stats"], sort_keys=True)}
        return cls(**columns, deal=deal.name, configuration=configuration.label, options=configuration.options_json,
                   host=host, content=deal.content)

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
