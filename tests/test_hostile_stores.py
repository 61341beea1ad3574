"""Stores that check before they write: a campaign, survey or shuffle-experiment store that is foreign,
of another kind, newer, damaged or half-written is refused in one line `error: PATH: ...` with exit
status 2 and its bytes unchanged, by every command that opens it; a store of the previous version
(no marks) still opens, and is marked only by a command that writes. Hypothesis then damages stores
at random (truncation, flipped bytes, dropped tables and columns, odd settings and rows): every
command either refuses the store in that one line, untouched, or runs correctly; never a traceback."""

from __future__ import annotations

import contextlib
import hashlib
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from patience import store_schemas
from patience.campaign.store import CAMPAIGN
from patience.cli import main
from patience.survey.experiment import SHUFFLES
from patience.survey.store import SURVEY

CAMPAIGN_RUN = ["compare", "--deals", "random:4,4,3:1-3", "--solvers", "native", "--timeout", "10", "--quiet"]
SURVEY_RUN = ["survey", "--seeds", "1-40", "--batch", "10", "--timeout", "5", "--quiet"]
SHUFFLES_RUN = ["survey", "shuffles", "--games", "4", "--batch", "2", "--riffles", "1", "--timeout", "5", "--quiet"]


def _campaign_commands(db: Path) -> list[list[str]]:
    return [[*CAMPAIGN_RUN, "--db", str(db)], ["report", str(db)], ["report", str(db), "--format", "json"]]


def _survey_commands(db: Path) -> list[list[str]]:
    return [[*SURVEY_RUN, "--db", str(db)], ["survey", "report", "--db", str(db)]]


def _every_command(db: Path) -> list[list[str]]:
    return [*_campaign_commands(db), *_survey_commands(db), [*SHUFFLES_RUN, "--db", str(db)]]


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, Path]:
    """One store of each kind, as the commands write them (closed, so each is one file)."""
    folder = tmp_path_factory.mktemp("stores")
    stores = {"campaign": folder / "campaign.db", "survey": folder / "survey.db", "shuffles": folder / "shuffles.db"}
    assert main([*CAMPAIGN_RUN, "--db", str(stores["campaign"])]) == 0
    assert main([*SURVEY_RUN, "--db", str(stores["survey"])]) == 0
    assert main([*SHUFFLES_RUN, "--db", str(stores["shuffles"])]) == 0
    for path in stores.values():
        assert not Path(f"{path}-wal").exists()
    return stores


