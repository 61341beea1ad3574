"""`patience grade` on MiniZinc models of LBS: the project's model graded correct, broken models
caught (a missing constraint plays illegal moves, an extra one loses solutions, one that does not
compile is an error), other variable names through a mapping, bad instances refused."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from patience.cli import main
from patience.generators.mzn import lbs
from patience.lbs.deal import read_dzn
from tests.helpers import COURSE, needs_solver

pytestmark = needs_solver("minizinc")
INSTANCES = ("SolvableInstances/LBS4_13", "SolvableInstances/LBS5_0", "UnsolvableInstances/LBS6_12",
             "SolvableInstances/LBS7_47")
MATCH = "\n        \\/ actionValue[t] div ranks = states[t - 1, actionTo[t]] div ranks)"


@pytest.fixture
def instances(tmp_path) -> Path:
    """Four coursework instances: two as .param, two as MiniZinc .dzn."""
    folder = tmp_path / "instances"
    folder.mkdir()
    for number, name in enumerate(INSTANCES):
        source = COURSE / f"{name}.param"
        if number % 2:
            cards = source.read_text().split("[", 1)[1].split("]", 1)[0]
            (folder / f"{source.stem}.dzn").write_text(f"% {name}\ncards = [{cards}];\n")
        else:
            shutil.copy(source, folder)
    return folder


def graded(capsys, model_text: str, folder: Path, *extra: str) -> tuple[int, list[str]]:
    model = folder.parent / "student.mzn"
    model.write_text(model_text)
    status = main(["grade", str(model), "--instances", str(folder), "--timeout", "60", *extra])
    return status, capsys.readouterr().out.splitlines()


def test_the_project_model_is_graded_correct(capsys, instances):
    status, lines = graded(capsys, lbs.model_text(), instances)
    assert status == 0
    assert lines[0].split()[:7] == ["instance", "n", "verdict", "grade", "nodes", "solveTime", "flatTime"]
    assert [line.split()[:4] for line in lines[1:5]] == [
        ["LBS4_13", "4", "solved", "correct"], ["LBS5_0", "5", "solved", "correct"],
        ["LBS6_12", "6", "no", "solution"], ["LBS7_47", "7", "solved", "correct"]]
    assert lines[-1] == "4 instances: 3 solved, 1 no solution, 0 timeout, 0 error; 4 correct, 0 wrong, 0 not graded"


def test_a_missing_constraint_is_caught_as_illegal_moves(capsys, instances):
    text = lbs.model_text()
    without_matching = text.replace(
        "\n    /\\ (actionValue[t] mod ranks = states[t - 1, actionTo[t]] mod ranks" + MATCH, "")
    assert without_matching != text
    status, lines = graded(capsys, without_matching, instances)
    assert status == 1
    assert all(line.split()[2:4] == ["solved", "WRONG"] and "shares neither suit nor value" in line
               for line in lines[1:5])  # it even "solves" the unsolvable LBS6_12


def test_an_extra_constraint_is_caught_losing_solutions(capsys, instances):
    text = lbs.model_text()
    suit_only = text.replace(MATCH, ")").replace("actionValue[t] mod ranks = states[t - 1, actionTo[t]] mod ranks",
                                                 "actionValue[t] div ranks = states[t - 1, actionTo[t]] div ranks")
    assert suit_only != text
    status, lines = graded(capsys, suit_only, instances)
    assert status == 1
    assert any(line.startswith("LBS5_0") and "lost solutions" in line for line in lines)
    assert any(line.startswith("LBS6_12") and "correct" in line for line in lines)


def test_a_model_that_does_not_compile_is_graded_wrong(capsys, instances):
    status, lines = graded(capsys, lbs.model_text().replace("constraint", "constrain", 1), instances)
    assert status == 1
    assert all(" error " in line and "WRONG" in line for line in lines[1:5])


def test_other_variable_names_through_a_mapping(capsys, instances):
    renamed = lbs.model_text().replace("actionFrom", "source").replace("actionTo", "target")
    mapping = instances.parent / "mapping.yaml"
    mapping.write_text("from: source\nto: target\n")
    status, lines = graded(capsys, renamed, instances, "--mapping", str(mapping))
    assert status == 0 and lines[-1].endswith("4 correct, 0 wrong, 0 not graded")
    status, lines = graded(capsys, renamed, instances)
    assert status == 1 and "unreadable solution" in lines[1]


@pytest.mark.parametrize("text", ["cards = [1, 2, 2];\n", "cards = [a];\n", "n = 3;\ncards = [1, 2, 3];\n", ""])
def test_a_bad_dzn_instance_is_refused_on_one_line(capsys, tmp_path, text):
    folder = tmp_path / "instances"
    folder.mkdir()
    (folder / "LBS3_0.dzn").write_text(text)
    model = tmp_path / "student.mzn"
    model.write_text(lbs.model_text())
    assert main(["grade", str(model), "--instances", str(folder)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(f"error: {folder / 'LBS3_0.dzn'}:")
    assert captured.err.count("\n") == 1


def test_a_dzn_instance_may_span_lines_and_hold_comments():
    deal = read_dzn("% LBS5_0\ncards = [44, 29,\n         31, 5, 4];  % the row\n", "folder/LBS5_0.dzn")
    assert deal.cards == (44, 29, 31, 5, 4) and deal.name == "LBS5_0"
