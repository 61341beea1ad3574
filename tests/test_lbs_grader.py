"""The coursework grader: real Savile Row results graded, broken models caught, bad input refused."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from patience.cli import main
from patience.grading.lbs_savilerow import NativeVerdicts, grade_results
from patience.grading.table import CORRECT, WRONG
from patience.lbs.solution import Mapping
from tests.helpers import COURSE, ROOT, TRANSCRIPTS, needs_solver

SAVED = TRANSCRIPTS / "lbs"  # real Savile Row 1.6.5 + Minion runs of two deliberately broken models
FIVE = ("SolvableInstances/LBS4_13", "SolvableInstances/LBS5_0", "SolvableInstances/LBS5_30",
        "UnsolvableInstances/LBS6_12", "SolvableInstances/LBS7_47")


def grade(folder: Path, mapping: Mapping | None = None):
    return {row.instance: row for row in grade_results(folder, mapping, NativeVerdicts(60))}


def copy_instance(name: str, folder: Path, with_outputs: bool = True) -> Path:
    source = COURSE / f"{name}.param"
    folder.mkdir(parents=True, exist_ok=True)
    for suffix in ("", ".info", ".solution") if with_outputs else ("",):
        if Path(f"{source}{suffix}").exists():
            shutil.copy(f"{source}{suffix}", folder)
    return folder / source.name


def test_course_results_all_correct_or_ungraded(capsys):
    assert main(["grade", "--results", str(COURSE)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:7] == ["instance", "n", "verdict", "grade", "SolverNodes", "SolverSolveTime",
                                  "SavileRowTotalTime"]
    assert len(out) == 45  # header, 43 instances, summary
    assert out[-1] == ("43 instances: 27 solved, 9 no solution, 7 timeout, 0 error; "
                       "36 correct, 0 wrong, 7 not graded")
    lbs5_0 = next(line for line in out if line.startswith("LBS5_0 "))
    assert lbs5_0.split()[2:7] == ["solved", "correct", "2", "0.043", "0.434"]


def test_missing_constraint_is_caught_as_illegal_moves():
    rows = grade(SAVED / "no-match-results")
    assert len(rows) == 5 and all(row.grade == WRONG for row in rows.values())
    assert all("shares neither suit nor value" in row.note for row in rows.values())
    assert rows["LBS6_12"].verdict == "solved"  # it even "solves" an unsolvable deal


def test_over_constrained_model_is_caught_losing_solutions():
    rows = grade(SAVED / "one-step-results")
    assert {name for name, row in rows.items() if row.grade == WRONG} == {"LBS4_13", "LBS5_30", "LBS7_47"}
    assert all("lost solutions" in rows[name].note for name in ("LBS4_13", "LBS5_30", "LBS7_47"))
    assert rows["LBS5_0"].grade == rows["LBS6_12"].grade == CORRECT


def test_tampered_files_are_caught(tmp_path):
    param = copy_instance("SolvableInstances/LBS5_0", tmp_path)
    solution = Path(f"{param}.solution")
    solution.write_text(solution.read_text().replace("actionTo be [2, 1, 1, 1]", "actionTo be [2, 1, 1, 0]"))
    assert grade(tmp_path)["LBS5_0"].note.startswith("illegal: move 4 (2->0)")
    solution.write_text(solution.read_text().replace("actionFrom", "source"))
    row = grade(tmp_path)["LBS5_0"]
    assert row.grade == WRONG and "cannot tell which variables" in row.note
    solution.unlink()
    info = Path(f"{param}.info")
    info.write_text(info.read_text().replace("SolverSatisfiable:1", "SolverSatisfiable:0"))
    row = grade(tmp_path)["LBS5_0"]
    assert (row.verdict, row.grade) == ("no solution", WRONG) and "native wins" in row.note
    info.unlink()
    assert grade(tmp_path)["LBS5_0"].verdict == "error"


def test_mapping_names_other_variables_zero_based(tmp_path, capsys):
    param = copy_instance("SolvableInstances/LBS5_0", tmp_path)
    Path(f"{param}.solution").write_text(
        "language ESSENCE' 1.0\nletting src be [2, 1, 1, 1]\nletting dst be [1, 0, 0, 0]\n"
        "letting grid be [[1, 2],\n[3, 4];int(0..1)]\n")
    mapping = tmp_path / "map.yaml"
    mapping.write_text("from: src\nto: dst\nfirst_position: 0\n")
    assert main(["grade", "--results", str(tmp_path), "--mapping", str(mapping)]) == 0
    assert "correct" in capsys.readouterr().out
    mapping.write_text("from: src\nto: dst\n")  # read 1-based, every move is off by one place
    assert main(["grade", "--results", str(tmp_path), "--mapping", str(mapping)]) == 1
    assert "WRONG" in capsys.readouterr().out


@pytest.mark.parametrize("setup, message", [
    (lambda folder: (folder / "LBS5_0.param").write_text("letting cards be [1, 1]\n"), "LBS5_0.param:1: a card"),
    (lambda folder: (folder / "map.yaml").write_text("from: [1\n"), "map.yaml"),
    (lambda folder: (folder / "map.yaml").write_text("to: b\n"), "needs `from: VARIABLE`"),
])
def test_bad_input_is_one_error_line(tmp_path, capsys, setup, message):
    copy_instance("SolvableInstances/LBS5_0", tmp_path)
    setup(tmp_path)
    mapping = ["--mapping", str(tmp_path / "map.yaml")] if (tmp_path / "map.yaml").exists() else []
    assert main(["grade", "--results", str(tmp_path), *mapping]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error: ") and message in captured.err


@pytest.mark.parametrize("argv", [["grade"], ["grade", "--results", "/nonexistent-folder"],
                                  ["grade", "m.eprime", "--results", "."]])
def test_bad_command_lines(argv, capsys):
    assert main(argv) == 2
    assert capsys.readouterr().out == ""


@needs_solver("savilerow-minion")
@pytest.mark.parametrize("model, wrong", [
    (ROOT / "models" / "lbs.eprime", set()),
    (SAVED / "no-match.eprime", {"LBS4_13", "LBS6_12"}),
    (SAVED / "one-step.eprime", {"LBS4_13"}),
])
def test_real_savilerow_grading(tmp_path, capsys, model, wrong):
    for name in ("SolvableInstances/LBS4_13", "UnsolvableInstances/LBS6_12"):
        copy_instance(name, tmp_path, with_outputs=False)
    assert main(["grade", str(model), "--instances", str(tmp_path), "--timeout", "60", "-O0"]) == (1 if wrong else 0)
    lines = capsys.readouterr().out.splitlines()[1:-1]
    assert {line.split()[0] for line in lines if WRONG in line.split()} == wrong
    assert sorted(p.name for p in tmp_path.iterdir()) == ["LBS4_13.param", "LBS6_12.param"]  # no files left


@needs_solver("savilerow-minion")
def test_out_of_time_is_a_timeout_with_minion_stopped_at_the_limit(tmp_path, capsys):
    """Minion gets the limit too: it stops, Savile Row writes its .info, nothing is graded wrong."""
    copy_instance("GeneratedInstances/LBS19_4", tmp_path, with_outputs=False)  # Minion needs minutes
    started = time.monotonic()
    assert main(["grade", str(ROOT / "models" / "lbs.eprime"), "--instances", str(tmp_path), "--timeout", "2"]) == 0
    row = capsys.readouterr().out.splitlines()[1].split()
    assert row[:4] == ["LBS19_4", "19", "timeout", "-"] and int(row[4]) > 0  # SolverNodes from the .info
    assert time.monotonic() - started < 20  # not the 30 s backstop kill


@needs_solver("savilerow-minion")
def test_model_that_does_not_parse_is_an_error_row(tmp_path, capsys):
    copy_instance("SolvableInstances/LBS4_13", tmp_path / "instances", with_outputs=False)
    model = tmp_path / "typo.eprime"
    model.write_text("language ESSENCE' 1.0\ngiven cards : matrix indexed by [int(1..n)] of int(0..51)\n"
                     "find actionFrom : matrix indexed by [int(1..n-1)] of int(2..n\n")
    assert main(["grade", str(model), "--instances", str(tmp_path / "instances"), "--timeout", "60"]) == 1
    row = capsys.readouterr().out.splitlines()[1].split()
    assert row[:4] == ["LBS4_13", "4", "error", WRONG]
