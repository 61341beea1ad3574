"""Two campaigns resumed at once on a store of schema 1 (issue 57 item 13): both checked it at schema 1,
one migrates it in its first write; the other's first write waits for that migration (SQLite's busy
timeout), then goes on with the migrated store, checked again, instead of refusing it as changed by
another program. A schema change that is no migration of ours is still refused."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from patience.campaign.store import CAMPAIGN, Store
from patience.cli import main
from patience.errors import InputError
from tests.test_hostile_stores import CAMPAIGN_RUN, schema_1

SETTINGS = {"timeout": 10.0, "cpu": None, "memory": None}


@pytest.fixture
def old_store(tmp_path) -> Path:
    made = tmp_path / "made.db"
    assert main([*CAMPAIGN_RUN, "--db", str(made)]) == 0
    return schema_1({"campaign": made}, tmp_path / "old.db")


def _version(path: Path) -> int:
    connection = sqlite3.connect(path)
    (version,) = connection.execute("PRAGMA user_version").fetchone()
    connection.close()
    return version


def test_the_second_of_two_campaigns_goes_on_with_the_store_the_first_migrated(old_store, capsys):
    with Store(old_store) as first, Store(old_store) as second:
        assert first.database.version == second.database.version == 1
        first.fix_settings(SETTINGS)  # migrates
        assert _version(old_store) == CAMPAIGN.schema_version
        second.fix_settings(SETTINGS)  # was: "the campaign store's schema was changed by another program"
        assert second.database.version == CAMPAIGN.schema_version
        runs = second.runs()
        assert len(runs) == 3 and all(len(run.content) == 64 for run in runs)  # read as schema 2 now
    assert main([*CAMPAIGN_RUN, "--db", str(old_store)]) == 0
    assert "3 of 3 runs stored (0 new)" in capsys.readouterr().out


def test_the_second_waits_for_the_migration_in_progress(old_store):
    second = Store(old_store)  # checked at schema 1
    migrating, held = threading.Event(), 0.5

    def migrate() -> None:
        with Store(old_store) as first, first.database.transaction():  # the migration, its lock held a while
            migrating.set()
            time.sleep(held)

    thread = threading.Thread(target=migrate)
    thread.start()
    assert migrating.wait(30)
    started = time.monotonic()
    try:
        second.fix_settings(SETTINGS)
        waited = time.monotonic() - started
    finally:
        thread.join(30)
        second.close()
    assert waited >= held / 2 and second.database.version == CAMPAIGN.schema_version


def test_a_schema_change_that_is_no_migration_is_still_refused(old_store):
    with Store(old_store) as store:
        connection = sqlite3.connect(old_store)
        connection.execute("CREATE INDEX foreign_index ON runs (status)")
        connection.close()
        with pytest.raises(InputError, match="schema was changed by another program"):
            store.fix_settings(SETTINGS)
