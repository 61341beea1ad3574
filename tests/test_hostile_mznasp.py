"""The hostile-input corpus of the MiniZinc and clingo routes (tests/corpus/mznasp/): MiniZinc and
clingo output that the solvers do not print is a solver error (never a traceback, never a win), and
a bad LBS `.dzn` instance for `patience grade` is one `error:` line with exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from patience.cli import main
from patience.games import read_game_deal
from patience.generators.mzn import lbs
from patience.result import Status
from patience.runners import base
from patience.runners.solve import solve
from patience.runs.process import Limits, ProcessRun
from tests.helpers import COURSE, INSTANCES

CORPUS = Path(__file__).resolve().parent / "corpus" / "mznasp"
PAPER = INSTANCES / "black_hole" / "paper-example.txt"
LBS5_0 = COURSE / "SolvableInstances" / "LBS5_0.param"


def files(folder: str) -> list[Path]:
    return sorted((CORPUS / folder).iterdir())


def printed(monkeypatch, path: Path, returncode: int):
    stdout = path.read_bytes().decode("utf-8", errors="replace")
    monkeypatch.setattr(base, "run_process", lambda command, limits, cwd=None, **_: ProcessRun(
        tuple(command), returncode, stdout, "", 0.1, 0.1))


@pytest.mark.parametrize("path", files("minizinc"), ids=lambda path: path.name)
def test_minizinc_output(monkeypatch, path):
    printed(monkeypatch, path, 0)
    result = solve(read_game_deal(PAPER)[1], "minizinc", Limits(timeout=10))
    assert result.status is Status.ERROR and result.message


@pytest.mark.parametrize("path", files("clingo"), ids=lambda path: path.name)
def test_clingo_output(monkeypatch, path):
    printed(monkeypatch, path, 10)
    result = solve(read_game_deal(LBS5_0)[1], "clingo", Limits(timeout=10))
    assert result.status is Status.ERROR and result.message


@pytest.mark.parametrize("path", files("lbs-dzn"), ids=lambda path: path.name)
def test_lbs_dzn_instance(tmp_path, capsys, path):
    folder = tmp_path / "instances"
    folder.mkdir()
    (folder / path.name).write_bytes(path.read_bytes())
    model = tmp_path / "student.mzn"
    model.write_text(lbs.model_text())
    assert main(["grade", str(model), "--instances", str(folder)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error: ") and captured.err.count("\n") == 1
