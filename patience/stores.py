"""Opening a store's SQLite file as trusted tools open files they did not write: every check is made
on a read-only connection before anything is written, so that a store that is foreign (another
program's, or another kind of ours), newer, damaged or half-written is refused in one line with its
bytes unchanged.

A store marks itself with SQLite's own header fields: `PRAGMA application_id` says which kind of
patience store it is, `PRAGMA user_version` which schema it has. Stores written before the marks
existed (application_id 0) are recognised by their tables and marked by their first write.

A store is SQL as well as data: a trigger or view in someone else's file would run on our writes
and change what we store or report. So the whole schema (every row of `sqlite_master`: tables,
indexes, views, triggers) must be exactly the kind's, or the store is refused before anything is
read or written; every connection is opened with SQLite's defensive settings where this Python has
them, and every write transaction first checks that the schema is still the one checked."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import re
import sqlite3
import urllib.parse
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, Self

from patience.caps import MAX_JSON_DEPTH, MAX_STORED_JSON_CHARS
from patience.errors import InputError, UsageError
from patience.names import game_name
from patience.store_schemas import SCHEMAS, StoreSchema

_SQLITE_MAGIC = b"SQLite format 3\x00"
_SHOWN_VALUE = 60  # characters of an offending value quoted in an error line
BUSY_SECONDS = 30


@dataclass(frozen=True)
class StoreKind:
    """What one kind of store looks like: its declaration (patience.store_schemas) and what its rows
    hold. `checks` maps each table to its columns' SQL conditions that every row must meet (NULL
    counts as not met); `settings` maps each known setting to a test of its JSON value."""

    name: str
    application_id: int
    schema_version: int
    schema: str
    checks: Mapping[str, Mapping[str, str]]
    settings: Mapping[str, Callable[[object], bool]]
    made_by: str = ""  # the command that writes it, named when another kind of store is given
    previous: Mapping[int, str] = field(default_factory=dict)  # older schema versions still read
    migrate: Callable[[sqlite3.Connection, int], None] | None = None  # from an older version, in the first write
    shapes: Mapping[int, Mapping[str, tuple[tuple, ...]]] = field(init=False, repr=False, compare=False)
    masters: Mapping[int, frozenset[tuple]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        masters, shapes = {}, {}
        for version, schema in {**self.previous, self.schema_version: self.schema}.items():
            memory = sqlite3.connect(":memory:")
            memory.executescript(schema)
            shapes[version], masters[version] = _shapes(memory), _master(memory)
            memory.close()
        object.__setattr__(self, "shapes", shapes)
        object.__setattr__(self, "masters", masters)

    @classmethod
    def of(cls, declared: StoreSchema, checks: Mapping[str, Mapping[str, str]],
           settings: Mapping[str, Callable[[object], bool]],
           migrate: Callable[[sqlite3.Connection, int], None] | None = None) -> StoreKind:
        """The kind declared in patience.store_schemas, with what its rows and settings must hold."""
        if declared not in SCHEMAS:
            raise ValueError(f"the {declared.name} store is not declared in patience.store_schemas")
        return cls(declared.name, declared.application_id, declared.schema_version, declared.schema, checks,
                   settings, declared.made_by, declared.previous, migrate)



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


def content(column: str) -> str:
    """A deal's content key: a SHA-256 in hex, or empty where a store of schema 1 kept none."""
    return f"({text(column)} AND (length({column}) = 64 AND NOT {column} GLOB '*[^0-9a-f]*' OR {column} = ''))"


def optional_json(column: str) -> str:
    return f"({column} IS NULL OR ({text(column)} AND json_valid({column})))"


def one_of(column: str, values: tuple[object, ...]) -> str:
    return f"{column} IN ({', '.join(_literal(value) for value in values)})"


def gzip_blob(column: str) -> str:
    """Bytes that start as a gzip file does (a certificate's)."""
    return f"(typeof({column}) = 'blob' AND substr({column}, 1, 2) = x'1f8b')"


def positive_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0


def optional_positive_number(value: object) -> bool:
    return value is None or positive_number(value)


