"""A student's MiniZinc model that starts as the MiniZinc tutorial's do, `include "globals.mzn";`,
grades correct with the MiniZinc that setup.sh installs (Debian's 2.6.4 with Gecode 6.2, whose own
library cannot compile the globals: the grader runs Gecode with the project's library), in the
sandbox the grader runs students' models in."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

import patience
from patience.cli import main
from patience.formats import write_deal
from patience.generators.deals import random_deal
from patience.generators.mzn import lbs
from patience.grading import sandbox
from patience.reading import read_text
from patience.runners.minizinc import MiniZinc, minizinc_command
from patience.runs.process import Limits, run_process
from tests.helpers import COURSE, ROOT, needs_solver

pytestmark = needs_solver("minizinc")
PUBLIC = ROOT / "models" / "minizinc-benchmarks-black-hole.mzn"


def grade(capsys, model: Path, *argv: str) -> tuple[int, list[str], str]:
    status = main(["grade", str(model), "--timeout", "60", *argv])
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err


def tutorial_style(text: str) -> str:
    """The model as a student writes it: every global from "globals.mzn", and one more of them."""
    body = text.replace('include "table.mzn";\n', "").replace('include "inverse.mzn";\n', "")
    return 'include "globals.mzn";\n' + body.replace("constraint x[1] == 1;", "constraint x[1] == 1;\n"
                                                                        "constraint all_different(x);")


def test_a_black_hole_model_with_globals_grades_correct(tmp_path, capsys):
    folder = tmp_path / "instances"
    folder.mkdir()
    (folder / "seed3.txt").write_text(write_deal(random_deal(13, 4, 3, 3), "board"))
    model = tmp_path / "student.mzn"
    model.write_text(tutorial_style(read_text(PUBLIC)))
    assert model.read_text().startswith('include "globals.mzn";') and "all_different(x)" in model.read_text()
    status, lines, err = grade(capsys, model, "--mapping", "minizinc-benchmarks", "--instances", str(folder))
    assert (status, err) == (0, "")
    assert lines[1].split()[:4] == ["seed3", "51", "solved", "correct"]


@pytest.mark.parametrize("include", ['include "globals.mzn";', 'include "all_different.mzn";'])
def test_an_lbs_model_with_globals_grades_correct(tmp_path, capsys, include):
    """The project's LBS model with the implied constraint a student adds: the piles left after each
    move hold different cards."""
    folder = tmp_path / "instances"
    folder.mkdir()
    for name in ("SolvableInstances/LBS5_0", "UnsolvableInstances/LBS6_12"):
        (folder / f"{Path(name).name}.param").write_text((COURSE / f"{name}.param").read_text())
    model = tmp_path / "student.mzn"
    model.write_text(f"{include}\n{lbs.model_text()}\n"
                     "constraint forall(t in 0..n - 1)(all_different([states[t, p] | p in 1..n - t]));\n")
    status, lines, err = grade(capsys, model, "--instances", str(folder))
    assert (status, err) == (0, "")
    assert [line.split()[:4] for line in lines[1:3]] == [["LBS5_0", "5", "solved", "correct"],
                                                         ["LBS6_12", "6", "no", "solution"]]
    assert lines[-1].endswith("2 correct, 0 wrong, 0 not graded")


def test_the_library_is_seen_in_the_sandbox_of_a_toolkit_installed_with_the_system(tmp_path, monkeypatch):
    """Installed under /usr (root's pip), the toolkit lies in a system folder the sandbox shows and
    hides behind an empty folder (the teacher's models are in it): its MiniZinc library stays seen."""
    if sandbox.bubblewrap() is None:
        pytest.skip("no bubblewrap sandbox runs here")
    toolkit = str(Path(patience.__path__[0]).resolve().parent)
    if Path(toolkit).is_relative_to("/tmp"):
        pytest.skip("the sandbox's /tmp is its own: a toolkit there cannot stand for one under /usr")
    monkeypatch.setattr(sandbox, "SYSTEM_FOLDERS", (*sandbox.SYSTEM_FOLDERS, toolkit))
    (tmp_path / "model.mzn").write_text('include "globals.mzn";\narray[1..3] of var 1..3: x;\n'
                                        "constraint all_different(x);\nsolve satisfy;\n")
    command = minizinc_command(MiniZinc().executable() or "minizinc", "gecode", 30, ["model.mzn"])
    run = run_process(sandbox.confined(command, tmp_path), Limits(timeout=60), cwd=tmp_path)
    assert run.returncode == 0 and "----------" in run.stdout, run.stderr
    models = Path(str(resources.files("patience.models").joinpath("minizinc-benchmarks-black-hole.mzn")))
    peek = run_process(sandbox.confined(["/bin/sh", "-c", f"cat '{models.resolve()}'"], tmp_path),
                       Limits(timeout=60), cwd=tmp_path)
    assert peek.returncode != 0 and peek.stdout == ""  # the teacher's models stay hidden
