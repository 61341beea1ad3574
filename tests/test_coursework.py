"""`patience coursework`: the instances it writes read back as the chosen deals in the language's
data format, the reference answers replay, the same seed writes the same bytes, the sheet names
every instance, hardness orders the choice, and bad choices are one line and exit 2 before any file."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from patience.cli import main
from patience.games import get_game, read_game_deal
from patience.grading.coursework import Exercise, Instance, build_exercise, instance_files, sheet
from patience.lbs import deal as lbs_deal
from patience.result import Status
from patience.runners.registry import get_solver
from patience.runners.solve import solve
from patience.runs.process import Limits


def coursework(capsys, tmp_path: Path, *argv: str, out: str = "exercise", answers: str = "answers"):
    status = main(["coursework", *argv, "--out", str(tmp_path / out), "--answers", str(tmp_path / answers)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


@pytest.mark.parametrize(("game", "language", "data"), [
    ("black_hole", "mzn", ".dzn"), ("binary_star", "eprime", ".param"),
    pytest.param("lbs", "asp", ".lp", marks=pytest.mark.slow)])  # LBS's search starts a process a deal: a second each
def test_the_instances_read_back_and_the_answers_replay(tmp_path, capsys, game, language, data):
    status, out, err = coursework(capsys, tmp_path, "--game", game, "--language", language, "--count", "4",
                                  "--pool", "6", "--seed", "7", "--cards", "8", "--label-timeout", "20")
    assert (status, err) == (0, "") and "4 " in out
    exercise, answers = tmp_path / "exercise", tmp_path / "answers"
    rows = json.loads((answers / "answers.json").read_text())["instances"]
    assert [row["instance"] for row in rows] == [f"{game}-{number:02d}" for number in range(1, 5)]
    solver = get_solver({"mzn": "minizinc", "eprime": "savilerow-minion", "asp": "clingo"}[language])
    for row in rows:
        deal_path = next((exercise / "deals").glob(f"{row['instance']}.*"))
        deal = read_game_deal(deal_path, None)[1]
        built = solver.build(deal, {option.name: option.default for option in solver.options})
        assert (exercise / "instances" / f"{row['instance']}{data}").read_text() == built.files[built.primary]
        solution = answers / f"{row['instance']}.solution"
        if row["status"] == "solved":  # the reference answer replays on the deal the students got
            game_rules = get_game(game)
            moves = game_rules.read_answer(solution.read_text(), str(solution), deal)
            assert game_rules.replay(deal, moves).valid and (answers / f"{row['instance']}.html").is_file()
        else:
            assert row["status"] == "unsolvable" and not solution.exists()
            assert solve(deal, "native", Limits(timeout=20)).status.value == "unsolvable"
    assert not (exercise / "answers").exists() and not any(path.suffix == ".solution" for path in exercise.rglob("*"))


def test_same_seed_same_files_and_another_seed_other_deals(tmp_path, capsys):
    argv = ("--game", "black_hole", "--count", "3", "--pool", "10", "--seed", "4", "--sheet", "html")
    assert coursework(capsys, tmp_path, *argv)[0] == 0
    assert coursework(capsys, tmp_path, *argv, out="again", answers="answers-again")[0] == 0
    assert files_of(tmp_path / "exercise") == files_of(tmp_path / "again")
    assert files_of(tmp_path / "answers") == files_of(tmp_path / "answers-again")
    assert coursework(capsys, tmp_path, *argv[:-3], "5", out="other", answers="answers-other")[0] == 0
    assert files_of(tmp_path / "other")["deals/black_hole-01.txt"] != files_of(tmp_path / "exercise")[
        "deals/black_hole-01.txt"]


def test_the_sheet_names_every_instance_and_how_it_is_graded():
    exercise = Exercise("lbs", count=3, timeout=30)
    instances = [Instance(f"lbs-0{seed}", f"lbs:8:{seed}", replace(lbs_deal.random_deal(8, seed), name=f"lbs-0{seed}"),
                          Status.UNSOLVABLE, seed, 0.0, None) for seed in (1, 2, 3)]
    students, model_text = instance_files(instances, exercise)
    text = sheet(instances, exercise, students, model_text)
    for number in range(1, 4):
        assert f"| `lbs-{number:02d}` | 8 | `instances/lbs-{number:02d}.dzn` | `deals/lbs-{number:02d}.param` |" in text
    assert "patience grade model.mzn --game lbs --instances deals/ --timeout 30" in text
    assert 'it may include files it keeps beside it in that folder: `include "helper.mzn";`' in text
    assert "actionFrom" in text and "one place or three places to its left" in text
    assert text.startswith("# Late Binding Solitaire in MiniZinc")


def test_the_html_sheet_is_one_page_with_every_text_escaped(tmp_path, capsys):
    status, _, _ = coursework(capsys, tmp_path, "--game", "all_in_a_row", "--language", "asp", "--count", "3",
                              "--pool", "6", "--sheet", "html")
    text = (tmp_path / "exercise" / "sheet.html").read_text()
    assert status == 0 and text.startswith("<!DOCTYPE html>") and "<script" not in text and "http" not in text
    assert all(f"<td>instances/all_in_a_row-0{number}.lp</td>" in text for number in range(1, 4))
    assert "#show" in text and "play(C, T)" in text


def test_hardness_and_the_unsolvable_count_choose_from_the_labelled_pool():
    easiest, hardest = (build_exercise(Exercise("black_hole", count=3, hardness=way, pool=30, seed=2))[0]
                        for way in ("easiest", "hardest"))
    assert max(item.nodes for item in easiest) <= min(item.nodes for item in hardest)
    mixed = build_exercise(Exercise("black_hole", count=4, unsolvable=2, pool=30, seed=2))[0]
    assert sorted(item.status.value for item in mixed) == ["solved", "solved", "unsolvable", "unsolvable"]
    assert [item.nodes for item in mixed] == sorted(item.nodes for item in mixed)  # numbered from the easiest


@pytest.mark.parametrize(("argv", "message"), [
    (("--game", "black_hole", "--count", "3", "--unsolvable", "4"), "--unsolvable 4 is more than"),
    (("--game", "black_hole", "--shape", "5,4,3"), "--shape sets the pool"),
    (("--game", "black_hole", "--count", "5", "--pool", "3"), "--pool 3 is smaller"),
    (("--game", "black_hole", "--count", "3", "--pool", "5", "--unsolvable", "3"), "unsolvable deals decided"),
    (("--game", "lbs", "--mapping", "minizinc-benchmarks"), "the mapping is for black_hole"),
    (("--game", "generalised", "--shape", "5,x,3"), "RANKS,SUITS,HEIGHT"),
    (("--game", "binary_star_generalised",), "give --deals"),
])
def test_bad_choices_are_one_line_and_write_nothing(tmp_path, capsys, argv, message):
    status, out, err = coursework(capsys, tmp_path, *argv)
    assert (status, out) == (2, "") and message in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_the_answers_never_go_inside_the_students_folder_and_a_full_folder_needs_force(tmp_path, capsys):
    status, _, err = coursework(capsys, tmp_path, "--game", "black_hole", "--count", "2", "--pool", "4",
                                answers="exercise/answers")
    assert status == 2 and "holds the input" in err and list(tmp_path.iterdir()) == []
    (tmp_path / "exercise").mkdir()
    (tmp_path / "exercise" / "mine.txt").write_text("the teacher's own file\n")
    status, _, err = coursework(capsys, tmp_path, "--game", "black_hole", "--count", "2", "--pool", "4")
    assert status == 2 and "--force" in err and not (tmp_path / "answers").exists()
    status, _, _ = coursework(capsys, tmp_path, "--game", "black_hole", "--count", "2", "--pool", "4", "--force")
    assert status == 0 and not (tmp_path / "exercise" / "mine.txt").exists()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["answers", "exercise"]  # no scratch folder left


def test_a_mapping_writes_the_data_the_public_model_reads(tmp_path, capsys):
    status, _, _ = coursework(capsys, tmp_path, "--game", "black_hole", "--count", "2", "--pool", "4",
                              "--mapping", "minizinc-benchmarks")
    assert status == 0
    data = (tmp_path / "exercise" / "instances" / "black_hole-01.dzn").read_text()
    sheet_text = (tmp_path / "exercise" / "sheet.md").read_text()
    assert "layout" in data
    assert "--game black_hole --instances deals/ --timeout 60 --mapping minizinc-benchmarks\n" in sheet_text


def test_the_python_api_writes_the_same_exercise_as_the_command(tmp_path, capsys):
    import patience

    chosen = patience.coursework("black-hole", tmp_path / "api", tmp_path / "api-answers", count=3, pool=8, seed=6)
    assert coursework(capsys, tmp_path, "--game", "black_hole", "--count", "3", "--pool", "8", "--seed", "6")[0] == 0
    assert files_of(tmp_path / "api") == files_of(tmp_path / "exercise")
    assert [item["instance"] for item in chosen] == ["black_hole-01", "black_hole-02", "black_hole-03"]
    for item in chosen:
        assert (item["moves"] is None) == (item["status"] == "unsolvable")
    with pytest.raises(patience.UsageError, match="hardness must be one of easiest, hardest, sample, spread"):
        patience.coursework("black_hole", tmp_path / "x", tmp_path / "y", hardness="medium")
    with pytest.raises(patience.UsageError, match="count must be from 1 to 1,000, not 0"):  # as --count
        patience.coursework("black_hole", tmp_path / "x", tmp_path / "y", count=0)
    assert not (tmp_path / "x").exists()


def test_a_teachers_slips_with_an_exercise_say_what_to_give_instead(tmp_path, capsys):
    """The grading after `coursework` as a teacher may first type it: the students' data folder for
    --instances, --game forgotten for a class or for one model. Each is one line saying what to give."""
    assert coursework(capsys, tmp_path, "--game", "black_hole", "--count", "2", "--pool", "6")[0] == 0
    klass = tmp_path / "class"
    (klass / "ann").mkdir(parents=True)
    (klass / "ann" / "model.mzn").write_text("solve satisfy;\n")
    exercise = tmp_path / "exercise"
    for argv, message in (
            (["--class", str(klass), "--instances", str(exercise / "instances"), "--game", "black_hole"],
             f"--instances takes the deals, which a coursework writes into {exercise / 'deals'}"),
            (["--class", str(klass), "--instances", str(exercise / "deals")], "give --game black_hole"),
            ([str(klass / "ann" / "model.mzn"), "--instances", str(exercise / "deals")],
             "a model of another game is graded with --game GAME")):
        assert main(["grade", *argv, "--out", str(tmp_path / "marks")]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.count("\n") == 1 and message in captured.err
    assert not (tmp_path / "marks").exists()