def typed_as(parse: Callable[[str], object], optional: bool = False) -> Callable[[object], bool]:
    """A test of a stored number by the parser of the option that sets it (`seconds`, `mebibytes`):
    a stored value is held to the same checks and caps as a typed one."""
    def test(value: object) -> bool:
        if value is None:
            return optional
        if not isinstance(value, int | float) or isinstance(value, bool):
            return False
        try:
            if not math.isfinite(value):
                return False
            parse(repr(value))
        except (ValueError, OverflowError, argparse.ArgumentTypeError, UsageError):
            return False
        return True

    return test


def stored_json(text: str) -> object:
    """A JSON value read from a store, within the bounds `json_bounds` checks; ValueError saying
    which bound it passes, or that it is not JSON."""
    problem = json_bounds(text)
    if problem is not None:
        raise ValueError(problem)
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise ValueError("not JSON") from None


def json_bounds(text: str) -> str | None:
    """What makes a stored JSON text too big to read, if anything: more than MAX_STORED_JSON_CHARS
    characters, or lists and objects nested more than MAX_JSON_DEPTH deep (found by one linear pass,
    before Python's parser, which would recurse)."""
    if len(text) > MAX_STORED_JSON_CHARS:
        return f"longer than {MAX_STORED_JSON_CHARS} characters"
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return None
    depth, in_string, escaped = 0, False, False
    for character in text:  # one pass: brackets inside strings do not count
        if in_string:
            if escaped:
                escaped = False
            elif character == "\\":
                escaped = True
            elif character == '"':
                in_string = False
        elif character == '"':
            in_string = True
        elif character in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return f"nested more than {MAX_JSON_DEPTH} deep"
        elif character in "]}":
            depth -= 1
    return None


def _literal(value: object) -> str:
    return str(value) if isinstance(value, int) else "'" + str(value).replace("'", "''") + "'"


