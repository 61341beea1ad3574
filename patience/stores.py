"""Opening a store's SQLite file as trusted tools open files they did not write: every check is made
on a read-only connection before anything is written, so that a store that is foreign (another
program's, or another kind of ours), newer, damaged or half-written is refused in one line with its
bytes unchanged.

A store marks itself with SQLite's own header fields: `PRAGMA application_id` says which kind of
patience store it is, `PRAGMA user_version` which schema it has. Stores written before the marks
existed (application_id 0) are recognised by their tables and marked by their first write."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import urllib.parse
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from patience.errors import InputError, UsageError
from patience.names import game_name

_SQLITE_MAGIC = b"SQLite format 3\x00"
_SHOWN_VALUE = 60  # characters of an offending value quoted in an error line
BUSY_SECONDS = 30


@dataclass(frozen=True)
class StoreKind:
    """What one kind of store looks like. `checks` maps each table to its columns' SQL conditions
    that every row must meet (NULL counts as not met); `settings` maps each known setting to a test
    of its JSON value."""

    name: str
    application_id: int
    schema_version: int
    schema: str
    checks: Mapping[str, Mapping[str, str]]
    settings: Mapping[str, Callable[[object], bool]]
    shapes: Mapping[str, tuple[tuple, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        memory = sqlite3.connect(":memory:")
        memory.executescript(self.schema)
        object.__setattr__(self, "shapes", _shapes(memory))
        memory.close()


KINDS: dict[int, StoreKind] = {}


def register(kind: StoreKind) -> StoreKind:
    """Make the kind known, so that a store of one kind is named when another kind is asked for."""
    KINDS[kind.application_id] = kind
    return kind


def text(column: str) -> str:
    return f"typeof({column}) = 'text'"


def optional_text(column: str) -> str:
    return f"typeof({column}) IN ('text', 'null')"


def count(column: str) -> str:
    return f"(typeof({column}) = 'integer' AND {column} >= 0)"


def optional_count(column: str) -> str:
    return f"({column} IS NULL OR {count(column)})"


def seconds(column: str) -> str:
    return f"(typeof({column}) IN ('integer', 'real') AND {column} >= 0)"


def json_object(column: str) -> str:
    return f"(CASE WHEN {text(column)} AND json_valid({column}) THEN json_type({column}) = 'object' ELSE 0 END)"


def optional_json(column: str) -> str:
    return f"({column} IS NULL OR ({text(column)} AND json_valid({column})))"


def one_of(column: str, values: tuple[object, ...]) -> str:
    return f"{column} IN ({', '.join(_literal(value) for value in values)})"


def positive_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0


def optional_positive_number(value: object) -> bool:
    return value is None or positive_number(value)


def _literal(value: object) -> str:
    return str(value) if isinstance(value, int) else "'" + str(value).replace("'", "''") + "'"


class Database:
    """An open, checked store file. `transaction()` is the only way to write, and the first write to
    a store of the previous version marks it. A store opened not `writable` must exist already."""

    def __init__(self, path: str | Path, kind: StoreKind, writable: bool) -> None:
        self.path = str(path)
        self.kind = kind
        self.unmarked = _check(self.path, kind, writable)
        try:
            self.connection = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
            if writable:
                if self.unmarked is None:  # a new store: its tables and marks in one transaction
                    self.connection.executescript(f"BEGIN IMMEDIATE; {kind.schema} {_marks(kind)} COMMIT;")
                    self.unmarked = False
                self.connection.execute("PRAGMA journal_mode=WAL")
        except (sqlite3.Error, UnicodeDecodeError) as error:
            raise InputError(self.path, None, f"cannot open the {kind.name} store: {_short(str(error))}") from None
        self.connection.text_factory = _text

    def close(self) -> None:
        self.connection.close()

    def read(self, sql: str, values: tuple = ()) -> list[tuple]:
        """The rows of one query; a store damaged since it was checked is still one line, not a traceback."""
        try:
            return self.connection.execute(sql, values).fetchall()
        except (sqlite3.Error, UnicodeDecodeError) as error:
            raise InputError(self.path, None, f"damaged {self.kind.name} store: {_short(str(error))}") from None

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; a store of the previous version gets its marks in the first one."""
        try:
            with self.connection:
                self.connection.execute("BEGIN IMMEDIATE")
                if self.unmarked:
                    self.connection.execute(f"PRAGMA application_id = {self.kind.application_id}")
                    self.connection.execute(f"PRAGMA user_version = {self.kind.schema_version}")
                yield self.connection
        except (sqlite3.Error, UnicodeDecodeError) as error:
            message = f"cannot write the {self.kind.name} store: {_short(str(error))}"
            raise InputError(self.path, None, message) from None
        self.unmarked = False


