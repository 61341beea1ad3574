"""MiniZinc: the models `gen mzn` writes, MiniZinc's output read back (and refused when it is not
what MiniZinc prints), the decode maps' checks, the backends, and the public benchmark model run
unchanged on the toolkit's `.dzn`."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from patience.cli import main
from patience.errors import InputError, UsageError
from patience.games import read_game_deal
from patience.generators.mzn import binary_star, black_hole, lbs
from patience.generators.mzn.solution import read_output
from patience.options import check_options
from patience.result import Status
from patience.runners import minizinc
from patience.runners.minizinc import MiniZinc, configured_backends
from patience.runners.solve import solve
from patience.runs.process import Limits, run_process
from tests.helpers import COURSE, INSTANCES, needs_solver, processes_with
from tests.test_binary_star import small_deal

PAPER = INSTANCES / "black_hole" / "paper-example.txt"
LBS5_0 = COURSE / "SolvableInstances" / "LBS5_0.param"
ERRORS = Path(__file__).parent / "corpus" / "minizinc-errors"
SOLUTION = '{\n  "x" : [0, 2, 1],\n  "y" : [0, 2, 1]\n}\n----------\n'


def test_a_solution_its_statistics_and_verdicts_are_read():
    output = read_output("%%%mzn-stat: nodes=12\n%%%mzn-stat-end\n" + SOLUTION, "out")
    assert output.values == {"x": [0, 2, 1], "y": [0, 2, 1]} and output.stats["nodes"] == "12"
    assert output.verdict is None
    for word in ("UNSATISFIABLE", "UNKNOWN", "ERROR"):
        output = read_output(f"=====  {word}  =====\n".replace(" ", ""), "out")
        assert output.values is None and output.verdict == word


def test_the_last_of_several_solutions_counts():
    assert read_output(SOLUTION + SOLUTION.replace("2, 1]", "1, 2]"), "out").values["x"] == [0, 1, 2]


@pytest.mark.parametrize("text", ["s SATISFIABLE\n", '{"x": [0, 1]\n----------\n', "[0, 1]\n----------\n",
                                  '{"x": [0]}\n'])
def test_output_minizinc_does_not_print_is_an_input_error(text):
    with pytest.raises(InputError):
        read_output(text, "out")


def test_decode_refuses_what_is_no_permutation_of_the_cards():
    deal = read_game_deal(PAPER)[1]
    model = black_hole.build(deal)
    good = list(range(52))
    assert len(model.decode({"x": good}, "out")) == 51  # decoding only: the validator judges the order
    for bad in ([0] * 52, good[:-1], [*good[:-1], 52], [str(value) for value in good], [True] * 52):
        with pytest.raises(InputError):
            model.decode({"x": bad}, "out")
    with pytest.raises(InputError):
        model.decode({"y": good}, "out")


def test_lbs_and_binary_star_decode_their_own_arrays():
    deal = read_game_deal(LBS5_0)[1]
    assert lbs.build(deal).decode({"actionFrom": [3, 2, 2, 2], "actionTo": [2, 1, 1, 1]}, "out") == (
        (3, 2), (2, 1), (2, 1), (2, 1))
    with pytest.raises(InputError):
        lbs.build(deal).decode({"actionFrom": [3, 2, 2], "actionTo": [2, 1, 1]}, "out")
    star = small_deal(0)
    model = binary_star.build(star)
    with pytest.raises(InputError):
        model.decode({"x": list(range(len(star.cards))), "f": [5] * len(star.cards)}, "out")


def test_gen_mzn_prints_the_data_and_the_model(capsys, tmp_path):
    assert main(["gen", "mzn", str(PAPER)]) == 0
    data = capsys.readouterr().out
    assert "n = 52;" in data and "symmetry_breaking = true;" in data and "follows = array2d(1.." in data
    assert main(["gen", "mzn", str(PAPER), "--symmetry-breaking", "off", "--model", "--search", "first-fail"]) == 0
    assert "int_search(x, first_fail, indomain_min)" in capsys.readouterr().out
    assert main(["gen", "mzn", str(PAPER), "--formulation", "benchmark", "-o", str(tmp_path)]) == 0
    assert (tmp_path / "deal.dzn").read_text().startswith("layout = array2d(1..17, 1..3,")
    assert "Mikael Zayenz Lagerkvist" in (tmp_path / "model.mzn").read_text()  # unchanged, licence and all
    assert main(["gen", "mzn", "--game", "lbs", "--model"]) == 0
    assert "int: ranks = 13;" in capsys.readouterr().out


def test_the_benchmark_formulation_refuses_other_deals(capsys):
    aiar = INSTANCES / "pysol" / "all_in_a_row" / "all_in_a_row-1.txt"
    assert main(["gen", "mzn", str(aiar), "--formulation", "benchmark"]) == 2
    assert "formulation=benchmark" in capsys.readouterr().err


@needs_solver("minizinc")
def test_gecode_is_a_configured_backend_and_the_default():
    """The backends a `--set backend=` value is checked against are those MiniZinc reports."""
    assert "gecode" in configured_backends()
    assert check_options(MiniZinc.options, {}, "minizinc")["backend"] == "gecode"
    for name in configured_backends():
        assert check_options(MiniZinc.options, {"backend": name}, "minizinc")["backend"] == name
    with pytest.raises(UsageError) as refused:
        check_options(MiniZinc.options, {"backend": "no-such-backend"}, "minizinc")
    assert str(refused.value).split("must be one of ")[1].split(", not")[0] == ", ".join(configured_backends())
    assert MiniZinc().version().startswith("MiniZinc 2.")


@pytest.fixture
def asked_backends(monkeypatch):
    """`minizinc --solvers-json` replaced by a recording fake (two backends); the cached list is
    dropped before and after, so that no other test sees the fake's."""
    asked = []

    def fake_run(command, limits):
        asked.append(command)
        listed = [{"id": "org.gecode.gecode"}, {"id": "org.chuffed.chuffed"}, {"id": "ide", "isGUIApplication": True}]
        return SimpleNamespace(returncode=0, stdout=json.dumps(listed), stderr="")

    monkeypatch.setattr(minizinc, "run_process", fake_run)
    monkeypatch.setattr(MiniZinc, "executable", lambda self: "minizinc")
    for cached in (minizinc._configurations,):
        cached.cache_clear()
    yield asked
    for cached in (minizinc._configurations,):
        cached.cache_clear()