def _copy(made: dict[str, Path], kind: str, folder: Path, name: str = "store.db") -> Path:
    path = folder / name
    shutil.copyfile(made[kind], path)
    return path


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _edit(path: Path, *statements: str) -> None:
    """Change a store behind the program's back, as another program (or a damaged disk) would."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        for statement in statements:
            connection.execute(statement)
    finally:
        connection.close()


def _marks(path: Path) -> tuple[int, int]:
    connection = sqlite3.connect(path)
    marks = (connection.execute("PRAGMA application_id").fetchone()[0],
             connection.execute("PRAGMA user_version").fetchone()[0])
    connection.close()
    return marks


def _refused(capsys, path: Path, argv: list[str]) -> str:
    """The command refuses the store: one line naming it, exit 2, nothing on stdout, the file untouched."""
    before = _digest(path) if path.is_file() else None
    status = main(argv)
    out, err = capsys.readouterr()
    assert (status, out) == (2, ""), (argv, status, out, err)
    assert err.startswith(f"error: {path}: ") and err.count("\n") == 1, err
    if before is not None:
        assert _digest(path) == before, f"{argv} changed the store it refused"
    return err


def test_new_stores_carry_distinct_marks(made):
    kinds = (CAMPAIGN, SURVEY, SHUFFLES)
    assert len({kind.application_id for kind in kinds}) == 3
    for kind, name in zip(kinds, ("campaign", "survey", "shuffles"), strict=True):
        assert _marks(made[name]) == (kind.application_id, kind.schema_version)


@pytest.mark.parametrize("kind", ["campaign", "survey", "shuffles"])
def test_every_other_command_refuses_a_store_of_another_kind(made, tmp_path, capsys, kind):
    path = _copy(made, kind, tmp_path)
    commands = {"campaign": _survey_commands(path) + [[*SHUFFLES_RUN, "--db", str(path)]],
                "survey": _campaign_commands(path) + [[*SHUFFLES_RUN, "--db", str(path)]],
                "shuffles": _campaign_commands(path) + _survey_commands(path)}[kind]
    for argv in commands:
        said = _refused(capsys, path, argv)
        assert "not a" in said
    assert not Path(f"{path}-wal").exists() and not Path(f"{path}-shm").exists()


def schema_1(made: dict[str, Path], path: Path, marked: bool = True) -> Path:
    """The made campaign store as the previous patience wrote it: schema 1, deals keyed by name only
    (and, unmarked, as the one before that)."""
    source = sqlite3.connect(made["campaign"])
    target = sqlite3.connect(path, isolation_level=None)
    target.executescript(store_schemas.CAMPAIGN_V1)
    target.executemany("INSERT INTO settings VALUES (?, ?)", source.execute("SELECT * FROM settings"))
    target.executemany("INSERT INTO configurations VALUES (?, ?, ?)", source.execute("SELECT * FROM configurations"))
    target.executemany("INSERT INTO deals VALUES (?, ?, ?, ?)",
                       source.execute("SELECT name, game, cards, piles FROM deals"))
    columns = [row[1] for row in source.execute("PRAGMA table_info(runs)") if row[1] != "content"]
    target.executemany(f"INSERT INTO runs VALUES ({', '.join('?' * len(columns))})",
                       source.execute(f"SELECT {', '.join(columns)} FROM runs"))
    if marked:
        target.execute(f"PRAGMA application_id = {CAMPAIGN.application_id}")
        target.execute("PRAGMA user_version = 1")
    source.close()
    target.close()
    return path


@pytest.mark.parametrize("marked", [False, True])
def test_a_store_of_the_previous_version_opens_and_is_migrated_only_by_a_write(made, tmp_path, capsys, marked):
    """Schema 1 (and the unmarked stores before it) is read as it is; `compare` migrates it to schema
    2 in its first write, keying each generated deal by its content, so no run is done again."""
    path = schema_1(made, tmp_path / "old.db", marked)
    before = _digest(path)
    assert main(["report", str(path)]) == 0 and "Table 4" in capsys.readouterr().out
    assert main(["report", str(path), "--deals", "random:4,4,3:1-2"]) == 0
    assert "2 runs on 2 deals" in capsys.readouterr().out
    assert _digest(path) == before and _marks(path) == ((CAMPAIGN.application_id, 1) if marked else (0, 0))
    assert main([*CAMPAIGN_RUN, "--db", str(path)]) == 0
    assert "3 of 3 runs stored (0 new)" in capsys.readouterr().out
    assert _marks(path) == (CAMPAIGN.application_id, CAMPAIGN.schema_version)  # 1 to 2 to 3 in one write
    migrated = sqlite3.connect(path)
    assert migrated.execute("SELECT count(DISTINCT content) FROM runs WHERE length(content) = 64").fetchone() == (3,)
    migrated.close()
    assert main(["report", str(path)]) == 0 and "3 runs on 3 deals" in capsys.readouterr().out
    survey = _copy(made, "survey", tmp_path, "survey.db")  # as schema 1 made it: no certificates table
    _edit(survey, "DROP TABLE certificates", "PRAGMA application_id = 0", "PRAGMA user_version = 0")
    assert main(["survey", "report", "--db", str(survey)]) == 0 and _marks(survey) == (0, 0)
    assert main([*SURVEY_RUN, "--db", str(survey)]) == 0 and _marks(survey) == (SURVEY.application_id, 2)
    capsys.readouterr()
    # the previous version's survey store that its `compare` filled with empty campaign tables
    spoilt = _copy(made, "survey", tmp_path, "spoilt.db")
    _edit(spoilt, "DROP TABLE certificates", "PRAGMA application_id = 0", "PRAGMA user_version = 0",
          *[statement for statement in store_schemas.CAMPAIGN_V1.split(";") if "settings" not in statement])
    assert main(["survey", "report", "--db", str(spoilt)]) == 0
    assert main([*SURVEY_RUN, "--db", str(spoilt)]) == 0 and _marks(spoilt)[0] == SURVEY.application_id
    assert main(["survey", "report", "--db", str(spoilt)]) == 0  # marked now, its leftover tables still let be
    capsys.readouterr()
    _edit(spoilt, "CREATE TABLE runs_copy (x)")
    said = _refused(capsys, spoilt, ["survey", "report", "--db", str(spoilt)])
    assert "foreign survey store: it holds a table 'runs_copy'" in said


_NESTED = '{"a":' * 998 + "1" + "}" * 998  # SQLite's json_valid takes it; Python's parser would recurse


@pytest.mark.parametrize(("damage", "said"), [
    (["PRAGMA user_version = 4"], "newer than this patience reads"),
    (["PRAGMA user_version = 99"], "newer than this patience reads"),
    (["PRAGMA user_version = 0"], "half-written"),
    (["PRAGMA application_id = 1234"], "not a patience store (application_id 0x4d2)"),
    (["PRAGMA application_id = 0", "DROP TABLE runs"], "damaged campaign store: table"),
    (["PRAGMA application_id = 0", "DROP TABLE settings"], "table settings is missing"),
    (["PRAGMA user_version = 1"], "damaged campaign store: table deals has other columns"),
    (["DROP TABLE runs"], "table runs is missing"),
    (["ALTER TABLE runs DROP COLUMN message"], "table runs has other columns"),
    (["ALTER TABLE runs ADD COLUMN extra TEXT"], "table runs has other columns"),
    (["UPDATE settings SET value = 'ten seconds' WHERE key = 'timeout'"], "setting timeout is not JSON"),
    (["UPDATE settings SET value = '-1' WHERE key = 'timeout'"], "setting timeout -1 is not one"),
    (["UPDATE settings SET value = 'true' WHERE key = 'timeout'"], "setting timeout true is not one"),
    (["INSERT INTO settings VALUES ('schema_version', '99')"], "unknown setting 'schema_version'"),
    (["UPDATE runs SET status = 'won' WHERE rowid = 2"], "table runs, row 2: status 'won' is not one"),
    (["UPDATE runs SET wall = 'fast'"], "wall 'fast'"),
    (["UPDATE runs SET cpu = -3"], "cpu -3"),
    (["UPDATE runs SET options = '[1, 2]'"], "options '[1, 2]'"),
    (["UPDATE configurations SET options = '{'"], "options '{'"),
    ([f"UPDATE configurations SET options = '{_NESTED}'"], "configurations, row 1: options is nested more than 64"),
    ([f"UPDATE runs SET stats = '{_NESTED}' WHERE rowid = 2"], "runs, row 2: stats is nested more than 64 deep"),
    ([f"UPDATE runs SET options = '{{\"x\": \"{'y' * 300_000}\"}}'"], "options is longer than 262144 characters"),
    (["UPDATE settings SET value = '1e999' WHERE key = 'timeout'"], "setting timeout 1e999 is not one"),
    (["UPDATE settings SET value = '0.5' WHERE key = 'memory'"], "setting memory 0.5 is not one"),
    (["UPDATE runs SET deal = X'00ff' WHERE rowid = 1"], "deal X'00FF'"),
    (["UPDATE deals SET cards = 'many'"], "cards 'many'"),
])
def test_a_damaged_campaign_store_is_refused_untouched(made, tmp_path, capsys, damage, said):
    path = _copy(made, "campaign", tmp_path)
    _edit(path, *damage)
    for argv in _campaign_commands(path):
        assert said in _refused(capsys, path, argv)


@pytest.mark.parametrize(("damage", "said"), [
    (["UPDATE deals SET verdict = 7 WHERE seed = 3"], "table deals, row 3: verdict 7 is not one"),
    (["UPDATE deals SET nodes = 'many' WHERE seed = 3"], "nodes 'many'"),
    (["UPDATE settings SET value = '\"max-moves\"' WHERE key = 'mode'"], "setting mode"),
    (["DELETE FROM settings WHERE key = 'game'", "INSERT INTO settings VALUES ('game', '[')"], "not JSON"),
    (["INSERT INTO settings VALUES ('schema_version', '99')"], "unknown setting 'schema_version'"),
    (["PRAGMA user_version = 99"], "newer"),
    (["ALTER TABLE deals DROP COLUMN nodes"], "table deals has other columns"),
    (["INSERT INTO settings VALUES ('shape', '[100000, 100000, 1]')"], "setting shape [100000, 100000, 1] is not one"),
    (["INSERT INTO settings VALUES ('shape', '[13, 4, 0]')"], "setting shape [13, 4, 0] is not one"),
    ([f"INSERT INTO settings VALUES ('shape', '{_NESTED}')"], "setting shape is nested more than 64 deep"),
])
def test_a_damaged_survey_store_is_refused_untouched(made, tmp_path, capsys, damage, said):
    path = _copy(made, "survey", tmp_path)
    _edit(path, *damage)
    for argv in _survey_commands(path):
        assert said in _refused(capsys, path, argv)


def test_a_damaged_shuffle_store_is_refused_untouched(made, tmp_path, capsys):
    path = _copy(made, "shuffles", tmp_path)
    _edit(path, "UPDATE chains SET games = 0")
    assert "games 0" in _refused(capsys, path, [*SHUFFLES_RUN, "--db", str(path)])


def _overwrite(path: Path, offset: int, data: bytes) -> None:
    with open(path, "r+b") as stream:
        stream.seek(offset)
        stream.write(data)


def _big_campaign(made: dict[str, Path], folder: Path) -> Path:
    """The campaign store with enough rows to fill many pages, all in the main file."""
    path = _copy(made, "campaign", folder)
    _edit(path, *[f"INSERT INTO runs SELECT 'deal{number}', content, configuration, solver, options, status, sequence, "
                  f"wall, cpu, nodes, version, host, command, '{'x' * 200}', stats, finished FROM runs LIMIT 1"
                  for number in range(200)])
    assert path.stat().st_size > 20 * 4096
    return path


def test_a_store_damaged_in_the_middle_is_refused_untouched(made, tmp_path, capsys):
    path = _big_campaign(made, tmp_path)
    _overwrite(path, path.stat().st_size // 2 // 4096 * 4096, bytes(range(256)) * 16)
    for argv in _campaign_commands(path):
        assert "damaged campaign store" in _refused(capsys, path, argv)


def test_a_half_written_store_is_refused_untouched(made, tmp_path, capsys):
    path = _big_campaign(made, tmp_path)
    with open(path, "r+b") as stream:
        stream.truncate(path.stat().st_size // 2)
    for argv in _campaign_commands(path):
        assert "damaged campaign store" in _refused(capsys, path, argv)


@pytest.mark.parametrize(("make", "said"), [
    (lambda path: path.write_text("kind: not a database\n" * 10), "not an SQLite database"),
    (lambda path: path.write_bytes(b"SQLite format 3\x00" + bytes(200)), "damaged"),
    (lambda path: _edit(path, "CREATE TABLE orders (id INTEGER PRIMARY KEY, customer TEXT)"), "not a"),
    (lambda path: _edit(path, "PRAGMA application_id = 1179403647", "CREATE TABLE t (x)"), "not a patience store"),
    (lambda path: _edit(path, "PRAGMA user_version = 5"), "without tables"),
    (lambda path: path.mkdir(), "not a regular file"),
])
def test_a_foreign_file_is_refused_untouched(tmp_path, capsys, make: Callable[[Path], None], said):
    path = tmp_path / "foreign.db"
    make(path)
    for argv in _every_command(path):
        assert said in _refused(capsys, path, argv)


def test_reports_refuse_an_empty_or_missing_file_and_runs_start_an_empty_one(tmp_path, capsys):
    empty = tmp_path / "empty.db"
    empty.touch()
    for argv in (["report", str(empty)], ["survey", "report", "--db", str(empty)]):
        assert "empty file" in _refused(capsys, empty, argv)
    assert main([*SURVEY_RUN, "--seeds", "1-3", "--db", str(empty)]) == 0 and _marks(empty)[0] == SURVEY.application_id
    capsys.readouterr()
    missing = tmp_path / "missing.db"
    for argv in (["report", str(missing)], ["survey", "report", "--db", str(missing)]):
        assert "no such file" in _refused(capsys, missing, argv)
    assert not missing.exists()


# ---- Hypothesis: random damage, never a traceback ----------------------------------------------

_PAGE = 4096
_EDITS = {
    "campaign": ["DROP TABLE runs", "DROP TABLE configurations", "DROP TABLE deals", "DROP TABLE settings",
                 "ALTER TABLE runs DROP COLUMN stats", "ALTER TABLE deals ADD COLUMN x", "DELETE FROM runs",
                 "UPDATE runs SET status = 'weird'", "UPDATE runs SET sequence = 'zz'", "UPDATE runs SET nodes = 1.5",
                 "UPDATE runs SET wall = 1e308 * 10", "UPDATE runs SET configuration = 'elsewhere'",
                 "UPDATE runs SET stats = 'x'", "DELETE FROM configurations", "DELETE FROM deals",
                 "UPDATE runs SET finished = NULL", "CREATE TABLE extra (x)", "CREATE INDEX i ON runs (wall)",
                 "DROP INDEX IF EXISTS sqlite_autoindex_runs_1", "PRAGMA application_id = 0",
                 "PRAGMA user_version = 0", "PRAGMA user_version = 2", "PRAGMA journal_mode = DELETE",
                 "VACUUM"],
    "survey": ["DROP TABLE deals", "DROP TABLE settings", "ALTER TABLE deals DROP COLUMN seconds", "DELETE FROM deals",
               "DELETE FROM settings", "UPDATE deals SET verdict = 2", "UPDATE deals SET cards = -1",
               "UPDATE deals SET seconds = 'slow'", "UPDATE deals SET seed = seed + 1000000",
               "CREATE TABLE runs (x)", "PRAGMA application_id = 0", "PRAGMA user_version = 0",
               "PRAGMA user_version = 9", "PRAGMA journal_mode = DELETE", "VACUUM"],
}
_SETTINGS = st.sampled_from(["timeout", "cpu", "memory", "game", "numbering", "mode", "schema_version", "", "x' --"])
_VALUES = st.one_of(st.sampled_from(["", "[", "{}", "null", "true", "-1", "0", "1e999", "NaN", '"black_hole"',
                                     '"max-cards"', '"pysolfc"', "[" * 5000, "12", "2.5"]),
                    st.text(max_size=20))


def _damage(draw, path: Path, kind: str) -> None:
    """Damage drawn by Hypothesis: SQL edits and settings, then raw bytes (truncated, flipped, zeroed)."""
    statements = draw(st.lists(st.sampled_from(_EDITS[kind]), max_size=3))
    for key, value in draw(st.lists(st.tuples(_SETTINGS, _VALUES), max_size=2)):
        statements.append("INSERT OR REPLACE INTO settings VALUES ('{}', '{}')".format(
            key.replace("'", "''"), value.replace("'", "''")))
    with contextlib.suppress(sqlite3.Error):  # an edit that an earlier one made impossible
        _edit(path, *statements)
    size = path.stat().st_size
    for _ in range(draw(st.integers(0, 3))):
        offset = draw(st.integers(0, size - 1))
        change = draw(st.sampled_from(["flip", "zero", "truncate"]))
        if change == "truncate":
            with open(path, "r+b") as stream:
                stream.truncate(offset)
            size = max(offset, 1)
            break
        data = path.read_bytes()[offset:offset + 16]
        _overwrite(path, offset, bytes(byte ^ 0xFF for byte in data) if change == "flip" else bytes(len(data)))


def _either_runs_or_refuses(capsys, path: Path, argv: list[str]) -> None:
    before = path.read_bytes()
    status = main(argv)
    out, err = capsys.readouterr()
    event(f"{' '.join(argv[:2])}: exit {status}")
    if status == 2:
        assert out == "" and err.startswith(f"error: {path}: ") and err.count("\n") == 1, (argv, err)
        assert path.read_bytes() == before, f"{argv} changed the store it refused"
    else:
        assert status == 0, (argv, status, out, err)


_FUZZ = settings(max_examples=50, deadline=None, derandomize=True, database=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@_FUZZ
@given(data=st.data())
def test_fuzz_damaged_campaign_stores(made, tmp_path, capsys, data):
    path = _copy(made, "campaign", tmp_path)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    _damage(data.draw, path, "campaign")
    for argv in [["report", str(path)], ["survey", "report", "--db", str(path)], [*CAMPAIGN_RUN, "--db", str(path)]]:
        _either_runs_or_refuses(capsys, path, argv)


@_FUZZ
@given(data=st.data())
def test_fuzz_damaged_survey_stores(made, tmp_path, capsys, data):
    path = _copy(made, "survey", tmp_path)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    _damage(data.draw, path, "survey")
    for argv in [["survey", "report", "--db", str(path)], ["report", str(path)], [*SURVEY_RUN, "--db", str(path)]]:
        _either_runs_or_refuses(capsys, path, argv)


@pytest.mark.parametrize("command", ["report", "survey"])
def test_a_survey_store_naming_an_unknown_game_is_refused_naming_the_store(tmp_path, capsys, command):
    """Found by the fuzz above: a setting `game` that names no game was a usage error without the store's name."""
    path = tmp_path / "survey.db"
    assert main(["survey", "--game", "black_hole", "--seeds", "1-2", "--db", str(path), "--quiet"]) == 0
    _edit(path, "UPDATE settings SET value = '\"checkers\"' WHERE key = 'game'")
    capsys.readouterr()
    argv = ["survey", "report", "--db", str(path)] if command == "report" else \
        ["survey", "--game", "black_hole", "--seeds", "1-3", "--db", str(path), "--quiet"]
    before = path.read_bytes()
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"error: {path}: ") and "checkers" in err and err.count("\n") == 1
    assert path.read_bytes() == before


