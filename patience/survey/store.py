"""The survey store: one compact SQLite row per deal, written one batch per transaction, so that a
survey killed at any moment (even kill -9) loses only the batches in flight, never half of one,
and a rerun of the same command decides exactly the deals that have no row."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import NamedTuple

from patience import store_schemas, stores
from patience.generators.deals import random_deal
from patience.limits import seconds
from patience.result import Status

# A deal's status: a proven win, a proof that no play clears the table, or a search cut short by its
# node or time budget. The store keeps one mark for either budget, so an undecided deal is UNKNOWN
# (the rule of patience.result for a budget that is not only the clock).
UNDECIDED = Status.UNKNOWN
VERDICTS = (Status.SOLVED, Status.UNSOLVABLE, UNDECIDED)
# The storage boundary: verdicts are stored as these integers, and read back only through them.
STORED_VERDICT = {Status.SOLVED: 1, Status.UNSOLVABLE: 0, UNDECIDED: -1}
READ_VERDICT = {number: status for status, number in STORED_VERDICT.items()}
# Search modes: the most cards removable (a lost deal searched to the end), or only won or lost.
MAX_CARDS, DECISION = "max-cards", "decision"
MODES = (MAX_CARDS, DECISION)


def _shape(value: object) -> bool:
    """A random generalised survey's [ranks, suits, pile height], within the caps `--shape` is held
    to (one deal of it is made, as there); absent (None) for numbered deals."""
    if value is None:
        return True
    if not (isinstance(value, list) and len(value) == 3
            and all(isinstance(number, int) and not isinstance(number, bool) and number > 0 for number in value)):
        return False
    try:
        ranks, suits, height = value
        random_deal(ranks, suits, height, 0)
    except ValueError:
        return False
    return True

def _migrate(connection: sqlite3.Connection, version: int) -> None:
    """Schema 1 to 2, inside the first write's transaction: the table of certificates, empty."""
    connection.execute(store_schemas.SURVEY_CERTIFICATES_V2)


SURVEY = stores.StoreKind.of(
    store_schemas.SURVEY, migrate=_migrate,
    checks={
        "settings": {"key": stores.text("key"), "value": stores.text("value")},
        "deals": {"seed": stores.count("seed"), "verdict": stores.one_of("verdict", tuple(READ_VERDICT)),
                  "cards": stores.count("cards"), "nodes": stores.count("nodes"), "seconds": stores.seconds("seconds")},
        "certificates": {"seed": stores.count("seed"), "positions": stores.count("positions"),
                         "seconds": stores.seconds("seconds"), "data": stores.gzip_blob("data")},
    },
    settings={"game": lambda value: isinstance(value, str), "numbering": lambda value: isinstance(value, str),
              "mode": lambda value: value in MODES, "timeout": stores.typed_as(seconds),
              "nodes": stores.optional_positive_number, "shape": _shape,
              "certify": lambda value: isinstance(value, bool)},
)


def survey_settings(game: str, numbering: str | None, shape: tuple[int, int, int] | None, mode: str,
                    timeout: float, nodes: int | None, certify: bool = False) -> dict[str, object]:
    """The settings a survey records: its numbering for numbered deals, its shape for random ones;
    whether it certifies its losses (a certified survey resumed uncertified would mix the two)."""
    settings: dict[str, object] = {"game": game, "mode": mode, "timeout": timeout, "nodes": nodes, "certify": certify}
    return settings | ({"shape": list(shape)} if shape else {"numbering": numbering})


class Row(NamedTuple):
    """One decided deal: `cards` is the most cards some play removes (a longest play found, for an
    undecided deal)."""

    seed: int
    verdict: Status  # one of VERDICTS
    cards: int
    nodes: int
    seconds: float


class Certificate(NamedTuple):
    """The certificate of a lost deal (a patience.certificates file's bytes), and its pass's time."""

    seed: int
    positions: int
    seconds: float
    data: bytes


