"""`patience grade` against a hostile student: whatever a model (or the files beside it) prints costs
that instance one row saying what was wrong; the table is still printed, never an internal error.
MiniZinc is faked by a script on MINIZINC_PATH that prints fixed text, so no solver is needed."""

from __future__ import annotations

import shutil
import stat
import sys

import pytest

from patience.cli import main
from patience.grading.table import CORRECT, ERROR, WRONG
from runners import minizinc
from tests.helpers import COURSE

GOOD = '{"actionFrom": [3, 2, 2, 2], "actionTo": [2, 1, 1, 1]}\n----------\n'  # LBS5_0's win, 1-based
BACKENDS = {"gecode": "org.gecode.gecode"}


@pytest.fixture
def fake_minizinc(tmp_path, monkeypatch):
    """A `minizinc` that prints the file `said` (beside it) and exits 0; returns a setter of that text."""
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / "minizinc"
    script.write_text(f"#!{sys.executable}\nimport sys\nsys.stdout.write(open({str(folder / 'said')!r}).read())\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("MINIZINC_PATH", str(script))
    monkeypatch.setattr(minizinc, "configured_backends", lambda: BACKENDS)
    monkeypatch.setattr("patience.grading.lbs_minizinc.configured_backends", lambda: BACKENDS)
    return lambda text: (folder / "said").write_text(text)


def grade_fake(tmp_path, capsys, *extra: str) -> tuple[int, list[str], str]:
    folder = tmp_path / "instances"
    folder.mkdir(exist_ok=True)
    shutil.copy(COURSE / "SolvableInstances/LBS5_0.param", folder)
    model = tmp_path / "student.mzn"
    model.write_text("solve satisfy;\n")
    status = main(["grade", str(model), "--instances", str(folder), *extra])
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err


@pytest.mark.parametrize("stats", ["%%%mzn-stat: nodes=\u00b2\n", f"%%%mzn-stat: nodes={'7' * 5000}\n",
                                   "%%%mzn-stat: nodes=-3\n%%%mzn-stat: solveTime=nan\n",
                                   f"%%%mzn-stat: solveTime={'9' * 5000}\n%%%mzn-stat: flatTime=1e400\n"])
def test_odd_statistics_are_no_statistics_and_the_solution_is_still_graded(tmp_path, capsys, fake_minizinc, stats):
    fake_minizinc(GOOD + stats)
    status, lines, err = grade_fake(tmp_path, capsys)
    assert (status, err) == (0, "")
    assert lines[1].split()[:7] == ["LBS5_0", "5", "solved", CORRECT, "-", "-", "-"]


@pytest.mark.parametrize("said, note", [
    ("[" * 100_000 + "\n----------\n", "nested too deep"),
    ('{"actionFrom": [' + "1" * 5000 + '], "actionTo": [1]}\n----------\n', "not JSON"),
    ('{"actionFrom": [3, 2, 2, 2], "actionTo": [2, 1, 1, 1e400]}\n----------\n', "no array of integers"),
    ("\x00\xff garbage\n", "neither a solution nor a verdict"),
])
def test_a_garbage_solution_is_one_error_row(tmp_path, capsys, fake_minizinc, said, note):
    fake_minizinc(said)
    status, lines, err = grade_fake(tmp_path, capsys)
    assert (status, err) == (1, "")
    assert lines[1].split()[:4] in (["LBS5_0", "5", ERROR, WRONG], ["LBS5_0", "5", "solved", WRONG])
    assert note in lines[1] and len(lines[1]) < 400
    assert lines[-1].startswith("1 instances: ")


def test_a_backend_must_be_one_minizinc_has_configured(tmp_path, capsys, fake_minizinc):
    ran = tmp_path / "ran"
    evil = tmp_path / "evil.msc"
    evil.write_text(f'{{"id": "x.evil", "executable": "/bin/touch", "stdFlags": [], "version": "1", '
                    f'"mznlib": "", "extraFlags": [], "args": ["{ran}"]}}\n')
    fake_minizinc(GOOD)
    status, lines, err = grade_fake(tmp_path, capsys, "--backend", str(evil))
    assert (status, lines) == (2, [])
    assert err.startswith("error: --backend ") and "gecode" in err and err.count("\n") == 1
    assert not ran.exists()


@pytest.mark.parametrize("line, graded", [
    ("SolverNodes:1e400", CORRECT), ("SolverNodes:nan", CORRECT), (f"SolverNodes:{'1' * 5000}", CORRECT),
    ("SolverSatisfiable:nan", CORRECT), ("SolverNodes is many", CORRECT)])
def test_odd_info_files_leave_a_solution_graded_by_replay(tmp_path, capsys, line, graded):
    for suffix in ("", ".info", ".solution"):
        shutil.copy(COURSE / f"SolvableInstances/LBS5_0.param{suffix}", tmp_path)
    info = tmp_path / "LBS5_0.param.info"
    info.write_text(info.read_text() + line + "\n")
    assert main(["grade", "--results", str(tmp_path)]) == 0
    row = capsys.readouterr().out.splitlines()[1]
    assert row.split()[:4] == ["LBS5_0", "5", "solved", graded] and "unreadable .info" in row


@pytest.mark.parametrize("line", ["SolverSatisfiable:nan", "SolverTimeOut:inf", "SolverNodes:1e400"])
def test_odd_info_files_without_a_solution_are_an_error_row_and_the_rest_is_graded(tmp_path, capsys, line):
    for suffix in ("", ".info"):
        shutil.copy(COURSE / f"SolvableInstances/LBS5_0.param{suffix}", tmp_path)
    for suffix in ("", ".info", ".solution"):
        shutil.copy(COURSE / f"SolvableInstances/LBS4_13.param{suffix}", tmp_path)
    info = tmp_path / "LBS5_0.param.info"
    info.write_text(info.read_text().replace("SolverSatisfiable:1", "SolverSatisfiable:0") + line + "\n")
    assert main(["grade", "--results", str(tmp_path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:4] == ["LBS4_13", "4", "solved", CORRECT]
    assert lines[2].split()[:4] == ["LBS5_0", "5", ERROR, WRONG] and "not a finite number" in lines[2]
    assert lines[-1].startswith("2 instances: ")


@pytest.mark.parametrize("solution", ["letting actionFrom be " + "[" * 100_000 + "\n",
                                      f"letting actionFrom be [{'9' * 5000}]\nletting actionTo be [1]\n",
                                      "letting actionFrom be [3, 2, 2, 2]\nletting actionTo be [2, 1, 1, 1e400]\n"])
def test_a_garbage_solution_file_is_one_wrong_row(tmp_path, capsys, solution):
    for suffix in ("", ".info", ".solution"):
        shutil.copy(COURSE / f"SolvableInstances/LBS5_0.param{suffix}", tmp_path)
    (tmp_path / "LBS5_0.param.solution").write_text("language ESSENCE' 1.0\n" + solution)
    assert main(["grade", "--results", str(tmp_path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split()[:4] == ["LBS5_0", "5", "solved", WRONG] and len(lines[1]) < 400


def test_an_optimisation_models_search_complete_line_is_no_garbage(tmp_path, capsys, fake_minizinc):
    fake_minizinc(GOOD + "==========\n")  # what MiniZinc prints after the last solution of `solve minimize`
    status, lines, err = grade_fake(tmp_path, capsys)
    assert (status, err) == (0, "") and lines[1].split()[:4] == ["LBS5_0", "5", "solved", CORRECT]
