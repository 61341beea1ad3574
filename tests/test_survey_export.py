"""`patience survey export`: a store's rows as compressed CSV, read back equal to the store, written
whole or not at all, and refused in one line for a bad name or place."""

from __future__ import annotations

import csv
import gzip
import io
import lzma
from pathlib import Path

import pytest

from patience.cli import main
from patience.survey.store import SurveyStore

OPEN = {".csv": lambda path: path.read_bytes(), ".gz": lambda path: gzip.decompress(path.read_bytes()),
        ".xz": lambda path: lzma.decompress(path.read_bytes())}


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("survey") / "black_hole.db"
    assert main(["survey", "--seeds", "1-40", "--batch", "15", "--db", str(db), "--quiet"]) == 0
    return db


@pytest.mark.parametrize("name", ["rows.csv", "rows.csv.gz", "rows.csv.xz"])
def test_the_export_reads_back_as_the_store(store, tmp_path, name, capsys):
    out = tmp_path / name
    assert main(["survey", "export", "--db", str(store), "--out", str(out)]) == 0
    assert capsys.readouterr().out == f"{out}: 40 deals\n"
    table = list(csv.DictReader(io.StringIO(OPEN[out.suffix](out).decode())))
    opened = SurveyStore(store, create=False)
    rows = opened.rows()
    opened.close()
    assert [(int(line["seed"]), line["verdict"], int(line["cards"]), int(line["nodes"])) for line in table] == [
        (row.seed, row.verdict.value, row.cards, row.nodes) for row in rows]
    assert {line["verdict"] for line in table} == {"solved", "unsolvable"}
    assert list(tmp_path.iterdir()) == [out]  # no scratch file left beside it


@pytest.mark.parametrize(("out", "said"), [("rows.txt", "the export is a .csv"),
                                           ("missing/rows.csv", "does not exist")])
def test_a_bad_export_path_is_one_line_and_writes_nothing(store, tmp_path, out, said, capsys):
    assert main(["survey", "export", "--db", str(store), "--out", str(tmp_path / out)]) == 2
    err = capsys.readouterr().err
    assert said in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_export_needs_out_and_an_existing_store(tmp_path, capsys):
    assert main(["survey", "export", "--db", str(tmp_path / "none.db"), "--out", str(tmp_path / "x.csv")]) == 2
    assert main(["survey", "export", "--db", str(tmp_path / "none.db")]) == 2
    assert list(tmp_path.iterdir()) == []
