"""The families' hostile-input corpus (tests/corpus/families/): stores given to --measure that are
not campaign stores, and --select values that are not selections. Each is one error line, exit 2,
nothing on stdout and nothing written, before any deal is searched."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from patience.cli import main

CORPUS = Path(__file__).resolve().parent / "corpus" / "families"
STORES = sorted(path.name for path in CORPUS.iterdir() if "store" in path.name)
SELECTIONS = (CORPUS / "bad-selections.txt").read_text().splitlines()


def refused(tmp_path: Path, capsys, *arguments: str) -> str:
    output = tmp_path / "family"
    assert main(["gen", "cnf", "--deals", "black_hole:1-3", "-o", str(output), "--quiet", *arguments]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: ") and err.count("\n") == 1 and len(err) < 1000
    assert not output.exists()
    return err


@pytest.mark.parametrize("name", STORES)
def test_a_store_that_is_not_a_campaign_store_is_refused(tmp_path, capsys, name):
    store = tmp_path / name  # a copy: opening a store may add its journal files
    shutil.copyfile(CORPUS / name, store)
    err = refused(tmp_path, capsys, "--select", "hardest:2", "--measure", f"{store}:x")
    assert str(store) in err


@pytest.mark.parametrize("selection", SELECTIONS)
def test_a_selection_that_is_not_one_is_refused(tmp_path, capsys, selection):
    assert "hardest:N" in refused(tmp_path, capsys, "--select", selection)


def test_a_deal_file_named_with_a_line_break_keeps_the_cnf_header_comments(tmp_path):
    from patience.families.conventions import unpack
    from patience.formats import write_deal
    from patience.generators.deals import pysol_deal

    folder = tmp_path / "deals\np cnf 1 1"
    folder.mkdir()
    (folder / "odd\nname.txt").write_text(write_deal(pysol_deal("black_hole", 2), "board"))
    output = tmp_path / "family"
    assert main(["gen", "cnf", "--deals", str(folder), "-o", str(output), "--quiet"]) == 0
    text = unpack(next(output.glob("*.cnf.xz")))
    header = text[:text.index("\np cnf ")].splitlines()
    assert all(line.startswith("c") for line in header) and "c expected: SAT (native search: solved)" in header
