"""Every file written appears whole or not at all (issue 39, item 4): on a full disk (a 64 KiB tmpfs,
where the tests run as root), with a folder in the way of a file, or with an output that holds or
lies inside the command's own input, `gen -o`, `show -o`, `report --html` and `--plots`, `deal
--count` and `gen --deals` end in one line and exit 2 and leave no partial file or folder; the
scratch a killed run left is removed by the next write into that folder."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from patience.cli import main
from tests.helpers import INSTANCES

DEAL = INSTANCES / "black_hole" / "paper-example.txt"  # its CNF is about 750 KB


@pytest.fixture
def full_disk(tmp_path):
    """A 64 KiB tmpfs, unmounted after the test; a skip that says why where none can be mounted."""
    mount = tmp_path / "small"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"mount -t tmpfs not permitted here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


def refused(capsys, *arguments: str) -> str:
    """The command's one error line (exit 2, nothing on stdout)."""
    assert main(list(arguments)) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: ") and err.count("\n") == 1, err
    return err


def listing(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Path:
    """A campaign store of three deals, for `report --html`."""
    db = tmp_path_factory.mktemp("store") / "runs.sqlite"
    assert main(["compare", "--deals", "black_hole:1-3", "--solvers", "native", "--timeout", "10", "--jobs", "1",
                 "--db", str(db)]) == 0
    return db


def test_a_full_disk_leaves_no_model_page_or_deal_folder(full_disk, capsys, store):
    assert "no space left" in refused(capsys, "gen", "cnf", str(DEAL), "-o", str(full_disk / "model"))
    assert "no space left" in refused(capsys, "report", str(store), "--html", str(full_disk / "html"))
    assert "no space left" in refused(capsys, "deal", "--count", "40", "--dir", str(full_disk / "deals"))
    (full_disk / "page.html").write_bytes(b"old page")  # a page replaced only whole
    (full_disk / "filler").write_bytes(b"x" * 40_000)
    assert "no space left" in refused(capsys, "show", str(DEAL), "-o", str(full_disk / "page.html"))
    assert "no space left" in refused(capsys, "report", str(store), "--plots", str(full_disk / "plots"))
    assert listing(full_disk) == ["filler", "page.html"] and (full_disk / "page.html").read_bytes() == b"old page"


def test_a_full_disk_leaves_an_existing_folder_as_it_was(full_disk, capsys):
    (full_disk / "deals").mkdir()
    (full_disk / "deals" / "black_hole-1.txt").write_text("mine")
    assert "no space left" in refused(capsys, "deal", "--count", "40", "--dir", str(full_disk / "deals"))
    assert listing(full_disk) == ["deals", "deals/black_hole-1.txt"]
    assert (full_disk / "deals" / "black_hole-1.txt").read_text() == "mine"


def test_a_folder_in_the_way_of_a_file_leaves_nothing_written(tmp_path, capsys, store):
    for blocked, command in (("model/deal.cnf", ["gen", "cnf", str(DEAL), "-o", str(tmp_path / "model")]),
                             ("deals/black_hole-3.txt", ["deal", "--count", "5", "--dir", str(tmp_path / "deals")]),
                             ("html/index.html", ["report", str(store), "--html", str(tmp_path / "html")])):
        (tmp_path / blocked).mkdir(parents=True)
        before = listing(tmp_path)
        assert blocked.split("/")[-1] in refused(capsys, *command)
        assert listing(tmp_path) == before, command


def test_an_output_that_holds_or_lies_inside_an_input_is_refused(tmp_path, capsys):
    deals = tmp_path / "deals"
    assert main(["deal", "--count", "2", "--dir", str(deals)]) == 0
    capsys.readouterr()
    before = {path: path.read_bytes() for path in deals.iterdir()}
    assert "is the input" in refused(capsys, "gen", "cnf", "--deals", str(deals), "-o", str(deals), "--force")
    assert "is the input" in refused(capsys, "gen", "cnf", "--deals", str(deals), "-o", str(deals))  # not "--force"
    assert "holds the input" in refused(capsys, "gen", "cnf", "--deals", f"black_hole:1+{deals / 'black_hole-1.txt'}",
                                        "-o", str(tmp_path), "--force")
    assert "inside the input" in refused(capsys, "gen", "cnf", "--deals", str(deals), "-o", str(deals / "family"))
    deal = deals / "black_hole-1.txt"
    assert "is the input" in refused(capsys, "show", str(deal), "-o", str(deal))
    lbs = tmp_path / "LBS6_1.param"
    lbs.write_text("$ mine\nletting cards be [0,13,1,14,2,15]\n")
    assert "is the input" in refused(capsys, "gen", "eprime", str(lbs), "-o", str(tmp_path))
    assert {path: path.read_bytes() for path in deals.iterdir()} == before
    assert lbs.read_text().startswith("$ mine")


def test_scratch_left_by_a_killed_run_is_removed_and_named(tmp_path, capsys):
    gone = subprocess.Popen(["true"])
    gone.wait()  # a process id that no longer runs
    (tmp_path / f".model.partial-{gone.pid}").mkdir()
    (tmp_path / f".model.partial-{gone.pid}" / "deal.cnf").write_text("p cnf 1")
    (tmp_path / f".page.html.partial-{gone.pid}-x1y2").write_text("<html>")
    (tmp_path / f".other.partial-{os.getpid()}").mkdir()  # a running process's scratch stays
    assert main(["gen", "cnf", str(DEAL), "-o", str(tmp_path / "model")]) == 0
    err = capsys.readouterr().err
    assert err.count("left by an interrupted run") == 2 and f".model.partial-{gone.pid}" in err
    assert sorted(path.name for path in tmp_path.iterdir()) == [f".other.partial-{os.getpid()}", "model"]
    assert sorted(path.name for path in (tmp_path / "model").iterdir()) == ["deal.cnf"]


def test_a_killed_deal_count_leaves_only_hidden_scratch_which_the_next_run_removes(tmp_path, capsys):
    import signal
    import sys
    import time

    run = subprocess.Popen([sys.executable, "-m", "patience", "deal", "--count", "5000", "--dir",
                            str(tmp_path / "deals")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not list(tmp_path.glob(".deals.partial-*/*")) and run.poll() is None:
        time.sleep(0.01)
    run.send_signal(signal.SIGKILL)
    run.wait()
    assert [path.name for path in tmp_path.iterdir()] == [f".deals.partial-{run.pid}"], "killed before writing"
    assert main(["deal", "--count", "2", "--dir", str(tmp_path / "deals")]) == 0
    assert f".deals.partial-{run.pid}, left by an interrupted run" in capsys.readouterr().err
    assert listing(tmp_path) == ["deals", "deals/black_hole-1.txt", "deals/black_hole-2.txt"]


def test_a_device_or_pipe_as_the_output_is_refused_and_left_as_it_was(tmp_path, capsys):
    """The rename that makes a file whole would put a plain file in the place of `/dev/null` (as root, which
    the tests run as) or of a pipe: either is refused before anything runs, and stays what it was."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    deal = tmp_path / "deal.txt"
    assert main(["deal", "--game", "worm_hole", "--seed", "105"]) == 0
    deal.write_text(capsys.readouterr().out)
    for arguments in (["solve", str(deal), "--certificate", str(pipe)], ["show", str(deal), "-o", str(pipe)],
                      ["solve", str(deal), "--certificate", os.devnull]):
        assert "is no plain file (a device, a pipe or a socket)" in refused(capsys, *arguments)
    assert pipe.is_fifo() and Path(os.devnull).is_char_device()


def test_an_output_named_as_long_as_the_file_system_allows_is_written(tmp_path, capsys):
    """A name of 250 bytes (the most is 255): its scratch name is within the limit too, so the file is
    written (its scratch, the name and 30 more, was refused as too long), and a name of é's as well."""
    deal = tmp_path / "deal.txt"
    assert main(["deal", "--game", "worm_hole", "--seed", "105"]) == 0
    deal.write_text(capsys.readouterr().out)
    for name in ("c" * 245 + ".cert", "é" * 122 + ".cert"):
        assert main(["solve", str(deal), "--certificate", str(tmp_path / name)]) == 1
        assert "not written" not in capsys.readouterr().out
        assert main(["check", str(deal), str(tmp_path / name)]) == 0
        capsys.readouterr()
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(["deal.txt", "c" * 245 + ".cert",
                                                                        "é" * 122 + ".cert"])
