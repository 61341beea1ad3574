"""`patience examples` (issue 56 item 7): the example files the README's tour and the docs read (the
paper's deal and its answer, the LBS coursework's instances, a grader's Savile Row files) come out of
the installed package into any folder, whole; the checkout holds them once, in patience/examples."""

from __future__ import annotations

from pathlib import Path

from patience.cli import main
from patience.examples import EXAMPLES, example_files
from patience.games import read_game_deal
from tests.helpers import INSTANCES, ROOT, TRANSCRIPTS

SHIPPED = ROOT / "patience" / "examples"


def _files(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*")
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".py"}


def test_the_examples_are_written_whole_and_as_shipped(tmp_path, capsys):
    out = tmp_path / "examples"
    assert main(["examples", "-o", str(out)]) == 0
    assert _files(out) == _files(SHIPPED) == example_files()
    assert capsys.readouterr().out.splitlines() == [f"{out / folder}: {what}" for folder, what in EXAMPLES.items()]
    assert len(list((out / "lbs-coursework").rglob("*.param"))) == 43
    game, deal = read_game_deal(out / "black_hole" / "paper-example.txt")
    assert game.name == "black_hole" and len(deal.cards) == 51  # the piles; the A♠ starts the foundation
    assert main(["validate", str(out / "black_hole" / "paper-example.txt"),
                 str(out / "black_hole" / "paper-example.solution")]) == 0
    assert main(["grade", "--results", str(out / "lbs-grader" / "one-step-results")]) == 1  # the wrong model caught


def test_a_folder_in_the_way_is_kept_unless_forced_and_list_writes_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["examples", "--list"]) == 0
    assert capsys.readouterr().out.count("\n") == len(EXAMPLES) and not any(tmp_path.iterdir())
    mine = tmp_path / "examples" / "mine.txt"
    mine.parent.mkdir()
    mine.write_text("my notes")
    assert main(["examples"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not empty" in err and "--force" in err
    assert [path.name for path in mine.parent.iterdir()] == ["mine.txt"]
    assert main(["examples", "--force"]) == 0
    assert not mine.exists() and (tmp_path / "examples" / "README.md").is_file()
    assert [path.name for path in tmp_path.iterdir()] == ["examples"]  # no scratch folder left beside it


def test_the_checkouts_paths_to_the_examples_are_links_to_the_one_copy():
    for old, shipped in ((INSTANCES / "black_hole", "black_hole"), (INSTANCES / "lbs-coursework", "lbs-coursework"),
                         (TRANSCRIPTS / "lbs", "lbs-grader")):
        assert old.is_symlink() and old.resolve() == (SHIPPED / shipped).resolve()
    assert set(EXAMPLES) == {path.name for path in SHIPPED.iterdir() if path.is_dir() and path.name != "__pycache__"}
