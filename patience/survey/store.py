"""The survey store: one compact SQLite row per deal, written one batch per transaction, so that a
survey killed at any moment (even kill -9) loses only the batches in flight, never half of one,
and a rerun of the same command decides exactly the deals that have no row."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from patience.campaign.store import open_database
from patience.errors import UsageError
from patience.names import game_name

_SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS deals (
    seed INTEGER PRIMARY KEY, verdict INTEGER NOT NULL, cards INTEGER NOT NULL,
    nodes INTEGER NOT NULL, seconds REAL NOT NULL);
"""

# Verdicts as stored: a proven win, a proof that no play clears the table, and a search cut short.
WON, LOST, UNDECIDED = 1, 0, -1
VERDICT_NAMES = {WON: "solved", LOST: "unsolvable", UNDECIDED: "timeout"}


class Row(NamedTuple):
    """One decided deal: `cards` is the most cards some play removes (a longest play found, for an
    undecided deal)."""

    seed: int
    verdict: int
    cards: int
    nodes: int
    seconds: float


class SurveyStore:
    """An open survey database."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = str(path)
        self.connection = open_database(path, create, _SCHEMA, "deals", "survey")

    def close(self) -> None:
        self.connection.close()

    def fix_settings(self, settings: Mapping[str, object]) -> None:
        """Record game, numbering and limits on first use; a rerun with others would mix two surveys.
        A setting a store made before it existed has its default, None (`nodes`: no node limit)."""
        stored = self.settings()
        if stored:
            stored = {key: None for key in settings} | stored
        clashes = [f"{key} {stored[key]} (asked {value})" for key, value in settings.items()
                   if key in stored and stored[key] != value]
        if clashes:
            raise UsageError(f"{self.path} holds a survey with {', '.join(clashes)}; use another --db")
        with self.connection:
            self.connection.execute("BEGIN IMMEDIATE")
            self.connection.executemany("INSERT OR IGNORE INTO settings VALUES (?, ?)",
                                        [(key, json.dumps(value)) for key, value in settings.items()])

    def settings(self) -> dict[str, object]:
        """The settings, the game under its canonical name whatever spelling the store was written with."""
        settings = {key: json.loads(value) for key, value in self.connection.execute("SELECT key, value FROM settings")}
        if "game" in settings:
            settings["game"] = game_name(str(settings["game"]), what=f"game in {self.path}")
        return settings

    def add_batch(self, rows: Iterable[Row]) -> int:
        """Store a batch in one transaction. A seed stored twice is an error (the batch is refused
        whole), so that no deal can ever be counted twice."""
        with self.connection:
            self.connection.execute("BEGIN IMMEDIATE")
            cursor = self.connection.executemany("INSERT INTO deals VALUES (?, ?, ?, ?, ?)", list(rows))
        return cursor.rowcount

    def stored_seeds(self, first: int, last: int) -> set[int]:
        return {seed for (seed,) in self.connection.execute(
            "SELECT seed FROM deals WHERE seed BETWEEN ? AND ?", (first, last))}

    def verdict_counts(self, seeds: set[int] | None = None) -> dict[int, int]:
        """Stored deals per verdict (of `seeds` only, when given)."""
        if seeds is None:
            return dict(self.connection.execute("SELECT verdict, count(*) FROM deals GROUP BY verdict"))
        counts: dict[int, int] = {}
        for seed, verdict in self.connection.execute("SELECT seed, verdict FROM deals"):
            if seed in seeds:
                counts[verdict] = counts.get(verdict, 0) + 1
        return counts

    def rows(self) -> list[Row]:
        return [Row(*row) for row in self.connection.execute("SELECT * FROM deals ORDER BY seed")]
