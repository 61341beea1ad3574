"""The contract every registered solver keeps, checked for each one installed here (BenchExec's
test_tool_info and CPMpy's test_solvers do the same): a new solver gets these checks for free.

- an unknown option, or an unknown value, is a usage error (exit 2) and nothing runs;
- output its reader cannot make sense of is a solver error (exit 4), never bad input;
- a kill at the time limit is a timeout, and nothing of the run is left behind;
- the paper's example is solved, the moves replay and no temporary file is left; so is an LBS deal,
  where the solver plays LBS.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

import pytest

from patience.cli import main
from patience.deal import Deal
from patience.games import read_game_deal
from patience.generators.deals import random_deal
from patience.options import check_options
from patience.result import Status
from patience.runners import base
from patience.runners.base import ProcessSolver
from patience.runners.registry import SOLVERS, get_solver
from patience.runners.sat_embedded import EmbeddedCadical, EmbeddedSat
from patience.runners.solve import solve
from patience.runs.process import Limits, ProcessRun
from tests.helpers import INSTANCES, processes_with

PAPER = INSTANCES / "black_hole" / "paper-example.txt"
LBS = INSTANCES / "lbs-coursework" / "SolvableInstances" / "LBS5_0.param"


def installed(name: str):
    solver = get_solver(name)
    return pytest.param(name, marks=pytest.mark.skipif(
        not solver.available(), reason=f"{name} not installed: {solver.install_hint()}"))


EVERY = [installed(name) for name in SOLVERS]
# the paper's example through Choco's JVM takes most of a minute of CPU: a slow test (ACE's stays)
PAPER_EXAMPLE = [pytest.param(*case.values, marks=[*case.marks, pytest.mark.slow], id=case.id)
                 if case.values == ("choco",) else case for case in EVERY]
PROCESSES = [installed(name) for name in SOLVERS if isinstance(get_solver(name), ProcessSolver)]
# each kill waits out its solver's grace (5 s for most): two in the default set, the others slow
KILLS = [case if case.values[0] in ("cpsat", "clingo") else
         pytest.param(*case.values, marks=[*case.marks, pytest.mark.slow], id=case.id) for case in PROCESSES]


def a_deal_for(name: str) -> Deal:
    """The paper's example; MIP solvers, which need minutes for it, get a small generalised deal, and
    so do PySAT's other engines (up to 10 s of CPU for Lingeling), whose CNF and embedding are those of
    `sat`, which plays the paper's example here."""
    solver = get_solver(name)
    if solver.paradigm == "mip" or (isinstance(solver, EmbeddedSat) and name != EmbeddedCadical.name):
        return random_deal(4, 3, 2, seed=1)
    return read_game_deal(PAPER)[1]


@pytest.mark.parametrize("name", SOLVERS)
def test_an_unknown_option_is_a_usage_error(name, capsys):
    assert main(["solve", str(PAPER), "--solver", name, "--set", "symetry-breaking=off"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and f"{name} has no option 'symetry-breaking'" in captured.err


@pytest.mark.parametrize("name", SOLVERS)
def test_an_unknown_value_is_a_usage_error(name, capsys):
    for option in get_solver(name).options:
        if option.values:
            assert main(["solve", str(PAPER), "--solver", name, "--set", f"{option.name}=nonsense"]) == 2
            assert f"option {option.name} must be" in capsys.readouterr().err


@pytest.mark.parametrize("name", SOLVERS)
def test_the_schema_defaults_are_values_of_the_schema(name):
    solver = get_solver(name)
    typed = check_options(solver.options, {}, name)
    assert set(typed) == {option.name for option in solver.options}


@pytest.mark.parametrize("name", PROCESSES)
def test_garbled_output_is_a_solver_error(name, monkeypatch, tmp_path, capsys):
    def garbled(command, limits, cwd=None, **_):
        return ProcessRun(tuple(command), 0, "\x00garbage \u2603 s MAYBE\nv x[] <values>\n", "", 0.1, 0.1)

    monkeypatch.setattr(base, "run_process", garbled)
    assert main(["solve", str(PAPER if "black_hole" in get_solver(name).games else LBS), "--solver", name]) == 4
    captured = capsys.readouterr()
    assert "status: error" in captured.out and captured.err == ""


def _sleep_mark(name: str) -> str:
    """A sleep length no other process runs, not even this test in another checkout at the same time."""
    return f"47.{os.getpid()}{list(SOLVERS).index(name)}"


@pytest.mark.parametrize("name", KILLS)
def test_a_kill_at_the_limit_is_a_timeout_and_leaves_nothing_running(name, monkeypatch):
    solver_class = type(get_solver(name))
    mark = _sleep_mark(name)
    sleeper = [sys.executable, "-c", f"import subprocess, time; subprocess.Popen(['sleep', '{mark}']); "
                                     f"time.sleep({mark})"]
    monkeypatch.setattr(solver_class, "command", lambda self, model, limits, options: sleeper)
    limits = Limits(timeout=1.0)
    deal = read_game_deal(PAPER if "black_hole" in solver_class.games else LBS)[1]
    started = time.monotonic()
    result = solve(deal, name, limits)
    assert result.status is Status.TIMEOUT
    assert time.monotonic() - started < solver_class().run_limits(limits).timeout + 10
    assert processes_with(mark) == []


@pytest.mark.parametrize("name", PAPER_EXAMPLE)
def test_the_paper_example_is_solved_and_replayed(name, tmp_path, monkeypatch):
    if "black_hole" not in get_solver(name).games:
        pytest.skip(f"{name} plays no Black Hole deals")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # every temporary folder of the run lands here
    deal = a_deal_for(name)
    result = solve(deal, name, Limits(timeout=120))
    assert result.status is Status.SOLVED, result.message
    assert len(result.sequence) == len(deal.cards)  # judge() replayed it; every card is played
    assert list(tmp_path.iterdir()) == []  # and the run left no file behind


@pytest.mark.parametrize("name", EVERY)
def test_an_lbs_deal_is_solved_and_replayed(name):
    if "lbs" not in get_solver(name).games:
        pytest.skip(f"{name} plays no LBS deals")
    game, deal = read_game_deal(LBS)
    result = solve(deal, name, Limits(timeout=120))
    assert result.status is Status.SOLVED, result.message
    assert game.replay(deal, result.sequence).valid and len(result.sequence) == len(deal.cards) - 1