def test_reading_the_options_starts_no_process_checking_a_backend_does(asked_backends):
    schema = MiniZinc().options
    backend = next(option for option in schema if option.name == "backend")
    choices = backend.values
    assert backend.default == "gecode" and asked_backends == []  # reading the schema asked nothing
    assert check_options(schema, {"backend": "chuffed"}, "minizinc")["backend"] == "chuffed"
    assert asked_backends == [["minizinc", "--solvers-json"]]  # checking a value did
    assert list(choices) == ["chuffed", "gecode"] and len(asked_backends) == 1  # once: the list is cached


@needs_solver("minizinc")
def test_a_backend_that_cannot_load_is_a_solver_error_that_says_why():
    unusable = [name for name in configured_backends() if name in minizinc.backend_failures()]
    if not unusable:
        pytest.skip("every configured backend runs here")
    result = solve(read_game_deal(LBS5_0)[1], "minizinc", Limits(timeout=30), {"backend": unusable[0]})
    assert result.status is Status.ERROR and result.message.startswith("MiniZinc: Error: ")
    assert "load" in result.message and "POSTs" not in result.message  # the cause, not a MIP backend's statistics
    assert result.version == f"MiniZinc {minizinc.minizinc_version()} ({unusable[0]})"


@needs_solver("minizinc")
def test_a_backend_is_listed_only_once_a_model_ran_on_it():
    """`patience solvers` names the backends that solved a model with a global here; Debian's
    CPLEX, Gurobi, SCIP and Xpress are configured but have no library to load."""
    running, failing = minizinc.running_backends(), minizinc.backend_failures()
    assert "gecode" in running and set(running) | set(failing) == set(configured_backends())
    assert MiniZinc().version() == f"MiniZinc {minizinc.minizinc_version()} ({', '.join(running)})"
    for name, cause in failing.items():
        assert "Error: " in cause and "POSTs" not in cause, (name, cause)
    if "cplex" in configured_backends():
        assert "cannot load cplex dll" in failing["cplex"]
    line = next(option for option in MiniZinc.options if option.name == "backend").describe()
    offered, _, said = line.partition(": ")
    assert offered.split("|") == list(running)
    apart = f"configured, not running here: {', '.join(sorted(failing))})" if failing else "(default gecode)"
    assert said.endswith(apart)


@pytest.mark.parametrize(("transcript", "cause"), [
    ("cplex", "Error: error: cannot load cplex dll, specify --cplex-dll"),
    ("xpress", "Error: plugin loading error: Failed to load plugin. Tried libxprs, /opt/xpressmp/lib/libxprs.so"),
    ("type-error", "typo.mzn:2.12-31: Error: type error: no function or predicate with name `alldifferent_typo' found"),
    ("assertion", "ev.mzn:3.12-43: Error: assertion failed: n must exceed 5"),
    ("stock-gecode-globals", "Error: type error: no function or predicate with this signature found: "
                             "`inverse(array[int] of var opt int,array[int] of var opt int)'"),
])
def test_a_minizinc_error_keeps_its_cause(transcript, cause):
    """MiniZinc 2.6.4's own error output (tests/corpus/minizinc-errors): the line that says what went
    wrong, after whatever a backend printed before it on that line, with the model's place."""
    assert minizinc.error_cause((ERRORS / f"{transcript}.txt").read_text()) == cause


