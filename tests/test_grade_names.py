"""Names are data in the grader: a student's folder or a deal's file whose name holds a newline, a
carriage return, an escape sequence or a byte no encoding reads (a Latin-1 name from a zip) is shown
escaped, on one line, in every table, summary, CSV, JSON, HTML and Gradescope file; it never forges a
line, clears a screen or ends the class."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest

from patience.cards import Card
from patience.cli import main
from patience.deal import Deal
from patience.errors import printable
from patience.formats import write_deal
from patience.grading.classroom import NAME_BYTES, folder_name, printable_names
from patience.grading.table import CORRECT, SOLVED, Graded, table
from patience.reading import read_text
from tests.helpers import ROOT, needs_solver

FORGED = "eve\neve: 3\u22153 correct, 0 wrong, 0 not graded\r\x1b[2J\x1b[1A"  # ∕ is no /
LATIN1 = os.fsdecode(b"caf\xe9")  # café from a zip written in Latin-1: not UTF-8
WON = Deal(((Card(1, 0), Card(3, 0)), (Card(2, 0),)), Card(0, 0), 4)  # A, then 2, 3, 4 of one suit: won
LOST = Deal(((Card(2, 1), Card(3, 0)),), Card(0, 0), 4)  # the only follower of the A lies under the other


def unprintable(text: str) -> list[str]:
    return [char for char in text if not char.isprintable() and char != "\n"]


def test_printable_escapes_every_line_break_escape_and_undecodable_byte():
    assert printable(FORGED) == "eve\\neve: 3∕3 correct, 0 wrong, 0 not graded\\r\\x1b[2J\\x1b[1A"
    assert printable(LATIN1) == "caf\\xe9"
    assert printable("a\u2028b\x85c\x00") == "a\\u2028b\\x85c\\x00"
    assert printable("3♠ 10♥ café") == "3♠ 10♥ café"  # printable text is left as it is
    printable(LATIN1).encode()  # any UTF-8 output takes it


def test_two_names_that_print_the_same_keep_their_own_marks():
    names = [name for name, _, _ in printable_names([("a\nb", None, ""), ("a\\nb", None, ""), ("c", None, "")])]
    assert len(set(names)) == 3 and names[2] == "c" and all("\n" not in name for name in names)


def test_a_long_latin1_name_still_names_a_gradescope_folder():
    long, other = os.fsdecode(b"\xe9" * 200), os.fsdecode(b"\xe9" * 199 + b"e")
    names = [folder_name(printable(name)) for name in (long, other)]
    assert all(len(name.encode()) <= NAME_BYTES and name.startswith("\\xe9") for name in names)
    assert names[0] != names[1] and folder_name("ann") == "ann"


def test_a_table_row_is_one_line_whatever_the_deals_name():
    rows = [Graded("deal\nfake  51  solved  correct", 51, SOLVED, CORRECT, "note\r\x1b[2J"),
            Graded(LATIN1, 3, SOLVED, CORRECT)]
    lines = table(rows).splitlines()
    assert len(lines) == 1 + 2 + 1 and not unprintable("".join(lines))
    assert lines[1].startswith("deal\\nfake") and lines[2].startswith("caf\\xe9")


@pytest.fixture
def hostile_class(tmp_path) -> tuple[Path, Path]:
    """Three students with hostile folder names (one hands in nothing that runs) and two deals, one
    with a newline in its file name."""
    instances = tmp_path / "instances"
    instances.mkdir()
    (instances / "won\nfake row.yaml").write_text(write_deal(WON, "yaml"))
    (instances / f"{LATIN1}.yaml").write_text(write_deal(LOST, "yaml"))
    klass = tmp_path / "class"
    model = read_text(ROOT / "models" / "asp-black-hole.lp")
    for name, text in ((FORGED, "p.\n"), (LATIN1, model), ("bob\x1b]0;owned\x07", model)):
        (klass / name).mkdir(parents=True)
        (klass / name / "model.lp").write_text(text)
    return klass, instances


@needs_solver("clingo")
def test_hostile_names_neither_forge_marks_nor_end_the_class(tmp_path, capsys, hostile_class):
    klass, instances = hostile_class
    out = tmp_path / "marks"
    status = main(["grade", "--class", str(klass), "--instances", str(instances), "--game", "generalised",
                   "--timeout", "20", "--out", str(out)])
    printed = capsys.readouterr().out
    assert status == 0 and not unprintable(printed)
    lines = printed.splitlines()
    assert len(lines) == 3 + 1  # a line per student and the marks file: nothing forged
    by_student = {line.rsplit(": ", 1)[0]: line.rsplit(": ", 1)[1] for line in lines[:3]}
    assert by_student[printable(FORGED)].startswith("0/2 correct, 2 wrong")
    assert by_student["caf\\xe9"].startswith("2/2 correct")
    assert by_student["bob\\x1b]0;owned\\x07"].startswith("2/2 correct")
    rows = list(csv.DictReader(io.StringIO((out / "marks.csv").read_text())))
    assert (out / "marks.csv").read_text().count("\n") == 1 + 6  # a line per row: no name spans two
    assert {row["instance"] for row in rows} == {"won\\nfake row", "caf\\xe9"}
    assert json.loads((out / "marks.json").read_text()) == [
        {**row, "cards": int(row["cards"]), "nodes": json.loads(row["nodes"] or "null"),
         "seconds": json.loads(row["seconds"] or "null")} for row in rows]
    for name in by_student:
        results = json.loads((out / "gradescope" / name / "results.json").read_text())
        assert results["max_score"] == 2 and results["score"] == int(by_student[name][0])
    page = (out / "marks.html").read_text()
    assert not unprintable(page) and "caf\\xe9" in page and "\x1b" not in page


@needs_solver("clingo")
def test_one_models_table_has_a_row_per_deal_whatever_their_names(tmp_path, capsys, hostile_class):
    _, instances = hostile_class
    model = tmp_path / "model.lp"
    model.write_text(read_text(ROOT / "models" / "asp-black-hole.lp"))
    status = main(["grade", str(model), "--game", "generalised", "--instances", str(instances), "--timeout", "20"])
    printed = capsys.readouterr().out
    lines = printed.splitlines()
    assert status == 0 and not unprintable(printed)
    assert len(lines) == 1 + 2 + 1 and lines[-1].startswith("2 instances: 1 solved, 1 no solution")
    assert sorted(line.split()[0] for line in lines[1:3]) == ["caf\\xe9", "won\\nfake"]
