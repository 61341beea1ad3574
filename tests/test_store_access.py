"""Reading a store needs no write access, and a store is called damaged only when it is: a store on a
read-only file system (closed, or left in WAL mode with its -wal and -shm files) is reported; a
command that must write it says the file system is read-only. Two writers on one store: the second
is told that another process is writing it, in one line."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from patience.campaign.store import Store
from patience.cli import main
from patience.errors import InputError
from patience.result import Status
from patience.survey.experiment import ShuffleStore
from patience.survey.store import Row, SurveyStore

CAMPAIGN_RUN = ["compare", "--deals", "random:4,4,3:1-2", "--solvers", "native", "--timeout", "10", "--quiet"]


def _read_only_mount_works() -> str | None:
    """Why a read-only bind mount cannot be made here (None when it can): root alone bypasses chmod,
    so a read-only file system is the one honest test of reading without write access."""
    if shutil.which("unshare") is None:
        return "no unshare(1) to make a private read-only mount"
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount --bind / /mnt && mount -o remount,bind,ro /mnt"],
                           capture_output=True, text=True, check=False)
    return None if probe.returncode == 0 else f"cannot make a private mount: {probe.stderr.strip()[:80]}"


def _on_read_only_mount(folder: Path, argv: list[str]) -> subprocess.CompletedProcess:
    """Run `patience ARGV` in a private mount namespace where `folder` is read-only."""
    script = (f"mount --bind {folder} {folder} && mount -o remount,bind,ro {folder} && "
              f'exec "$@"')
    return subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", sys.executable, "-m", "patience", *argv],
                          capture_output=True, text=True, check=False, timeout=60)


def test_a_store_on_a_read_only_file_system_is_read_and_not_called_damaged(tmp_path, capsys):
    why = _read_only_mount_works()
    if why:
        pytest.skip(why)
    closed, left = tmp_path / "closed.db", tmp_path / "left.db"
    assert main([*CAMPAIGN_RUN, "--db", str(closed)]) == 0
    capsys.readouterr()
    # a store a writer still holds open (or was killed holding): its latest runs are in the -wal file
    writer = sqlite3.connect(closed)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("UPDATE runs SET host = 'in-the-wal'")
    writer.commit()
    for suffix in ("", "-wal", "-shm"):
        shutil.copyfile(f"{closed}{suffix}", f"{left}{suffix}")
    writer.close()
    digests = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    for path in (closed, left):
        done = _on_read_only_mount(tmp_path, ["report", str(path)])
        assert done.returncode == 0, done.stderr
        assert "2 runs on 2 deals; hosts: in-the-wal" in done.stdout
    refused = _on_read_only_mount(tmp_path, [*CAMPAIGN_RUN, "--db", str(closed)])
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr == f"error: {closed}: cannot write the campaign store: it is on a read-only file system " \
                             "(reading it needs no write access)\n"
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == digests


def test_a_report_opens_no_write_connection(tmp_path, capsys, monkeypatch):
    """Without a -wal file the store is read as immutable: nothing can be written, nothing made beside it."""
    path = tmp_path / "store.db"
    assert main([*CAMPAIGN_RUN, "--db", str(path)]) == 0
    opened: list[str] = []
    real = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda target, *args, **kwargs: opened.append(str(target))
                        or real(target, *args, **kwargs))
    capsys.readouterr()
    assert main(["report", str(path)]) == 0
    assert opened and all(target.startswith("file://") and "mode=ro" in target for target in opened), opened
    assert sorted(item.name for item in tmp_path.iterdir()) == ["store.db"]


def test_a_second_writer_of_a_survey_store_is_told_so(tmp_path):
    """Two surveys of one range on one store: the seeds the other wrote first clash; that is said as
    another process writing the store, not as SQLite's `UNIQUE constraint failed`."""
    path = tmp_path / "survey.db"
    assert main(["survey", "--seeds", "1-3", "--timeout", "5", "--quiet", "--db", str(path)]) == 0
    store = SurveyStore(path)
    try:
        other = sqlite3.connect(path)
        other.execute("INSERT INTO deals VALUES (4, 1, 52, 10, 0.1)")
        other.commit()
        other.close()
        with pytest.raises(InputError, match="another process is writing this survey store at the same time"):
            store.add_batch([Row(4, Status.SOLVED, 52, 10, 0.1), Row(5, Status.SOLVED, 52, 10, 0.1)])
        assert store.stored_seeds(1, 10) == {1, 2, 3, 4}  # the batch was refused whole
    finally:
        store.close()


def test_a_survey_store_given_as_a_campaign_store_is_named_as_what_it_is(tmp_path, capsys):
    path = tmp_path / "survey.db"
    assert main(["survey", "--seeds", "1-2", "--timeout", "5", "--quiet", "--db", str(path)]) == 0
    capsys.readouterr()
    argv = ["gen", "cnf", "--deals", "black_hole:1-3", "-o", str(tmp_path / "family"), "--quiet",
            "--select", "hardest:2", "--measure", f"{path}:native"]
    assert main(argv) == 2
    assert capsys.readouterr().err == (f"error: {path}: a patience survey store (written by `patience survey`), "
                                       "not a campaign store (written by `patience compare`)\n")


@pytest.mark.parametrize("open_store", [Store, SurveyStore, ShuffleStore], ids=["campaign", "survey", "shuffles"])
def test_a_store_closes_itself_at_the_end_of_its_with_block_however_it_ends(tmp_path, open_store):
    with open_store(tmp_path / "store.db") as store:
        assert store.database.read("SELECT count(*) FROM settings") == [(0,)]
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        store.database.connection.execute("SELECT 1")
    with pytest.raises(KeyError), open_store(tmp_path / "store.db") as store:
        raise KeyError("a failure inside the block")
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        store.database.connection.execute("SELECT 1")


def test_patience_stores_alone_knows_every_kind_of_store(tmp_path):
    """No registry filled by imports: in a fresh interpreter that imports only patience.stores, a survey
    store opened as a campaign store (to read, or to write) is refused as a survey store, untouched."""
    path = tmp_path / "survey.db"
    assert main(["survey", "--seeds", "1-2", "--timeout", "5", "--quiet", "--db", str(path)]) == 0
    before = path.read_bytes()
    script = """if True:
        import sys
        from patience import stores
        from patience.errors import InputError
        campaign = next(kind for kind in stores.KINDS.values() if kind.name == "campaign")
        for writable in (False, True):
            try:
                stores.Database(sys.argv[1], campaign, writable=writable)
            except InputError as error:
                print(error.message)
        print(*sorted(kind.name for kind in stores.KINDS.values()))
        declaring = {"patience.campaign.store", "patience.survey.store", "patience.survey.experiment"}
        print(*sorted(declaring & set(sys.modules)))  # none of the modules that check each kind's rows
    """
    run = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=True,
                         timeout=60)
    refusal = ("a patience survey store (written by `patience survey`), "
               "not a campaign store (written by `patience compare`)")
    assert run.stdout.splitlines() == [refusal, refusal, "campaign shuffle-experiment survey", ""]
    assert path.read_bytes() == before