def test_a_run_that_failed_without_a_word_says_its_exit():
    run = SimpleNamespace(returncode=1, stdout="", stderr="Warning: something\n")
    assert minizinc.failure_of(run) == "minizinc exit 1"
    assert minizinc.failure_of(SimpleNamespace(returncode=0, stdout=SOLUTION, stderr="")) is None


@needs_solver("minizinc")
@pytest.mark.parametrize("search", ["first-fail", "dom-w-deg", "free"])
def test_every_search_annotation_runs(search):
    result = solve(read_game_deal(LBS5_0)[1], "minizinc", Limits(timeout=30), {"search": search})
    assert result.status is Status.SOLVED


@needs_solver("minizinc")
def test_the_public_benchmark_model_decides_a_pysolfc_deal_unchanged(tmp_path, capsys):
    """PySolFC deal 25 is lost at once (no 2 or K on top); `convert --to dzn` is the benchmark's layout."""
    deal_file = tmp_path / "25.txt"
    assert main(["deal", "--game", "black_hole", "--seed", "25"]) == 0
    deal_file.write_text(capsys.readouterr().out)
    result = solve(read_game_deal(deal_file)[1], "minizinc", Limits(timeout=60), {"formulation": "benchmark"})
    assert result.status is Status.UNSOLVABLE
    assert solve(read_game_deal(deal_file)[1], "native", Limits(timeout=60)).status is Status.UNSOLVABLE


@pytest.mark.slow
@needs_solver("minizinc")
def test_the_public_benchmark_model_solves_the_paper_example():
    result = solve(read_game_deal(PAPER)[1], "minizinc", Limits(timeout=300), {"formulation": "benchmark"})
    assert result.status is Status.SOLVED


def test_a_child_in_a_process_group_of_its_own_is_counted_and_killed():
    """MiniZinc starts its FlatZinc solver with setpgid: the runner core follows the session."""
    mark = f"# spinner of {os.getpid()}"  # no other run's spinner carries it
    spinner = (f"import subprocess, sys; subprocess.Popen([sys.executable, '-c', 'while True: pass  {mark}'], "
               "process_group=0); import time; time.sleep(60)")
    run = run_process([sys.executable, "-c", spinner], Limits(timeout=60, cpu=1.0))
    assert run.timed_out and run.wall < 30 and run.cpu >= 1.0  # the spinner's CPU time ended the run
    assert processes_with(mark) == []


@pytest.mark.slow
@needs_solver("minizinc")
def test_minizinc_stopped_at_the_cpu_limit_leaves_no_flatzinc_solver(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # MiniZinc's FlatZinc file, named on the solver's command line
    deal = read_game_deal(PAPER)[1]
    result = solve(deal, "minizinc", Limits(timeout=120, cpu=2), {"formulation": "benchmark"})
    assert result.status is Status.TIMEOUT
    assert processes_with(str(tmp_path)) == []


@needs_solver("minizinc")
@needs_solver("clingo")
def test_patience_solvers_lists_minizinc_with_its_backends_and_clingo(capsys):
    assert main(["solvers", "--json"]) == 0
    solvers = {solver["name"]: solver for solver in json.loads(capsys.readouterr().out)}
    assert solvers["minizinc"]["version"].startswith("MiniZinc 2.") and "gecode" in solvers["minizinc"]["version"]
    assert solvers["clingo"]["installed"] and solvers["clingo"]["version"].startswith("clingo 5.")
    assert main(["solvers", "--verbose"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "    installed: MiniZinc 2." in "\n".join(lines)
    assert any("--set backend=" in line for line in lines)


@needs_solver("minizinc")
def test_what_a_minizinc_said_of_itself_stands_for_that_executable_only(tmp_path, monkeypatch):
    """A MiniZinc set on MINIZINC_PATH for a while (a fake that prints lists nested past Python's limit
    for --solvers-json) leaves the configurations and the Gecode library of the one found after it
    as that one says them."""
    real = (minizinc.solver_configurations(), minizinc.needs_own_gecode_library(), minizinc.minizinc_version())
    fake = tmp_path / "minizinc"
    fake.write_text(f"#!{sys.executable}\nimport sys\nsys.stdout.write('[' * 100000)\n")
    fake.chmod(0o755)
    monkeypatch.setenv("MINIZINC_PATH", str(fake))
    assert minizinc.solver_configurations() == () and minizinc.minizinc_version() is None
    assert not minizinc.needs_own_gecode_library()
    monkeypatch.delenv("MINIZINC_PATH")
    assert (minizinc.solver_configurations(), minizinc.needs_own_gecode_library(), minizinc.minizinc_version()) == real
    assert any(entry["id"] == minizinc.GECODE_ID for entry in real[0])