class Closing:
    """An open store that a `with` block closes, however the block ends: `with Store(path) as store:`.
    Opening (the whole check) happens before the block, so nothing in it runs on a refused store."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exception: object) -> None:
        self.close()


class Database(Closing):
    """An open, checked store file. `transaction()` is the only way to write, and the first write to
    a store of the previous version marks it. A store opened not `writable` must exist already."""

    def __init__(self, path: str | Path, kind: StoreKind, writable: bool) -> None:
        self.path = str(path)
        self.kind = kind
        checked = _check(self.path, kind, writable)
        self.unmarked = None if checked is None else checked.unmarked
        self.version = kind.schema_version if checked is None else checked.version
        self.cookie = None if checked is None else checked.cookie
        if writable:
            _check_writable(self.path, kind)
        try:
            if not writable:  # reading needs no write access, and leaves the file as it was
                self.connection = _read_only(self.path)
                return
            self.connection = _harden(sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None))
            if self.unmarked is None:  # a new store: its tables and marks in one transaction
                self.connection.executescript(f"BEGIN IMMEDIATE; {kind.schema} {_marks(kind)} COMMIT;")
                self.unmarked = False
                self.cookie = _cookie(self.connection)
                if _master(self.connection) != kind.masters[kind.schema_version]:  # another writer's store
                    raise InputError(self.path, None, f"another program wrote this file while it was made "
                                                      f"into a {kind.name} store; run again")
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
                if _cookie(self.connection) != self.cookie and not self._migrated_meanwhile():
                    raise InputError(self.path, None, f"the {self.kind.name} store's schema was changed by "
                                                      "another program while open; nothing was written")
                if self.unmarked:
                    self.connection.execute(f"PRAGMA application_id = {self.kind.application_id}")
                if self.version < self.kind.schema_version and self.kind.migrate is not None:
                    self.kind.migrate(self.connection, self.version)
                if self.unmarked or self.version < self.kind.schema_version:
                    self.connection.execute(f"PRAGMA user_version = {self.kind.schema_version}")
                yield self.connection
        except sqlite3.IntegrityError as error:
            message = (f"another process is writing this {self.kind.name} store at the same time "
                       f"({_short(str(error))}); run one command per store")
            raise InputError(self.path, None, message) from None
        except (sqlite3.Error, UnicodeDecodeError) as error:
            message = f"cannot write the {self.kind.name} store: {_short(str(error))}"
            raise InputError(self.path, None, message) from None
        if self.version < self.kind.schema_version:  # migrated: the schema is now the current one
            self.version, self.cookie = self.kind.schema_version, _cookie(self.connection)
        self.unmarked = False


    def _migrated_meanwhile(self) -> bool:
        """Whether another process (a second `compare` resumed on the same store) migrated this store
        to the current schema after this one checked it at an older version: this one's write waited
        for that migration (SQLite's busy timeout), and goes on with the store as it is now, checked
        again as a whole, rather than calling the schema change foreign."""
        if self.version >= self.kind.schema_version:
            return False
        (application_id,) = self.connection.execute("PRAGMA application_id").fetchone()
        (version,) = self.connection.execute("PRAGMA user_version").fetchone()
        if application_id != self.kind.application_id or version != self.kind.schema_version:
            return False
        checked = _check_contents(self.connection, self.path, self.kind)
        self.version, self.cookie, self.unmarked = checked.version, checked.cookie, False
        return True


def _text(value: bytes) -> str:
    """Text a damaged or foreign writer left undecodable stays readable (SQLite does not check UTF-8)."""
    return value.decode("utf-8", errors="replace")


def _marks(kind: StoreKind) -> str:
    return f"PRAGMA application_id = {kind.application_id}; PRAGMA user_version = {kind.schema_version};"


def _read_only(path: str) -> sqlite3.Connection:
    """A connection that cannot write the file, and needs no write access to it or its folder.
    Without a write-ahead log beside it the file is all there is, and reading it as immutable leaves
    no -wal or -shm file behind either (nor needs to make one, on a read-only file system)."""
    immutable = "" if Path(path + "-wal").exists() else "&immutable=1"
    # the path as bytes: a file name no encoding reads (a Latin-1 byte) is quoted as the byte it is
    uri = f"file://{urllib.parse.quote(os.fsencode(os.path.abspath(path)))}?mode=ro{immutable}"
    connection = _harden(sqlite3.connect(uri, uri=True, timeout=BUSY_SECONDS, isolation_level=None))
    connection.text_factory = _text
    return connection


_DEFENSIVE = (("SQLITE_DBCONFIG_DEFENSIVE", True), ("SQLITE_DBCONFIG_ENABLE_TRIGGER", False),
              ("SQLITE_DBCONFIG_ENABLE_VIEW", False), ("SQLITE_DBCONFIG_TRUSTED_SCHEMA", False),
              ("SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION", False))


def _harden(connection: sqlite3.Connection) -> sqlite3.Connection:
    """SQLite's settings for files of unknown origin, those this Python's sqlite3 offers (setconfig
    came with Python 3.12): no triggers, no views, no functions called from a schema, no schema edits
    through writable_schema. The schema check already refuses such stores: these are a second wall."""
    connection.execute("PRAGMA trusted_schema = OFF")
    connection.execute("PRAGMA recursive_triggers = OFF")
    if hasattr(connection, "setconfig"):
        for name, value in _DEFENSIVE:
            if hasattr(sqlite3, name):
                connection.setconfig(getattr(sqlite3, name), value)
    return connection


def _cookie(connection: sqlite3.Connection) -> int:
    """SQLite's schema cookie: it changes whenever anyone changes the schema."""
    return connection.execute("PRAGMA schema_version").fetchone()[0]


def _master(connection: sqlite3.Connection) -> frozenset[tuple]:
    """The whole schema: every object's type, name, table and SQL (`_normal`)."""
    return frozenset((kind, name, table, None if sql is None else _normal(str(sql)))
                     for kind, name, table, sql in connection.execute(
                         "SELECT type, name, tbl_name, sql FROM sqlite_master"))


_AROUND_PUNCTUATION = re.compile(r" ?([(),;]) ?")  # after white space is single spaces: linear


def _normal(sql: str) -> str:
    """A CREATE statement as SQLite reads it: one case, no quotes around names, no white space around
    punctuation, single spaces elsewhere (a store made by hand, or an older writer, spaces it otherwise;
    the columns themselves are compared apart, by `PRAGMA table_info`)."""
    return _AROUND_PUNCTUATION.sub(r"\1", " ".join(sql.replace('"', "").upper().split()))


def _check_writable(path: str, kind: StoreKind) -> None:
    """A store to write must be writable, with its folder (SQLite makes its journal beside it): said
    as that, not as a damaged store."""
    where = Path(path)
    for item, what in ((where, "the store"), (where.parent, "its folder")):
        if item.exists() and _read_only_file_system(item):
            raise InputError(path, None, f"cannot write the {kind.name} store: it is on a read-only file system "
                                         "(reading it needs no write access)")
        if item.exists() and not os.access(item, os.W_OK):
            raise InputError(path, None, f"cannot write the {kind.name} store: {what} is not writable "
                                         "(reading it needs no write access)")


def _read_only_file_system(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _shapes(connection: sqlite3.Connection) -> dict[str, tuple[tuple, ...]]:
    """Every table's columns as `PRAGMA table_info` gives them (name, type, not null, default, key)."""
    tables = [name for (name,) in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    return {name: tuple(row[1:] for row in connection.execute(f"PRAGMA table_info({_quoted(name)})"))
            for name in tables}


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class Checked(NamedTuple):
    """What the check of an existing store found: no marks yet (a store of the previous version), its
    schema version, and the schema cookie it was checked with."""

    unmarked: bool
    version: int
    cookie: int


def _check(path: str, kind: StoreKind, writable: bool) -> Checked | None:
    """Refuse (InputError) a store this program must not touch; otherwise what the check found, or
    None when there is no store yet to check."""
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


def _check_contents(connection: sqlite3.Connection, path: str, kind: StoreKind) -> Checked:
    (application_id,) = connection.execute("PRAGMA application_id").fetchone()
    (version,) = connection.execute("PRAGMA user_version").fetchone()
    cookie = _cookie(connection)
    shapes = _shapes(connection)
    if application_id == 0:
        version = _FIRST_VERSION  # the marks came with the first schema version
        _check_unmarked(shapes, path, kind)
    elif application_id != kind.application_id:
        other = KINDS.get(application_id)
        raise InputError(path, None, _other_kind(other, kind) if other
                         else f"not a patience store (application_id {application_id:#x}), so not a "
                              f"{kind.name} store (application_id {kind.application_id:#x})")
    elif version > kind.schema_version:
        raise InputError(path, None, f"{kind.name} store of schema version {version}, newer than this "
                                     f"patience reads ({kind.schema_version}); use a newer patience")
    elif version < 1 or version not in kind.masters:
        raise InputError(path, None, f"half-written {kind.name} store (marked, but schema version {version})")
    elif _mismatch(shapes, kind, version):
        raise InputError(path, None, f"damaged {kind.name} store: {_mismatch(shapes, kind, version)}")
    _check_schema(_master(connection), path, kind, version)
    problems = [row[0] for row in connection.execute("PRAGMA quick_check(1)")]
    if problems != ["ok"]:
        raise InputError(path, None, f"damaged {kind.name} store: {_short(str(problems[0]))}")
    _check_rows(connection, path, kind, version)
    _check_json(connection, path, kind)
    _check_settings(connection, path, kind)
    return Checked(application_id == 0, version, cookie)


_FIRST_VERSION = 1


def _check_schema(master: frozenset[tuple], path: str, kind: StoreKind, version: int) -> None:
    """The store's whole schema must be the kind's: no trigger, view or index of anyone else's, and
    every table as this program makes it. Tables of another kind of store, exactly as patience makes
    them, are let be (the first version's `compare` left empty campaign tables in survey stores):
    nothing here reads or writes them."""
    expected = kind.masters[version]
    ours = {(item[0], item[1]) for item in expected}
    theirs = {item for other in KINDS.values() if other.application_id != kind.application_id
              for schema in other.masters.values()
              for item in schema if item[0] == "table" or (item[0] == "index" and item[3] is None)}
    extra = sorted((item for item in master if (item[0], item[1]) not in ours and item not in theirs),
                   key=lambda item: (item[0] != "trigger", item[0] != "view", item[1]))
    if extra:
        what, name, table, _ = extra[0]
        on = f" on {_short(repr(table))}" if what in ("trigger", "index") else ""
        raise InputError(path, None, f"foreign {kind.name} store: it holds a {what} {_short(repr(name))}{on}, "
                                     f"which no {kind.name} store has (it could run its own SQL); refused")
    missing = sorted(expected - master, key=lambda item: item[1])
    if missing:
        what, name, _, _ = missing[0]
        raise InputError(path, None, f"damaged {kind.name} store: {what} {name} is not as a {kind.name} "
                                     "store makes it")


def _other_kind(other: StoreKind, kind: StoreKind) -> str:
    """`a patience survey store (written by patience survey), not a campaign store (...)`."""
    def written(item: StoreKind) -> str:
        return f" (written by `{item.made_by}`)" if item.made_by else ""
    return f"a patience {other.name} store{written(other)}, not a {kind.name} store{written(kind)}"


def _check_unmarked(shapes: Mapping[str, tuple[tuple, ...]], path: str, kind: StoreKind) -> None:
    """A store without marks is ours if it has our tables (the previous version wrote no marks)."""
    problem = _mismatch(shapes, kind, _FIRST_VERSION)
    if problem is None:
        return
    other = next((item for item in KINDS.values() if _mismatch(shapes, item, _FIRST_VERSION) is None), None)
    if other is not None:
        raise InputError(path, None, _other_kind(other, kind))
    if not shapes:
        raise InputError(path, None, f"an SQLite database without tables, not a {kind.name} store")
    if set(shapes) & set(kind.shapes[_FIRST_VERSION]) - {"settings"}:
        raise InputError(path, None, f"damaged {kind.name} store: {problem}")
    raise InputError(path, None, f"not a {kind.name} store (neither its mark nor its tables)")


def _mismatch(shapes: Mapping[str, tuple[tuple, ...]], kind: StoreKind, version: int) -> str | None:
    """What differs from the kind's tables, if anything: a missing table or one of other columns."""
    for table, shape in kind.shapes[version].items():
        if table not in shapes:
            return f"table {table} is missing"
        if shapes[table] != shape:
            return f"table {table} has other columns"
    return None


def _check_rows(connection: sqlite3.Connection, path: str, kind: StoreKind, version: int) -> None:
    """One pass over each table: the first row with a value this program cannot read is refused (a
    store of an older schema version has fewer columns to check)."""
    for table, every in kind.checks.items():
        present = {row[0] for row in kind.shapes[version].get(table, ())}  # a table newer than the store's schema
        columns = {column: condition for column, condition in every.items() if column in present}
        if not columns:
            continue
        tests = [f"coalesce({condition}, 0)" for condition in columns.values()]
        found = connection.execute(f"SELECT rowid FROM {table} WHERE NOT ({' AND '.join(tests)}) LIMIT 1").fetchone()
        if found is None:
            continue
        passed = connection.execute(f"SELECT {', '.join(tests)} FROM {table} WHERE rowid = ?", found).fetchone()
        column = next(name for name, ok in zip(columns, passed, strict=True) if not ok)
        (value,) = connection.execute(f"SELECT quote({column}) FROM {table} WHERE rowid = ?", found).fetchone()
        raise InputError(path, None, f"damaged {kind.name} store: table {table}, row {found[0]}: "
                                     f"{column} {_short(str(value))} is not one this patience reads")


def _check_json(connection: sqlite3.Connection, path: str, kind: StoreKind) -> None:
    """Every stored JSON value within the bounds of `stored_json` (SQLite's json_valid allows 1,000
    levels, past Python's recursion limit)."""
    for table, columns in kind.checks.items():
        for column, condition in columns.items():
            if "json_valid" not in condition:
                continue
            for rowid, value in connection.execute(f"SELECT rowid, {column} FROM {table} "
                                                   f"WHERE length({column}) > {MAX_JSON_DEPTH}"):
                problem = json_bounds(str(value))
                if problem is not None:
                    raise InputError(path, None, f"damaged {kind.name} store: table {table}, row {rowid}: "
                                                 f"{column} is {problem}")


def _check_settings(connection: sqlite3.Connection, path: str, kind: StoreKind) -> None:
    for key, value in connection.execute("SELECT key, value FROM settings"):
        if key not in kind.settings:
            raise InputError(path, None, f"damaged {kind.name} store: unknown setting {_short(repr(key))}")
        try:
            decoded = stored_json(value)
        except ValueError as error:
            raise InputError(path, None, f"damaged {kind.name} store: setting {key} is {error}: "
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
    return {key: stored_json(value) for key, value in database.read("SELECT key, value FROM settings")}


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


# Every kind of store, known by its mark whatever has been imported: enough to name a store of one kind
# given where another is asked for (its marks and tables; each kind's own module checks its rows).
KINDS: Mapping[int, StoreKind] = {declared.application_id: StoreKind.of(declared, {}, {}) for declared in SCHEMAS}
