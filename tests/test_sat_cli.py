"""Command-line DIMACS solvers: real runs where installed, the family readers on saved transcripts,
`gen cnf` and `patience decode model` end to end, bad solver output as one clear error."""

from __future__ import annotations

import shutil

import pytest

from patience.cli import main
from patience.errors import InputError
from patience.formats import read_deal
from patience.generators.cnf.black_hole import read_header
from patience.result import Status
from patience.runners.dimacs_output import (
    SATISFIABLE,
    UNKNOWN,
    UNSATISFIABLE,
    read_competition,
    read_minisat_result,
    read_stats,
)
from patience.runners.registry import get_solver
from patience.runners.solve import solve
from patience.runs.process import Limits
from patience.validator import replay
from tests.helpers import TRANSCRIPTS, needs_solver

SAT_TRANSCRIPTS = TRANSCRIPTS / "sat"
WON, LOST = read_deal(SAT_TRANSCRIPTS / "won.yaml"), read_deal(SAT_TRANSCRIPTS / "lost.yaml")
LIMITS = Limits(timeout=30)
COMPETITION = ("cadical", "picosat", "cryptominisat")


@pytest.mark.parametrize("solver", [pytest.param(name, marks=needs_solver(name))
                                    for name in ("cadical", "minisat", "picosat", "cryptominisat")])
def test_cli_solver_agrees_with_native_and_is_validated(solver):
    won = solve(WON, solver, LIMITS)
    assert won.status is Status.SOLVED and replay(WON, won.sequence).valid
    assert won.stats["conflicts"] >= 0 and won.cpu >= 0
    assert solve(LOST, solver, LIMITS).status is Status.UNSOLVABLE
    assert solve(LOST, "native", LIMITS).status is Status.UNSOLVABLE


@needs_solver("cadical")
def test_prefixed_binary_and_symmetry_option():
    path = shutil.which("cadical")
    result = solve(WON, f"sat:{path}", LIMITS, {"symmetry-breaking": "off", "cardinality": "ladder"})
    assert result.status is Status.SOLVED
    assert result.solver == f"sat:{path}"


def test_prefixed_binary_that_does_not_exist():
    result = solve(WON, "sat:/nonexistent/solver", LIMITS)
    assert result.status is Status.ERROR and "not installed" in result.message


def script(folder, name: str, body: str):
    """An executable shell script standing in for a SAT solver."""
    path = folder / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def test_prefixed_binary_that_prints_nonsense_is_an_error(tmp_path):
    fake = script(tmp_path, "fake-sat", "echo 's MAYBE'\n")
    result = solve(WON, f"sat:{fake}", LIMITS)
    assert result.status is Status.ERROR and "unreadable solver output" in result.message


def test_prefixed_binary_that_lies_is_caught_by_the_validator(tmp_path):
    fake = script(tmp_path, "liar", "echo 's SATISFIABLE'\necho 'v -1 -2 0'\n")
    result = solve(WON, f"sat:{fake}", LIMITS)
    assert result.status is Status.ERROR and "rejected by the validator" in result.message


def test_prefixed_binary_killed_at_the_time_limit(tmp_path):
    fake = script(tmp_path, "slow", "echo 's UNSATISFIABLE'\nsleep 30\n")
    result = solve(WON, f"sat:{fake}", Limits(timeout=0.5))
    assert result.status is Status.TIMEOUT and result.wall < 5


@pytest.mark.parametrize("name", ["won", "lost"])
@pytest.mark.parametrize("tool", COMPETITION)
def test_competition_transcripts_decode_and_replay(name, tool):
    text = (SAT_TRANSCRIPTS / f"{name}.{tool}.out").read_text()
    verdict = read_competition(text, "x")
    assert verdict.stats.get("conflicts", 0) > 0
    if name == "lost":
        assert verdict.status == UNSATISFIABLE
        return
    assert verdict.status == SATISFIABLE
    decode = read_header((SAT_TRANSCRIPTS / "won.cnf").read_text(), "won.cnf")
    assert replay(WON, decode.sequence(verdict.true_variables)).valid


def test_minisat_result_files():
    decode = read_header((SAT_TRANSCRIPTS / "won.cnf").read_text(), "won.cnf")
    log = (SAT_TRANSCRIPTS / "won.minisat.log").read_text()
    won = read_minisat_result((SAT_TRANSCRIPTS / "won.minisat.result").read_text(), "r", log)
    assert won.status == SATISFIABLE and won.stats["conflicts"] >= 0
    assert replay(WON, decode.sequence(won.true_variables)).valid
    lost = read_minisat_result((SAT_TRANSCRIPTS / "lost.minisat.result").read_text(), "r")
    assert lost.status == UNSATISFIABLE
    assert read_minisat_result("INDET\n", "r").status == UNKNOWN


