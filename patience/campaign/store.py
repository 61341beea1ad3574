"""The campaign store: one SQLite row per deal x configuration, written in one transaction per
finished run, so a campaign killed at any moment (even kill -9) loses at most the runs in flight,
never half-writes one, and a rerun of the same command skips every row already there."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path

from patience.campaign.config import Configuration
from patience.campaign.record import RUN_COLUMNS, RunRecord
from patience.errors import InputError, UsageError
from patience.names import game_name

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



def open_database(path: str | Path, create: bool, schema: str, table: str, kind: str) -> sqlite3.Connection:
    """A store's SQLite file in WAL mode (created with `schema` if `create`); InputError if it is
    missing or is not a `kind` database (it has no `table`)."""
    if not create and not Path(path).is_file():
        raise InputError(str(path), None, "no such file")
    try:
        connection = sqlite3.connect(str(path), timeout=30, isolation_level=None)
        connection.execute("PRAGMA journal_mode=WAL")
        if create:
            connection.executescript(schema)
        connection.execute(f"SELECT count(*) FROM {table}").fetchone()
    except sqlite3.DatabaseError as error:
        raise InputError(str(path), None, f"not a {kind} database: {error}") from None
    return connection


class Store:
    """An open campaign database."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = str(path)
        self.connection = open_database(path, create, _SCHEMA, "runs", "campaign")
        self.kept: frozenset[str] | None = None

    def close(self) -> None:
        self.connection.close()

    def _transaction(self, statements: Iterable[tuple[str, tuple]]) -> None:
        with self.connection:
            self.connection.execute("BEGIN IMMEDIATE")
            for sql, values in statements:
                self.connection.execute(sql, values)

    def fix_settings(self, settings: Mapping[str, object]) -> None:
        """Record the limits on first use; a rerun with other limits would mix incomparable rows."""
        stored = dict(self.connection.execute("SELECT key, value FROM settings"))
        wanted = {key: json.dumps(value) for key, value in settings.items()}
        clashes = [f"{key} {stored[key]} (asked {value})" for key, value in wanted.items()
                   if key in stored and stored[key] != value]
        if clashes:
            raise UsageError(f"{self.path} was run with {', '.join(clashes)}; use another --db to change limits")
        self._transaction(("INSERT OR IGNORE INTO settings VALUES (?, ?)", item) for item in wanted.items())

    def fix_configurations(self, configurations: Iterable[Configuration]) -> None:
        """Record each configuration; the same label with other solver or options is refused."""
        stored = {label: (solver, options) for label, solver, options
                  in self.connection.execute("SELECT label, solver, options FROM configurations")}
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
        return set(self.connection.execute("SELECT deal, configuration FROM runs"))

    def forget_errors(self) -> int:
        """Drop the rows of runs that ended in an error, so that they run again."""
        with self.connection:
            return self.connection.execute("DELETE FROM runs WHERE status = 'error'").rowcount

    def record(self, run: RunRecord) -> bool:
        """Store one finished run in its own transaction; False if its row was already there."""
        values = run.values()
        with self.connection:
            cursor = self.connection.execute(
                f"INSERT OR IGNORE INTO runs ({', '.join(RUN_COLUMNS)}, finished) "
                f"VALUES ({', '.join('?' * len(RUN_COLUMNS))}, datetime('now'))", values)
        return cursor.rowcount == 1

    def settings(self) -> dict[str, object]:
        return {key: json.loads(value) for key, value in self.connection.execute("SELECT key, value FROM settings")}

    def configurations(self) -> list[tuple[str, str, str]]:
        return list(self.connection.execute("SELECT label, solver, options FROM configurations ORDER BY rowid"))

    def runs(self) -> list[RunRecord]:
        """The stored runs, only those on the deals of `keep_deals` once it was called."""
        cursor = self.connection.execute(f"SELECT {', '.join(RUN_COLUMNS)}, finished FROM runs ORDER BY rowid")
        return [RunRecord(*row) for row in cursor if self.kept is None or row[0] in self.kept]

    def keep_deals(self, names: Iterable[str]) -> None:
        """Report on these deals only (a part of a campaign still running, say)."""
        self.kept = frozenset(names)

    def deals(self) -> dict[str, tuple[str, int, int]]:
        """Each deal's game (its canonical name, whatever spelling the store was written with), cards, piles."""
        return {name: (game_name(game, what=f"game in {self.path}"), cards, piles) for name, game, cards, piles
                in self.connection.execute("SELECT name, game, cards, piles FROM deals")}
