"""The campaign store: one SQLite row per deal x configuration, written in one transaction per
finished run, so a campaign killed at any moment (even kill -9) loses at most the runs in flight,
never half-writes one, and a rerun of the same command skips every row already there."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple, cast

from patience import store_schemas, stores
from patience.campaign.analysis import Settings
from patience.campaign.config import Configuration
from patience.campaign.record import RUN_COLUMNS, RunRecord
from patience.errors import UsageError
from patience.limits import mebibytes, seconds
from patience.result import Status
from patience.runs import specs

UNRECORDED = ""  # the content of a deal stored by schema 1, which kept none
_SHOWN_CONTENT = 12  # hex digits of a content key in a deal's label
CHANGED_SHOWN = 5  # changed deal files named one a line in a note; the rest are counted


def _migrate(connection: sqlite3.Connection, version: int) -> None:
    """An older store to schema 3, inside the first write's transaction: from 1, each deal gets its
    content key (`_migrate_contents`); from 2, the table of certificates, empty."""
    if version < 2:
        _migrate_contents(connection)
    connection.execute(store_schemas.CAMPAIGN_CERTIFICATES_V3)


def _migrate_contents(connection: sqlite3.Connection) -> None:
    """Schema 1 to 2: each deal gets its content key. A numbered or random deal is made again from its
    name (the generators are deterministic); a deal file's content then is unknown (it may have
    changed since), so its runs keep UNRECORDED and a resumed campaign runs the file again."""
    connection.execute("ALTER TABLE runs RENAME TO runs_v1")
    connection.execute("ALTER TABLE deals RENAME TO deals_v1")
    connection.execute(store_schemas.CAMPAIGN_DEALS_V2)
    connection.execute(store_schemas.CAMPAIGN_RUNS_V2)
    contents = {}
    for name, game, cards, piles in connection.execute("SELECT name, game, cards, piles FROM deals_v1").fetchall():
        named = specs.stored_deal(name, UNRECORDED) if specs.generated(name) else None
        contents[name] = UNRECORDED if named is None else named.content
        connection.execute("INSERT INTO deals VALUES (?, ?, ?, ?, ?)", (name, contents[name], game, cards, piles))
    columns = ", ".join(column for column in RUN_COLUMNS if column != "deal")
    for name, content in contents.items():
        connection.execute(f"INSERT INTO runs (deal, content, {columns}, finished) "
                           f"SELECT deal, ?, {columns}, finished FROM runs_v1 WHERE deal = ?", (content, name))
    connection.execute(f"INSERT INTO runs (deal, content, {columns}, finished) SELECT deal, ?, {columns}, finished "
                       "FROM runs_v1 WHERE deal NOT IN (SELECT name FROM deals_v1)", (UNRECORDED,))
    connection.execute("DROP TABLE runs_v1")
    connection.execute("DROP TABLE deals_v1")


CAMPAIGN = stores.StoreKind.of(
    store_schemas.CAMPAIGN, migrate=_migrate,
    checks={
        "settings": {"key": stores.text("key"), "value": stores.text("value")},
        "configurations": {"label": stores.text("label"), "solver": stores.text("solver"),
                           "options": stores.json_object("options")},
        "deals": {"name": stores.text("name"), "content": stores.content("content"), "game": stores.text("game"),
                  "cards": stores.count("cards"),
                  "piles": stores.count("piles")},
        "runs": {"deal": stores.text("deal"), "content": stores.content("content"),
                 "configuration": stores.text("configuration"),
                 "solver": stores.text("solver"), "options": stores.json_object("options"),
                 "status": stores.one_of("status", tuple(Status)), "sequence": stores.optional_text("sequence"),
                 "wall": stores.seconds("wall"), "cpu": stores.seconds("cpu"), "nodes": stores.optional_count("nodes"),
                 **{column: stores.optional_text(column) for column in ("version", "host", "command", "message")},
                 "stats": stores.optional_json("stats"), "finished": stores.text("finished")},
        "certificates": {"deal": stores.text("deal"), "content": stores.content("content"),
                         "configuration": stores.text("configuration"), "positions": stores.count("positions"),
                         "seconds": stores.seconds("seconds"), "data": stores.gzip_blob("data")},
    },
    settings={"timeout": stores.typed_as(seconds, optional=True), "cpu": stores.typed_as(seconds, optional=True),
              "memory": stores.typed_as(mebibytes, optional=True), "certify": lambda value: isinstance(value, bool)},
)


class StoredCertificate(NamedTuple):
    """The certificate of a loss a campaign run reported (a patience.certificates file's bytes), and
    its pass's time."""

    deal: str
    content: str
    configuration: str
    positions: int
    seconds: float
    data: bytes


class Store(stores.Closing):
    """An open campaign database: `create` opens it for writing (making it if missing); without it
    the store must exist and is only read."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = str(path)
        self.database = stores.Database(path, CAMPAIGN, writable=create)
        self.kept: frozenset[tuple[str, str]] | None = None
        self.kept_names: frozenset[str] = frozenset()  # by name: the runs stored without content

    def close(self) -> None:
        self.database.close()

    def _transaction(self, statements: Iterable[tuple[str, tuple]]) -> None:
        with self.database.transaction() as connection:
            for sql, values in statements:
                connection.execute(sql, values)

    def fix_settings(self, settings: Mapping[str, object]) -> None:
        """Record the limits (and whether losses are certified) on first use; a rerun with others would
        mix incomparable rows. A store made before `certify` existed did not certify."""
        stored = stores.settings(self.database)
        if stored and "certify" in settings:
            stored = {"certify": False} | stored
        stores.fix_settings(self.database, self.path, stored, settings, "was run with")

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

    def add_deals(self, deals: Iterable[specs.NamedDeal]) -> None:
        self._transaction(("INSERT OR IGNORE INTO deals VALUES (?, ?, ?, ?, ?)",
                           (name, item.content, game, cards, piles))
                          for item in deals for name, game, cards, piles in [item.describe()])

    @property
    def _keyed(self) -> bool:
        """Whether the store keeps contents (schema 2); a schema 1 store is read as if each were UNRECORDED."""
        return self.database.version >= 2

    def _content(self) -> str:
        return "content" if self._keyed else f"'{UNRECORDED}'"

    def finished(self) -> set[tuple[str, str, str]]:
        """(deal, content, configuration) triples that already have their row."""
        return set(self.database.read(f"SELECT deal, {self._content()}, configuration FROM runs"))

    def statuses(self) -> dict[tuple[str, str, str], Status]:
        """Each stored run's status, by (deal, content, configuration)."""
        return {(deal, content, label): Status(status) for deal, content, label, status
                in self.database.read(f"SELECT deal, {self._content()}, configuration, status FROM runs")}

    def changed(self, deals: Iterable[specs.NamedDeal]) -> list[tuple[str, list[str], str]]:
        """Deals whose name is stored, but not with their content now (a deal file changed since it was
        stored): (name, the stored contents, the content now)."""
        stored: dict[str, list[str]] = {}
        for name, content in self.database.read(f"SELECT name, {self._content()} FROM deals ORDER BY rowid"):
            stored.setdefault(name, []).append(content)
        return [(item.name, stored[item.name], item.content) for item in deals
                if item.name in stored and item.content not in stored[item.name]]

    def forget_errors(self) -> int:
        """Drop the rows of runs that ended in an error, so that they run again."""
        with self.database.transaction() as connection:
            return connection.execute("DELETE FROM runs WHERE status = 'error'").rowcount

    def record(self, run: RunRecord, certificate: tuple[int, float, bytes] | None = None) -> bool:
        """Store one finished run (and its loss's certificate: positions, seconds, the file's bytes) in
        its own transaction; False if its row was already there."""
        with self.database.transaction() as connection:
            cursor = connection.execute(
                f"INSERT OR IGNORE INTO runs (deal, content, {', '.join(RUN_COLUMNS[1:])}, finished) "
                f"VALUES ({', '.join('?' * (len(RUN_COLUMNS) + 1))}, datetime('now'))",
                (run.deal, run.content, *run.values()[1:]))
            if certificate is not None and cursor.rowcount == 1:
                connection.execute("INSERT INTO certificates VALUES (?, ?, ?, ?, ?, ?)",
                                   (run.deal, run.content, run.configuration, *certificate))
        return cursor.rowcount == 1

    def certified(self) -> int:
        """The stored certificates (none before schema 3)."""
        if self.database.version < 3:
            return 0
        return int(self.database.read("SELECT count(*) FROM certificates")[0][0])

    def certified_runs(self) -> set[tuple[str, str, str]]:
        """The (deal, content, configuration) of each run with a stored certificate."""
        if self.database.version < 3:
            return set()
        return set(self.database.read("SELECT deal, content, configuration FROM certificates"))

    def certified_not_lost(self) -> list[tuple[str, str, str | None]]:
        """(deal, configuration, stored status or None: no run) of each certificate whose run is not
        stored as unsolvable: a store that contradicts itself, which `check --db` reports."""
        if self.database.version < 3:
            return []
        return [(deal, label, status) for deal, label, status in self.database.read(
            "SELECT certificates.deal, certificates.configuration, runs.status FROM certificates "
            "LEFT JOIN runs USING (deal, content, configuration) WHERE runs.status IS NOT ? "
            "ORDER BY certificates.rowid", (Status.UNSOLVABLE.value,))]

    def certificates(self) -> Iterator[StoredCertificate]:
        """Every stored certificate, read a page at a time."""
        if self.database.version < 3:
            return
        after = -1
        while page := self.database.read("SELECT rowid, deal, content, configuration, positions, seconds, data "
                                         "FROM certificates WHERE rowid > ? ORDER BY rowid LIMIT 64", (after,)):
            for _, deal, content, label, positions, spent, data in page:
                yield StoredCertificate(deal, content, label, positions, spent, bytes(data))
            after = page[-1][0]

    def several_contents(self) -> dict[str, list[str]]:
        """Stored names that have runs on more than one content (a deal file changed between runs)."""
        contents: dict[str, list[str]] = {}
        for name, content in self.labels():
            contents.setdefault(name, []).append(content)
        return {name: found for name, found in contents.items() if len(found) > 1}

    def labels(self) -> dict[tuple[str, str], str]:
        """Each stored deal's label in reports: its name, or where the store holds one name with several
        contents (a file changed between runs), the name and the start of each content key."""
        rows = list(dict.fromkeys(self.database.read(f"SELECT name, {self._content()} FROM deals ORDER BY rowid")
                                  + self.database.read(f"SELECT DISTINCT deal, {self._content()} FROM runs")))
        counts: dict[str, int] = {}
        for name, _ in rows:
            counts[name] = counts.get(name, 0) + 1
        return {(name, content): name if counts[name] == 1 else f"{name}#{content[:_SHOWN_CONTENT] or 'unrecorded'}"
                for name, content in rows}

    def settings(self) -> Settings:
        """The limits (certify apart: `certifies`)."""
        # opening the store checked each setting: a known key (CAMPAIGN.settings) holding a number or null
        return cast(Settings, {key: value for key, value in stores.settings(self.database).items() if key != "certify"})

    def certifies(self) -> bool:
        """Whether the campaign certifies its losses (certify: true)."""
        return stores.settings(self.database).get("certify") is True

    def configurations(self) -> list[tuple[str, str, str]]:
        return self.database.read("SELECT label, solver, options FROM configurations ORDER BY rowid")

    def runs(self) -> list[RunRecord]:
        """The stored runs, each deal under its label (`labels`), with its content key; only those on
        the deals of `keep_deals` once it was called."""
        rows = self.database.read(f"SELECT {', '.join(RUN_COLUMNS)}, finished, {self._content()} "
                                  "FROM runs ORDER BY rowid")
        labels = self.labels()
        return [replace(record, deal=labels[(record.deal, record.content)], source=record.deal)
                for record in (RunRecord.stored(row) for row in rows) if self._reported(record.deal, record.content)]

    def _reported(self, name: str, content: str) -> bool:
        """Whether the deal is among those of `keep_deals` (all, before it is called); one stored
        without its content (schema 1) is kept by name."""
        if self.kept is None or (name, content) in self.kept:
            return True
        return content == UNRECORDED and name in self.kept_names

    def keep_deals(self, deals: Iterable[specs.NamedDeal]) -> None:
        """Report on these deals only, as they are now (a part of a campaign still running, say); a run
        stored without its deal's content (schema 1) is kept by name."""
        self.kept = frozenset((item.name, item.content) for item in deals)
        self.kept_names = frozenset(name for name, _ in self.kept)

    def planned_deals(self) -> set[str]:
        """The labels of every deal a campaign on this store was asked to run (and any with a run),
        only those of `keep_deals` once it was called: each is to have one run per configuration."""
        return {label for (name, content), label in self.labels().items() if self._reported(name, content)}

    def sources(self) -> dict[str, tuple[str, str]]:
        """Each label's stored deal: its name and content key."""
        return {label: key for key, label in self.labels().items()}

    def deals(self) -> dict[str, tuple[str, int, int]]:
        """Each deal's game (its canonical name, whatever spelling the store was written with), cards, piles."""
        labels = self.labels()
        return {labels[(name, content)]: (stores.stored_game(self.path, game), cards, piles)
                for name, content, game, cards, piles
                in self.database.read(f"SELECT name, {self._content()}, game, cards, piles FROM deals")}