def test_stat_lines_of_each_family():
    assert read_stats("c conflicts:   73   58353.32 per second") == {"conflicts": 73}
    assert read_stats("c conflicts                : 46") == {"conflicts": 46}
    assert read_stats("conflicts             : 12  (1 /sec)") == {"conflicts": 12}
    assert read_stats("c 64 conflicts\nc 0 decisions") == {"conflicts": 64, "decisions": 0}


@pytest.mark.parametrize("text, line", [
    ("s SATISFIABLE\nv 1 -2 x 0\n", 2),
    ("s PERHAPS\n", 1),
])
def test_bad_competition_output_names_the_line(text, line):
    with pytest.raises(InputError) as caught:
        read_competition(text, "out")
    assert caught.value.line == line


def test_satisfiable_without_a_model_is_rejected():
    with pytest.raises(InputError):
        read_competition("s SATISFIABLE\nv 1 2\n", "out")
    with pytest.raises(InputError):
        read_minisat_result("SAT\n1 2\n", "out")
    assert read_competition("c nothing\n", "out").status == UNKNOWN


def test_gen_cnf_and_decode_model_end_to_end(tmp_path, capsys):
    assert main(["gen", "cnf", str(SAT_TRANSCRIPTS / "won.yaml"), "-o", str(tmp_path)]) == 0
    assert (tmp_path / "deal.cnf").read_text() == (SAT_TRANSCRIPTS / "won.cnf").read_text()
    capsys.readouterr()
    code = main(["decode", "model", str(SAT_TRANSCRIPTS / "won.cnf"), str(SAT_TRANSCRIPTS / "won.cadical.out")])
    out = capsys.readouterr().out
    assert code == 0 and "valid: 14 moves" in out
    assert main(["decode", "model", str(SAT_TRANSCRIPTS / "won.cnf"), str(SAT_TRANSCRIPTS / "won.minisat.result")]) == 0
    assert main(["decode", "model", str(SAT_TRANSCRIPTS / "lost.cnf"), str(SAT_TRANSCRIPTS / "lost.picosat.out")]) == 1


def test_decode_model_of_another_deal_is_rejected(capsys):
    code = main(["decode", "model", str(SAT_TRANSCRIPTS / "lost.cnf"), str(SAT_TRANSCRIPTS / "won.cadical.out")])
    assert code == 4 and "invalid" in capsys.readouterr().out


@pytest.mark.parametrize("args, where", [
    (["won.yaml", "won.cadical.out"], "won.yaml:1: not a CNF written by `gen cnf`"),
    (["won.cnf", "README.md"], "README.md:1: expected SAT, UNSAT or INDET"),
])
def test_decode_bad_input_is_one_error_line(args, where, capsys):
    assert main(["decode", "model", *(str(SAT_TRANSCRIPTS / arg) for arg in args)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(f"error: {SAT_TRANSCRIPTS}/{where}")
    assert captured.err.count("\n") == 1


def test_decode_model_refuses_literals_beyond_the_formula(tmp_path, capsys):
    cnf = (SAT_TRANSCRIPTS / "won.cnf").read_text()
    variables = int(next(line for line in cnf.splitlines() if line.startswith("p cnf")).split()[2])
    answer, headless = tmp_path / "answer.out", tmp_path / "headless.cnf"
    answer.write_text(f"s SATISFIABLE\nv 1 -{variables + 1} 0\n")
    headless.write_text("".join(line + "\n" for line in cnf.splitlines() if line.startswith("c")))
    for arguments, message in [
        ([str(SAT_TRANSCRIPTS / "won.cnf"), str(answer)],
         f"{answer}:2: literal -{variables + 1} names a variable beyond the formula's {variables}"),
        ([str(headless), str(SAT_TRANSCRIPTS / "won.cadical.out")], f"{headless}: no `p cnf VARIABLES CLAUSES` line"),
    ]:
        assert main(["decode", "model", *arguments]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.startswith(f"error: {message}") and captured.err.count("\n") == 1


@pytest.mark.parametrize("name", [pytest.param(name, marks=needs_solver(name)) for name in ("cadical", "minisat")])
def test_debian_binaries_report_their_package_version(name):
    """CaDiCaL 1.5.3 calls itself `sc2021` and MiniSat has no --version: the package says more."""
    solver = get_solver(name)
    if not solver.executable().startswith("/usr/bin/"):
        pytest.skip(f"{name} is not Debian's binary here")
    assert "Debian " in solver.version() and any(character.isdigit() for character in solver.version())