class SurveyStore(stores.Closing):
    """An open survey database."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        """`create` opens the store for writing (making it if missing); without it the store must
        exist and is only read."""
        self.path = str(path)
        self.database = stores.Database(path, SURVEY, writable=create)

    def close(self) -> None:
        self.database.close()

    def fix_settings(self, settings: Mapping[str, object]) -> None:
        """Record game, numbering (or shape), mode and limits on first use; a rerun with others would
        mix two surveys. A setting a store made before it existed has its default, None (`nodes`: no
        node limit, `shape`: numbered deals; `certify`: False)."""
        stored = self.settings()
        if stored:
            stored = {key: None for key in settings} | {"certify": False} | stored
        stores.fix_settings(self.database, self.path, stored, settings, "holds a survey with")

    def settings(self) -> dict[str, object]:
        """The settings, the game under its canonical name whatever spelling the store was written with."""
        settings = stores.settings(self.database)
        if "game" in settings:
            settings["game"] = stores.stored_game(self.path, settings["game"])
        return settings

    def add_batch(self, rows: Iterable[Row], certificates: Iterable[Certificate] = ()) -> int:
        """Store a batch (and its losses' certificates) in one transaction. A seed stored twice is an
        error (the batch is refused whole), so that no deal can ever be counted twice."""
        with self.database.transaction() as connection:
            cursor = connection.executemany(
                "INSERT INTO deals VALUES (?, ?, ?, ?, ?)",
                [(row.seed, STORED_VERDICT[row.verdict], row.cards, row.nodes, row.seconds) for row in rows])
            added = cursor.rowcount
            connection.executemany("INSERT INTO certificates VALUES (?, ?, ?, ?)",
                                   [tuple(certificate) for certificate in certificates])
        return added

    def certified(self) -> int:
        """The stored certificates (none in a store of schema 1)."""
        if self.database.version < 2:
            return 0
        return int(self.database.read("SELECT count(*) FROM certificates")[0][0])

    def certified_not_lost(self) -> list[tuple[int, Status | None]]:
        """The seeds with a certificate whose stored verdict is not lost (None: no row of the deal): a store
        that contradicts itself, which `check --db` reports."""
        if self.database.version < 2:
            return []
        return [(seed, None if verdict is None else READ_VERDICT.get(verdict)) for seed, verdict in self.database.read(
            "SELECT certificates.seed, deals.verdict FROM certificates LEFT JOIN deals USING (seed) "
            "WHERE deals.verdict IS NOT ? ORDER BY certificates.seed", (STORED_VERDICT[Status.UNSOLVABLE],))]

    def certificates(self) -> Iterator[Certificate]:
        """Every stored certificate, by seed, read a page at a time (a store may hold millions)."""
        if self.database.version < 2:
            return
        after = -1
        while page := self.database.read("SELECT seed, positions, seconds, data FROM certificates "
                                         "WHERE seed > ? ORDER BY seed LIMIT 256", (after,)):
            for seed, positions, spent, data in page:
                yield Certificate(seed, positions, spent, bytes(data))
            after = page[-1][0]

    def stored_seeds(self, first: int, last: int) -> set[int]:
        return {seed for (seed,) in self.database.read(
            "SELECT seed FROM deals WHERE seed BETWEEN ? AND ?", (first, last))}

    def verdict_counts(self, seeds: set[int] | None = None) -> dict[Status, int]:
        """Stored deals per verdict (of `seeds` only, when given)."""
        if seeds is None:
            return {READ_VERDICT[verdict]: count for verdict, count
                    in self.database.read("SELECT verdict, count(*) FROM deals GROUP BY verdict")}
        counts: dict[Status, int] = {}
        for seed, verdict in self.database.read("SELECT seed, verdict FROM deals"):
            if seed in seeds:
                status = READ_VERDICT[verdict]
                counts[status] = counts.get(status, 0) + 1
        return counts

    def rows(self) -> list[Row]:
        return [Row(seed, READ_VERDICT[verdict], *rest)
                for seed, verdict, *rest in self.database.read("SELECT * FROM deals ORDER BY seed")]