def _text(value: bytes) -> str:
    """Text a damaged or foreign writer left undecodable stays readable (SQLite does not check UTF-8)."""
    return value.decode("utf-8", errors="replace")


def _marks(kind: StoreKind) -> str:
    return f"PRAGMA application_id = {kind.application_id}; PRAGMA user_version = {kind.schema_version};"


def _read_only(path: str) -> sqlite3.Connection:
    """A connection that cannot write the file. Without a write-ahead log beside it the file is all
    there is, and reading it as immutable leaves no -wal or -shm file behind either."""
    immutable = "" if Path(path + "-wal").exists() else "&immutable=1"
    uri = f"file://{urllib.parse.quote(os.path.abspath(path))}?mode=ro{immutable}"
    connection = sqlite3.connect(uri, uri=True, timeout=BUSY_SECONDS, isolation_level=None)
    connection.text_factory = _text
    return connection


def _shapes(connection: sqlite3.Connection) -> dict[str, tuple[tuple, ...]]:
    """Every table's columns as `PRAGMA table_info` gives them (name, type, not null, default, key)."""
    tables = [name for (name,) in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    return {name: tuple(row[1:] for row in connection.execute(f"PRAGMA table_info({_quoted(name)})"))
            for name in tables}


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _check(path: str, kind: StoreKind, writable: bool) -> bool | None:
    """Refuse (InputError) a store this program must not touch; otherwise whether it still lacks its
    marks (a store of the previous version), or None when there is no store yet to check."""
    where = Path(path)
    if not where.exists():
        if writable:
            return None
        raise InputError(path, None, "no such file")
    if not where.is_file():
        raise InputError(path, None, f"not a regular file, not a {kind.name} store")
    try:
        with open(where, "rb") as stream:
            head = stream.read(len(_SQLITE_MAGIC))
    except OSError as error:
        raise InputError(path, None, f"cannot read: {error.strerror}") from None
    if not head:
        if writable:  # nothing to lose: a store whose creation never committed, or `touch`
            return None
        raise InputError(path, None, f"empty file, not a {kind.name} store")
    if head != _SQLITE_MAGIC:
        raise InputError(path, None, f"not an SQLite database, so not a {kind.name} store")
    try:
        connection = _read_only(path)
        try:
            return _check_contents(connection, path, kind)
        finally:
            connection.close()
    except (sqlite3.Error, UnicodeDecodeError) as error:
        raise InputError(path, None, f"damaged {kind.name} store: {_short(str(error))}") from None


def _check_contents(connection: sqlite3.Connection, path: str, kind: StoreKind) -> bool:
    (application_id,) = connection.execute("PRAGMA application_id").fetchone()
    (version,) = connection.execute("PRAGMA user_version").fetchone()
    shapes = _shapes(connection)
    if application_id == 0:
        _check_unmarked(shapes, path, kind)
    elif application_id != kind.application_id:
        other = KINDS.get(application_id)
        raise InputError(path, None, f"a patience {other.name} store, not a {kind.name} store" if other
                         else f"not a patience store (application_id {application_id:#x})")
    elif version > kind.schema_version:
        raise InputError(path, None, f"{kind.name} store of schema version {version}, newer than this "
                                     f"patience reads ({kind.schema_version}); use a newer patience")
    elif version < 1:
        raise InputError(path, None, f"half-written {kind.name} store (marked, but schema version {version})")
    elif _mismatch(shapes, kind):
        raise InputError(path, None, f"damaged {kind.name} store: {_mismatch(shapes, kind)}")
    problems = [row[0] for row in connection.execute("PRAGMA quick_check(1)")]
    if problems != ["ok"]:
        raise InputError(path, None, f"damaged {kind.name} store: {_short(str(problems[0]))}")
    _check_rows(connection, path, kind)
    _check_settings(connection, path, kind)
    return application_id == 0


def _check_unmarked(shapes: Mapping[str, tuple[tuple, ...]], path: str, kind: StoreKind) -> None:
    """A store without marks is ours if it has our tables (the previous version wrote no marks)."""
    problem = _mismatch(shapes, kind)
    if problem is None:
        return
    other = next((item for item in KINDS.values() if _mismatch(shapes, item) is None), None)
    if other is not None:
        raise InputError(path, None, f"a patience {other.name} store, not a {kind.name} store")
    if not shapes:
        raise InputError(path, None, f"an SQLite database without tables, not a {kind.name} store")
    if set(shapes) & set(kind.shapes) - {"settings"}:
        raise InputError(path, None, f"damaged {kind.name} store: {problem}")
    raise InputError(path, None, f"not a {kind.name} store (neither its mark nor its tables)")


def _mismatch(shapes: Mapping[str, tuple[tuple, ...]], kind: StoreKind) -> str | None:
    """What differs from the kind's tables, if anything: a missing table or one of other columns."""
    for table, shape in kind.shapes.items():
        if table not in shapes:
            return f"table {table} is missing"
        if shapes[table] != shape:
            return f"table {table} has other columns"
    return None


def _check_rows(connection: sqlite3.Connection, path: str, kind: StoreKind) -> None:
    """One pass over each table: the first row with a value this program cannot read is refused."""
    for table, columns in kind.checks.items():
        tests = [f"coalesce({condition}, 0)" for condition in columns.values()]
        found = connection.execute(f"SELECT rowid FROM {table} WHERE NOT ({' AND '.join(tests)}) LIMIT 1").fetchone()
        if found is None:
            continue
        passed = connection.execute(f"SELECT {', '.join(tests)} FROM {table} WHERE rowid = ?", found).fetchone()
        column = next(name for name, ok in zip(columns, passed, strict=True) if not ok)
        (value,) = connection.execute(f"SELECT quote({column}) FROM {table} WHERE rowid = ?", found).fetchone()
        raise InputError(path, None, f"damaged {kind.name} store: table {table}, row {found[0]}: "
                                     f"{column} {_short(str(value))} is not one this patience reads")


def _check_settings(connection: sqlite3.Connection, path: str, kind: StoreKind) -> None:
    for key, value in connection.execute("SELECT key, value FROM settings"):
        if key not in kind.settings:
            raise InputError(path, None, f"damaged {kind.name} store: unknown setting {_short(repr(key))}")
        try:
            decoded = json.loads(value)
        except (TypeError, ValueError, RecursionError):
            raise InputError(path, None, f"damaged {kind.name} store: setting {key} is not JSON: "
                                         f"{_short(repr(value))}") from None
        if not kind.settings[key](decoded):
            raise InputError(path, None, f"damaged {kind.name} store: setting {key} {_short(value)} "
                                         "is not one this patience reads")


def _short(value: str) -> str:
    """A value or message as part of one error line: on one line, and cut short."""
    value = " ".join(value.split())
    return value if len(value) <= _SHOWN_VALUE else value[:_SHOWN_VALUE] + "..."


def stored_game(path: str, text: object) -> str:
    """A game name read from a store, canonical whatever spelling wrote it; a store naming no game
    this toolkit knows is refused as damaged, naming the store."""
    try:
        return game_name(str(text))
    except UsageError:
        raise InputError(path, None, f"damaged store: it names an unknown game {_short(repr(text))}") from None


def settings(database: Database) -> dict[str, object]:
    """The settings table, checked on opening to hold JSON values."""
    return {key: json.loads(value) for key, value in database.read("SELECT key, value FROM settings")}


def fix_settings(database: Database, path: str, stored: Mapping[str, object], settings: Mapping[str, object],
                 held: str) -> None:
    """Record `settings` on first use. A store holds one experiment, so a value other than the stored
    one is refused in one line: `PATH: HELD KEY STORED (asked VALUE); use another --db`."""
    clashes = [f"{key} {stored[key]} (asked {value})" for key, value in settings.items()
               if key in stored and stored[key] != value]
    if clashes:
        raise UsageError(f"{path}: {held} {', '.join(clashes)}; use another --db")
    with database.transaction() as connection:
        connection.executemany("INSERT OR IGNORE INTO settings VALUES (?, ?)",
                               [(key, json.dumps(value)) for key, value in settings.items()])