# ---- A store is SQL too: triggers, views and indexes of anyone else's are refused ---------------

_FOREIGN_OBJECTS = {
    "trigger": "CREATE TRIGGER t AFTER INSERT ON {table} BEGIN UPDATE {table} SET {column} = {column}; END",
    "recursive trigger": "CREATE TRIGGER t AFTER UPDATE ON {table} BEGIN UPDATE {table} SET {column} = {column}; END",
    "view": "CREATE VIEW v AS SELECT * FROM {table}",
    "index": "CREATE INDEX i ON {table} ({column})",
    "expression index": "CREATE INDEX i ON {table} (abs({column}))",
    "trigger named over lines": "CREATE TRIGGER \"x\nline\" BEFORE DELETE ON settings BEGIN SELECT 1; END",
}


@pytest.mark.parametrize("kind", ["campaign", "survey", "shuffles"])
@pytest.mark.parametrize("foreign", sorted(_FOREIGN_OBJECTS))
def test_a_store_with_foreign_sql_is_refused_by_every_command_untouched(made, tmp_path, capsys, kind, foreign):
    """A trigger would rewrite what compare or survey stores (a recursive one hangs them), a view or
    index could change what is read: the whole schema is compared, for reading as for writing."""
    path = _copy(made, kind, tmp_path)
    tables = {"campaign": ("runs", "status"), "survey": ("deals", "verdict"), "shuffles": ("chains", "won")}
    table, column = tables[kind]
    _edit(path, _FOREIGN_OBJECTS[foreign].format(table=table, column=column))
    commands = {"campaign": _campaign_commands(path), "survey": _survey_commands(path),
                "shuffles": [[*SHUFFLES_RUN, "--db", str(path)]]}[kind]
    kind = "shuffle-experiment" if kind == "shuffles" else kind
    for argv in commands:
        said = _refused(capsys, path, argv)
        assert f"foreign {kind} store: it holds a" in said and "\n" not in said.rstrip("\n"), said
    # a store of the previous version (no marks) is held to the same rule
    _edit(path, "PRAGMA application_id = 0", "PRAGMA user_version = 0")
    assert "foreign" in _refused(capsys, path, commands[0])


