"""File names no encoding reads (issue 57 item 12): a Latin-1 `café` unpacked from a zip, a raw 0xff
byte. Python holds such a byte as a surrogate (os.fsdecode), which no UTF-8 output takes: every
command that shows, stores or writes the name writes the byte escaped (`caf\\xe9`), and finishes."""

from __future__ import annotations

import codecs
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from patience.cli import ESCAPE_HANDLER, main
from patience.errors import encodable, escape_unencodable, printable
from patience.generators.deals import deal_file
from tests.helpers import ROOT

LATIN_1 = os.fsdecode(b"caf\xe9")  # what a zip made on Windows unpacks to on Linux
RAW = os.fsdecode(b"\xff")


def _names_allowed(folder: Path) -> bool:
    """Whether the file system takes names that are not UTF-8 (macOS's and some others refuse them)."""
    try:
        (folder / f"{RAW}.probe").write_text("")
    except (OSError, UnicodeError):
        return False
    (folder / f"{RAW}.probe").unlink()
    return True


@pytest.fixture
def deals(tmp_path, monkeypatch) -> Path:
    """A folder `deals/` holding two Black Hole deals under names that are not UTF-8; the test runs in tmp_path."""
    if not _names_allowed(tmp_path):
        pytest.skip("this file system refuses file names that are not UTF-8")
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "deals"
    folder.mkdir()
    for seed, stem in ((2, LATIN_1), (3, RAW)):
        (folder / f"{stem}.txt").write_text(deal_file("black_hole", seed)[1])
    return folder


def _utf8_files(folder: Path) -> dict[str, str]:
    """Every text file under `folder` (relative name: text); each must decode as UTF-8."""
    found = {}
    for path in folder.rglob("*"):
        if path.is_file() and path.suffix in (".csv", ".json", ".md", ".html", ".txt", ".dzn", ".solution"):
            found[str(path.relative_to(folder))] = path.read_bytes().decode("utf-8")  # raises on a raw byte
    return found


def test_the_escapes_write_the_byte_and_keep_the_rest():
    name = os.fsdecode(b"deals/caf\xe9 \n\xff.txt")
    assert encodable(name) == "deals/caf\\xe9 \n\\xff.txt"  # the line break is data: escaped only where one line
    assert printable(name) == "deals/caf\\xe9 \\n\\xff.txt"
    assert encodable("plain é.txt") == "plain é.txt" and encodable(name).encode("utf-8")
    codecs.register_error(ESCAPE_HANDLER, escape_unencodable)
    assert name.encode("utf-8", ESCAPE_HANDLER) == b"deals/caf\\xe9 \n\\xff.txt"
    assert "\u2603".encode("ascii", ESCAPE_HANDLER) == b"\\u2603"  # any other character a stream cannot encode


def test_compare_and_report_of_a_folder_store_the_names_escaped(deals, capsys):
    assert main(["compare", "--deals", str(deals), "--solvers", "native", "--db", "c.db", "--quiet"]) == 0
    with sqlite3.connect("c.db") as store:
        names = sorted(name for (name,) in store.execute("SELECT name FROM deals"))
    assert names == sorted([f"{deals}/caf\\xe9.txt", f"{deals}/\\xff.txt"])
    capsys.readouterr()
    assert main(["report", "c.db"]) == 0
    assert "2 runs on 2 deals" in capsys.readouterr().out
    assert main(["report", "c.db", "--html", "page"]) == 0
    assert "caf\\xe9" in _utf8_files(Path("page"))["index.html"]


def test_a_family_of_a_folder_indexes_the_names_escaped(deals):
    assert main(["gen", "cnf", "--deals", str(deals), "-o", "family", "--quiet"]) == 0
    index = json.loads(_utf8_files(Path("family"))["index.json"])
    names = sorted([f"{deals}/caf\\xe9.txt", f"{deals}/\\xff.txt"])
    assert sorted(item["name"] for item in index["instances"]) == names
    assert "caf\\xe9" in (Path("family") / "index.csv").read_text(encoding="utf-8")


def test_coursework_from_a_folder_writes_its_exercise(deals, capsys):
    assert main(["coursework", "--game", "black_hole", "--deals", str(deals), "--count", "2", "--pool", "2",
                 "-o", "exercise", "--answers", "answers"]) == 0
    assert len(list(Path("exercise/instances").iterdir())) == 2
    _utf8_files(Path("exercise")), _utf8_files(Path("answers"))  # every text file reads as UTF-8


def test_show_and_solve_print_and_write_the_name_escaped(deals):
    """In a real process, so that standard output is the real one (UTF-8, strict by default)."""
    deal = deals / f"{RAW}.txt"
    page = Path(f"{LATIN_1}.html")
    done = subprocess.run([sys.executable, "-m", "patience", "show", str(deal), "--solver", "native", "-o", str(page)],
                          capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": ""})
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode("utf-8").endswith("caf\\xe9.html: valid: 51 moves\n")
    assert "\\xff.txt" in page.read_bytes().decode("utf-8")
    done = subprocess.run([sys.executable, "-m", "patience", "solve", str(deal)], capture_output=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0 and done.stdout.decode("utf-8").startswith(f"deal: {deals}/\\xff.txt ")
