"""The campaign store: one SQLite row per deal x configuration, written in one transaction per
finished run, so a campaign killed at any moment (even kill -9) loses at most the runs in flight,
never half-writes one, and a rerun of the same command skips every row already there."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from patience import stores
from patience.campaign.config import Configuration
from patience.campaign.record import RUN_COLUMNS, RunRecord
from patience.errors import UsageError
from patience.result import Status

_SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS configurations (
    label TEXT PRIMARY KEY, solver TEXT NOT NULL, options TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS deals (
    name TEXT PRIMARY KEY, game TEXT NOT NULL, cards INTEGER NOT NULL, piles INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    deal TEXT NOT NULL REFERENCES deals(name),
    configuration TEXT NOT NULL REFERENCES configurations(label),
    solver TEXT NOT NULL, options TEXT NOT NULL, status TEXT NOT NULL, sequence TEXT,
    wall REAL NOT NULL, cpu REAL NOT NULL, nodes INTEGER, version TEXT, host TEXT,
    command TEXT, message TEXT, stats TEXT, finished TEXT NOT NULL,
    PRIMARY KEY (deal, configuration));
"""

CAMPAIGN = stores.register(stores.StoreKind(
    name="campaign", application_id=0x50434D50, schema_version=1, schema=_SCHEMA,  # "PCMP"
    checks={
        "settings": {"key": stores.text("key"), "value": stores.text("value")},
        "configurations": {"label": stores.text("label"), "solver": stores.text("solver"),
                           "options": stores.json_object("options")},
        "deals": {"name": stores.text("name"), "game": stores.text("game"), "cards": stores.count("cards"),
                  "piles": stores.count("piles")},
        "runs": {"deal": stores.text("deal"), "configuration": stores.text("configuration"),
                 "solver": stores.text("solver"), "options": stores.json_object("options"),
                 "status": stores.one_of("status", tuple(Status)), "sequence": stores.optional_text("sequence"),
                 "wall": stores.seconds("wall"), "cpu": stores.seconds("cpu"), "nodes": stores.optional_count("nodes"),
                 **{column: stores.optional_text(column) for column in ("version", "host", "command", "message")},
                 "stats": stores.optional_json("stats"), "finished": stores.text("finished")},
    },
    settings={"timeout": stores.optional_positive_number, "cpu": stores.optional_positive_number,
              "memory": stores.optional_positive_number},
))


class Store:
    """An open campaign database: `create` opens it for writing (making it if missing); without it
    the store must exist and is only read."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = str(path)
        self.database = stores.Database(path, CAMPAIGN, writable=create)
        self.kept: frozenset[str] | None = None

    def close(self) -> None:
        self.database.close()

    def _transaction(self, statements: Iterable[tuple[str, tuple]]) -> None:
        with self.database.transaction() as connection:
            for sql, values in statements:
                connection.execute(sql, values)

    def fix_settings(self, settings: Mapping[str, object]) -> None:
        """Record the limits on first use; a rerun with other limits would mix incomparable rows."""
        stores.fix_settings(self.database, self.path, stores.settings(self.database), settings, "was run with")

    def fix_configurations(self, configurations: Iterable[Configuration]) -> None:
        """Record each configuration; the same label with other solver or options is refused."""
        stored = {label: (solver, options) for label, solver, options
                  in self.database.read("SELECT label, solver, options FROM configurations")}
        for configuration in configurations:
            known = stored.get(configuration.label)
            if known is not None and known != (configuration.solver, configuration.options_json):
                raise UsageError(f"{self.path}: configuration {configuration.label} was {known[0]} {known[1]}, "
                                 f"now {configuration.solver} {configuration.options_json}; choose another label")
        self._transaction(("INSERT OR IGNORE INTO configurations VALUES (?, ?, ?)",
                           (item.label, item.solver, item.options_json)) for item in configurations)

    def add_deals(self, deals: Iterable[tuple[str, str, int, int]]) -> None:
        self._transaction(("INSERT OR IGNORE INTO deals VALUES (?, ?, ?, ?)", row) for row in deals)

    def finished(self) -> set[tuple[str, str]]:
        """(deal, configuration) pairs that already have their row."""
        return set(self.database.read("SELECT deal, configuration FROM runs"))

    def forget_errors(self) -> int:
        """Drop the rows of runs that ended in an error, so that they run again."""
        with self.database.transaction() as connection:
            return connection.execute("DELETE FROM runs WHERE status = 'error'").rowcount

    def record(self, run: RunRecord) -> bool:
        """Store one finished run in its own transaction; False if its row was already there."""
        values = run.values()
        with self.database.transaction() as connection:
            cursor = connection.execute(
                f"INSERT OR IGNORE INTO runs ({', '.join(RUN_COLUMNS)}, finished) "
                f"VALUES ({', '.join('?' * len(RUN_COLUMNS))}, datetime('now'))", values)
        return cursor.rowcount == 1

    def settings(self) -> dict[str, object]:
        return stores.settings(self.database)

    def configurations(self) -> list[tuple[str, str, str]]:
        return self.database.read("SELECT label, solver, options FROM configurations ORDER BY rowid")

    def runs(self) -> list[RunRecord]:
        """The stored runs, only those on the deals of `keep_deals` once it was called."""
        rows = self.database.read(f"SELECT {', '.join(RUN_COLUMNS)}, finished FROM runs ORDER BY rowid")
        return [RunRecord(*row) for row in rows if self.kept is None or row[0] in self.kept]

    def keep_deals(self, names: Iterable[str]) -> None:
        """Report on these deals only (a part of a campaign still running, say)."""
        self.kept = frozenset(names)

    def deals(self) -> dict[str, tuple[str, int, int]]:
        """Each deal's game (its canonical name, whatever spelling the store was written with), cards, piles."""
        return {name: (stores.stored_game(self.path, game), cards, piles) for name, game, cards, piles
                in self.database.read("SELECT name, game, cards, piles FROM deals")}