def test_a_table_changed_under_the_same_columns_is_refused(made, tmp_path, capsys):
    """A CHECK constraint changes no column, but does change what a write does."""
    path = _copy(made, "campaign", tmp_path)
    _edit(path, "PRAGMA writable_schema = ON",
          "UPDATE sqlite_master SET sql = replace(sql, 'finished TEXT NOT NULL', "
          "'finished TEXT NOT NULL CHECK (status <> ''solved'')') WHERE name = 'runs'")
    for argv in _campaign_commands(path):
        assert "table runs is not as a campaign store makes it" in _refused(capsys, path, argv)


def test_a_schema_changed_while_a_store_is_open_is_not_written(made, tmp_path):
    """The check happens once, on opening: a trigger added after it is found by every write's own check."""
    from patience.campaign.store import Store
    from patience.errors import InputError

    path = _copy(made, "campaign", tmp_path)
    _edit(path, "UPDATE runs SET status = 'error'")
    store = Store(path)
    try:
        _edit(path, _FOREIGN_OBJECTS["trigger"].format(table="runs", column="status"))
        with pytest.raises(InputError, match="schema was changed by another program"):
            store.forget_errors()
    finally:
        store.close()
    connection = sqlite3.connect(path)
    assert connection.execute("SELECT count(*) FROM runs WHERE status = 'error'").fetchone()[0] == 3
    connection.close()
