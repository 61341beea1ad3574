"""Issue 28, the core's part: exit codes that cannot lie (an unexpected exception is one line
`internal error: ...`, exit 70), the Python search under the runner core, experiment files that
name programs, and output paths that cannot be written. The inputs that once broke a command are
kept in tests/corpus/core/ and replayed here."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from patience import cli
from patience.commands import solvers as solvers_command
from patience.exit_codes import ExitCode
from patience.formats import read_deal
from patience.games import read_game_deal
from patience.pages.report import page_names
from patience.result import Status
from patience.runners.solve import solve
from patience.runs.process import Limits
from tests.helpers import INSTANCES, processes_with

CORPUS = Path(__file__).resolve().parent / "corpus" / "core"
PAPER = str(INSTANCES / "black_hole" / "paper-example.txt")
THOUSAND_FOUNDATIONS = CORPUS / "binary-star-1000-foundations.yaml"


def patience(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "patience", *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})}, cwd=cwd)


def one_error_line(run: subprocess.CompletedProcess, prefix: str) -> str:
    """The run failed with exit 2, one line on stderr starting with `prefix`, nothing on stdout."""
    assert (run.returncode, run.stdout) == (ExitCode.BAD_INPUT, ""), run.stderr
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(prefix), run.stderr
    return lines[0]


# --- exit codes that cannot lie ---------------------------------------------------------------

def _failing(exception: BaseException):
    def handler(args):
        raise exception
    return handler


def test_an_unexpected_exception_is_one_line_and_exit_70(monkeypatch, capsys):
    monkeypatch.delenv(cli.DEBUG_VARIABLE, raising=False)
    monkeypatch.setattr(solvers_command, "run", _failing(RuntimeError("boom\nsecond line")))
    assert cli.main(["solvers"]) == ExitCode.INTERNAL_ERROR == 70
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == ["internal error: RuntimeError: boom second line (--debug shows the traceback)"]


@pytest.mark.parametrize("where", [["--debug", "solvers"], ["solvers", "--debug"], ["solvers"]])
def test_debug_or_the_variable_shows_the_traceback(monkeypatch, capsys, where):
    if where == ["solvers"]:
        monkeypatch.setenv(cli.DEBUG_VARIABLE, "1")
    else:
        monkeypatch.delenv(cli.DEBUG_VARIABLE, raising=False)
    monkeypatch.setattr(solvers_command, "run", _failing(KeyError("lost")))
    assert cli.main(where) == ExitCode.INTERNAL_ERROR
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):") and "raise exception" in err
    assert err.splitlines()[-1] == "internal error: KeyError: 'lost'"


def test_gen_takes_debug_too(monkeypatch, capsys):
    from patience.commands import gen

    monkeypatch.delenv(cli.DEBUG_VARIABLE, raising=False)
    monkeypatch.setattr(gen, "run", _failing(ZeroDivisionError("division by zero")))
    assert cli.gen_main(["pddl", PAPER]) == ExitCode.INTERNAL_ERROR
    assert "Traceback" not in capsys.readouterr().err
    assert cli.gen_main(["pddl", PAPER, "--debug"]) == ExitCode.INTERNAL_ERROR
    assert "Traceback" in capsys.readouterr().err


def test_an_internal_error_line_is_cut_short(monkeypatch, capsys):
    monkeypatch.delenv(cli.DEBUG_VARIABLE, raising=False)
    monkeypatch.setattr(solvers_command, "run", _failing(ValueError("x" * 100_000)))
    assert cli.main(["solvers"]) == ExitCode.INTERNAL_ERROR
    assert len(capsys.readouterr().err) < 500


def test_out_of_memory_is_one_error_line_and_exit_2(monkeypatch, capsys):
    monkeypatch.delenv(cli.DEBUG_VARIABLE, raising=False)
    monkeypatch.setattr(solvers_command, "run", _failing(MemoryError()))
    assert cli.main(["solvers"]) == ExitCode.BAD_INPUT
    assert capsys.readouterr().err.splitlines() == [
        "error: out of memory: the input is too large for the memory available"]


def test_an_os_error_on_a_named_file_is_an_error_line_and_exit_2(monkeypatch, capsys):
    monkeypatch.setattr(solvers_command, "run", _failing(PermissionError(13, "Permission denied", "secret.txt")))
    assert cli.main(["solvers"]) == ExitCode.BAD_INPUT
    assert capsys.readouterr().err.splitlines() == ["error: secret.txt: Permission denied"]
    monkeypatch.setattr(solvers_command, "run", _failing(OSError(28, "No space left on device")))
    assert cli.main(["solvers"]) == ExitCode.INTERNAL_ERROR  # no file named: not the user's input


def test_the_installed_command_exits_70_on_a_bug():
    """Through the real entry point and sys.exit, as a script or a campaign sees it."""
    program = ("import sys\nimport patience.commands.solvers as solvers\n"
               "def broken(args):\n    raise AssertionError('an invariant broke')\n"
               "solvers.run = broken\nfrom patience.cli import main\nsys.exit(main(['solvers']))\n")
    environment = {key: value for key, value in os.environ.items() if key != cli.DEBUG_VARIABLE}
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60, env=environment)
    assert (run.returncode, run.stdout) == (70, "")
    assert run.stderr == "internal error: AssertionError: an invariant broke (--debug shows the traceback)\n"


# --- the Python search under the runner core ----------------------------------------------------

def test_a_board_the_compiled_search_refuses_times_out_in_a_child(monkeypatch):
    marker = f"PATIENCE_TEST_{uuid.uuid4().hex}"
    monkeypatch.setenv(marker, "1")
    game, deal = read_game_deal(str(THOUSAND_FOUNDATIONS))
    started = time.monotonic()
    result = solve(deal, "native", Limits(timeout=2), {"max-cards": "on"})
    took = time.monotonic() - started
    assert result.status is Status.TIMEOUT and took < 2 + 2.5  # was 6.8 s in this process for 3 s
    assert result.version == "python" and result.stats["engine"] == "python"
    assert "patience.runners.python_search" in result.command
    assert processes_with(marker, "environ") == []


def test_the_memory_limit_holds_for_the_python_search():
    _, deal = read_game_deal(str(THOUSAND_FOUNDATIONS))
    result = solve(deal, "native", Limits(timeout=30, memory_mb=5), {"max-cards": "on"})  # Python alone is more
    assert result.status is Status.MEMOUT and result.wall < 10


def test_the_banner_and_json_name_the_engine_that_ran():
    run = patience("solve", str(THOUSAND_FOUNDATIONS), "--solver", "native", "--timeout", "1")
    assert run.returncode == ExitCode.UNDECIDED
    assert "solver: native (python)" in run.stdout.splitlines()
    paper = patience("solve", PAPER, "--solver", "native", "--set", "engine=python", "--json")
    assert '"version": "python"' in paper.stdout and '"status": "solved"' in paper.stdout


def test_the_python_engine_still_solves_and_is_validated(paper_deal):
    result = solve(paper_deal, "native", Limits(timeout=30), {"engine": "python"})
    assert result.status is Status.SOLVED and len(result.sequence) == 51 and result.version == "python"


def test_the_lbs_search_runs_in_a_child_too():
    _, deal = read_game_deal(str(next((INSTANCES / "lbs-coursework").rglob("*.param"))))
    result = solve(deal, "native", Limits(timeout=30))
    assert result.status in (Status.SOLVED, Status.UNSOLVABLE) and result.version == "python"
    assert "patience.runners.python_search" in result.command


def test_garbled_child_output_is_a_solver_error(monkeypatch):
    from patience.runners import python_search
    from patience.runs.process import ProcessRun

    def garbled(task, limits):
        return ProcessRun(("search",), 0, '{"status": "solved", "nodes": "many"}\n', "", 0.1, 0.1)

    monkeypatch.setattr(python_search, "_run", garbled)
    result = solve(read_deal(PAPER), "native", Limits(timeout=5), {"engine": "python"})
    assert result.status is Status.ERROR and "wrong type" in result.message and result.version == "python"


# --- experiment files that name programs ---------------------------------------------------------

def _experiment_with_program(tmp_path: Path) -> tuple[Path, Path]:
    program = tmp_path / "fake-sat"
    program.write_text('#!/bin/sh\ntouch "$(dirname "$0")/it-ran"\necho "s UNKNOWN"\n')
    program.chmod(0o755)
    experiment = tmp_path / "experiment.yaml"
    experiment.write_text((CORPUS / "experiment-names-a-program.yaml").read_text().replace("PROGRAM", str(program)))
    return experiment, tmp_path / "it-ran"


def test_an_experiment_naming_a_program_is_refused_without_the_flag(tmp_path):
    experiment, ran = _experiment_with_program(tmp_path)
    run = patience("compare", "--experiment", str(experiment), "--db", str(tmp_path / "c.db"), "--quiet")
    line = one_error_line(run, f"error: {experiment}: configuration foreign: solver sat:")
    assert "--allow-executables" in line
    assert not ran.exists() and not (tmp_path / "c.db").exists()


def test_the_flag_lets_it_run(tmp_path):
    experiment, ran = _experiment_with_program(tmp_path)
    run = patience("compare", "--experiment", str(experiment), "--db", str(tmp_path / "c.db"), "--quiet",
                   "--allow-executables")
    assert run.returncode == 0, run.stderr
    assert ran.exists()


def test_compare_help_says_experiment_files_are_code():
    text = " ".join(patience("compare", "--help").stdout.split())
    assert "--allow-executables" in text and "is code" in text


# --- output paths --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("store")
    run = patience("compare", "--deals", "black_hole:1", "--solvers", "native", "--db", str(folder / "c.db"),
                   "--quiet", "--timeout", "20")
    assert run.returncode == 0, run.stderr
    return folder / "c.db"


@pytest.mark.parametrize("command", [
    ["gen", "pddl", PAPER, "-o", "FILE"],
    ["deal", "--count", "2", "--dir", "FILE"],
    ["report", "STORE", "--html", "FILE"],
    ["report", "STORE", "--plots", "FILE"],
    ["report", "STORE", "--plots", "out", "--html", "FILE"],
])
def test_a_file_where_a_folder_is_expected(tmp_path, store, command):
    (tmp_path / "FILE").write_text("mine\n")
    arguments = [str(store) if word == "STORE" else word for word in command]
    run = patience(*arguments, cwd=tmp_path)
    one_error_line(run, "error: FILE: not a folder")
    assert (tmp_path / "FILE").read_text() == "mine\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["FILE"]  # nothing else written


def test_report_html_into_proc(store):
    one_error_line(patience("report", str(store), "--html", "/proc/x"), "error: /proc/x: cannot create the folder")


@pytest.mark.parametrize("command", [
    ["survey", "report", "--db", "none.db", "--plot", "missing/x.png"],
    ["show", PAPER, "-o", "missing/x.html"],
])
def test_a_file_in_a_missing_folder(tmp_path, command):
    run = patience(*command, cwd=tmp_path)
    one_error_line(run, f"error: {command[-1]}: cannot write the file: its folder missing does not exist")
    assert list(tmp_path.iterdir()) == []


def test_a_page_named_by_a_long_deal_path(tmp_path):
    """A deal file whose path is over 255 characters gets a page whose name every file system
    takes, and the index links only to pages that were written."""
    folder = tmp_path.joinpath(*["d" * 60] * 5)
    folder.mkdir(parents=True)
    deal = folder / ("paper-example-" + "x" * 150 + ".txt")
    deal.write_text(Path(PAPER).read_text())
    assert len(str(deal)) > 255
    db = tmp_path / "long.db"
    assert patience("compare", "--deals", str(deal), "--solvers", "native", "--db", str(db), "--quiet").returncode == 0
    run = patience("report", str(db), "--html", str(tmp_path / "page"))
    assert run.returncode == 0, run.stderr
    index = (tmp_path / "page" / "index.html").read_text()
    pages = list((tmp_path / "page" / "deals").iterdir())
    assert len(pages) == 1 and len(pages[0].name) <= 255 and f'deals/{pages[0].name}"' in index


def test_long_page_names_stay_short_and_distinct():
    long_a, long_b = "a/" * 200 + "deal.txt", "b/" * 200 + "deal.txt"
    names = page_names([long_a, long_b, "black_hole:17"])
    assert len(set(names.values())) == 3 and all(len(name) <= 130 for name in names.values())
    assert names["black_hole:17"] == "black_hole_17.html"


def test_a_folder_under_a_file(tmp_path):
    (tmp_path / "FILE").write_text("mine\n")
    run = patience("gen", "pddl", PAPER, "-o", "FILE/models", cwd=tmp_path)
    one_error_line(run, f"error: FILE/models: cannot create the folder: {tmp_path / 'FILE'} is not a folder")
    assert (tmp_path / "FILE").read_text() == "mine\n"
